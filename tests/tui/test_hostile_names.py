"""Names from users and files (runs, players, formats) shown literally: they never act."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Static

from pokeview.app import make_app
from pokeview.screens.ratings import RatingsScreen
from pokeview.screens.spectate import SpectateScreen
from pokeview.store import open_store
from tests.helpers import build_db, settle, sqlite_file, text_of

NAMES = ["x[/]", "[@click=app.quit]q[/]"]


def hostile_db(path, name):
    """The shipped recordings, as games of a run called `name`, with a format of that name."""
    db = build_db(path)
    store = open_store(db)
    run_id = store.create_run(name, {"name": name}, "hash", 3)
    store.close()
    with sqlite_file(db) as conn:
        conn.execute("update games set run_id = ?, pair = id, seat = 0", (run_id,))
        conn.execute("update games set format = ? where id = 1", (name,))
    return db


@pytest.mark.parametrize("name", NAMES)
async def test_the_ratings_screen_shows_a_run_name_literally_and_clicking_it_does_nothing(
    tmp_path, name
):
    db = hostile_db(tmp_path / "h.db", name)
    app = make_app(db, lambda: RatingsScreen(db, name))
    async with app.run_test(size=(140, 40)) as pilot:
        report = app.screen.query_one("#report", Static)
        await settle(pilot, lambda: "head to head" in text_of(report))
        assert f"run {name}: 3 games" in text_of(report)
        for y in range(3):
            for x in range(0, 40, 2):
                await pilot.click("#report", offset=(x, y))
        await pilot.pause(0.1)
        assert app.is_running and app.return_code is None
        assert name in str(app.screen.title)


@pytest.mark.parametrize("name", NAMES)
async def test_home_and_spectate_show_a_run_name_literally(tmp_path, name):
    db = hostile_db(tmp_path / "h.db", name)
    app = make_app(db)
    async with app.run_test(size=(140, 40)) as pilot:
        runs = app.screen.query_one("#runs", DataTable)
        games = app.screen.query_one("#games", DataTable)
        await settle(pilot, lambda: runs.row_count == 1 and games.row_count == 3)
        assert runs.get_row_at(0)[0].plain == name
        assert games.get_cell("1", "format").plain == name
        await pilot.click("#runs", offset=(2, 1))
        await pilot.pause(0.1)
        assert app.is_running and app.return_code is None
    app = make_app(db, lambda: SpectateScreen(db, name))
    async with app.run_test(size=(140, 40)) as pilot:
        # The run is named in the subtitle ("spectate — run NAME"), once it has been read.
        await settle(pilot, lambda: name in str(app.screen.sub_title))
        assert app.is_running and app.return_code is None


@pytest.mark.parametrize("name", NAMES)
def test_the_command_line_prints_names_literally(tmp_path, name, capsys):
    from pokeview.cli import main

    db = str(hostile_db(tmp_path / "h.db", name))
    for argv in (["ratings", name], ["runs"], ["games"]):
        assert main(["--db", db, *argv]) == 0
        out = capsys.readouterr().out
        assert name in out, argv
    db2 = str(tmp_path / f"{name}.db")
    hostile_db(tmp_path / f"{name}.db", name)
    assert main(["--db", db2, "games"]) == 0
    assert f"{name}.db" in capsys.readouterr().out.replace("\n", "")


@pytest.mark.parametrize("name", NAMES)
async def test_the_palette_lists_a_run_name_and_players_literally(tmp_path, name):
    from textual.command import CommandList

    db = hostile_db(tmp_path / "h.db", name)
    with sqlite_file(db) as conn:
        conn.execute("update games set p1 = ? where id = 1", (name,))
    app = make_app(db)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.pause(0.2)
        await pilot.press("ctrl+p")
        await pilot.pause(0.5)  # the games and runs are read, and listed with no query
        options = app.screen.query_one(CommandList)
        shown = [str(options.get_option_at_index(n).prompt) for n in range(options.option_count)]
        assert any(f"ratings of run {name}" in s for s in shown), shown
        assert any(f"{name} vs " in s for s in shown), shown
        await pilot.press(*"ratings of run")
        await pilot.pause(0.5)
        shown = [str(options.get_option_at_index(n).prompt) for n in range(options.option_count)]
        assert any(f"ratings of run {name}" in s for s in shown), shown
        assert app.is_running and app.return_code is None
