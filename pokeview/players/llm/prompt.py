"""PokéBench's prompt, version 3: the system prompt, the first message and each later message.

A pure function of one side's record: the list of that side's updates from the bridge (battle-log
words, requests and the side's state at each of its requests), exactly as stored in the events
table. The model player renders from the updates it has seen so far; `pokeview prompt` renders
from the record; both give the same bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pokeview.battle.actions import Action, legal_actions
from pokeview.game.side import Condition, MoveInfo, Pokemon, SideState
from pokeview.store.events import Side

PROMPT_VERSION = 3
CLOSING = "Choose one action. Answer with only the ACTION line and the REASON line."
_SYSTEM_FILE = Path(__file__).with_name("system-prompt-v3.txt")
_PREFIX = "You are a player in a Pokémon battle on Pokémon Showdown. The format is "
_RANDOM_BATTLE = "[Gen 9] Random Battle"


@cache
def _system_template() -> str:
    return _SYSTEM_FILE.read_text(encoding="utf-8")


def system_prompt(format_name: str = _RANDOM_BATTLE) -> str:
    """Verbatim for Gen 9 Random Battle; other formats get their name in the first line."""
    text = _system_template()
    if format_name == _RANDOM_BATTLE:
        return text
    return text.replace(_PREFIX + _RANDOM_BATTLE, _PREFIX + format_name, 1)


# -- where decisions are -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    index: int  # the side's decision number
    update: int  # position of the update holding its request
    request: dict[str, Any]
    state: SideState

    @property
    def actions(self) -> list[Action]:
        return legal_actions(self.request)


def decision_points(updates: list[Side]) -> list[DecisionPoint]:
    """Updates that asked this side to decide (a request, not a wait, not a refusal)."""
    points: list[DecisionPoint] = []
    for position, update in enumerate(updates):
        request = update.request
        if request and not request.get("wait") and not update.error and update.state is not None:
            points.append(DecisionPoint(len(points), position, request, update.state))
    return points


def words_between(updates: list[Side], start: int, end: int) -> list[str]:
    return [word for update in updates[start : end + 1] for word in update.text]


def decision_message(updates: list[Side], index: int) -> str:
    """The user message that opens decision `index` of this side."""
    points = decision_points(updates)
    if index >= len(points):
        raise IndexError(f"this side has {len(points)} decisions, not {index + 1}")
    point = points[index]
    start = points[index - 1].update + 1 if index else 0
    words = words_between(updates, start, point.update)
    if index == 0:
        return first_message(words, point.state, point.actions)
    return later_message(words, point.state, point.actions)


# -- the messages -------------------------------------------------------------------------------


TEAM_PREVIEW_LOG = "Team preview: the battle starts when both players have chosen their lead."


def first_message(words: list[str], state: SideState, actions: list[Action]) -> str:
    if not words and state.turn == 0:
        words = [TEAM_PREVIEW_LOG]  # Showdown's log has no words before the battle starts
    blocks = [
        "BATTLE LOG\n" + "\n".join(words),
        f"CURRENT STATE ({_when(state)})\n" + "\n".join(_team_full(state)),
        "\n".join(_foe_full(state)),
    ]
    return _finish(blocks, state, actions)


def later_message(words: list[str], state: SideState, actions: list[Action]) -> str:
    blocks = [
        "NEW EVENTS\n" + "\n".join(words),
        f"STATE NOW ({_when(state)})\n" + "\n".join(_team_short(state)),
        "\n".join(_foe_short(state)),
    ]
    return _finish(blocks, state, actions)


def actions_block(actions: list[Action]) -> str:
    return "YOUR LEGAL ACTIONS\n" + "\n".join(
        f"{number}. {action.label}" for number, action in enumerate(actions, start=1)
    )


def reask_message(problem: str) -> str:
    """Sent when an answer names no legal action."""
    return (
        f"Your answer did not name a legal action: {problem}\n"
        "Answer again with the number of one action from YOUR LEGAL ACTIONS, or its text exactly "
        f"as listed.\n{CLOSING}"
    )


def refusal_message(showdown_error: str, actions: list[Action]) -> str:
    """Sent when Showdown refuses the chosen action; its own message is passed on."""
    return (
        f"Showdown refused that choice: {showdown_error}\n\n{actions_block(actions)}\n\n{CLOSING}"
    )


def _finish(blocks: list[str], state: SideState, actions: list[Action]) -> str:
    field = _field(state)
    if field:
        blocks.append("\n".join(field))
    blocks.append(actions_block(actions))
    blocks.append(CLOSING)
    return "\n\n".join(blocks)


def _when(state: SideState) -> str:
    return "team preview" if state.turn == 0 else f"turn {state.turn}"


# -- pieces -------------------------------------------------------------------------------------

_STATUS = {
    "brn": "burned",
    "par": "paralyzed",
    "slp": "asleep",
    "frz": "frozen",
    "psn": "poisoned",
    "tox": "badly poisoned",
}


def _round(x: float) -> int:
    return math.floor(x + 0.5)  # JavaScript's Math.round, as the reference harness rounds


def _pct(mon: Pokemon) -> int:
    return _round(100 * mon.hp / mon.maxhp) if mon.maxhp else 0


def _status(mon: Pokemon) -> str:
    status = mon.status
    return f", {_STATUS.get(status, status)}" if status and status != "fnt" else ""


def _own_hp(mon: Pokemon) -> str:
    if mon.fainted:
        return "fainted"
    return f"HP {mon.hp}/{mon.maxhp} ({_pct(mon)}%){_status(mon)}"


def _foe_hp(mon: Pokemon) -> str:
    if mon.fainted:
        return "fainted"
    if not mon.maxhp:  # seen only in team preview: every Pokémon starts at full HP
        return "HP 100%"
    return f"HP {_pct(mon)}%{_status(mon)}"


def _head(mon: Pokemon, hp: str) -> str:
    tag = "[ACTIVE]" if mon.active else "[bench]"
    return f"- {mon.species} {tag}, {'/'.join(mon.types)}, L{mon.level}, {hp}"


def _boosts(mon: Pokemon) -> list[str]:
    boosts = mon.boosts
    if not boosts:
        return []
    return ["  Stat changes: " + ", ".join(f"{stat} {value:+d}" for stat, value in boosts.items())]


def _move_detail(move: MoveInfo) -> str:
    parts = [move.type, move.category]
    if move.base_power:
        parts.append(f"{move.base_power} BP")
    accuracy = move.accuracy
    parts.append("never misses" if accuracy is True else f"{accuracy}% accuracy")
    desc = move.desc
    return f"{move.name} ({', '.join(parts)}{': ' + desc if desc else ''})"


def _team_full(state: SideState) -> list[str]:
    lines = [f"YOUR TEAM ({state.me}):"]
    for mon in state.team:
        lines.append(_head(mon, _own_hp(mon)))
        tera = mon.tera_type or "none"
        if mon.terastallized:
            tera += " (Terastallized)"
        lines.append(f"  Ability: {mon.ability}, Item: {mon.item or 'none'}, Tera type: {tera}")
        stats = mon.stats
        if stats:
            lines.append(
                f"  Stats: Atk {stats['atk']}, Def {stats['def']}, SpA {stats['spa']}, "
                f"SpD {stats['spd']}, Spe {stats['spe']}"
            )
        if mon.active:
            lines += _boosts(mon)
        if mon.active and mon.move_info:
            lines.append("  Moves: " + "; ".join(_move_detail(m) for m in mon.move_info))
        else:
            lines.append("  Moves: " + "; ".join(mon.moves))
    return lines


def _team_short(state: SideState) -> list[str]:
    lines = ["YOUR ACTIVE POKÉMON:"]
    bench = []
    for mon in state.team:
        if mon.active:
            lines.append(_head(mon, _own_hp(mon)))
            lines += _boosts(mon)
            lines.append("  Moves: " + "; ".join(mon.moves))
        elif mon.fainted:
            bench.append(f"{mon.species} fainted")
        else:
            bench.append(f"{mon.species} {mon.hp}/{mon.maxhp} ({_pct(mon)}%){_status(mon)}")
    lines.append("YOUR BENCH: " + ("; ".join(bench) or "none"))
    return lines


def _foe_details(mon: Pokemon) -> list[str]:
    lines = []
    seen = []
    if mon.ability:
        seen.append(f"Ability: {mon.ability}")
    if mon.item:
        seen.append(f"Item: {mon.item}")
    if mon.terastallized:
        seen.append(f"Terastallized: {mon.terastallized}")
    if seen:
        lines.append("  " + ", ".join(seen))
    lines += _boosts(mon)
    lines.append("  Moves seen: " + ("; ".join(mon.moves) or "none yet"))
    return lines


def _unseen(state: SideState) -> int:
    return max(0, (state.foe_total or 6) - len(state.foe_team))


def _foe_full(state: SideState) -> list[str]:
    lines = [f"OPPONENT'S TEAM ({state.foe}), as far as you have seen it:"]
    for mon in state.foe_team:
        lines.append(_head(mon, _foe_hp(mon)))
        if not mon.fainted:
            lines += _foe_details(mon)
    if _unseen(state):
        lines.append(f"- {_unseen(state)} Pokémon not seen yet")
    return lines


def _foe_short(state: SideState) -> list[str]:
    lines = [f"OPPONENT ({state.foe}):"]
    others = []
    for mon in state.foe_team:
        if mon.active and not mon.fainted:
            lines.append(_head(mon, _foe_hp(mon)))
            lines += _foe_details(mon)
        elif mon.fainted:
            others.append(f"{mon.species} fainted")
        else:
            others.append(f"{mon.species} {_pct(mon)}%{_status(mon)}")
    if _unseen(state):
        others.append(f"{_unseen(state)} Pokémon not seen yet")
    lines.append("ALSO SEEN: " + ("; ".join(others) or "none"))
    return lines


def _conditions(conditions: list[Condition]) -> str:
    return "; ".join(c.named("{name} ({level} layers)") for c in conditions)


def _field(state: SideState) -> list[str]:
    """Weather, terrain, rooms, hazards and screens; nothing at all when the field is clear."""
    field = state.field
    lines = []
    general = field.general("Weather: {}", "Terrain: {}")
    if general:
        lines.append("FIELD: " + "; ".join(general))
    if field.mine:
        lines.append("YOUR SIDE: " + _conditions(field.mine))
    if field.theirs:
        lines.append("OPPONENT'S SIDE: " + _conditions(field.theirs))
    return lines
