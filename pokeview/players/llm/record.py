"""Read what one side saw from the record: the input of the prompt renderer."""

from __future__ import annotations

from pokeview.store.events import EventKind, Side
from pokeview.store.store import Store


def side_updates(store: Store, game_id: int, side: str) -> list[Side]:
    """That side's updates from the bridge, in order, exactly as the player received them."""
    return [e.data for e in store.events(game_id, kinds=(EventKind.SIDE,), side=side)]
