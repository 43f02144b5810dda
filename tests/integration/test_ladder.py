"""The ladder: placement, the most informative sets, budgets, restarts, and bad input."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pokeview.players.llm.loopback import LoopbackModel
from pokeview.ratings.summary import build_report
from pokeview.tournament import ladder, ladder_play
from pokeview.tournament.config import parse_run_config
from pokeview.tournament.runner import run_tournament
from tests.helpers import one_clear_line, pokeview, sqlite_file, write_players

MIDDLE = "tests.players_for_tests:HalfMaxDamage"  # between random and max-damage
WRONG = "tests.players_for_tests:AlwaysSwitches"  # cannot beat random
BOTS = ["random", "max-damage", "heuristic", MIDDLE]


def games(db: Path) -> int:
    with sqlite_file(db) as conn:
        return conn.execute("select count(*) from games").fetchone()[0]


def cli(capsys, monkeypatch, *args: str) -> tuple[int, list[str], str]:
    """`pokeview ARGS` in this process (the real parser and commands): status, stderr's lines,
    stdout."""
    from pokeview import cli as the_cli

    monkeypatch.setattr(the_cli, "tune_gc", lambda: None)
    capsys.readouterr()
    status = the_cli.main(list(args))
    said = capsys.readouterr()
    return status, [line for line in said.err.splitlines() if line.strip()], said.out


def test_bad_input_is_one_line_and_plays_nothing(tmp_path, capsys, monkeypatch):
    db = tmp_path / "x.db"
    assert cli(capsys, monkeypatch, "ladder", "create", "lad", "--db", str(db))[0] == 0
    # A model with no price, at an address that answers (one where nothing does is refused
    # before the price is looked at).
    server = LoopbackModel().start_in_thread()
    players = tmp_path / "players.toml"
    players.write_text(f'[players.cheap]\nbase_url = "{server.base_url}"\nmodel = "m"\n')
    cases = [
        (["ladder", "create", "b", "--anchor", "max-damage"], "PLAYER=RATING"),
        (["ladder", "create", "b", "--anchor", "=1000"], "PLAYER=RATING"),
        (["ladder", "create", "b", "--anchor", "max-damage=high"], "not a rating"),
        (["ladder", "create", "b", "--anchor", "nobody=1000"], "unknown player kind 'nobody'"),
        (["ladder", "create", "b", "--anchor", "llm:nobody=1000"], "no model player 'nobody'"),
        (["ladder", "create", "b", "--sparring", "heuristic"], "sparring partner 'heuristic'"),
        (["ladder", "create", "lad"], "already a run or ladder named 'lad'"),
        (["ladder", "create", "b", "--set-pairs", "0"], "--set-pairs must be a whole number"),
        (["ladder", "create", "b", "--format", "gen9ou"], "formats with random teams"),
        (["ladder", "play", "lad"], "give a budget"),
        (["ladder", "play", "lad", "--budget-games", "0"], "--budget-games must be"),
        (["ladder", "play", "lad", "--budget-games", "2.5"], "--budget-games must be"),
        (["ladder", "play", "lad", "--budget-games", "many"], "--budget-games must be"),
        (["ladder", "play", "lad", "--budget-usd", "-1"], "--budget-usd must be"),
        (["ladder", "play", "lad", "--budget-usd", "nan"], "--budget-usd must be"),
        (["ladder", "play", "lad", "--budget-games", "4", "--concurrency", "0"], "--concurrency"),
        (["ladder", "play", "nope", "--budget-games", "4"], "no run 'nope'"),
        (["ladder", "add", "lad", "random"], "'random' is in ladder 'lad' already"),
        (["ladder", "add", "lad", "nobody"], "unknown player kind"),
        (["report", "nope", "-o", str(tmp_path / "r.html")], "no run 'nope'"),
    ]
    for args, said in cases:
        status, lines, _ = cli(capsys, monkeypatch, *args, "--db", str(db))
        assert status == 2 and len(lines) == 1 and lines[0].startswith("pokeview: error: ")
        assert said in lines[0], (args, lines)
    add = ("ladder", "add", "lad", "llm:cheap", "--players", str(players), "--db", str(db))
    assert cli(capsys, monkeypatch, *add)[0] == 0
    play = ("ladder", "play", "lad", "--budget-usd", "1", "--players", str(players))
    status, lines, _ = cli(capsys, monkeypatch, *play, "--db", str(db))
    assert status == 2 and "llm:cheap has no price" in lines[0] and "--budget-games" in lines[0]
    config = tmp_path / "run.toml"
    config.write_text('name = "plain"\nseed = "s"\npairs = 1\nplayers = ["random", "heuristic"]\n')
    assert pokeview("run", str(config), "--db", str(db)).returncode == 0
    # And once through the real command line: one clear line, status 2.
    line = one_clear_line(
        pokeview("ladder", "play", "plain", "--budget-games", "4", "--db", str(db))
    )
    assert "'plain' is a run, not a ladder" in line
    assert games(db) == 2  # the plain run's two games; the ladder played nothing
    assert not (tmp_path / "r.html").exists()
    server.stop_thread()


async def test_the_ladder_orders_bots_as_a_round_robin_does_with_half_the_games(store, bridge):
    """Small: a round robin of 3 mirror pairs per matchup (36 games) against a ladder on the same
    seed text with a budget of 18 games. (benchmarks/ladder.py runs the full-size check.)"""
    seed = "ladder-bench-0"
    config = parse_run_config(
        {"name": "rr", "seed": seed, "pairs": 3, "players": BOTS, "turn_limit": 100},
        Path("rr.toml"),
    )
    await run_tournament(config, store=store, bridge=bridge)
    rr = build_report(store, "rr")
    ladder.create_ladder(store, "lad", anchors=["max-damage=1000"], seed=seed, turn_limit=100)
    for player in ("heuristic", MIDDLE):
        ladder.add_player(store, "lad", player)
    said: list[str] = []
    outcome = await ladder_play.play_ladder(
        store, bridge, "lad", budget_games=rr.games // 2, say=said.append, allow_modules=[MIDDLE]
    )
    lad = build_report(store, "lad")
    assert lad.games <= rr.games // 2 and outcome.played <= rr.games // 2
    assert [p.name for p in lad.players] == [p.name for p in rr.players]
    assert [p.name for p in rr.players] == ["heuristic", "max-damage", MIDDLE, "random"]
    intervals = {p.name: (p.low, p.high) for p in lad.players}
    for p in rr.players:
        low, high = intervals[p.name]
        assert low - 0.5 <= p.rating <= high + 0.5, (p.name, p.rating, low, high)
    # What it said before playing, and the spend as it went.
    assert said[0].startswith("ladder lad: 4 players") and "budget: 18 games" in said[1]
    assert any("screening against random" in line for line in said)
    assert any(line.startswith("game ") and "spent 1 game," in line for line in said)
    assert any("most informative" in line for line in said)
    # Placement as RotomArena does it: screening, the anchor, then the closest-rated player.
    sets = ladder.load_ladder(store, "lad").sets
    heuristic = [s.why for s in sets if s.a == "heuristic"]
    assert heuristic[:2] == ["screening against random", "placement: anchor"]
    # Its games are the round robin's games: same seed text, same pair numbers, same players.
    rr_logs = {
        (g.pair, g.p1, g.p2): g.spectator_log
        for g in store.games(run_id=store.run("rr").id, limit=999)
    }
    shared = [g for g in store.games(run_id=store.run("lad").id, limit=999) if g.pair < 3]
    assert len(shared) >= 12
    for g in shared:  # (the ladder may go past the round robin's 3 pairs where it matters)
        assert rr_logs[(g.pair, g.p1, g.p2)] == g.spectator_log


async def test_a_player_that_cannot_beat_random_stops_after_screening(store, bridge):
    ladder.create_ladder(store, "scr", anchors=["max-damage=1000"], turn_limit=100)
    ladder.add_player(store, "scr", WRONG)
    said: list[str] = []
    outcome = await ladder_play.play_ladder(
        store, bridge, "scr", budget_games=20, say=said.append, allow_modules=[WRONG]
    )
    assert (
        WRONG in outcome.stopped
        and "won none of its 2 games against random" in outcome.stopped[WRONG]
    )
    assert sum(WRONG in line and "won none" in line for line in said) == 1
    played = [g for g in store.games(run_id=store.run("scr").id, limit=99) if WRONG in (g.p1, g.p2)]
    assert len(played) == 2 and all(g.winner_name == "random" for g in played)  # then no more
    lines = ladder_play.status_lines(store, ladder.load_ladder(store, "scr"))
    assert any(line.startswith(f"  {WRONG}: stopped") for line in lines)


def _sets_and_games(db: Path) -> tuple[list, dict]:
    with sqlite_file(db) as conn:
        config = conn.execute("select config from runs where name = 'kill'").fetchone()[0]
        rows = conn.execute(
            "select pair, seat, p1, p2, spectator_log from games where status = 'finished'"
        ).fetchall()
    import json

    keys = [(pair, seat, p1, p2) for pair, seat, p1, p2, _ in rows]
    assert len(keys) == len(set(keys)), "a game was played twice"
    return json.loads(config)["sets"], {
        (pair, seat, p1, p2): log for pair, seat, p1, p2, log in rows
    }


def _finished(db: Path) -> int:
    try:
        with sqlite_file(db) as conn:
            return conn.execute("select count(*) from games where status = 'finished'").fetchone()[
                0
            ]
    except sqlite3.Error:
        return 0


def test_killed_and_restarted_it_chooses_the_same_sets_and_plays_nothing_twice(
    tmp_path, capsys, monkeypatch
):
    whole, killed = tmp_path / "whole.db", tmp_path / "killed.db"
    create = ("ladder", "create", "kill", "--turn-limit", "40", "--db", str(whole))
    assert cli(capsys, monkeypatch, *create)[0] == 0
    assert (
        cli(capsys, monkeypatch, "ladder", "add", "kill", "heuristic", "--db", str(whole))[0] == 0
    )
    shutil.copy(whole, killed)
    play = ("ladder", "play", "kill", "--budget-games", "12", "--concurrency", "2")
    done = pokeview(*play, "--db", str(whole))
    assert done.returncode == 0, done.stderr
    for at in (2, 7):
        proc = subprocess.Popen(
            [sys.executable, "-m", "pokeview", *play, "--db", str(killed)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=os.environ.copy(),
            start_new_session=True,
        )
        deadline = time.monotonic() + 120
        while _finished(killed) < at and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    again = pokeview(*play, "--db", str(killed))
    assert again.returncode == 0, again.stderr
    assert "continued" in again.stdout  # the same budget, counted from where it started
    assert _sets_and_games(whole) == _sets_and_games(killed)
    assert len(_sets_and_games(killed)[1]) == 12
    status, _, shown = cli(capsys, monkeypatch, "ladder", "show", "kill", "--db", str(killed))
    assert status == 0
    assert "ladder kill" in shown and "heuristic: placed" in shown
    page = tmp_path / "kill.html"
    assert cli(capsys, monkeypatch, "report", "kill", "-o", str(page), "--db", str(killed))[0] == 0
    assert 'id="fig-ratings"' in page.read_text()
    status, _, rated = cli(capsys, monkeypatch, "ratings", "kill", "--db", str(killed))
    assert status == 0 and "fixed: max-damage at 1000" in rated


async def test_games_on_autopilot_are_void_played_again_once_then_the_player_stops(
    store, bridge, loopback, tmp_path
):
    """A model whose provider drops every connection plays on autopilot: each game is void
    (kept, left out of the ratings), played again once, and screening then stops it."""

    players = write_players(
        tmp_path / "players.toml",
        loopback.base_url,
        broken={
            "model": "loopback-drop",
            "max_retries": 0,
            "timeouts": {"connect": 2, "first_token": 0.5, "total": 5},
            "prices": {"input": 1.0, "output": 2.0},
        },
    )
    ladder.create_ladder(store, "void", anchors=["max-damage=1000"], turn_limit=30)
    ladder.add_player(store, "void", "llm:broken", str(players))
    said: list[str] = []
    outcome = await ladder_play.play_ladder(
        store, bridge, "void", budget_games=12, players_file=str(players), say=said.append
    )
    assert "(2 of them void or failed" in outcome.stopped["llm:broken"]
    rows = [r for r in store.run_games(store.run("void").id) if "llm:broken" in (r.p1, r.p2)]
    assert len(rows) == 4 and all(r.excluded and r.status == "void" for r in rows)
    assert sorted((r.pair, r.seat) for r in rows) == [(0, 0), (0, 0), (0, 1), (0, 1)]
    assert any("is played again once" in line for line in said)
    report = build_report(store, "void")
    assert {p.name for p in report.players} == {"random", "max-damage"}  # void games left out


async def test_a_dollar_budget_is_kept_and_the_spend_is_said_as_it_goes(
    store, bridge, loopback, tmp_path
):
    players = write_players(
        tmp_path / "players.toml",
        loopback.base_url,
        paid={"model": "loopback", "prices": {"input": 3.0, "cached_input": 0.3, "output": 15.0}},
    )
    ladder.create_ladder(store, "usd", anchors=["max-damage=1000"], turn_limit=20)
    ladder.add_player(store, "usd", "llm:paid", str(players))
    said: list[str] = []
    outcome = await ladder_play.play_ladder(
        store, bridge, "usd", budget_usd="0.25", players_file=str(players), say=said.append
    )
    assert "expected cost: unknown for llm:paid until its first games" in "\n".join(said)
    assert 0 < outcome.spent.usd <= 0.25 and outcome.spent.unknown == 0
    assert outcome.why_stopped == "the budget is spent"
    spends = [float(line.rsplit("$", 1)[1]) for line in said if line.startswith("game ")]
    assert spends == sorted(spends) and spends[-1] == pytest.approx(outcome.spent.usd, abs=1e-4)
    lines = ladder_play.status_lines(store, ladder.load_ladder(store, "usd"), str(players))
    assert any(line.startswith("  llm:paid: placed; cost per game $0.0") for line in lines)


async def test_a_member_added_while_the_ladder_plays_joins_it_and_the_header_says_so(store, bridge):
    """`ladder add` while `ladder play` runs: the new member joins at the next choice, and the
    run's header names it (with the Showdown the games are played on)."""
    ladder.create_ladder(store, "grow", anchors=["max-damage=1000"], turn_limit=30)
    ladder.add_player(store, "grow", "heuristic")
    before = set(ladder.load_ladder(store, "grow").members)

    def said(line: str) -> None:
        if line.startswith("game ") and MIDDLE not in ladder.load_ladder(store, "grow").members:
            ladder.add_player(store, "grow", MIDDLE)  # (as another process would)

    outcome = await ladder_play.play_ladder(
        store, bridge, "grow", budget_games=8, say=said, allow_modules=[MIDDLE]
    )
    assert outcome.played == 8 and outcome.failed == 0
    header = store.run(store.run("grow").id).header
    assert MIDDLE not in before and set(header["players"]) == before | {MIDDLE}
    assert header["showdown_version"] == bridge.showdown_version


def test_every_built_in_stand_in_joins_a_ladder_with_no_players_file(tmp_path):
    """`llm:loopback-slow` (and the native-API stand-ins) are built in, as `llm:loopback` is:
    adding one to a ladder needs no players file."""
    from pokeview.players.kinds import LOOPBACK
    from pokeview.tournament.ladder import _player_name

    missing = tmp_path / "players.toml"
    for name in LOOPBACK:
        assert _player_name(f"llm:{name}", str(missing)) == f"llm:{name}"


def test_a_member_a_forged_database_names_as_a_module_is_not_imported(tmp_path):
    """A ladder's members are stored in its database, which may come from anyone: one that
    names a Python module (`module:Class`) is imported, running its code, only when the person
    names it on the command line; a player named elsewhere in it (a set, an anchor, the
    sparring partner) must be a member; and a name that is no module's is refused as such."""
    import json

    db = tmp_path / "lad.db"
    assert pokeview("ladder", "create", "lad", "--db", str(db)).returncode == 0
    probe = tmp_path / "imported"
    (tmp_path / "pokeview_forged_probe.py").write_text(
        f"open({str(probe)!r}, 'w').write('ran')\nclass Probe: pass\n"
    )
    with sqlite_file(db) as conn:
        (text,) = conn.execute("select config from runs where name = 'lad'").fetchone()
    created = json.loads(text)

    def forged(change) -> None:
        config = json.loads(json.dumps(created))
        change(config)
        with sqlite_file(db) as conn:
            conn.execute("update runs set config = ? where name = 'lad'", (json.dumps(config),))
            conn.commit()

    env = {"PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    play = ("ladder", "play", "lad", "--budget-games", "2", "--db", str(db))
    module = "pokeview_forged_probe:Probe"
    for change in (
        lambda c: c["sets"].append({"a": module, "b": "random", "pairs": [0], "why": "x"}),
        lambda c: c["anchors"].update({module: 1000}),
        lambda c: c.update(sparring=module),
    ):
        forged(change)
        line = one_clear_line(pokeview(*play, env=env))
        assert f"names '{module}', who is not a member" in line
    forged(lambda c: c["players"].append(module))
    line = one_clear_line(pokeview(*play, env=env))
    assert f"'{module}', a Python module" in line and f"--allow-module {module}" in line
    assert not probe.exists() and games(db) == 0
    forged(lambda c: c["players"].append("x:Y\npokeview: hint: run this"))
    line = one_clear_line(pokeview(*play, env=env))
    assert "'x:Y\\npokeview: hint: run this'" in line and "--allow-module" not in line
    forged(lambda c: c["players"].append(module))
    named = pokeview(*play, "--allow-module", module, env=env)
    assert probe.exists()  # named by the person: imported (and refused: not a poke-env Player)
    assert "is not a poke-env Player subclass" in one_clear_line(named)
    # `ladder add` says at once what `ladder play` will ask for
    assert pokeview("ladder", "create", "own", "--db", str(db)).returncode == 0
    added = pokeview("ladder", "add", "own", MIDDLE, "--db", str(db))
    assert added.returncode == 0 and f"--allow-module {MIDDLE}" in added.stdout
