"""When a game cannot start or go on, the play screen says why and stays saying it. The error
was written to the status line and overwritten half a second later by "X is thinking… N s",
for ever; an opponent that could not be made (outside the error's reach) left no word at all."""

from __future__ import annotations

from pokeview.app import make_app
from pokeview.screens.play import PlayScreen
from tests.helpers import text_of


async def test_an_opponent_that_cannot_be_made_is_said_and_stays_said(tmp_path):
    db = tmp_path / "play.db"
    app = make_app(db, lambda: PlayScreen(db, opponent="nobody-known"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(1.5)  # past the status line's ticks
        status = text_of(app.screen.query_one("#status"))
        assert "the game could not go on" in status and "nobody-known" in status, status
        assert "thinking" not in status
