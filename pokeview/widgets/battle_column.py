"""The board above the battle log: the left half of the replay viewer and of the play screen."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll

from pokeview.widgets.battle_log import BattleLog
from pokeview.widgets.board import Board


class BattleColumn(Vertical):
    DEFAULT_CSS = """
    BattleColumn { width: 1fr; min-width: 38; }
    BattleColumn #board-scroll { height: auto; max-height: 70%; }
    BattleColumn #log { height: 1fr; min-height: 4; border: round $primary-darken-2; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="board-scroll", can_focus=False):
            yield Board(id="board")
        yield BattleLog(id="log")
