"""The app's ratings screen of one run shows the report's findings too (issue 17)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from pokeview.app import make_app
from pokeview.screens.ratings import RatingsScreen
from pokeview.tournament.config import parse_run_config
from pokeview.tournament.runner import run_tournament
from tests.helpers import settle, text_of


async def test_ratings_of_a_run_show_its_findings(store, bridge):
    config = parse_run_config(
        {
            "name": "findings",
            "seed": "findings",
            "pairs": 1,
            "turn_limit": 15,
            "players": ["loopback", "random"],
        },
        Path("run.toml"),
    )
    await run_tournament(config, store=store, bridge=bridge)
    store.commit()
    app = make_app(store.path, lambda: RatingsScreen(store.path, "findings"))
    async with app.run_test(size=(140, 60)) as pilot:
        report = app.screen.query_one("#report", Static)
        await settle(pilot, lambda: "findings" in text_of(report) and "leads" in text_of(report))
        text = text_of(report)
        assert "output tokens per decision against win rate" in text
        assert "how each player answered" in text and "llm:loopback" in text
        assert "most used move" in text
