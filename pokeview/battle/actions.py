"""Legal actions of a request, in PokéBench's order and wording.

Moves first ("move Body Press"), then the same moves with a gimmick when one is available
("move Body Press + Terastallize (Fighting)"), then switches ("switch Palkia-Origin"). Every
player kind chooses from this one list; `choice` is what Showdown is sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokeview.sim.request import (
    ActiveSlot,
    BadRequest,
    Request,
    RequestMove,
    RequestSide,
    as_request,
)


# Not frozen (nothing changes an action once made): a frozen dataclass's __init__ costs three
# times as much, and a game builds thousands of them. The hash stays, from the fields.
@dataclass(slots=True, unsafe_hash=True)
class Action:
    label: str
    choice: str
    kind: str  # "move", "switch" or "lead"
    move_id: str | None = None
    gimmick: str | None = None  # "terastallize", "mega", "dynamax"
    slot: int | None = None  # 1-based team position, for switches and leads
    name: str | None = None  # the Pokémon's name (nickname) for switches and leads


def species_of(details: str) -> str:
    return details.split(",", 1)[0]


def name_of(ident: str) -> str:
    return ident.split(": ", 1)[1] if ": " in ident else ident


def _switches(side: RequestSide) -> list[Action]:
    # After Revival Blessing the "switch" picks a fainted Pokémon to bring back.
    mons = side.pokemon
    reviving = False  # (a loop, not any() over a generator: this runs at nearly every decision)
    for mon in mons:
        if mon.active and mon.reviving:
            reviving = True
            break
    actions = []
    for slot, mon in enumerate(mons, start=1):
        if mon.active or mon.condition.endswith(" fnt") != reviving:
            continue
        species = mon.details.split(",", 1)[0]
        actions.append(
            Action(
                f"switch {species}",
                f"switch {slot}",
                "switch",
                slot=slot,
                name=name_of(mon.ident),
            )
        )
    return actions


def _usable(move: RequestMove) -> bool:
    if move.disabled:
        return False
    return not (move.pp is not None and move.pp <= 0 and move.maxpp)


def _gimmicks(active: ActiveSlot) -> list[tuple[str, str]]:
    """(choice word, label) of each gimmick the active Pokémon may use."""
    found = []
    if active.can_terastallize:
        found.append(("terastallize", f"Terastallize ({active.can_terastallize})"))
    if active.can_mega_evo:
        found.append(("mega", "Mega Evolve"))
    if active.can_dynamax:
        found.append(("dynamax", "Dynamax"))
    return found


def legal_actions(request: Request | dict[str, Any] | None) -> list[Action]:
    """The numbered actions for a request; empty when the request asks for nothing. (A request
    given as a dict, a recorded one say, is typed first.)"""
    request = as_request(request)
    if request is None or request.wait:
        return []
    side = request.side
    if side is None:
        raise BadRequest("a request without its side")
    if request.team_preview:
        return [
            Action(
                f"lead {species_of(mon.details)}",
                f"team {slot}",
                "lead",
                slot=slot,
                name=name_of(mon.ident),
            )
            for slot, mon in enumerate(side.pokemon, start=1)
        ]
    if request.force_switch:
        return _switches(side)
    if not request.active:
        raise BadRequest("a request for a move without its active Pokémon")
    active = request.active[0]
    moves = [(i, m) for i, m in enumerate(active.moves, start=1) if _usable(m)]
    actions = [Action(f"move {m.move}", f"move {i}", "move", move_id=m.id) for i, m in moves]
    for word, label in _gimmicks(active):
        actions += [
            Action(
                f"move {m.move} + {label}",
                f"move {i} {word}",
                "move",
                move_id=m.id,
                gimmick=word,
            )
            for i, m in moves
        ]
    if not active.trapped:
        actions += _switches(side)
    return actions
