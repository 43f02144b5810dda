"""Pokéval's turns-matched metric (cases played through the pinned Showdown: tests/integration)."""

from __future__ import annotations

import json

import pytest

from pokeview.errors import PokeviewError
from pokeview.pokeval import compare, graded
from tests.helpers import DATA


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
        "score 16.7: 1 of 6 turns matched before the first wrong line, over 2 battles; "
        "1 battle missing from the engine output (scored 0): b"
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


def test_a_log_that_is_not_a_list_of_lines_is_one_clear_line(tmp_path):
    from pokeview.pokeval import load_engine_output

    output = tmp_path / "engine.jsonl"
    output.write_text('{"id": "a", "log": "|switch|a\\n|turn|1"}\n')
    with pytest.raises(PokeviewError, match=r"line 1 \(id a\): its log should be a list of lines"):
        load_engine_output(output)
    output.write_text('{"id": "a", "log": [1, 2]}\n')
    with pytest.raises(PokeviewError, match="a list of lines"):
        load_engine_output(output)


def test_duplicate_ids_are_refused_and_unknown_ones_reported(tmp_path):
    from pokeview.pokeval import load_engine_output, score

    output = tmp_path / "engine.jsonl"
    output.write_text('{"id": "a", "log": []}\n{"id": "a", "log": ["|turn|1"]}\n')
    with pytest.raises(PokeviewError, match=r"id a is on lines 1 and 2"):
        load_engine_output(output)
    output.write_text('{"id": "a", "log": []}\n{"id": "zz", "log": []}\n')
    result = score({"a": ["|turn|1"]}, {}, load_engine_output(output))
    assert result.summary().endswith("; 1 output id matches no case (ignored): zz")
    assert result.to_json()["unknown_ids"] == ["zz"] and result.to_json()["missing_ids"] == []


def test_a_line_after_win_costs_the_last_turn_as_the_help_says():
    from pokeview.cli import build_parser

    ref = ["|switch|a", "|turn|1", "|move|x", "|turn|2", "|move|y", "|win|P1"]
    assert compare("c", ref, ref).matched == 2
    assert compare("c", ref, [*ref, "|move|extra"]).matched == 1
    import argparse

    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    helptext = " ".join(commands.choices["diff"].format_help().split())
    assert "a line after |win| (which Showdown's log does not have) costs the last turn" in helptext


@pytest.mark.parametrize(
    "choices",
    [5, "move 1", [["move 1"]], [{"p1": 5}], [{"p1": "move 1", "p2": ["switch 2"]}]],
    ids=["a number", "a string", "a list of lists", "a number for p1", "a list for p2"],
)
def test_choices_of_another_shape_are_one_clear_line(tmp_path, choices):
    """They were a traceback in `import` and `diff` (TypeError, AttributeError), or a choice
    sent to Showdown as the number's text."""
    from pokeview.pokeval import load_cases

    case = json.loads((DATA / "pokeval" / "example-case.jsonl").read_text().splitlines()[0])
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps({**case, "choices": choices}) + "\n")
    with pytest.raises(PokeviewError, match=r"case 1 \(pokeval-example\): its choices should be"):
        load_cases(path)


def test_a_lone_surrogate_in_a_cases_or_engine_file_is_one_clear_line(tmp_path):
    """Python's json reads "\\ud800" as a lone surrogate, which no output can hold: `import`
    and `diff` gave a traceback (UnicodeEncodeError) at the first line naming the case."""
    from pokeview.pokeval import load_cases, load_engine_output

    case = json.loads((DATA / "pokeval" / "example-case.jsonl").read_text().splitlines()[0])
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps({**case, "id": "a\ud800b"}) + "\n")
    with pytest.raises(PokeviewError, match="line 1: not JSON"):
        load_cases(cases)
    engine = tmp_path / "engine.jsonl"
    engine.write_text('{"id": "a", "log": ["|turn|1\\udc00"]}\n')
    with pytest.raises(PokeviewError, match="line 1: not JSON"):
        load_engine_output(engine)
