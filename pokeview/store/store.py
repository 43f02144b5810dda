"""One class owns the SQL. Writes are explicit transactions; reads need no Node process."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import sqlite_utils

from pokeview import paths
from pokeview.errors import PokeviewError, UnknownGame
from pokeview.store import schema

COMMIT_DELAY = 0.05
REPLAY_SEED = "replay"  # the seed of games imported from Showdown replays (they have none)


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
    def is_imported_replay(self) -> bool:
        """A Showdown replay imported as it was: public log only, no decisions or input log."""
        return self.seed == REPLAY_SEED

    @property
    def winner_name(self) -> str:
        if self.winner == "p1":
            return self.p1
        if self.winner == "p2":
            return self.p2
        return "tie" if self.winner == "tie" else "-"


@dataclass(slots=True)
class RunRow:
    id: int
    name: str
    config: dict[str, Any]
    header: dict[str, Any] | None
    state: str
    created_at: str
    config_hash: str | None
    planned: int | None
    pid: int | None
    updated_at: str | None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> RunRow:
        data = dict(row)
        data["config"] = loads(data["config"]) or {}
        data["header"] = loads(data["header"])
        return cls(**data)


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
            elif version < schema.SCHEMA_VERSION:
                with conn:
                    schema.migrate(self.db, version)
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

    def set_excluded(self, game_id: int) -> None:
        with self.conn:
            self.conn.execute("update games set exclude_from_ratings = 1 where id = ?", (game_id,))

    def set_status(self, game_id: int, status: str) -> None:
        with self.conn:
            self.conn.execute("update games set status = ? where id = ?", (status, game_id))

    def latest_human_game(
        self, statuses: tuple[str, ...] = ("paused", "running")
    ) -> GameRow | None:
        marks = ",".join("?" * len(statuses))
        row = self.conn.execute(
            f"select * from games where status in ({marks}) and "
            "(json_extract(p1_config, '$.kind') = 'human' "
            "or json_extract(p2_config, '$.kind') = 'human') "
            "order by id desc limit 1",
            statuses,
        ).fetchone()
        return GameRow.from_row(row) if row else None

    def forget_after(self, game_id: int, event_id: int, decisions: set[tuple[str, int]]) -> None:
        """Drop what was recorded after `event_id` (a game resumed from that point)."""
        with self.conn:
            self.conn.execute(
                "delete from events where game_id = ? and id > ?", (game_id, event_id)
            )
            for side, idx in decisions:
                self.conn.execute(
                    "delete from decisions where game_id = ? and side = ? and idx = ?",
                    (game_id, side, idx),
                )
            self.conn.execute(
                "update games set status = 'running', ended_at = null where id = ?", (game_id,)
            )

    def input_log_before(self, game_id: int, event_id: int) -> list[str]:
        """The input log as it stood when event `event_id` was written (to fork from there)."""
        lines: list[str] = []
        for event in self.events(game_id):
            if event.id >= event_id:
                break
            if event.kind == "input":
                lines += event.data if isinstance(event.data, list) else event.data["lines"]
        return lines

    def mark_interrupted(self, game_id: int) -> None:
        """A game whose runner died: kept as it was, out of the ratings and of what is done."""
        with self.conn:
            self.conn.execute(
                "update games set status = 'interrupted', ended_at = ?, exclude_from_ratings = 1, "
                "error = 'the runner stopped during this game; it was played again from its seed' "
                "where id = ? and status = 'running'",
                (now(), game_id),
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

    def search_games(
        self, text: str = "", *, limit: int = 200, offset: int = 0
    ) -> list[sqlite3.Row]:
        """Light rows for lists: newest first, filtered by id, player, format, status or run."""
        sql = (
            "select g.id, g.started_at, g.format, g.p1, g.p2, g.winner, g.turns, g.status, "
            "r.name as run from games g left join runs r on r.id = g.run_id"
        )
        params: list[Any] = []
        text = text.strip()
        if text:
            if text.isdigit():
                sql += " where g.id = ?"
                params.append(int(text))
            else:
                like = f"%{text}%"
                sql += (
                    " where g.p1 like ? or g.p2 like ? or g.format like ? or g.status = ? "
                    "or r.name like ? or g.winner = ?"
                )
                params += [like, like, like, text, like, text]
        sql += " order by g.id desc limit ? offset ?"
        return self.conn.execute(sql, (*params, limit, offset)).fetchall()

    def count_games(self) -> int:
        return int(self.conn.execute("select count(*) from games").fetchone()[0])

    # -- runs --------------------------------------------------------------------------------

    def run(self, name_or_id: str | int) -> RunRow:
        row = self.conn.execute(
            "select * from runs where name = ? or (cast(id as text) = ?)",
            (str(name_or_id), str(name_or_id)),
        ).fetchone()
        if row is None:
            raise PokeviewError(f"no run '{name_or_id}' in {self.path} (see `pokeview runs`)")
        return RunRow.from_row(row)

    def find_run(self, name: str) -> RunRow | None:
        row = self.conn.execute("select * from runs where name = ?", (name,)).fetchone()
        return RunRow.from_row(row) if row else None

    def create_run(self, name: str, config: dict[str, Any], config_hash: str, planned: int) -> int:
        with self.conn:
            cur = self.conn.execute(
                "insert into runs (name, config, config_hash, planned, state, created_at, "
                "updated_at) values (?, ?, ?, ?, 'new', ?, ?)",
                (name, dumps(config), config_hash, planned, now(), now()),
            )
        return int(cur.lastrowid or 0)

    def update_run(self, run_id: int, **fields: Any) -> None:
        if "header" in fields:
            fields["header"] = dumps(fields["header"])
        fields["updated_at"] = now()
        sets = ", ".join(f"{k} = ?" for k in fields)
        with self.conn:
            self.conn.execute(f"update runs set {sets} where id = ?", (*fields.values(), run_id))

    def runs(self) -> list[tuple[RunRow, dict[str, int]]]:
        rows = self.conn.execute("select * from runs order by id desc").fetchall()
        counts: dict[int, dict[str, int]] = {}
        for run_id, status, n in self.conn.execute(
            "select run_id, status, count(*) from games where run_id is not null "
            "group by run_id, status"
        ):
            counts.setdefault(run_id, {})[status] = n
        return [(RunRow.from_row(r), counts.get(r["id"], {})) for r in rows]

    def run_games(self, run_id: int) -> list[tuple[int, int, int, str, str, str]]:
        """(id, pair, seat, p1, p2, status) of every game the run has recorded."""
        return [
            tuple(r)
            for r in self.conn.execute(
                "select id, pair, seat, p1, p2, status from games where run_id = ? order by id",
                (run_id,),
            )
        ]

    def rating_games(self, run_id: int | None = None) -> list[sqlite3.Row]:
        """Finished games that count for ratings (harness errors and forks left out)."""
        sql = (
            "select id, run_id, pair, seat, p1, p2, winner from games "
            "where status = 'finished' and coalesce(exclude_from_ratings, 0) = 0"
        )
        params: tuple[Any, ...] = ()
        if run_id is not None:
            sql += " and run_id = ?"
            params = (run_id,)
        # A canonical order (not by id, which follows finishing order): the same games always
        # give the same bootstrap draws, however often the runner was interrupted.
        order = " order by coalesce(run_id, 0), coalesce(pair, id), seat, p1, p2, id"
        return self.conn.execute(sql + order, params).fetchall()

    def error_games(self, run_id: int | None = None) -> int:
        sql = "select count(*) from games where status = 'error'"
        if run_id is not None:
            return int(self.conn.execute(sql + " and run_id = ?", (run_id,)).fetchone()[0])
        return int(self.conn.execute(sql).fetchone()[0])

    def game_cost(self, game_id: int) -> float | None:
        """USD both sides' models cost in one game; None when any of it is unknown or no model."""
        rows = self.conn.execute(
            "select json_extract(detail, '$.cost') from decisions where game_id = ? "
            "and json_extract(detail, '$.model') is not null",
            (game_id,),
        ).fetchall()
        if not rows or any(r[0] is None for r in rows):
            return None
        return float(sum(r[0] for r in rows))

    def game_has_model(self, game_id: int) -> bool:
        row = self.conn.execute(
            "select 1 from games where id = ? and (json_extract(p1_config, '$.kind') = 'llm' "
            "or json_extract(p2_config, '$.kind') = 'llm')",
            (game_id,),
        ).fetchone()
        return row is not None

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

    def decisions_after(self, game_id: int, after: int = 0) -> list[DecisionRow]:
        """Decisions recorded since decision row `after` (for following a live game)."""
        rows = self.conn.execute(
            "select * from decisions where game_id = ? and id > ? order by id", (game_id, after)
        ).fetchall()
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

    # -- added on branch methods

    def void_games(self, run_id: int | None = None) -> list[tuple[str, str, str]]:
        """(p1, p2, error) of every void game (of one run, or all): a model was on autopilot."""
        sql = "select p1, p2, coalesce(error, '') from games where status = 'void'"
        params: tuple[Any, ...] = ()
        if run_id is not None:
            sql += " and run_id = ?"
            params = (run_id,)
        return [tuple(r) for r in self.conn.execute(sql + " order by id", params)]


def open_store(path: str | Path | None = None) -> Store:
    return Store(Path(path) if path else paths.database_path())
