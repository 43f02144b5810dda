"""The Store's runs: claimed by one runner at a time, and what spectators read of them."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from pokeview.errors import PokeviewError
from pokeview.store.compaction import StoreConnection
from pokeview.store.rows import GameLine, RunRow, dumps, now


class RunsAndSpectators(StoreConnection):
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
        with self._transaction():
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
        self._flush()
        self.conn.commit()  # what this process wrote before goes first
        self._committed()
        with self._transaction():
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
        allowed = {"header", "config", "state", "pid", "planned"}  # a ladder's config grows
        if set(fields) - allowed:
            raise TypeError(f"a run has no updatable column {sorted(set(fields) - allowed)}")
        for key in ("header", "config"):
            if key in fields and not isinstance(fields[key], str):
                fields[key] = dumps(fields[key])
        fields["updated_at"] = now()
        sets = ", ".join(f"{k} = ?" for k in fields)  # names checked above
        with self._transaction():
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

    def run_game_times(self, run_id: int) -> list[tuple[str, str, float]]:
        """(p1, p2, seconds it took) of each game the run has finished."""
        return [
            (r[0], r[1], float(r[2]))
            for r in self.conn.execute(
                "select p1, p2, (julianday(ended_at) - julianday(started_at)) * 86400 "
                "from games where run_id = ? and status = 'finished' and ended_at is not null",
                (run_id,),
            )
            if r[2] is not None
        ]

    def run_games(self, run_id: int) -> list[GameLine]:
        """Every game the run has recorded, in the order it was recorded."""
        return GameLine.query(self.conn, "g.run_id = ?", (run_id,))

    def running_games(self, run_ids: Sequence[int]) -> list[GameLine]:
        """The games of these runs still being played."""
        marks = ",".join("?" * len(run_ids)) or "null"
        return GameLine.query(self.conn, f"g.status = 'running' and g.run_id in ({marks})", run_ids)

    def ended_games(self, run_ids: Sequence[int], limit: int = 30) -> list[GameLine]:
        """These runs' games no longer running, newest first."""
        marks = ",".join("?" * len(run_ids)) or "null"
        return GameLine.query(
            self.conn,
            f"g.status != 'running' and g.run_id in ({marks})",
            (*run_ids, limit),
            order="g.id desc limit ?",
        )

    def ended_mark(self, run_ids: Sequence[int]) -> tuple[int, int]:
        """(count, newest id) of these runs' ended games: changes whenever one ends."""
        marks = ",".join("?" * len(run_ids)) or "null"
        row = self.conn.execute(
            f"select count(*), coalesce(max(id), 0) from games where status != 'running' "
            f"and run_id in ({marks})",
            tuple(run_ids),
        ).fetchone()
        return int(row[0]), int(row[1])

    def results(self, run_ids: Sequence[int]) -> list[GameLine]:
        """These runs' finished games."""
        marks = ",".join("?" * len(run_ids)) or "null"
        return GameLine.query(
            self.conn, f"g.status = 'finished' and g.run_id in ({marks})", run_ids
        )

    def rating_games(self, run_id: int | None = None) -> list[GameLine]:
        """Finished games that count for ratings (harness errors and forks left out)."""
        where = "g.status = 'finished' and coalesce(g.exclude_from_ratings, 0) = 0"
        params: tuple[Any, ...] = ()
        if run_id is not None:
            where += " and g.run_id = ?"
            params = (run_id,)
        # A canonical order (not by id, which follows finishing order): the same games always
        # give the same bootstrap draws, however often the runner was interrupted.
        order = "coalesce(g.run_id, 0), coalesce(g.pair, g.id), g.seat, g.p1, g.p2, g.id"
        return GameLine.query(self.conn, where, params, order)

    def error_games(self, run_id: int | None = None) -> int:
        sql = "select count(*) from games where status = 'error'"
        if run_id is not None:
            return int(self.conn.execute(sql + " and run_id = ?", (run_id,)).fetchone()[0])
        return int(self.conn.execute(sql).fetchone()[0])

    def ending_counts(self, run_id: int) -> dict[str, int]:
        """How many of a run's finished games ended each way other than by a last faint."""
        rows = self.conn.execute(
            "select ending, count(*) from games where run_id = ? and status = 'finished' "
            "and ending is not null group by ending order by ending",
            (run_id,),
        ).fetchall()
        return {str(ending): int(n) for ending, n in rows}

    def delete_unplayed_run(self, run_id: int) -> int:
        """Delete a run with no finished game, with the games it left (errors, interrupted);
        returns how many games went. One transaction: a game finishing meanwhile keeps it."""
        self._writable()
        self._flush()
        with self._transaction():
            finished = self.conn.execute(
                "select count(*) from games where run_id = ? and status = 'finished'", (run_id,)
            ).fetchone()[0]
            if finished:
                raise PokeviewError(
                    f"the run has {finished} finished games, which are kept; "
                    "a run can be deleted only while none of its games has finished"
                )
            games = "select id from games where run_id = ?"
            for table in ("events", "decisions", "bodies", "decision_stats"):
                self.conn.execute(f"delete from {table} where game_id in ({games})", (run_id,))
            gone = self.conn.execute("delete from games where run_id = ?", (run_id,)).rowcount
            self.conn.execute("delete from runs where id = ?", (run_id,))
        self._bodies.clear()
        return int(gone)
