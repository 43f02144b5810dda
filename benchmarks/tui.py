"""The app's speed (`make bench`): first paint of the replay viewer on a 300-turn game, time per
step forward and back, and the home screen opening on 10,000 games. Reports; asserts nothing.

The 300-turn game is real: six Magikarp that know only Splash on each side, in
gen9customgame, played on Showdown until the turn limit makes it a tie.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pokeview.app import make_app  # noqa: E402
from pokeview.battle import seeds  # noqa: E402
from pokeview.battle.loop import play_game  # noqa: E402
from pokeview.players import make_player  # noqa: E402
from pokeview.screens.home import HomeScreen  # noqa: E402
from pokeview.sim.client import Bridge  # noqa: E402
from pokeview.store import open_store  # noqa: E402

SPLASH = "]".join(["Magikarp||||splash|||||||"] * 6)


async def long_game(db: Path) -> int:
    store = open_store(db)
    async with Bridge() as bridge:
        result = await play_game(
            "gen9customgame",
            seeds.game_seed("bench-300"),
            make_player("random"),
            make_player("random"),
            bridge=bridge,
            store=store,
            teams={"p1": SPLASH, "p2": SPLASH},
        )
    store.close()
    return result.game_id


def many_games(db: Path, source: int, n: int = 10_000) -> None:
    store = open_store(db)
    columns = [c for c in store.db["games"].columns_dict if c != "id"]
    names = ", ".join(columns)
    with store.conn:
        for _ in range(n):
            store.conn.execute(
                f"insert into games ({names}) select {names} from games where id = ?", (source,)
            )
    store.close()


async def measure_watch(db: Path, game_id: int) -> tuple[float, list[float], list[float], int]:
    app = make_app(db, ("watch", game_id, "p1"))
    started = time.perf_counter()
    async with app.run_test(size=(120, 40)) as pilot:
        while getattr(app.screen, "replay", None) is None:
            await pilot.pause(0.005)
        first_paint = time.perf_counter() - started
        screen = app.screen
        forward, back = [], []
        for _ in range(50):
            t = time.perf_counter()
            await pilot.press("full_stop")
            forward.append(time.perf_counter() - t)
        for _ in range(50):
            t = time.perf_counter()
            await pilot.press("comma")
            back.append(time.perf_counter() - t)
        frames = len(screen.frames)
    return first_paint, forward, back, frames


async def measure_home(db: Path) -> float:
    app = make_app(db)
    started = time.perf_counter()
    async with app.run_test(size=(120, 40)) as pilot:
        while not (isinstance(app.screen, HomeScreen) and app.screen.loaded_rows):
            await pilot.pause(0.005)
        return time.perf_counter() - started


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        game_id = asyncio.run(long_game(db))
        store = open_store(db)
        turns = store.game(game_id).turns
        store.close()
        first, forward, back, frames = asyncio.run(measure_watch(db, game_id))
        many_games(db, game_id)
        home = asyncio.run(measure_home(db))
    print("\nThe app (120x40, Textual's headless driver)\n")
    rows = [
        (f"replay viewer, first paint of a {turns}-turn game ({frames} frames)", first),
        ("one step forward (median of 50)", statistics.median(forward)),
        ("one step back (median of 50)", statistics.median(back)),
        ("home screen with 10,001 games, first rows shown", home),
    ]
    for label, seconds in rows:
        print(f"{label:64} {1000 * seconds:8.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
