"""A file damaged on disk (a b-tree page's header overwritten): one clear line, per game where
the damage is in one game's record, and every command that reads it says so without a
traceback."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import STEP_BY_STEP, build_db, play_one, pokeview, sqlite_file


def damage_page(db: Path, table: str, which: int = -1) -> None:
    """Overwrite the header of one of `table`'s leaf pages (found with the dbstat table)."""
    with sqlite_file(db) as conn:
        conn.execute("pragma wal_checkpoint(TRUNCATE)")
        size = conn.execute("pragma page_size").fetchone()[0]
        pages = [
            r[0]
            for r in conn.execute(
                "select pageno from dbstat where name = ? and pagetype = 'leaf' order by pageno",
                (table,),
            )
        ]
    conn.close()
    data = bytearray(db.read_bytes())
    start = (pages[which] - 1) * size
    data[start : start + 8] = b"\xff" * 8
    db.write_bytes(bytes(data))


def test_a_damaged_games_table_is_one_clear_line_in_every_reading_command(tmp_path):
    db = build_db(tmp_path / "x.db")
    damage_page(db, "games")
    for argv in (["games"], ["db", "--check"], ["ratings"], ["verify", "--all"]):
        done = pokeview(*argv, "--db", str(db))
        lines = done.stderr.strip().splitlines()
        assert "Traceback" not in done.stderr + done.stdout, (argv, done.stderr)
        assert done.returncode != 0 and len(lines) == 1, (argv, done.stderr)
        assert "is damaged" in lines[0] and ".recover" in lines[0], (argv, lines[0])


def test_damage_in_one_game_is_a_line_for_that_game_and_the_others_go_on(tmp_path):
    db = build_db(tmp_path / "x.db")
    damage_page(db, "bodies", 0)
    checked = pokeview("db", "--check", "--db", str(db))
    assert "Traceback" not in checked.stderr + checked.stdout, checked.stderr
    assert checked.returncode == 1
    damaged = [line for line in checked.stdout.splitlines() if "cannot be read" in line]
    assert damaged and all(line.startswith("game ") for line in damaged), checked.stdout
    assert f"of 3 games read whole; {len(damaged)} damaged" in checked.stdout
    verified = pokeview("verify", "--all", "--db", str(db))
    assert "Traceback" not in verified.stderr + verified.stdout, verified.stderr
    per_game = [line for line in verified.stdout.splitlines() if line.startswith(("ok", "FAIL"))]
    assert len(per_game) == 3, verified.stdout  # every game reported, the damaged ones too
    assert f"{3 - len(damaged)} of 3 games verified" in verified.stdout


def test_a_bot_game_whose_words_cannot_be_derived_is_a_line_and_the_others_go_on(tmp_path):
    """A bot's side is recorded without its words, derived when first read: a game whose
    recorded choices cannot be played again is one damaged game, not the end of the check."""
    from pokeview.store import body as bodies

    db = str(tmp_path / "x.db")
    # a bot's words are left for later (STEP_BY_STEP: not played whole in the bridge)
    play_one(db, "random", "heuristic", "s2", "--format", STEP_BY_STEP)
    play_one(db, "random", "heuristic", "s3", "--format", STEP_BY_STEP)
    with sqlite_file(db) as conn:
        fmt, blob = conn.execute("select format, blob from bodies where game_id = 1").fetchone()
        body = bodies.unpack(blob, fmt)
        at = next(n for n, event in enumerate(body.events) if event[2] == "choice")
        event_id, _, kind, data, time = body.events[at]
        body.events[at] = (event_id, "p3", kind, data, time)  # a side the bridge refuses
        conn.execute("update bodies set blob = ? where game_id = 1", (bodies.pack(body),))
    checked = pokeview("db", "--check", "--db", db)
    assert "Traceback" not in checked.stderr + checked.stdout, checked.stderr
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "1 of 2 games read whole; 1 damaged" in checked.stdout, checked.stdout
    damaged = [line for line in checked.stdout.splitlines() if line.startswith("game 1")]
    assert len(damaged) == 1 and "derived" in damaged[0], checked.stdout
