"""The bridge's Node CPU per bot game beside Showdown's alone, on the same input logs, no Python.

    python benchmarks/bridge_cpu.py                       # random vs random, 64 games
    python benchmarks/bridge_cpu.py --against OTHER_CHECKOUT --alternations 3

Plays the games once through the bridge to get their input logs, then runs
benchmarks/bridge_cpu.js on them: this checkout's bridge (16 games interleaved, and one at a
time), the replay (Showdown alone, as benchmarks/replay.js), and with --against another
checkout's bridge, alternating, so two versions of the bridge are measured minutes apart on the
same games. CPU time, not wall time: steadier on a shared machine, but not immune to its load
(caches, other processes on the same cores), so the load is printed beside each figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from run import pokeview_rate  # noqa: E402

from pokeview.sim import install  # noqa: E402
from pokeview.sim.client import Bridge  # noqa: E402
from pokeview.store import open_store  # noqa: E402


def cpu_per_game(checkout: Path, node_dir: Path, logs: Path, mode: str, at_once: int, rounds: int):
    done = subprocess.run(
        ["node", str(ROOT / "benchmarks" / "bridge_cpu.js"), str(checkout), str(node_dir)]
        + [str(logs), mode, str(at_once), str(rounds)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stderr.strip().splitlines()[-1])["cpu_s_per_game"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matchup", default="random,random", help="two bots, comma-separated")
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds over the logs")
    parser.add_argument("--against", type=Path, help="another checkout's bridge to compare")
    parser.add_argument("--alternations", type=int, default=1)
    args = parser.parse_args()
    p1, p2 = args.matchup.split(",")
    node_dir = install.ensure_installed()
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp) / "games.db")

        async def play() -> list[int]:
            async with Bridge() as bridge:
                _, ids = await pokeview_rate(bridge, store, p1, p2, args.games, 16, "bridge-cpu")
            return ids

        ids = asyncio.run(play())
        logs = Path(tmp) / "logs.json"
        logs.write_text(json.dumps([store.game(i).input_log for i in ids]))
        store.close()
        checkouts = [("this", ROOT)] + ([("against", args.against)] if args.against else [])
        cores = os.cpu_count()
        print(f"{p1} vs {p2}, {args.games} games, Node CPU seconds per game ({cores} cores)")
        for n in range(args.alternations):
            for name, checkout in checkouts:
                for at_once in (16, 1):
                    s = cpu_per_game(checkout, node_dir, logs, "bridge", at_once, args.rounds)
                    what = f"{name} bridge, {at_once} at a time"
                    print(f"  {n + 1}. {what:28} {s:.4f}  load {os.getloadavg()[0]:.1f}")
            s = cpu_per_game(ROOT, node_dir, logs, "replay", 1, args.rounds)
            what = "replay (Showdown alone)"
            print(f"  {n + 1}. {what:28} {s:.4f}  load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
