"""How long a run has left, from how long its games take.

Games of one matchup take alike, and matchups differ by orders of magnitude (two bots play in a
second, a slow model for minutes), so a run-wide mean is wrong whenever the slow games are the
last to go. Each game still to play is given the mean time of its matchup so far (the mean of
every game so far while its matchup has none), and the games are laid out on the run's
concurrent slots in the order they start: the run ends when its last slot is free.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from pokeview.tournament.schedule import PlannedGame

# A game running past its matchup's mean is given this share of the mean still to go, so the
# estimate does not sit at zero while it plays on.
OVERDUE_SHARE = 0.1


def matchup(game: PlannedGame) -> tuple[str, str]:
    """Both seats of a matchup are one matchup."""
    a, b = sorted((game.p1, game.p2))
    return a, b


@dataclass
class GameClock:
    """The games still to play of a run, in the order they start, and the time each game took."""

    todo: Sequence[PlannedGame]
    slots: int  # games at once
    started_count: int = 0
    running: dict[PlannedGame, float] = field(default_factory=dict)  # game: when it started
    times: dict[tuple[str, str], list[float]] = field(default_factory=dict)

    def started(self, game: PlannedGame) -> None:
        self.started_count += 1
        self.running[game] = time.monotonic()

    def ended(self, game: PlannedGame, *, counted: bool = True) -> None:
        """A game is over; its time counts unless it was cut short (interrupted)."""
        began = self.running.pop(game, None)
        if counted and began is not None:
            self.times.setdefault(matchup(game), []).append(time.monotonic() - began)

    def seconds_left(self, now: float | None = None) -> float | None:
        """None until a game has ended (there is nothing to go by)."""
        all_times = [t for times in list(self.times.values()) for t in times]
        if not all_times:
            return None
        now = time.monotonic() if now is None else now
        overall = sum(all_times) / len(all_times)

        def mean(game: PlannedGame) -> float:
            times = self.times.get(matchup(game))
            return sum(times) / len(times) if times else overall

        slots = [
            max(mean(game) - (now - began), OVERDUE_SHARE * mean(game))
            for game, began in list(self.running.items())
        ]
        slots += [0.0] * max(self.slots - len(slots), 0)
        heapq.heapify(slots)
        for game in self.todo[self.started_count :]:
            heapq.heappush(slots, heapq.heappop(slots) + mean(game))
        return max(slots) if self.running or self.started_count < len(self.todo) else 0.0
