"""`pokeview site` on a run of about 1,000 bot games (`make bench`): the build's seconds and CPU,
the site's size, its game pages' sizes, and a rebuild after 10 more games, beside the targets
of issue 32. Figures, not assertions: nothing here passes or fails.

The games are played by `pokeview run` as a user would (bots only: their words are left for
later, so the first build derives them, in Node, and writes them back); each build is the
`pokeview site` command, its CPU that of the whole process tree (Python, its workers, Node).
The 10 more games are the run's last mirror pair, taken out of the record before the first
build and played again by `pokeview run` resuming the run (a config once run cannot change).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pokeview.store import open_store  # noqa: E402

POKEVIEW = [sys.executable, "-m", "pokeview"]
MATCHUPS = [  # five matchups: one more mirror pair is 10 more games
    ["random", "max-damage"],
    ["random", "heuristic"],
    ["max-damage", "heuristic"],
    ["benchmarks.players:AlwaysSwitch", "heuristic"],
    ["benchmarks.players:AlwaysSwitch", "max-damage"],
]
TARGETS = {"build s": 60.0, "size MB": 100.0, "page KB": 200.0, "rebuild s": 5.0}


def run_config(path: Path, pairs: int) -> Path:
    players = sorted({p for m in MATCHUPS for p in m})
    path.write_text(
        "\n".join(
            [
                'name = "site-bench"',
                'seed = "site-bench"',
                'format = "gen9randombattle"',
                f"pairs = {pairs}",
                "turn_limit = 150",
                "concurrency = 16",
                f"players = {players!r}".replace("'", '"'),
                f"matchups = {MATCHUPS!r}".replace("'", '"'),
            ]
        )
        + "\n"
    )
    return path


TICK = os.sysconf("SC_CLK_TCK")


def node_cpu(root: int, seen: dict[int, float]) -> None:
    """The CPU seconds so far of each Node process under `root` (by pid, into `seen`): a
    reader's Node is left to end with its process, never waited for, so the operating system
    does not count it among the children's CPU."""
    parents: dict[int, int] = {}
    stats: dict[int, list[str]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                text = (entry / "stat").read_text()
            except OSError:
                continue  # gone meanwhile
            fields = text.rsplit(")", 1)[1].split()
            parents[int(entry.name)] = int(fields[1])
            stats[int(entry.name)] = [text.split("(", 1)[1].rsplit(")", 1)[0], *fields]
    for pid, fields in stats.items():
        up = pid
        while up in parents and up != root:
            up = parents[up]
        if up == root and fields[0] == "node":
            seen[pid] = (int(fields[12]) + int(fields[13])) / TICK  # utime + stime


# The build in one process, as before worker processes (for --serial).
SERIAL = """import sys
from pathlib import Path
from pokeview.battle import later
from pokeview.site.build import build_site
from pokeview.store import open_store
later.install()
build_site(open_store(Path(sys.argv[1])), "site-bench", Path(sys.argv[2]), workers=0)
"""


def timed(*args: str, argv: list[str] = POKEVIEW) -> tuple[float, float, float]:
    """Run `pokeview ARGS` from the repository (benchmarks.players imports from there): its
    wall seconds, the CPU seconds (user + system) of it and the processes it waited for (its
    workers), and of the Node processes under it (sampled 4 times a second)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    child = subprocess.Popen(
        [*argv, *args], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    nodes: dict[int, float] = {}
    while child.poll() is None:
        node_cpu(child.pid, nodes)
        time.sleep(0.25)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if child.returncode != 0:
        sys.exit(f"pokeview {' '.join(args)} failed: {child.stderr.read().strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, sum(nodes.values())


def last_pair(db: str) -> int:
    """Take the run's last mirror pair's games out of the record: how many."""
    store = open_store(Path(db))
    try:
        games = store.run_games(store.run("site-bench").id)
        last = [g for g in games if g.pair == max(g.pair for g in games)]
        for g in last:
            store.delete_game(g.id)
        store.commit()
    finally:
        store.close()
    return len(last)


def sizes(folder: Path) -> tuple[float, list[int]]:
    """The site's total size in MB, and each game page's size in bytes."""
    total = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    pages = [p.stat().st_size for p in folder.glob("game-*.html")]
    return total / 1e6, pages


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=100, help="mirror pairs (10 games each)")
    parser.add_argument("--keep", metavar="DIR", help="keep the database and sites here")
    parser.add_argument(
        "--serial",
        action="store_true",
        help="also the first build in one process (no workers), from the same record, after",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(args.keep or tmp)
        work.mkdir(parents=True, exist_ok=True)
        db = str(work / "site-bench.db")
        print(f"pokeview site: {args.pairs * len(MATCHUPS) * 2} bot games (load {load()})")
        config = str(run_config(work / "run.toml", args.pairs + 1))
        wall, _, _ = timed("run", config, "--db", db)
        print(f"  played in {wall:.0f} s (load {load()}); the last 10 taken out: {last_pair(db)}")
        played = work / "played.db"  # as played, its words not derived yet
        shutil.copy(db, played)
        site = work / "site"
        build, build_cpu, build_node = timed("site", "site-bench", "-o", str(site), "--db", db)
        mb, pages = sizes(site)
        again = timed("site", "site-bench", "-o", str(work / "site2"), "--db", db)
        print(f"  built (load {load()})")
        timed("run", config, "--db", db)
        rebuild, rebuild_cpu, rebuild_node = timed(
            "site", "site-bench", "-o", str(site), "--db", db
        )
        print(f"  10 more games played, rebuilt (load {load()})")
        if args.serial:
            serial = timed(str(played), str(work / "serial"), argv=[sys.executable, "-c", SERIAL])
            print(f"  built in one process (load {load()})")

    def cpu(python: float, node: float) -> str:
        return f"CPU: Python {python:.1f} s, Node {node:.1f} s"

    rows = [
        ("first build (derives the bots' words)", build, "build s", cpu(build_cpu, build_node)),
        ("build again, words kept, new folder", again[0], "build s", cpu(*again[1:])),
        ("site size, MB", mb, "size MB", f"{len(pages)} game pages"),
        ("largest game page, KB", max(pages) / 1e3, "page KB", ""),
        ("median game page, KB", statistics.median(pages) / 1e3, "page KB", ""),
        ("rebuild after 10 more games, s", rebuild, "rebuild s", cpu(rebuild_cpu, rebuild_node)),
    ]
    print(f"  {'':<40} {'figure':>8} {'target':>7} {'of it':>6}")
    for what, figure, target, note in rows:
        limit = TARGETS[target]
        print(f"  {what:<40} {figure:>8.1f} {limit:>7.0f} {figure / limit:>6.2f}  {note}")
    if args.serial:
        print(
            f"  first build in one process: {serial[0]:.1f} s, {cpu(*serial[1:])}; with workers "
            f"{build / serial[0]:.2f} of its time"
        )
    over = sum(size > TARGETS["page KB"] * 1e3 for size in pages)
    print(f"  game pages over 200 KB: {over} of {len(pages)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
