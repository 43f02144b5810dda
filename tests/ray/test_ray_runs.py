"""`pokeview run --ray` and `ladder play --ray` on a real local cluster: the same games as a run
here, one record on the driver, and nothing lost or doubled when a worker or the driver dies."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pokeview.store import open_store
from pokeview.tournament.ray_worker import SCRATCH
from tests.helpers import pokeview, sqlite_file
from tests.ray.cluster import games, ratings, recorded, run_header, worker_pids

RUN = """
name = "on-ray"
seed = "on-ray"
pairs = {pairs}
players = ["random", "max-damage"]
concurrency = 4
"""
WAIT = 240  # seconds any one run may take here before the test gives up on it


def start_run(config: Path, db: Path, address: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "pokeview", "run", str(config), "--db", str(db), "--ray", address],
        stdout=subprocess.PIPE,
        text=True,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def wait_for(what, deadline: float) -> None:
    while not what():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def test_a_run_on_ray_records_the_games_a_run_here_records(tmp_path, address):
    config = tmp_path / "run.toml"
    config.write_text(RUN.format(pairs=3))
    here, there = tmp_path / "here.db", tmp_path / "there.db"
    assert pokeview("run", str(config), "--db", str(here)).returncode == 0
    done = pokeview("run", str(config), "--db", str(there), "--ray", address)
    assert done.returncode == 0, done.stderr
    assert "6/6 games recorded" in done.stdout
    assert "Ray worker" not in done.stderr  # (off a terminal: what stops a run is its one line)
    assert games(there) == games(here) and len(games(here)) == 6
    assert ratings(there, "on-ray") == ratings(here, "on-ray")
    # Each game is whole: its decisions and events came with it, and it replays.
    verified = pokeview("verify", "--all", "--quiet", "--db", str(there))
    assert verified.returncode == 0 and "6 of 6 games verified" in verified.stdout
    for game_id in (1, 6):
        for kind in ("log", "inputlog"):
            args = ("export", str(game_id), "--as", kind)
            assert pokeview(*args, "--db", str(there)).stdout == (
                pokeview(*args, "--db", str(here)).stdout
            )
    with sqlite_file(there) as conn:
        assert conn.execute("select count(distinct run_id) from games").fetchone()[0] == 1
        assert conn.execute("select count(*) from decisions").fetchone()[0] == 0  # compacted
    assert run_header(there)["showdown_version"] == run_header(here)["showdown_version"] is not None
    again = pokeview("run", str(config), "--db", str(there), "--ray", address)
    assert "(0 now" in again.stdout and len(games(there)) == 6  # resumed: nothing doubled


def test_a_worker_killed_mid_run_costs_no_game_and_doubles_none(tmp_path, address, cluster):
    config = tmp_path / "run.toml"
    config.write_text(RUN.format(pairs=8))
    here, there = tmp_path / "here.db", tmp_path / "there.db"
    assert pokeview("run", str(config), "--db", str(here)).returncode == 0
    deadline = time.monotonic() + WAIT
    proc = start_run(config, there, address)
    try:
        killed = []
        for at in (2, 7):  # kill a worker twice, each while games are in flight on it
            wait_for(
                lambda at=at: recorded(there) >= at and len(worker_pids(cluster)) == 2, deadline
            )
            killed.append(worker_pids(cluster)[0])
            os.kill(killed[-1], signal.SIGKILL)
        said, _ = proc.communicate(timeout=WAIT)
        assert proc.returncode == 0
        # The kills met games in flight, which were played again on the other worker.
        assert "started again after a Ray worker died" in said, said
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert games(there) == games(here) and len(games(here)) == 16  # none lost, none twice
    verified = pokeview("verify", "--all", "--quiet", "--db", str(there))
    assert verified.returncode == 0, verified.stdout
    assert ratings(there, "on-ray") == ratings(here, "on-ray")
    # What a killed worker left in its scratch folder was cleared by the one started after it.
    assert not [pid for pid in killed if (Path(tempfile.gettempdir()) / f"{SCRATCH}{pid}").exists()]


def test_a_killed_driver_starts_again_where_its_record_ends(tmp_path, address):
    config = tmp_path / "run.toml"
    config.write_text(RUN.format(pairs=6))
    here, there = tmp_path / "here.db", tmp_path / "there.db"
    assert pokeview("run", str(config), "--db", str(here)).returncode == 0
    proc = start_run(config, there, address)
    try:
        wait_for(lambda: recorded(there) >= 3, time.monotonic() + WAIT)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the driver, without warning
        proc.wait()
    with sqlite_file(there) as conn:  # only whole games are ever in the record
        assert (
            conn.execute("select count(*) from games where status != 'finished'").fetchone()[0] == 0
        )
    done = pokeview("run", str(config), "--db", str(there), "--ray", address)
    assert done.returncode == 0, done.stderr
    assert "12/12 games recorded" in done.stdout
    assert games(there) == games(here)


def test_a_ladder_plays_its_bot_sets_on_ray(tmp_path, address):
    db = str(tmp_path / "ladder.db")
    made = pokeview("ladder", "create", "lad", "--player", "heuristic", "--db", db)
    assert made.returncode == 0, made.stderr
    played = pokeview("ladder", "play", "lad", "--budget-games", "4", "--ray", address, "--db", db)
    assert played.returncode == 0, played.stderr
    assert "4 games played now (0 ended in errors)" in played.stdout
    with sqlite_file(db) as conn:
        rows = conn.execute("select status, run_id from games").fetchall()
    assert len(rows) == 4 and {s for s, _ in rows} == {"finished"} and rows[0][1] is not None
    assert pokeview("verify", "--all", "--quiet", "--db", db).returncode == 0


def test_a_ray_run_stopped_by_sigterm_stops_as_a_run_here_does(tmp_path, address):
    config = tmp_path / "run.toml"
    config.write_text(RUN.format(pairs=4))
    db = tmp_path / "there.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "pokeview", "run", str(config), "--db", str(db), "--ray", address],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        wait_for(lambda: recorded(db) >= 1, time.monotonic() + WAIT)
        # A spectator of the run sees each game as it is stored, while the run goes on.
        spectator = open_store(db)
        (run,) = [r for r, _ in spectator.runs()]
        assert spectator.ended_games([run.id]) and proc.poll() is None
        spectator.close()
        proc.send_signal(signal.SIGTERM)  # Ray's own handler would exit at once; pokeview's stops
        _, err = proc.communicate(timeout=WAIT)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 143 and "pokeview: stopped (SIGTERM)" in err, err
    assert "Traceback" not in err
    with sqlite_file(db) as conn:
        assert conn.execute("select state, pid from runs").fetchone() == ("stopped", None)
        assert {s for (s,) in conn.execute("select status from games")} == {"finished"}
    done = pokeview("run", str(config), "--db", str(db), "--ray", address)
    assert done.returncode == 0 and "8/8 games recorded" in done.stdout, done.stderr


def test_a_ray_run_on_a_terminal_leaves_no_stray_letters_after_its_last_line(tmp_path):
    """Ray's bundled colorama, imported when `--ray` starts a cluster of its own, writes a
    colour reset as the process exits; pokeview's output removes control characters, which
    left its letters ("[0m") after the run's last line on a terminal. It is not written."""
    import re

    from tests.helpers import on_a_pty

    config = tmp_path / "run.toml"
    config.write_text(RUN.format(pairs=1))
    # its own temporary folder (not the tests' cluster's address), short: Ray's socket paths
    own = tempfile.mkdtemp(prefix="pvr-")
    argv = ["run", str(config), "--db", str(tmp_path / "x.db"), "--ray", "--ray-workers", "1"]
    try:
        code, shown = on_a_pty(argv, {"RAY_TMPDIR": own, "RAY_ADDRESS": ""})
    finally:
        shutil.rmtree(own, ignore_errors=True)
    assert code == 0 and "games recorded" in shown, shown[-500:]
    # A terminal is told what is waited on while Ray starts, then that the workers are ready.
    assert "starting the Ray workers on the cluster Ray finds" in shown
    assert f"1 Ray worker ready: 1 on {socket.gethostname()}\r\n" in shown
    assert not re.search(r"(?<!\x1b)\[\d*m", shown), shown[-300:]
