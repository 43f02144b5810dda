"""The ratings report of one run or of all games: ratings with intervals, win rates, head to
head, and per-player cost, tokens and reliability. Computed from the record, headless."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from pokeview.ratings.bradley_terry import bootstrap, fit, fit_anchored, score_matrix, wilson
from pokeview.ratings.decisions import player_decision_stats
from pokeview.store.rows import GameLine
from pokeview.store.store import Store

ANCHOR = "max-damage"
PROVISIONAL_UNDER = 16
ESTIMATES_NOTE = (
    "est.: the provider reported estimated token counts (pokeview's loopback test model counts "
    "characters ÷ 4), and the cost is priced from them."
)


@dataclass
class PlayerLine:
    name: str
    rating: float
    low: float
    high: float
    games: int
    wins: int
    losses: int
    ties: int
    win_rate: float
    win_low: float
    win_high: float
    provisional: bool
    decisions: int = 0
    cost_per_game: float | None = None  # USD; None when unknown or no model
    output_tokens_per_decision: float | None = None
    tokens_estimated: bool = False  # some counts came from the provider as estimates (loopback)
    ms_per_decision: float | None = None
    reask_rate: float | None = None
    random_pick_rate: float | None = None
    autopilot_rate: float | None = None


@dataclass
class Report:
    scope: str  # "run NAME" or "all games"
    header: dict[str, Any] | None
    anchor: str | None
    anchor_note: str
    players: list[PlayerLine]
    head_to_head: dict[str, dict[str, list[float]]]  # [row][col] = [row's score, games]
    games: int
    excluded_errors: int
    samples: int
    extra: dict[str, Any] = field(default_factory=dict)
    # Void games (left out): per player, the games it made void by playing on autopilot.
    void_games: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def void_counts(store: Store, run_id: int | None) -> dict[str, int]:
    """Void games per player whose autopilot made them void (the reason names the side)."""
    counts: dict[str, int] = {}
    for game in store.void_games(run_id):
        for side, name in game.players.items():
            if f"({side}) was on autopilot" in (game.error or ""):
                counts[name] = counts.get(name, 0) + 1
    return dict(sorted(counts.items()))


def _bot_names(store: Store, names: list[str]) -> list[str]:
    kinds = store.player_kinds()
    return [n for n in names if kinds.get(n) == "bot"]


def build_report(store: Store, run: str | int | None = None, samples: int = 200) -> Report:
    run_row = store.run(run) if run is not None else None
    rows = store.rating_games(run_row.id if run_row else None)
    void = void_counts(store, run_row.id if run_row else None)
    names = sorted({r.p1 for r in rows} | {r.p2 for r in rows})
    index = {n: x for x, n in enumerate(names)}
    k = len(names)
    i, j, score, unit = game_arrays(rows, index)
    anchor, note = anchor_of(store, names)
    if k == 0:
        return Report(
            _scope(run_row),
            run_row.header if run_row else None,
            anchor,
            note,
            [],
            {},
            0,
            store.error_games(run_row.id if run_row else None),
            0,
            void_games=void,
        )
    fixed = {index[n]: float(v) for n, v in ladder_anchors(run_row).items() if n in index}
    if fixed:  # a ladder: its anchors are fixed where its owner put them
        anchor = names[min(fixed)]
        note = "fixed: " + ", ".join(f"{names[x]} at {v:g}" for x, v in sorted(fixed.items()))
    assert anchor is not None  # there are players: one of them is the anchor
    ratings, low, high = fit_with_intervals(k, i, j, score, unit, index[anchor], fixed, samples)
    lines = []
    for name, x in index.items():
        mine = (i == x) | (j == x)
        my_score = np.where(i == x, score, 1 - score)[mine]
        wins, losses = int((my_score == 1).sum()), int((my_score == 0).sum())
        ties = int((my_score == 0.5).sum())
        n = int(mine.sum())
        w_low, w_high = wilson(float(my_score.sum()), n)
        lines.append(
            PlayerLine(
                name,
                float(ratings[x]),
                float(low[x]),
                float(high[x]),
                n,
                wins,
                losses,
                ties,
                float(my_score.mean()) if n else 0.0,
                w_low,
                w_high,
                n < PROVISIONAL_UNDER,
            )
        )
    _decision_stats(store, rows, lines)
    lines.sort(key=lambda line: -line.rating)
    head: dict[str, dict[str, list[float]]] = {a: {} for a in names}
    for a_i, b_i, s in zip(i.tolist(), j.tolist(), score.tolist(), strict=True):
        a, b = names[a_i], names[b_i]
        head[a].setdefault(b, [0.0, 0])
        head[b].setdefault(a, [0.0, 0])
        head[a][b][0] += s
        head[a][b][1] += 1
        head[b][a][0] += 1 - s
        head[b][a][1] += 1
    return Report(
        _scope(run_row),
        run_row.header if run_row else None,
        anchor,
        note,
        lines,
        head,
        len(rows),
        store.error_games(run_row.id if run_row else None),
        samples,
        void_games=void,
    )


def game_arrays(
    rows: list[GameLine], index: dict[str, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rated games as arrays: p1's and p2's index, p1's score, and each game's bootstrap unit
    (the two games of a mirror pair, same run, pair and players, go together)."""
    i = np.array([index[r.p1] for r in rows], dtype=int)
    j = np.array([index[r.p2] for r in rows], dtype=int)
    score = np.array([1.0 if r.winner == "p1" else 0.0 if r.winner == "p2" else 0.5 for r in rows])
    unit_keys: dict[tuple[Any, ...], int] = {}
    unit = np.array(
        [
            unit_keys.setdefault(
                (r.run_id, r.pair, *sorted((r.p1, r.p2)))
                if r.run_id is not None
                else ("game", r.id),
                len(unit_keys),
            )
            for r in rows
        ],
        dtype=int,
    )
    return i, j, score, unit


def fit_with_intervals(
    k: int,
    i: np.ndarray,
    j: np.ndarray,
    score: np.ndarray,
    unit: np.ndarray,
    anchor: int,
    fixed: dict[int, float],
    samples: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ratings and their 95% bootstrap intervals: around a ladder's `fixed` players, or with
    `anchor` at 1000. The bootstrap's seed is the number of games, so the same games always
    give the same intervals (the report's, and the rating history's last point)."""
    if fixed:
        ratings = fit_anchored(score_matrix(k, i, j, score), fixed)
        boot = bootstrap(k, i, j, score, unit, samples=samples, seed=len(i), anchors=fixed)
    else:
        ratings = fit(score_matrix(k, i, j, score))
        boot = bootstrap(k, i, j, score, unit, samples=samples, seed=len(i))
        ratings = ratings + 1000 - ratings[anchor]
        boot = boot - boot[:, [anchor]] + 1000  # each sample shifted by its own anchor
    low, high = np.percentile(boot, [2.5, 97.5], axis=0)
    return ratings, low, high


def ladder_anchors(run_row: Any) -> dict[str, float]:
    """A ladder's anchors (player -> fixed rating); none for a run."""
    if run_row is None or run_row.config.get("kind") != "ladder":
        return {}
    return dict(run_row.config.get("anchors") or {})


def _scope(run_row: Any) -> str:
    if run_row is None:
        return "all games"
    return f"{'ladder' if ladder_anchors(run_row) else 'run'} {run_row.name}"


def anchor_of(store: Store, names: list[str]) -> tuple[str | None, str]:
    if not names:
        return None, "no games"
    if ANCHOR in names:
        return ANCHOR, "max-damage is fixed at 1000"
    bots = _bot_names(store, names)
    if bots:
        return bots[0], f"max-damage did not play; {bots[0]} (the first bot) is fixed at 1000"
    return names[0], f"no bot played; {names[0]} is fixed at 1000"


def _decision_stats(store: Store, rows: list[GameLine], lines: list[PlayerLine]) -> None:
    """Cost, tokens, time and reliability per player, from their decisions in these games."""
    if not rows:
        return
    by_name = {line.name: line for line in lines}
    for stats in player_decision_stats(store, [r.id for r in rows]):
        line = by_name.get(stats.player)
        if line is None:
            continue
        n = line.decisions = stats.decisions
        line.ms_per_decision = stats.ms_total / n if n else None
        if stats.model_decisions:
            out, with_usage, cost = stats.output_tokens, stats.with_usage, stats.cost
            line.output_tokens_per_decision = (out / with_usage) if with_usage else None
            line.tokens_estimated = stats.estimated
            line.reask_rate = stats.reasks / n
            line.random_pick_rate = stats.random_picks / n
            line.autopilot_rate = stats.autopilot / n
            line.cost_per_game = None if stats.unknown_cost or cost is None else cost / line.games
