"""Pokéval's turns-matched metric (cases played through the pinned Showdown: tests/integration)."""

from __future__ import annotations

from pokeview.pokeval import compare, graded


def test_graded_lines_keep_the_graded_types_and_collapse_repeats():
    log = [
        "|gametype|singles",
        "|switch|p1a: A|A|10/10",
        "|t:|1",
        "|-message|x",
        "|-message|x",
        "|debug|roll",
        "|turn|1",
        "|upkeep",
    ]
    assert graded(log) == ["|switch|p1a: A|A|10/10", "|-message|x", "|turn|1"]


def test_turns_matched_before_the_first_wrong_line():
    ref = ["|switch|a", "|turn|1", "|move|x", "|turn|2", "|move|y", "|turn|3", "|win|P1"]
    assert compare("c", ref, ref).matched == 3 and compare("c", ref, ref).first_wrong is None
    wrong_in_turn_2 = ref[:4] + ["|move|z"] + ref[5:]
    c = compare("c", ref, wrong_in_turn_2)
    assert (c.first_wrong, c.matched, c.turns) == (4, 1, 3)
    short = compare("c", ref, ref[:5])
    assert short.first_wrong == 5 and short.matched == 1
