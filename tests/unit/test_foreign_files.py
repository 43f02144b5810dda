"""Files that are not what pokeview expects: a foreign SQLite file, a damaged schema version,
configs nested absurdly deep, a --db in a folder that does not exist. One line each, nothing
written."""

from __future__ import annotations

import hashlib

import pytest

from pokeview import paths, settings
from pokeview.cli import main
from pokeview.store import open_store
from tests.helpers import sqlite_file

DEEP = 50_000


def one_error_line(capsys, argv) -> str:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pokeview: error: "), err
    assert "Traceback" not in out + err
    return lines[0]


def test_a_foreign_sqlite_file_is_refused_and_left_as_it_was(tmp_path, capsys):
    db = tmp_path / "theirs.db"
    with sqlite_file(db) as conn:
        conn.execute("create table notes (id integer primary key, text)")
        conn.execute("insert into notes (text) values ('keep me')")
    conn.close()
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    for argv in (["games"], ["db"], ["runs"], ["battle", "--p1", "random", "--p2", "random"]):
        line = one_error_line(capsys, [*argv, "--db", str(db)])
        assert "not a pokeview database" in line, line
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["theirs.db"]  # no -wal, no -shm


def test_a_schema_version_that_is_not_a_number_is_one_line(tmp_path, capsys):
    db = tmp_path / "x.db"
    open_store(db).close()
    with sqlite_file(db) as conn:
        conn.execute("update meta set value = 'abc' where key = 'schema_version'")
    conn.close()
    line = one_error_line(capsys, ["games", "--db", str(db)])
    assert "schema_version" in line and "'abc'" in line


def test_an_explicit_db_in_a_missing_folder_is_refused_and_not_made(tmp_path, capsys):
    where = tmp_path / "nonexistent" / "x.db"
    line = one_error_line(
        capsys, ["--db", str(where), "battle", "--p1", "random", "--p2", "random"]
    )
    assert "does not exist" in line and str(where.parent) in line
    assert not where.parent.exists()


def nested_json(depth: int) -> str:
    return '{"theme": ' + "[" * depth + "]" * depth + "}"


@pytest.mark.parametrize(
    "name,text",
    [
        ("run.toml", "name = " + "[" * DEEP + "]" * DEEP + "\n"),
        ("run.json", nested_json(DEEP)),
    ],
    ids=["toml", "json"],
)
def test_a_run_config_nested_deep_is_one_line(tmp_path, capsys, name, text):
    config = tmp_path / name
    config.write_text(text)
    line = one_error_line(capsys, ["run", str(config), "--db", str(tmp_path / "x.db")])
    assert "nested too deeply" in line


def test_a_players_file_nested_deep_is_one_line(tmp_path, capsys):
    players = tmp_path / "players.toml"
    players.write_text("[players.a]\nmodel = " + "[" * DEEP + "]" * DEEP + "\n")
    line = one_error_line(capsys, ["players", "--players", str(players)])
    assert "nested too deeply" in line


def test_settings_nested_deep_are_ignored_and_the_app_starts(tmp_path):
    where = paths.config_dir() / "settings.json"
    where.parent.mkdir(parents=True, exist_ok=True)
    where.write_text(nested_json(DEEP))
    found, why = settings.read()
    assert found == settings.Settings() and why and "nested too deeply" in why


def test_a_page_of_unclosed_script_tags_is_refused_at_once():
    """A replay page is found by its log's script element; a page of 256 KB of `<script` with
    no `>` took 33 s of CPU (a regex tried at each of them; quadratic), a megabyte minutes."""
    import time

    from pokeview.errors import PokeviewError
    from pokeview.showdown_replay import replay_lines

    started = time.process_time()
    with pytest.raises(PokeviewError, match="no battle log in this HTML"):
        replay_lines("battle-log-data " + "<script " * 32_000)
    with pytest.raises(PokeviewError, match="no battle log in this HTML"):
        replay_lines("battle-log-data " + "<script " * 32_000 + ">")
    assert time.process_time() - started < 3
    page = '<SCRIPT type=x CLASS="battle-log-data">|player|p1|a\n|turn|1\n</Script><script>'
    assert replay_lines(page) == ["|player|p1|a", "|turn|1"]


def test_a_replays_odd_turn_and_team_size_are_not_counts():
    """'|turn|²' passed str.isdigit() and int() raised; a turn of 20 digits raised
    OverflowError where the game was written: both a traceback at import."""
    from pokeview.showdown_replay import _header

    lines = ["|player|p1|a|", "|player|p2|b|", "|teamsize|p1|²", "|turn|1", "|turn|³"]
    info = _header([*lines, "|turn|99999999999999999999", "|win|a"])
    assert info["turns"] == 1 and info["winner"] == "p1"


def test_a_file_too_big_to_import_is_one_line_read_no_further(tmp_path, capsys, monkeypatch):
    from pathlib import Path

    from pokeview.errors import PokeviewError
    from pokeview.exchange import files

    big = tmp_path / "big.json"
    with big.open("wb") as file:
        file.truncate(files.READ_LIMIT + 1)  # sparse: nothing written to the disk
    said = one_error_line(capsys, ["import", str(big), "--db", str(tmp_path / "x.db")])
    assert said.endswith("is larger than 512 MiB"), said
    # A device that never ends is read up to the limit, not to the end of memory.
    monkeypatch.setattr(files, "READ_LIMIT", 4096)
    with pytest.raises(PokeviewError, match="larger than"):
        files.read_file(Path("/dev/zero"), "the file")
