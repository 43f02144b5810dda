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
