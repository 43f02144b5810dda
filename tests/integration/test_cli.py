"""The `pokeview` command as a person runs it: real processes, real Showdown, real SQLite."""

from __future__ import annotations

import json
import sqlite3
import sys
import time
from pathlib import Path

import pytest

from pokeview.store import open_store
from tests.helpers import on_a_pty, one_clear_line, pokeview, sqlite_file


def logs(db: Path, game_id: int) -> tuple[str | None, str | None]:
    store = open_store(db)
    try:
        game = store.game(game_id)
        return game.spectator_log, game.input_log
    finally:
        store.close()


def test_battle_twice_with_one_seed_gives_byte_identical_logs(tmp_path):
    db = tmp_path / "cli.db"
    runs = [
        pokeview("battle", "--p1", "heuristic", "--p2", "max-damage", "--seed", s, "--db", str(db))
        for s in ("abc", "abc", "abd")
    ]
    for run in runs:
        assert run.returncode == 0, run.stderr
    assert runs[0].stdout.startswith(
        "game 1: heuristic (p1) vs max-damage (p2), seed 'abc': winner "
    )
    assert " after " in runs[0].stdout and runs[0].stdout.strip().endswith("turns")
    first, second, other = (logs(db, i) for i in (1, 2, 3))
    assert first == second
    assert first[0] != other[0] and first[1] != other[1]

    listed = pokeview("games", "--json", "--db", str(db))
    rows = json.loads(listed.stdout)
    assert [r["id"] for r in rows] == [3, 2, 1] and rows[2]["seed_text"] == "abc"

    assert pokeview("verify", "--all", "--db", str(db)).returncode == 0
    store = open_store(db)
    store.set_spectator_log(2, (logs(db, 2)[0] or "").replace("|turn|2", "|turn|9"))
    store.close()
    failed = pokeview("verify", "2", "--db", str(db))
    assert failed.returncode == 1
    assert "differs at line" in failed.stdout and "|turn|9" in failed.stdout


def test_unknown_format(tmp_path):
    line = one_clear_line(
        pokeview(
            "battle",
            "--p1",
            "random",
            "--p2",
            "random",
            "--format",
            "gen9nosuchformat",
            "--db",
            str(tmp_path / "x.db"),
        )
    )
    assert "unknown format 'gen9nosuchformat'" in line


def test_invalid_team(tmp_path):
    team = tmp_path / "team.txt"
    team.write_text(
        "Pikachu @ Light Ball\nAbility: Static\n- Thunderbolt\n- Fly\n- Surf\n- Spore\n"
    )
    line = one_clear_line(
        pokeview(
            "battle",
            "--p1",
            "random",
            "--p2",
            "random",
            "--format",
            "gen9ou",
            "--team1",
            str(team),
            "--db",
            str(tmp_path / "x.db"),
        )
    )
    assert "not valid in gen9ou" in line
    with sqlite_file(tmp_path / "x.db") as conn:
        assert conn.execute("select count(*) from games").fetchone()[0] == 0


def test_unknown_player_kind(tmp_path):
    line = one_clear_line(
        pokeview("battle", "--p1", "alphazero", "--p2", "random", "--db", str(tmp_path / "x.db"))
    )
    assert "unknown player kind 'alphazero'" in line and "heuristic" in line


def test_unwritable_database_path():
    line = one_clear_line(
        pokeview("battle", "--p1", "random", "--p2", "random", "--db", "/proc/pokeview/nope.db")
    )
    assert "the folder /proc/pokeview for --db does not exist" in line  # not made, refused


def test_missing_node(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    # A PATH with Python but no node on it.
    (bin_dir / "python").symlink_to(sys.executable)
    line = one_clear_line(
        pokeview(
            "battle",
            "--p1",
            "random",
            "--p2",
            "random",
            "--db",
            str(tmp_path / "x.db"),
            env={"PATH": str(bin_dir)},
        )
    )
    assert "Node.js was not found" in line and "install Node.js" in line


def test_unknown_game_for_verify(tmp_path):
    from pokeview.store import open_store

    open_store(tmp_path / "x.db").close()
    line = one_clear_line(pokeview("verify", "42", "--db", str(tmp_path / "x.db")))
    assert "no game 42" in line


@pytest.mark.parametrize("command", ["setup", "battle", "games", "verify"])
def test_help(command):
    run = pokeview(command, "--help")
    assert run.returncode == 0 and "usage: pokeview " + command in run.stdout


def on_a_terminal(argv: list[str], db: Path, ready: str) -> str:
    """`pokeview ARGV` on a pseudo-terminal of 120x40: once the database holds a game in the
    state `ready` with a decision made, `q` is typed; what the terminal showed."""
    import contextlib

    def leave() -> bytes | None:
        if not db.exists():
            return None
        # Not before the tables are made.
        with sqlite_file(db) as conn, contextlib.suppress(sqlite3.OperationalError):
            query = "select 1 from games g join decisions d on d.game_id = g.id where g.status = ?"
            if conn.execute(query, (ready,)).fetchone():
                return b"q"
        return None

    env = {"TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}
    code, shown = on_a_pty(argv, env, keys=leave)
    assert code == 0, shown
    return shown


def test_leaving_play_says_the_game_is_kept_and_how_to_resume_it(tmp_path):
    db = tmp_path / "play.db"
    shown = on_a_terminal(
        ["play", "--vs", "random", "--seed", "kept", "--db", str(db)], db, "running"
    )
    line = f"game 1 is kept, unfinished; to go on: pokeview play --resume 1 --db {db}"
    assert line in shown
    # That command goes on with it (the game runs again); leaving again says so again.
    again = on_a_terminal(["play", "--resume", "1", "--db", str(db)], db, "running")
    assert line in again


def test_resume_takes_a_game_and_says_why_another_cannot_be(tmp_path):
    db = tmp_path / "resume.db"
    assert (
        pokeview("import", "recordings/heuristic-vs-max-damage.json", "--db", str(db)).returncode
        == 0
    )
    not_yours = one_clear_line(pokeview("play", "--resume", "1", "--db", str(db)))
    assert "game 1 (heuristic vs max-damage) was not played by a person" in not_yours
    unknown = one_clear_line(pokeview("play", "--resume", "7", "--db", str(db)))
    assert "7" in unknown
    none = one_clear_line(pokeview("play", "--resume", "--db", str(db)))
    assert "there is no unfinished game of yours to resume" in none
    with sqlite_file(db) as conn:  # a game of a person's, played to its end
        conn.execute("update games set p1_config = json_set(p1_config, '$.kind', 'human')")
    finished = one_clear_line(pokeview("play", "--resume", "1", "--db", str(db)))
    assert "game 1 is finished, not left mid-way: nothing to resume" in finished


@pytest.mark.parametrize(
    "more,said",
    [
        (["--format", "gen9randombatle"], "Showdown: unknown format 'gen9randombatle'"),
        (["--format", "gen9ou"], "Showdown: format 'gen9ou' needs a team for each side"),
    ],
)
def test_play_says_a_format_showdown_refuses_in_one_line_before_the_screen(tmp_path, more, said):
    """It opened the play screen, whose status line said "heuristic is thinking…" for ever."""
    started = time.monotonic()
    code, shown = on_a_pty(
        ["play", "--vs", "heuristic", *more, "--db", str(tmp_path / "x.db")],
        {"TERM": "xterm-256color"},
        keys=lambda: b"q" if time.monotonic() - started > 10 else None,  # to leave a screen
        timeout=60,
    )
    assert code == 2, shown
    assert shown.strip().splitlines()[-1] == f"pokeview: error: {said}", shown


def test_a_tie_at_the_turn_limit_is_said_once(tmp_path):
    """It read "winner tie after 2 turns (a tie declared at the turn limit (2 turns))"."""
    db = str(tmp_path / "x.db")
    played = pokeview("battle", "--p1", "random", "--p2", "random", "--seed", "t", "--turn-limit", "2", "--db", db)  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert played.stdout == (
        "game 1: random (p1) vs random (p2), seed 't': a tie declared at the turn limit (2 turns)\n"
    )
