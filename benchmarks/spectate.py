"""Live spectating (`make bench`): latency from an event being written to it being on screen,
with 1 and 5 spectators, and the runner's throughput with and without 5 spectators.

Spectators are real app processes (headless Textual) reading the same SQLite file; the one that
is measured runs in this process under Textual's driver. Reports; asserts nothing.
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pokeview.app import make_app  # noqa: E402
from pokeview.screens.watch import WatchScreen  # noqa: E402
from pokeview.store import open_store  # noqa: E402
from pokeview.widgets.battle_log import BattleLog  # noqa: E402

# A spectator in its own process: `spectate RUN`, or `watch GAME_ID` live from p1's side.
SPECTATOR = """
import sys
from pathlib import Path
from pokeview.app import make_app
from pokeview.screens.spectate import SpectateScreen
from pokeview.screens.watch import WatchScreen
db, kind, what = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
if kind == "spectate":
    make_app(db, lambda: SpectateScreen(db, what)).run(headless=True)
else:
    make_app(db, lambda: WatchScreen(db, int(what))).run(headless=True)
"""


def spectators(n: int, db: Path, *start: str) -> list[subprocess.Popen]:
    return [
        subprocess.Popen(
            [sys.executable, "-c", SPECTATOR, str(db), *start],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=ROOT,
        )
        for _ in range(n)
    ]


def stop(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        p.kill()
        p.wait()


def live_game(db: Path) -> int:
    store = open_store(db)
    game_id = store.create_game(
        format="gen9randombattle",
        seed="0" * 64,
        p1="a",
        p2="b",
        p1_config={},
        p2_config={},
        pokeview_version="bench",
    )
    store.close()
    return game_id


async def latencies(db: Path, game_id: int, samples: int = 40) -> list[float]:
    writer = open_store(db)
    app = make_app(db, lambda: WatchScreen(db, game_id))
    out = []
    async with app.run_test(size=(120, 40)) as pilot:
        while getattr(app.screen, "replay", None) is None:
            await pilot.pause(0.01)
        log = app.screen.query_one(BattleLog)
        for n in range(samples):
            marker = f"marker line {n}"
            writer.append_events(
                game_id,
                [
                    (
                        "p1",
                        "side",
                        {
                            "lines": [],
                            "text": [marker],
                            "request": None,
                            "error": None,
                            "state": None,
                        },
                    )
                ],
                time.time(),
            )
            writer.commit()
            written = time.perf_counter()
            while not any(marker in line for line in log.shown[-5:]):
                await pilot.pause(0.002)
            out.append(time.perf_counter() - written)
            await pilot.pause(0.05)
    writer.close()
    return out


def runner_rate(db: Path, name: str, watchers: int) -> float:
    config = db.parent / f"{name}.toml"
    config.write_text(
        f'name = "{name}"\nseed = "spectate-bench"\npairs = 6\n'
        'players = ["random", "max-damage", "heuristic"]\nconcurrency = 8\n'
    )
    procs = spectators(watchers, db, "spectate", name)
    time.sleep(2 if watchers else 0)  # let them start and poll an empty run
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "pokeview", "run", str(config), "--db", str(db)],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
    )
    seconds = time.perf_counter() - started
    stop(procs)
    return 36 / seconds


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "spectate.db"
        open_store(db).close()
        game_id = live_game(db)
        rows = []
        for watchers in (1, 5):
            extra = spectators(watchers - 1, db, "watch", str(game_id))
            time.sleep(2 if watchers > 1 else 0)
            lat = asyncio.run(latencies(db, game_id))
            stop(extra)
            q = statistics.quantiles(lat, n=20)
            rows.append((watchers, statistics.median(lat), q[18]))
        runner_rate(db, "warm-up", 0)
        alone = runner_rate(db, "alone", 0)
        watched = runner_rate(db, "watched", 5)
    print("\nLive spectating (the viewer polls the record every 0.25 s)\n")
    for watchers, median, p95 in rows:
        print(
            f"event written → on screen, {watchers} spectator(s): "
            f"median {1000 * median:6.1f} ms, 95th percentile {1000 * p95:6.1f} ms"
        )
    print(f"runner, 36 bot games, no spectators:  {alone:6.2f} games/s")
    print(
        f"runner, 36 bot games, 5 spectators:   {watched:6.2f} games/s "
        f"(ratio {watched / alone:.2f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
