"""Replays a side's choices from an input log, to rebuild a game's record by re-simulating it."""

from __future__ import annotations

from typing import Any

from pokeview.battle.actions import Action
from pokeview.errors import PlayerFailed
from pokeview.game.decision import How
from pokeview.players.base import Decision, DecisionContext, Player
from pokeview.players.kinds import PlayerKind

ENDINGS = (">forcelose ", ">forcewin ", ">forcetie")


class InputLogEnds(Exception):  # noqa: N818 (not an error: how the recorded game ended)
    """The recorded choices ran out where the input log ends the battle without one."""

    def __init__(self, line: str, cause: str | None = None) -> None:
        super().__init__(line)
        self.line = line
        self.cause = cause  # battle/endings.py's word for it, when known (a server's log)


def ending(lines: list[str]) -> str | None:
    """The line that ended the battle without a choice (a forfeit, a loss on time), if any."""
    return next((line for line in reversed(lines) if line.startswith(ENDINGS)), None)


class RecordedPlayer(Player):
    def __init__(
        self,
        side: str,
        choices: list[str],
        source: str,
        stop_on_refusal: bool = False,
        *,
        as_player: Player | None = None,
        made: list[Decision] | None = None,
        ending: str | None = None,
        cause: str | None = None,
    ) -> None:
        """`as_player`: the player who made these choices, when known (its name, kind and
        settings go to the record); `made`: how each choice was first made; `ending`: the
        input log's last line when the battle ended without a choice (`>forcelose p2`);
        `cause`: why, in battle/endings.py's words, when known."""
        self.name = as_player.name if as_player else f"recorded:{side}"
        self.kind = as_player.kind if as_player else PlayerKind.RECORDED
        self.description: dict[str, Any] = (
            as_player.describe() if as_player else {"kind": "recorded", "source": source}
        )
        self.choices = list(choices)
        self.source = source
        self.stop_on_refusal = stop_on_refusal  # as Pokéval's oracle: an illegal choice ends it
        self.made = made or []
        self.used = 0
        self.ending = ending
        self.cause = cause

    def describe(self) -> dict[str, Any]:
        return self.description

    async def decide(self, ctx: DecisionContext) -> Decision:
        if ctx.refusal and self.stop_on_refusal:
            raise PlayerFailed(f"a recorded choice was refused at turn {ctx.turn}: {ctx.refusal}")
        if not self.choices:
            if self.ending:
                raise InputLogEnds(self.ending, self.cause)
            raise PlayerFailed("the input log ends before the battle does")
        choice = self.choices.pop(0)
        index = match(choice, ctx.actions)
        if index is None:  # a choice in Showdown's own words: send it as it was written
            ctx.actions.append(Action(choice, choice, "move"))
            index = len(ctx.actions) - 1
        # The same request gives the same actions: a first decision naming the same action is
        # this one (looking a little ahead, past choices the server refused).
        for ahead, first in enumerate(self.made[self.used : self.used + 3]):
            if first.action == index:
                self.used += ahead + 1
                return Decision(index, how=first.how, detail=first.detail)
        return Decision(index, how=How.RECORDED)


def split_input_log(lines: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """An input log's header (>start, >player) and each side's choices, in order."""
    header = [line for line in lines if line.startswith((">start ", ">player "))]
    choices: dict[str, list[str]] = {"p1": [], "p2": []}
    for line in lines:
        if line.startswith((">p1 ", ">p2 ")):
            choices[line[1:3]].append(line[4:])
    return header, choices


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
        return _team_order(choice, actions)
    return None


def team_order(choice: str) -> list[int]:
    """The slots of a team-preview choice, in order: "team 2, 6, 3" or "team 263" (as
    Showdown reads it: commas if there are any, else one digit a slot)."""
    rest = choice.split(None, 1)[1] if " " in choice.strip() else ""
    parts = rest.split(",") if "," in rest else list(rest.replace(" ", ""))
    return [int(p) for p in parts if p.strip().isdigit()]


def _team_order(choice: str, actions: list[Action]) -> int | None:
    """A lead names the action of that lead when the order is the one Showdown makes of the
    lead alone (the others after it in team order); any other order is an action of its own,
    sent as it was written, since the rest of the order decides who `switch N` brings in."""
    order = team_order(choice)
    slots = {a.slot: i for i, a in enumerate(actions) if a.kind == "lead"}
    if not order or order[0] not in slots:
        return None
    lead = order[0]
    usual = [a.slot for a in actions if a.kind == "lead" and a.slot != lead]
    if order[1:] == usual[: len(order) - 1]:
        return slots[lead]
    names = {a.slot: a.label.removeprefix("lead ") for a in actions if a.kind == "lead"}
    rest = ", ".join(names.get(slot, str(slot)) for slot in order[1:])
    label = f"{actions[slots[lead]].label}, then {rest}"
    actions.append(Action(label, choice, "lead", slot=lead, name=actions[slots[lead]].name))
    return len(actions) - 1
