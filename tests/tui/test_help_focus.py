"""`?` names what a key does where the focus is: a table that binds Enter itself (the runs
table opens a run's ratings) is what Enter runs, not the screen's own Enter (`watch`)."""

from __future__ import annotations

from textual.widgets import DataTable, Static

from pokeview.app import make_app
from pokeview.screens.help import HelpScreen
from pokeview.screens.ratings import RatingsScreen
from pokeview.store import open_store
from tests.helpers import settle, sqlite_file, text_of


async def help_says_enter(pilot) -> str:
    """What the help's row for Enter says, the help opened and closed again."""
    below = pilot.app.screen
    await pilot.press("question_mark")
    assert isinstance(pilot.app.screen, HelpScreen)
    listed = "".join(text_of(s) for s in pilot.app.screen.query(Static))
    rows = [line.split(None, 1) for line in listed.splitlines() if line.strip()]
    said = [row[1].strip() for row in rows if row[0] == "⏎"]
    await pilot.press("escape")
    assert pilot.app.screen is below
    assert len(said) == 1, listed
    return said[0]


async def test_home_help_names_what_enter_does_for_the_focused_table(recorded_db):
    store = open_store(recorded_db)
    run_id = store.create_run("small", {"name": "small"}, "hash", 3)
    store.close()
    with sqlite_file(recorded_db) as conn:
        conn.execute("update games set run_id = ?, pair = id, seat = 0", (run_id,))
    app = make_app(recorded_db)
    async with app.run_test(size=(80, 24)) as pilot:
        games = app.screen.query_one("#games", DataTable)
        await settle(pilot, lambda: games.row_count == 3)
        assert games.has_focus
        assert await help_says_enter(pilot) == "watch"
        runs = app.screen.query_one("#runs", DataTable)
        await settle(pilot, lambda: runs.row_count == 1)
        runs.focus()
        await pilot.pause()
        assert await help_says_enter(pilot) == "the run's ratings"
        await pilot.press("enter")  # and so it does
        assert isinstance(app.screen, RatingsScreen) and app.screen.title == "ratings · run small"
