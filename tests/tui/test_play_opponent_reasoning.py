"""Against a bot there is no reasoning to hide: no pane saying it is hidden, no `r` in the
footer, and no spoiler recorded when `r` is pressed. It said "the opponent's reasoning is
hidden (r shows it; that is recorded)" against heuristic, and `r` marked the game as peeked at."""

from __future__ import annotations

import time

import pytest
from textual.widgets import Footer

from pokeview.app import make_app
from pokeview.screens.play import PlayScreen
from pokeview.store import open_store


async def until(pilot, condition, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await pilot.pause(0.02)


@pytest.mark.parametrize("opponent,thinks", [("heuristic", False), ("loopback", True)])
async def test_the_reasoning_pane_and_its_key_are_there_only_against_a_model(
    tmp_path, opponent, thinks
):
    db = tmp_path / "play.db"
    app = make_app(db, lambda: PlayScreen(db, opponent=opponent, seed_text="thinks"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await until(pilot, lambda: screen.ctx is not None, "the first decision")
        await pilot.pause(0.2)
        keys = {key.key for key in screen.query_one(Footer).query("FooterKey")}
        assert ("r" in keys) is thinks
        assert screen.query_one("#reasoning").display is thinks
        await pilot.press("r")
        asked = screen.ctx
        await pilot.press("1", "enter")
        await until(pilot, lambda: screen.ctx is not asked, "the choice to be taken")
        game_id = screen.game_id
    store = open_store(db)
    spoilers = [e for e in store.events(game_id) if e.kind == "spoiler"]
    store.close()
    assert len(spoilers) == (1 if thinks else 0)
