"""The record's Python CPU per game against an earlier pokeview, in the same run (`make bench`).

The earlier code (by default the last commit of record schema 2, what issue 12 calls "today's")
is taken from git into a temporary directory; both play the same seeded random-vs-random games,
40 at a time, 8 at once, on one bridge each, in separate processes taking turns, so that what
else the machine is doing falls on both alike. Reported: each one's median CPU seconds per game
and their ratio, with Python's default garbage collector and with the CLI's tuning (`tune_gc`).

CPU seconds on a shared or throttled machine drift by a quarter from minute to minute, more than
the differences being looked for. So where valgrind is installed, each code's instructions per
game are counted as well (callgrind, Python's process only): runs of 2 and of 12 games, the
difference divided by 10, so start-up and imports drop out. Counts repeat to about 1.5%.
Figures, not assertions.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_2 = "217ea55"  # the last commit writing record schema 2 (issue 12's "today")


def child(games: int, tune: bool, at_once: int = 8) -> None:
    """Play the games with the pokeview found on sys.path; print CPU seconds per game."""
    import asyncio
    import inspect
    import time

    from pokeview.battle import seeds
    from pokeview.battle.loop import play_game
    from pokeview.players import make_player
    from pokeview.sim.client import Bridge
    from pokeview.store import open_store

    if tune:
        from pokeview.cli import tune_gc

        tune_gc()
    takes_spec = "spec" in inspect.signature(play_game).parameters  # since the record's v3
    # Recorded step by step, as the earlier code records: a game of two random bots is played
    # whole by default since schema 7, its recording left until it is first read.
    step_by_step = {"whole": False} if "whole" in inspect.signature(play_game).parameters else {}

    async def one(n: int, bridge: Bridge, store) -> None:
        seed = seeds.game_seed("record-bench", n // 2)
        p1, p2 = make_player("random"), make_player("random")
        if takes_spec:
            from pokeview.battle.spec import GameSpec

            spec = GameSpec(format="gen9randombattle", seed=seed, p1=p1, p2=p2)
            await play_game(spec, bridge=bridge, store=store, **step_by_step)
        else:
            await play_game("gen9randombattle", seed, p1, p2, bridge=bridge, store=store)

    async def main(db: Path) -> float:
        store = open_store(db)
        async with Bridge() as bridge:
            semaphore = asyncio.Semaphore(at_once)

            async def limited(n: int) -> None:
                async with semaphore:
                    await one(n, bridge, store)

            await limited(0)  # warm up (imports, JIT); not counted
            cpu = time.process_time()
            await asyncio.gather(*(limited(n) for n in range(1, games + 1)))
            cpu = (time.process_time() - cpu) / games
        store.close()
        return cpu

    with tempfile.TemporaryDirectory() as tmp:
        print(asyncio.run(main(Path(tmp) / "cpu.db")))


def checkout(rev: str, into: Path) -> Path:
    archive = into / "code.tar"
    with archive.open("wb") as out:
        taken = subprocess.run(
            ["git", "archive", rev, "pokeview"], cwd=ROOT, stdout=out, stderr=subprocess.PIPE
        )
    if taken.returncode != 0:  # a shallow clone, say
        raise SystemExit(f"cannot take {rev} from git: {taken.stderr.decode().strip()}")
    with tarfile.open(archive) as tar:
        tar.extractall(into / "code", filter="data")
    return into / "code"


def run_child(
    code: Path, games: int, tune: bool, at_once: int, under: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(code)}
    args = [sys.executable, __file__, "--child", "--games", str(games), "--at-once", str(at_once)]
    run = subprocess.run(
        [*under, *args, *(["--tune-gc"] if tune else [])], env=env, capture_output=True, text=True
    )
    if run.returncode != 0:
        last = run.stderr.strip().splitlines()[-1:] or [f"exit status {run.returncode}"]
        raise SystemExit(f"the {code} run failed: {last[0]}")
    return run


def measure(code: Path, games: int, tune: bool, at_once: int) -> float:
    return float(run_child(code, games, tune, at_once).stdout.split()[-1])


def instructions(code: Path, tune: bool, at_once: int) -> float:
    """Instructions per game in Python's process: 12 games less 2, over 10."""
    counts = []
    with tempfile.TemporaryDirectory() as tmp:
        for games in (2, 12):
            # valgrind writes to its own file, so that a child's stderr ends with its own error
            log = Path(tmp) / f"callgrind-{games}.log"
            callgrind = ("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null")
            run_child(code, games, tune, at_once, under=(*callgrind, f"--log-file={log}"))
            text = log.read_text() if log.exists() else ""
            found = re.search(r"Collected : (\d+)", text)
            if not found:
                raise SystemExit(f"callgrind wrote no count: {text.strip()[-200:]}")
            counts.append(int(found.group(1)))
    return (counts[1] - counts[0]) / 10


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", default=SCHEMA_2, help="the earlier commit (git revision)")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each, taking turns")
    parser.add_argument("--games", type=int, default=40, help="games per run")
    parser.add_argument("--at-once", type=int, default=8, help="games played at once")
    parser.add_argument(
        "--no-instructions", action="store_true", help="skip the instruction counts (valgrind)"
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tune-gc", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.games, args.tune_gc, args.at_once)
        return 0
    print(f"The record's Python CPU per random-vs-random game: this code against {args.against}")
    how = f"{args.games} games a run, {args.at_once} at once"
    print(f"({how}, median of {args.rounds} runs taking turns)")
    print(f"{'garbage collector':<20} {args.against:>10} {'now':>8} {'ratio':>6}  each round's")
    with tempfile.TemporaryDirectory() as tmp:
        earlier = checkout(args.against, Path(tmp))
        for tune in (False, True):
            times: dict[str, list[float]] = {"earlier": [], "now": []}
            for _ in range(args.rounds):
                times["earlier"].append(measure(earlier, args.games, tune, args.at_once))
                times["now"].append(measure(ROOT, args.games, tune, args.at_once))
            before, now = (statistics.median(times[k]) for k in ("earlier", "now"))
            label = "the CLI's tuning" if tune else "Python's default"
            # Each round's own ratio too (its two runs minutes apart at most): their spread says
            # how far one comparison can be trusted on this machine.
            rounds = sorted(n / e for e, n in zip(times["earlier"], times["now"], strict=True))
            spread = f"{rounds[0]:.2f} to {rounds[-1]:.2f}"
            print(f"{label:<20} {before:>10.4f} {now:>8.4f} {now / before:>6.2f}  {spread}")
        if args.no_instructions:
            return 0
        if not shutil.which("valgrind"):
            print("valgrind is not installed: no instruction counts")
            return 0
        how = f"callgrind; 12 games less 2, up to {args.at_once} at once"
        print(f"\nInstructions per game (millions; {how})")
        for tune in (False, True):
            before, now = (instructions(code, tune, args.at_once) / 1e6 for code in (earlier, ROOT))
            label = "the CLI's tuning" if tune else "Python's default"
            print(f"{label:<20} {before:>10.1f} {now:>8.1f} {now / before:>6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
