"""Pokéval battle cases through the pinned Showdown, and the turns-matched metric."""

from __future__ import annotations

import json

from pokeview.pokeval import compare, graded
from tests.conftest import DATA
from tests.test_cli import one_clear_line, pokeview

CASES = DATA / "pokeval" / "example-case.jsonl"
PRINTED = DATA / "pokeval" / "example-printed-log.jsonl"


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


def test_the_seed_example_diffs_against_the_pinned_showdown():
    run = pokeview("diff", str(CASES), str(PRINTED), "--json")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    battle = report["battles"][0]
    # Measured: the pinned Showdown agrees with the printed log into turn 6, where a damage figure
    # differs (31 against 39 HP); the recorded choices stop fitting the battle at turn 8.
    assert battle["first_wrong_line"] == 48
    assert battle["showdown"] == "|-damage|p1a: Omanyte|31/210 brn"
    assert battle["engine"] == "|-damage|p1a: Omanyte|39/210 brn"
    assert (battle["matched"], battle["turns"]) == (5, 8)
    assert "You need a switch response" in battle["showdown_stopped"]
    assert report["score"] == 100 * 5 / 8
    text = pokeview("diff", str(CASES), str(PRINTED)).stdout
    assert ">>  48 |-damage|p1a: Omanyte|31/210 brn" in text and "score 62.5" in text


def test_cases_import_as_games_played_through_showdown(tmp_path):
    db = str(tmp_path / "x.db")
    run = pokeview("import", str(CASES), "--db", db)
    assert run.returncode == 0 and "case pokeval-example: game 1 stopped" in run.stdout
    games = json.loads(pokeview("games", "--json", "--db", db).stdout)
    assert games[0]["format"] == "gen1customgame" and games[0]["turns"] == 8
    assert (
        "|switch|p1a: Omanyte|Omanyte|"
        in pokeview("export", "1", "--format", "log", "--db", db).stdout
    )


def test_bad_cases_files_are_one_clear_line(tmp_path):
    bad = tmp_path / "cases.jsonl"
    bad.write_text('{"seed": "1,2,3,4"}\n')
    assert "lacks teams, choices" in one_clear_line(pokeview("diff", str(bad), str(PRINTED)))
    bad.write_text("{not json\n")
    assert "line 1: not JSON" in one_clear_line(pokeview("diff", str(bad), str(PRINTED)))
