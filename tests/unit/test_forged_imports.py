"""A game file is checked field by field before import: kinds, times, ranges, parents and sizes;
a refused file is one line and writes nothing, long text is cut with a note, and an imported
game stays out of the ratings unless `--rated`."""

from __future__ import annotations

import json

import orjson
import pytest

from pokeview import paths
from pokeview.cli import main
from pokeview.store import open_store
from tests.helpers import read_decisions, read_game, row_counts
from tests.hostile import EVIL, write_hostile

RECORDING = "loopback-test-model-vs-heuristic.json"


def recording() -> dict:
    return orjson.loads((paths.recordings_dir() / RECORDING).read_bytes())


def first_llm_decision(doc: dict) -> dict:
    return next(d for d in doc["decisions"] if d["how"] == "answer")


def _game(key, value):
    def change(doc):
        doc["game"][key] = value

    return change


def _decision(key, value):
    def change(doc):
        first_llm_decision(doc)[key] = value

    return change


def _usage(key, value):
    def change(doc):
        decision = first_llm_decision(doc)
        detail = orjson.loads(decision["detail"])
        detail["usage"][key] = value
        decision["detail"] = json.dumps(detail)  # orjson writes no integer past 64 bits

    return change


def _deep_detail(depth):
    """A detail past the text cap (so its texts are cut, walking it) nesting `depth` lists."""

    def change(doc):
        decision = first_llm_decision(doc)
        detail = orjson.loads(decision["detail"])
        detail["attempts"][0]["response"] = {"deep": "NEST", "pad": "x" * 300_000}
        nest = "[" * depth + "]" * depth
        decision["detail"] = orjson.dumps(detail).decode().replace('"NEST"', nest)

    return change


def _event(key, value):
    def change(doc):
        doc["events"][0][key] = value

    return change


REFUSED = [
    (_decision("how", f"chosen{EVIL}"), "decisions[1].how is not one of"),
    (_decision("how", "telepathy"), "decisions[1].how is not one of"),
    (_game("started_at", f"{EVIL}2026"), "game.started_at is not an ISO 8601 time"),
    (_game("ended_at", "yesterday"), "game.ended_at is not an ISO 8601 time"),
    (_decision("created_at", "soon"), "decisions[1].created_at is not an ISO 8601 time"),
    (_decision("action", 10**6), "decisions[1].action 1000000 is not one of its"),
    (_game("turns", -3), "game.turns is out of range"),
    (_game("turns", 5000), "game.turns is out of range"),
    (_decision("turn", -1), "decisions[1].turn is out of range"),
    (_game("pair", 2**63), "game.pair is out of range"),
    (_decision("idx", 2**63), "decisions[1].idx is out of range"),
    (_game("parent_game", 999), "game.parent_game 999 is not a game in this database"),
    (_decision("latency_ms", 1e308), "decisions[1].latency_ms is out of range"),
    (_decision("latency_ms", -5.0), "decisions[1].latency_ms is out of range"),
    (_event("at", 1e300), "events[0].at is not a time"),
    (_game("format", "gen9" * 100), "game.format is longer than 200 characters"),
    # Token counts past SQLite's integers raised OverflowError while the stats were written.
    (_usage("output", 10**30), "decisions[1].detail: a decision's detail: Expected `int` <= "),
    (_usage("input", -5), "decisions[1].detail: a decision's detail: Expected `int` >= 0"),
    # Nesting that orjson reads (up to 1,024) but the cutting of long text did not: a traceback.
    (_deep_detail(300), "decisions[1].detail is nested too deeply"),
    (_deep_detail(900), "decisions[1].detail is nested too deeply"),
]


@pytest.mark.parametrize("change, message", REFUSED, ids=[m for _, m in REFUSED])
def test_a_forged_field_refuses_the_file_in_one_line_and_writes_nothing(
    tmp_path, capsys, change, message
):
    db = tmp_path / "x.db"
    open_store(db).close()
    before = row_counts(db)
    doc = recording()
    change(doc)
    path = tmp_path / "forged.json"
    path.write_bytes(orjson.dumps(doc))
    assert main(["--db", str(db), "import", str(path)]) == 2
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("pokeview: error: the game file is not valid: ")
    assert message in lines[0]
    assert "Traceback" not in out + err
    assert row_counts(db) == before


def test_a_fork_whose_parent_is_in_the_database_imports(tmp_path, capsys):
    db = tmp_path / "x.db"
    plain = tmp_path / "plain.json"
    plain.write_bytes(orjson.dumps(recording()))
    assert main(["--db", str(db), "import", str(plain)]) == 0
    fork = recording()
    fork["game"]["parent_game"], fork["game"]["parent_decision"] = 1, 10
    (tmp_path / "fork.json").write_bytes(orjson.dumps(fork))
    assert main(["--db", str(db), "import", "--again", str(tmp_path / "fork.json")]) == 0
    assert read_game(db, 2).parent_game == 1


def test_long_names_and_reasoning_are_cut_with_a_note(tmp_path, capsys):
    doc = recording()
    doc["game"]["p1"] = "n" * 5_000_000
    decision = first_llm_decision(doc)
    detail = orjson.loads(decision["detail"])
    detail["reasoning"] = "r" * 3_000_000
    decision["detail"] = orjson.dumps(detail).decode()
    reasoning = next(e for e in doc["events"] if e["kind"] == "reasoning")
    data = orjson.loads(reasoning["data"])
    data["delta"] = "d" * 3_000_000
    reasoning["data"] = orjson.dumps(data).decode()
    path = tmp_path / "long.json"
    path.write_bytes(orjson.dumps(doc))
    db = tmp_path / "x.db"
    assert main(["--db", str(db), "import", str(path)]) == 0
    game = read_game(db, 1)
    assert game.p1 == "n" * 200 + " … [4,999,800 more characters cut at import]"
    kept = next(d for d in read_decisions(db, 1) if d.how == "answer")
    assert kept.detail.reasoning.startswith("r" * 1000)
    assert kept.detail.reasoning.endswith(
        f" … [{3_000_000 - 256 * 1024:,} more characters cut at import]"
    )
    store = open_store(db)
    try:
        deltas = [e for e in store.events(1) if e.kind == "reasoning"]
    finally:
        store.close()
    assert sum(len(e.data.delta) for e in deltas) < 300 * 1024


def test_imported_games_stay_out_of_the_ratings_unless_rated(tmp_path, capsys):
    doc = recording()
    assert doc["game"]["exclude_from_ratings"] == 0  # the file says: count it
    path = tmp_path / "game.json"
    path.write_bytes(orjson.dumps(doc))
    db = tmp_path / "x.db"
    assert main(["--db", str(db), "import", str(path)]) == 0
    assert main(["--db", str(db), "import", "--rated", "--again", str(path)]) == 0
    assert read_game(db, 1).exclude_from_ratings == 1
    assert read_game(db, 2).exclude_from_ratings == 0
    capsys.readouterr()
    assert main(["--db", str(db), "ratings", "--json"]) == 0
    report = orjson.loads(capsys.readouterr().out)
    assert report["games"] == 1, report.get("games")


def test_rated_is_for_game_files_only(tmp_path, capsys):
    log = tmp_path / "game.log"
    log.write_text(">start {}\n")
    assert main(["--db", str(tmp_path / "x.db"), "import", "--rated", str(log)]) == 2
    assert "--rated is for pokeview game files" in capsys.readouterr().err


def test_the_hostile_file_imports_its_free_text(tmp_path, capsys):
    path = write_hostile(tmp_path / "hostile.json")
    assert main(["--db", str(tmp_path / "x.db"), "import", str(path)]) == 0
    assert EVIL in read_game(tmp_path / "x.db", 1).p1  # kept as written; shown without it


def test_a_forks_file_opens_to_watch_alone(tmp_path):
    from pokeview.exchange import game_file_in_scratch

    fork = recording()
    fork["game"]["parent_game"], fork["game"]["parent_decision"] = 41, 10
    path = tmp_path / "fork.json"
    path.write_bytes(orjson.dumps(fork))
    with game_file_in_scratch(path) as (scratch, game_id):
        assert read_game(scratch, game_id).parent_game is None
