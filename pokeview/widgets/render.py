"""Rich renderables for battle state: HP bars, Pokémon lines, teams, the field. No widgets."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from pokeview.game.side import Condition, Pokemon, SideState
from pokeview.text import strip_control

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


def team_block(
    title: Text,
    state: SideState | None,
    own: bool,
    foe_of: bool = False,
    compact: bool = False,
) -> Text:
    """A side's team: the active Pokémon first, then the rest, as far as the viewer knows it.
    `compact` (a small terminal): the active Pokémon on its own line, the rest on one wrapped
    line, so that both sides' actives fit above the log."""
    out = Text()
    out.append_text(title)
    if state is None:
        out.append("\n  (nothing known yet)", style="dim")
        return out
    team = state.foe_team if foe_of else state.team
    ordered = sorted(team, key=lambda m: not m.active)
    for mon in ordered:
        if compact and not mon.active:
            continue
        out.append("\n")
        out.append_text(mon_line(mon, own, bar_width=6 if compact else 12))
        if own and mon.active and mon.moves and not compact:
            out.append("\n    ")
            out.append_text(literal(" · ".join(mon.moves), "dim"))
    unseen = max(0, (state.foe_total or 6) - len(team)) if foe_of else 0
    if compact:
        bench = [m for m in ordered if not m.active]
        if bench or unseen:
            out.append("\n  ")
            for n, mon in enumerate(bench):
                if n:
                    out.append(" · ", style="dim")
                out.append_text(bench_word(mon, own))
            if unseen:
                out.append(f"{' · ' if bench else ''}{unseen} unseen", style="dim")
        return out
    if unseen:
        out.append(f"\n  {unseen} not seen yet", style="dim")
    return out


def bench_word(mon: Pokemon, own: bool) -> Text:
    """A benched Pokémon in a few cells: its name and HP in percent, or that it fainted."""
    word = literal(mon.species or "?")
    if mon.fainted:
        word.append(" fnt", style="red dim")
        return word
    maxhp = mon.maxhp
    pct = round(100 * mon.hp / maxhp) if maxhp else 100
    word.append(f" {pct}%", style="green" if pct > 50 else "yellow" if pct > 20 else "red")
    if mon.status:
        word.append(f" {STATUS.get(mon.status, mon.status.upper())}", style="magenta")
    return word


def field_line(state: SideState | None) -> Text:
    if state is None:
        return literal("clear field", "italic dim")
    field = state.field
    parts = field.general("Weather {}", "{} Terrain")

    def conditions(items: list[Condition]) -> str:
        return ", ".join(c.named("{name} ×{level}") for c in items)

    if field.mine:
        parts.append(f"near side: {conditions(field.mine)}")
    if field.theirs:
        parts.append(f"far side: {conditions(field.theirs)}")
    return literal(" · ".join(parts) or "clear field", "italic dim")
