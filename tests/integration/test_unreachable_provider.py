"""A players file whose base_url has nothing answering at it (a wrong port, a mistyped host) is
one line naming the player and the address before anything is played, under every API. Before,
each decision was retried for 30 s and then played on autopilot: `pokeview battle` sat silent for
a quarter of an hour and recorded a void game, and a run did so for every game."""

from __future__ import annotations

import socket
import time

import pytest

from tests.helpers import one_clear_line, pokeview, row_counts, write_players

KEY = "sk-planted-Qw81unreachable-key"
PASSWORD = "pw-planted-Zr44"


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then let go)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("api", ["chat", "responses", "anthropic", "gemini"])
def test_a_base_url_where_nothing_answers_is_one_line_and_nothing_is_played(tmp_path, api):
    address = f"http://user:{PASSWORD}@127.0.0.1:{closed_port()}/v1"
    table = {"api": api, "model": "loopback", "api_key_env": "POKEVIEW_TEST_KEY"}
    players = write_players(tmp_path / "players.toml", address, wrong=table)
    db = tmp_path / "g.db"
    started = time.monotonic()
    run = pokeview(
        "battle", "--p1", "llm:wrong", "--p2", "heuristic", "--players", str(players),
        "--db", str(db), env={"POKEVIEW_TEST_KEY": KEY},
    )  # fmt: skip
    took = time.monotonic() - started
    line = one_clear_line(run)
    assert "player 'wrong'" in line and "nothing answers at http://***@127.0.0.1:" in line, line
    assert KEY not in line and PASSWORD not in line, line
    assert took < 60, took  # a decision's retries alone take 30 s
    assert not db.exists() or sum(row_counts(db).get(t, 0) for t in ("games", "decisions")) == 0


def test_a_run_with_such_a_player_starts_nothing(tmp_path):
    players = write_players(
        tmp_path / "players.toml",
        f"http://127.0.0.1:{closed_port()}/v1",
        wrong={"model": "loopback", "api_key_env": "POKEVIEW_TEST_KEY"},
    )
    config = tmp_path / "r.toml"
    config.write_text('name = "r"\nseed = "r"\npairs = 1\nplayers = ["llm:wrong", "random"]\n')
    db = tmp_path / "g.db"
    run = pokeview(
        "run", str(config), "--players", str(players), "--db", str(db),
        env={"POKEVIEW_TEST_KEY": KEY},
    )  # fmt: skip
    line = one_clear_line(run)
    assert "player 'wrong'" in line and "nothing answers at" in line, line
    assert not db.exists() or row_counts(db).get("games", 0) == 0
