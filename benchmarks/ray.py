"""`pokeview run --ray` on a local Ray cluster beside the same run without Ray, in one run.

A cluster of two worker processes on this machine (a head and a second node on loopback, one CPU
each, as `ray.cluster_utils.Cluster` starts them) plays the same seeded run as `pokeview run`
alone. Two parts:

- overhead and scaling: a long run (1,000 games) without Ray and on 2 workers, in turn for
  `--rounds` rounds (this machine's speed drifts by more than Ray's overhead within minutes, so
  each round's ratio is of two runs side by side, and the target is read on their median), then
  once on 1 worker; long enough that starting Ray's workers (about a second, once) is not most
  of it;
- faults: a 200-game run without Ray, on 2 workers, and on 2 with a worker process killed twice;
- the same long rounds and the killed worker again on a pool of 2 workers kept by
  `pokeview ray-pool` (started once before them, as a person keeps one between runs), which a
  run finds instead of starting its own.

For each: games per second (over the whole command, and between the first and the last game
recorded, which leaves out starting), the seconds of starting and stopping, the machine's load
beside it, and whether the record is the same: the same games (pair, seat, players, winner,
turns, input log), none twice, `pokeview verify --all` clean, the same ratings. Ratios, not
wall-clock limits: nothing here passes or fails.

    .venv/bin/python benchmarks/ray.py [--pairs 100] [--overhead-pairs 500] [--rounds 3]
                                       [--p1 heuristic --p2 max-damage]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# This file's own folder leaves the path, so that `import ray` is Ray, not this file.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

from tests.helpers import sqlite_file  # noqa: E402
from tests.ray.cluster import games, local_cluster, ratings, worker_pids  # noqa: E402
from tests.ray.cluster import recorded as count  # noqa: E402

# Ray rewrites a loopback address to the machine's own unless told (see tests/ray/conftest.py).
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
TARGET_OVERHEAD = 0.9  # games/s on Ray over games/s without, on the same machine


@dataclass
class Measured:
    what: str
    games: int
    seconds: float  # the whole command
    steady: float  # games/s between the first and the last game recorded
    load: tuple[float, float]  # the 1-minute load average before and after
    said: str

    @property
    def rate(self) -> float:
        return self.games / self.seconds


def run(
    what: str, config: Path, db: Path, *more: str, kill: int = 0, total: int = 0, cluster=None
) -> Measured:
    before = os.getloadavg()[0]
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pokeview", "run", str(config), "--db", str(db), *more],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    for n in range(kill):  # a worker process killed at a third and at two thirds of the run
        at = (n + 1) * total // (kill + 1)
        while proc.poll() is None and (count(db) < at or len(worker_pids(cluster)) < 2):
            time.sleep(0.1)
        if proc.poll() is None:
            os.kill(worker_pids(cluster)[0], signal.SIGKILL)
    said, _ = proc.communicate(timeout=3600)
    seconds = time.monotonic() - start
    if proc.returncode != 0:
        raise SystemExit(f"{what}: pokeview run failed: {said}")
    with sqlite_file(db) as conn:
        first, last, n = conn.execute(
            "select min(ended_at), max(ended_at), count(*) from games"
        ).fetchone()
    steady = (n - 1) / max(1e-9, _seconds(last) - _seconds(first))
    return Measured(what, n, seconds, steady, (before, os.getloadavg()[0]), said.strip())


def _seconds(stamp: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(stamp).timestamp()


def pool(action: str, *more: str) -> None:
    """`pokeview ray-pool ACTION ...`, which must succeed."""
    out = subprocess.run(
        [sys.executable, "-m", "pokeview", "ray-pool", action, *more],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        raise SystemExit(f"pokeview ray-pool {action} failed: {out.stderr.strip()}")


def verified(db: Path) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "pokeview", "verify", "--all", "--quiet", "--db", str(db)],
        capture_output=True,
        text=True,
    )
    return f"{out.stdout.strip()} (exit {out.returncode})"


def write_config(
    path: Path, name: str, pairs: int, args: argparse.Namespace, seed: str = ""
) -> Path:
    path.write_text(
        f'name = "{name}"\nseed = "{seed or name}"\nformat = "gen9randombattle"\n'
        f"pairs = {pairs}\nplayers = [{args.p1!r}, {args.p2!r}]\n"
        f"concurrency = {args.concurrency}\n".replace("'", '"')
    )
    return path


def long_round(
    n: int, config: Path, work: Path, ray: tuple[str, ...], *, kept: bool = False
) -> list[tuple[Measured, str]]:
    """Round `n` of the long run: without Ray, then on 2 workers (the other way round in odd
    rounds, so that neither always comes first), and in round 0 on 1 worker between them; or,
    `kept`, without Ray and on the pool's 2 workers."""
    two = "Ray, 2 kept workers" if kept else "Ray, 2 workers"
    plan: list[tuple[str, str, tuple[str, ...]]] = [
        ("without Ray", f"{'kept' if kept else 'long'}-here-{n}", ()),
        (two, f"{'kept' if kept else 'long'}-two-{n}", (*ray, "2")),
    ]
    if n == 0 and not kept:
        plan.insert(1, ("Ray, 1 worker", "long-one", (*ray, "1")))
    done = {
        db: run(f"{what} ({n + 1})", config, work / f"{db}.db", *more)
        for what, db, more in (plan if n % 2 == 0 else plan[::-1])
    }
    return [(done[db], db) for _, db, _ in plan]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--pairs", type=int, default=100, help="mirror pairs (2 games each) of the kill test"
    )
    parser.add_argument(
        "--overhead-pairs",
        type=int,
        default=500,
        help="mirror pairs of the runs that measure overhead and scaling (long enough that "
        "starting Ray, a second or so, is not most of it)",
    )
    parser.add_argument(
        "--rounds", type=int, default=3, help="rounds of the long run without Ray and on 2 workers"
    )
    parser.add_argument("--p1", default="heuristic")
    parser.add_argument("--p2", default="max-damage")
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="pokeview-bench-ray-"))
    name = "bench-ray"  # both configs: the same seed, so the kill test's games are the first
    short = write_config(work / "short.toml", name, args.pairs, args)
    # Each long round its own seed (its two runs the same): a kept pool's Node hosts never
    # replay games they played, which would flatter them.
    long = [
        write_config(work / f"long-{n}.toml", name, args.overhead_pairs, args, f"{name}-{n}")
        for n in range(args.rounds * 2)
    ]
    cluster = local_cluster(work)
    try:
        address = cluster.address
        ray = ("--ray", address, "--ray-workers")

        def killed(workers: str, db: str) -> tuple[Measured, str]:
            """The short run on 2 workers, one killed at a third and at two thirds of it."""
            what, total = f"Ray, 2 {workers}, one killed twice", args.pairs * 2
            path = work / f"{db}.db"
            return run(what, short, path, *ray, "2", kill=2, total=total, cluster=cluster), db

        rounds = [long_round(n, long[n], work, ray) for n in range(args.rounds)]
        faults = [
            (run("without Ray", short, work / "here.db"), "here"),
            (run("Ray, 2 workers", short, work / "two.db", *ray, "2"), "two"),
            killed("workers", "killed"),
        ]
        pool("start", address, "--workers", "2")
        try:
            pooled = [
                long_round(n, long[args.rounds + n], work, ray, kept=True)
                for n in range(args.rounds)
            ]
            faults.append(killed("kept workers", "killed-kept"))
        finally:
            pool("stop", address)
    finally:
        cluster.shutdown()
    print(
        f"{args.p1} vs {args.p2}, {args.concurrency} at a time, on {os.cpu_count()} cores "
        "shared with other work. 'fixed': the command's seconds beyond its games at the steady "
        "rate (starting and stopping)"
    )
    groups = [
        (f"overhead and scaling: {args.overhead_pairs * 2} games, round {n + 1}", r)
        for n, r in enumerate(rounds)
    ] + [
        (f"on a kept pool (`pokeview ray-pool`): {args.overhead_pairs * 2} games, round {n + 1}", r)
        for n, r in enumerate(pooled)
    ]
    for title, results in (*groups, (f"a worker killed: {args.pairs * 2} games", faults)):
        print(f"\n{title}")
        print(
            f"{'run':<34} {'games':>5} {'games/s':>8} {'ratio':>6} {'steady':>7} {'ratio':>6} "
            f"{'fixed':>6} {'load':>11}  same record"
        )
        base, here = results[0][0], work / f"{results[0][1]}.db"
        for m, db in results:
            path = work / f"{db}.db"
            rows = games(path)
            keys = [(r[0], r[1], r[2], r[3]) for r in rows]
            same = (
                f"{len(rows)} games, {len(keys) - len(set(keys))} twice, "
                f"games {'==' if rows == games(here) else '!='}, "
                f"ratings {'==' if ratings(path, name) == ratings(here, name) else '!='}, "
                f"verify: {verified(path)}"
            )
            print(
                f"{m.what:<34} {m.games:>5} {m.rate:>8.2f} {m.rate / base.rate:>6.2f} "
                f"{m.steady:>7.2f} {m.steady / base.steady:>6.2f} "
                f"{m.seconds - m.games / m.steady:>6.2f} "
                f"{m.load[0]:>5.2f}→{m.load[1]:<5.2f}  {same}"
            )
            if "started again" in m.said:
                print(f"{'':<34} {m.said.rsplit('; ', 1)[-1]}")
    ratios = sorted(r[-1][0].rate / r[0][0].rate for r in rounds)
    kept = sorted(r[-1][0].rate / r[0][0].rate for r in pooled)
    short_ratio = faults[1][0].rate / faults[0][0].rate
    print(
        f"\ntarget: Ray at 2 workers ≥ {TARGET_OVERHEAD}× without Ray: "
        f"{statistics.median(ratios):.2f} over {args.overhead_pairs * 2} games, the median of "
        f"{len(ratios)} rounds ({', '.join(f'{r:.2f}' for r in ratios)}); on a kept pool "
        f"{statistics.median(kept):.2f} ({', '.join(f'{r:.2f}' for r in kept)}); "
        f"{short_ratio:.2f} over {args.pairs * 2}, where starting Ray weighs more; scaling "
        f"from 1 worker to 2 (round 1): {rounds[0][2][0].rate / rounds[0][1][0].rate:.2f}×"
    )


if __name__ == "__main__":
    main()
