"""Home on a database with no games says how to record one. It said "0 shown of 0 games ·
Enter to watch" over an empty table: nothing to watch, and no word on what to do first."""

from __future__ import annotations

from pokeview.app import make_app
from pokeview.store import open_store
from tests.helpers import settle, text_of


async def test_home_with_no_games_says_how_to_record_one(tmp_path):
    db = tmp_path / "new.db"
    open_store(db).close()
    app = make_app(db)
    async with app.run_test(size=(80, 24)) as pilot:
        count = app.screen.query_one("#count")
        await settle(pilot, lambda: "game" in text_of(count))
        shown = text_of(count)
        assert "Enter to watch" not in shown
        assert "no games yet" in shown and "pokeview battle" in shown and "pokeview play" in shown
