"""How steady the search's choice is: the same positions searched with other seeds, by depth.

Plays games of the search (`--player`, default `search:nodes=40`) against a reference bot, keeps
every decision in which a move was open (the search's whole input: its side's request and lines),
then searches each kept position again with several seeds at each depth and node budget, and prints
how often two seeds pick the same action (pairwise) and how often the pick is a switch. A noisy
search agrees with itself less, and the noise picks the actions whose worth varies most. Figures,
not pass/fail.

    python benchmarks/search_stability.py --games 2 --nodes 40,200 --depths 1,2,3 --seeds 3
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pokeview.battle import seeds  # noqa: E402
from pokeview.battle.loop import play_game  # noqa: E402
from pokeview.battle.spec import GameSpec  # noqa: E402
from pokeview.players import make_player  # noqa: E402
from pokeview.sim.client import Bridge  # noqa: E402
from pokeview.store import open_store  # noqa: E402


class Recorder:
    """The search player, keeping the query of each decision in which a move was open."""

    def __init__(self, spec: str, kept: list[dict[str, Any]]) -> None:
        self.inner = make_player(spec)
        self.kept = kept

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def decide(self, ctx: Any) -> Any:
        forced = ctx.request.force_switch or ctx.request.team_preview
        if not forced and len(self.inner.open_actions(ctx)) > 1:
            self.kept.append({**self.inner.query(ctx), "stream": None})
        return await self.inner.decide(ctx)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games to take positions from")
    parser.add_argument("--player", default="search:nodes=40", help="the search that plays")
    parser.add_argument("--vs", default="heuristic")
    parser.add_argument("--seed", default="search-stability", help="seed text of the games")
    parser.add_argument("--nodes", default="40", help="comma-separated node budgets")
    parser.add_argument("--depths", default="1,2,3", help="comma-separated depths")
    parser.add_argument("--seeds", type=int, default=3, help="searches of each position")
    parser.add_argument("--turn-limit", type=int, default=300)
    args = parser.parse_args()
    kept: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp) / "stability.db")
        async with Bridge(hosts=1) as bridge:
            for g in range(args.games):
                me = Recorder(args.player, kept)
                rival = make_player(args.vs)
                p1, p2 = (me, rival) if g % 2 == 0 else (rival, me)
                await play_game(
                    GameSpec(
                        format="gen9randombattle",
                        seed=seeds.game_seed(args.seed, g // 2),
                        p1=p1,  # type: ignore[arg-type]
                        p2=p2,  # type: ignore[arg-type]
                        turn_limit=args.turn_limit,
                    ),
                    bridge=bridge,
                    store=store,
                )
            host = bridge.searcher()
            print(f"{len(kept)} positions from {args.games} games against {args.vs}")
            for nodes, depth in itertools.product(
                (int(n) for n in args.nodes.split(",")), (int(d) for d in args.depths.split(","))
            ):
                agree = 0.0
                switches = 0
                for query in kept:
                    picks = []
                    for k in range(args.seeds):
                        answer = await host.search(
                            {
                                **query,
                                "budget": {"nodes": nodes},
                                "depth": depth,
                                "seed": f"{query['seed']}-{k}",
                            }
                        )
                        picks.append(answer["index"])
                        switches += query["actions"][answer["index"]].startswith("switch")
                    same = [a == b for a, b in itertools.combinations(picks, 2)]
                    agree += sum(same) / max(1, len(same))
                n = max(1, len(kept))
                print(
                    f"nodes={nodes} depth={depth}: seeds agree {100 * agree / n:5.1f}%, "
                    f"switches {100 * switches / (n * args.seeds):5.1f}% of picks",
                    flush=True,
                )
        store.close()


if __name__ == "__main__":
    asyncio.run(main())
