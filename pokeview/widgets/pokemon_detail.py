"""A Pokémon's detail panel (Showdown's tooltip): everything its side knows of it, and for a
Pokémon seen only from the other side, what it could be: its possible abilities and, in a random
battle, the pinned Showdown's random-battle sets that fit what was seen. Nothing more: a foe's
unrevealed item is "unknown", its unseen moves are not listed."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text
from textual.binding import Binding, BindingType

from pokeview.board.parts import (
    STATUS,
    ability_text,
    item_text,
    literal,
    moves_text,
    types_text,
    volatiles_text,
)
from pokeview.game.side import Pokemon
from pokeview.sim.dex import generation, possible_abilities, random_sets
from pokeview.widgets.lines import Lines

DETAIL = Binding.Group("Pokémon")
# Declared once for every screen with a board: open/close the panel, pick the Pokémon.
DETAIL_BINDINGS: list[BindingType] = [
    Binding("i", "mon_detail", "mon", id="board.detail", tooltip="a Pokémon's details"),
    Binding(
        "left_square_bracket",
        "mon_select(-1)",
        "◀ Pokémon",
        id="board.previous_mon",
        show=False,
        group=DETAIL,
    ),
    Binding(
        "right_square_bracket",
        "mon_select(1)",
        "Pokémon ▶",
        id="board.next_mon",
        show=False,
        group=DETAIL,
    ),
]


def detail_of(mon: Pokemon, *, owner: str, own: bool, seen: bool, format_id: str) -> Group:
    """`own`: its side's own Pokémon (exact HP, stats, PP left); `seen`: known only from what the
    other side saw (a foe's, or any in an imported replay): possibilities are listed."""
    head = Text()
    head.append_text(literal(mon.species, "bold"))
    head.append(f" L{mon.level} ", style="dim")
    head.append_text(literal(f"({owner})", "dim"))
    parts: list[RenderableType] = [head]
    hp = Text("HP ", style="dim")
    if mon.fainted:
        hp.append("fainted", style="red")
    elif own and mon.maxhp:
        hp.append(f"{mon.hp}/{mon.maxhp} ({round(100 * mon.hp / mon.maxhp)}%)")
    else:
        hp.append(f"{round(100 * mon.hp / mon.maxhp) if mon.maxhp else 100}%")
    if mon.status:
        hp.append(f" {STATUS.get(mon.status, mon.status.upper())}", style="bold magenta")
        turns = mon.sleep_turns if mon.status == "slp" else mon.toxic_turns
        if turns:
            hp.append(f" ({turns} turn{'s' if turns != 1 else ''})", style="dim")
    for stat, value in mon.boosts.items():
        hp.append(f" {stat}{value:+d}", style="cyan" if value > 0 else "red")
    parts.append(hp)
    parts.append(_row("Types", types_text(mon)))
    item = item_text(mon, seen)
    parts.append(_row("Item", literal("unknown", "dim") if item.plain == "item unknown" else item))
    ability = ability_text(mon, seen)
    if ability.plain == "ability unknown":
        ability = literal("unknown", "dim")
    gen = generation(format_id)
    if seen and not mon.ability:
        possible = possible_abilities(mon.species, gen)
        if possible:
            ability.append(" — possible: ", style="dim")
            ability.append_text(literal(", ".join(possible)))
    parts.append(_row("Ability", ability))
    if own and mon.stats:
        parts.append(_row("Stats", Text(" · ".join(f"{k} {v}" for k, v in mon.stats.items()))))
    if mon.volatiles:
        parts.append(_row("Now", volatiles_text(mon.volatiles)))
    moves = moves_text(mon, own)
    parts.append(
        _row("Moves" if own else "Moves seen", moves if moves.plain else Text("none", "dim"))
    )
    if seen:
        parts += _sets(mon, format_id)
    return Group(*parts)


def _row(name: str, value: Text) -> Text:
    row = Text(f"{name:<10} ", style="dim")
    row.append_text(value)
    return row


def _sets(mon: Pokemon, format_id: str) -> list[RenderableType]:
    """The random-battle sets that fit what was seen (all of them, said so, when none fits)."""
    sets = random_sets(mon.species, format_id)
    if not sets:
        return []
    seen_moves = [s.name for s in mon.move_slots] or list(mon.moves)
    fitting = [s for s in sets if s.fits(seen_moves, mon.ability, mon.terastallized)]
    title = "Possible random-battle sets"
    if not fitting:
        title += ": none fits what was seen; all of them"
        fitting = sets
    out: list[RenderableType] = [Text(title, style="bold dim")]
    for s in fitting:
        line = Text("  ")
        if s.role:
            line.append_text(literal(s.role, "bold"))
            line.append(": ")
        line.append_text(literal(", ".join(s.movepool)))
        if s.abilities:
            line.append_text(literal(" · " + "/".join(s.abilities), "dim"))
        if s.tera_types:
            line.append_text(literal(" · Tera " + "/".join(s.tera_types), "dim"))
        out.append(line)
    return out


class PokemonDetail(Lines):
    """The panel's content (its scrolling frame, `#detail-scroll`, is the BattleColumn's)."""

    DEFAULT_CSS = """
    PokemonDetail { height: auto; }
    """
