"""The command line's own part: options reach the parts as arguments, never through os.environ."""

from __future__ import annotations

import argparse
import os

import pytest

from pokeview.errors import PokeviewError


def test_the_command_line_writes_nothing_into_the_environment(tmp_path, capsys, monkeypatch):
    from pokeview import cli
    from pokeview.store import open_store

    monkeypatch.setattr(cli, "tune_gc", lambda: None)
    open_store(tmp_path / "x.db").close()
    before = dict(os.environ)
    assert cli.main(["--db", str(tmp_path / "x.db"), "games", "--json"]) == 0
    assert capsys.readouterr().out == "[]\n"
    assert dict(os.environ) == before


def options(**given):
    from pokeview.cli.common import server_options

    return server_options(argparse.Namespace(**{"server_port": None, "server_wait": None, **given}))


def test_the_local_servers_port_and_wait_come_from_the_options(monkeypatch):
    from pokeview.players import make_player
    from pokeview.players.server import ServerOptions

    monkeypatch.delenv("POKEVIEW_SERVER_PORT", raising=False)
    assert options() == ServerOptions(port=8000, join_wait=120.0)
    monkeypatch.setenv("POKEVIEW_SERVER_PORT", "8123")  # the user's own default
    assert options().port == 8123
    assert options(server_port=9000, server_wait=2.5) == ServerOptions(port=9000, join_wait=2.5)
    player = make_player("server:bob", server=options(server_port=9000))
    assert player.describe() == {"kind": "server", "user": "bob", "port": 9000}


@pytest.mark.parametrize(
    ("given", "env", "said"),
    [
        ({"server_port": 70000}, None, "--server-port 70000 is out of range: give 1 to 65535"),
        ({"server_wait": 0.0}, None, "--server-wait 0 is out of range"),
        ({}, "http", "POKEVIEW_SERVER_PORT='http' is not a port (1 to 65535)"),
    ],
)
def test_bad_server_options_are_one_clear_line(monkeypatch, given, env, said):
    if env is None:
        monkeypatch.delenv("POKEVIEW_SERVER_PORT", raising=False)
    else:
        monkeypatch.setenv("POKEVIEW_SERVER_PORT", env)
    with pytest.raises(PokeviewError) as caught:
        options(**given)
    assert said in str(caught.value)


def test_every_command_is_listed_once_and_has_a_handler():
    from pokeview.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    names = [a.dest for a in sub._choices_actions]
    assert names[:3] == ["setup", "battle", "games"] and names[-1] == "verify"
    assert len(names) == len(set(names)) == 22  # with `ray-pool`
    for name, command in sub.choices.items():
        assert command.get_default("func") is not None, name


@pytest.mark.parametrize("kind", ["run", "ladder", "players", "theme", "settings"])
def test_the_schema_command_prints_the_committed_schema(kind, capsys):
    from pokeview import paths
    from pokeview.cli import main

    assert main(["schema", kind]) == 0
    committed = paths.REPO_DIR / "docs" / "schemas" / f"{kind}.schema.json"
    assert capsys.readouterr().out == committed.read_text(encoding="utf-8")


def test_an_unknown_schema_kind_is_refused(capsys):
    from pokeview.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(["schema", "nope"])
    assert stopped.value.code == 2 and "invalid choice: 'nope'" in capsys.readouterr().err


@pytest.mark.parametrize("side", ["--p1", "--p2"])
def test_a_person_in_a_headless_battle_is_one_line_pointing_at_play(side, tmp_path, capsys):
    """`battle` has no screen: a human side waited forever for a choice nobody could make."""
    from pokeview.cli import main

    other = "--p2" if side == "--p1" else "--p1"
    argv = ["--db", str(tmp_path / "x.db"), "battle", side, "human:Ann", other, "random"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "pokeview play" in err[0], err
    assert not (tmp_path / "x.db").exists()  # nothing started, nothing recorded
