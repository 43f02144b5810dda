"""Players: anything that, given a side's view and its legal actions, returns a choice.

Its names are imported when first asked for, so that reading the kinds of players
(`pokeview.players.registry`, for `--help`) loads no player and no poke-env."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pokeview.players.base import Decision, DecisionContext, Player
    from pokeview.players.registry import make_player

__all__ = ["Decision", "DecisionContext", "Player", "make_player"]


def __getattr__(name: str) -> Any:
    if name in ("Decision", "DecisionContext", "Player"):
        from pokeview.players import base

        return getattr(base, name)
    if name == "make_player":
        from pokeview.players.registry import make_player

        return make_player
    raise AttributeError(f"module 'pokeview.players' has no attribute {name!r}")
