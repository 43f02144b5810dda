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


async def test_p_opens_the_prompt_of_the_side_a_model_played(tmp_path):
    from pokeview.screens.prompt import PromptScreen

    db = build_db(tmp_path / "x.db")
    with sqlite_file(db) as conn:  # the model's game, as if the model had played p2
        conn.execute(
            "update games set p1_config = json_set(p1_config, '$.kind', 'bot'), "
            "p2_config = json_set(p2_config, '$.kind', 'llm') where p1 like 'llm:%'"
        )
    app = make_app(db)
    async with app.run_test(size=(160, 40)) as pilot:
        table = app.screen.query_one("#games", DataTable)
        await settle(pilot, lambda: table.row_count == 3)
        await pilot.press("p")  # the newest game first: the model's
        await settle(pilot, lambda: isinstance(app.screen, PromptScreen))
        assert app.screen.side == "p2"
        await pilot.press("escape")
        await settle(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("down", "p")  # random against heuristic: no model, p1 as before
        await settle(pilot, lambda: isinstance(app.screen, PromptScreen))
        assert app.screen.side == "p1"
