"""Pokéval's turns-matched metric (cases played through the pinned Showdown: tests/integration)."""

from __future__ import annotations

import json

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


def test_the_score_counts_turns_matched_over_all_battles_and_a_missing_battle_matches_none(
    tmp_path,
):
    from pokeview.pokeval import load_engine_output, score

    ref = ["|switch|a", "|turn|1", "|move|x", "|turn|2", "|move|y", "|turn|3", "|win|P1"]
    output = tmp_path / "engine.jsonl"
    output.write_text('{"id": "a", "log": ' + json.dumps(ref[:4] + ["|move|z"]) + "}\n\n")
    engine = load_engine_output(output)
    assert engine == {"a": ref[:4] + ["|move|z"]}
    result = score({"a": ref, "b": ref}, {"b": "Showdown stopped at choice line 9"}, engine)
    assert (result.matched, result.turns) == (1, 6)  # a: 1 of 3; b, left out: 0 of 3
    assert result.summary() == (
        "score 16.7: 1 of 6 turns matched before the first wrong line, over 2 battles"
    )
    doc = result.to_json()
    assert (doc["turns_matched"], doc["turns"], round(doc["score"], 1)) == (1, 6, 16.7)
    a, b = doc["battles"]
    assert (a["first_wrong_line"], a["showdown"], a["engine"]) == (5, "|move|y", "|move|z")
    assert (b["first_wrong_line"], b["showdown"], b["engine"]) == (1, "|switch|a", None)
    assert (a["showdown_stopped"], b["showdown_stopped"]) == (
        None,
        "Showdown stopped at choice line 9",
    )


def test_a_score_of_no_turns_is_zero_not_a_division_by_zero():
    from pokeview.pokeval import score

    assert score({}, {}, {}).summary() == (
        "score 0.0: 0 of 1 turns matched before the first wrong line, over 0 battles"
    )
