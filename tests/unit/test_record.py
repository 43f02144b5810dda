"""The record, version 3, without Node: typed events, migration from version 2, damaged and
crafted files, many processes at once (played games are in tests/integration/test_record.py)."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys

import pytest

from pokeview import exchange
from pokeview.errors import PokeviewError
from pokeview.game.decision import BotDetail
from pokeview.store import events as ev
from pokeview.store import open_store, schema
from pokeview.store.events import EventKind
from tests.helpers import DATA, ROOT, sqlite_file, unpack_v2


def test_a_version_2_database_migrates_once_with_progress_and_exports_the_same(tmp_path, data_dir):
    db = unpack_v2(data_dir, tmp_path)
    progress: list[tuple[int, int]] = []
    store = open_store(db, on_migrate=lambda n, total: progress.append((n, total)))
    try:
        assert progress and progress[-1] == (6, 6)  # six ended games compacted, one by one
        for game_id in range(1, 8):
            before = (tmp_path / f"export-{game_id}.json").read_text()
            assert exchange.export_game(store, game_id) == before, f"game {game_id} changed"
        assert [g.compacted for g in store.games(limit=10)] == [False] + [True] * 6
        # A compacted game reads like the rows it was: typed events, decisions, its log.
        side = store.events(2, kinds=(EventKind.SIDE,), side="p1")
        assert side and all(isinstance(e.data, ev.Side) for e in side)
        assert store.decisions(2, "p1")[0].detail.messages[0].role == "system"
        assert store.game(1).spectator_log.startswith("|")
    finally:
        store.close()
    with sqlite_file(db) as conn:
        assert conn.execute("select count(*) from events where game_id < 7").fetchone() == (0,)
        assert conn.execute("pragma integrity_check").fetchone() == ("ok",)
    again: list[tuple[int, int]] = []
    open_store(db, on_migrate=lambda n, total: again.append((n, total))).close()
    assert again == []  # migrated once


def test_a_migration_killed_midway_continues_and_loses_nothing(tmp_path, data_dir):
    db = unpack_v2(data_dir, tmp_path)
    killed = subprocess.run(
        [sys.executable, "-c", f"from pokeview.store import open_store; open_store({str(db)!r})"],
        env={**os.environ, "POKEVIEW_TEST_CRASH": "compaction"},
        cwd=ROOT,
    )
    assert killed.returncode != 0  # it died in the middle of compacting the first game
    with sqlite_file(db) as conn:
        # The first game is all rows still: its body was never committed.
        assert conn.execute("select count(*) from bodies").fetchone() == (0,)
        assert conn.execute("select count(*) from events where game_id = 1").fetchone()[0] > 0
    store = open_store(db)
    try:
        for game_id in range(1, 8):
            before = (tmp_path / f"export-{game_id}.json").read_text()
            assert exchange.export_game(store, game_id) == before
    finally:
        store.close()


def test_a_database_from_a_newer_pokeview_is_one_line(tmp_path):
    db = tmp_path / "new.db"
    open_store(db).close()
    with sqlite_file(db) as conn:
        conn.execute("update meta set value = '99' where key = 'schema_version'")
    with pytest.raises(PokeviewError, match=r"newer pokeview \(schema 99, this one reads 7\)"):
        open_store(db)


def test_a_damaged_body_is_one_line_naming_the_game_and_others_stay_readable(tmp_path):
    db = unpack_v2(DATA, tmp_path)
    open_store(db).close()
    with sqlite_file(db) as conn:
        conn.execute("update bodies set blob = x'28b52ffd00' where game_id = 3")
    shown = subprocess.run(
        [sys.executable, "-m", "pokeview", "export", "3", "--db", str(db)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert shown.returncode != 0
    lines = shown.stderr.strip().splitlines()
    assert len(lines) == 1 and "game 3" in lines[0] and "damaged" in lines[0], shown.stderr
    store = open_store(db)
    try:
        assert exchange.export_game(store, 4) == (tmp_path / "export-4.json").read_text()
    finally:
        store.close()


def test_only_the_store_runs_sql():
    offenders = []
    for path in (ROOT / "pokeview").rglob("*.py"):
        if "store" in path.relative_to(ROOT / "pokeview").parts[:1]:
            continue
        for n, line in enumerate(path.read_text().splitlines(), start=1):
            if re.search(r"\bexecute(many)?\(|\.conn\b", line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert offenders == []


def test_a_decision_row_holds_what_was_given_and_null_for_the_rest(tmp_path):
    """add_decision's row: JSON columns as JSON text (an empty list too), a None or a column not
    given as SQL null (not the text 'null'), an unknown column refused before anything is kept."""
    db = tmp_path / "d.db"
    store = open_store(db)
    game_id = store.create_game(format="gen9randombattle", seed="s", p1="a", p2="b")
    given = {
        "turn": 1,
        "actions": [],
        "refusals": None,
        "detail": BotDetail(bot_order="k"),
        "latency_ms": 2.5,
    }
    store.add_decision(game_id, side="p1", idx=0, **given)
    with pytest.raises(TypeError, match=r"^a decision has no column \['colour', 'size'\]$"):
        store.add_decision(game_id, side="p1", idx=1, turn=1, size=1, colour="red")
    store.commit()
    # the caller's values untouched
    assert given["actions"] == [] and given["detail"] == BotDetail(bot_order="k")
    with sqlite_file(db) as conn:
        conn.row_factory = sqlite3.Row
        rows = [dict(row) for row in conn.execute("select * from decisions")]
    assert [{k: v for k, v in row.items() if k not in ("id", "created_at")} for row in rows] == [
        {
            "game_id": game_id,
            "side": "p1",
            "idx": 0,
            "turn": 1,
            "request": None,
            "actions": "[]",
            "action": None,
            "choice": None,
            "how": None,
            "refusals": None,
            "detail": '{"bot_order":"k"}',
            "latency_ms": 2.5,
        }
    ]
    assert isinstance(rows[0]["created_at"], str) and rows[0]["created_at"]  # when it was made
    store.close()


def test_a_decision_keeps_the_time_it_is_given(tmp_path):
    """A decision recorded earlier (elsewhere, say) keeps its own time; others get the current."""
    store = open_store(tmp_path / "d.db")
    game_id = store.create_game(format="gen9randombattle", seed="s", p1="a", p2="b")
    store.add_decision(
        game_id, side="p1", idx=0, turn=1, created_at="2020-01-01T00:00:00.000+00:00"
    )
    store.add_decision(game_id, side="p2", idx=0, turn=1)
    made = {d.side: d.created_at for d in store.decisions(game_id)}
    assert made["p1"] == "2020-01-01T00:00:00.000+00:00"
    assert made["p2"] and made["p2"] != made["p1"]  # when it was made, not the other's
    store.close()


def test_every_event_kind_has_one_shape():
    assert set(ev.PAYLOADS) == set(EventKind)
    with pytest.raises(ev.BadEvent):
        ev.decode("side", b'{"lines": "not a list", "text": []}')
    with pytest.raises(ev.BadEvent):
        ev.decode("choice", b'{"idx": 1, "action": 0, "label": "x", "choice": "y", "extra": 1}')
    assert ev.decode("input", b'["a"]') == ev.Input(["a"], True)  # version 1's bare list
    assert schema.SCHEMA_VERSION == 7


def test_ten_processes_creating_a_new_database_at_once_all_succeed(tmp_path):
    db = tmp_path / "fresh" / "new.db"
    procs = [
        subprocess.Popen(
            # The default database (POKEVIEW_DB) is created by any command; a `--db` path by
            # the commands that record.
            [sys.executable, "-m", "pokeview", "games"],
            env={**os.environ, "POKEVIEW_DB": str(db)},
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(10)
    ]
    results = [(p.wait(), p.communicate()[1]) for p in procs]
    assert [code for code, _ in results] == [0] * 10, results
    with sqlite_file(db) as conn:
        assert conn.execute("select value from meta where key = 'schema_version'").fetchone() == (
            str(schema.SCHEMA_VERSION),
        )


INJECTION = (
    "id, status) select id+0, ? from games where ? is null or 1 on conflict(id) do update set "
    "winner = case winner when 'p1' then 'p2' when 'p2' then 'p1' else winner end --"
)


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda doc: doc["game"].update({INJECTION: "x"}), "unknown field"),
        (
            lambda doc: doc["game"].update({"p2": None}),
            "Expected `str`, got `null` - at `$.game.p2`",
        ),
        (lambda doc: doc.update({"game": [1, 2]}), "Expected `object`, got `array` - at `$.game`"),
        (lambda doc: doc.update({"decisions": "many"}), "Expected `array`, got `str`"),
        (lambda doc: doc["events"][3].update({"data": '{"lines": 5}'}), "events[3]"),
        (lambda doc: doc["events"][0].update({"kind": "evil"}), "unknown event kind 'evil'"),
        (lambda doc: doc["game"].update({"winner": "p3"}), "$.game.winner"),
    ],
)
def test_a_crafted_or_broken_import_is_one_line_and_changes_nothing(
    tmp_path, data_dir, change, message, capsys
):
    import json

    from pokeview.cli import main

    db = unpack_v2(data_dir, tmp_path)
    open_store(db).close()
    before = db.read_bytes()
    with sqlite_file(db) as conn:
        rows_before = conn.execute("select id, winner, input_log from games order by id").fetchall()
    doc = json.loads((tmp_path / "export-1.json").read_text())
    change(doc)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    # The command in this process (as tests/unit/test_forged_imports.py runs it): what it prints
    # and returns is the same, without a Python start-up per case.
    code = main(["import", str(bad), "--db", str(db)])
    out, err = capsys.readouterr()
    assert code == 2, out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], err
    with sqlite_file(db) as conn:
        assert conn.execute("select id, winner, input_log from games order by id").fetchall() == (
            rows_before
        )
    assert len(db.read_bytes()) == len(before)


def test_a_player_is_written_again_only_when_its_settings_change(tmp_path):
    store = open_store(tmp_path / "p.db")
    try:
        assert store.remember_player("heuristic", "bot", {"depth": 1})
        assert not store.remember_player("heuristic", "bot", {"depth": 1})  # every game of a run
        assert store.remember_player("heuristic", "bot", {"depth": 2})
        store.commit()
        with sqlite_file(store.path) as other:
            row = other.execute("select kind, config from players").fetchall()
            assert row == [("bot", '{"depth":2}')]
            other.execute("update players set config = '{}'")  # another process changed it
        assert store.remember_player("heuristic", "bot", {"depth": 2})  # so it is written again
        # A write rolled back is not taken for written.
        store.conn.rollback()
        assert store.remember_player("heuristic", "bot", {"depth": 2})
    finally:
        store.close()


async def test_a_commit_before_closing_leaves_no_timer_to_commit_on_the_closed_file(tmp_path):
    """`commit` (a game's end, a player remembered) made the commit scheduled by `commit_soon`
    needless but left its timer running: after `close` it committed on a closed connection
    (an error from the event loop), and a second timer could be scheduled beside it."""
    import asyncio

    loop = asyncio.get_running_loop()
    errors: list[dict] = []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    try:
        store = open_store(tmp_path / "t.db")
        game_id = store.create_game(format="gen9randombattle", seed="t", p1="a", p2="b")
        store.append_events(game_id, [(None, EventKind.LOG, ["|start"])], 1.0)
        store.commit_soon(0.01)
        store.commit()
        store.close()
        await asyncio.sleep(0.05)
    finally:
        loop.set_exception_handler(previous)
    assert errors == []
