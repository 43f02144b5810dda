"""`pokeview watch FILE`, then `f`: the game would be played in the scratch database that is
removed when the viewer closes, yet the play screen said "game 2 is kept: ... `pokeview play
--resume`". It is refused instead, saying how to play on from it (import it first)."""

from __future__ import annotations

import tempfile

from pokeview import paths
from pokeview.app import PokeviewApp
from pokeview.cli import main
from pokeview.screens.watch import WatchScreen
from tests.helpers import ready


def test_play_on_from_a_watched_file_is_refused_with_how_to(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    seen: list = []
    real_run = PokeviewApp.run

    async def fork_and_quit(pilot):
        await ready(pilot)
        await pilot.press("right", "right", "f")
        await pilot.pause(0.5)
        seen.append((type(pilot.app.screen), [n.message for n in pilot.app._notifications]))
        await pilot.app.action_quit()

    def run_headless(self, **kwargs):
        return real_run(self, headless=True, size=(120, 40), auto_pilot=fork_and_quit)

    monkeypatch.setattr(PokeviewApp, "run", run_headless)
    game = paths.recordings_dir() / "random-vs-heuristic.json"
    assert main(["--db", str(tmp_path / "mine.db"), "watch", str(game)]) == 0
    screen, said = seen[0]
    assert screen is WatchScreen, said
    assert any(f"pokeview import {game}" in m for m in said), said
