"""A process stopped mid-game (SIGTERM, Ctrl-C) keeps its games as interrupted, never running."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from pokeview.players.llm.loopback import LoopbackModel
from tests.helpers import pokeview, sqlite_file, write_players


def statuses(db) -> list[str]:
    try:
        with sqlite_file(db) as conn:
            return [r[0] for r in conn.execute("select status from games order by id")]
    except sqlite3.Error:
        return []


def decisions(db) -> int:
    try:
        with sqlite_file(db) as conn:
            return conn.execute("select count(*) from decisions").fetchone()[0]
    except sqlite3.Error:
        return 0


@pytest.fixture
def slow_players(tmp_path):
    server = LoopbackModel().start_in_thread()  # streams each answer over about two seconds
    yield write_players(tmp_path / "players.toml", server.base_url, slow={"model": "loopback-slow"})
    server.stop_thread()


def as_from_a_terminal() -> None:
    """The child takes Ctrl-C as a program started from a terminal does. A child inherits an
    ignored or blocked SIGINT (a background job's is ignored), and in the whole suite this one
    once sat out the signal until the test gave up."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def stop_mid_game(db, argv, sig) -> subprocess.CompletedProcess[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "pokeview", *argv, "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
        preexec_fn=as_from_a_terminal,
    )
    deadline = time.monotonic() + 60
    while decisions(db) < 1 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)  # a decision recorded: the game is well under way
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


SIGNALS = [(signal.SIGTERM, 143), (signal.SIGINT, 130)]  # SIGINT: Ctrl-C


def stopped_so(stopped: subprocess.CompletedProcess[str], sig: int, code: int) -> None:
    """Every long command stops the same way: its exit code, one line naming the signal."""
    said = f"pokeview: stopped ({signal.Signals(sig).name})"
    assert stopped.returncode == code and said in stopped.stderr, stopped.stderr
    assert "Traceback" not in stopped.stderr


@pytest.mark.parametrize("sig,code", SIGNALS)
def test_a_stopped_battle_is_kept_as_interrupted(tmp_path, slow_players, sig, code):
    db = tmp_path / "x.db"
    argv = ["battle", "--p1", "llm:slow", "--p2", "random", "--players", str(slow_players)]
    stopped = stop_mid_game(db, [*argv, "--seed", "s"], sig)
    stopped_so(stopped, sig, code)
    assert statuses(db) == ["interrupted"]
    # The one line names the game kept and how to go on (it said only "stopped (SIGINT)").
    again = f"pokeview battle --p1 llm:slow --p2 random --seed s --players {slow_players} --db {db}"
    assert stopped.stderr.splitlines()[-1] == (
        f"pokeview: stopped ({signal.Signals(sig).name}); game 1 (llm:slow vs random) is kept as "
        f"interrupted: `pokeview watch 1 --db {db}` shows it; `{again}` plays it again"
    ), stopped.stderr
    listed = pokeview("games", "--status", "interrupted", "--db", str(db))
    assert listed.returncode == 0 and "interrupted" in listed.stdout


@pytest.mark.parametrize("sig,code", SIGNALS)
def test_a_stopped_run_keeps_its_games_and_plays_them_again(tmp_path, slow_players, sig, code):
    config = tmp_path / "run.toml"
    config.write_text(
        'name = "t"\nseed = "t"\npairs = 1\nturn_limit = 2\nconcurrency = 2\n'
        f'players = ["random", "llm:slow"]\nplayers_file = "{slow_players}"\n'
    )
    db = tmp_path / "x.db"
    stopped = stop_mid_game(db, ["run", str(config)], sig)
    stopped_so(stopped, sig, code)
    # The one line says what is kept and how to go on (it said only "stopped (SIGINT)").
    name = signal.Signals(sig).name
    assert stopped.stderr.splitlines()[-1] == (
        f"pokeview: stopped ({name}); run t: 0/2 games recorded; start it again to play the rest"
    ), stopped.stderr
    assert statuses(db) and set(statuses(db)) == {"interrupted"}
    assert " stopped " in pokeview("runs", "--db", str(db)).stdout
    again = pokeview("run", str(config), "--db", str(db))
    assert again.returncode == 0 and "2/2 games recorded (2 now" in again.stdout


@pytest.mark.parametrize("sig,code", SIGNALS)
def test_a_stopped_ladder_play_says_so_and_keeps_its_games(tmp_path, slow_players, sig, code):
    db = tmp_path / "x.db"
    made = pokeview(
        "ladder", "create", "lad", "--anchor", "llm:slow=1000", "--players", str(slow_players),
        "--turn-limit", "2", "--db", str(db),
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    argv = ["ladder", "play", "lad", "--budget-games", "2", "--players", str(slow_players)]
    stopped = stop_mid_game(db, argv, sig)
    stopped_so(stopped, sig, code)
    assert statuses(db) and "running" not in statuses(db)
    runs = pokeview("runs", "--db", str(db)).stdout
    assert "lad" in runs and " stopped " in runs and "0 running" in runs, runs
