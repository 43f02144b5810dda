"""The record: SQLite (WAL) holding players, runs, games, decisions and events."""

from pokeview.store.store import GameRow, Store, open_store

__all__ = ["GameRow", "Store", "open_store"]
