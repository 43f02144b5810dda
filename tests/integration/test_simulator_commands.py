"""No line from a file or a database reaches Showdown's simulator but a game's own commands.

Showdown's BattleStream runs `>eval CODE` (JavaScript, in the bridge's Node process) like any
other line it is given, and splits what it is given at each newline. An input log is handed to
it whole (verify, Pokéval's oracle in `diff`, a fork) and a recorded choice is sent again when a
bot game's words are derived: a hostile file puts `>eval` in either. Each case here plants code
that writes a file; the file must never appear, and the command says why in one line.
"""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from pokeview import paths
from pokeview.errors import BattleRefused
from pokeview.game.bridge import Start
from tests.helpers import DATA, STEP_BY_STEP, one_clear_line, play_one, pokeview


def planted(marker: Path) -> str:
    """JavaScript that, if it ever ran, leaves `marker` behind."""
    return f"require('fs').writeFileSync({json.dumps(str(marker))}, 'ran')"


def test_diff_runs_no_code_from_a_case_file(tmp_path):
    marker = tmp_path / "ran"
    case = json.loads((DATA / "pokeval" / "example-case.jsonl").read_text().splitlines()[0])
    case["choices"][0]["p1"] += f"\n>eval {planted(marker)}"
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps(case) + "\n")
    engine = DATA / "pokeval" / "example-printed-log.jsonl"
    run = pokeview("diff", str(cases), str(engine), "--json", "--db", str(tmp_path / "x.db"))
    assert not marker.exists(), "the case file's code ran in the bridge"
    assert "not a game's command" in one_clear_line(run)


def test_verify_runs_no_code_from_an_imported_input_log(tmp_path):
    marker = tmp_path / "ran"
    doc = orjson.loads(
        (paths.recordings_dir() / "loopback-test-model-vs-heuristic.json").read_bytes()
    )
    lines = doc["game"]["input_log"].split("\n")
    doc["game"]["input_log"] = "\n".join([*lines[:3], f">eval {planted(marker)}", *lines[3:]])
    game_file = tmp_path / "game.json"
    game_file.write_bytes(orjson.dumps(doc))
    db = str(tmp_path / "x.db")
    assert pokeview("import", str(game_file), "--db", db).returncode == 0
    run = pokeview("verify", "1", "--db", db)
    assert not marker.exists(), "the game file's input log ran code in the bridge"
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert run.stdout.startswith("FAIL  game 1: the input log holds a line that is not a game's")


def test_reading_a_bot_game_runs_no_code_from_its_recorded_choices(tmp_path):
    """A bot game whose words were left for later has its choices played again when first
    read: a choice in the file that holds a newline would be two lines to Showdown."""
    marker = tmp_path / "ran"
    db = str(tmp_path / "x.db")
    play_one(db, "random", "heuristic", "s1")
    doc = orjson.loads(pokeview("export", "1", "--db", db).stdout)
    choices = 0
    for event in doc["events"]:
        data = orjson.loads(event["data"])
        if event["kind"] == "side":
            data.update(later=True, text=[])
            data.pop("state", None)
        elif event["kind"] == "choice" and not choices:
            data["choice"] += f"\n>eval {planted(marker)}"
            choices += 1
        event["data"] = orjson.dumps(data).decode()
    game_file = tmp_path / "game.json"
    game_file.write_bytes(orjson.dumps(doc))
    assert pokeview("import", str(game_file), "--again", "--db", db).returncode == 0
    run = pokeview("export", "2", "--db", db)
    assert not marker.exists(), "a recorded choice ran code in the bridge"
    assert "holds a line break" in one_clear_line(run)


@pytest.mark.parametrize(
    "line",
    [
        ">eval 1",
        ">editbattle hp p1a 1",
        '>player p1 {"name":"a"}\n>eval 1',
    ],
)
async def test_the_bridge_refuses_an_input_log_line_that_is_not_a_games(bridge, line):
    await refused_then_a_game_opens(bridge, line, "not a game's command")


async def test_the_bridge_refuses_an_input_log_line_that_is_not_utf8(bridge):
    """A player's name with a lone surrogate (JSON's "\\ud800", which Python's json reads):
    no message to Node can hold it (it was a TypeError from the encoder)."""
    await refused_then_a_game_opens(bridge, '>player p1 {"name":"a\ud800"}', "not UTF-8")


async def refused_then_a_game_opens(bridge, line: str, said: str) -> None:
    header = [
        '>start {"formatid":"gen9randombattle","seed":[1,2,3,4]}',
        '>player p1 {"name":"a"}',
        '>player p2 {"name":"b"}',
    ]
    with pytest.raises(BattleRefused, match=said):
        await bridge.open(Start(inputlog=[*header, line], quiet=True))
    channel = await bridge.open(Start(inputlog=header, quiet=True))  # a game's own lines pass
    try:
        assert (await channel.next()).spectator
    finally:
        channel.close()


def test_reading_a_forged_database_runs_no_code_from_a_choices_side(tmp_path):
    """The side of a recorded choice is written into the simulator's line too (`>p1 move 1`):
    a database's, unlike a game file's, is not checked on the way in."""
    from pokeview.store import body as bodies
    from tests.helpers import sqlite_file

    marker = tmp_path / "ran"
    db = str(tmp_path / "x.db")
    # a bot's words are left for later (STEP_BY_STEP: not played whole in the bridge)
    play_one(db, "random", "heuristic", "s2", "--format", STEP_BY_STEP)
    with sqlite_file(db) as conn:
        fmt, blob = conn.execute("select format, blob from bodies where game_id = 1").fetchone()
        body = bodies.unpack(blob, fmt)
        assert any(kind == "side" and '"later":true' in data for _, _, kind, data, _ in body.events)
        at = next(n for n, event in enumerate(body.events) if event[2] == "choice")
        event_id, _, kind, data, time = body.events[at]
        side = f"p1 move 1\n>eval {planted(marker)}\n>p1"
        body.events[at] = (event_id, side, kind, data, time)
        conn.execute("update bodies set blob = ? where game_id = 1", (bodies.pack(body),))
    run = pokeview("export", "1", "--db", db)
    assert not marker.exists(), "a recorded choice's side ran code in the bridge"
    assert "not p1 or p2" in one_clear_line(run)


async def test_a_choice_that_is_not_utf8_is_refused_before_it_is_sent(bridge):
    channel = await bridge.open(
        Start(
            inputlog=[
                '>start {"formatid":"gen9randombattle","seed":[1,2,3,4]}',
                '>player p1 {"name":"a"}',
                '>player p2 {"name":"b"}',
            ],
            quiet=True,
        )
    )
    try:
        with pytest.raises(BattleRefused, match="not UTF-8"):
            channel.choose("p1", "move 1\ud800")
    finally:
        channel.close()
