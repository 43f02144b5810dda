"""pokeview's own JSON form of a game: the game row, its decisions and its events."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import orjson

from pokeview import __version__
from pokeview.errors import PokeviewError
from pokeview.store.store import Store, open_store

FORMAT = "pokeview-game/1"


def export_game(store: Store, game_id: int | str) -> str:
    game = store.game(game_id)
    row = dict(store.conn.execute("select * from games where id = ?", (game.id,)).fetchone())
    decisions = [
        dict(r)
        for r in store.conn.execute(
            "select * from decisions where game_id = ? order by id", (game.id,)
        )
    ]
    events = [
        dict(r)
        for r in store.conn.execute(
            "select * from events where game_id = ? order by id", (game.id,)
        )
    ]
    doc = {
        "format": FORMAT,
        "pokeview": __version__,
        "game": row,
        "decisions": decisions,
        "events": events,
    }
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode() + "\n"


def import_game(store: Store, doc: dict[str, Any]) -> int:
    """Insert a game from its JSON form under a new id; all or nothing."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise PokeviewError(f"not a pokeview game file (expected format {FORMAT!r})")
    try:
        with store.conn:
            game = {k: v for k, v in doc["game"].items() if k != "id"}
            game["run_id"] = None  # runs are not carried over
            cur = store.conn.execute(
                f"insert into games ({', '.join(game)}) values ({', '.join('?' * len(game))})",
                tuple(game.values()),
            )
            new_id = int(cur.lastrowid or 0)
            for table in ("decisions", "events"):
                for item in doc[table]:
                    item = {k: v for k, v in item.items() if k != "id"}
                    item["game_id"] = new_id
                    store.conn.execute(
                        f"insert into {table} ({', '.join(item)}) "
                        f"values ({', '.join('?' * len(item))})",
                        tuple(item.values()),
                    )
    except (KeyError, TypeError, sqlite3.Error) as exc:
        raise PokeviewError(f"the game file is incomplete or damaged: {exc}") from None
    return new_id


def import_json_into_scratch(path: Path) -> tuple[Path, int]:
    """Load a game file into a temporary database, to watch it without touching the user's."""
    try:
        doc = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError) as exc:
        raise PokeviewError(f"cannot read the game file {path}: {exc}") from None
    scratch = Path(tempfile.mkdtemp(prefix="pokeview-")) / "watch.db"
    store = open_store(scratch)
    try:
        return scratch, import_game(store, doc)
    finally:
        store.close()
