"""No API key reaches the record, an export or the terminal, whatever the provider sends back."""

from __future__ import annotations

from pokeview.players.llm.loopback import LoopbackModel
from tests.helpers import pokeview, write_players

KEY = "sk-test-Zq8RVW3secretvalue71"


def test_a_provider_that_echoes_the_key_leaves_it_nowhere(tmp_path):
    server = LoopbackModel().start_in_thread()  # a real HTTP server, served while the CLI runs
    players = write_players(
        tmp_path / "players.toml",
        server.base_url,
        echo={
            "model": "loopback-echo-key",
            "api_key_env": "ECHO_KEY",
            "retry_backoff": 0.0,
            "max_retries": 4,
        },
    )
    db = tmp_path / "x.db"
    env = {"ECHO_KEY": KEY}
    common = ("--db", str(db), "--players", str(players))
    played = pokeview(
        "battle", "--p1", "llm:echo", "--p2", "random", "--seed", "k", "--turn-limit", "3",
        *common, env=env,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert server.calls["loopback-echo-key"] >= 6  # errors, bad chunks and answers all came
    exported = pokeview("export", "1", "--format", "json", "--db", str(db), env=env)
    assert exported.returncode == 0 and "attempts" in exported.stdout
    shown = pokeview("prompt", "1", "--turn", "1", "--db", str(db), env=env)
    assert "***" in exported.stdout  # it was there, and was scrubbed
    for text in (played.stdout, played.stderr, exported.stdout, exported.stderr, shown.stdout):
        assert KEY not in text
        assert KEY[: len(KEY) // 2] not in text and KEY[len(KEY) // 2 :] not in text
    for path in tmp_path.glob("x.db*"):
        data = path.read_bytes()
        assert KEY.encode() not in data and KEY[len(KEY) // 2 :].encode() not in data, path
    server.stop_thread()
