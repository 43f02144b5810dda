"""A game whose side made no decisions (an imported replay or log keeps none) has no prompt
to show, and both the inspector and `pokeview prompt` say so. They said "decision 1 of 0 ·
turn ?" over the system prompt, and "decisions at no decisions", "--decision takes 1 to 0"."""

from __future__ import annotations

import orjson
import pytest

from pokeview.app import make_app
from pokeview.cli import main
from pokeview.screens.prompt import PromptScreen
from tests.helpers import ROOT, settle, text_of


@pytest.fixture
def no_decisions(tmp_path):
    """A recorded game imported without its decisions."""
    doc = orjson.loads((ROOT / "recordings" / "heuristic-vs-max-damage.json").read_bytes())
    doc["decisions"] = []
    path = tmp_path / "game.json"
    path.write_bytes(orjson.dumps(doc))
    db = tmp_path / "x.db"
    assert main(["--db", str(db), "import", str(path)]) == 0
    return db


@pytest.mark.parametrize("which", [["--turn", "1"], ["--decision", "1"]])
def test_pokeview_prompt_says_the_side_made_no_decisions(no_decisions, capsys, which):
    capsys.readouterr()
    assert main(["--db", str(no_decisions), "prompt", "1", *which]) == 2
    err = capsys.readouterr().err
    assert err == "pokeview: error: p1 made no decisions in game 1: there is no prompt to show\n"


async def test_the_inspector_says_the_side_made_no_decisions(no_decisions):
    app = make_app(no_decisions, lambda: PromptScreen(no_decisions, 1, "p1", 0))
    async with app.run_test(size=(120, 36)) as pilot:
        head = app.screen.query_one("#head")
        await settle(pilot, lambda: "loading" not in text_of(head))
        assert "made no decisions in game 1" in text_of(head)
        assert app.screen.text == ""  # not a system prompt as if a model had been asked
        await pilot.press("full_stop")
        await pilot.pause(0.2)
        assert "decision 2" not in text_of(head)
