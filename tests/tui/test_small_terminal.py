"""At 80x24 (and at 120x36) each screen keeps its essential columns and controls in view.

What is essential is decided per screen, beside its layout: the home table's columns
(screens/home.py), spectate's (screens/spectate.py), the viewer's log, moves and footer
(screens/watch.tcss), the play screen's actions (screens/play.tcss)."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable

from pokeview.app import make_app
from pokeview.screens.spectate import SpectateScreen
from tests.helpers import STEP_BY_STEP, build_db, pokeview, settle, sqlite_file

SIZES = [(80, 24), (120, 36)]


def long_names(doc: dict) -> None:
    """Player names as long as the benchmark's models' (a slow model plays p1)."""
    doc["game"]["p1"] = "llm:loopback-slow"


def in_view(table: DataTable, *columns: str) -> bool:
    """Whether these columns are drawn whole inside the table's width, without scrolling."""
    right = 0
    for column in table.ordered_columns:
        right += column.get_render_width(table)
        if str(column.label) in columns and right > table.scrollable_content_region.width:
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


def small_run(tmp_path, running: int = 1):
    """A run of two games with long player names, `running` of them marked as still played."""

    config = tmp_path / "small.toml"
    config.write_text(  # (recorded step by step, as a game still played is)
        f'name = "small"\nseed = "small"\nformat = "{STEP_BY_STEP}"\npairs = 1\n'
        'players = ["random", "max-damage"]\n'
    )
    db = tmp_path / "small.db"
    assert pokeview("run", str(config), "--db", str(db)).returncode == 0
    with sqlite_file(db) as conn:
        conn.execute("update games set p1 = 'llm:loopback-slow' where p1 = 'random'")
        conn.execute("update games set p2 = 'llm:loopback-slow' where p2 = 'random'")
        conn.execute(
            "update games set status = 'running' where id in "
            "(select id from games order by id limit ?)",
            (running,),
        )
    return db


@pytest.mark.parametrize("size", SIZES)
async def test_spectate_keeps_players_turn_and_waiting_for(tmp_path, size):
    db = small_run(tmp_path)
    app = make_app(db, lambda: SpectateScreen(db, "small"))
    async with app.run_test(size=size) as pilot:
        table = app.screen.query_one("#running", DataTable)
        await settle(pilot, lambda: table.row_count == 1)
        await pilot.pause(0.1)
        assert in_view(table, "game", "p1", "p2", "turn", "waiting for")


@pytest.mark.parametrize("size", SIZES)
async def test_play_shows_every_action_of_the_first_decision(tmp_path, bridge, size):
    from functools import partial

    from textual.widgets import OptionList

    from pokeview.screens.play import PlayScreen

    db = tmp_path / "play.db"
    app = make_app(db, partial(PlayScreen, db, opponent="random", seed_text="small-1"))
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        await settle(pilot, lambda: screen.ctx is not None)
        await pilot.pause(0.2)
        actions = screen.query_one("#actions", OptionList)
        assert actions.option_count == len(screen.ctx.actions) == 13  # moves, with Tera, switches
        assert actions.max_scroll_y == 0  # every one in view, none wrapped out of it
        await pilot.press("q")


async def test_the_viewer_at_80x24_keeps_ten_log_lines_and_its_whole_footer(tmp_path):
    from textual.widgets import Footer

    from pokeview.screens.watch import WatchScreen
    from pokeview.widgets.battle_log import BattleLog
    from tests.helpers import ready

    db = build_db(tmp_path / "games.db")
    app = make_app(db, lambda: WatchScreen(db, 3, "p1"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await ready(pilot)
        await pilot.press("right", "right")
        await pilot.pause(0.2)
        assert screen.query_one(BattleLog).content_size.height >= 10  # it was 8
        footer = screen.query_one(Footer)
        keys = list(footer.query("FooterKey"))
        assert keys and all(key.region.right <= 80 for key in keys), str(
            [(key.action, key.region.right) for key in keys]
        )
