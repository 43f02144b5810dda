"""The spectator's header says once what it follows, and not that a finished run is running.

It read "spectate · the running runs — latest run demo (stopped)" once the runner had stopped,
and "spectate · run demo — run demo" with a run named."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable

from pokeview.app import make_app
from pokeview.screens.spectate import SpectateScreen
from tests.helpers import pokeview, settle, text_of


@pytest.mark.parametrize(
    "run,header",
    [(None, "spectate — latest run small (finished)"), ("small", "spectate — run small")],
)
async def test_the_header_names_the_run_once_and_a_finished_run_as_finished(tmp_path, run, header):
    config = tmp_path / "small.toml"
    config.write_text(
        'name = "small"\nseed = "small"\npairs = 1\nplayers = ["random", "max-damage"]\n'
    )
    db = tmp_path / "small.db"
    assert pokeview("run", str(config), "--db", str(db)).returncode == 0
    app = make_app(db, lambda: SpectateScreen(db, run))
    async with app.run_test(size=(120, 40)) as pilot:
        done = app.screen.query_one("#done", DataTable)
        await settle(pilot, lambda: done.row_count == 2 and app.screen.sub_title)
        assert f"{app.screen.title} — {app.screen.sub_title}" == header


async def test_the_ended_games_title_says_the_newest_30_only_when_there_are_more(tmp_path):
    """With 2 games ended it read "ended: 2, 2 finished (the newest 30 below)"."""
    config = tmp_path / "small.toml"
    config.write_text(
        'name = "small"\nseed = "small"\npairs = 1\nplayers = ["random", "max-damage"]\n'
    )
    db = tmp_path / "small.db"
    assert pokeview("run", str(config), "--db", str(db)).returncode == 0
    app = make_app(db, lambda: SpectateScreen(db, "small"))
    async with app.run_test(size=(120, 40)) as pilot:
        done = app.screen.query_one("#done", DataTable)
        await settle(pilot, lambda: done.row_count == 2)
        assert text_of(app.screen.query_one("#done-title")).strip() == "ended: 2, 2 finished"


async def test_enter_on_an_ended_game_opens_it_in_the_viewer(tmp_path):
    """Once a run was done its games were listed as ended, and Enter on one did nothing."""
    from pokeview.screens.watch import WatchScreen

    config = tmp_path / "small.toml"
    config.write_text(
        'name = "small"\nseed = "small"\npairs = 1\nplayers = ["random", "max-damage"]\n'
    )
    db = tmp_path / "small.db"
    assert pokeview("run", str(config), "--db", str(db)).returncode == 0
    app = make_app(db, lambda: SpectateScreen(db, "small"))
    async with app.run_test(size=(120, 40)) as pilot:
        done = app.screen.query_one("#done", DataTable)
        await settle(pilot, lambda: done.row_count == 2)
        done.focus()
        await pilot.pause(0.1)
        first = str(done.get_row_at(0)[0])
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, WatchScreen))
        assert app.screen.game_id == int(first)
