"""The command palette (ctrl+p) offers pokeview's own commands, not only the screen's keys."""

from __future__ import annotations

from pokeview.app import make_app
from pokeview.screens.home import HomeScreen
from pokeview.screens.ratings import RatingsScreen
from pokeview.screens.spectate import SpectateScreen
from pokeview.screens.watch import WatchScreen
from tests.helpers import settle


async def run_command(pilot, words: str) -> None:
    await pilot.press("ctrl+p")
    await pilot.pause(0.2)
    await pilot.press(*words)
    await pilot.pause(0.5)
    await pilot.press("enter")


async def test_the_palette_opens_games_ratings_and_spectate(recorded_db):
    app = make_app(recorded_db)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, HomeScreen))
        await run_command(pilot, "watch game 2")
        await settle(pilot, lambda: isinstance(app.screen, WatchScreen))
        assert app.screen.game_id == 2
        await run_command(pilot, "ratings of all games")
        await settle(pilot, lambda: isinstance(app.screen, RatingsScreen))
        assert app.screen.run is None
        await run_command(pilot, "spectate")
        await settle(pilot, lambda: isinstance(app.screen, SpectateScreen))
