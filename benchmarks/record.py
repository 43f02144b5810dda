"""The record's size and cost (`make bench`): bytes per game on disk and Python CPU per game.

Plays seeded games into a fresh database per matchup, then reports the file's size per game after
a WAL checkpoint (with the pages compaction freed given back) beside what schema 2 took, the
Python CPU seconds per game, and the replay viewer's first paint of a long game compacted and
as rows. Figures, not assertions: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pokeview.battle import seeds  # noqa: E402
from pokeview.battle.loop import play_game  # noqa: E402
from pokeview.battle.spec import GameSpec  # noqa: E402
from pokeview.players import make_player  # noqa: E402
from pokeview.sim.client import Bridge  # noqa: E402
from pokeview.store import open_store  # noqa: E402

SWITCHER = "benchmarks.players:AlwaysSwitch"
TARGETS = {"random vs random": 40_000, "300-turn game": 400_000}  # bytes per game
BEFORE = {"random vs random": 1_040_000, "calibration mix": 560_000, "300-turn game": 5_200_000}


async def play(
    db: Path, matchups: list[tuple[str, str]], games: int, turn_limit: int, whole: bool = True
):
    store = open_store(db)
    async with Bridge() as bridge:
        semaphore = asyncio.Semaphore(8)

        async def one(n: int):
            p1, p2 = matchups[n % len(matchups)]
            if (n // len(matchups)) % 2:  # mirror pairs: seats swapped
                p1, p2 = p2, p1
            async with semaphore:
                return await play_game(
                    GameSpec(
                        format="gen9randombattle",
                        seed=seeds.game_seed("record-bench", n // (2 * len(matchups))),
                        p1=make_player(p1),
                        p2=make_player(p2),
                        turn_limit=turn_limit,
                    ),
                    bridge=bridge,
                    store=store,
                    whole=whole,
                )

        await one(0)  # warm up (imports, JIT); not counted
        cpu = time.process_time()
        results = await asyncio.gather(*(one(n) for n in range(1, games + 1)))
        cpu = (time.process_time() - cpu) / games
    turns = sum(r.turns for r in results) / games
    store.close()  # gives freed pages back and checkpoints
    size = db.stat().st_size / (games + 1)
    return size, cpu, turns


async def first_paint(db: Path, game_id: int) -> float:
    """Seconds from building the app to the replay viewer's first frame (headless), median of 5."""
    from pokeview.app import make_app
    from pokeview.screens.watch import WatchScreen

    times = []
    for _ in range(5):
        app = make_app(db, lambda: WatchScreen(db, game_id, "p1"))
        started = time.perf_counter()
        async with app.run_test(size=(120, 40)) as pilot:
            while getattr(app.screen, "replay", None) is None:
                await pilot.pause(0.005)
            await pilot.pause()
            times.append(time.perf_counter() - started)
    return statistics.median(times)


def paint_compacted_and_as_rows(tmp: Path) -> tuple[float, float]:
    """The 300-turn game's first paint compacted, and the same game kept as rows (as a running
    game is), measured in the same run."""
    db = Path(tmp) / "paint.db"
    asyncio.run(play(db, [(SWITCHER, SWITCHER)], 1, 300))
    rows = Path(tmp) / "paint-rows.db"
    rows.write_bytes(db.read_bytes())
    store = open_store(rows)
    with store.conn:
        store._expand(2)  # the game after the warm-up, back into rows
    store.close()
    return asyncio.run(first_paint(db, 2)), asyncio.run(first_paint(rows, 2))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per matchup")
    args = parser.parse_args()
    cases = [
        # The whole record, step by step (as a game played whole is once first read).
        ("random vs random", [("random", "random")], args.games, 300, False),
        # ...and as a game of two random bots is played by default: its logs and decision
        # times until something reads it (docs/record.md, "Games played whole in the bridge").
        ("random, played whole", [("random", "random")], args.games, 300, True),
        (
            "calibration mix",
            [("random", "max-damage"), ("random", "heuristic"), ("max-damage", "heuristic")],
            args.games,
            300,
            True,
        ),
        ("300-turn game", [(SWITCHER, SWITCHER)], 2, 300, True),
    ]
    print("The record: bytes per game on disk (after a checkpoint) and Python CPU per game")
    print(
        f"{'games':<20} {'n':>4} {'turns':>6} {'bytes/game':>11} {'before':>10} {'ratio':>6} "
        f"{'target':>8} {'py CPU s/game':>13}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for name, matchups, games, limit, whole in cases:
            size, cpu, turns = asyncio.run(
                play(Path(tmp) / f"{len(name)}.db", matchups, games, limit, whole)
            )
            target, before = TARGETS.get(name), BEFORE.get(name)
            print(
                f"{name:<20} {games:>4} {turns:>6.0f} {size:>11,.0f} "
                f"{f'{before:,}' if before else '-':>10} "
                f"{f'{before / size:.0f}x' if before else '-':>6} "
                f"{f'{target:,}' if target else '-':>8} {cpu:>13.3f}"
            )
        compacted, rows = paint_compacted_and_as_rows(Path(tmp))
    print(
        "'before': measured on schema 2 (issue 12). Python CPU per game before: 0.145 s "
        "(benchmarks/record_cpu.py compares with that code in the same run)."
    )
    print(
        f"pokeview watch, first paint of a 300-turn game (headless, median of 5): "
        f"compacted {compacted:.3f} s, as rows {rows:.3f} s, ratio {compacted / rows:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
