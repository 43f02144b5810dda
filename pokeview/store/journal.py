"""The Store's decisions and events: appended while a game runs, read from rows or from the
game's compacted body alike."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any

from pokeview.game.decision import detail_to_data
from pokeview.store import body as bodies
from pokeview.store import events as ev
from pokeview.store.compaction import (
    DECISION_FIELDS,
    JSON_DECISION,
    StoreConnection,
    decision_row,
    payload,
    unreadable_side_event,
)
from pokeview.store.differences import BadDifferences, Rebuilder
from pokeview.store.rows import DecisionRow, EventRow, dumps, now

COMMIT_DELAY = 0.05
COMMIT_RETRY = 1.0  # seconds until a failed timed commit is tried again
_INSERTED = bodies.DECISION_COLUMNS[1:]  # a decision row's columns but its id
REBUILDERS = 16  # running games whose side events a Store follows at once (spectating)


class DecisionsAndEvents(StoreConnection):
    _commit_scheduled: asyncio.TimerHandle | None

    # -- decisions ---------------------------------------------------------------------------

    def add_decision(self, game_id: int, *, side: str, idx: int, **fields: Any) -> None:
        """Record a side's decision `idx`; written with the next commit, like events."""
        self._writable()
        if not fields.keys() <= DECISION_FIELDS:
            raise TypeError(f"a decision has no column {sorted(fields.keys() - DECISION_FIELDS)}")
        fields.update(game_id=game_id, side=side, idx=idx)
        fields.setdefault("created_at", now())  # given: a decision recorded earlier, elsewhere
        for key in JSON_DECISION:
            value = fields.get(key)
            if value is not None:
                fields[key] = _json(key, value)
        # The row's values in INSERT_DECISION's order; a column not given is null.
        self._unwritten_decisions.append(tuple(map(fields.get, _INSERTED)))

    def update_decision(self, game_id: int, side: str, idx: int, **fields: Any) -> None:
        """Change a decision already recorded (a choice made again after a refusal)."""
        self._writable()
        unknown = set(fields) - DECISION_FIELDS
        if unknown:
            raise TypeError(f"a decision has no column {sorted(unknown)}")
        for key in JSON_DECISION:
            if key in fields:
                fields[key] = _json(key, fields[key])
        self._flush()
        kept = self._written.get(game_id)
        if kept is not None:
            kept.decisions = None  # its rows are read back when it is packed
        sets = ", ".join(f"{k} = ?" for k in fields)  # names checked above
        self.conn.execute(
            f"update decisions set {sets} where game_id = ? and side = ? and idx = ?",
            (*fields.values(), game_id, side, idx),
        )

    def decisions(self, game_id: int, side: str | None = None) -> list[DecisionRow]:
        if self._is_compacted(game_id):
            # A body read for its decisions alone is not kept: its side events need not be
            # rebuilt whole (most of reading a body), as `_body` does for a viewer.
            body = self._bodies.get(game_id) or self._stored_body(game_id)
            found = [
                decision_row(dict(zip(bodies.DECISION_COLUMNS, d, strict=True)))
                for d in body.decisions
            ]
            found = [d for d in found if side is None or d.side == side]
            return sorted(found, key=lambda d: (d.side, d.idx))
        self._flush()
        sql = "select * from decisions where game_id = ?"
        params: list[Any] = [game_id]
        if side:
            sql += " and side = ?"
            params.append(side)
        rows = self.conn.execute(sql + " order by side, idx", params).fetchall()
        return [decision_row(dict(r)) for r in rows]

    def decisions_after(self, game_id: int, after: int = 0) -> list[DecisionRow]:
        """Decisions recorded since decision row `after` (for following a live game)."""
        if self._is_compacted(game_id):
            return sorted((d for d in self.decisions(game_id) if d.id > after), key=lambda d: d.id)
        self._flush()
        rows = self.conn.execute(
            "select * from decisions where game_id = ? and id > ? order by id", (game_id, after)
        ).fetchall()
        return [decision_row(dict(r)) for r in rows]

    # -- events ------------------------------------------------------------------------------

    def append_events(
        self, game_id: int, items: list[tuple[str | None, ev.EventKind, Any]], at: float
    ) -> None:
        """Append typed events (side, kind, payload) to a running game. They are written with
        the next commit (`commit_soon`), or before this Store next reads events."""
        self._writable()
        self._unwritten += [
            (game_id, side, str(kind), ev.encode(data).decode(), at) for side, kind, data in items
        ]

    def rewrite_events(self, game_id: int, payloads: dict[int, Any]) -> None:
        """Write some of a game's events again, by id, with new payloads of their own kind (a
        side's words derived after the game: battle/derive.py), in its rows or in its body,
        in one transaction. Nothing else of the game changes."""
        self._writable()
        if not payloads:
            return
        data = {event_id: ev.encode(p).decode() for event_id, p in payloads.items()}
        with self._transaction():
            self._flush()
            if self._is_compacted(game_id):
                body = self._stored_body(game_id)
                body.events = [(i, s, k, data.get(i, d), a) for i, s, k, d, a in body.events]
                blob = bodies.pack(body)
                self.conn.execute(
                    "update bodies set format = ?, bytes = ?, blob = ? where game_id = ?",
                    (bodies.FORMAT, len(blob), blob, game_id),
                )
                self._bodies.pop(game_id, None)
            else:
                self.conn.executemany(
                    "update events set data = ? where id = ? and game_id = ?",
                    [(d, i, game_id) for i, d in data.items()],
                )
                kept = self._written.get(game_id)
                if kept is not None:
                    kept.events = [(i, s, k, data.get(i, d), a) for i, s, k, d, a in kept.events]
            self._forget_rebuilders(game_id)

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
        rows = [
            row
            for row in self._raw_events(game_id, after, wanted, side)
            if (wanted is None or row[2] in wanted) and (side is None or row[1] == side)
        ]
        derived = self._preview_later(game_id, rows)
        return [
            EventRow(
                event_id,
                game_id,
                event_side,
                kind,
                payload(game_id, kind, derived.get(event_id, data)),
                at,
            )
            for event_id, event_side, kind, data, at in rows
        ]

    def _preview_later(self, game_id: int, rows: list[tuple[Any, ...]]) -> dict[int, str]:
        """A running game's side events whose words were left for later, derived for a live
        reader (a spectator sees a game of two bots move) but not written: the game is not
        over. Finished games have theirs derived and kept when read (`_body_with_words`)."""
        deriver = StoreConnection.deriver
        if deriver is None or game_id in self._deriving:
            return {}
        if not any(r[2] == "side" and '"later":true' in r[3] for r in rows):
            return {}
        self._deriving.add(game_id)
        try:
            return deriver.preview(self, game_id)
        finally:
            self._deriving.discard(game_id)

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
            wants_words = not kinds or str(ev.EventKind.SIDE) in kinds
            body = self._body_with_words(game_id) if wants_words else self._body(game_id)
            return (e for e in body.events if e[0] > after)
        self._flush()
        wants_sides = not kinds or str(ev.EventKind.SIDE) in kinds
        try:
            # The bases first, then the rows: a game compacted by another process in between
            # then reads as no new rows, not as differences with nothing to apply them to.
            follower = self._follower(game_id, after, side) if wants_sides else None
            sql = "select id, side, kind, data, at from events where game_id = ? and id > ?"
            params: list[Any] = [game_id, after]
            if kinds:
                sql += f" and kind in ({','.join('?' * len(kinds))})"
                params += kinds
            if side:
                sql += " and side = ?"
                params.append(side)
            rows = self.conn.execute(sql + " order by id", params)
            if follower is None:
                return iter(tuple(r) for r in rows)
            rebuilder, followed = follower
            whole = []
            for event_id, event_side, kind, data, at in rows:
                if kind == "side":
                    followed = (event_id, data)  # as stored: how it is recognised next time
                    data = rebuilder.whole(event_side, data)
                whole.append((event_id, event_side, kind, data, at))
        except BadDifferences as exc:
            raise unreadable_side_event(game_id, exc) from None
        self._rebuilders[game_id, side] = (rebuilder, followed)
        if len(self._rebuilders) > REBUILDERS:
            del self._rebuilders[next(iter(self._rebuilders))]
        return iter(whole)

    def _follower(
        self, game_id: int, after: int, side: str | None
    ) -> tuple[Rebuilder, tuple[int, str]]:
        """A rebuilder that has followed the game's side events up to `after` (format 4 stores
        most as differences from the side's previous ones), and the last one it followed.

        One is kept per game (and side filter), so a spectator asking for what is new follows
        only that. It is used again only if the event it followed last is still there as it
        was: a resumed game's later events are deleted, and their ids used again."""
        rebuilder, followed = Rebuilder(), (0, "")
        cached = self._rebuilders.pop((game_id, side), None)
        if cached is not None and 0 < cached[1][0] <= after:
            last_id, last_data = cached[1]
            still = self.conn.execute("select data from events where id = ?", (last_id,))
            if still.fetchone() == (last_data,):
                rebuilder, followed = cached
        sql = "select id, side, data from events where game_id = ? and kind = 'side'"
        sql += " and id > ? and id <= ?" + (" and side = ?" if side else "") + " order by id"
        for event_id, event_side, data in self.conn.execute(
            sql, (game_id, followed[0], after, *([side] if side else []))
        ):
            rebuilder.whole(event_side, data, keep_only=True)
            followed = (event_id, data)
        return rebuilder, followed

    def commit(self) -> None:
        scheduled, self._commit_scheduled = self._commit_scheduled, None
        if scheduled is not None:  # needless now (and it would outlive `close`)
            scheduled.cancel()
        if self.read_only:
            return
        self._flush()  # on failure it keeps what it could not write
        try:
            self.conn.commit()
        except sqlite3.Error:
            self._after_failure()
            raise
        self._committed()

    def _commit_from_timer(self) -> None:
        """The timer's commit. A failure (the disk full, the file locked too long) is no
        callback's traceback: the rows wait and the commit is tried again, and the game's own
        next write (its end, at the latest) meets the error and ends it."""
        self._commit_scheduled = None
        try:
            self.commit()
        except sqlite3.Error:
            loop = asyncio.get_running_loop()
            self._commit_scheduled = loop.call_later(COMMIT_RETRY, self._commit_from_timer)

    def commit_soon(self, delay: float = COMMIT_DELAY) -> None:
        """Commit within `delay` seconds, coalescing the many small writes of running games.

        Outside an event loop it commits at once. Live readers see a write at most `delay` late.
        """
        if self._commit_scheduled is not None:
            return  # checked first: get_running_loop asks the kernel for the process id
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.commit()
            return
        self._commit_scheduled = loop.call_later(delay, self._commit_from_timer)


def _json(column: str, value: Any) -> str:
    """A decision's JSON column as stored; its detail (a pokeview.game.decision struct) with
    the keys in the order they were always written."""
    return dumps(detail_to_data(value) if column == "detail" else value)
