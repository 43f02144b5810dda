"""The board: both sides' active Pokémon and teams, the field, the turn."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from pokeview.game.side import Condition, SideState
from pokeview.widgets.lines import Lines
from pokeview.widgets.render import conditions_text, field_line, known_lines, literal, mon_line
from pokeview.widgets.team_row import team_row

COMPACT_BELOW = 34  # terminal rows: below this the benches take one line each


class Board(Lines):
    DEFAULT_CSS = """
    Board {
        height: auto; padding: 0 1; border: round $primary-darken-1;
        border-title-style: bold; border-title-color: $text;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.shown: dict[str, Any] | None = None
        self._key: Hashable | None = None

    def show(
        self,
        *,
        view: str,
        turn: int,
        near: SideState | None,
        far: SideState | None,
        names: dict[str, str],
        public: bool = False,
        key: Hashable | None = None,
    ) -> None:
        """`near` is the viewing side's state; `far` is the other side's own (spectator).
        `public`: only what the log showed (an imported replay): HP in percent, teams as seen.
        `key` names this board fully (a replay's view and frame): drawn once, kept drawn."""
        self.shown = {
            "view": view,
            "turn": turn,
            "near": near,
            "far": far,
            "names": names,
            "public": public,
        }
        self._key = key
        self.redraw()

    def draw_ahead(self, key: Hashable, shown: Callable[[], dict[str, Any]]) -> bool:
        """Draw the board `show(key=key, **shown())` would show, before it is shown (True when
        it was not drawn already)."""
        compact = self._compact()
        return self.prepare((key, compact), lambda: self._content(shown(), compact))

    def redraw(self) -> None:
        """Draw again what was last shown (the terminal's size decides how compact)."""
        s = self.shown
        if s is None:
            return
        self.set_title(f"Turn {s['turn']} · viewing {s['view']}")  # in the border: no row used
        compact = self._compact()
        if self._key is None:
            self.update(self._content(s, compact))
        else:
            self.show_drawn((self._key, compact), lambda: self._content(s, compact))

    def _compact(self) -> bool:
        return self.app.size.height < COMPACT_BELOW

    def _content(self, s: dict[str, Any], compact: bool) -> Group:
        """The foe's side above, the viewer's below, the field between; each side's
        conditions (Stealth Rock, Reflect) under that side's team."""
        view, near, far, names = s["view"], s["near"], s["far"], s["names"]
        own = not s["public"]
        mine = near.field.mine if near else []
        theirs = near.field.theirs if near else []
        if view == "spectator":
            note = "as seen" if s["public"] else "full team"
            top = team_block(
                self._title("p2", names, note), far, own=own, compact=compact, conditions=theirs
            )
            bottom = team_block(
                self._title("p1", names, note), near, own=own, compact=compact, conditions=mine
            )
        else:
            other = "p2" if view == "p1" else "p1"
            top = team_block(
                self._title(other, names, "as seen"),
                near,
                own=False,
                foe_of=True,
                compact=compact,
                conditions=theirs,
            )
            me = "as seen, from the log" if s["public"] else "you"
            bottom = team_block(
                self._title(view, names, me), near, own=own, compact=compact, conditions=mine
            )
        field = field_line(near)
        if compact and field.plain == "clear field":
            return Group(top, bottom)
        return Group(top, field, bottom)

    @staticmethod
    def _title(side: str, names: dict[str, str], note: str) -> Text:
        title = Text(f"{side} ", style="bold reverse")
        title.append(" ")
        title.append_text(literal(names.get(side, side), "bold"))
        title.append(f" ({note})", style="dim")
        return title


def team_block(
    title: Text,
    state: SideState | None,
    own: bool,
    foe_of: bool = False,
    compact: bool = False,
    conditions: list[Condition] | None = None,
) -> Group:
    """A side's team as the viewer knows it: the active Pokémon with what is known of it (types,
    item, ability, volatiles, moves), the whole team in one row, the side's conditions.
    `own`: exact HP, and the Pokémon's own knowledge (PP left); `compact` (a small terminal):
    fewer lines, so that both sides' actives fit above the log."""
    if state is None:
        return Group(title, Text("  (nothing known yet)", style="dim"))
    lines: list[RenderableType] = [title]
    team = state.foe_team if foe_of else state.team
    for mon in team:
        if mon.active:
            lines.append(mon_line(mon, own, bar_width=6 if compact else 12))
            known = known_lines(mon, own=own and not foe_of, foe=foe_of, compact=compact)
            lines += [Padding(line, (0, 0, 0, 4)) for line in known]  # wrapped lines indented
    lines.append(
        Padding(team_row(team, state.foe_total if foe_of else len(team), compact), (0, 0, 0, 2))
    )
    if conditions:
        lines.append(Padding(conditions_text(conditions), (0, 0, 0, 2)))
    return Group(*lines)
