"""Run configs planned into mirror pairs (runs played on Showdown are in tests/integration)."""

from __future__ import annotations

from pokeview.tournament.config import load_run_config
from pokeview.tournament.schedule import plan
from tests.helpers import BOTS_RUN


def test_config_plans_mirror_pairs_in_every_matchup(tmp_path):
    path = tmp_path / "run.toml"
    path.write_text(BOTS_RUN)
    config = load_run_config(path)
    games = plan(config)
    assert len(games) == 3 * 3 * 2
    assert {(g.p1, g.p2) for g in games if g.pair == 0} == {
        ("random", "max-damage"),
        ("max-damage", "random"),
        ("random", "heuristic"),
        ("heuristic", "random"),
        ("max-damage", "heuristic"),
        ("heuristic", "max-damage"),
    }


def test_a_json_run_config_is_the_same_run_as_its_toml(tmp_path):
    import json
    import tomllib

    toml = tmp_path / "run.toml"
    toml.write_text(BOTS_RUN)
    as_json = tmp_path / "run.json"
    data = {"$schema": "../docs/schemas/run.schema.json", **tomllib.loads(BOTS_RUN)}
    as_json.write_text(json.dumps(data))
    a, b = load_run_config(toml), load_run_config(as_json)
    assert (a.name, a.pairs, a.matchups, a.concurrency) == (
        b.name,
        b.pairs,
        b.matchups,
        b.concurrency,
    )
    assert a.config_hash == b.config_hash  # the editor's schema is not part of what is played


def test_a_run_is_deleted_unless_another_live_process_plays_it(tmp_path):
    import subprocess
    import sys

    import pytest

    from pokeview.errors import PokeviewError
    from pokeview.store import open_store
    from pokeview.tournament.runner import delete_run

    store = open_store(tmp_path / "x.db")
    run = store.claim_run("unplayed", {}, "h", 2, lambda pid: False)
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        store.update_run(run.id, pid=other.pid)
        with pytest.raises(
            PokeviewError, match=f"run 'unplayed' is being played by process {other.pid}"
        ):
            delete_run(store, "unplayed")
    finally:
        other.kill()
        other.wait()
    assert delete_run(store, str(run.id)) == ("unplayed", 0)  # by id; its player is gone now
    assert store.find_run("unplayed") is None
    store.close()
