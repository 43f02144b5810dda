"""Model players from the command line: keys never leak; `pokeview prompt` prints what was seen."""

from __future__ import annotations

import json

from pokeview.players.llm.loopback import LoopbackModel
from tests.helpers import one_clear_line, pokeview, read_decisions, sqlite_file, write_players

KEY = "sk-planted-7f3a9c1e-do-not-leak"


def test_a_model_game_keeps_no_api_key_and_prompt_prints_what_it_saw(tmp_path):
    server = LoopbackModel().start_in_thread()  # its own thread: the CLI runs in another process
    players = write_players(
        tmp_path / "players.toml",
        server.base_url,
        tester={
            "model": "loopback",
            "api_key_env": "LOOPBACK_KEY",
            "prices": {"input": 3.0, "cached_input": 0.3, "output": 15.0},
        },
        free={"model": "loopback"},
    )
    db = tmp_path / "g.db"
    env = {"LOOPBACK_KEY": KEY, "POKEVIEW_PLAYERS": str(players)}
    run = pokeview(
        "battle", "--p1", "llm:tester", "--p2", "heuristic", "--seed", "k", "--db", str(db), env=env
    )
    assert run.returncode == 0, run.stderr
    assert any(h.get("authorization") == f"Bearer {KEY}" for h in server.headers)  # it was sent
    listing = pokeview("players", env=env)
    assert "llm:tester" in listing.stdout and "$LOOPBACK_KEY set" in listing.stdout
    # Every price a cost is made of, cache writes included, and which ones are missing.
    assert (
        "USD per million tokens: input 3, cached input 0.3, cache write ? (unknown), output 15"
        in listing.stdout
    )
    # The loopback model's token counts are characters ÷ 4: marked as estimates where shown.
    ratings = pokeview("ratings", "--db", str(db), env=env).stdout
    row = next(line for line in ratings.splitlines() if "llm:tester" in line)
    assert row.count(" est.") == 2  # cost/game and out tok/dec
    assert "the provider reported estimated token counts" in ratings
    report = json.loads(pokeview("ratings", "--json", "--db", str(db), env=env).stdout)
    tester = next(p for p in report["players"] if p["name"] == "llm:tester")
    assert tester["tokens_estimated"] is True
    heuristic = next(p for p in report["players"] if p["name"] == "heuristic")
    assert heuristic["tokens_estimated"] is False
    exported = json.loads(pokeview("export", "1", "--db", str(db), env=env).stdout)
    first = json.loads(next(d for d in exported["decisions"] if d["side"] == "p1")["detail"])
    assert first["usage"]["estimated"] is True and first["attempts"][0]["usage"]["estimated"]

    text = pokeview("prompt", "1", "--turn", "2", "--side", "p1", "--db", str(db), env=env)
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("━━ system\nYou are a player in a Pokémon battle")
    assert "━━ user · decision 1, turn 1\nBATTLE LOG\n" in text.stdout
    assert "━━ assistant · decision 1, turn 1\nACTION: " in text.stdout
    # It ends with the decision at turn 2: its message, then the model's answer to it.
    last_user = text.stdout.rindex("━━ user · decision 2, turn 2\nNEW EVENTS\n")
    assert "━━ assistant · decision 2, turn 2\nACTION: " in text.stdout[last_user:]
    assert "decision 3" not in text.stdout
    as_json = json.loads(
        pokeview("prompt", "1", "--turn", "2", "--json", "--db", str(db), env=env).stdout
    )
    assert as_json[0]["role"] == "system" and as_json[-1]["role"] == "assistant"
    assert as_json[-2]["content"].endswith("Answer with only the ACTION line and the REASON line.")

    bot_side = pokeview("prompt", "1", "--turn", "1", "--side", "p2", "--db", str(db), env=env)
    assert bot_side.returncode == 0 and "chosen by heuristic; no model answered" in bot_side.stdout

    everything = b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
    outputs = run.stdout + run.stderr + text.stdout + listing.stdout + bot_side.stdout
    assert KEY.encode() not in everything and KEY not in outputs
    with sqlite_file(db) as conn:
        dump = "\n".join(conn.iterdump())
    assert KEY not in dump and "LOOPBACK_KEY" in dump  # the variable's name only

    # Costs: per decision from the server's usage at the file's prices; unknown without prices.
    details = [d.detail for d in read_decisions(db, 1, "p1")]
    for d in details:
        u = d.usage
        expected = ((u.input - u.cached_input) * 3.0 + u.cached_input * 0.3 + u.output * 15.0) / 1e6
        assert abs(d.cost - expected) < 1e-12
    free = pokeview(
        "battle",
        "--p1",
        "llm:free",
        "--p2",
        "random",
        "--seed",
        "k",
        "--turn-limit",
        "3",
        "--db",
        str(db),
        env=env,
    )
    assert free.returncode == 0, free.stderr
    costs = [d.detail.cost for d in read_decisions(db, 2, "p1")]
    assert costs and all(c is None for c in costs)


def test_prompt_errors_are_one_clear_line(tmp_path):
    db = str(tmp_path / "x.db")
    run = pokeview(
        "battle", "--p1", "random", "--p2", "random", "--seed", "p", "--turn-limit", "4", "--db", db
    )
    assert run.returncode == 0
    assert "no game 7" in one_clear_line(pokeview("prompt", "7", "--turn", "1", "--db", db))
    line = one_clear_line(pokeview("prompt", "1", "--turn", "40", "--db", db))
    assert "no decision at turn 40" in line and "lasted 4 turns" in line


def test_missing_key_and_broken_players_file_are_one_clear_line(tmp_path):
    players = write_players(
        tmp_path / "p.toml",
        "http://127.0.0.1:9/v1",
        keyed={"model": "m", "api_key_env": "POKEVIEW_TEST_UNSET_KEY"},
    )
    line = one_clear_line(
        pokeview(
            "battle",
            "--p1",
            "llm:keyed",
            "--p2",
            "random",
            "--players",
            str(players),
            "--db",
            str(tmp_path / "x.db"),
        )
    )
    assert "$POKEVIEW_TEST_UNSET_KEY, which is not set" in line
    players.write_text("[players.x\nmodel = 1\n")
    line = one_clear_line(pokeview("players", "--players", str(players)))
    assert "line 1" in line


def test_a_rejected_model_makes_void_games_that_a_run_plays_again(tmp_path):
    server = LoopbackModel().start_in_thread()  # answers HTTP 401 to every request
    players = write_players(
        tmp_path / "players.toml", server.base_url, rejected={"model": "loopback-401"}
    )
    db = str(tmp_path / "g.db")
    env = {"POKEVIEW_PLAYERS": str(players)}
    run = pokeview(
        "battle",
        "--p1",
        "llm:rejected",
        "--p2",
        "random",
        "--turn-limit",
        "3",
        "--db",
        db,
        env=env,
    )
    assert run.returncode == 1 and "game 1: llm:rejected (p1) vs random (p2)" in run.stdout
    assert "game 1 is void, left out of the ratings: llm:rejected (p1) was on autopilot" in (
        run.stderr
    )
    assert "first failure: client: HTTP 401: " in run.stderr
    games = json.loads(pokeview("games", "--json", "--db", db).stdout)
    assert games[0]["status"] == "void" and "HTTP 401" in games[0]["error"]
    assert "void: llm:rejected" in pokeview("games", "--db", db).stdout  # the table wraps the rest

    config = tmp_path / "run.toml"
    config.write_text(
        'name = "void"\nseed = "void"\nturn_limit = 3\nplayers = ["llm:rejected", "random"]\n'
        f'players_file = "{players}"\n'
    )
    first = pokeview("run", str(config), "--db", db, env=env)
    assert first.returncode == 1
    assert "0/2 games recorded (2 now, 0 ended in errors, 2 void: to be played again" in (
        first.stdout
    )
    assert "void 2" in first.stderr  # the run's progress line
    again = pokeview("run", str(config), "--db", db, env=env)
    assert "0/2 games recorded (2 now, 0 ended in errors, 2 void" in again.stdout, again.stdout
    with sqlite_file(db) as conn:
        rows = conn.execute("select pair, seat, status from games where run_id = 1").fetchall()
    assert sorted(rows) == [(0, 0, "void")] * 2 + [(0, 1, "void")] * 2  # again, under new ids
    assert "(0 errors, 4 void, 0 running)" in pokeview("runs", "--db", db).stdout
    ratings = pokeview("ratings", "void", "--db", db).stdout
    assert "void games, left out (a model on autopilot for more than 50% of its decisions): " in (
        ratings
    )
    assert "llm:rejected 4" in ratings
    report = json.loads(pokeview("ratings", "--json", "--db", db).stdout)
    assert report["void_games"] == {"llm:rejected": 5} and report["games"] == 0
    server.stop_thread()
