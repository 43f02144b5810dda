"""The board above the battle log: the left half of the replay viewer and of the play screen.
A Pokémon's detail panel takes the log's place while it is open."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll

from pokeview.widgets.battle_log import BattleLog
from pokeview.widgets.board import Board
from pokeview.widgets.pokemon_detail import PokemonDetail


class BattleColumn(Vertical):
    DEFAULT_CSS = """
    BattleColumn { width: 1fr; min-width: 38; }
    BattleColumn #board-scroll { height: auto; max-height: 70%; }
    BattleColumn #log { height: 1fr; min-height: 4; border: round $primary-darken-2; padding: 0 1; }
    BattleColumn #detail-scroll {
        display: none; height: 1fr; min-height: 4; padding: 0 1;
        border: round $accent; border-title-style: bold;
    }
    BattleColumn.-detail #log { display: none; }
    BattleColumn.-detail #detail-scroll { display: block; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="board-scroll", can_focus=False):
            yield Board(id="board")
        yield BattleLog(id="log")
        with VerticalScroll(id="detail-scroll", can_focus=False) as scroll:
            scroll.border_title = "Pokémon · [ ] another · i closes"
            yield PokemonDetail(id="mon-detail")

    def on_mount(self) -> None:
        self.query_one(Board).detail = self.query_one(PokemonDetail)

    def toggle_detail(self) -> None:
        """Open the panel (on the Pokémon picked last, or the foe's active one), or close it."""
        board = self.query_one(Board)
        opening = not self.has_class("-detail")
        self.set_class(opening, "-detail")
        if opening:
            if board.selected is None:
                board.step_pick(0)
            else:
                board.redraw()
        else:
            board.pick(None)

    def step_detail(self, step: int) -> None:
        if not self.has_class("-detail"):
            self.toggle_detail()
            if step:
                return
        self.query_one(Board).step_pick(step)

    @on(Board.Picked)
    def picked(self, message: Board.Picked) -> None:
        self.set_class(True, "-detail")
        self.query_one(Board).pick((message.place, message.species))


class DetailKeys:
    """The detail panel's actions for a screen that shows a BattleColumn (its keys are
    `DETAIL_BINDINGS`, declared once in widgets/pokemon_detail.py)."""

    def action_mon_detail(self) -> None:
        self.query_one(BattleColumn).toggle_detail()  # type: ignore[attr-defined]

    def action_mon_select(self, step: int) -> None:
        self.query_one(BattleColumn).step_detail(step)  # type: ignore[attr-defined]
