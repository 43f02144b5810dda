"""Readers meet a bot's words left for later (`events.Side.later`) derived, not empty: `install`
gives every Store the deriver of battle/derive.py, imported (and its Node started) only when a
game needs it, so that a command that never meets one pays nothing for it."""

from __future__ import annotations

from pokeview.store.compaction import StoreConnection
from pokeview.store.store import Store


def install() -> None:
    """For every Store of this process: a finished game's words left for later are derived when
    a reader first asks for its side events, and kept (the command line and the tests call it)."""
    StoreConnection.deriver = _on_first_read


def _on_first_read(store: Store, game_id: int) -> None:
    from pokeview.battle.derive import derive_for_reader

    derive_for_reader(store, game_id)
