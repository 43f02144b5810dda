"""Home's count line after a search: with no match it said "0 shown of 3 games matching 'x' ·
Enter to watch", which reads as three games matching, and offers to watch nothing."""

from __future__ import annotations

from textual.widgets import DataTable, Static

from pokeview.app import make_app
from tests.helpers import settle, text_of


async def test_a_search_with_no_match_says_so(recorded_db):
    app = make_app(recorded_db)
    async with app.run_test(size=(100, 30)) as pilot:
        table = app.screen.query_one("#games", DataTable)
        count = app.screen.query_one("#count", Static)
        await settle(pilot, lambda: table.row_count == 3)
        await pilot.press("slash", *"nosuchplayer", "enter")
        await settle(pilot, lambda: table.row_count == 0 and "nosuchplayer" in text_of(count))
        said = text_of(count)
        assert "no game matches 'nosuchplayer'" in said, said
        assert "Enter to watch" not in said and "shown of" not in said, said
        await pilot.press("slash", *"loopback", "enter")
        await settle(pilot, lambda: table.row_count == 1)
        said = text_of(count)
        assert "1 shown" in said and "matching 'loopback'" in said and "Enter to watch" in said
        assert "of 3 games matching" not in said, said  # the 3 are all games, not the matches
