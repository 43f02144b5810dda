"""The parts of the board as Rich text: HP bars, Pokémon lines, what is known of a Pokémon, the
field, a side's conditions. No Textual: the terminal and the static site draw with them."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from pokeview.game.side import Condition, Field, MoveSlot, Pokemon, SideState, Volatile
from pokeview.text import strip_control

# Kept by the client for the rules (Acrobatics, Unburden), not shown by Showdown's client.
HIDDEN_VOLATILES = {"itemremoved"}
STATUS = {"brn": "BRN", "par": "PAR", "slp": "SLP", "frz": "FRZ", "psn": "PSN", "tox": "TOX"}


def literal(text: Any, style: str = "") -> Text:
    """Untrusted text, shown literally: control characters removed, no markup parsing."""
    return Text(strip_control(str(text)), style=style)


def hp_bar(hp: float, maxhp: float, width: int = 12) -> Text:
    pct = 0 if not maxhp else max(0.0, min(1.0, hp / maxhp))
    filled = round(pct * width)
    if hp > 0 and filled == 0:
        filled = 1
    colour = "green" if pct > 0.5 else "yellow" if pct > 0.2 else "red"
    bar = Text("█" * filled, style=colour)
    bar.append("░" * (width - filled), style="dim")
    return bar


def mon_line(mon: Pokemon, own: bool, bar_width: int = 12) -> Text:
    """One Pokémon: name, level, HP bar and figures, status, boosts, Tera state."""
    line = Text()
    line.append("▶ " if mon.active else "  ")
    line.append_text(literal(mon.species or "?", "bold" if mon.active else ""))
    line.append(f" L{mon.level} ", style="dim")
    if mon.fainted:
        line.append("fainted", style="red dim")
        return line
    maxhp = mon.maxhp
    hp = mon.hp if maxhp else 100
    line.append_text(hp_bar(hp, maxhp or 100, bar_width))
    pct = round(100 * hp / maxhp) if maxhp else 100
    line.append(f" {hp}/{maxhp}" if own else f" {pct}%")
    status = mon.status
    if status:
        line.append(f" {STATUS.get(status, status.upper())}", style="bold magenta")
    for stat, value in mon.boosts.items():
        line.append(f" {stat}{value:+d}", style="cyan" if value > 0 else "red")
    tera = mon.terastallized
    if tera:
        line.append(" ")
        line.append_text(literal(f"Tera {tera}", "bold yellow"))
    return line


def known_lines(mon: Pokemon, *, own: bool, foe: bool, compact: bool = False) -> list[Text]:
    """What the side knows of a Pokémon beyond its HP: types, item, ability (a line), its
    volatiles (a line, when any), its moves with PP (a line). `own`: the side's own Pokémon
    (PP left); `foe`: the foe's (unrevealed item and ability said to be unknown). `compact`:
    one line, the volatiles first (the detail panel has the rest)."""
    about = types_text(mon)
    about.append(" · ", style="dim")
    about.append_text(item_text(mon, foe))
    about.append(" · ", style="dim")
    about.append_text(ability_text(mon, foe))
    volatiles = [v for v in mon.volatiles if v.id not in HIDDEN_VOLATILES]
    if compact:
        line = volatiles_text(volatiles) if volatiles else Text()
        if volatiles:
            line.append(" · ", style="dim")
        line.append_text(about)
        line.no_wrap, line.overflow = True, "ellipsis"
        return [line]
    lines = [about]
    if volatiles:
        lines.append(volatiles_text(volatiles))
    moves = moves_text(mon, own)
    if moves.plain:
        lines.append(moves)
    return lines


def types_text(mon: Pokemon) -> Text:
    """Its types, or the Tera type it took once it terastallized (and the own Tera type)."""
    if mon.terastallized:
        return literal(mon.terastallized, "bold yellow")
    out = literal("/".join(mon.types) or "?")
    if mon.tera_type:
        out.append_text(literal(f" (Tera {mon.tera_type})", "dim"))
    return out


def item_text(mon: Pokemon, foe: bool) -> Text:
    if mon.item:
        out = literal(mon.item)
        if mon.item_effect:
            out.append_text(literal(f" ({mon.item_effect})", "dim"))
        return out
    if mon.last_item:
        how = mon.last_item_effect or "lost"
        return literal(f"no item ({mon.last_item} {how})", "dim")
    return literal("item unknown" if foe else "no item", "dim")


def ability_text(mon: Pokemon, foe: bool) -> Text:
    if mon.ability:
        return literal(mon.ability)
    return literal("ability unknown" if foe else "no ability", "dim")


def volatile_word(v: Volatile) -> str:
    """A volatile as Showdown's client labels it: Perish 2, Stockpile ×2, Quark Drive (spe)."""
    if v.type:
        return f"{v.name}: {v.type}"
    if v.stat:
        return f"{v.name} ({v.stat})"
    if v.level is not None:
        return f"{v.name} {v.level}" if v.id.startswith("perish") else f"{v.name} ×{v.level}"
    return v.name


def volatiles_text(volatiles: list[Volatile]) -> Text:
    return literal(" · ".join(volatile_word(v) for v in volatiles), "bold blue")


def pp_word(slot: MoveSlot, own: bool) -> str:
    """`Outrage 15/16`, a foe's `Aeroblast (2 used)` (PP seen used; a range with Pressure)."""
    if own and slot.maxpp:
        return f"{slot.name} {slot.pp}/{slot.maxpp}"
    if slot.pp_used:
        most = slot.pp_used_most
        used = f"{slot.pp_used}–{most}" if most and most != slot.pp_used else f"{slot.pp_used}"
        return f"{slot.name} ({used} used)"
    return slot.name


def moves_text(mon: Pokemon, own: bool) -> Text:
    """Its moves (the own Pokémon's with PP left; the foe's seen, with PP seen used)."""
    if not mon.move_slots:
        return literal(" · ".join(mon.moves), "dim")
    out = Text()
    for n, slot in enumerate(mon.move_slots):
        if n:
            out.append(" · ", style="dim")
        out_of = own and slot.maxpp is not None and (slot.pp == 0 or slot.disabled)
        out.append_text(literal(pp_word(slot, own), "red dim" if out_of else "dim"))
        if own and slot.disabled:
            out.append(" (disabled)", style="red dim")
    return out


def turns_left(c: Condition) -> str:
    """` 3 turns`, ` 3–5 turns`, ` ≥2 turns`, or nothing (until removed, or not known)."""
    low, high = c.min_turns, c.max_turns
    if high and low and low != high:
        return f" {low}–{high} turns"
    if high or low:
        n = high or low
        return f" {'≥' if not high else ''}{n} turn{'s' if n != 1 else ''}"
    return ""


def conditions_text(conditions: list[Condition]) -> Text:
    """A side's conditions with their layers and turns left: `Reflect 3–5 turns · Spikes ×2`."""
    return literal(
        " · ".join(c.named("{name} ×{level}") + turns_left(c) for c in conditions), "italic"
    )


def field_line(state: SideState | None) -> Text:
    """What is on the whole field, with turns left: the weather, the terrain, Trick Room..."""
    if state is None:
        return literal("clear field", "italic dim")
    parts = [f"{name}{turns}" for name, turns in general_field(state.field)]
    return literal(" · ".join(parts) or "clear field", "italic dim")


def general_field(field: Field) -> list[tuple[str, str]]:
    """The field-wide conditions as (name, turns left)."""
    parts = []
    if field.weather:
        turns = turns_left(field.weather_turns) if field.weather_turns else ""
        parts.append((f"Weather {field.weather}", turns))
    if field.terrain:
        turns = turns_left(field.terrain_turns) if field.terrain_turns else ""
        parts.append((f"{field.terrain} Terrain", turns))
    timed = {c.name: c for c in field.pseudo_weather_turns}
    for name in field.pseudo_weather:
        parts.append((name, turns_left(timed[name]) if name in timed else ""))
    return parts
