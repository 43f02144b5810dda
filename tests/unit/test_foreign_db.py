"""A file that is not pokeview's record is refused in one line and left exactly as it was."""

from __future__ import annotations

import subprocess
import sys
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


def zstd_bomb(size: int) -> bytes:
    """A zstd frame of `size` zero bytes (saying so in its header): about 1/32,000 of it."""
    import io

    import zstandard

    out = io.BytesIO()
    chunk = b"\0" * (16 << 20)
    with zstandard.ZstdCompressor(level=1).stream_writer(out, size=size, closefd=False) as w:
        for _ in range(size // len(chunk)):
            w.write(chunk)
    return out.getvalue()


def test_a_game_body_that_unpacks_to_a_gigabyte_is_damaged_not_unpacked(tmp_path):
    """A forged database's 33 KB body says 1 GiB of zeros: reading it allocated and filled that
    gigabyte before msgpack found it wrong. It is a damaged game, said in a line, read in
    little memory."""
    db = build_db(tmp_path / "x.db")
    with sqlite_file(db) as conn:
        conn.execute("update bodies set blob = ? where game_id = 1", (zstd_bomb(1 << 30),))
    measure = (
        "import resource, subprocess, sys; run = subprocess.run(sys.argv[1:]); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); "
        "sys.exit(run.returncode)"
    )
    run = subprocess.run(
        [sys.executable, "-c", measure, sys.executable, "-m", "pokeview"]
        + ["db", "--check", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    *said, peak_kb = run.stderr.strip().splitlines()
    assert int(peak_kb) < 400 * 1024, f"peak {int(peak_kb) >> 10} MB"
    assert "Traceback" not in run.stderr
    assert "game 1" in run.stdout and "unpacks to 1,073,741,824 bytes" in run.stdout, run.stdout
