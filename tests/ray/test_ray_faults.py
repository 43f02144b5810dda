"""What stops a Ray run before it plays: each one clear line, nothing recorded."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys

import msgspec
import pytest

from pokeview.errors import PokeviewError
from tests.helpers import BOTS_RUN, free_port, one_clear_line, pokeview, sqlite_file
from tests.ray.cluster import run_header


def no_games(db) -> bool:
    if not db.exists():
        return True
    with sqlite_file(db) as conn:
        return conn.execute("select count(*) from games").fetchone()[0] == 0


def test_ray_not_installed_is_one_line(tmp_path):
    config = tmp_path / "run.toml"
    config.write_text(BOTS_RUN)
    db = tmp_path / "x.db"
    code = (
        "import sys; sys.modules['ray'] = None; from pokeview.cli import main; "
        f"sys.exit(main(['run', {str(config)!r}, '--db', {str(db)!r}, '--ray']))"
    )
    import subprocess

    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    line = one_clear_line(ran)
    assert "--ray needs Ray, which is not installed" in line and "pokeview[ray]" in line
    assert no_games(db)


def test_an_address_where_no_cluster_answers_is_one_line(tmp_path):
    pytest.importorskip("ray", reason="Ray is not installed: pip install 'pokeview[ray]'")
    config = tmp_path / "run.toml"
    config.write_text(BOTS_RUN)
    db = tmp_path / "x.db"
    port = free_port()
    ran = pokeview("run", str(config), "--db", str(db), "--ray", f"127.0.0.1:{port}")
    line = one_clear_line(ran)
    assert f"no Ray cluster answers at 127.0.0.1:{port}" in line
    assert no_games(db)
    named = pokeview(
        "run", str(config), "--db", str(db), "--ray", env={"RAY_ADDRESS": f"127.0.0.1:{port}"}
    )
    assert f"no Ray cluster answers at 127.0.0.1:{port}" in one_clear_line(named)
    assert no_games(db)
    made = pokeview("ladder", "create", "lad", "--player", "heuristic", "--db", str(db))
    assert made.returncode == 0, made.stderr
    ladder = pokeview("ladder", "play", "lad", "--ray", "nonsense", "--db", str(db))
    assert "--ray nonsense: give a Ray cluster's address as HOST:PORT" in one_clear_line(ladder)
    assert no_games(db)


def test_ray_options_without_ray_are_refused(tmp_path):
    config = tmp_path / "run.toml"
    config.write_text(BOTS_RUN)
    db = tmp_path / "x.db"
    ran = pokeview("run", str(config), "--db", str(db), "--ray-workers", "2")
    assert "--ray-workers and --ray-models go with --ray" in one_clear_line(ran)
    assert no_games(db)


@pytest.mark.parametrize(
    ("env", "said"),
    [
        # PATH keeps what Ray starts a worker with (bash, Python), and no node
        ({"PATH": "BASH_ONLY"}, "Node.js was not found on PATH"),
        ({"POKEVIEW_SHOWDOWN_DIR": "/nowhere/showdown"}, "the pinned Showdown is not installed"),
    ],
)
def test_a_worker_without_node_or_showdown_says_so_at_start(tmp_path, address, env, said):
    from pokeview.tournament.ray_games import RayGames

    if env.get("PATH") == "BASH_ONLY":
        (tmp_path / "bin").mkdir()
        (tmp_path / "bin" / "bash").symlink_to(shutil.which("bash") or "/bin/bash")
        env = {"PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.path.dirname(sys.executable)}"}

    with pytest.raises(PokeviewError) as caught:
        asyncio.run(asyncio.wait_for(RayGames.start(address, workers=1, worker_env=env), 180))
    message = str(caught.value)
    assert message.startswith("the Ray worker on ") and said in message
    assert "\n" not in message


def test_a_driver_without_node_plays_bots_on_the_cluster_and_stops_where_it_plays_a_game(
    tmp_path, address, monkeypatch, caplog
):
    """This machine's Node is started only for a game played here: a Ray run of bots plays
    every game on the workers even where this machine has no Node.js, and its record names
    the workers' Showdown. A run with a game to play here (a model's, without --ray-models)
    says in one line that Node.js is missing, records nothing, and shuts Ray down (in this
    process, which lives on, as a driver's would not)."""
    import argparse

    import ray

    from pokeview.cli.common import bridge_and_ray
    from pokeview.sim import install
    from pokeview.store import open_store
    from pokeview.tournament.config import load_run_config
    from pokeview.tournament.runner import run_tournament

    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "bash").symlink_to(shutil.which("bash") or "/bin/bash")
    path = f"{tmp_path / 'bin'}{os.pathsep}{os.path.dirname(sys.executable)}"
    config = tmp_path / "run.toml"
    config.write_text(BOTS_RUN)
    db = tmp_path / "x.db"
    ran = pokeview("run", str(config), "--db", str(db), "--ray", address, env={"PATH": path})
    assert ran.returncode == 0, ran.stderr
    assert "18/18 games recorded" in ran.stdout
    assert run_header(db)["showdown_version"] == install.pinned_showdown()

    config.write_text(BOTS_RUN.replace('"heuristic"]', '"loopback"]'))
    db = tmp_path / "model.db"
    ran = pokeview("run", str(config), "--db", str(db), "--ray", address, env={"PATH": path})
    assert "Node.js was not found on PATH" in one_clear_line(ran)
    assert no_games(db)

    async def enter() -> None:
        args = argparse.Namespace(ray=address, ray_workers=1, ray_models=False)
        async with bridge_and_ray(args) as (bridge, remote):
            store = open_store(db)
            try:
                await run_tournament(
                    load_run_config(str(config)), store=store, bridge=bridge, remote=remote
                )
            finally:
                store.close()
            raise AssertionError("played a model's game here without Node.js")

    monkeypatch.setenv("PATH", path)
    with pytest.raises(PokeviewError, match="Node.js was not found on PATH"):
        asyncio.run(enter())
    assert not ray.is_initialized()
    assert no_games(db)
    import gc

    gc.collect()  # an error left unread in a future is logged when the future goes
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]


def test_a_ladder_on_ray_starts_node_here_for_a_member_it_must_play_here(
    tmp_path, address, monkeypatch
):
    """A ladder of bots on Ray plays nothing here; a model added while it plays (without
    --ray-models) is played here, on this machine's Node, started for its first game: without
    Node.js that stops the ladder in one line, and the games before it stay recorded."""
    from pokeview.sim.client import Bridge
    from pokeview.store.store import Store
    from pokeview.tournament import ladder, ladder_play
    from pokeview.tournament.ray_games import RayGames

    path = f"{tmp_path / 'bin'}{os.pathsep}{os.path.dirname(sys.executable)}"
    (tmp_path / "bin").mkdir()
    store = Store(tmp_path / "x.db")
    ladder.create_ladder(store, "grow", anchors=["max-damage=1000"], turn_limit=30)
    ladder.add_player(store, "grow", "heuristic")

    added: list[str] = []

    def said(line: str) -> None:
        if line.startswith("game ") and not added:
            added.append(ladder.add_player(store, "grow", "loopback"))
            monkeypatch.setenv("PATH", path)  # (the workers keep their own)

    async def play() -> None:
        remote = await RayGames.start(address, workers=1)
        bridge = Bridge()
        try:
            await ladder_play.play_ladder(
                store, bridge, "grow", budget_games=8, say=said, remote=remote
            )
        finally:
            await bridge.close()
            remote.close()

    try:
        with pytest.raises(PokeviewError, match="Node.js was not found on PATH"):
            asyncio.run(play())
        assert store.run_games(store.run("grow").id)  # the bot games before it are kept
    finally:
        store.close()


def test_a_format_showdown_refuses_is_said_while_ray_starts_and_ray_is_shut_down(tmp_path, address):
    """The run's first game is started on each Ray worker as it comes up: a format Showdown
    refuses is one line, nothing recorded, and the Ray start shut down."""
    import argparse

    import ray

    from pokeview.cli.common import bridge_and_ray
    from pokeview.tournament.config import load_run_config
    from pokeview.tournament.runner import first_game

    config = tmp_path / "run.toml"
    config.write_text(BOTS_RUN.replace("pairs = 3", 'pairs = 3\nformat = "gen9nosuchformat"'))
    db = tmp_path / "x.db"
    ran = pokeview("run", str(config), "--db", str(db), "--ray", address)
    assert "unknown format 'gen9nosuchformat'" in one_clear_line(ran)
    assert no_games(db)

    async def enter() -> None:
        args = argparse.Namespace(ray=address, ray_workers=1, ray_models=False)
        async with bridge_and_ray(args, first_game(load_run_config(str(config)))):
            raise AssertionError("started a run Showdown refuses")

    with pytest.raises(PokeviewError, match="unknown format 'gen9nosuchformat'"):
        asyncio.run(enter())
    assert not ray.is_initialized()


def test_a_worker_warms_its_simulator_with_the_run_s_first_game_at_start(tmp_path):
    """`ready` starts the run's first game on the worker's own bridge, so that no game is its
    first on a cold simulator; one its Showdown refuses is the worker's problem, in one line."""
    from pokeview.tournament.config import load_run_config
    from pokeview.tournament.ray_worker import GameWorker
    from pokeview.tournament.runner import first_game

    config = tmp_path / "run.toml"
    config.write_text(BOTS_RUN)
    good = first_game(load_run_config(str(config)))
    bad = msgspec.structs.replace(good, format="gen9nosuchformat")

    async def ask() -> tuple[object, object, int]:
        worker = GameWorker()
        try:
            said = await worker.ready(good), await worker.ready(bad)
            return *said, worker.bridge.open_battles()
        finally:
            await worker.close()

    warmed, refused, left_open = asyncio.run(ask())
    assert warmed.problem is None and warmed.showdown
    assert refused.problem is not None and "unknown format 'gen9nosuchformat'" in refused.problem
    assert "\n" not in refused.problem
    assert left_open == 0


def test_a_worker_with_another_showdown_is_refused_in_one_line():
    """The record names the Showdown its games were played on: a worker whose Showdown is not
    this machine's is said before anything is played."""
    from pokeview.tournament.ray_games import RayGames, _Worker

    games = RayGames(
        None, [_Worker(None, "node-a", "0.11.11"), _Worker(None, "node-b", "0.11.10")], models=False
    )
    with pytest.raises(
        PokeviewError, match="the Ray worker on node-b has Showdown 0.11.10, this machine 0.11.11"
    ):
        games.same_showdown("0.11.11")
    RayGames(None, games.workers[:1], models=False).same_showdown("0.11.11")


def test_a_ray_folder_whose_socket_paths_are_too_long_is_one_line(tmp_path):
    """Ray starting a cluster of its own refuses a temporary folder whose socket paths pass
    the system's 107 bytes: one line, not Ray's traceback, and nothing played."""
    config = tmp_path / "run.toml"
    config.write_text(BOTS_RUN)
    db = tmp_path / "x.db"
    long = tmp_path / ("x" * 80)
    long.mkdir()
    ran = pokeview(
        "run",
        str(config),
        "--db",
        str(db),
        "--ray",
        env={"RAY_TMPDIR": str(long), "RAY_ADDRESS": ""},
    )
    line = one_clear_line(ran)
    assert "cannot start or join the Ray cluster at auto" in line and "107 bytes" in line
    assert no_games(db)


GUARDED = """
import sys
from ray.cluster_utils import Cluster
made = Cluster(initialize_head=True, head_node_args={
    "num_cpus": 1, "node_ip_address": "127.0.0.1", "include_dashboard": False,
    "temp_dir": sys.argv[1]})
print(made.address, flush=True)
sys.stdin.read()  # until the test closes it
made.shutdown()
"""


def test_a_cluster_that_wants_a_token_the_driver_lacks_is_one_line(tmp_path):
    """Ray's token authentication (on where a token exists, as `ray start` does): a driver
    that joins by address without the token is told what to set, in one line, not Ray's twenty
    lines of retries; with it, it joins. The cluster is its own process, with the token."""
    import subprocess
    import tempfile

    token = os.urandom(16).hex()
    base = tempfile.mkdtemp(prefix="rt-")  # (short: Ray's socket paths have a length limit)
    with_token = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token}
    guarded = subprocess.Popen(
        [sys.executable, "-c", GUARDED, os.path.join(base, "ray")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**with_token, "RAY_TMPDIR": base},
    )
    try:
        address = guarded.stdout.readline().strip()  # type: ignore[union-attr]
        assert address.startswith("127.0.0.1:")
        without = {"RAY_AUTH_MODE": "", "RAY_AUTH_TOKEN": "", "HOME": str(tmp_path)}
        said = pokeview("ray-pool", "status", address, env=without)
        line = one_clear_line(said)
        assert line.startswith(f"pokeview: error: the Ray cluster at {address} wants its token")
        assert "set RAY_AUTH_MODE=token" in line and token not in said.stderr
        joined = pokeview("ray-pool", "status", address, env=with_token)
        assert joined.returncode == 0, joined.stderr
        assert "keeps no pokeview workers" in joined.stdout
    finally:
        guarded.stdin.close()  # type: ignore[union-attr]
        guarded.wait(60)
        shutil.rmtree(base, ignore_errors=True)
