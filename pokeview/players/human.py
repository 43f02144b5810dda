"""A person at the keyboard: the play screen is told of each decision and answers it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from pokeview.game.decision import How
from pokeview.players.base import Decision, DecisionContext, Player
from pokeview.players.kinds import PlayerKind


class HumanPlayer(Player):
    kind = PlayerKind.HUMAN

    def __init__(self, name: str = "human") -> None:
        self.name = name if name.startswith("human") else f"human:{name}"
        self.waiting: tuple[DecisionContext, asyncio.Future[int]] | None = None
        self.on_decision: Callable[[DecisionContext], None] | None = None  # set by the screen

    def describe(self) -> dict[str, Any]:
        return {"kind": "human", "player": self.name}

    async def decide(self, ctx: DecisionContext) -> Decision:
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.waiting = (ctx, future)
        if self.on_decision:
            self.on_decision(ctx)
        try:
            index = await future
        finally:
            self.waiting = None
        return Decision(index, how=How.CHOSEN)

    def choose(self, index: int) -> bool:
        """The person's pick (0-based); False when nothing is being asked or it is out of range."""
        if self.waiting is None:
            return False
        ctx, future = self.waiting
        if not 0 <= index < len(ctx.actions) or future.done():
            return False
        future.set_result(index)
        return True
