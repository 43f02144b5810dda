"""A player's most telling decisions: a few of each kind kept, however many decisions and in
whatever order they come."""

from __future__ import annotations

import random

from pokeview.game.decision import Attempt, ModelDetail, NoDetail
from pokeview.ratings.telling import EXCERPT, MOST, TellingDecisions
from pokeview.store.rows import DecisionRow


def decision(game_id: int, idx: int, reasoning: str = "", how: str = "answer", **kw) -> DecisionRow:
    detail = kw.pop("detail", None) or ModelDetail(model="m", reasoning=reasoning, **kw)
    return DecisionRow(
        id=game_id * 1000 + idx, game_id=game_id, side="p1", idx=idx, turn=idx + 1, request={},
        actions=["move A"], action=0, choice="move 1", how=how, refusals=kw.get("refusals", []),
        detail=detail, created_at="", latency_ms=None,
    )  # fmt: skip


def test_the_longest_reasoning_and_the_first_problems_are_kept_in_any_order():
    made = [decision(g, i, "word " * (g * 7 + i)) for g in range(1, 21) for i in range(10)]
    reasked = ModelDetail(
        model="m",
        reasks=1,
        attempts=[Attempt(n=0, status="ok", action_text="99", problem="99 is not listed")],
    )
    made += [decision(g, 50, detail=reasked, how="re-ask") for g in range(30, 40)]
    made.append(decision(7, 60, detail=NoDetail(), how="random pick"))  # a bot's: kept too
    random.Random(3).shuffle(made)
    telling = TellingDecisions()
    for d in made:
        telling.add("p", d)
    kept = telling.of("p")
    longest = kept["reasoning"].shown()
    assert kept["reasoning"].count == 200 and len(longest) == MOST
    assert [(t.game_id, t.idx) for t in longest] == [(20, 9), (20, 8), (20, 7), (20, 6), (20, 5)]
    assert len(longest[0].note) == EXCERPT and longest[0].note.endswith("…")
    assert longest[0].size == len("word " * 149)
    asked = kept["reask"].shown()
    assert kept["reask"].count == 10 and [t.game_id for t in asked] == [30, 31, 32, 33, 34]
    assert asked[0].note == "99: 99 is not listed"
    assert [t.game_id for t in kept["random"].shown()] == [7]
    assert telling.of("someone else") == {}
