"""The footer names what Enter does on the screens whose tables it opens a game from.

DataTable binds Enter itself, with no label; while a table has the focus that binding hid the
screen's own (`watch`, `watch live`), so the footer did not say how to open a game."""

from __future__ import annotations

from textual.widgets import DataTable, Footer

from pokeview.app import make_app
from pokeview.screens.spectate import SpectateScreen
from tests.helpers import settle


def footer_keys(screen) -> dict[str, str]:
    return {key.key: key.description for key in screen.query_one(Footer).query("FooterKey")}


async def test_home_footer_says_enter_watches_a_game_and_opens_a_runs_ratings(recorded_db):
    app = make_app(recorded_db)
    async with app.run_test(size=(120, 36)) as pilot:
        games = app.screen.query_one("#games", DataTable)
        await settle(pilot, lambda: games.row_count == 3)
        await pilot.pause(0.2)
        assert footer_keys(app.screen).get("enter") == "watch"
        app.screen.query_one("#runs", DataTable).focus()
        await pilot.pause(0.2)
        assert footer_keys(app.screen).get("enter") == "ratings"


async def test_spectate_footer_says_enter_watches_a_game_live(recorded_db):
    app = make_app(recorded_db, lambda: SpectateScreen(recorded_db))
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause(0.3)
        assert app.screen.query_one("#running", DataTable).has_focus
        assert footer_keys(app.screen).get("enter") == "watch live"
