"""Home's Enter on an unfinished game: a game a person left is played on (`PlayScreen`), any
other is watched. What played a side is read from its recorded kind, not guessed from its name."""

from __future__ import annotations

from textual.widgets import DataTable

from pokeview.app import make_app
from pokeview.screens.home import HomeScreen
from pokeview.screens.watch import WatchScreen
from tests.helpers import build_db, settle, sqlite_file


async def test_a_bot_whose_name_begins_with_human_is_watched_not_played_on(tmp_path):
    db = build_db(tmp_path / "x.db")
    with sqlite_file(db) as conn:  # a poke-env bot from a module named like a person
        conn.execute("update games set p1 = 'humanlike_bots:Player', status = 'interrupted'")
        kinds = {r[0] for r in conn.execute("select json_extract(p1_config, '$.kind') from games")}
    assert "human" not in kinds
    app = make_app(db)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(
            pilot,
            lambda: (
                isinstance(app.screen, HomeScreen)
                and app.screen.query_one("#games", DataTable).row_count > 0
            ),
        )
        await pilot.press("enter")
        await settle(pilot, lambda: not isinstance(app.screen, HomeScreen))
        assert isinstance(app.screen, WatchScreen)
