"""The board with what each side knows, and the Pokémon detail panel, as a person sees them at
120x36 and 80x24 (issue 31): the loopback game's turn 9, Lugia seeded, from p1's side.

Update after a deliberate change with `pytest tests/tui/test_board_snapshots.py
--snapshot-update` and look at the new SVGs before committing them."""

from __future__ import annotations

import pytest

from pokeview.app import make_app
from pokeview.screens.watch import WatchScreen
from tests.tui.test_snapshots import _settle

TURN_9 = ["right"] * 8


@pytest.mark.parametrize("size", [(120, 36), (80, 24)])
def test_board_at_turn_9(snap_compare, recorded_db, size):
    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 3, "p1"))
    assert snap_compare(app, terminal_size=size, run_before=_settle, press=TURN_9)


@pytest.mark.parametrize("size", [(120, 36), (80, 24)])
def test_detail_panel_on_the_foes_lugia(snap_compare, recorded_db, size):
    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 3, "p1"))
    assert snap_compare(app, terminal_size=size, run_before=_settle, press=[*TURN_9, "i"])
