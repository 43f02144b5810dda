"""`pokeview ray-pool` on a real local cluster: workers kept between runs, which every run with
--ray plays on (the same games as a run here), started again by Ray when one dies, gone when
stopped."""

from __future__ import annotations

import os
import signal
import time

from tests.helpers import pokeview
from tests.ray.cluster import games, ratings, worker_pids

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


def test_a_pool_where_no_cluster_answers_is_one_line():
    for action in ("start", "status", "stop"):
        said = pokeview("ray-pool", action, "127.0.0.1:9")
        assert said.returncode == 2 and said.stdout == ""
        assert said.stderr.count("\n") == 1
        assert said.stderr.startswith("pokeview: error: no Ray cluster answers at 127.0.0.1:9")
