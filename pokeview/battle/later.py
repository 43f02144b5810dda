"""Readers meet a bot's words left for later (`events.Side.later`) derived, not empty, and a game
the bridge played through by itself (`body.PLAYED`) with its steps: `install`
gives every Store the deriver of battle/derive.py, imported (and its Node started) only when a
game needs it, so that a command that never meets one pays nothing for it."""

from __future__ import annotations

from typing import Any

from pokeview.store.compaction import StoreConnection


class _OnFirstRead:
    """`compaction.Deriver`, importing battle/derive.py when first used."""

    def keep(self, store: Any, game_id: int) -> None:
        from pokeview.battle.derive import FOR_READERS

        FOR_READERS.keep(store, game_id)

    def preview(self, store: Any, game_id: int) -> dict[int, str]:
        from pokeview.battle.derive import FOR_READERS

        return FOR_READERS.preview(store, game_id)

    def whole(self, game: Any, played: Any) -> Any:
        from pokeview.battle.derive import FOR_READERS

        return FOR_READERS.whole(game, played)


def install() -> None:
    """For every Store of this process: a finished game's words left for later are derived when
    a reader first asks for its side events, and kept; a running game's are derived for each
    read (the command line and the tests call this)."""
    StoreConnection.deriver = _OnFirstRead()
