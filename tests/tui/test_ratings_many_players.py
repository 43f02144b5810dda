"""With ten players (a benchmark of a few models beside the bots), every row of the ratings
screen's head-to-head table keeps its right edge in view at 80, 100 and 160 columns, and its
last player's column is there. (Seen cut at 100 columns on the branch point of newcomer2; main's
narrowing names' column now keeps it whole.)"""

from __future__ import annotations

import io

import orjson
import pytest
from rich.console import Console
from textual.widgets import Static

from pokeview import paths
from pokeview.app import make_app
from pokeview.screens.ratings import RatingsScreen
from pokeview.store import open_store
from tests.helpers import settle, text_of

PLAYERS = 10


def ring_db(path):
    """Ten players, each meeting the next twice (once per seat): every column has cells."""
    from pokeview.exchange import import_game

    doc = orjson.loads((paths.recordings_dir() / "heuristic-vs-max-damage.json").read_bytes())
    store = open_store(path)
    for n in range(PLAYERS):
        for seat in (0, 1):
            a, b = f"llm:some-model-{n}-high", f"llm:some-model-{(n + 1) % PLAYERS}-high"
            doc["game"]["p1"], doc["game"]["p2"] = (a, b) if seat == 0 else (b, a)
            import_game(store, doc, rated=True)
    store.close()
    return path


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 40)])
async def test_ten_players_head_to_head_is_whole(tmp_path, size):
    db = ring_db(tmp_path / "games.db")
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
        assert all(line.rstrip()[-1] in "┓┃┩│┘" for line in table), "\n".join(table)
        header = next(line for line in table if line.startswith("┃"))
        assert header.split("┃")[-2].strip() == str(PLAYERS)  # the last column is there
