"""Helpers shared by test modules: reading a database file through the Store, as users do."""

from __future__ import annotations

from pathlib import Path

from pokeview.store import open_store
from pokeview.store.rows import DecisionRow, GameRow


def read_game(db: str | Path, game_id: int) -> GameRow:
    store = open_store(db)
    try:
        return store.game(game_id)
    finally:
        store.close()


def read_decisions(db: str | Path, game_id: int, side: str | None = None) -> list[DecisionRow]:
    store = open_store(db)
    try:
        return store.decisions(game_id, side)
    finally:
        store.close()
