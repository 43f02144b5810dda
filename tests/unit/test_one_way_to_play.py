"""One way to play a game: every caller goes through `battle.play.play`, and a GameSpec is made
by its own constructors only (battle/spec.py), never field by field in a caller or a screen."""

from __future__ import annotations

import re
from pathlib import Path

import pokeview

PACKAGE = Path(pokeview.__file__).parent


def _sources() -> dict[str, str]:
    return {
        str(path.relative_to(PACKAGE)): path.read_text()
        for path in PACKAGE.rglob("*.py")
        if "node" not in path.parts
    }


def test_only_battle_plays_a_game_on_the_bridge():
    callers = sorted(
        name
        for name, text in _sources().items()
        if re.search(r"\bplay_game\(", text) and name not in ("battle/loop.py", "battle/play.py")
    )
    assert callers == []


def test_a_game_spec_is_made_only_by_its_constructors():
    makers = sorted(
        name
        for name, text in _sources().items()
        if re.search(r"\bGameSpec\(", text) and name != "battle/spec.py"
    )
    assert makers == []
