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
