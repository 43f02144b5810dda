"""At 80x24 (and at 120x36) each screen keeps its essential columns and controls in view.

What is essential is decided per screen, beside its layout: the home table's columns
(screens/home.py), spectate's (screens/spectate.py), the viewer's log, moves and footer
(screens/watch.tcss), the play screen's actions (screens/play.tcss)."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable

from pokeview.app import make_app
from tests.helpers import build_db, settle

SIZES = [(80, 24), (120, 36)]


def long_names(doc: dict) -> None:
    """Player names as long as the benchmark's models' (a slow model plays p1)."""
    doc["game"]["p1"] = "llm:loopback-slow"


def in_view(table: DataTable, *columns: str) -> bool:
    """Whether these columns are drawn whole inside the table's width, without scrolling."""
    right = 0
    for column in table.ordered_columns:
        right += column.get_render_width(table)
        if column.key.value in columns and right > table.scrollable_content_region.width:
            return False
    return True


@pytest.mark.parametrize("size", SIZES)
async def test_home_keeps_players_winner_turns_status_and_run(tmp_path, size):
    db = build_db(tmp_path / "games.db", mutate=long_names)
    app = make_app(db)
    async with app.run_test(size=size) as pilot:
        table = app.screen.query_one("#games", DataTable)
        await settle(pilot, lambda: table.row_count == 3)
        await pilot.pause(0.1)
        assert in_view(table, "id", "p1", "p2", "winner", "turns", "status", "run")
        assert str(table.get_cell("3", "p1")) == "llm:loopback-slow"  # whole
