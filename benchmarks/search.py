"""The search player's strength: mirror pairs against a reference bot, with Wilson intervals.

Each pair is one game seed played twice with the seats (and so the teams) swapped, so luck of
the draw cancels out. `--depths 1,2,3` sweeps the search's depth over the same pairs (deeper
search must not play worse: PokéBench's phantom-KO lesson). Figures, not pass/fail.

    python benchmarks/search.py --pairs 50 --ms 200
    python benchmarks/search.py --pairs 50 --cpu 200      # 200 ms of CPU, however busy the machine
    python benchmarks/search.py --pairs 20 --nodes 60 --depths 1,2,3
"""

from __future__ import annotations

import argparse
import asyncio
import math
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pokeview.battle import seeds  # noqa: E402
from pokeview.battle.loop import play_game  # noqa: E402
from pokeview.battle.spec import GameSpec  # noqa: E402
from pokeview.game.decision import SearchDetail  # noqa: E402
from pokeview.players import make_player  # noqa: E402
from pokeview.sim.client import Bridge  # noqa: E402
from pokeview.store import open_store  # noqa: E402


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n)


async def match(
    spec: str, rival: str, pairs: int, text: str, concurrency: int, db: Path, budget_ms: float
) -> dict:
    store = open_store(db)
    semaphore = asyncio.Semaphore(concurrency)
    score = {"win": 0, "loss": 0, "tie": 0, "error": 0}
    nodes: list[int] = []
    elapsed: list[float] = []
    cpu: list[float] = []

    async with Bridge(hosts=1) as bridge:

        async def one(pair: int, search_seat: str) -> None:
            p1, p2 = (spec, rival) if search_seat == "p1" else (rival, spec)
            async with semaphore:
                result = await play_game(
                    GameSpec(
                        format="gen9randombattle",
                        seed=seeds.game_seed(text, pair),
                        p1=make_player(p1),
                        p2=make_player(p2),
                        seed_text=text,
                        pair=pair,
                        seat=0 if search_seat == "p1" else 1,
                    ),
                    bridge=bridge,
                    store=store,
                )
            if result.status != "finished":
                score["error"] += 1
            elif result.winner == search_seat:
                score["win"] += 1
            elif result.winner == "tie":
                score["tie"] += 1
            else:
                score["loss"] += 1
            for d in store.decisions(result.game_id, search_seat):
                if isinstance(d.detail, SearchDetail) and d.detail.search.nodes:
                    info = d.detail.search
                    nodes.append(info.nodes)
                    elapsed.append(info.elapsed_ms or 0)
                    cpu.append(info.cpu_ms or 0)

        started = time.perf_counter()
        await asyncio.gather(*(one(k, seat) for k in range(pairs) for seat in ("p1", "p2")))
        seconds = time.perf_counter() - started
    store.close()
    games = score["win"] + score["loss"] + score["tie"]
    points = score["win"] + 0.5 * score["tie"]
    low, high = wilson(points, games)
    return {
        **score,
        "games": games,
        "rate": points / games if games else 0.0,
        "low": low,
        "high": high,
        "nodes": sum(nodes) / len(nodes) if nodes else 0,
        "ms": sum(elapsed) / len(elapsed) if elapsed else 0,
        "ms_max": max(elapsed) if elapsed else 0,
        # A CPU budget is kept in CPU time; a wall-clock one in elapsed time.
        "over": (
            sum(1 for e in (cpu if "cpu=" in spec else elapsed) if e > 1.1 * budget_ms)
            / len(elapsed)
            if elapsed
            else 0
        ),
        "cpu": sum(cpu) / len(cpu) if cpu else 0,
        "seconds": seconds,
    }


def line(label: str, r: dict) -> str:
    return (
        f"{label:<28} {r['win']:>3}-{r['loss']:<3} ({r['tie']} ties, {r['error']} errors)  "
        f"{100 * r['rate']:5.1f}%  [{100 * r['low']:.1f}%, {100 * r['high']:.1f}%]  "
        f"{r['nodes']:.0f} nodes, {r['ms']:.0f} ms (max {r['ms_max']:.0f}, "
        f"{100 * r['over']:.1f}% over budget+10%, CPU {r['cpu']:.0f} ms) per search, "
        f"{r['seconds']:.0f} s"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10, help="mirror pairs per setting")
    parser.add_argument("--ms", type=int, default=None, help="time budget per decision")
    parser.add_argument("--cpu", type=int, default=None, help="CPU-time budget per decision")
    parser.add_argument("--nodes", type=int, default=None, help="node budget (deterministic)")
    parser.add_argument("--depths", default="1", help="comma-separated depths to sweep")
    parser.add_argument("--vs", default="heuristic", help="the rival bot")
    parser.add_argument("--seed", default="search-bench", help="seed text of the pairs")
    parser.add_argument("--concurrency", type=int, default=2)
    args = parser.parse_args()
    if args.nodes:
        budget = f"nodes={args.nodes}"
    elif args.cpu:
        budget = f"cpu={args.cpu}"
    else:
        budget = f"ms={args.ms or 200}"
    print(f"search vs {args.vs}: {args.pairs} mirror pairs per depth, seed '{args.seed}'")
    with tempfile.TemporaryDirectory() as tmp:
        for depth in (int(d) for d in args.depths.split(",")):
            spec = f"search:{budget},depth={depth}"
            db = Path(tmp) / f"depth{depth}.db"
            budget_ms = args.cpu or args.ms or (200 if not args.nodes else float("inf"))
            result = await match(
                spec, args.vs, args.pairs, args.seed, args.concurrency, db, budget_ms
            )
            print(line(spec, result), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
