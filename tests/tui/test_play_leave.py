"""Leaving a game being played says it is kept, and how to come back to it."""

from __future__ import annotations

from pokeview.app import make_app
from pokeview.screens.home import HomeScreen
from pokeview.screens.play import PlayScreen
from tests.helpers import settle


async def test_q_says_the_game_is_kept_and_how_to_resume_it(tmp_path, bridge):
    db = tmp_path / "play.db"
    app = make_app(db)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause(0.1)
        screen = PlayScreen(db, opponent="random", seed_text="leave-1")
        app.push_screen(screen)
        await settle(pilot, lambda: screen.ctx is not None)
        await pilot.press("q")
        await settle(pilot, lambda: isinstance(app.screen, HomeScreen))
        said = " ".join(n.message for n in app._notifications)
        assert f"game {screen.game_id} is kept" in said
        assert "pokeview play --resume" in said
