"""A file that is not pokeview's record is refused in one line and left exactly as it was."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from tests.helpers import build_db, pokeview, sqlite_file


def test_another_programs_sqlite_file_is_refused_and_not_changed(tmp_path):
    db = tmp_path / "app.db"
    with sqlite_file(db) as conn:
        conn.execute("create table users (id integer primary key, name text)")
        conn.execute("insert into users (name) values ('ada')")
    before = db.read_bytes()
    commands = (["games"], ["ratings"], ["battle", "--p1", "random", "--p2", "random"])
    # At once: they only read and refuse, so none need wait for another.
    with ThreadPoolExecutor(len(commands)) as pool:
        runs = list(pool.map(lambda command: pokeview(*command, "--db", str(db)), commands))
    for run in runs:
        assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
        assert run.stderr.count("\n") == 1 and "not pokeview's" in run.stderr, run.stderr
    assert db.read_bytes() == before  # no tables added, not switched to WAL
    assert not (tmp_path / "app.db-wal").exists()


def test_a_schema_version_that_is_not_a_number_is_one_line(tmp_path):
    db = build_db(tmp_path / "x.db")
    with sqlite_file(db) as conn:
        conn.execute("update meta set value = 'abc' where key = 'schema_version'")
    run = pokeview("games", "--db", str(db))
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.count("\n") == 1 and "'abc'" in run.stderr, run.stderr


def test_an_empty_file_is_still_made_a_database(tmp_path):
    db = tmp_path / "new.db"
    db.touch()  # `touch x.db` first, as people do
    run = pokeview("games", "--db", str(db))
    assert run.returncode == 0, run.stderr
