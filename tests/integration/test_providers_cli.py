"""Each API from a players file, on the command line: a game finishes, reasoning and cache
figures are recorded, costs are the provider's bill to the cent, and a planted key (even one the
provider echoes back) is nowhere: not in the database (compacted bodies included), an export,
`pokeview prompt`, or the terminal."""

from __future__ import annotations

import json

import pytest
import zstandard

from pokeview.players.llm.loopback import LoopbackModel
from tests.helpers import one_clear_line, pokeview, row_counts, sqlite_file, write_players

KEY = "sk-planted-Xk29vPq7-providers-key"
PRICES = {"input": 3.0, "cached_input": 0.3, "cache_write": 3.75, "output": 15.0}


def _leaks(db, texts) -> list[str]:
    """Where the key (or either half of it) shows, in the texts or any byte of the database."""
    halves = (KEY, KEY[: len(KEY) // 2], KEY[len(KEY) // 2 :])
    found = [f"text {i}" for i, t in enumerate(texts) for h in halves if h in t]
    for path in db.parent.glob(db.name + "*"):
        found += [str(path) for h in halves if h.encode() in path.read_bytes()]
    with sqlite_file(db) as conn:
        for (blob,) in conn.execute("SELECT blob FROM bodies"):
            body = zstandard.ZstdDecompressor().decompress(blob)
            found += ["a compacted body" for h in halves if h.encode() in body]
    return found


@pytest.mark.parametrize("api", ["chat", "responses", "anthropic", "gemini"])
def test_a_game_under_each_api_from_the_players_file(tmp_path, api):
    server = LoopbackModel().start_in_thread()
    players = write_players(
        tmp_path / "players.toml",
        server.base_url,
        tester={
            "api": api,
            "model": "loopback",
            "api_key_env": "PLANTED_KEY",
            "reasoning_effort": "high",
            "prices": PRICES,
        },
        echo={
            "api": api,
            "model": "loopback-echo-key",
            "api_key_env": "PLANTED_KEY",
            "retry_backoff": 0.0,
            "max_retries": 4,
        },
    )
    db = tmp_path / "g.db"
    env = {"PLANTED_KEY": KEY, "POKEVIEW_PLAYERS": str(players)}
    common = ("--db", str(db))
    played = pokeview(
        "battle", "--p1", "llm:tester", "--p2", "heuristic", "--seed", "s", *common, env=env
    )
    assert played.returncode == 0, played.stderr
    echoed = pokeview(
        "battle", "--p1", "llm:echo", "--p2", "random", "--seed", "e", "--turn-limit", "3",
        *common, env=env,
    )  # fmt: skip
    assert echoed.returncode == 0, echoed.stderr
    exported = pokeview("export", "2", "--format", "json", *common, env=env)
    assert exported.returncode == 0, exported.stderr
    first = pokeview("export", "1", "--format", "json", *common, env=env)
    shown = pokeview("prompt", "2", "--turn", "1", "--side", "p1", *common, env=env)
    assert "***" in exported.stdout  # the echoed key was there, and was scrubbed
    texts = [played.stdout, played.stderr, echoed.stdout, echoed.stderr]
    texts += [exported.stdout, exported.stderr, shown.stdout, shown.stderr, first.stdout]
    assert _leaks(db, texts) == []
    server.stop_thread()

    # `pokeview prompt` shows the request as sent under that API: the same text, the API's
    # names for its parts, and a plain marker for what is not text.
    text = pokeview("prompt", "1", "--decision", "3", "--side", "p1", *common, env=env).stdout
    heads = [line for line in text.splitlines() if line.startswith("━━ ")]
    system = {"chat": "system", "responses": "instructions", "anthropic": "system"}
    assert heads[0] == "━━ " + system.get(api, "system_instruction") + (
        " [cache breakpoint]" if api == "anthropic" else ""
    )
    assert heads[2].startswith("━━ model · " if api == "gemini" else "━━ assistant · ")
    marked = [h for h in heads if "[cache breakpoint]" in h]
    assert len(marked) == (2 if api == "anthropic" else 0)
    assert heads.index(marked[-1] if marked else heads[-2]) == len(heads) - 2  # the newest ask
    game = json.loads(first.stdout)
    decisions = [json.loads(d["detail"]) for d in game["decisions"] if d["side"] == "p1"]
    assert game["game"]["status"] == "finished" and len(decisions) > 3
    total = 0.0
    for d in decisions:
        assert d["reasoning"].startswith("I have ") and d["answer"].startswith("ACTION: ")
        u = d["usage"]
        bill = (
            (u["input"] - u["cached_input"] - u["cache_write"]) * 3.0
            + u["cached_input"] * 0.3
            + u["cache_write"] * 3.75
            + u["output"] * 15.0
        ) / 1e6
        assert round(d["cost"], 2) == round(bill, 2)
        total += bill
    assert sum(d["usage"]["cached_input"] for d in decisions) > 0  # the cache was reported
    if api == "anthropic":
        assert all(d["usage"]["cache_write"] > 0 for d in decisions)
    ratings = json.loads(pokeview("ratings", "--json", *common, env=env).stdout)
    tester = next(p for p in ratings["players"] if p["name"] == "llm:tester")
    assert tester["cost_per_game"] == pytest.approx(total)  # the ratings read the same bill


@pytest.mark.parametrize(
    "table,said",
    [
        ({"api": "responses", "model": "gpt-nope"}, "player 'bad': model: responses API refused"),
        ({"api": "anthropic", "model": "claude-nope"}, "player 'bad': model: anthropic API"),
        ({"api": "gemini", "model": "gemini-nope"}, "player 'bad': model: gemini API refused"),
        ({"api": "bedrock", "model": "loopback"}, "players.bad.api: expected "),
        ({"model": "loopback", "cache_control": True}, "players.bad.cache_control: not a "),
        (
            {"api": "anthropic", "model": "loopback", "thinking_budget": 1000},
            "players.bad.thinking_budget: expected at least 1024",
        ),
    ],
)
def test_a_refused_model_or_setting_is_one_line_and_nothing_is_played(tmp_path, table, said):
    server = LoopbackModel().start_in_thread()
    players = write_players(tmp_path / "players.toml", server.base_url, bad=table)
    db = tmp_path / "g.db"
    run = pokeview(
        "battle", "--p1", "llm:bad", "--p2", "heuristic", "--players", str(players),
        "--db", str(db), env={"ANTHROPIC_API_KEY": KEY, "OPENAI_API_KEY": KEY},
    )  # fmt: skip
    line = one_clear_line(run)
    assert said in line and KEY not in line, line
    assert not db.exists() or sum(row_counts(db).get(t, 0) for t in ("games", "decisions")) == 0
    server.stop_thread()
