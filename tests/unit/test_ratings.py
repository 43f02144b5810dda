"""Bradley–Terry with a weak prior, anchored, with bootstrap intervals drawn by mirror pair."""

from __future__ import annotations

import numpy as np
import pytest

from pokeview.ratings.bradley_terry import bootstrap, fit, score_matrix, wilson


def simulate(true: np.ndarray, pairs: int, rng: np.random.Generator):
    """Mirror pairs between every two players: (i, j, score of i, unit)."""
    k = len(true)
    i, j, s, unit = [], [], [], []
    u = 0
    for _ in range(pairs):
        for a in range(k):
            for b in range(a + 1, k):
                for p1, p2 in ((a, b), (b, a)):
                    p = 1 / (1 + 10 ** ((true[p2] - true[p1]) / 400))
                    i.append(p1), j.append(p2), s.append(float(rng.random() < p)), unit.append(u)
                u += 1
    return np.array(i), np.array(j), np.array(s), np.array(unit)


def test_known_strengths_are_recovered_within_the_intervals():
    true = np.array([1000.0, 1250, 800, 1450, 1100])  # player 0 is the anchor
    i, j, s, unit = simulate(true, pairs=150, rng=np.random.default_rng(7))
    k = len(true)
    r = fit(score_matrix(k, i, j, s))
    r = r - r[0] + 1000
    boot = bootstrap(k, i, j, s, unit, seed=1)
    boot = boot - boot[:, [0]] + 1000
    low, high = np.percentile(boot, [2.5, 97.5], axis=0)
    assert np.all(low <= true) and np.all(true <= high), (low, true, high)
    assert np.all(np.abs(r - true) < 60)
    assert low[0] == high[0] == 1000  # the anchor's interval is 1000–1000
    assert list(np.argsort(-r)) == [3, 1, 4, 0, 2]


def test_ties_count_half_and_an_all_win_player_stays_finite():
    i = np.array([0, 1, 0, 1])
    j = np.array([1, 0, 1, 0])
    r = fit(score_matrix(2, i, j, np.full(4, 0.5)))
    assert r[0] == pytest.approx(r[1])
    # Player 0 wins every game: the prior keeps its rating finite.
    i, j = np.array([0] * 20 + [1] * 20), np.array([1] * 20 + [0] * 20)
    s = np.array([1.0] * 20 + [0.0] * 20)
    r = fit(score_matrix(2, i, j, s))
    assert np.isfinite(r).all() and 300 < r[0] - r[1] < 3000
    # One tie beside one win is worth 0.75 of the games: between 50% and 100%.
    r2 = fit(score_matrix(2, np.array([0, 0]), np.array([1, 1]), np.array([1.0, 0.5])))
    assert 0 < r2[0] - r2[1] < r[0] - r[1]


def test_bootstrap_draws_whole_mirror_pairs():
    # In every pair, each player wins once: the luck of the pair cancels out exactly.
    pairs = 60
    i = np.tile([0, 1], pairs)
    j = np.tile([1, 0], pairs)
    s = np.ones(2 * pairs)  # p1 always wins: the seat decides, not the player
    by_pair = bootstrap(2, i, j, s, np.repeat(np.arange(pairs), 2), seed=3)
    by_game = bootstrap(2, i, j, s, np.arange(2 * pairs), seed=3)
    assert np.ptp(by_pair[:, 0] - by_pair[:, 1]) == pytest.approx(0, abs=1e-6)
    assert np.ptp(by_game[:, 0] - by_game[:, 1]) > 50


def test_wilson_interval():
    low, high = wilson(9, 10)
    assert 0.59 < low < 0.6 and 0.98 < high < 0.99
    assert wilson(0, 0) == (0.0, 1.0)
