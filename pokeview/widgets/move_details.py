"""A move action as Showdown's move buttons show it: type, category, base power, accuracy, PP
left, and how effective it is against the foe's active Pokémon as the side knows it (its types,
or the Tera type it took). For people only: the model's prompt is rendered elsewhere, unchanged.
No widgets: renderables for the play screen's actions and the viewer's legal actions."""

from __future__ import annotations

import msgspec
from rich.text import Text

from pokeview.board.parts import literal
from pokeview.game.side import MoveInfo, MoveSlot, Pokemon, SideState
from pokeview.sim.dex import effectiveness, generation

CATEGORY = {"Physical": "Phys", "Special": "Spec", "Status": "Status"}
EFFECT = {0.0: "0×", 0.25: "¼×", 0.5: "½×", 1.0: "1×", 2.0: "2×", 4.0: "4×"}


def known_types(mon: Pokemon) -> list[str]:
    """The types the side knows a Pokémon has now: its Tera type once it terastallized, a type
    a move gave it (Soak, Forest's Curse), else its species' types."""
    if mon.terastallized:
        return [mon.terastallized]
    types = list(mon.types)
    for v in mon.volatiles:
        if v.id == "typechange" and v.type:
            types = v.type.split("/")
        elif v.id == "typeadd" and v.type:
            types.append(v.type)
    return types


def _boosted(user: Pokemon, stat: str) -> float:
    stage = user.boosts.get(stat, 0)
    return user.stats.get(stat, 0) * ((2 + stage) / 2 if stage >= 0 else 2 / (2 - stage))


def as_used(info: MoveInfo, user: Pokemon) -> MoveInfo:
    """The move as `user` would use it now, as Showdown's move buttons show it: Tera Blast,
    once its user terastallized, takes the Tera type, and is physical when the user's Attack
    (with its boosts) is above its Special Attack (Showdown's `terablast`); the Pokédex's
    move otherwise."""
    if info.name != "Tera Blast" or not user.terastallized:
        return info
    physical = _boosted(user, "atk") > _boosted(user, "spa")
    return msgspec.structs.replace(
        info, type=user.terastallized, category="Physical" if physical else info.category
    )


def _active(team: list[Pokemon]) -> Pokemon | None:
    return next((m for m in team if m.active), None)


def move_details(name: str, state: SideState | None) -> Text | None:
    """`Dragon Phys 120 100% 15/16 2×` (type, category, base power, accuracy, PP left,
    effectiveness; `—`: never misses) for the own active Pokémon's move
    `name`, as its side knows it; None when the state does not describe that move."""
    if state is None:
        return None
    me = _active(state.team)
    info: MoveInfo | None = None
    if me is not None:
        info = next((m for m in me.move_info or [] if m.name == name), None)
    if me is None or info is None:
        return None
    info = as_used(info, me)
    out = Text(style="dim")
    out.append_text(literal(info.type, "bold"))
    out.append(f" {CATEGORY.get(info.category, info.category)}")
    if info.category != "Status" and info.base_power:
        out.append(f" {info.base_power}")
    out.append(" —" if info.accuracy is True else f" {info.accuracy}%")
    slot: MoveSlot | None = next((s for s in me.move_slots if s.name == name), None)
    if slot is not None and slot.maxpp:
        out.append(f" {slot.pp}/{slot.maxpp}", style="red" if not slot.pp else "")
    foe = _active(state.foe_team)
    if foe is not None and info.category != "Status":
        times = effectiveness(info.type, known_types(foe), generation(state.format))
        if times is not None:
            word = EFFECT.get(times, f"{times:g}×")
            style = "bold green" if times > 1 else "red" if times < 1 else ""
            out.append(" ")
            out.append(word, style=style)
    return out


def action_line(number: int, label: str, state: SideState | None, chosen: bool = False) -> Text:
    """A legal action, numbered as the model sees it, with its move's details after it."""
    line = literal(f"{number}. {label}", "bold green" if chosen else "")
    # A move with a gimmick ("+ Terastallize") follows the same move without it, which has its
    # details (as Showdown's Tera is a checkbox under the move buttons, not more buttons).
    if label.startswith("move ") and " + " not in label:
        details = move_details(label[5:], state)
        if details is not None:
            line.append("  ")
            line.append_text(details)
    return line
