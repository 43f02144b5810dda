"""The record, version 3: typed events, compacted finished games, migration from version 2."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import msgspec
import pytest
import zstandard

from pokeview.game.decision import BotDetail
from pokeview.store import body as bodies
from pokeview.store import open_store
from tests.helpers import ROOT, sqlite_file, unpack_v2


async def test_a_finished_game_is_one_compressed_body_and_reads_as_before(store, bridge):
    from pokeview.battle import seeds
    from pokeview.battle.loop import play_game
    from pokeview.battle.spec import GameSpec
    from pokeview.players import make_player

    spec = GameSpec(
        format="gen9randombattle",
        seed=seeds.game_seed("body", 0),
        p1=make_player("random"),
        p2=make_player("random"),
        turn_limit=20,
    )
    result = await play_game(spec, bridge=bridge, store=store)
    store.commit()
    game = store.game(result.game_id)
    assert game.compacted and game.spectator_log and "|turn|" in game.spectator_log
    with sqlite_file(store.path) as conn:  # the rows went into the body
        assert conn.execute("select count(*) from events").fetchone() == (0,)
        assert conn.execute("select count(*) from decisions").fetchone() == (0,)
        assert conn.execute("select count(*) from bodies").fetchone() == (1,)
    kinds = {e.kind for e in store.events(game.id)}
    assert {"log", "input", "side", "choice", "end"} <= kinds
    decisions = store.decisions(game.id)
    assert decisions and decisions == sorted(decisions, key=lambda d: (d.side, d.idx))


def test_a_crash_while_compacting_leaves_the_game_whole_as_rows(tmp_path):
    db = tmp_path / "crash.db"
    run = subprocess.run(
        [sys.executable, "-m", "pokeview", "battle", "--p1", "random", "--p2", "random"]
        + ["--seed", "crash", "--turn-limit", "5", "--db", str(db)],
        env={**os.environ, "POKEVIEW_TEST_CRASH": "compaction"},
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode != 0
    with sqlite_file(db) as conn:
        assert conn.execute("select count(*) from bodies").fetchone() == (0,)
        rows = conn.execute("select count(*) from events").fetchone()[0]
        assert rows > 0
        assert conn.execute("select status, compacted from games").fetchone() == ("running", None)
    store = open_store(db)
    try:
        game = store.game(1)
        assert game.status == "interrupted"  # its process is gone
        assert len(store.events(1)) == rows
    finally:
        store.close()


def test_on_a_read_only_file_system_reading_works_and_writing_is_one_line(tmp_path, data_dir):
    db = unpack_v2(data_dir, tmp_path / "source")
    open_store(db).close()  # migrated while it can be written
    mount = tmp_path / "ro"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", str(mount)]).returncode:
        pytest.skip("this machine does not let the tests mount a file system")
    try:
        (mount / "games.db").write_bytes(db.read_bytes())
        # The same file as the previous pokeview (schema 4, bodies of format 1) left it.
        as_v4 = tmp_path / "v4.db"
        as_v4.write_bytes(db.read_bytes())
        with sqlite_file(as_v4) as conn:
            for game_id, blob in conn.execute("select game_id, blob from bodies").fetchall():
                body = bodies.unpack(blob)
                whole = [body.events, body.decisions, body.spectator_log]  # format 1's fields
                blob = zstandard.ZstdCompressor().compress(msgspec.msgpack.encode(whole))
                conn.execute(
                    "update bodies set format = 1, blob = ? where game_id = ?", (blob, game_id)
                )
            conn.execute("update meta set value = '4' where key = 'schema_version'")
        conn.close()
        (mount / "v4.db").write_bytes(as_v4.read_bytes())
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        ro = str(mount / "games.db")

        def pokeview(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                [sys.executable, "-m", "pokeview", *args, "--db", ro],
                cwd=ROOT,
                capture_output=True,
                text=True,
            )

        for args in (("games",), ("ratings",), ("export", "2"), ("prompt", "2", "--turn", "2")):
            shown = pokeview(*args)
            assert shown.returncode == 0 and shown.stdout, (args, shown.stderr)
        # A file of schema 4 is read as it is, read-only, and reads the same.
        older = subprocess.run(
            [sys.executable, "-m", "pokeview", "export", "2", "--db", str(mount / "v4.db")],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        assert older.returncode == 0, older.stderr
        assert older.stdout == pokeview("export", "2").stdout
        refused = pokeview("battle", "--p1", "random", "--p2", "random")
        assert refused.returncode == 2
        assert refused.stderr.splitlines() == [
            f"pokeview: error: the database {ro} is read-only: nothing can be written"
        ]
    finally:
        subprocess.run(["umount", str(mount)])


def test_appended_rows_wait_for_the_commit_and_this_store_reads_them_at_once(tmp_path):
    """A running game's events and decisions go in with the commit (one insert per table);
    the Store that wrote them reads them before that, another connection after it; a game
    this Store started is packed from the rows it kept, equal to packing them read back."""
    from pokeview.store import body as bodies
    from pokeview.store import events as ev

    db = tmp_path / "r.db"
    store = open_store(db)
    game_id = store.create_game(format="gen9randombattle", seed="s", p1="a", p2="b")
    store.append_events(game_id, [(None, ev.EventKind.LOG, ["|turn|1"])], 1.0)
    store.add_decision(game_id, side="p1", idx=0, turn=1, action=0, choice="move 1")
    with sqlite_file(db) as other:  # nothing committed yet
        assert other.execute("select count(*) from events").fetchone() == (0,)
    assert [e.data for e in store.events(game_id)] == [["|turn|1"]]
    store.update_decision(game_id, "p1", 0, action=1, choice="move 2")
    assert [(d.action, d.choice) for d in store.decisions(game_id)] == [(1, "move 2")]
    store.append_events(game_id, [("p1", ev.EventKind.ERROR, ev.Error("x"))], 2.0)
    store.commit()
    with sqlite_file(db) as other:
        assert other.execute("select count(*) from events").fetchone() == (2,)
    rows = [tuple(r) for r in store.conn.execute("select id, side, kind, data, at from events")]
    kept = store._written[game_id]
    assert kept.events == rows  # the kept copy is what was written, ids and all
    assert kept.decisions is None  # a decision changed: its rows are read back
    store.finish_game(game_id, status="finished", winner="p1", turns=1)
    assert [(e.id, e.kind) for e in store.events(game_id)] == [(r[0], r[2]) for r in rows]
    assert [(d.action, d.choice) for d in store.decisions(game_id)] == [(1, "move 2")]

    # Decisions never changed are kept as written too, equal to their rows read back.
    other_game = store.create_game(format="gen9randombattle", seed="t", p1="a", p2="b")
    for idx in range(3):
        store.add_decision(
            other_game,
            side="p2",
            idx=idx,
            turn=idx,
            action=idx,
            choice=f"move {idx + 1}",
            actions=["a", "b"],
            detail=BotDetail(bot_order=str(idx)),
            latency_ms=1.5,
        )
    store.commit()
    columns = ", ".join(bodies.DECISION_COLUMNS)
    written = [tuple(r) for r in store.conn.execute(f"select {columns} from decisions")]
    assert len(written) == 3 and store._written[other_game].decisions == written
    store.finish_game(other_game, status="finished", winner="p1", turns=3)
    assert store._body(other_game).decisions == written
    store.close()


def test_rows_a_locked_file_refused_are_written_by_the_next_commit(tmp_path):
    from pokeview.store import events as ev

    db = tmp_path / "l.db"
    store = open_store(db)
    game_id = store.create_game(format="gen9randombattle", seed="s", p1="a", p2="b")
    store.append_events(game_id, [(None, ev.EventKind.LOG, ["|turn|1"])], 1.0)
    store.add_decision(game_id, side="p1", idx=0, turn=1, action=0, choice="move 1")
    store.conn.execute("PRAGMA busy_timeout=50")
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    with pytest.raises(sqlite3.OperationalError):
        store.commit()
    other.execute("ROLLBACK")
    store.conn.rollback()
    store.commit()
    assert other.execute("select count(*) from events").fetchone() == (1,)
    assert other.execute("select count(*) from decisions").fetchone() == (1,)
    other.close()
    store.close()


async def test_db_describes_the_file_and_its_check_names_each_game_that_cannot_be_read(
    store, bridge
):
    from tests.helpers import game, pokeview

    damaged = (await game(bridge, store, "random", "random", "db", turn_limit=6)).game_id
    intact = (await game(bridge, store, "random", "random", "db", pair=1, turn_limit=6)).game_id
    store.skip_verify = True
    with store.conn:
        store.conn.execute(
            "update bodies set blob = ? where game_id = ?", (b"not zstd at all", damaged)
        )
    store.commit()
    shown = pokeview("db", "--db", str(store.path))
    assert shown.returncode == 0, shown.stderr
    assert f"{store.path}: record schema 7, " in shown.stdout
    assert "2 games: 2 finished" in shown.stdout and "2 compacted (" in shown.stdout
    checked = pokeview("db", "--check", "--db", str(store.path))
    assert checked.returncode == 1, checked.stderr
    damaged_lines = [line for line in checked.stdout.splitlines() if line.startswith("game ")]
    assert len(damaged_lines) == 1
    assert damaged_lines[0].startswith(f"game {damaged} cannot be read: its stored body is damaged")
    assert "1 of 2 games read whole; 1 damaged" in checked.stdout
    assert "Traceback" not in checked.stderr
    assert store.events(intact)  # the other game reads as before
