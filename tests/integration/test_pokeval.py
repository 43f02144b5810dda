"""Pokéval battle cases through the pinned Showdown, and the turns-matched metric."""

from __future__ import annotations

import json

from tests.helpers import DATA, one_clear_line, pokeval_example, pokeview

CASES = DATA / "pokeval" / "example-case.jsonl"
PRINTED = DATA / "pokeval" / "example-printed-log.jsonl"


def write_jsonl(path, *objects) -> str:
    path.write_text("".join(json.dumps(o) + "\n" for o in objects))
    return str(path)


def test_the_seed_example_is_reproduced_whole_by_the_pinned_showdown():
    # Gen 1 has no abilities: with `No Ability` on every member, the pinned Showdown prints the
    # write-up's 28-turn log exactly (without it, Charmander's Blaze acts and line 48 departs).
    run = pokeview("diff", str(CASES), str(PRINTED), "--json")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    battle = report["battles"][0]
    assert battle["first_wrong_line"] is None and battle["showdown_stopped"] is None
    assert (battle["matched"], battle["turns"]) == (28, 28)
    assert report["score"] == 100
    text = pokeview("diff", str(CASES), str(PRINTED)).stdout
    assert "all 207 lines agree (28 turns)" in text and "score 100.0" in text


def test_one_changed_damage_figure_departs_exactly_there(tmp_path):
    case, printed = pokeval_example()
    assert printed[47] == "|-damage|p1a: Omanyte|39/210 brn"
    changed = printed[:47] + ["|-damage|p1a: Omanyte|31/210 brn"] + printed[48:]
    engine = write_jsonl(tmp_path / "engine.jsonl", {"id": case["id"], "log": changed})
    report = json.loads(pokeview("diff", str(CASES), engine, "--json").stdout)
    battle = report["battles"][0]
    assert battle["first_wrong_line"] == 48
    assert battle["showdown"] == "|-damage|p1a: Omanyte|39/210 brn"
    assert battle["engine"] == "|-damage|p1a: Omanyte|31/210 brn"
    assert (battle["matched"], battle["turns"]) == (5, 28)  # line 48 falls in turn 6
    text = pokeview("diff", str(CASES), engine).stdout
    assert ">>  48 |-damage|p1a: Omanyte|39/210 brn" in text and "score 17.9" in text


def test_a_choice_showdown_refuses_is_reported(tmp_path):
    case, printed = pokeval_example()
    assert case["choices"][3] == {"turn": 3, "p1": None, "p2": "switch 6"}
    case["choices"][3]["p2"] = "move 1"  # Pidgeotto has fainted: a switch is due
    cases = write_jsonl(tmp_path / "cases.jsonl", case)
    engine = write_jsonl(tmp_path / "engine.jsonl", {"id": case["id"], "log": printed})
    battle = json.loads(pokeview("diff", cases, engine, "--json").stdout)["battles"][0]
    assert "You need a switch response" in battle["showdown_stopped"]
    assert "choice line 10" in battle["showdown_stopped"]
    text = pokeview("diff", cases, engine).stdout
    assert "Showdown stopped at choice line 10 (>p2 move 1)" in text


def test_gen_1_teams_carry_no_item_ability_nature_or_stat_spread(tmp_path):
    case, printed = pokeval_example()
    engine = write_jsonl(tmp_path / "engine.jsonl", {"id": case["id"], "log": printed})
    member = "Omanyte||{}|{}|leer,watergun|{}|{}|||||"
    for filled, said in [
        (member.format("leftovers", "", "", ""), "sets its item ('leftovers'); Gen 1 has none"),
        (member.format("", "swiftswim", "", ""), "sets its ability ('swiftswim')"),
        (member.format("", "", "Adamant", ""), "sets its nature ('Adamant')"),
        (member.format("", "", "", "252,,,,,"), "sets its EVs ('252,,,,,')"),
    ]:
        bad = dict(case, teams={"p1": filled, "p2": case["teams"]["p2"]})
        cases = write_jsonl(tmp_path / "cases.jsonl", bad)
        line = one_clear_line(pokeview("diff", cases, engine))
        assert "case 1 (pokeval-example), p1: member 1 (Omanyte) " + said in line
    # `No Ability` written out is what pokeview plays anyway.
    fine = dict(
        case, teams={"p1": member.format("", "No Ability", "", ""), "p2": "Jynx||||psychic|||||||"}
    )
    cases = write_jsonl(tmp_path / "cases.jsonl", fine)
    assert pokeview("diff", cases, engine, "--json").returncode == 0


def test_cases_import_as_games_played_through_showdown(tmp_path):
    db = str(tmp_path / "x.db")
    run = pokeview("import", str(CASES), "--db", db)
    assert run.returncode == 0 and run.stdout == "case pokeval-example: game 1\n", run.stdout
    games = json.loads(pokeview("games", "--json", "--db", db).stdout)
    assert games[0]["format"] == "gen1customgame" and games[0]["turns"] == 28
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
