"""Shared fixtures: one Node bridge for the session, a fresh database per test.

Every finished game a test records is verified at teardown (its input log re-run in Showdown
gives the stored spectator log), so `pokeview verify` holds for every game the tests record.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from pokeview import paths
from tests.helpers import DATA

# Keep the user's own files out; share one Showdown install across temporary homes.
os.environ.setdefault("POKEVIEW_SHOWDOWN_DIR", str(paths.showdown_dir()))


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("POKEVIEW_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("POKEVIEW_DB", str(tmp_path / "home" / "pokeview.db"))
    yield


@pytest.fixture(scope="session", autouse=True)
def _words_derived_when_read() -> None:
    """As the command line does: a bot game's words, left for later, are derived when read."""
    from pokeview.battle import later

    later.install()


@pytest.fixture(scope="session")
async def bridge() -> AsyncIterator[object]:
    from pokeview.sim.client import Bridge

    bridge = Bridge()
    await bridge.start()
    yield bridge
    await bridge.close()


@pytest.fixture
async def store(tmp_path: Path, bridge: object) -> AsyncIterator[object]:
    from pokeview.battle.verify import verify_game
    from pokeview.store import open_store

    store = open_store(tmp_path / "games.db")
    yield store
    store.commit()
    for game in store.games(limit=100_000, status="finished"):
        if game.parent_game is None and not getattr(store, "skip_verify", False):
            verdict = await verify_game(bridge, store, game.id)  # type: ignore[arg-type]
            assert verdict.ok, verdict.message
    store.close()


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture(scope="session")
async def loopback() -> AsyncIterator[object]:
    """The stand-in model provider, on a real loopback port, for the whole session."""
    from pokeview.players.llm.loopback import LoopbackModel

    server = await LoopbackModel().start()
    yield server
    await server.stop()
