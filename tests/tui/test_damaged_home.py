"""The home screen on a file damaged on disk says so (it showed an empty list and no error)."""

from __future__ import annotations

from pokeview.app import make_app
from tests.helpers import settle
from tests.integration.test_damage import damage_page


async def test_home_on_a_damaged_file_shows_the_damage(recorded_db):
    damage_page(recorded_db, "games")
    app = make_app(recorded_db)
    async with app.run_test(size=(120, 40)) as pilot:

        def damage_said() -> bool:
            return any("is damaged" in n.message for n in app._notifications)

        try:
            await settle(pilot, damage_said)
        except AssertionError:
            raise AssertionError([n.message for n in app._notifications]) from None
        said = next(n.message for n in app._notifications if "is damaged" in n.message)
        assert ".recover" in said and "\n" not in said, said


async def test_home_shows_a_forged_databases_times_and_counts_literally(recorded_db):
    """A DataTable reads a str cell as markup: a stored start time of '[/]…' stopped the app
    (MarkupError), as a run's creation time or planned count would."""
    from tests.helpers import sqlite_file

    with sqlite_file(recorded_db) as conn:
        conn.execute("update games set started_at = '[/]2026-11-29T16', turns = '[b]' where id = 1")
        conn.execute(
            "insert into runs (name, config, state, config_hash, planned, created_at, updated_at) "
            "values ('r', '{}', 'new', 'h', '[/i]', '[/]2026-11-29', '2026-11-29')"
        )
    app = make_app(recorded_db)
    async with app.run_test(size=(140, 40)) as pilot:

        def cells(table_id: str) -> list[str]:
            table = app.screen.query_one(table_id)
            return [str(c) for n in range(table.row_count) for c in table.get_row_at(n)]

        await settle(pilot, lambda: "[/]2026-11-29 16" in cells("#games"))
        assert "[b]" in cells("#games")
        assert "[/]2026-11-29" in cells("#runs") and "0/[/i]" in cells("#runs")


async def test_spectate_shows_a_forged_databases_turns_literally(recorded_db):
    """The ended games' turns went to a DataTable as a str, read as markup: a forged '[/]'
    stopped the app (MarkupError)."""
    from pokeview.screens.spectate import SpectateScreen
    from pokeview.store import open_store
    from tests.helpers import sqlite_file

    store = open_store(recorded_db)
    run_id = store.create_run("r", {"name": "r"}, "hash", 1)
    store.close()
    with sqlite_file(recorded_db) as conn:
        conn.execute("update games set run_id = ?, pair = 0, seat = 0, turns = '[/]'", (run_id,))
    app = make_app(recorded_db, lambda: SpectateScreen(recorded_db, "r"))
    async with app.run_test(size=(140, 40)) as pilot:

        def turns() -> list[str]:
            table = app.screen.query_one("#done")
            return [str(table.get_row_at(n)[4]) for n in range(table.row_count)]

        await settle(pilot, lambda: "[/]" in turns())
