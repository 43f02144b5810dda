"""How long a run has left, from how long its games take.

Games of one matchup take alike, and matchups differ by orders of magnitude (two bots play in a
second, a slow model for minutes), so a run-wide mean is wrong whenever the slow games are the
last to go. Each game still to play is given the mean time of its matchup so far, the games the
run recorded before a restart included. A matchup with no game over yet is given the mean of
every game so far, or twice the time its longest running game has taken, whichever is longer
(with nothing else to go by, a game is as likely to be half done as not). The games are laid
out on the run's concurrent slots in the order they start: the run ends when its last slot is
free.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from pokeview.tournament.schedule import PlannedGame

# A game running past its matchup's mean is given this share of the time it has run still to
# go: the estimate neither sits at zero nor stands still while a long game plays on (seen: a
# slow model's last game, 2m40s past its mean, shown as `left ~0m07s` throughout).
OVERDUE_SHARE = 0.25


def matchup(p1: str, p2: str) -> tuple[str, str]:
    """Both seats of a matchup are one matchup."""
    a, b = sorted((p1, p2))
    return a, b


@dataclass
class GameClock:
    """The games still to play of a run, in the order they start, and the time each game took."""

    todo: Sequence[PlannedGame]
    slots: int  # games at once
    names: dict[str, str] = field(default_factory=dict)  # spec: the name its games are recorded by
    started_count: int = 0
    running: dict[PlannedGame, float] = field(default_factory=dict)  # game: when it started
    times: dict[tuple[str, str], list[float]] = field(default_factory=dict)

    def of(self, game: PlannedGame) -> tuple[str, str]:
        return matchup(self.names.get(game.p1, game.p1), self.names.get(game.p2, game.p2))

    def recorded(self, p1: str, p2: str, seconds: float) -> None:
        """A game the run finished before (by its players' recorded names)."""
        self.times.setdefault(matchup(p1, p2), []).append(seconds)

    def started(self, game: PlannedGame) -> None:
        self.started_count += 1
        self.running[game] = time.monotonic()

    def ended(self, game: PlannedGame, *, counted: bool = True) -> None:
        """A game is over; its time counts unless it was cut short (interrupted)."""
        began = self.running.pop(game, None)
        if counted and began is not None:
            self.times.setdefault(self.of(game), []).append(time.monotonic() - began)

    def seconds_left(self, now: float | None = None) -> float | None:
        """None until a game has ended (there is nothing to go by)."""
        all_times = [t for times in list(self.times.values()) for t in times]
        if not all_times:
            return None
        now = time.monotonic() if now is None else now
        overall = sum(all_times) / len(all_times)
        running = list(self.running.items())
        longest: dict[tuple[str, str], float] = {}
        for game, began in running:
            key = self.of(game)
            longest[key] = max(longest.get(key, 0.0), now - began)

        def mean(game: PlannedGame) -> float:
            key = self.of(game)
            times = self.times.get(key)
            return sum(times) / len(times) if times else max(overall, 2 * longest.get(key, 0.0))

        slots = [
            max(mean(game) - (now - began), OVERDUE_SHARE * (now - began))
            for game, began in running
        ]
        slots += [0.0] * max(self.slots - len(slots), 0)
        heapq.heapify(slots)
        for game in self.todo[self.started_count :]:
            heapq.heappush(slots, heapq.heappop(slots) + mean(game))
        return max(slots) if self.running or self.started_count < len(self.todo) else 0.0
