"""One class owns the SQL. Writes are explicit transactions; reads need no Node process."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import sqlite_utils

from pokeview import paths
from pokeview.errors import PokeviewError, UnknownGame
from pokeview.store import schema

COMMIT_DELAY = 0.02


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def loads(text: str | None) -> Any:
    return None if text is None else orjson.loads(text)


@dataclass(slots=True)
class GameRow:
    id: int
    run_id: int | None
    pair: int | None
    seat: int | None
    format: str
    seed_text: str | None
    seed: str
    p1: str
    p2: str
    p1_config: dict[str, Any]
    p2_config: dict[str, Any]
    teams: dict[str, str] | None
    status: str
    error: str | None
    winner: str | None
    turns: int | None
    started_at: str
    ended_at: str | None
    pokeview_version: str
    showdown_version: str | None
    input_log: str | None
    spectator_log: str | None
    parent_game: int | None
    parent_decision: int | None
    exclude_from_ratings: int

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> GameRow:
        data = dict(row)
        for key in ("p1_config", "p2_config", "teams"):
            data[key] = loads(data[key])
        data["exclude_from_ratings"] = data["exclude_from_ratings"] or 0
        return cls(**data)

    @property
    def winner_name(self) -> str:
        if self.winner == "p1":
            return self.p1
        if self.winner == "p2":
            return self.p2
        return "tie" if self.winner == "tie" else "-"


@dataclass(slots=True)
class DecisionRow:
    id: int
    game_id: int
    side: str
    idx: int
    turn: int
    request: dict[str, Any]
    actions: list[str]
    action: int
    choice: str
    how: str
    refusals: list[dict[str, Any]]
    detail: dict[str, Any]
    created_at: str
    latency_ms: float | None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> DecisionRow:
        data = dict(row)
        for key in ("request", "actions", "refusals", "detail"):
            data[key] = loads(data[key])
        return cls(**data)


@dataclass(slots=True)
class EventRow:
    id: int
    game_id: int
    side: str | None
    kind: str
    data: Any
    at: float


class Store:
    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(path, timeout=30, check_same_thread=False)
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            self.db = sqlite_utils.Database(conn)
            version = self._schema_version()
            if version is None:
                with conn:
                    schema.create(self.db)
            elif version > schema.SCHEMA_VERSION:
                raise PokeviewError(
                    f"the database {path} is from a newer pokeview (schema {version}); "
                    "upgrade pokeview"
                )
        except (sqlite3.Error, OSError) as exc:
            raise PokeviewError(
                f"cannot open the database at {path}: {exc}; pass --db PATH or set POKEVIEW_DB"
            ) from exc
        self.conn = conn
        self._commit_scheduled: asyncio.TimerHandle | None = None

    def _schema_version(self) -> int | None:
        if not self.db["meta"].exists():
            return None
        row = self.db.execute("select value from meta where key = 'schema_version'").fetchone()
        return int(row[0]) if row else None

    def close(self) -> None:
        if self._commit_scheduled is not None:
            self._commit_scheduled.cancel()
        self.conn.commit()
        self.conn.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self.conn:
            yield

    # -- players and games -----------------------------------------------------------------

    def remember_player(self, name: str, kind: str, config: dict[str, Any]) -> None:
        self.conn.execute(
            "insert into players (name, kind, config, first_seen) values (?, ?, ?, ?) "
            "on conflict(name) do update set kind = excluded.kind, config = excluded.config",
            (name, kind, dumps(config), now()),
        )

    def create_game(self, **fields: Any) -> int:
        row = {
            "status": "running",
            "started_at": now(),
            "exclude_from_ratings": 0,
            **fields,
        }
        for key in ("p1_config", "p2_config", "teams"):
            if key in row and not isinstance(row[key], str | None):
                row[key] = dumps(row[key])
        columns = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        with self.conn:
            cur = self.conn.execute(
                f"insert into games ({columns}) values ({marks})", tuple(row.values())
            )
        return int(cur.lastrowid or 0)

    def finish_game(
        self,
        game_id: int,
        *,
        status: str,
        winner: str | None = None,
        turns: int | None = None,
        error: str | None = None,
        input_log: list[str] | None = None,
        spectator_log: list[str] | None = None,
        showdown_version: str | None = None,
    ) -> None:
        with self.conn:
            self.conn.execute(
                "update games set status = ?, winner = ?, turns = ?, error = ?, ended_at = ?, "
                "input_log = ?, spectator_log = ?, "
                "showdown_version = coalesce(?, showdown_version) where id = ?",
                (
                    status,
                    winner,
                    turns,
                    error,
                    now(),
                    "\n".join(input_log) if input_log is not None else None,
                    "\n".join(spectator_log) if spectator_log is not None else None,
                    showdown_version,
                    game_id,
                ),
            )

    def delete_game(self, game_id: int) -> None:
        with self.conn:
            for table, column in (("events", "game_id"), ("decisions", "game_id"), ("games", "id")):
                self.conn.execute(f"delete from {table} where {column} = ?", (game_id,))

    def set_spectator_log(self, game_id: int, log: str) -> None:
        with self.conn:
            self.conn.execute("update games set spectator_log = ? where id = ?", (log, game_id))

    def game(self, game_id: int | str) -> GameRow:
        try:
            gid = int(game_id)
        except (TypeError, ValueError):
            raise UnknownGame(
                f"'{game_id}' is not a game id (ids are numbers; see `pokeview games`)"
            ) from None
        row = self.conn.execute("select * from games where id = ?", (gid,)).fetchone()
        if row is None:
            raise UnknownGame(f"no game {gid} in {self.path} (see `pokeview games`)")
        return GameRow.from_row(row)

    def games(
        self,
        *,
        limit: int = 50,
        offset: int = 0,
        status: str | None = None,
        run_id: int | None = None,
    ) -> list[GameRow]:
        where, params = [], []
        if status:
            where.append("status = ?")
            params.append(status)
        if run_id is not None:
            where.append("run_id = ?")
            params.append(run_id)
        clause = f"where {' and '.join(where)}" if where else ""
        rows = self.conn.execute(
            f"select * from games {clause} order by id desc limit ? offset ?",
            (*params, limit, offset),
        ).fetchall()
        return [GameRow.from_row(r) for r in rows]

    def count_games(self) -> int:
        return int(self.conn.execute("select count(*) from games").fetchone()[0])

    # -- decisions and events ----------------------------------------------------------------

    def add_decision(self, game_id: int, **fields: Any) -> int:
        row = {"game_id": game_id, "created_at": now(), **fields}
        for key in ("request", "actions", "refusals", "detail"):
            if key in row:
                row[key] = dumps(row[key])
        columns = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        cur = self.conn.execute(
            f"insert into decisions ({columns}) values ({marks})", tuple(row.values())
        )
        return int(cur.lastrowid or 0)

    def update_decision(self, decision_id: int, **fields: Any) -> None:
        for key in ("request", "actions", "refusals", "detail"):
            if key in fields:
                fields[key] = dumps(fields[key])
        sets = ", ".join(f"{k} = ?" for k in fields)
        self.conn.execute(
            f"update decisions set {sets} where id = ?", (*fields.values(), decision_id)
        )

    def decisions(self, game_id: int, side: str | None = None) -> list[DecisionRow]:
        sql = "select * from decisions where game_id = ?"
        params: list[Any] = [game_id]
        if side:
            sql += " and side = ?"
            params.append(side)
        rows = self.conn.execute(sql + " order by side, idx", params).fetchall()
        return [DecisionRow.from_row(r) for r in rows]

    def append_events(
        self, game_id: int, events: list[tuple[str | None, str, Any]], at: float
    ) -> None:
        self.conn.executemany(
            "insert into events (game_id, side, kind, data, at) values (?, ?, ?, ?, ?)",
            [(game_id, side, kind, dumps(data), at) for side, kind, data in events],
        )

    def events(self, game_id: int, after: int = 0) -> list[EventRow]:
        rows = self.conn.execute(
            "select * from events where game_id = ? and id > ? order by id", (game_id, after)
        ).fetchall()
        return [
            EventRow(r["id"], r["game_id"], r["side"], r["kind"], loads(r["data"]), r["at"])
            for r in rows
        ]

    def commit(self) -> None:
        self._commit_scheduled = None
        self.conn.commit()

    def commit_soon(self, delay: float = COMMIT_DELAY) -> None:
        """Commit within `delay` seconds, coalescing the many small writes of running games.

        Outside an event loop it commits at once. Live readers see a write at most `delay` late.
        """
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.commit()
            return
        if self._commit_scheduled is None:
            self._commit_scheduled = loop.call_later(delay, self.commit)


def open_store(path: str | Path | None = None) -> Store:
    return Store(Path(path) if path else paths.database_path())
