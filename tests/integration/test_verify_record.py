"""`verify` checks the whole record: a forged winner, turn count or player name fails it even
when the spectator log is untouched."""

from __future__ import annotations

import orjson
import pytest

from pokeview import paths
from pokeview.battle.verify import verify_game
from pokeview.exchange import import_game
from pokeview.store import open_store

RECORDING = "random-vs-heuristic.json"


def recording() -> dict:
    return orjson.loads((paths.recordings_dir() / RECORDING).read_bytes())


def _set(**fields):
    def change(doc):
        doc["game"].update(fields)

    return change


def _swap_names(doc):
    game = doc["game"]
    game["p1"], game["p2"] = game["p2"], game["p1"]


FORGED = [
    (_set(winner="p1"), "the record says the winner is p1, Showdown says p2"),
    (_set(winner="tie"), "the record says the winner is tie, Showdown says p2"),
    (_set(turns=3), "the record says 3 turns, Showdown says 26"),
    (_swap_names, "p1 is recorded as 'heuristic', but its settings describe 'random'"),
    (_set(p1="llm:gpt-9"), "p1 is recorded as 'llm:gpt-9', but its settings describe 'random'"),
    (_set(status="interrupted", winner=None), "the record says interrupted, but its input log"),
]


@pytest.mark.parametrize("change, message", FORGED, ids=[m for _, m in FORGED])
async def test_a_forged_record_fails_verify(bridge, tmp_path, change, message):
    store = open_store(tmp_path / "x.db")
    try:
        honest = import_game(store, recording())
        doc = recording()
        change(doc)
        forged = import_game(store, doc)
        ok = await verify_game(bridge, store, honest)
        assert ok.ok, ok.message
        assert "lines identical, winner, turns and names as recorded" in ok.message
        verdict = await verify_game(bridge, store, forged)
        assert not verdict.ok
        assert verdict.message == f"game {forged}: {message}" or message in verdict.message
    finally:
        store.close()


def test_verify_on_the_command_line_says_what_is_forged(tmp_path, capsys):
    from pokeview.cli import main

    doc = recording()
    doc["game"]["winner"], doc["game"]["turns"] = "p1", 3
    path = tmp_path / "forged.json"
    path.write_bytes(orjson.dumps(doc))
    db = str(tmp_path / "x.db")
    assert main(["--db", db, "import", str(path)]) == 0
    capsys.readouterr()
    assert main(["--db", db, "verify", "1"]) == 1
    out = capsys.readouterr().out
    assert out == "FAIL  game 1: the record says the winner is p1, Showdown says p2\n"
