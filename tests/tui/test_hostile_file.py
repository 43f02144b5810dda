"""A game file full of terminal escapes, shown in every screen: no control character is drawn.

What is checked is what the app paints (its screenshot: every widget's lines as they would reach
the terminal), at each step of the game and in every screen that shows a game's fields.
"""

from __future__ import annotations

from pokeview.app import make_app
from pokeview.screens.home import HomeScreen
from pokeview.screens.prompt import PromptScreen
from pokeview.screens.ratings import RatingsScreen
from pokeview.screens.spectate import SpectateScreen
from pokeview.screens.watch import WatchScreen
from tests.helpers import ready, settle
from tests.hostile import EVIL, control_in, evil, hostile_db

SIZE = (160, 50)


def painted(app, where: str) -> str:
    shot = app.export_screenshot()
    assert not control_in(shot), f"{where}: {control_in(shot)} drawn"
    return shot


async def test_every_screen_draws_a_hostile_game_without_control_characters(tmp_path):
    db = tmp_path / "h.db"
    game_id = hostile_db(db)

    app = make_app(db)
    async with app.run_test(size=SIZE) as pilot:
        await settle(
            pilot, lambda: isinstance(app.screen, HomeScreen) and "pwned" in painted(app, "home")
        )
        painted(app, "home")

    for side in ("p1", "p2", "spectator"):
        app = make_app(db, lambda side=side: WatchScreen(db, game_id, side))
        async with app.run_test(size=SIZE) as pilot:
            screen = await ready(pilot)
            for step in range(len(screen.frames)):
                painted(app, f"watch {side}, step {step}")
                await pilot.press("right")
                await pilot.pause(0.01)
            painted(app, f"watch {side}, the end")

    app = make_app(db, lambda: WatchScreen(db, game_id, "p1"))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("right", "right")
        await pilot.pause(0.05)
        shot = painted(app, "watch p1's decision")
        assert "[red]r[/red][/bold]" in shot  # markup shown literally, not applied
        await pilot.press("p")
        await settle(pilot, lambda: isinstance(app.screen, PromptScreen))
        await pilot.pause(0.2)
        painted(app, "the prompt inspector")

    app = make_app(db, lambda: PromptScreen(db, game_id, "p1", 0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        painted(app, "the prompt inspector, opened alone")

    for run in (None, evil("run")):
        app = make_app(db, lambda run=run: RatingsScreen(db, run))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.5)
            painted(app, f"ratings of {run!r}")

    app = make_app(db, lambda: SpectateScreen(db, evil("run")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.5)
        painted(app, "spectate")

    app = make_app(db)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.2)
        app.notify(f"a note {EVIL}", markup=False)  # a toast, as a screen's error shows one
        await pilot.pause(0.1)
        painted(app, "a notification")
