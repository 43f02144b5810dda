"""A team at a glance: six slots in one line, each a Pokémon's short name coloured by its HP,
its status, a cross when fainted, and `?` for a foe not seen yet. No Textual: a renderable."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from pokeview.board.parts import STATUS, literal
from pokeview.game.side import Pokemon

SLOT = 8  # cells of a slot's name: "Brambleg" (the detail panel gives the whole name)
COMPACT_SLOT = 4


def team_row(
    team: list[Pokemon],
    total: int = 6,
    compact: bool = False,
    place: str = "",
    picked: str | None = None,
) -> Text:
    """`team` in its order, then unseen slots up to `total` (a foe's not yet seen). `compact`:
    shorter names, on one line. With a `place` on the board, each slot carries `("mon":
    (place, species))` for a click; the `picked` species is shown reversed (the detail
    panel's)."""
    row = Text(no_wrap=compact, overflow="ellipsis")
    for n, mon in enumerate(team):
        if n:
            row.append(" ")
        word = slot(mon, COMPACT_SLOT if compact else SLOT)
        if mon.species == picked:
            word.stylize("reverse")
        if place:
            word.stylize(Style(meta={"mon": (place, mon.species)}))
        row.append_text(word)
    for n in range(len(team), max(total, len(team))):
        if n:
            row.append(" ")
        row.append("?", style="dim")
    return row


def slot(mon: Pokemon, cells: int = 8) -> Text:
    name = (mon.species or "?")[:cells]
    if mon.fainted:
        return literal(f"✕{name}", "dim strike")
    style = "bold " if mon.active else ""
    pct = 100 * mon.hp / mon.maxhp if mon.maxhp else 100
    style += "green" if pct > 50 else "yellow" if pct > 20 else "red"
    out = literal(name, style)
    if mon.status:  # (the status is part of the slot: a click on it picks the Pokémon too)
        out.append(f" {STATUS.get(mon.status, mon.status.upper())}", style="magenta")
    return out
