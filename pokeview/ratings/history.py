"""Ratings as games were added: the report's Bradley–Terry fit and bootstrap intervals, refitted
on the first n rated games (in the order they were played, by game id) at a bounded number of
steps (every 50 games of a thousand), so that a thousand games cost a few dozen fits.

Each step fits exactly what the report would fit had the run stopped there (the same games in
the same canonical order, the same anchor, the same bootstrap seed), so the last step is the
report's own ratings and intervals.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokeview.ratings.bradley_terry import BOOTSTRAP_SAMPLES
from pokeview.ratings.summary import anchor_of, fit_with_intervals, game_arrays, ladder_anchors
from pokeview.store.store import Store

STEPS = 24  # about this many fits (one more at most), however many games


@dataclass(frozen=True)
class Rated:
    rating: float
    low: float
    high: float
    games: int  # the player's rated games so far


@dataclass(frozen=True)
class Step:
    games: int  # rated games of the run so far
    last_game: int  # the id of the last of them
    players: dict[str, Rated]  # those with a rated game so far


def step_sizes(total: int, steps: int = STEPS) -> list[int]:
    """How many games each step counts: every multiple of a round stride (1, 2 or 5 times a
    power of ten) that makes at most `steps`, then all of them. Round numbers read well, and
    the steps already drawn stay where they are as games are added."""
    if total <= 0:
        return []
    stride = next(
        m * 10**power for power in range(20) for m in (1, 2, 5) if total <= steps * m * 10**power
    )
    return sorted({*range(stride, total + 1, stride), total})


def rating_history(
    store: Store, run: str | int, steps: int = STEPS, samples: int = BOOTSTRAP_SAMPLES
) -> list[Step]:
    """The run's ratings after each step of games. A step before the anchor (max-damage, or
    the report's choice; a ladder's fixed players) has played is left out: ratings are
    measured from it."""
    run_row = store.run(run)
    rows = store.rating_games(run_row.id)  # the report's canonical order
    names = sorted({r.p1 for r in rows} | {r.p2 for r in rows})
    index = {n: x for x, n in enumerate(names)}
    fixed = {index[n]: float(v) for n, v in ladder_anchors(run_row).items() if n in index}
    anchor = index.get(anchor_of(store, names)[0] or "", -1)
    played = sorted(r.id for r in rows)
    out = []
    for n in step_sizes(len(played), steps):
        counted = set(played[:n])
        some = [r for r in rows if r.id in counted]  # still in the canonical order
        i, j, score, unit = game_arrays(some, index)
        seen = {x for pair in zip(i.tolist(), j.tolist(), strict=True) for x in pair}
        fixed_now = {x: v for x, v in fixed.items() if x in seen}
        if (fixed and not fixed_now) or (not fixed and anchor not in seen):
            continue
        ratings, low, high = fit_with_intervals(
            len(names), i, j, score, unit, anchor, fixed_now, samples
        )
        mine = {x: int((i == x).sum() + (j == x).sum()) for x in seen}
        players = {
            names[x]: Rated(float(ratings[x]), float(low[x]), float(high[x]), mine[x])
            for x in sorted(seen)
        }
        out.append(Step(n, played[n - 1], players))
    return out
