"""The Store's games and players: create, finish, find, list, and what ratings read of them."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Mapping
from typing import Any

from pokeview.errors import UnknownGame
from pokeview.game.decision import SideStats
from pokeview.store import events as ev
from pokeview.store.compaction import ENDED, GAME_COLUMNS, Written
from pokeview.store.journal import DecisionsAndEvents
from pokeview.store.rows import GameLine, GameRow, PlayerStats, dumps, loads, now

UNFINISHED = ("interrupted", "running", "paused")  # a game left mid-way (paused: before v3)


class GamesAndPlayers(DecisionsAndEvents):
    # -- players -----------------------------------------------------------------------------

    def remember_player(self, name: str, kind: str, config: dict[str, Any]) -> bool:
        """Keep a player's kind and settings; False when the file holds them so already (a run
        remembers its players after every game: a read costs less than a write)."""
        self._writable()
        row = (kind, dumps(config))
        held = self.conn.execute("select kind, config from players where name = ?", (name,))
        if tuple(held.fetchone() or ()) == row:
            return False
        self.conn.execute(
            "insert into players (name, kind, config, first_seen) values (?, ?, ?, ?) "
            "on conflict(name) do update set kind = excluded.kind, config = excluded.config",
            (name, *row, now()),
        )
        return True

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
        with self._transaction():
            cur = self.conn.execute(
                f"insert into games ({columns}) values ({marks})", tuple(row.values())
            )
        game_id = int(cur.lastrowid or 0)
        self.last_created = game_id
        self._written[game_id] = Written()  # its rows, as written, for packing it when it ends
        return game_id

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
        ending: str | None = None,
        stats: Mapping[str, SideStats] | None = None,
        played: list[tuple[str, float]] | None = None,
    ) -> None:
        """End a game; a finished or failed game is compacted in the same transaction, with its
        decision stats when given (computed by the caller from its decisions). `played`: a game
        the bridge played through by itself, recorded as its logs and its decisions' times
        (`bodies.PLAYED`): its events and decisions are derived when first read."""
        self._writable()
        # The game's last rows are committed first: a crash while it is compacted below then
        # leaves the whole game as rows, not a game with events lost.
        self.commit()
        log = "\n".join(spectator_log) if spectator_log is not None else None
        compacting = status in ENDED
        with self._transaction():
            # A game compacted here takes its spectator log straight into its body: written to
            # its row first, the log's pages would be written, read back and freed at once.
            self.conn.execute(
                "update games set status = ?, winner = ?, turns = ?, error = ?, ended_at = ?, "
                "input_log = ?, spectator_log = ?, pid = null, "
                "showdown_version = coalesce(?, showdown_version), ending = ? where id = ?",
                (
                    status,
                    winner,
                    turns,
                    error,
                    now(),
                    "\n".join(input_log) if input_log is not None else None,
                    None if compacting else log,
                    showdown_version,
                    ending,
                    game_id,
                ),
            )
            if compacting:
                self._compact(game_id, spectator_log=log, stats=stats, played=played)

    def set_excluded(self, game_id: int) -> None:
        self._writable()
        with self._transaction():
            self.conn.execute("update games set exclude_from_ratings = 1 where id = ?", (game_id,))

    def set_status(self, game_id: int, status: str) -> None:
        self._writable()
        if status != "running":
            self._written.pop(game_id, None)  # not finished here: packed from its rows later
        with self._transaction():
            # What waits for the next commit goes in with the status: a game set interrupted
            # is often the last thing a stopping process writes, its loop gone before the commit.
            self._flush()
            self.conn.execute("update games set status = ? where id = ?", (status, game_id))

    def latest_human_game(self, statuses: tuple[str, ...] = UNFINISHED) -> GameRow | None:
        marks = ",".join("?" * len(statuses))
        rows = self.conn.execute(
            f"select * from games where status in ({marks}) order by id desc", statuses
        )
        # The kind is read from the settings in Python: the Store keeps them as a payload.
        return next((GameRow.from_row(r) for r in rows if "human" in _kinds(r)), None)

    def forget_after(self, game_id: int, event_id: int, decisions: set[tuple[str, int]]) -> None:
        """Drop what was recorded after `event_id` (a game resumed from that point)."""
        self._writable()
        self._flush()
        with self._transaction():
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
        with self._transaction():
            self.conn.execute(
                "update games set status = 'interrupted', ended_at = ?, exclude_from_ratings = 1, "
                "error = 'the runner stopped during this game; it was played again from its seed' "
                "where id = ? and status = 'running'",
                (now(), game_id),
            )

    def delete_game(self, game_id: int) -> None:
        self._writable()
        self._bodies.pop(game_id, None)
        self._written.pop(game_id, None)
        self._forget_rebuilders(game_id)
        self._flush()  # what waits for the commit goes, with the rest of the game
        with self._transaction():
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
        with self._transaction():
            self._expand(game_id)
            self.conn.execute("update games set spectator_log = ? where id = ?", (log, game_id))
            if self._status(game_id) in ENDED:
                self._compact(game_id)

    def game(self, game_id: int | str, *, with_log: bool = True) -> GameRow:
        """A whole game; `with_log=False` leaves a compacted game's spectator log unread (it
        is in its body, whose reading costs more than the rest)."""
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
        if game.compacted and with_log:  # (a game the bridge played alone is not derived for it)
            game.spectator_log = self._body(gid, derive=False).spectator_log
        return game

    def same_game(self, game_id: int) -> int | None:
        """An earlier game that is this one again (an import of the same file): the same
        format, players, seed, result, input log and spectator log."""
        mine = self.game(game_id)
        rows = self.conn.execute(
            "select id from games where id < ? and format = ? and p1 = ? and p2 = ? "
            "and seed = ? and winner is ? and turns is ? and input_log is ? order by id",
            (game_id, mine.format, mine.p1, mine.p2, mine.seed, mine.winner, mine.turns,
             mine.input_log),
        ).fetchall()  # fmt: skip
        for (other,) in rows:
            if self.game(other).spectator_log == mine.spectator_log:
                return int(other)
        return None

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
        where: list[str] = []
        params: list[Any] = []
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

    def search_games(self, text: str = "", *, limit: int = 200, offset: int = 0) -> list[GameLine]:
        """Light rows for lists: newest first, filtered by id, player, format, status or run."""
        where, params = "1", list[Any]()
        text = text.strip()
        if text:
            if text.isascii() and text.isdigit():  # "²" is a digit to isdigit, not to int()
                where = "g.id = ?"
                params.append(int(text))
            else:
                like = f"%{text}%"
                where = (
                    "g.p1 like ? or g.p2 like ? or g.format like ? or g.status = ? "
                    "or r.name like ? or g.winner = ?"
                )
                params += [like, like, like, text, like, text]
        return GameLine.query(
            self.conn, where, (*params, limit, offset), order="g.id desc limit ? offset ?"
        )

    def count_games(self) -> int:
        return int(self.conn.execute("select count(*) from games").fetchone()[0])

    def game_ids(self, status: str | None = None) -> list[int]:
        sql, params = "select id from games", tuple[str, ...]()
        if status:
            sql, params = sql + " where status = ?", (status,)
        return [r[0] for r in self.conn.execute(sql + " order by id", params)]

    def player_decision_stats(self, game_ids: Iterable[int]) -> list[PlayerStats]:
        """Per player, their decisions in these games summed."""
        ids = list(game_ids)
        self.conn.execute("create temp table if not exists rated (id integer primary key)")
        self.conn.execute("delete from rated")
        self.conn.executemany("insert into rated values (?)", [(i,) for i in ids])
        try:
            rows = self.conn.execute(
                "select case s.side when 'p1' then g.p1 else g.p2 end as player, "
                "sum(s.decisions), sum(s.with_usage), sum(s.output_tokens), sum(s.ms_total), "
                "sum(s.reasks), sum(s.random_picks), sum(s.autopilot), sum(s.cost), "
                "sum(s.unknown_cost), sum(s.model_decisions), max(s.estimated) "
                "from decision_stats s join games g on g.id = s.game_id "
                "join rated on rated.id = g.id group by player"
            ).fetchall()
            return [PlayerStats.from_row(r) for r in rows]
        finally:
            self.conn.execute("delete from rated")

    def void_games(self, run_id: int | None = None) -> list[GameLine]:
        """Every void game (of one run, or all): a model was on autopilot; `error` says why."""
        where, params = "g.status = 'void'", tuple[Any, ...]()
        if run_id is not None:
            where, params = where + " and g.run_id = ?", (run_id,)
        return GameLine.query(self.conn, where, params)

    def game_cost(self, game_id: int) -> float | None:
        """USD both sides' models cost in one game; None when any of it is unknown or no model."""
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
            "select p1_config, p2_config from games where id = ?", (game_id,)
        ).fetchone()
        return row is not None and "llm" in _kinds(row)


def _kinds(row: sqlite3.Row) -> set[Any]:
    """The player kinds a game row's two settings name."""
    return {(loads(row[c]) or {}).get("kind") for c in ("p1_config", "p2_config")}
