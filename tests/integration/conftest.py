"""Fixtures shared by the integration tests."""

from __future__ import annotations

import pytest

from pokeview.sim import client


@pytest.fixture
def counted_choices(monkeypatch) -> list[str]:
    """The side of each choice Python sends the bridge, in order."""
    sent: list[str] = []
    original = client.BattleChannel.choose

    def choose(self, side: str, choice: str) -> None:
        sent.append(side)
        original(self, side, choice)

    monkeypatch.setattr(client.BattleChannel, "choose", choose)
    return sent
