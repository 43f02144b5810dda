"""The ratings screen scrolls by keyboard as it opens: its cost, tokens and latency table is below
the fold, and Down or PageDown opened the run picker or did nothing (the picker had the focus)."""

from __future__ import annotations

import pytest
from textual.containers import VerticalScroll
from textual.widgets import Select, Static

from pokeview.app import make_app
from pokeview.screens.ratings import RatingsScreen
from tests.helpers import build_db, settle, text_of


@pytest.mark.parametrize("key", ["down", "pagedown", "end"])
async def test_the_keys_a_reader_tries_scroll_the_report(tmp_path, key):
    db = build_db(tmp_path / "games.db")
    app = make_app(db, lambda: RatingsScreen(db))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        report = screen.query_one("#report", Static)
        await settle(pilot, lambda: "cost, tokens and reliability" in text_of(report))
        scroll = screen.query_one(VerticalScroll)
        assert scroll.max_scroll_y > 0  # the report is taller than the screen
        await pilot.press(key)
        await settle(pilot, lambda: scroll.scroll_y > 0)
        assert not screen.query_one("#scope", Select).expanded
        # The run is still picked with its key.
        await pilot.press("u")
        await settle(pilot, lambda: screen.query_one("#scope", Select).expanded)
