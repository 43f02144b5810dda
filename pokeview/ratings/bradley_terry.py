"""Bradley–Terry on the Elo scale, fitted to all games at once (PokéBench, section 5).

P(A beats B) = 1 / (1 + 10^((R_B - R_A) / 400)); a tie counts half a win for each side. A weak
Gaussian prior (one standard deviation of 800 points around the average) keeps a rating finite
when a player wins or loses every game. The fit works on aggregated score matrices, so its cost
depends on the number of players, not of games; the bootstrap fits all samples at once.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

SCALE = 400 / math.log(10)  # Elo points per unit of log-odds
PRIOR_SD = 800.0
BOOTSTRAP_SAMPLES = 200


def fit(scores: np.ndarray, prior_sd: float = PRIOR_SD, iterations: int = 50) -> np.ndarray:
    """Ratings (mean 0) from score matrices.

    `scores` is (k, k) or a batch (b, k, k): scores[..., i, j] is what i scored against j
    (1 per win, 0.5 per tie). Newton's method on the penalised log-likelihood.
    """
    batch = scores if scores.ndim == 3 else scores[None]
    b, k, _ = batch.shape
    games = batch + batch.transpose(0, 2, 1)
    r = np.zeros((b, k))
    eye = np.eye(k)
    for _ in range(iterations):
        diff = (r[:, :, None] - r[:, None, :]) / SCALE
        p = 1 / (1 + np.exp(-diff))  # p[i, j]: chance that i beats j
        grad = (batch - games * p).sum(axis=2) / SCALE - r / prior_sd**2
        w = games * p * (1 - p) / SCALE**2
        hess = w - eye * w.sum(axis=2)[:, :, None] - eye / prior_sd**2
        step = np.linalg.solve(hess, grad[:, :, None])[:, :, 0]
        r = r - step
        if np.abs(step).max() < 1e-9:
            break
    return r if scores.ndim == 3 else r[0]


def score_matrix(k: int, i: np.ndarray, j: np.ndarray, score: np.ndarray) -> np.ndarray:
    """Games (p1 index i, p2 index j, p1's score) into a (k, k) score matrix."""
    m = np.zeros((k, k))
    np.add.at(m, (i, j), score)
    np.add.at(m, (j, i), 1 - score)
    return m


def bootstrap(
    k: int,
    i: np.ndarray,
    j: np.ndarray,
    score: np.ndarray,
    unit: np.ndarray,
    samples: int = BOOTSTRAP_SAMPLES,
    seed: int = 0,
    prior_sd: float = PRIOR_SD,
    anchors: dict[int, float] | None = None,
) -> np.ndarray:
    """Ratings of `samples` resamples of whole units (mirror pairs), shape (samples, k).

    Each sample draws as many units as there are, with repeats; a unit's games come together,
    since the two games of a mirror pair share their luck.
    """
    units = int(unit.max()) + 1 if len(unit) else 0
    if units == 0:
        return (
            fit_anchored(np.zeros((samples, k, k)), anchors) if anchors else np.zeros((samples, k))
        )
    flat_ij = i * k + j
    flat_ji = j * k + i
    # (units, k*k): each unit's contribution to the score matrix.
    contrib = sp.csr_matrix(
        (
            np.concatenate([score, 1 - score]),
            (np.concatenate([unit, unit]), np.concatenate([flat_ij, flat_ji])),
        ),
        shape=(units, k * k),
    )
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, units, size=(samples, units))
    counts = sp.csr_matrix(
        (np.ones(draws.size), (np.repeat(np.arange(samples), units), draws.ravel())),
        shape=(samples, units),
    )
    matrices = (counts @ contrib).toarray().reshape(samples, k, k)
    if anchors:  # a ladder's fixed players: each sample is refitted around them
        return fit_anchored(matrices, anchors, prior_sd)
    return fit(matrices, prior_sd)


def wilson(successes: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score 95% interval for a proportion (ties counted as half a success)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def fit_anchored(
    scores: np.ndarray,
    anchors: dict[int, float],
    prior_sd: float = PRIOR_SD,
    iterations: int = 50,
) -> np.ndarray:
    """Ratings on the Elo scale with some players fixed (a ladder's anchors), from score matrices.

    `anchors` maps a player's index to its fixed rating. The other ratings are fitted by Newton's
    method with the same weak prior as `fit`, centred on the anchors' mean rating, so that a
    player with no games sits there. `scores` is (k, k) or a batch (b, k, k).
    """
    batch = scores if scores.ndim == 3 else scores[None]
    b, k, _ = batch.shape
    fixed = np.zeros(k, dtype=bool)
    r = np.zeros((b, k))
    for index, value in anchors.items():
        fixed[index] = True
        r[:, index] = value
    centre = float(np.mean(list(anchors.values()))) if anchors else 0.0
    free = np.flatnonzero(~fixed)
    r[:, free] = centre
    if len(free):
        games = batch + batch.transpose(0, 2, 1)
        eye = np.eye(len(free))
        for _ in range(iterations):
            diff = (r[:, :, None] - r[:, None, :]) / SCALE
            p = 1 / (1 + np.exp(-diff))
            grad = (batch - games * p).sum(axis=2) / SCALE - (r - centre) / prior_sd**2
            w = games * p * (1 - p) / SCALE**2
            full = w - np.eye(k) * w.sum(axis=2)[:, :, None]
            hess = full[:, free][:, :, free] - eye / prior_sd**2
            step = np.linalg.solve(hess, grad[:, free][:, :, None])[:, :, 0]
            r[:, free] -= step
            if np.abs(step).max() < 1e-9:
                break
    return r if scores.ndim == 3 else r[0]


def anchored_covariance(
    scores: np.ndarray, ratings: np.ndarray, anchors: dict[int, float], prior_sd: float = PRIOR_SD
) -> np.ndarray:
    """The ratings' covariance (Elo points squared) by the normal approximation at the fit of
    `fit_anchored`: the inverse of the penalised log-likelihood's curvature; anchors have none.

    Unlike a bootstrap by mirror pair, it stays wide while a matchup has had few games: one
    pair won twice says little, though every resample of it says the same.
    """
    k = len(ratings)
    free = np.array([x for x in range(k) if x not in anchors], dtype=int)
    cov = np.zeros((k, k))
    if not len(free):
        return cov
    games = scores + scores.T
    diff = (ratings[:, None] - ratings[None, :]) / SCALE
    p = 1 / (1 + np.exp(-diff))
    w = games * p * (1 - p) / SCALE**2
    information = np.diag(w.sum(axis=1)) - w + np.eye(k) / prior_sd**2
    cov[np.ix_(free, free)] = np.linalg.inv(information[np.ix_(free, free)])
    return cov
