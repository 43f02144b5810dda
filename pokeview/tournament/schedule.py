"""The games a run plans: for every pair k and matchup (A, B), A–B and B–A on pair k's seed."""

from __future__ import annotations

from dataclasses import dataclass

from pokeview.tournament.config import RunConfig


@dataclass(frozen=True, slots=True)
class PlannedGame:
    pair: int
    seat: int  # 0: the matchup's first player is p1; 1: seats swapped
    p1: str
    p2: str


def plan(config: RunConfig) -> list[PlannedGame]:
    """Pair-major order, so an interrupted run has whole pairs done rather than whole matchups."""
    games = []
    for pair in range(config.pairs):
        for a, b in config.matchups:
            games.append(PlannedGame(pair, 0, a, b))
            games.append(PlannedGame(pair, 1, b, a))
    return games
