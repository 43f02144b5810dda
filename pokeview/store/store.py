"""One class owns the SQL (docs/record.md describes what it keeps). Writes are explicit
transactions; reads need no Node process. Nothing outside `pokeview/store/` runs a statement."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import sqlite_utils

from pokeview import paths
from pokeview.errors import PokeviewError, UnknownGame
from pokeview.store import body as bodies
from pokeview.store import events as ev
from pokeview.store import schema
from pokeview.store.rows import (
    REPLAY_SEED,
    DecisionRow,
    EventRow,
    GameRow,
    RunRow,
    dumps,
    loads,
    now,
)

__all__ = ["REPLAY_SEED", "DecisionRow", "EventRow", "GameRow", "RunRow", "Store", "open_store"]

COMMIT_DELAY = 0.05
ENDED = ("finished", "error", "interrupted")  # the statuses whose games are compacted
BODY_CACHE = 8  # decoded bodies kept per Store (a viewer reads one game many times)

# The columns a game row may be created with; anything else is a programming error.
GAME_COLUMNS = frozenset(
    {
        "run_id",
        "pair",
        "seat",
        "format",
        "seed_text",
        "seed",
        "p1",
        "p2",
        "p1_config",
        "p2_config",
        "teams",
        "status",
        "error",
        "winner",
        "turns",
        "started_at",
        "ended_at",
        "pokeview_version",
        "showdown_version",
        "input_log",
        "spectator_log",
        "parent_game",
        "parent_decision",
        "exclude_from_ratings",
    }
)
DECISION_FIELDS = frozenset(bodies.DECISION_COLUMNS) - {"id", "game_id"}
_JSON_DECISION = ("request", "actions", "refusals", "detail")

# What ratings read of one side's decisions in one game (kept in decision_stats).
_STATS_SELECT = """
    select game_id, side, count(*),
           sum(case when json_extract(detail, '$.usage') is not null then 1 else 0 end),
           coalesce(sum(json_extract(detail, '$.usage.output')), 0),
           sum(coalesce(json_extract(detail, '$.model_latency_ms'), latency_ms, 0)),
           sum(case when json_extract(detail, '$.reasks') > 0 then 1 else 0 end),
           sum(case when how = 'random pick' then 1 else 0 end),
           sum(case when how = 'autopilot' then 1 else 0 end),
           sum(json_extract(detail, '$.cost')),
           sum(case when json_extract(detail, '$.model') is not null
                     and json_extract(detail, '$.cost') is null then 1 else 0 end),
           sum(case when json_extract(detail, '$.model') is not null then 1 else 0 end)
    from decisions where game_id = ? group by side
"""


class DamagedGame(PokeviewError):
    """A compacted game whose body cannot be read; the other games are not affected."""


class Store:
    def __init__(self, path: Path, on_migrate: Callable[[int, int], None] | None = None) -> None:
        self.path = path
        self.read_only = False
        self._bodies: collections.OrderedDict[int, bodies.Body] = collections.OrderedDict()
        self._commit_scheduled: asyncio.TimerHandle | None = None
        try:
            conn = self._connect(path)
            self.conn = conn
            self.db = sqlite_utils.Database(conn)
            if not self.read_only:
                self._prepare_schema()
                if self._meta("compaction_pending"):
                    self.compact_all(on_migrate)
            else:
                version = self._schema_version()
                if version is not None and version != schema.SCHEMA_VERSION:
                    raise PokeviewError(
                        f"the database {path} is read-only and has schema {version}: "
                        f"this pokeview reads {schema.SCHEMA_VERSION}; open it writable once "
                        "to migrate it"
                    )
        except sqlite3.Error as exc:
            raise PokeviewError(f"cannot open the database at {path}: {_reason(exc)}") from None
        except OSError as exc:
            raise PokeviewError(
                f"cannot open the database at {path}: {exc.strerror or exc}; "
                "pass --db PATH or set POKEVIEW_DB"
            ) from None

    def _connect(self, path: Path) -> sqlite3.Connection:
        exists = path.exists()
        if exists and (not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK)):
            # Reading commands still work on a read-only file or file system.
            self.read_only = True
            uri = f"file:{path}?mode=ro"
            if not os.access(path.parent, os.W_OK):
                uri += "&immutable=1"  # no -shm file can be made beside it
            conn = sqlite3.connect(uri, uri=True, timeout=30, check_same_thread=False)
            conn.row_factory = sqlite3.Row
            return conn
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=30, check_same_thread=False, isolation_level=None)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA busy_timeout=30000")
        # Pages freed by compaction go back to the file system (a no-op on an older file until
        # its migration's VACUUM).
        conn.execute("PRAGMA auto_vacuum=INCREMENTAL")
        # Changing the journal mode needs the file to itself: wait like any other write.
        _retry_locked(lambda: conn.execute("PRAGMA journal_mode=WAL"))
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.isolation_level = ""  # back to implicit transactions for the Store's writes
        return conn

    def _prepare_schema(self) -> None:
        """Create or migrate the schema in one write transaction, taken before looking, so
        several processes opening a new database at once create it once, one after another."""
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = self._schema_version()
            if version is None:
                schema.create(self.db)
            elif version < schema.SCHEMA_VERSION:
                schema.migrate(self.db, version)
            elif version > schema.SCHEMA_VERSION:
                raise PokeviewError(
                    f"the database {self.path} was written by a newer pokeview (schema {version}, "
                    f"this one reads {schema.SCHEMA_VERSION}): upgrade pokeview to open it"
                )
            if conn.in_transaction:
                conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def _schema_version(self) -> int | None:
        if not self.db["meta"].exists():
            return None
        value = self._meta("schema_version")
        return int(value) if value else None

    def _meta(self, key: str) -> str | None:
        row = self.conn.execute("select value from meta where key = ?", (key,)).fetchone()
        return row[0] if row else None

    def _writable(self) -> None:
        if self.read_only:
            raise PokeviewError(f"the database {self.path} is read-only: nothing can be written")

    def close(self) -> None:
        if self._commit_scheduled is not None:
            self._commit_scheduled.cancel()
        if not self.read_only:
            self.conn.commit()
            self.shrink()
        self.conn.close()

    def shrink(self) -> None:
        """Give the pages that compacted games freed back to the file system."""
        with contextlib.suppress(sqlite3.Error):  # another process writing: next time
            if not self.conn.execute("PRAGMA freelist_count").fetchone()[0]:
                return
            # executescript steps the pragma to its end (execute frees one page per step).
            self.conn.executescript("PRAGMA incremental_vacuum;")
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    # -- players -----------------------------------------------------------------------------

    def remember_player(self, name: str, kind: str, config: dict[str, Any]) -> None:
        self._writable()
        self.conn.execute(
            "insert into players (name, kind, config, first_seen) values (?, ?, ?, ?) "
            "on conflict(name) do update set kind = excluded.kind, config = excluded.config",
            (name, kind, dumps(config), now()),
        )

    def player_kinds(self) -> dict[str, str]:
        return dict(self.conn.execute("select name, kind from players").fetchall())

    # -- games -------------------------------------------------------------------------------

    def create_game(self, **fields: Any) -> int:
        self._writable()
        unknown = set(fields) - GAME_COLUMNS
        if unknown:
            raise TypeError(f"a game has no column {sorted(unknown)}")
        row = {
            "status": "running",
            "started_at": now(),
            "exclude_from_ratings": 0,
            "pid": os.getpid(),
            **fields,
        }
        for key in ("p1_config", "p2_config", "teams"):
            if key in row and not isinstance(row[key], str | None):
                row[key] = dumps(row[key])
        columns = ", ".join(row)  # names from GAME_COLUMNS only
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
        """End a game; a finished or failed game is compacted in the same transaction."""
        self._writable()
        if self._commit_scheduled is not None:  # the game's last events go in with it
            self._commit_scheduled.cancel()
            self._commit_scheduled = None
        with self.conn:
            self.conn.execute(
                "update games set status = ?, winner = ?, turns = ?, error = ?, ended_at = ?, "
                "input_log = ?, spectator_log = ?, pid = null, "
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
            if status in ENDED:
                self._compact(game_id)

    def set_excluded(self, game_id: int) -> None:
        self._writable()
        with self.conn:
            self.conn.execute("update games set exclude_from_ratings = 1 where id = ?", (game_id,))

    def set_status(self, game_id: int, status: str) -> None:
        self._writable()
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
        self._writable()
        with self.conn:
            self._expand(game_id)
            self.conn.execute(
                "delete from events where game_id = ? and id > ?", (game_id, event_id)
            )
            for side, idx in decisions:
                self.conn.execute(
                    "delete from decisions where game_id = ? and side = ? and idx = ?",
                    (game_id, side, idx),
                )
            self.conn.execute(
                "update games set status = 'running', ended_at = null, pid = ? where id = ?",
                (os.getpid(), game_id),
            )

    def input_log_before(self, game_id: int, event_id: int) -> list[str]:
        """The input log as it stood when event `event_id` was written (to fork from there)."""
        lines: list[str] = []
        for event in self.events(game_id, kinds=(ev.EventKind.INPUT,)):
            if event.id >= event_id:
                break
            lines += event.data.lines
        return lines

    def mark_interrupted(self, game_id: int) -> None:
        """A game whose runner died: kept as it was, out of the ratings and of what is done."""
        self._writable()
        with self.conn:
            self.conn.execute(
                "update games set status = 'interrupted', ended_at = ?, exclude_from_ratings = 1, "
                "error = 'the runner stopped during this game; it was played again from its seed' "
                "where id = ? and status = 'running'",
                (now(), game_id),
            )

    def delete_game(self, game_id: int) -> None:
        self._writable()
        self._bodies.pop(game_id, None)
        with self.conn:
            for table, column in (
                ("events", "game_id"),
                ("decisions", "game_id"),
                ("bodies", "game_id"),
                ("decision_stats", "game_id"),
                ("games", "id"),
            ):
                self.conn.execute(f"delete from {table} where {column} = ?", (game_id,))

    def set_spectator_log(self, game_id: int, log: str) -> None:
        self._writable()
        with self.conn:
            self._expand(game_id)
            self.conn.execute("update games set spectator_log = ? where id = ?", (log, game_id))
            if self._status(game_id) in ENDED:
                self._compact(game_id)

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
        game = GameRow.from_row(row)
        if game.compacted:
            game.spectator_log = self._body(gid).spectator_log
        return game

    def games(
        self,
        *,
        limit: int = 50,
        offset: int = 0,
        status: str | None = None,
        run_id: int | None = None,
    ) -> list[GameRow]:
        """Whole game rows, newest first; a compacted game's spectator log is left unread
        (`game(id)` reads it)."""
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

    def game_ids(self, status: str | None = None) -> list[int]:
        sql, params = "select id from games", ()
        if status:
            sql, params = sql + " where status = ?", (status,)
        return [r[0] for r in self.conn.execute(sql + " order by id", params)]

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
        self._writable()
        with self.conn:
            cur = self.conn.execute(
                "insert into runs (name, config, config_hash, planned, state, created_at, "
                "updated_at) values (?, ?, ?, ?, 'new', ?, ?)",
                (name, dumps(config), config_hash, planned, now(), now()),
            )
        return int(cur.lastrowid or 0)

    def claim_run(
        self,
        name: str,
        config: dict[str, Any],
        config_hash: str,
        planned: int,
        alive: Callable[[int | None], bool],
    ) -> RunRow:
        """Find or create the run and take it for this process, in one write transaction.

        Two runners started at once cannot both take it: the second waits for the first's
        transaction, then sees its pid. A claim held by a process that is gone is taken over.
        Raises PokeviewError when another live process holds it or the config changed.
        """
        self._writable()
        self.conn.commit()  # what this process wrote before goes first
        with self.conn:
            self.conn.execute("BEGIN IMMEDIATE")
            row = self.conn.execute("select * from runs where name = ?", (name,)).fetchone()
            if row is None:
                self.conn.execute(
                    "insert into runs (name, config, config_hash, planned, state, created_at, "
                    "updated_at, pid) values (?, ?, ?, ?, 'running', ?, ?, ?)",
                    (name, dumps(config), config_hash, planned, now(), now(), os.getpid()),
                )
            else:
                run = RunRow.from_row(row)
                if run.config_hash != config_hash:
                    raise PokeviewError(
                        f"run '{name}' was started with a different config; give the changed "
                        "config a new 'name' (a run's games must all follow one config)"
                    )
                if run.state == "running" and run.pid != os.getpid() and alive(run.pid):
                    raise PokeviewError(f"run '{name}' is being played by process {run.pid}")
                self.conn.execute(
                    "update runs set state = 'running', pid = ?, updated_at = ? where id = ?",
                    (os.getpid(), now(), run.id),
                )
            row = self.conn.execute("select * from runs where name = ?", (name,)).fetchone()
        return RunRow.from_row(row)

    def update_run(self, run_id: int, **fields: Any) -> None:
        self._writable()
        allowed = {"header", "state", "pid", "planned"}
        if set(fields) - allowed:
            raise TypeError(f"a run has no updatable column {sorted(set(fields) - allowed)}")
        if "header" in fields:
            fields["header"] = dumps(fields["header"])
        fields["updated_at"] = now()
        sets = ", ".join(f"{k} = ?" for k in fields)  # names checked above
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

    def run_name(self, run_id: int | None) -> str | None:
        if run_id is None:
            return None
        row = self.conn.execute("select name from runs where id = ?", (run_id,)).fetchone()
        return row[0] if row else None

    def run_games(self, run_id: int) -> list[tuple[int, int, int, str, str, str]]:
        """(id, pair, seat, p1, p2, status) of every game the run has recorded."""
        return [
            tuple(r)
            for r in self.conn.execute(
                "select id, pair, seat, p1, p2, status from games where run_id = ? order by id",
                (run_id,),
            )
        ]

    def running_games(self, run_ids: Sequence[int]) -> list[sqlite3.Row]:
        """(id, p1, p2, run_id) of the games of these runs still being played."""
        marks = ",".join("?" * len(run_ids)) or "null"
        return self.conn.execute(
            f"select id, p1, p2, run_id from games where status = 'running' "
            f"and run_id in ({marks}) order by id",
            tuple(run_ids),
        ).fetchall()

    def ended_games(self, run_ids: Sequence[int], limit: int = 30) -> list[sqlite3.Row]:
        """(id, p1, p2, winner, turns, status) of these runs' games no longer running."""
        marks = ",".join("?" * len(run_ids)) or "null"
        return self.conn.execute(
            f"select id, p1, p2, winner, turns, status from games where status != 'running' "
            f"and run_id in ({marks}) order by id desc limit ?",
            (*run_ids, limit),
        ).fetchall()

    def ended_mark(self, run_ids: Sequence[int]) -> tuple[int, int]:
        """(count, newest id) of these runs' ended games: changes whenever one ends."""
        marks = ",".join("?" * len(run_ids)) or "null"
        row = self.conn.execute(
            f"select count(*), coalesce(max(id), 0) from games where status != 'running' "
            f"and run_id in ({marks})",
            tuple(run_ids),
        ).fetchone()
        return int(row[0]), int(row[1])

    def results(self, run_ids: Sequence[int]) -> list[sqlite3.Row]:
        """(p1, p2, winner) of these runs' finished games."""
        marks = ",".join("?" * len(run_ids)) or "null"
        return self.conn.execute(
            f"select p1, p2, winner from games where status = 'finished' and run_id in ({marks})",
            tuple(run_ids),
        ).fetchall()

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

    def player_decision_stats(self, game_ids: Iterable[int]) -> list[sqlite3.Row]:
        """Per player, over these games: (player, decisions, with usage, output tokens, total
        ms, re-asks, random picks, autopilot, cost, unknown-cost decisions, model decisions)."""
        ids = list(game_ids)
        self._ensure_stats(ids)
        self.conn.execute("create temp table if not exists rated (id integer primary key)")
        self.conn.execute("delete from rated")
        self.conn.executemany("insert into rated values (?)", [(i,) for i in ids])
        try:
            return self.conn.execute(
                "select case s.side when 'p1' then g.p1 else g.p2 end as player, "
                "sum(s.decisions), sum(s.with_usage), sum(s.output_tokens), sum(s.ms_total), "
                "sum(s.reasks), sum(s.random_picks), sum(s.autopilot), sum(s.cost), "
                "sum(s.unknown_cost), sum(s.model_decisions) "
                "from decision_stats s join games g on g.id = s.game_id "
                "join rated on rated.id = g.id group by player"
            ).fetchall()
        finally:
            self.conn.execute("delete from rated")

    def game_cost(self, game_id: int) -> float | None:
        """USD both sides' models cost in one game; None when any of it is unknown or no model."""
        self._ensure_stats([game_id])
        rows = self.conn.execute(
            "select cost, unknown_cost, model_decisions from decision_stats where game_id = ?",
            (game_id,),
        ).fetchall()
        models = [r for r in rows if r["model_decisions"]]
        if not models or any(r["unknown_cost"] or r["cost"] is None for r in models):
            return None
        return float(sum(r["cost"] for r in models))

    def game_has_model(self, game_id: int) -> bool:
        row = self.conn.execute(
            "select 1 from games where id = ? and (json_extract(p1_config, '$.kind') = 'llm' "
            "or json_extract(p2_config, '$.kind') = 'llm')",
            (game_id,),
        ).fetchone()
        return row is not None

    # -- decisions ---------------------------------------------------------------------------

    def add_decision(self, game_id: int, **fields: Any) -> int:
        self._writable()
        unknown = set(fields) - DECISION_FIELDS
        if unknown:
            raise TypeError(f"a decision has no column {sorted(unknown)}")
        row = {"game_id": game_id, "created_at": now(), **fields}
        for key in _JSON_DECISION:
            if key in row:
                row[key] = dumps(row[key])
        columns = ", ".join(row)  # names checked above
        marks = ", ".join("?" for _ in row)
        cur = self.conn.execute(
            f"insert into decisions ({columns}) values ({marks})", tuple(row.values())
        )
        return int(cur.lastrowid or 0)

    def update_decision(self, decision_id: int, **fields: Any) -> None:
        self._writable()
        unknown = set(fields) - DECISION_FIELDS
        if unknown:
            raise TypeError(f"a decision has no column {sorted(unknown)}")
        for key in _JSON_DECISION:
            if key in fields:
                fields[key] = dumps(fields[key])
        sets = ", ".join(f"{k} = ?" for k in fields)
        self.conn.execute(
            f"update decisions set {sets} where id = ?", (*fields.values(), decision_id)
        )

    def decisions(self, game_id: int, side: str | None = None) -> list[DecisionRow]:
        if self._is_compacted(game_id):
            found = [
                _decision(dict(zip(bodies.DECISION_COLUMNS, d, strict=True)))
                for d in self._body(game_id).decisions
            ]
            found = [d for d in found if side is None or d.side == side]
            return sorted(found, key=lambda d: (d.side, d.idx))
        sql = "select * from decisions where game_id = ?"
        params: list[Any] = [game_id]
        if side:
            sql += " and side = ?"
            params.append(side)
        rows = self.conn.execute(sql + " order by side, idx", params).fetchall()
        return [_decision(dict(r)) for r in rows]

    def decisions_after(self, game_id: int, after: int = 0) -> list[DecisionRow]:
        """Decisions recorded since decision row `after` (for following a live game)."""
        if self._is_compacted(game_id):
            return sorted((d for d in self.decisions(game_id) if d.id > after), key=lambda d: d.id)
        rows = self.conn.execute(
            "select * from decisions where game_id = ? and id > ? order by id", (game_id, after)
        ).fetchall()
        return [_decision(dict(r)) for r in rows]

    # -- events ------------------------------------------------------------------------------

    def append_events(
        self, game_id: int, items: list[tuple[str | None, ev.EventKind, Any]], at: float
    ) -> None:
        """Append typed events (side, kind, payload) to a running game."""
        self._writable()
        self.conn.executemany(
            "insert into events (game_id, side, kind, data, at) values (?, ?, ?, ?, ?)",
            [
                (game_id, side, str(kind), ev.encode(data).decode(), at)
                for side, kind, data in items
            ],
        )

    def events(
        self,
        game_id: int,
        after: int = 0,
        *,
        kinds: Sequence[ev.EventKind] | None = None,
        side: str | None = None,
    ) -> list[EventRow]:
        """A game's events after event `after`, typed, from its rows or its compacted body."""
        wanted = tuple(str(k) for k in kinds) if kinds else None
        return [
            EventRow(event_id, game_id, event_side, kind, _payload(game_id, kind, data), at)
            for event_id, event_side, kind, data, at in self._raw_events(
                game_id, after, wanted, side
            )
            if (wanted is None or kind in wanted) and (side is None or event_side == side)
        ]

    def _raw_events(
        self,
        game_id: int,
        after: int,
        kinds: tuple[str, ...] | None = None,
        side: str | None = None,
    ) -> Iterator[tuple[Any, ...]]:
        """(id, side, kind, data as stored, at); filtered in SQL where the game is rows (the
        caller filters a body's events, which are in memory anyway)."""
        if self._is_compacted(game_id):
            return (e for e in self._body(game_id).events if e[0] > after)
        sql = "select id, side, kind, data, at from events where game_id = ? and id > ?"
        params: list[Any] = [game_id, after]
        if kinds:
            sql += f" and kind in ({','.join('?' * len(kinds))})"
            params += kinds
        if side:
            sql += " and side = ?"
            params.append(side)
        return iter(tuple(r) for r in self.conn.execute(sql + " order by id", params))

    def commit(self) -> None:
        self._commit_scheduled = None
        if not self.read_only:
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

    # -- export and import -------------------------------------------------------------------

    def export_rows(
        self, game_id: int
    ) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
        """A game's row, decisions and events as stored (JSON columns as text), in id order.
        The same for a compacted game as for one kept as rows."""
        row = dict(self.conn.execute("select * from games where id = ?", (game_id,)).fetchone())
        row.pop("pid", None)  # where it ran, and how it is stored, are not part of the game
        row.pop("compacted", None)
        if self._is_compacted(game_id):
            body = self._body(game_id)
            row["spectator_log"] = body.spectator_log
            decisions = [dict(zip(bodies.DECISION_COLUMNS, d, strict=True)) for d in body.decisions]
            raw_events = body.events
        else:
            decisions = [
                dict(r)
                for r in self.conn.execute(
                    "select * from decisions where game_id = ? order by id", (game_id,)
                )
            ]
            raw_events = list(self._raw_events(game_id, 0))
        events = [
            {"id": i, "game_id": game_id, "side": s, "kind": k, "data": d, "at": a}
            for i, s, k, d, a in raw_events
        ]
        return row, sorted(decisions, key=lambda d: d["id"]), events

    def import_game(
        self,
        game: dict[str, Any],
        decisions: list[dict[str, Any]],
        items: list[tuple[str | None, str, str, float]],
    ) -> int:
        """Insert a checked game (from an imported file) under a new id, all or nothing.

        Column names come from this module's fixed sets, never from the file; each event's
        data must decode as its kind's payload (DamagedGame otherwise), and is kept as written.
        """
        self._writable()
        unknown = set(game) - GAME_COLUMNS
        if unknown:
            raise TypeError(f"a game has no column {sorted(unknown)}")
        checked = []
        for n, (side, kind, data, at) in enumerate(items):
            try:
                ev.decode(kind, data)
            except ev.BadEvent as exc:
                raise DamagedGame(f"events[{n}]: {exc}") from None
            checked.append((side, kind, data, at))
        with self.conn:
            columns = ", ".join(game)
            cur = self.conn.execute(
                f"insert into games ({columns}) values ({', '.join('?' * len(game))})",
                tuple(game.values()),
            )
            new_id = int(cur.lastrowid or 0)
            for decision in decisions:
                row = {k: decision[k] for k in bodies.DECISION_COLUMNS[2:] if k in decision}
                self.conn.execute(
                    f"insert into decisions (game_id, {', '.join(row)}) "
                    f"values (?, {', '.join('?' * len(row))})",
                    (new_id, *row.values()),
                )
            self.conn.executemany(
                "insert into events (game_id, side, kind, data, at) values (?, ?, ?, ?, ?)",
                [(new_id, side, kind, data, at) for side, kind, data, at in checked],
            )
            if game.get("status") in ENDED:
                self._compact(new_id)
        return new_id

    # -- compaction --------------------------------------------------------------------------

    def _is_compacted(self, game_id: int) -> bool:
        if game_id in self._bodies:
            return True
        row = self.conn.execute("select compacted from games where id = ?", (game_id,)).fetchone()
        return bool(row and row[0])

    def _status(self, game_id: int) -> str | None:
        row = self.conn.execute("select status from games where id = ?", (game_id,)).fetchone()
        return row[0] if row else None

    def _compact(self, game_id: int) -> None:
        """Pack a game's events, decisions and spectator log into its body. Called inside a
        transaction: the game is either all rows or all body, whatever happens."""
        if self._is_compacted(game_id):
            return
        conn = self.conn
        conn.execute(
            "insert or replace into decision_stats (game_id, side, decisions, with_usage, "
            "output_tokens, ms_total, reasks, random_picks, autopilot, cost, unknown_cost, "
            f"model_decisions) {_STATS_SELECT}",
            (game_id,),
        )
        events = [
            tuple(r)
            for r in conn.execute(
                "select id, side, kind, data, at from events where game_id = ? order by id",
                (game_id,),
            )
        ]
        decisions = [
            tuple(r)
            for r in conn.execute(
                f"select {', '.join(bodies.DECISION_COLUMNS)} from decisions "
                "where game_id = ? order by id",
                (game_id,),
            )
        ]
        log = conn.execute("select spectator_log from games where id = ?", (game_id,)).fetchone()
        blob = bodies.pack(bodies.Body(events, decisions, log[0] if log else None))
        conn.execute(
            "insert or replace into bodies (game_id, format, events, decisions, bytes, blob) "
            "values (?, ?, ?, ?, ?, ?)",
            (game_id, bodies.FORMAT, len(events), len(decisions), len(blob), blob),
        )
        _crash_point("compaction")
        conn.execute("delete from events where game_id = ?", (game_id,))
        conn.execute("delete from decisions where game_id = ?", (game_id,))
        conn.execute(
            "update games set compacted = 1, spectator_log = null where id = ?", (game_id,)
        )

    def _expand(self, game_id: int) -> None:
        """Turn a compacted game back into rows (it is being changed). Inside a transaction."""
        if not self._is_compacted(game_id):
            return
        body = self._body(game_id)
        self.conn.executemany(
            "insert into events (id, game_id, side, kind, data, at) values (?, ?, ?, ?, ?, ?)",
            [(i, game_id, s, k, d, a) for i, s, k, d, a in body.events],
        )
        self.conn.executemany(
            f"insert into decisions ({', '.join(bodies.DECISION_COLUMNS)}) "
            f"values ({', '.join('?' * len(bodies.DECISION_COLUMNS))})",
            body.decisions,
        )
        self.conn.execute(
            "update games set compacted = 0, spectator_log = ? where id = ?",
            (body.spectator_log, game_id),
        )
        self.conn.execute("delete from bodies where game_id = ?", (game_id,))
        self._bodies.pop(game_id, None)

    def _body(self, game_id: int) -> bodies.Body:
        cached = self._bodies.get(game_id)
        if cached is not None:
            self._bodies.move_to_end(game_id)
            return cached
        row = self.conn.execute(
            "select format, blob from bodies where game_id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise DamagedGame(f"game {game_id} is marked compacted but its body is missing")
        try:
            body = bodies.unpack(row[1], row[0])
        except bodies.BadBody as exc:
            raise DamagedGame(
                f"game {game_id} cannot be read: its stored body is damaged ({exc})"
            ) from None
        self._bodies[game_id] = body
        if len(self._bodies) > BODY_CACHE:
            self._bodies.popitem(last=False)
        return body

    def _ensure_stats(self, game_ids: Sequence[int]) -> None:
        """Decision stats of games kept as rows (a running game, say) are computed on the fly."""
        if self.read_only:
            return
        for chunk in _chunks(list(game_ids), 500):
            marks = ",".join("?" * len(chunk))
            missing = [
                r[0]
                for r in self.conn.execute(
                    f"select id from games where id in ({marks}) and coalesce(compacted, 0) = 0",
                    chunk,
                )
            ]
            for game_id in missing:
                self.conn.execute("delete from decision_stats where game_id = ?", (game_id,))
                self.conn.execute(
                    "insert into decision_stats (game_id, side, decisions, with_usage, "
                    "output_tokens, ms_total, reasks, random_picks, autopilot, cost, "
                    f"unknown_cost, model_decisions) {_STATS_SELECT}",
                    (game_id,),
                )

    def compact_all(self, on_progress: Callable[[int, int], None] | None = None) -> int:
        """Compact every ended game still kept as rows (a migration), one transaction each, so
        an interrupted migration continues where it stopped. Returns how many were compacted."""
        self._writable()
        todo = [
            r[0]
            for r in self.conn.execute(
                "select id from games where status in ('finished', 'error', 'interrupted') "
                "and coalesce(compacted, 0) = 0 order by id"
            )
        ]
        for n, game_id in enumerate(todo):
            with self.conn:
                self._compact(game_id)
            if on_progress:
                on_progress(n + 1, len(todo))
        with self.conn:
            self.conn.execute("delete from meta where key = 'compaction_pending'")
        if todo:  # rewrite the file at its new size, reclaiming the rows' pages from now on
            self.conn.execute("PRAGMA auto_vacuum=INCREMENTAL")
            self.conn.execute("VACUUM")
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return len(todo)

    def size_report(self) -> dict[str, int]:
        """Bytes each table takes (for `make bench`), after a WAL checkpoint."""
        self.commit()
        self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try:
            rows = self.conn.execute("select name, sum(pgsize) from dbstat group by name")
            return {name: int(size) for name, size in rows}
        except sqlite3.OperationalError:  # SQLite built without dbstat
            return {"total": self.path.stat().st_size}


def _payload(game_id: int, kind: str, data: str) -> Any:
    try:
        return ev.decode(kind, data)
    except ev.BadEvent as exc:
        raise DamagedGame(f"game {game_id} has an unreadable event: {exc}") from None


def _decision(data: dict[str, Any]) -> DecisionRow:
    for key in _JSON_DECISION:
        data[key] = loads(data[key])
    return DecisionRow(**data)


def _chunks(items: list[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _retry_locked(statement: Callable[[], Any], tries: int = 300) -> Any:
    """Run a statement that SQLite answers 'locked' without waiting (a journal-mode change)."""
    import time

    for attempt in range(tries):
        try:
            return statement()
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == tries - 1:
                raise
            time.sleep(0.1)
    return None


def _reason(exc: sqlite3.Error) -> str:
    text = str(exc)
    if "readonly" in text or "read-only" in text:
        return "it is read-only"
    if "not a database" in text or "malformed" in text:
        return f"{text} (is it a pokeview database?)"
    return text


def _crash_point(name: str) -> None:
    """A test switch: the process dies here when POKEVIEW_TEST_CRASH names this point."""
    if os.environ.get("POKEVIEW_TEST_CRASH") == name:
        os._exit(9)


def open_store(
    path: str | Path | None = None, on_migrate: Callable[[int, int], None] | None = None
) -> Store:
    return Store(Path(path) if path else paths.database_path(), on_migrate)
