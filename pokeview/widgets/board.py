"""The board: both sides' active Pokémon with what their side knows of them, both teams in a
row, the field, each side's conditions under that side, the turn. A Pokémon of either team can
be picked (keys, or a click on its slot) for the detail panel. The drawing is `board/layout.py`'s
(shared with the static site); this widget shows it, keeps it drawn, and handles the picking."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

from textual import events
from textual.message import Message

from pokeview.board.layout import BoardView, draw, halves
from pokeview.board.parts import literal
from pokeview.widgets.lines import Lines
from pokeview.widgets.pokemon_detail import PokemonDetail, detail_of

COMPACT_BELOW = 34  # terminal rows: below this the benches take one line each


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
        self.shown: BoardView | None = None
        self._key: Hashable | None = None
        self.selected: tuple[str, str] | None = None  # (place, species) in the detail panel
        self.detail: PokemonDetail | None = None  # the panel it fills, when open

    def show(self, shown: BoardView, *, key: Hashable | None = None) -> None:
        """Show the board `shown`. `key` names this board fully (a replay's view and frame):
        drawn once, kept drawn."""
        self.shown = shown
        self._key = key
        self.redraw()

    def draw_ahead(self, key: Hashable, shown: Callable[[], BoardView]) -> bool:
        """Draw the board `show(shown(), key=key)` would show, before it is shown (True when
        it was not drawn already)."""
        compact = self._compact()
        return self.prepare(
            (key, compact, self.selected), lambda: draw(shown(), compact, self.selected)
        )

    def redraw(self) -> None:
        """Draw again what was last shown (the terminal's size decides how compact)."""
        s = self.shown
        if s is None:
            return
        self.set_title(f"Turn {s.turn} · viewing {s.view}")  # in the border: no row used
        compact = self._compact()
        if self._key is None:
            self.update(draw(s, compact, self.selected))
        else:
            key = (self._key, compact, self.selected)
            self.show_drawn(key, lambda: draw(s, compact, self.selected))
        self._fill_detail()

    def _compact(self) -> bool:
        return self.app.size.height < COMPACT_BELOW

    # -- the detail panel ----------------------------------------------------------------

    def pickable(self) -> list[tuple[str, str]]:
        """(place, species) of every Pokémon shown, top team first."""
        if self.shown is None:
            return []
        return [(h.place, m.species) for h in halves(self.shown) for m in h.team]

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
            assert self.shown is not None  # there are choices
            actives = [(h.place, m.species) for h in halves(self.shown) for m in h.team if m.active]
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
        for half in halves(s):
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
