"""Applying a side event's differences (record format 4): every operation, and nothing shared
is changed. That the bridge's differences rebuild its values exactly is in
tests/integration/test_differences.py."""

from __future__ import annotations

import copy

import msgspec
import pytest

from pokeview.store.differences import BadDifferences, Rebuilder, apply

BASE = {
    "turn": 3,
    "team": [{"species": "A", "hp": 10, "boosts": {"atk": 1}}, {"species": "B", "hp": 20}],
    "field": {"weather": "", "mine": []},
}


def test_each_operation_rebuilds_its_value_and_leaves_the_one_before_as_it_was():
    before = copy.deepcopy(BASE)
    after = apply(
        before,
        [
            [["turn"], 4],  # set
            [["team", 0, "boosts", "atk"]],  # delete
            [["team"], "order", [1, 0, None]],  # reorder, with a new member
            [["team", 2], {"species": "C", "hp": 5}],
            [["team", 1, "hp"], 9],
            [["field"], "keys", ["mine", "weather", "terrain"]],  # new key order, a new key
            [["field", "terrain"], "Electric Terrain"],
        ],
    )
    assert after == {
        "turn": 4,
        "team": [
            {"species": "B", "hp": 20},
            {"species": "A", "hp": 9, "boosts": {}},
            {"species": "C", "hp": 5},
        ],
        "field": {"mine": [], "weather": "", "terrain": "Electric Terrain"},
    }
    assert list(after["field"]) == ["mine", "weather", "terrain"]  # the order is the value's
    assert before == BASE  # nothing it shares was changed
    assert after["team"][0] is before["team"][1]  # what did not change is shared, not copied
    assert apply(before, [[[], [1, 2]]]) == [1, 2]  # the whole value


@pytest.mark.parametrize(
    "ops",
    [
        [[["team", 5, "hp"], 1]],  # no such member
        [[["turn", "x"], 1]],  # a path through a number
        [[["nothing"]]],  # deleting a key that is not there
        [[["team"], "shuffle", [0]]],  # no such operation
    ],
)
def test_differences_that_do_not_fit_the_value_before_are_refused(ops):
    with pytest.raises(BadDifferences):
        apply(copy.deepcopy(BASE), ops)


def test_a_rebuilder_follows_each_side_and_refuses_differences_with_nothing_before():
    def event(**fields):
        return msgspec.json.encode({"lines": [], "text": [], **fields}).decode()

    rebuilder = Rebuilder()
    with pytest.raises(BadDifferences, match="never recorded"):
        rebuilder.whole("p1", event(state_delta=[[["turn"], 2]]))
    rebuilder = Rebuilder()
    first = event(request={"rqid": 1}, state=BASE)
    assert rebuilder.whole("p1", first) == first  # a whole event is passed on as it is
    other = event(request={"rqid": 7}, state={"turn": 9})  # p2's: p1's next differences ignore it
    assert rebuilder.whole("p2", other) == other
    later = msgspec.json.decode(
        rebuilder.whole("p1", event(request_delta=[[["rqid"], 2]], state_delta=[[["turn"], 4]]))
    )
    assert later["request"] == {"rqid": 2}
    assert later["state"] == {**BASE, "turn": 4}
    assert "request_delta" not in later and "state_delta" not in later
