"""At 80x24 the ratings screen's head-to-head table is whole: with five players its last column
was cut at the screen's edge ("│ 10" for "100% (4)") with no way to scroll to it."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from textual.widgets import Static

from pokeview.app import make_app
from pokeview.screens.ratings import RatingsScreen
from tests.helpers import build_db, settle, text_of


def slow_model(doc: dict) -> None:
    """A fifth player, with a long name (the demo's)."""
    if doc["game"]["p1"] == "heuristic" and doc["game"]["p2"] == "max-damage":
        doc["game"]["p1"] = "llm:loopback-slow"


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_the_head_to_head_table_is_whole(tmp_path, size):
    db = build_db(tmp_path / "games.db", mutate=slow_model)
    app = make_app(db, lambda: RatingsScreen(db))
    async with app.run_test(size=size) as pilot:
        report = app.screen.query_one("#report", Static)
        await settle(pilot, lambda: "head to head" in text_of(report))
        await pilot.pause(0.1)
        console = Console(width=report.content_region.width, record=True, file=io.StringIO())
        console.print(report.content)
        shown = console.export_text()
        lines = shown[shown.index("head to head") :].splitlines()[1:]
        table = lines[: next(n for n, line in enumerate(lines) if line.startswith("└")) + 1]
        assert len(table) == 9, table  # top, header, rule, 5 players, bottom
        assert all(line.rstrip()[-1] in "┓┃┩│┘" for line in table), "\n".join(table)
