"""Void games (RotomArena): a game in which a model side did not really play.

When a model gives no usable answer (its provider fails, it times out, or its answers name no
legal action), the harness decides for it: PokéBench's random pick, RotomArena's autopilot. Either
way the harness, not the model, chose. RotomArena voids a match in which a side was on autopilot
for more than half of its turns; pokeview voids a game in which a model side's harness-decided
share of its decisions is above the run's `void_autopilot_share` (default 0.5). A void game is
kept and viewable, left out of the ratings, and a run plays it again (under a new id) when it is
started again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pokeview.game.decision import How, ModelDetail

DEFAULT_SHARE = 0.5
HARNESS_DECIDED = (How.AUTOPILOT, How.RANDOM_PICK)  # how a decision was made when the model did not


def void_reason(
    side: str, player: str, decisions: Iterable[Any], share: float = DEFAULT_SHARE
) -> str | None:
    """Why a model side's game is void, or None. `decisions` are that side's DecisionRows."""
    decisions = list(decisions)
    if not decisions:
        return None
    decided = [d for d in decisions if d.how in HARNESS_DECIDED]
    if len(decided) <= share * len(decisions):
        return None
    why = first_failure(decided)
    return (
        f"{player} ({side}) was on autopilot for {len(decided)} of its {len(decisions)} "
        f"decisions ({100 * len(decided) / len(decisions):.0f}%, over "
        f"{100 * share:g}%)" + (f"; first failure: {why}" if why else "")
    )


def first_failure(decisions: Iterable[Any]) -> str | None:
    """The first provider error among these decisions' attempts, else their first reason."""
    reasons = []
    for d in decisions:
        detail = d.detail
        if isinstance(detail, ModelDetail):
            for attempt in detail.attempts:
                if attempt.status == "error" and attempt.error:
                    return attempt.error
        if isinstance(detail, ModelDetail) and detail.autopilot:
            reasons.append(detail.autopilot)
        elif d.how == How.RANDOM_PICK:
            reasons.append("no answer named a legal action")
    return reasons[0] if reasons else None
