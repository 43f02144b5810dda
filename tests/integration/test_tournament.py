"""Runs: configs, resumable runners that can be killed at any point, and the ratings they give."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pokeview.tournament.config import load_run_config
from tests.helpers import BOTS_RUN, STEP_BY_STEP, one_clear_line, pokeview, sqlite_file


def finished(db: Path) -> int:
    try:
        with sqlite_file(db) as conn:
            return conn.execute("select count(*) from games where status != 'running'").fetchone()[
                0
            ]
    except sqlite3.Error:
        return 0


def games_by_key(db: Path) -> dict[tuple, str]:
    with sqlite_file(db) as conn:
        rows = conn.execute(
            "select pair, p1, p2, spectator_log, status from games where status != 'interrupted'"
        ).fetchall()
    keys = [(pair, p1, p2) for pair, p1, p2, _, _ in rows]
    assert len(keys) == len(set(keys)), "a game was recorded twice"
    assert all(status == "finished" for *_, status in rows)
    return {(pair, p1, p2): log for pair, p1, p2, log, _ in rows}


def ratings(db: Path) -> list[tuple]:
    report = json.loads(pokeview("ratings", "kill-test", "--json", "--db", str(db)).stdout)
    return [
        (p["name"], round(p["rating"], 6), round(p["low"], 6), round(p["high"], 6), p["games"])
        for p in report["players"]
    ]


def test_killing_the_runner_and_starting_again_gives_the_same_games_and_ratings(tmp_path):
    config = tmp_path / "run.toml"
    config.write_text(BOTS_RUN)
    whole, killed = tmp_path / "whole.db", tmp_path / "killed.db"
    assert pokeview("run", str(config), "--db", str(whole)).returncode == 0

    for at in (2, 8, 13):  # kill it after a few games, mid-run, and near the end
        proc = subprocess.Popen(
            [sys.executable, "-m", "pokeview", "run", str(config), "--db", str(killed)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=os.environ.copy(),
            start_new_session=True,
        )
        deadline = time.monotonic() + 120
        while finished(killed) < at and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)  # the runner and its Node bridge, without warning
        proc.wait()
    with sqlite_file(killed) as conn:
        interrupted = conn.execute(
            "select count(*) from games where status = 'running'"
        ).fetchone()[0]
    assert interrupted >= 1  # the kills really left games half-played
    with sqlite_file(killed) as conn:
        cut_short = {
            gid for (gid,) in conn.execute("select id from games where status = 'running'")
        }
    done = pokeview("run", str(config), "--db", str(killed))
    assert done.returncode == 0, done.stderr
    # The restart says which games it plays again, by id, before it plays them.
    said = [line for line in done.stderr.splitlines() if "to be played again" in line]
    assert len(said) == 1, done.stderr
    count, ids = said[0].split(" ", 1)[0], said[0].rsplit(": ", 1)[1].split(", ")
    assert int(count) == len(ids) and cut_short <= {int(i) for i in ids}
    with sqlite_file(killed) as conn:
        kept, why = conn.execute(
            "select count(*), min(error) from games where status = 'interrupted'"
        ).fetchone()
    assert kept >= interrupted and "played again from its seed" in why  # kept, not lost
    assert "18/18 games recorded" in done.stdout

    a, b = games_by_key(whole), games_by_key(killed)
    assert len(a) == len(b) == 18 and a == b  # each planned game once, byte-identical logs
    assert ratings(whole) == ratings(killed)
    again = pokeview("run", str(config), "--db", str(killed))
    assert "(0 now" in again.stdout and len(games_by_key(killed)) == 18

    runs = pokeview("runs", "--db", str(killed)).stdout
    assert "kill-test" in runs and "finished" in runs and "18/18" in runs
    printed = pokeview("ratings", "kill-test", "--db", str(killed)).stdout
    assert "Showdown 0.11.11" in printed and "seed text 'kill-test'" in printed
    assert printed.index("Showdown 0.11.11") < printed.index("Bradley–Terry ratings")


def test_a_changed_config_under_the_same_name_is_refused(tmp_path):
    config = tmp_path / "run.toml"
    config.write_text(BOTS_RUN.replace("pairs = 3", "pairs = 1"))
    db = str(tmp_path / "x.db")
    assert pokeview("run", str(config), "--db", db).returncode == 0
    config.write_text(BOTS_RUN.replace("pairs = 3", "pairs = 2"))
    assert "different config" in one_clear_line(pokeview("run", str(config), "--db", db))


def test_the_bots_order_heuristic_over_max_damage_over_random(tmp_path):
    config = tmp_path / "run.toml"
    config.write_text(BOTS_RUN.replace("pairs = 3", "pairs = 8").replace("kill-test", "order"))
    db = tmp_path / "order.db"
    assert pokeview("run", str(config), "--db", str(db)).returncode == 0
    report = json.loads(pokeview("ratings", "order", "--json", "--db", str(db)).stdout)
    assert [p["name"] for p in report["players"]] == ["heuristic", "max-damage", "random"]
    anchor = next(p for p in report["players"] if p["name"] == "max-damage")
    assert anchor["rating"] == pytest.approx(1000) and anchor["low"] == anchor[
        "high"
    ] == pytest.approx(1000)
    assert report["anchor"] == "max-damage" and report["samples"] == 200


CLAIM = """
name = "claim"
seed = "claim"
pairs = 1
turn_limit = 4
players = ["random", "max-damage"]
"""


def test_two_runners_resuming_at_once_never_both_play(tmp_path):
    """After a killed run, two runners started together: one plays, the other says who does."""
    from pokeview.store import open_store

    config = tmp_path / "run.toml"
    config.write_text(CLAIM)
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead_pid = int(gone.stdout)  # a process that has exited: the runner that was killed
    for attempt in range(8):
        db = tmp_path / f"claim-{attempt}.db"
        store = open_store(db)
        cfg = load_run_config(config)
        run = store.claim_run(cfg.name, cfg.raw, cfg.config_hash, 2, lambda pid: True)
        store.update_run(run.id, pid=dead_pid)  # held by a dead runner
        store.close()
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "pokeview", "run", str(config), "--db", str(db)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        outs = [(p.wait(), *p.communicate()) for p in procs]
        played = [out for code, out, _ in outs if code == 0 and "(2 now" in out]
        refused = [
            err for code, _, err in outs if code == 2 and "is being played by process" in err
        ]
        finished_later = [out for code, out, _ in outs if code == 0 and "(0 now" in out]
        assert len(played) == 1 and len(refused) + len(finished_later) == 1, outs
        store = open_store(db)
        try:
            games = store.run_games(run.id)
            assert len(games) == 2 and all(g.status == "finished" for g in games), games
        finally:
            store.close()


async def test_a_run_whose_bridge_died_mid_game_is_not_finished_and_says_so(tmp_path, store):
    """Node killed while games are in flight: they end interrupted, the run is `stopped` (never
    `finished`) and counts them apart, and starting it again plays them."""
    import asyncio

    from pokeview.sim.client import Bridge
    from pokeview.tournament.runner import run_tournament

    config_file = tmp_path / "run.toml"
    config_file.write_text(
        # (its games are played step by step, so some are mid-game when killed)
        f'name = "dies"\nseed = "d"\nformat = "{STEP_BY_STEP}"\npairs = 3\nconcurrency = 6\n'
        'players = ["random", "max-damage"]\n'
    )
    config = load_run_config(config_file)
    pool = Bridge(hosts=1)
    try:
        await pool.start()
        killed = []

        async def kill_mid_game() -> None:
            while not killed:
                running = store.running_games([r.id for r, _ in store.runs()])
                if len(running) >= 3 and store.decisions(running[0].id):
                    os.kill(pool.hosts[0].pid(), signal.SIGKILL)
                    killed.append(True)
                await asyncio.sleep(0.01)

        killer = asyncio.ensure_future(kill_mid_game())
        progress = await run_tournament(config, store=store, bridge=pool)
        killer.cancel()
        assert killed
        statuses = [g.status for g in store.run_games(store.run("dies").id)]
        assert "interrupted" in statuses
        assert progress.interrupted == statuses.count("interrupted")
        assert progress.recorded == statuses.count("finished")
        assert store.run("dies").state == "stopped"
        store.commit()
        listed = pokeview("runs", "--db", str(store.path))
        assert "dies" in listed.stdout and "finished" not in listed.stdout, listed.stdout
        again = await run_tournament(config, store=store, bridge=pool)
        assert again.recorded == 6 and store.run("dies").state == "finished"
    finally:
        await pool.close()
