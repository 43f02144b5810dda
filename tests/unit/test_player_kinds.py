"""Player kinds are declared once (players/registry.py): the help of every command that takes a
player, `pokeview players`, the config checks and the error for an unknown player all read the
one table, and every player declares its abilities on the Player ABC (issue 30, issue 31)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import pokeview
from pokeview.errors import PokeviewError

LOOPBACKS = ["loopback", "loopback-slow", "loopback-responses", "loopback-anthropic"]


def help_of(capsys, *argv: str) -> str:
    from pokeview import cli

    with pytest.raises(SystemExit):
        cli.main([*argv, "--help"])
    # argparse wraps lines, after a space or a hyphen
    return re.sub(r"-\s+", "-", " ".join(capsys.readouterr().out.split()))


@pytest.mark.parametrize(
    "argv", [("battle",), ("play",), ("ladder", "create", "x"), ("ladder", "add", "x")]
)
def test_the_help_of_every_command_taking_a_player_names_every_kind(capsys, argv):
    shown = help_of(capsys, *argv)
    for kind in [*LOOPBACKS, "loopback-gemini", "human", "llm:NAME", "server:USER"]:
        assert kind in shown, f"`pokeview {' '.join(argv)} --help` leaves out {kind}"
    for kind in ["random", "max-damage", "heuristic", "search:ms=N", "module:Class"]:
        assert kind in shown


def test_players_with_no_players_file_lists_the_stand_in_models_as_playable(
    tmp_path, capsys, monkeypatch
):
    from pokeview import cli

    monkeypatch.setattr(cli, "tune_gc", lambda: None)
    missing = tmp_path / "players.toml"
    assert cli.main(["players", "--players", str(missing)]) == 0
    out = capsys.readouterr().out
    assert "no model players" not in out
    for name in LOOPBACKS:
        assert re.search(rf"^\s+{name}\b", out, re.M), out
    assert f"no players file at {missing}" in out


def test_the_error_for_an_unknown_player_names_every_kind():
    from pokeview.players.registry import make_player

    with pytest.raises(PokeviewError) as caught:
        make_player("alphazero")
    said = str(caught.value)
    assert said.startswith("unknown player kind 'alphazero'; choose one of: ")
    assert "\n" not in said
    for kind in ["random", "heuristic", "search:ms=N", *LOOPBACKS, "human", "server:USER"]:
        assert kind in said


@pytest.mark.parametrize(
    ("spec", "plays_as"),
    [
        ("random", "bot"),
        ("heuristic", "bot"),
        ("max-damage", "bot"),
        ("search:ms=50", "bot"),
        ("human", "human"),
        ("human:ann", "human"),
        ("loopback", "llm"),
        ("loopback-gemini", "llm"),
        ("server:bob", "server"),
        ("tests.players_for_tests:HalfMaxDamage", "bot"),
    ],
)
def test_each_kind_makes_a_player_that_plays_as_it_declares(spec, plays_as):
    from pokeview.players.base import Player
    from pokeview.players.registry import check_spec, kind_of, make_player

    kind = kind_of(spec)
    assert kind is not None and check_spec(spec) is None
    player = make_player(spec)
    assert isinstance(player, Player)
    assert player.kind == kind.plays_as == plays_as


def test_a_config_check_and_the_maker_agree_on_an_unknown_kind():
    from pokeview.players.registry import check_spec, make_player, unknown_kind

    assert check_spec("alphazero") == unknown_kind("alphazero")
    with pytest.raises(PokeviewError, match=re.escape(unknown_kind("alphazero"))):
        make_player("alphazero")


def test_no_player_ability_is_probed_for():
    """The abilities are declared on the Player ABC: nothing asks a player whether it has one."""
    abilities = "decide_now|check_format|close|conversation|resume_conversation"
    probe = re.compile(rf"""(getattr|hasattr)\([^)]*["']({abilities})["']""")
    root = Path(pokeview.__file__).parent
    found = [
        f"{path.relative_to(root)}:{n}"
        for path in sorted(root.rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if probe.search(line)
    ]
    assert found == []


def test_a_player_without_decide_cannot_be_made():
    from pokeview.players.base import Player

    class Undecided(Player):
        name, kind = "undecided", "test"

        def describe(self):  # noqa: ANN202
            return {}

    with pytest.raises(TypeError):
        Undecided()  # type: ignore[abstract]


APIS = ("chat", "responses", "anthropic", "gemini")


def listed(tmp_path, capsys, monkeypatch, table: str = "") -> dict[str, str]:
    """`pokeview players` on one model player of each API (`table`: more of its settings):
    each player's line, by API."""
    from pokeview import cli

    monkeypatch.setattr(cli, "tune_gc", lambda: None)
    players = tmp_path / "players.toml"
    players.write_text(
        "".join(
            f'[players.p-{api}]\napi = "{api}"\nmodel = "m"\nbase_url = "http://h/v1"\n{table}'
            for api in APIS
        )
    )
    assert cli.main(["players", "--players", str(players)]) == 0
    out = capsys.readouterr().out.splitlines()
    return {api: next(x for x in out if f"llm:p-{api} " in x) for api in APIS}


def test_players_says_which_api_each_model_is_asked_through(tmp_path, capsys, monkeypatch):
    """Four players of the four APIs were listed alike: which one is Anthropic's Messages API,
    say, could not be told from `pokeview players`."""
    for api, line in listed(tmp_path, capsys, monkeypatch).items():
        assert f" api {api} " in line, line


def test_players_lists_no_cache_write_price_for_apis_that_bill_none(tmp_path, capsys, monkeypatch):
    """OpenAI's Responses and Gemini bill no cache writes (their caching is implicit), and
    docs/providers.md leaves the price out of their examples; `pokeview players` still listed
    "cache write ? (unknown)" for them, as if their costs would be unknown without it."""
    prices = "prices = { input = 2.0, cached_input = 0.5, output = 8.0 }\n"
    line = listed(tmp_path, capsys, monkeypatch, prices)
    assert "cache write" not in line["responses"] and "cache write" not in line["gemini"], line
    for api in ("chat", "anthropic"):  # these bill cache writes: a missing price is said
        assert "cache write ? (unknown)" in line[api], line[api]
    assert "input 2, cached input 0.5, output 8" in line["responses"], line["responses"]
