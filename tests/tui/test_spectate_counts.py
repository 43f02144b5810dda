"""Spectate's counts agree: games that ended without finishing are not called finished."""

from __future__ import annotations

from textual.widgets import DataTable

from pokeview.app import make_app
from pokeview.screens.spectate import SpectateScreen
from tests.helpers import settle, sqlite_file, text_of
from tests.tui.test_small_terminal import small_run


async def test_interrupted_games_are_ended_not_finished(tmp_path):

    db = small_run(tmp_path, running=0)
    with sqlite_file(db) as conn:
        conn.execute("update games set status = 'interrupted'")
    app = make_app(db, lambda: SpectateScreen(db, "small"))
    async with app.run_test(size=(120, 36)) as pilot:
        done = app.screen.query_one("#done", DataTable)
        await settle(pilot, lambda: done.row_count == 2)
        title = text_of(app.screen.query_one("#done-title"))
        standings = text_of(app.screen.query_one("#standings"))
        assert "no finished games yet" in standings
        assert "finished: 2" not in title
        assert "ended: 2" in title and "0 finished" in title
