"""The ratings screen: whole distinct names, whole interval bars at 80 and 120 columns, and the
ratings of one run, opened from the run list or picked on the screen."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from textual.widgets import DataTable, Select, Static

from pokeview.app import make_app
from pokeview.screens.ratings import RatingsScreen
from tests.helpers import build_db, pokeview, settle, text_of


def slow_model(doc: dict) -> None:
    """Two models whose names share their first 12 characters."""
    if doc["game"]["p1"] == "heuristic" and doc["game"]["p2"] == "max-damage":
        doc["game"]["p1"] = "llm:loopback-slow"


def as_shown(widget: Static) -> str:
    """The widget's content drawn at its own width, as the terminal shows it."""
    console = Console(width=widget.content_region.width, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


async def report_shown(tmp_path, size: tuple[int, int], mutate=None) -> str:
    """The ratings screen's report on the recordings, as a terminal of `size` shows it."""
    db = build_db(tmp_path / "games.db", mutate=mutate)
    app = make_app(db, lambda: RatingsScreen(db))
    async with app.run_test(size=size) as pilot:
        report = app.screen.query_one("#report", Static)
        await settle(pilot, lambda: "head to head" in text_of(report))
        await pilot.pause(0.1)
        return as_shown(report)


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_names_are_whole_and_distinct_and_bars_are_whole(tmp_path, size):
    shown = await report_shown(tmp_path, size, slow_model)
    assert "…" not in shown  # nothing cut: no name, no bar
    head_to_head = shown[shown.index("head to head") :]
    assert "llm:loopback-slow" in head_to_head
    assert "llm:loopback " in head_to_head or "llm:loopback\n" in head_to_head
    bars = [line for line in shown.splitlines() if "●" in line]
    assert len(bars) == 5  # one per player, each whole on its line


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_the_head_to_head_table_is_whole(tmp_path, size):
    """With five players its last column was cut at 80 columns ("│ 10" for "100% (4)")."""
    shown = await report_shown(tmp_path, size, slow_model)
    lines = shown[shown.index("head to head") :].splitlines()[1:]
    table = lines[: next(n for n, line in enumerate(lines) if line.startswith("└")) + 1]
    assert len(table) == 9, table  # top, header, rule, 5 players, bottom
    assert all(line.rstrip()[-1] in "┓┃┩│┘" for line in table), "\n".join(table)


async def test_at_80x24_the_figures_table_shows_every_column_whole(tmp_path):
    shown = await report_shown(tmp_path, (80, 24), slow_model)  # a 17-character name
    lines = shown[shown.index("cost, tokens and reliability") :].splitlines()[1:]
    top = next(i for i, line in enumerate(lines) if line.startswith("┏"))
    rule = next(i for i, line in enumerate(lines) if line.startswith("┡"))
    assert lines[top].rstrip().endswith("┓"), lines[top]  # its right edge is in view
    # Each column's header, whole in its cell (wrapped onto lines as Rich wraps them).
    cells = [line.rstrip().split("┃")[1:-1] for line in lines[top + 1 : rule]]
    headers = [" ".join(" ".join(column).split()) for column in zip(*cells, strict=True)]
    assert headers == [
        "player", "cost/game", "out tok/dec", "s/dec", "re-ask", "random pick", "autopilot"
    ], headers  # fmt: skip


async def test_a_run_is_rated_from_the_run_list_and_picked_on_the_screen(tmp_path):
    db = build_db(tmp_path / "games.db")
    config = tmp_path / "small.toml"
    config.write_text(
        'name = "small"\nseed = "small"\npairs = 1\nplayers = ["random", "max-damage"]\n'
    )
    assert pokeview("run", str(config), "--db", str(db)).returncode == 0
    app = make_app(db)
    async with app.run_test(size=(80, 24)) as pilot:
        runs = app.screen.query_one("#runs", DataTable)
        await settle(pilot, lambda: runs.row_count == 1)
        runs.focus()
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, RatingsScreen))
        screen = app.screen
        assert screen.title == "ratings · run small"
        report = screen.query_one("#report", Static)
        await settle(pilot, lambda: "run small: 2 games" in text_of(report))
        # Back to all games, and to the run again, with the picker at the top.
        scope = screen.query_one("#scope", Select)
        await settle(pilot, lambda: len(scope._options) == 2)
        scope.value = "all games"
        await settle(pilot, lambda: "all games: 5 games" in text_of(report))
        scope.value = "small"
        await settle(pilot, lambda: "run small: 2 games" in text_of(report))


LONG_NAME = "openai:gpt-4.1-mini-2025-04-14 (reasoning high, temperature 0.7, prompt v3, run B)"


def long_named(doc: dict) -> None:
    """A player whose name is wider than half an 80-column screen."""
    if doc["game"]["p1"] == "heuristic" and doc["game"]["p2"] == "max-damage":
        doc["game"]["p1"] = LONG_NAME


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_a_name_too_long_for_the_screen_wraps_and_every_table_fits(tmp_path, size):
    shown = await report_shown(tmp_path, size, long_named)
    tops = [line.rstrip() for line in shown.splitlines() if line.startswith("┏")]
    assert len(tops) == 3  # ratings, head to head, figures
    for top in tops:  # each table's right edge is in view
        assert top.endswith("┓"), top
    assert "…" not in shown  # nothing cut
    # The name, whole in each table, over as many lines as it takes.
    for part in ("all games:", "head to head", "cost, tokens"):
        table = shown[shown.index(part) :]
        table = table[: table.index("└")]
        cells = " ".join(
            line.split("│")[1].strip() for line in table.splitlines() if line.count("│") > 2
        )
        assert LONG_NAME.replace(" ", "") in cells.replace(" ", ""), (part, cells)


WIDE_NAME = "ポケモンバトルのモデル"  # 11 characters, 22 cells


def wide_named(doc: dict) -> None:
    if doc["game"]["p1"] == "heuristic" and doc["game"]["p2"] == "max-damage":
        doc["game"]["p1"] = WIDE_NAME


async def test_a_name_of_wide_characters_is_measured_by_its_cells(tmp_path):
    """Measured by its characters, its column was half as wide as it, and it wrapped."""
    shown = await report_shown(tmp_path, (120, 36), wide_named)
    assert all(WIDE_NAME in shown[shown.index(part) :] for part in ("all games:", "cost, tokens"))
    tops = [line.rstrip() for line in shown.splitlines() if line.startswith("┏")]
    assert len(tops) == 3 and all(top.endswith("┓") for top in tops), tops
