"""A recorded choice names the legal action it was, with nothing of it lost."""

from __future__ import annotations

from pokeview.battle.actions import Action
from pokeview.players.recorded import match


def _leads(n: int = 6) -> list[Action]:
    return [
        Action(f"lead Mon{i}", f"team {i}", "lead", slot=i, name=f"Mon{i}") for i in range(1, n + 1)
    ]


def test_a_whole_team_order_is_kept_whole():
    actions = _leads()
    index = match("team 2, 6, 3, 1, 4, 5", actions)
    assert index is not None
    assert actions[index].choice == "team 2, 6, 3, 1, 4, 5"  # not "team 2": the rest matters
    assert actions[index].kind == "lead" and actions[index].slot == 2
    assert actions[index].label == "lead Mon2, then Mon6, Mon3, Mon1, Mon4, Mon5"


def test_a_team_order_in_digits_is_kept_whole():
    actions = _leads()
    index = match("team 265314", actions)
    assert index is not None and actions[index].choice == "team 265314"


def test_the_order_a_lead_alone_gives_is_that_lead():
    # Showdown writes "team 2" into its input log as the whole order it makes of it.
    actions = _leads()
    assert match("team 2, 1, 3, 4, 5, 6", actions) == 1
    assert match("team 2", actions) == 1
    assert len(actions) == 6
    picked = _leads()  # a format picking four of six (VGC): the order is cut to four
    assert match("team 3, 1, 2, 4", picked) == 2
