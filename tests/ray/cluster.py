"""What the Ray tests and `benchmarks/ray.py` share: a node's settings, the cluster's worker
processes, and a record read back as the games it holds."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from tests.helpers import pokeview, sqlite_file

# One CPU a node, on loopback, with a small object store (games are small).
NODE = {"num_cpus": 1, "node_ip_address": "127.0.0.1", "object_store_memory": 80 * 1024 * 1024}


def local_cluster(base: Path) -> object:
    """A head on loopback (its files under `base`) and a second node, both up. Ray's `Cluster`
    writes the new cluster's address into its default temporary folder (RAY_TMPDIR's `ray`),
    which it does not make: on a fresh machine /tmp/ray is not there, so it is kept in `base`."""
    from ray.cluster_utils import Cluster

    os.environ["RAY_TMPDIR"] = str(base)
    (base / "ray").mkdir(parents=True, exist_ok=True)
    made = Cluster(
        initialize_head=True,
        head_node_args={**NODE, "include_dashboard": False, "temp_dir": str(base / "ray")},
    )
    try:
        made.add_node(**NODE)
        made.wait_for_nodes(timeout=60)
    except BaseException:
        made.shutdown()
        raise
    return made


def worker_pids(cluster: object) -> list[int]:
    """The pids of the GameWorker actors running on the cluster's nodes (children of its
    raylets), read from /proc."""
    raylets = {
        p.process.pid
        for node in cluster.list_all_nodes()  # type: ignore[attr-defined]
        for p in node.all_processes.get("raylet", [])
    }
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent in raylets and b"GameWorker" in cmdline:
            pids.append(int(entry.name))
    return pids


def games(db: Path) -> list[tuple]:
    """Each recorded game as what decides it and what it gave, in the plan's order."""
    with sqlite_file(db) as conn:
        return conn.execute(
            "select pair, seat, p1, p2, status, winner, turns, input_log from games "
            "order by pair, seat, p1, p2, id"
        ).fetchall()


def ratings(db: Path, run: str) -> list[tuple]:
    """The run's ratings, without the latencies (which differ from run to run)."""
    report = json.loads(pokeview("ratings", run, "--json", "--db", str(db)).stdout)
    return [
        (p["name"], round(p["rating"], 6), round(p["low"], 6), round(p["high"], 6), p["games"])
        for p in report["players"]
    ]


def run_header(db: Path) -> dict:
    """The header of the database's one run."""
    with sqlite_file(db) as conn:
        return json.loads(conn.execute("select header from runs").fetchone()[0])


def recorded(db: Path) -> int:
    try:
        with sqlite_file(db) as conn:
            return conn.execute("select count(*) from games").fetchone()[0]
    except sqlite3.Error:
        return 0
