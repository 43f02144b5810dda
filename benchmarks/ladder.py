"""The ladder against a full round robin, on bots of known order (issue 17).

For each seed text: a round robin of PAIRS mirror pairs per matchup between random, max-damage,
heuristic and a `module:Class` player between random and max-damage; then a ladder on the same
seed text (so its games are a subset of the round robin's) with a games budget of half the
round robin's (`--fraction`). Prints, per seed, the games each played, whether the ladder's
order is the round robin's, and whether the ladder's intervals contain the round robin's ratings.

    .venv/bin/python benchmarks/ladder.py --pairs 8 --seeds 3
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.players_for_tests

from pokeview.ratings.summary import build_report  # noqa: E402
from pokeview.sim.client import Bridge  # noqa: E402
from pokeview.store import open_store  # noqa: E402
from pokeview.tournament import ladder, ladder_play  # noqa: E402
from pokeview.tournament.config import parse_run_config  # noqa: E402
from pokeview.tournament.runner import run_tournament  # noqa: E402

PLAYERS = ["random", "max-damage", "heuristic", "tests.players_for_tests:HalfMaxDamage"]


async def compare(seed: str, pairs: int, turn_limit: int, db: Path, fraction: float) -> dict:
    store = open_store(db)
    config = parse_run_config(
        {
            "name": f"rr-{seed}",
            "seed": seed,
            "pairs": pairs,
            "players": PLAYERS,
            "turn_limit": turn_limit,
            "concurrency": 4,
        },
        Path("."),
    )
    async with Bridge() as bridge:
        started = time.monotonic()
        await run_tournament(config, store=store, bridge=bridge)
        rr_seconds = time.monotonic() - started
        rr_games = len(store.rating_games(store.run(config.name).id))
        ladder.create_ladder(
            store, f"ladder-{seed}", anchors=["max-damage=1000"], seed=seed, turn_limit=turn_limit
        )
        for player in PLAYERS:
            if player not in ("random", "max-damage"):
                ladder.add_player(store, f"ladder-{seed}", player)
        started = time.monotonic()
        outcome = await ladder_play.play_ladder(
            store,
            bridge,
            f"ladder-{seed}",
            budget_games=int(rr_games * fraction),
            say=lambda _: None,
            allow_modules=PLAYERS,
        )
        ladder_seconds = time.monotonic() - started
    rr = build_report(store, config.name)
    lad = build_report(store, f"ladder-{seed}")
    rr_order = [p.name for p in rr.players]
    lad_order = [p.name for p in lad.players]
    rated = {p.name: p for p in lad.players}
    outside = [
        f"{p.name} {p.rating:.0f} not in [{rated[p.name].low:.0f}, {rated[p.name].high:.0f}]"
        for p in rr.players
        if not rated[p.name].low - 0.5 <= p.rating <= rated[p.name].high + 0.5
    ]
    store.close()
    return {
        "seed": seed,
        "rr_games": rr_games,
        "ladder_games": lad.games,
        "played": outcome.played,
        "why": outcome.why_stopped,
        "same_order": rr_order == lad_order,
        "rr": {p.name: round(p.rating) for p in rr.players},
        "ladder": {p.name: (round(p.low), round(p.rating), round(p.high)) for p in lad.players},
        "outside": outside,
        "seconds": (round(rr_seconds, 1), round(ladder_seconds, 1)),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=8)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--turn-limit", type=int, default=100)
    parser.add_argument(
        "--fraction",
        type=float,
        default=0.5,
        help="the ladder's budget, of the round robin's games",
    )
    args = parser.parse_args()
    good = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.seeds):
            result = asyncio.run(
                compare(
                    f"ladder-bench-{n}",
                    args.pairs,
                    args.turn_limit,
                    Path(tmp) / f"{n}.db",
                    args.fraction,
                )
            )
            ok = result["same_order"] and not result["outside"]
            good += ok
            print(
                f"{result['seed']}: round robin {result['rr_games']} games "
                f"({result['seconds'][0]}s), ladder {result['ladder_games']} rated games "
                f"({result['seconds'][1]}s, stopped: {result['why']}); same order: "
                f"{result['same_order']}; intervals contain the round robin's ratings: "
                f"{not result['outside']}",
                flush=True,
            )
            print(f"  round robin {result['rr']}\n  ladder (low, rating, high) {result['ladder']}")
            for line in result["outside"]:
                print(f"  outside: {line}")
    print(f"{good} of {args.seeds} seeds: same order and intervals holding the round robin's")


if __name__ == "__main__":
    main()
