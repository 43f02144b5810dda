"""A side's state is declared once (`pokeview/game/side.py`): every reader takes the structs, the
committed JSON schema is what they give, and states of every age decode."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import msgspec
import pytest

from pokeview.config_schemas import FOLDER, schema_text
from pokeview.game.side import Condition, Field, SideState, decode_state, to_state

PACKAGE = Path(__file__).parents[2] / "pokeview"
# Names under which a side's state travels: none of them may be a bare dict.
_STATE_NAME = re.compile(r"(^|_)(state|snapshot)s?$|^(near|far|mon|team|foe_team|field)$")
# A bare dict, a dict of anything, or Any itself.
_UNTYPED = re.compile(r"\bdict\[str, Any\]|\bdict\b(?!\[)|^Any\b")


# The store rebuilds a state from its stored differences as JSON, before anything reads it.
_JSON_ON_PURPOSE = {"pokeview/store/differences.py"}


def _annotated(tree: ast.AST):
    """(name, annotation text, line) of every annotated argument, variable, field and return."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
                if arg.annotation is not None:
                    yield arg.arg, ast.unparse(arg.annotation), arg.lineno
            if node.returns is not None:
                yield node.name, ast.unparse(node.returns), node.lineno
        elif isinstance(node, ast.AnnAssign):
            yield ast.unparse(node.target).split(".")[-1], ast.unparse(node.annotation), node.lineno


def test_no_state_is_read_as_a_bare_dict_anywhere_in_pokeview():
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line} {name}: {annotation}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if str(path.relative_to(PACKAGE.parent)) not in _JSON_ON_PURPOSE
        for name, annotation, line in _annotated(ast.parse(path.read_text(encoding="utf-8")))
        if _STATE_NAME.search(name) and _UNTYPED.search(annotation)
    ]
    assert found == [], "a side's state is a SideState (pokeview/game/side.py):\n" + "\n".join(
        found
    )


def test_the_grep_would_see_a_bare_dict(tmp_path):
    planted = "def board(near: dict[str, Any] | None) -> None: ...\nstate: dict = {}\n"
    found = [
        name
        for name, annotation, _ in _annotated(ast.parse(planted))
        if _STATE_NAME.search(name) and _UNTYPED.search(annotation)
    ]
    assert found == ["near", "state"]


def test_the_committed_schema_is_what_the_structs_give():
    committed = (FOLDER / "side-state.schema.json").read_text(encoding="utf-8")
    assert committed == schema_text("side-state"), "run `make schemas` and commit it"
    defs = json.loads(committed)["$defs"]
    assert defs["SideState"]["additionalProperties"] is False
    assert "foeTeam" in defs["SideState"]["properties"]  # named as the bridge names them
    assert "teraType" in defs["Pokemon"]["properties"]


def test_a_state_of_the_first_records_decodes_with_the_new_fields_at_their_defaults():
    old = {
        "turn": 3,
        "format": "[Gen 9] Random Battle",
        "me": "Player 1",
        "foe": "Player 2",
        "team": [{"species": "Pikachu", "active": True, "hp": 90, "maxhp": 100, "teraType": "Ice"}],
        "foeTeam": [],
        "foeTotal": 6,
        "field": {"weather": "", "terrain": "", "pseudoWeather": [], "mine": [], "theirs": []},
    }
    state = to_state(old)
    mon = state.team[0]
    assert (mon.tera_type, mon.volatiles, mon.move_slots, mon.last_item) == ("Ice", [], [], "")
    assert state.field.weather_turns is None and state.field.pseudo_weather_turns == []


def test_a_state_with_a_field_nobody_declared_is_refused():
    with pytest.raises(msgspec.ValidationError, match="unknown field `hidden`"):
        decode_state(b'{"turn": 1, "team": [{"species": "Mew", "hidden": 1}]}')


def test_the_field_is_worded_by_one_function_for_the_prompt_and_the_board():
    field = Field(weather="Rain", terrain="Electric", pseudo_weather=["Trick Room"])
    assert field.general("Weather: {}", "Terrain: {}") == [
        "Weather: Rain",
        "Terrain: Electric",
        "Trick Room",
    ]
    assert field.general("Weather {}", "{} Terrain")[:2] == ["Weather Rain", "Electric Terrain"]
    assert Condition("Spikes", level=2).named("{name} ×{level}") == "Spikes ×2"
    assert Condition("Reflect").named("{name} ×{level}") == "Reflect"
    assert Condition("{level}", level=3).named("{name} x{level}") == "{level} x3"  # names literal
    assert SideState().field == Field()
