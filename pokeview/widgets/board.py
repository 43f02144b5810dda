"""The board: both sides' active Pokémon with what their side knows of them, both teams in a
row, the field, each side's conditions under that side, the turn. A Pokémon of either team can
be picked (keys, or a click on its slot) for the detail panel."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text
from textual import events
from textual.message import Message

from pokeview.game.side import Condition, Pokemon, SideState
from pokeview.widgets.lines import Lines
from pokeview.widgets.pokemon_detail import PokemonDetail, detail_of
from pokeview.widgets.render import conditions_text, field_line, known_lines, literal, mon_line
from pokeview.widgets.team_row import team_row

COMPACT_BELOW = 34  # terminal rows: below this the benches take one line each


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


class Board(Lines):
    DEFAULT_CSS = """
    Board {
        height: auto; padding: 0 1; border: round $primary-darken-1;
        border-title-style: bold; border-title-color: $text;
    }
    """

    @dataclass
    class Picked(Message):
        """A Pokémon's slot was clicked: `place` is "top" or "bottom"."""

        place: str
        species: str

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.shown: dict[str, Any] | None = None
        self._key: Hashable | None = None
        self.selected: tuple[str, str] | None = None  # (place, species) in the detail panel
        self.detail: PokemonDetail | None = None  # the panel it fills, when open

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
        return self.prepare((key, compact, self.selected), lambda: self._content(shown(), compact))

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
            key = (self._key, compact, self.selected)
            self.show_drawn(key, lambda: self._content(s, compact))
        self._fill_detail()

    def _compact(self) -> bool:
        return self.app.size.height < COMPACT_BELOW

    # -- the detail panel ----------------------------------------------------------------

    def pickable(self) -> list[tuple[str, str]]:
        """(place, species) of every Pokémon shown, top team first."""
        if self.shown is None:
            return []
        return [(h.place, m.species) for h in self._halves(self.shown) for m in h.team]

    def pick(self, selected: tuple[str, str] | None) -> None:
        self.selected = selected
        self.redraw()

    def step_pick(self, step: int) -> None:
        """Pick the next (`step` 1) or previous (-1) Pokémon; the foe's active one first."""
        choices = self.pickable()
        if not choices:
            return
        if self.selected in choices:
            at = (choices.index(self.selected) + step) % len(choices)
        else:
            actives = [
                (h.place, m.species)
                for h in self._halves(self.shown or {})
                for m in h.team
                if m.active
            ]
            first = actives[0] if actives else choices[0]
            at = choices.index(first) if first in choices else 0
        self.pick(choices[at])

    def _fill_detail(self) -> None:
        """The detail panel shows the picked Pokémon as it is at this moment (a Pokémon is
        picked only while the panel is open)."""
        panel, s = self.detail, self.shown
        if panel is None or s is None or self.selected is None:
            return
        place, species = self.selected
        for half in self._halves(s):
            if half.place != place:
                continue
            for mon in half.team:
                if mon.species == species:
                    owner = f"{half.side}, {half.note}"
                    seen = half.foe_of or not half.own
                    fmt = half.state.format if half.state else ""
                    panel.update(
                        detail_of(mon, owner=owner, own=half.own, seen=seen, format_id=fmt)
                    )
                    return
        panel.update(literal(f"{species}: not seen at this moment", "dim"))

    def on_click(self, event: events.Click) -> None:
        picked = event.style.meta.get("mon") if event.style else None
        if isinstance(picked, tuple):
            self.post_message(self.Picked(*picked))

    # -- drawing -------------------------------------------------------------------------

    def _halves(self, s: dict[str, Any]) -> list[Half]:
        """The foe's side above, the viewer's below; each with its own side's conditions."""
        view, near, far = s["view"], s["near"], s["far"]
        own = not s["public"]
        mine = near.field.mine if near else []
        theirs = near.field.theirs if near else []
        if view == "spectator":
            note = "as seen" if s["public"] else "full team"
            return [
                Half("top", "p2", note, far, own, False, theirs),
                Half("bottom", "p1", note, near, own, False, mine),
            ]
        other = "p2" if view == "p1" else "p1"
        me = "as seen, from the log" if s["public"] else "you"
        return [
            Half("top", other, "as seen", near, False, True, theirs),
            Half("bottom", view, me, near, own, False, mine),
        ]

    def _content(self, s: dict[str, Any], compact: bool) -> Group:
        top, bottom = (self._block(h, s["names"], compact) for h in self._halves(s))
        field = field_line(s["near"])
        if compact and field.plain == "clear field":
            return Group(top, bottom)
        return Group(top, field, bottom)

    def _block(self, half: Half, names: dict[str, str], compact: bool) -> Group:
        """A side's team as the viewer knows it: the active Pokémon with what is known of it,
        the whole team in one row, the side's conditions."""
        title = self._title(half.side, names, half.note)
        state = half.state
        if state is None:
            return Group(title, Text("  (nothing known yet)", style="dim"))
        lines: list[RenderableType] = [title]
        team = half.team
        for mon in team:
            if mon.active:
                lines.append(mon_line(mon, half.own, bar_width=6 if compact else 12))
                known = known_lines(
                    mon, own=half.own and not half.foe_of, foe=half.foe_of, compact=compact
                )
                lines += [Padding(line, (0, 0, 0, 4)) for line in known]  # wrapped: indented
        picked = self.selected[1] if self.selected and self.selected[0] == half.place else None
        total = state.foe_total if half.foe_of else len(team)
        row = team_row(team, total, compact, place=half.place, picked=picked)
        lines.append(Padding(row, (0, 0, 0, 2)))
        if half.conditions:
            lines.append(Padding(conditions_text(half.conditions), (0, 0, 0, 2)))
        return Group(*lines)

    @staticmethod
    def _title(side: str, names: dict[str, str], note: str) -> Text:
        title = Text(f"{side} ", style="bold reverse")
        title.append(" ")
        title.append_text(literal(names.get(side, side), "bold"))
        title.append(f" ({note})", style="dim")
        return title
