"""The whole board: the foe's side above, the viewer's below (for the spectator, p2 above and p1
below, each with its own full team), the field between them. Each side is a block: its title,
the active Pokémon with what is known of it, the team in one row, the side's conditions."""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from pokeview.battle.replay import Replay
from pokeview.board.parts import conditions_text, field_line, known_lines, literal, mon_line
from pokeview.board.team_row import team_row
from pokeview.game.side import Condition, Pokemon, SideState


@dataclass(frozen=True, slots=True)
class BoardView:
    """What a board shows. `view` is "p1", "p2" or "spectator"; `near` is the viewing side's
    state (the spectator's: p1's), `far` the other side's own (the spectator's only).
    `public`: only what the log showed (an imported replay): HP in percent, teams as seen."""

    view: str
    turn: int
    near: SideState | None
    far: SideState | None
    names: dict[str, str]
    public: bool = False


def of_replay(replay: Replay, view: str, position: int) -> BoardView:
    """The board at frame `position` of `view`: each side's state at that frame's moment (the
    bridge sends one at every step). The replay viewer and the site's game pages show this."""
    if view == "spectator":
        near = replay.state_of("spectator", position, "p1")
        far = replay.state_of("spectator", position, "p2")
    else:
        near, far = replay.state_of(view, position, view), None
    return BoardView(
        view=view,
        turn=replay.frames[view][position].turn,
        near=near,
        far=far,
        names={"p1": replay.game.p1, "p2": replay.game.p2},
        public=replay.game.is_imported_replay,
    )


@dataclass(slots=True)
class Half:
    """One side as the board draws it: `place` "top" (the foe, or p2) or "bottom"."""

    place: str
    side: str
    note: str
    state: SideState | None
    own: bool  # exact figures: the side's own knowledge of its team
    foe_of: bool  # the team is `state.foe_team` (what the viewer saw of the foe)
    conditions: list[Condition]

    @property
    def team(self) -> list[Pokemon]:
        if self.state is None:
            return []
        return self.state.foe_team if self.foe_of else self.state.team


def halves(shown: BoardView) -> list[Half]:
    """The foe's side above, the viewer's below; each with its own side's conditions."""
    near, far = shown.near, shown.far
    own = not shown.public
    mine = near.field.mine if near else []
    theirs = near.field.theirs if near else []
    if shown.view == "spectator":
        note = "as seen" if shown.public else "full team"
        return [
            Half("top", "p2", note, far, own, False, theirs),
            Half("bottom", "p1", note, near, own, False, mine),
        ]
    other = "p2" if shown.view == "p1" else "p1"
    me = "as seen, from the log" if shown.public else "you"
    return [
        Half("top", other, "as seen", near, False, True, theirs),
        Half("bottom", shown.view, me, near, own, False, mine),
    ]


# Blocks' bodies and titles drawn before, by what they show (`body_key`): the site draws each
# turn's board for three views, and the spectator's halves are the two sides' own. Bodies drawn
# for it have no click targets (a place on the board), so either half can take them.
Drawn = dict[tuple[object, ...], list[RenderableType]]


def draw(
    shown: BoardView,
    compact: bool = False,
    selected: tuple[str, str] | None = None,
    drawn: Drawn | None = None,
) -> Group:
    """The board: `compact` for a short terminal (narrower bars, one line of what is known, no
    clear-field line); `selected` (place, species) is the Pokémon picked for the detail panel;
    `drawn` keeps the blocks' bodies for boards drawn after this one (the Pokémon's slots
    then carry no click target)."""
    top, bottom = (block(h, shown.names, compact, selected, drawn) for h in halves(shown))
    field = field_line(shown.near)
    if compact and field.plain == "clear field":
        return Group(top, bottom)
    return Group(top, field, bottom)


def block(
    half: Half,
    names: dict[str, str],
    compact: bool = False,
    selected: tuple[str, str] | None = None,
    drawn: Drawn | None = None,
) -> Group:
    """A side's team as the viewer knows it: its title, then the body."""
    picked = selected[1] if selected and selected[0] == half.place else None
    if drawn is None:
        return Group(title(half.side, names, half.note), *body(half, compact, picked, half.place))
    key = body_key(half, compact, picked)
    if key not in drawn:
        drawn[key] = body(half, compact, picked)
    head = ("title", half.side, half.note, names.get(half.side, half.side))
    if head not in drawn:
        drawn[head] = [title(half.side, names, half.note)]
    return Group(*drawn[head], *drawn[key])


def body_key(half: Half, compact: bool, picked: str | None) -> tuple[object, ...]:
    """What a block's body shows: the state (a replay keeps each one, so its identity names
    it), how it is seen, the conditions (by value: each side words the other's alike)."""
    conditions = tuple((c.name, c.level, c.min_turns, c.max_turns) for c in half.conditions)
    return (id(half.state), half.own, half.foe_of, compact, picked, conditions)


def body(
    half: Half, compact: bool = False, picked: str | None = None, place: str = ""
) -> list[RenderableType]:
    """The active Pokémon with what is known of it, the whole team in one row (`picked` is
    shown reversed; each slot a click target on the board's `place`, when given), the side's
    conditions."""
    state = half.state
    if state is None:
        return [Text("  (nothing known yet)", style="dim")]
    lines: list[RenderableType] = []
    team = half.team
    for mon in team:
        if mon.active:
            lines.append(mon_line(mon, half.own, bar_width=6 if compact else 12))
            known = known_lines(
                mon, own=half.own and not half.foe_of, foe=half.foe_of, compact=compact
            )
            lines += [Padding(line, (0, 0, 0, 4)) for line in known]  # wrapped: indented
    total = state.foe_total if half.foe_of else len(team)
    row = team_row(team, total, compact, place=place, picked=picked)
    lines.append(Padding(row, (0, 0, 0, 2)))
    if half.conditions:
        lines.append(Padding(conditions_text(half.conditions), (0, 0, 0, 2)))
    return lines


def title(side: str, names: dict[str, str], note: str) -> Text:
    head = Text(f"{side} ", style="bold reverse")
    head.append(" ")
    head.append_text(literal(names.get(side, side), "bold"))
    head.append(f" ({note})", style="dim")
    return head
