"""Small players used by the tests to reach paths the bots never take."""

from __future__ import annotations

import random
from typing import Any

from poke_env.player import MaxBasePowerPlayer

from pokeview.battle.actions import Action
from pokeview.players.base import Decision, DecisionContext, Player


class RefusedOnce(Player):
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


class Raises(Player):
    kind = "test"
    name = "raises"

    def describe(self) -> dict[str, Any]:
        return {"kind": "test"}

    async def decide(self, ctx: DecisionContext) -> Decision:
        if ctx.index >= 2:
            raise RuntimeError("a bug in a player")
        return Decision(0)


class HalfMaxDamage(MaxBasePowerPlayer):
    """A poke-env player of known strength, for `module:Class` ladders: on every other decision
    (by the seeded global `random`) it plays like max-damage, otherwise like random. It beats
    random and loses to max-damage."""

    def choose_move(self, battle: Any) -> Any:
        if random.random() < 0.5:
            return super().choose_move(battle)
        return self.choose_random_move(battle)


class AlwaysSwitches(MaxBasePowerPlayer):
    """A player set up wrong: it switches whenever it can and attacks only when it must. It
    cannot beat random, so a ladder's screening stops it."""

    def choose_move(self, battle: Any) -> Any:
        if battle.available_switches:
            return self.create_order(battle.available_switches[0])
        return self.choose_random_move(battle)


class OrdersItsTeam(MaxBasePowerPlayer):
    """A poke-env player that answers team preview with a whole order, as most ladder bots
    do: its second Pokémon leads, then its sixth, third, first, fourth and fifth."""

    ORDER = "265314"

    def teampreview(self, battle: Any) -> str:
        return f"/team {self.ORDER}"
