"""A game full of terminal escapes, through every command that shows a game: what they print
holds no control character from the data (exports into a pipe stay byte for byte)."""

from __future__ import annotations

import pytest

from pokeview.cli import main
from tests.helpers import on_a_pty
from tests.hostile import CONTROL, control_in, evil, hostile_db

# What a terminal would act on. On a terminal Rich adds its own styling (ESC [ … m), so there
# the check is for the data's sequences rather than for ESC itself.
ACTING = ("\x1b]", "\x07", "\x1b[2J", "\x9b")


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "h.db"
    hostile_db(path)
    return path


COMMANDS = [
    ["games"],
    ["games", "--status", "finished"],
    ["games", "--json"],
    ["runs"],
    ["ratings"],
    ["ratings", evil("run")],
    ["ratings", "--json"],
    ["prompt", "1", "--side", "p1", "--turn", "1"],
    ["prompt", "1", "--side", "p1", "--decision", "2", "--json"],
    ["db"],
    ["db", "--check"],
    ["prompt", evil("1"), "--turn", "1"],  # an error naming what was asked
    ["watch", evil("1")],
    ["verify", evil("1")],
]
SHOWN_WHOLE = {"runs", "ratings", "prompt", "games"}  # printed whole into a pipe


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_a_command_prints_no_control_character_from_the_record(db, argv, capsys):
    code = main(["--db", str(db), *argv])
    out, err = capsys.readouterr()
    assert code in (0, 1, 2), (out, err)
    assert not control_in(out) and not control_in(err), (control_in(out), control_in(err))
    if code == 0 and "--json" not in argv and argv[0] in SHOWN_WHOLE:
        assert "pwned" in out  # the data was shown, without its escapes


@pytest.mark.parametrize("fmt", ["log", "inputlog", "html", "json"])
def test_an_export_into_a_pipe_is_exact(db, fmt, capsys):
    from pokeview.exchange import export_as
    from pokeview.store import open_store

    store = open_store(db)
    expected = export_as(store, 1, fmt)
    store.close()
    assert main(["--db", str(db), "export", "1", "--format", fmt]) == 0
    assert capsys.readouterr().out == expected
    if fmt == "json":
        assert "\x1b" not in expected and "\x07" not in expected  # JSON escapes C0: \u001b
        assert "\\u001b]2;pwned" in expected


def on_a_terminal(*argv: str) -> str:
    """`pokeview ARGV` with its output on a pseudo-terminal, as a person sees it."""
    env = {"COLUMNS": "200", "TERM": "xterm-256color", "NO_COLOR": ""}
    code, shown = on_a_pty(list(argv), env, size=(200, 50), timeout=60)
    assert code in (0, 1)
    return shown


@pytest.mark.parametrize(
    "argv",
    [
        ["games"],
        ["runs"],
        ["ratings"],
        ["export", "1", "--format", "log"],
        ["prompt", "1", "--turn", "1"],
    ],
    ids=" ".join,
)
def test_on_a_terminal_no_sequence_from_the_record_reaches_it(db, argv):
    shown = on_a_terminal("--db", str(db), *argv)
    assert "pwned" in shown
    assert not [s for s in ACTING if s in shown], [s for s in ACTING if s in shown]


def test_the_filter_removes_every_control_character_but_newline_and_tab():
    from pokeview.text import strip_control

    for c in CONTROL:
        assert c not in strip_control(f"a{c}b")
    assert strip_control("a\tb\nc\rd") == "a\tb\ncd"
    assert strip_control(evil("x")) == "x ]52;c;QUJD]2;pwned[2J2J[red]r[/red][/bold]gpj.exe"
    for c in "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069":
        assert strip_control(f"a{c}b") == "ab", f"bidi control U+{ord(c):04X} kept"
