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


def test_the_bridges_json_and_a_dict_give_the_same_actions_and_random_choice():
    request = {
        "active": [{"moves": MOVES, "canTerastallize": "Fighting"}],
        "side": {"pokemon": TEAM},
        "rqid": 7,  # what pokeview does not read is skipped
    }
    typed = decode_request(_json(request))
    assert typed == as_request(request)
    assert legal_actions(typed) == legal_actions(request)
    assert [random_choice(typed, legal_actions(typed), seed) for seed in range(40)] == [
        random_choice(as_request(request), legal_actions(request), seed) for seed in range(40)
    ]


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
