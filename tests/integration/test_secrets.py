"""No API key reaches the record, an export or the terminal, whatever the provider sends back."""

from __future__ import annotations

import base64
import urllib.parse
from pathlib import Path

import pytest
import zstandard

from pokeview.players.llm.loopback import LoopbackModel
from tests.helpers import one_clear_line, pokeview, sqlite_file, write_players

KEY = "sk-test-Zq8RVW3/secret+vAlu=71"


def _stored(db: Path) -> bytes:
    """Every byte of the database's files, and its compacted bodies decompressed."""
    data = b"".join(path.read_bytes() for path in sorted(db.parent.glob(db.name + "*")))
    with sqlite_file(db) as conn:
        blobs = [row[0] for row in conn.execute("select blob from bodies")]
    return data + b"".join(zstandard.ZstdDecompressor().decompress(b) for b in blobs)


def _leaks(text: str | bytes) -> list[str]:
    """Which of the key's spellings (or a piece of one) `text` holds."""
    if isinstance(text, bytes):
        text = text.decode("latin-1")
    half = len(KEY) // 2
    plain = [
        KEY,
        KEY[:half],
        KEY[half:],
        urllib.parse.quote(KEY, safe=""),
        urllib.parse.quote_plus(KEY),
    ]
    plain.append(repr(KEY.encode())[2:-1])
    found = [form for form in plain if form in text]
    for prefix in ("", "Bearer ", "pokeview:"):  # base64: any 12 characters the key decides
        encoded = base64.b64encode(f"{prefix}{KEY}".encode()).decode()
        core = encoded[(len(prefix) // 3 + 1) * 4 : -8]
        found += [core[n : n + 12] for n in range(len(core) - 11) if core[n : n + 12] in text]
    return found


def _play(tmp_path: Path, model: str, key: str, turns: str = "3"):
    server = LoopbackModel().start_in_thread()  # a real HTTP server, served while the CLI runs
    table = {"model": model, "api_key_env": "ECHO_KEY", "retry_backoff": 0.0, "max_retries": 4}
    players = write_players(tmp_path / "players.toml", server.base_url, echo=table)
    db = tmp_path / "x.db"
    env = {"ECHO_KEY": key}
    common = ("--db", str(db), "--players", str(players))
    played = pokeview(
        "battle", "--p1", "llm:echo", "--p2", "random", "--seed", "k", "--turn-limit", turns,
        *common, env=env,
    )  # fmt: skip
    exported = pokeview("export", "1", "--format", "json", "--db", str(db), env=env)
    shown = pokeview("prompt", "1", "--turn", "1", "--db", str(db), env=env)
    listed = pokeview("games", "--db", str(db), env=env)
    server.stop_thread()
    return server, db, played, [played, exported, shown, listed]


@pytest.mark.parametrize("model", ["loopback-echo-key", "loopback-echo-key-forms"])
def test_a_provider_that_echoes_the_key_leaves_it_nowhere(tmp_path, model):
    server, db, played, runs = _play(tmp_path, model, KEY)
    assert played.returncode == 0, played.stderr
    assert server.calls[model] >= 6  # errors, bad chunks and answers all came
    exported = runs[1]
    assert exported.returncode == 0 and "attempts" in exported.stdout
    assert "***" in exported.stdout  # it was there, and was scrubbed
    for run in runs:
        assert _leaks(run.stdout + run.stderr) == []
    assert _leaks(_stored(db)) == []


@pytest.mark.parametrize("ending", ["\n", "\r", "\r\n", " "])
def test_a_key_with_a_trailing_newline_is_sent_stripped_and_leaks_nowhere(tmp_path, ending):
    # A `.env` line or a mounted secret file often ends in a newline: the key is sent without it
    # (httpx refused the header and its error showed the key repr-escaped, stored everywhere).
    server, db, played, runs = _play(tmp_path, "loopback-echo-key-forms", KEY + ending, "2")
    assert played.returncode == 0, played.stderr
    assert server.headers and all(h["authorization"] == f"Bearer {KEY}" for h in server.headers)
    for run in runs:
        assert _leaks(run.stdout + run.stderr) == []
    assert _leaks(_stored(db)) == []
    assert "could not be sent" not in runs[1].stdout  # the export: every request was sent


@pytest.mark.parametrize("key", [KEY[:9] + "\n" + KEY[9:], KEY[:9] + "\r" + KEY[9:], KEY + "ключ"])
def test_a_key_a_header_cannot_carry_is_refused_in_one_line(tmp_path, key):
    players = write_players(
        tmp_path / "players.toml",
        "http://127.0.0.1:9/v1",
        echo={"model": "m", "api_key_env": "ECHO_KEY", "max_retries": 0},
    )
    db = tmp_path / "x.db"
    run = pokeview(
        "battle", "--p1", "llm:echo", "--p2", "random", "--seed", "k", "--turn-limit", "1",
        "--db", str(db), "--players", str(players), env={"ECHO_KEY": key},
    )  # fmt: skip
    line = one_clear_line(run)
    assert "player 'echo'" in line and "$ECHO_KEY" in line and "cannot carry" in line
    assert _leaks(run.stdout + run.stderr) == [] and "ключ" not in run.stderr
    assert not db.exists() or _leaks(_stored(db)) == []


def test_credentials_in_the_base_url_are_neither_stored_nor_shown(tmp_path):
    server = LoopbackModel().start_in_thread()
    password = "pa55-w0rd-Qx7"
    address = server.base_url.replace("http://", f"http://pokeuser:{password}@")
    table = {"model": "loopback", "retry_backoff": 0.0}
    players = write_players(tmp_path / "players.toml", address, cred=table)
    db = tmp_path / "x.db"
    common = ("--db", str(db), "--players", str(players))
    played = pokeview(
        "battle", "--p1", "llm:cred", "--p2", "random", "--seed", "c", "--turn-limit", "2", *common
    )  # fmt: skip
    listed = pokeview("players", "--players", str(players))
    exported = pokeview("export", "1", "--format", "json", "--db", str(db))
    server.stop_thread()
    assert played.returncode == 0, played.stderr
    assert server.calls["loopback"] >= 1  # the credentials were still used to reach it
    assert f"at {server.base_url.replace('http://', 'http://***@')}" in listed.stdout
    for text in (
        played.stdout,
        played.stderr,
        listed.stdout,
        exported.stdout,
        _stored(db).decode("latin-1"),
    ):
        assert password not in text and "pokeuser" not in text
