"""Fixtures for the app: databases built from the shipped recordings, cursor blink off."""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest

from pokeview import paths
from pokeview.exchange import import_game
from pokeview.store import open_store

RECORDINGS = [
    "heuristic-vs-max-damage.json",
    "random-vs-heuristic.json",
    "loopback-test-model-vs-heuristic.json",
]
FIXED = Path("/tmp/pokeview-tui-tests")  # a fixed path: the home screen shows it


def build_db(path: Path, mutate=None) -> Path:
    if path.exists():
        path.unlink()
    store = open_store(path)
    for name in RECORDINGS:
        doc = orjson.loads((paths.recordings_dir() / name).read_bytes())
        if mutate:
            mutate(doc)
        import_game(store, doc)
    store.close()
    return path


@pytest.fixture
def recorded_db() -> Path:
    shutil.rmtree(FIXED, ignore_errors=True)
    FIXED.mkdir(parents=True)
    return build_db(FIXED / "games.db")


@pytest.fixture(autouse=True)
def _no_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.widgets import Input, TextArea

    monkeypatch.setattr(Input, "cursor_blink", False, raising=False)
    monkeypatch.setattr(TextArea, "cursor_blink", False, raising=False)
