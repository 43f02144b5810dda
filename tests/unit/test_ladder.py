"""The ladder's anchored fit (its games on Showdown are in tests/integration/test_ladder.py)."""

from __future__ import annotations

import numpy as np

from pokeview.ratings.bradley_terry import fit, fit_anchored


def test_anchored_fit_holds_its_anchors_and_agrees_with_one_anchor_shifted():
    m = np.array([[0, 8, 9], [2, 0, 6], [1, 4, 0.0]])
    two = fit_anchored(m, {1: 1000.0, 0: 1200.0})
    assert two[0] == 1200 and two[1] == 1000 and two[2] < 1000
    one = fit_anchored(m, {1: 1000.0})
    shifted = fit(m) - fit(m)[1] + 1000
    assert one[1] == 1000 and np.allclose(one, shifted, atol=5)  # only the prior's centre differs


def test_a_ladder_config_is_declared_once_and_a_broken_record_is_one_line(tmp_path):
    import orjson
    import pytest

    from pokeview.errors import PokeviewError
    from pokeview.store import open_store
    from pokeview.store.rows import dumps
    from pokeview.tournament import ladder

    store = open_store(tmp_path / "x.db")
    made = ladder.create_ladder(store, "lad", anchors=["max-damage=1000"], players=["heuristic"])
    stored = orjson.loads(orjson.dumps(made.config))
    assert list(stored) == [
        "kind", "name", "seed", "format", "turn_limit", "anchors", "sparring", "players",
        "set_pairs", "screen_pairs", "players_file", "sets", "budget",
    ]  # fmt: skip
    assert ladder.load_ladder(store, "lad").config == stored
    broken = {**stored, "sets": [{"a": "random", "b": "heuristic", "pairs": [0]}]}
    store.update_run(made.run_id, config=dumps(broken))
    with pytest.raises(PokeviewError) as said:
        ladder.load_ladder(store, "lad")
    assert str(said.value) == "ladder 'lad': its stored config: sets[0].why: required, but missing"
    store.close()
