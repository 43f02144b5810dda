"""`pokeview watch FILE` opens a game file in a scratch database and leaves nothing behind."""

from __future__ import annotations

import tempfile

from pokeview import paths
from pokeview.app import PokeviewApp
from pokeview.cli import main
from tests.helpers import ready


def test_watching_a_file_leaves_no_scratch_database(tmp_path, monkeypatch):
    scratch_root = tmp_path / "temp"
    scratch_root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch_root))
    seen = []
    real_run = PokeviewApp.run

    async def look_and_quit(pilot):
        screen = await ready(pilot)
        seen.append((screen.game_id, sorted(p.name for p in scratch_root.rglob("*"))))
        await pilot.press("q")

    def run_headless(self, **kwargs):
        return real_run(self, headless=True, size=(120, 40), auto_pilot=look_and_quit)

    monkeypatch.setattr(PokeviewApp, "run", run_headless)
    game = paths.recordings_dir() / "random-vs-heuristic.json"
    assert main(["--db", str(tmp_path / "mine.db"), "watch", str(game)]) == 0
    assert seen and "watch.db" in seen[0][1]  # it was there while watching
    assert list(scratch_root.iterdir()) == []  # and is gone now
    assert not (tmp_path / "mine.db").exists()  # the user's database was not even created
