"""`pokeview ray-pool` on a real local cluster: workers kept between runs, which every run with
--ray plays on (the same games as a run here), started again by Ray when one dies, gone when
stopped."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time

import pytest

from pokeview.errors import PokeviewError
from tests.helpers import pokeview
from tests.ray.cluster import games, ratings, recorded, worker_pids

RUN = """
name = "pooled"
seed = "pooled"
pairs = 3
players = ["random", "max-damage"]
concurrency = 4
"""


def test_a_kept_pool_plays_every_run_on_its_workers_until_stopped(tmp_path, address, cluster):
    config = tmp_path / "run.toml"
    config.write_text(RUN)
    here = tmp_path / "here.db"
    assert pokeview("run", str(config), "--db", str(here)).returncode == 0
    assert "keeps no pokeview workers" in pokeview("ray-pool", "status", address).stdout
    started = pokeview("ray-pool", "start", address, "--workers", "2")
    try:
        assert started.returncode == 0, started.stderr
        assert started.stdout.startswith("2 pokeview workers kept on the cluster (2 on ")
        kept = sorted(worker_pids(cluster))
        assert len(kept) == 2
        twice = pokeview("ray-pool", "start", address)
        assert twice.returncode == 2
        assert twice.stderr.strip().endswith(
            "keeps 2 pokeview workers already: `pokeview ray-pool stop` first"
        )
        for n in range(2):
            db = tmp_path / f"pooled-{n}.db"
            done = pokeview("run", str(config), "--db", str(db), "--ray", address)
            assert done.returncode == 0, done.stderr
            assert games(db) == games(here) and len(games(here)) == 6
            assert ratings(db, "pooled") == ratings(here, "pooled")
            # The pool's own processes played it, and are still there for the next run.
            assert sorted(worker_pids(cluster)) == kept
        # Fewer workers than the pool keeps: its first; more than it and the free CPUs: one
        # line at once (Ray would wait for CPUs the pool holds).
        db = tmp_path / "one.db"
        one = pokeview("run", str(config), "--db", str(db), "--ray", address, "--ray-workers", "1")
        assert one.returncode == 0, one.stderr
        assert games(db) == games(here)
        over = pokeview("run", str(config), "--db", str(db), "--ray", address, "--ray-workers", "3")
        assert over.returncode == 2
        assert over.stderr.endswith(
            "pokeview: error: --ray-workers 3: `pokeview ray-pool` keeps 2 workers on the cluster "
            "and it has 0 free CPUs for the 1 more: ask for 2 or fewer, or stop the pool\n"
        )
        # A kept worker that died between runs is started again by Ray: the next run loses
        # nothing, and the pool is whole again.
        os.kill(kept[0], signal.SIGKILL)
        db = tmp_path / "after-a-death.db"
        done = pokeview("run", str(config), "--db", str(db), "--ray", address)
        assert done.returncode == 0, done.stderr
        assert games(db) == games(here)
        status = pokeview("ray-pool", "status", address)
        assert status.stdout.startswith("the cluster keeps 2 pokeview workers, ready (2 on ")
        assert kept[0] not in worker_pids(cluster) and len(worker_pids(cluster)) == 2
    finally:
        stopped = pokeview("ray-pool", "stop", address)
    assert stopped.stdout.strip() == "stopped 2 pokeview workers", stopped.stderr
    deadline = time.monotonic() + 60
    while worker_pids(cluster):
        assert time.monotonic() < deadline, "the pool's workers outlived `ray-pool stop`"
        time.sleep(0.2)
    assert "keeps no pokeview workers" in pokeview("ray-pool", "status", address).stdout
    # Without the pool, a run starts its own workers again.
    db = tmp_path / "unpooled.db"
    assert pokeview("run", str(config), "--db", str(db), "--ray", address).returncode == 0
    assert games(db) == games(here)


def test_a_run_playing_on_a_pool_that_is_stopped_stops_and_resumes_without_it(
    tmp_path, address, cluster
):
    config = tmp_path / "run.toml"
    config.write_text(RUN.replace("pairs = 3", "pairs = 40"))
    here, there = tmp_path / "here.db", tmp_path / "there.db"
    assert pokeview("run", str(config), "--db", str(here)).returncode == 0
    started = pokeview("ray-pool", "start", address)
    assert started.returncode == 0, started.stderr
    try:
        run = subprocess.Popen(
            [sys.executable, "-m", "pokeview", "run", str(config), "--db", str(there)]
            + ["--ray", address],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 120
        while recorded(there) < 4:
            assert run.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        stopped = pokeview("ray-pool", "stop", address)
    assert stopped.returncode == 0, stopped.stderr
    _, said = run.communicate(timeout=120)
    assert run.returncode == 2
    last = said.strip().splitlines()[-1]
    assert last.startswith("pokeview: error: ") and "Traceback" not in said
    # (the worker refuses the game it is sent once stopped; if Ray's kill came first, it died)
    assert "the worker was stopped (`pokeview ray-pool stop`)" in last or "died" in last
    assert recorded(there) < 80
    # Started again, the run plays the rest on workers of its own, and the record is whole.
    again = pokeview("run", str(config), "--db", str(there), "--ray", address)
    assert again.returncode == 0, again.stderr
    assert games(there) == games(here) and len(games(here)) == 80


def test_a_kept_worker_that_cannot_start_is_named_when_the_wait_ends(address, monkeypatch):
    """A pool's worker waiting for a machine that is gone (here: a resource no node has) holds
    every run's start; the end of the wait says it is the pool's, and what to do."""
    import ray

    from pokeview.tournament import ray_games

    monkeypatch.setattr(ray_games, "READY_SECONDS", 3.0)
    ray_games.join(address)
    try:
        ray_games.worker_actor(ray).options(
            name="worker-0", lifetime="detached", resources={"gone": 1}
        ).remote()
    finally:
        ray.shutdown()
    try:
        with pytest.raises(PokeviewError) as caught:
            asyncio.run(asyncio.wait_for(ray_games.RayGames.start(address), 60))
        assert str(caught.value) == (
            "1 of 1 Ray workers did not start within 3 s: 1 of them kept by `pokeview "
            "ray-pool`: is a machine of theirs gone? (`pokeview ray-pool stop`, then `start`)"
        )
    finally:
        ray_games.join(address)
        try:
            ray.kill(ray.get_actor("worker-0"))
        finally:
            ray.shutdown()


def test_two_pools_started_at_once_leave_one_and_say_so(address, monkeypatch):
    """The second of two `ray-pool start` at once finds no pool when it looks, then finds the
    name taken when it starts its workers (Ray's check): one line, and the first pool stays."""
    from pokeview.tournament import ray_pool

    assert asyncio.run(ray_pool.start_pool(address, 1)).startswith("1 pokeview worker kept")
    try:
        monkeypatch.setattr(ray_pool, "pooled", lambda ray: [])  # (it looked before the first)
        with pytest.raises(PokeviewError) as caught:
            asyncio.run(ray_pool.start_pool(address, 1))
        assert str(caught.value) == (
            "another `pokeview ray-pool start` is starting a pool on this cluster"
        )
        monkeypatch.undo()
        status = asyncio.run(ray_pool.pool_status(address))
        assert status.startswith("the cluster keeps 1 pokeview worker, ready")
    finally:
        monkeypatch.undo()
        assert asyncio.run(ray_pool.stop_pool(address)) == "stopped 1 pokeview worker"


def test_a_pool_where_no_cluster_answers_is_one_line():
    for action in ("start", "status", "stop"):
        said = pokeview("ray-pool", action, "127.0.0.1:9")
        assert said.returncode == 2 and said.stdout == ""
        assert said.stderr.count("\n") == 1
        assert said.stderr.startswith("pokeview: error: no Ray cluster answers at 127.0.0.1:9")
