"""A player's most telling decisions: its longest reasoning, and every decision where it did not
simply answer (asked again, refused by Showdown, a random pick, autopilot). Collected one
decision at a time, keeping a few of each kind per player (bounded however many games).
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from pokeview.game.decision import How, ModelDetail
from pokeview.store.rows import DecisionRow

EXCERPT = 320  # characters of reasoning or of a reason shown
MOST = 5  # decisions kept of each kind, per player

# Each kind: its key, a heading, and what a decision of it did (for "none of its decisions …"),
# in the order a page shows them.
KINDS = (
    ("reasoning", "longest reasoning", "had reasoning"),
    ("reask", "asked again (an answer named no legal action)", "was asked again"),
    ("refused", "refused by Showdown (an illegal choice)", "was refused by Showdown"),
    ("random", "random picks (no answer named a legal action)", "was a random pick"),
    ("autopilot", "autopilot (the provider failed)", "was on autopilot"),
)


@dataclass(frozen=True, order=True)
class Telling:
    game_id: int
    idx: int
    side: str
    turn: int
    size: int  # the reasoning's length in characters
    note: str  # an excerpt of the reasoning, or what went wrong


@dataclass
class Kept:
    """Of one kind: how many there were, and the few kept."""

    count: int = 0
    heap: list[tuple[tuple[int, ...], Telling]] = field(default_factory=list)  # lowest first

    def offer(self, rank: tuple[int, ...], telling: Callable[[], Telling]) -> None:
        """Keep the MOST with the highest rank; `telling` is made only for one kept."""
        self.count += 1
        if len(self.heap) < MOST:
            heapq.heappush(self.heap, (rank, telling()))
        elif rank > self.heap[0][0]:
            heapq.heapreplace(self.heap, (rank, telling()))

    def shown(self) -> list[Telling]:
        return [t for _, t in sorted(self.heap, reverse=True)]


def excerpt(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= EXCERPT else text[: EXCERPT - 1] + "…"


def _problems(d: DecisionRow, detail: ModelDetail | None) -> dict[str, str]:
    """What went wrong in this decision, by kind, in words."""
    out: dict[str, str] = {}
    if detail is not None and detail.reasks:
        asked = [
            f"{a.action_text!s}: {a.problem}" if isinstance(a.action_text, str) else str(a.problem)
            for a in detail.answers
            if isinstance(a.problem, str)
        ]
        out["reask"] = "; ".join(asked) or f"asked again {detail.reasks} time(s)"
    if d.refusals:
        out["refused"] = "; ".join(
            f"{r.get('label') or r.get('choice', '')}: {r.get('error', '')}" for r in d.refusals
        )
    if d.how == How.RANDOM_PICK:
        out["random"] = "no answer named a legal action; a seeded random pick"
    if d.how == How.AUTOPILOT:
        out["autopilot"] = (detail.autopilot if detail else None) or "the provider failed"
    return out


class TellingDecisions:
    """Feed it every decision (`add`); read each player's telling ones (`of`)."""

    def __init__(self) -> None:
        self.players: dict[str, dict[str, Kept]] = {}
        self.decisions: Counter[str] = Counter()  # every decision, by player

    def add(self, player: str, d: DecisionRow) -> None:
        self.decisions[player] += 1
        detail = d.detail if isinstance(d.detail, ModelDetail) else None
        problems = _problems(d, detail)
        if detail is None and not problems:
            return
        kept = self.players.setdefault(player, {key: Kept() for key, _, _ in KINDS})
        # Earlier games first among problems; the longest first among reasonings.
        first = (-d.game_id, -d.idx)
        size = len(detail.reasoning) if detail else 0
        if detail is not None and detail.reasoning:
            reasoning = detail.reasoning
            kept["reasoning"].offer(
                (size, *first),
                lambda: Telling(d.game_id, d.idx, d.side, d.turn, size, excerpt(reasoning)),
            )
        for kind, note in problems.items():
            kept[kind].offer(first, partial(Telling, d.game_id, d.idx, d.side, d.turn, size, note))

    def of(self, player: str) -> dict[str, Kept]:
        return self.players.get(player, {})
