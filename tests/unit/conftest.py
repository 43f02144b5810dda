"""Unit tests need neither Node nor the app: starting Node here fails the test at once, so a test
that needs Showdown is moved to tests/integration rather than slowing `make test-fast` down."""

from __future__ import annotations

import pytest


def _no_node() -> str:
    raise AssertionError("a unit test started Node: it belongs in tests/integration")


@pytest.fixture(autouse=True)
def _unit_tests_start_no_node(monkeypatch: pytest.MonkeyPatch) -> None:
    from pokeview.sim import install

    monkeypatch.setattr(install, "node_executable", _no_node)


@pytest.fixture(autouse=True)
def _words_left_as_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot game's words left for later are derived in Node: here they read as recorded."""
    from pokeview.store.compaction import StoreConnection

    monkeypatch.setattr(StoreConnection, "deriver", None)


@pytest.fixture(scope="session")
def bridge() -> None:
    raise AssertionError("the bridge starts Node: a test using it belongs in tests/integration")
