"""The typed request: what pokeview reads of Showdown's request, decoded from the bridge's JSON."""

from __future__ import annotations

import msgspec
import pytest

from pokeview.battle.actions import legal_actions
from pokeview.players.random_choice import random_choice
from pokeview.sim.request import BadRequest, as_request, decode_request
from tests.helpers import MOVES, TEAM


def _json(request: dict) -> bytes:
    return msgspec.json.encode(request)


def test_the_bridges_json_and_a_dict_read_the_same_and_the_rest_is_skipped():
    request = {
        "active": [{"moves": MOVES, "canTerastallize": "Fighting"}],
        "side": {"pokemon": TEAM},
        "rqid": 7,  # what pokeview does not read is skipped
    }
    typed = decode_request(_json(request))
    assert typed is not None and typed == as_request(request)
    assert typed.active is not None and typed.active[0].can_terastallize == "Fighting"
    assert [m.id for m in typed.active[0].moves] == [m["id"] for m in MOVES]
    assert [(m.ident, m.active) for m in typed.side.pokemon] == [  # type: ignore[union-attr]
        (m["ident"], m["active"]) for m in TEAM
    ]
    # Switches of the team, moves with pp left and not disabled, and the same with Tera.
    choices = [a.choice for a in legal_actions(typed)]
    assert choices == ["move 1", "move 2", "move 1 terastallize", "move 2 terastallize",
                       "switch 2", "switch 4"]  # fmt: skip
    # poke-env's own order also holds Moonblast (no pp left, not disabled): drawing it is None,
    # poke-env then decides.
    drawn = {random_choice(typed, legal_actions(typed), seed) for seed in range(40)}
    assert None in drawn and drawn - {None} <= set(range(len(choices))) and len(drawn) > 2


def test_values_showdown_gives_in_more_than_one_type_are_read_by_their_truth():
    moves = [
        {"move": "Struggle", "id": "struggle", "target": "randomNormal", "disabled": False},
        {"move": "Tackle", "id": "tackle", "pp": 3, "maxpp": 56, "disabled": "Imprison"},
    ]
    active = {"moves": moves, "maxMoves": {"maxMoves": [{"move": "maxstrike"}]}, "canZMove": None}
    typed = decode_request(_json({"active": [active], "side": {"pokemon": TEAM}}))
    assert typed is not None
    assert [a.label for a in legal_actions(typed)] == [
        "move Struggle",  # no pp given: usable
        "switch Palkia-Origin",
        "switch Weavile",
    ]
    # Dynamax is not followed by the request-only random choice: poke-env decides.
    assert random_choice(typed, legal_actions(typed), 1) is None


def test_null_and_nothing_asked_are_no_request():
    assert decode_request(b"null") is None
    assert as_request({}) is None and legal_actions({}) == []


def test_a_request_of_another_shape_is_one_clear_error():
    with pytest.raises(BadRequest, match=r"^a request pokeview cannot read: .*ident") as caught:
        decode_request(_json({"side": {"pokemon": [{"details": "Carbink", "condition": "1/1"}]}}))
    assert "\n" not in str(caught.value)
    with pytest.raises(BadRequest, match="without its side"):
        legal_actions({"active": [{"moves": MOVES}]})
    with pytest.raises(BadRequest, match="without its active"):
        legal_actions({"side": {"pokemon": TEAM}})
