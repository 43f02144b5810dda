"""Replays a side's choices from an input log, to rebuild a game's record by re-simulating it."""

from __future__ import annotations

from typing import Any

from pokeview.battle.actions import Action
from pokeview.errors import PlayerFailed
from pokeview.players.base import Decision, DecisionContext


class RecordedPlayer:
    kind = "recorded"

    def __init__(
        self, side: str, choices: list[str], source: str, stop_on_refusal: bool = False
    ) -> None:
        self.name = f"recorded:{side}"
        self.choices = list(choices)
        self.source = source
        self.stop_on_refusal = stop_on_refusal  # as Pokéval's oracle: an illegal choice ends it
        self.description: dict[str, Any] = {"kind": "recorded", "source": source}
        # How each choice was first made, when known (a game played on the local server).
        self.details: list[dict[str, Any]] = []
        self.used = 0

    def describe(self) -> dict[str, Any]:
        return self.description

    async def decide(self, ctx: DecisionContext) -> Decision:
        if ctx.refusal and self.stop_on_refusal:
            raise PlayerFailed(f"a recorded choice was refused at turn {ctx.turn}: {ctx.refusal}")
        if not self.choices:
            raise PlayerFailed("the input log ends before the battle does")
        choice = self.choices.pop(0)
        index = match(choice, ctx.actions)
        if index is None:  # a choice in Showdown's own words: send it as it was written
            ctx.actions.append(Action(choice, choice, "move"))
            index = len(ctx.actions) - 1
        # The same request gives the same actions: a first decision naming the same action is
        # this one (looking a little ahead, past choices the server refused).
        for ahead, first in enumerate(self.details[self.used : self.used + 3]):
            if first.get("action") == index:
                self.used += ahead + 1
                return Decision(index, how=first["how"], detail=first["detail"])
        return Decision(index, how="recorded")


def match(choice: str, actions: list[Action]) -> int | None:
    """The legal action an input-log choice names ("move leafstorm terastallize", "switch 3")."""
    words = choice.split()
    if not words:
        return None
    for index, action in enumerate(actions):
        if action.choice == choice:
            return index
    if words[0] == "move" and len(words) >= 2:
        gimmick = words[2] if len(words) > 2 else None
        for index, action in enumerate(actions):
            if action.kind == "move" and action.move_id == words[1] and action.gimmick == gimmick:
                return index
    if words[0] == "team" and len(words) >= 2 and words[1][:1].isdigit():
        slot = int(words[1][0])
        return next((i for i, a in enumerate(actions) if a.slot == slot), None)
    return None
