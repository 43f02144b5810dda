"""The board above the battle log: the left half of the replay viewer and of the play screen."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import RichLog

from pokeview.widgets.board import Board


class BattleColumn(Vertical):
    DEFAULT_CSS = """
    BattleColumn { width: 1fr; min-width: 40; }
    BattleColumn #board { height: auto; max-height: 60%; }
    BattleColumn #log { height: 1fr; border: round $primary-darken-2; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        yield Board(id="board")
        # markup off: the log is Showdown's words, shown literally (min_width 20: wrap narrow)
        yield RichLog(id="log", wrap=True, markup=False, highlight=False, min_width=20)
