"""Small players used by the tests to reach paths the bots never take."""

from __future__ import annotations

from typing import Any

from pokeview.battle.actions import Action
from pokeview.players.base import Decision, DecisionContext


class RefusedOnce:
    """Its first choice is one Showdown refuses; then it takes the first legal action."""

    kind = "test"
    name = "refused-once"

    def __init__(self) -> None:
        self.contexts: list[DecisionContext] = []

    def describe(self) -> dict[str, Any]:
        return {"kind": "test"}

    async def decide(self, ctx: DecisionContext) -> Decision:
        self.contexts.append(ctx)
        if len(self.contexts) == 1:
            ctx.actions.append(Action("switch Nobody", "switch 9", "switch", slot=9))
            return Decision(len(ctx.actions) - 1)
        return Decision(0)


class Raises:
    kind = "test"
    name = "raises"

    def describe(self) -> dict[str, Any]:
        return {"kind": "test"}

    async def decide(self, ctx: DecisionContext) -> Decision:
        if ctx.index >= 2:
            raise RuntimeError("a bug in a player")
        return Decision(0)
