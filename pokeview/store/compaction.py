"""What every part of the Store shares: the connection's state, the fixed column sets, and
compaction (a finished game's rows packed into one body, and back). See docs/record.md."""

from __future__ import annotations

import collections
import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol

from pokeview.errors import PokeviewError
from pokeview.game.decision import SideStats
from pokeview.store import body as bodies
from pokeview.store import events as ev
from pokeview.store.differences import BadDifferences, Rebuilder
from pokeview.store.rows import DecisionRow, GameRow

ENDED = ("finished", "void", "error", "interrupted")  # the statuses whose games are compacted
BODY_CACHE = 8  # decoded bodies kept per Store (a viewer reads one game many times)
_FROM_ROW = object()  # `_compact`: the spectator log is the one on the game's row


@dataclass(slots=True)
class Written:
    """A running game's rows as this Store wrote them: (id, side, kind, data, at) for each
    event, and each decision's row in DECISION_COLUMNS order (None: read them back)."""

    events: list[tuple[int, str | None, str, str, float]] = field(default_factory=list)
    decisions: list[tuple[Any, ...]] | None = field(default_factory=list)


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
        "ending",
    }
)
DECISION_FIELDS = frozenset(bodies.DECISION_COLUMNS) - {"id", "game_id"}
INSERT_DECISION = (
    f"insert into decisions ({', '.join(bodies.DECISION_COLUMNS[1:])}) "
    f"values ({', '.join('?' * (len(bodies.DECISION_COLUMNS) - 1))})"
)
JSON_DECISION = ("request", "actions", "refusals", "detail")

# What ratings read of one side's decisions in one game, computed above the Store from the typed
# decisions (pokeview.game.decision.side_stats) and kept as given.
STATS_COLUMNS = (
    "decisions",
    "with_usage",
    "output_tokens",
    "ms_total",
    "reasks",
    "random_picks",
    "autopilot",
    "cost",
    "unknown_cost",
    "model_decisions",
    "estimated",
)
_INSERT_STATS = (
    f"insert or replace into decision_stats (game_id, side, {', '.join(STATS_COLUMNS)}) "
    f"values ({', '.join('?' * (len(STATS_COLUMNS) + 2))})"
)


class DamagedGame(PokeviewError):
    """A compacted game whose body cannot be read; the other games are not affected."""


class Deriver(Protocol):
    """What derives a game's words left for later (battle/derive.py): for a finished game,
    written into the record (`keep`); for a running one, only given, as whole event data by
    event id (`preview`: its later steps are still to come)."""

    def keep(self, store: Any, game_id: int) -> None: ...

    def preview(self, store: Any, game_id: int) -> dict[int, str]: ...

    def whole(self, game: GameRow, played: bodies.Body) -> bodies.Body:
        """A game the bridge played through by itself (`bodies.PLAYED`): its events and
        decisions, derived, as a body of its game (their ids the deriver's own record's), its
        log and result checked against the game's (else CannotDerive)."""
        ...


class StoreConnection:
    """The base of the Store's parts: its connection, what waits to be written, and how ended
    games are compacted."""

    path: Path
    conn: sqlite3.Connection
    read_only: bool
    read_only_why: str  # "is read-only", "is on a full disk"
    last_created: int | None  # the newest game this Store created (what a stopped battle kept)
    _bodies: collections.OrderedDict[int, bodies.Body]
    # A running game's events and decisions wait here for the next commit (one insert for each
    # table), then they are kept, as written, for the games this Store created, so that
    # finishing one packs its body from memory instead of reading its rows back. See `_flush`.
    _unwritten: list[tuple[int, str | None, str, str, float]]
    _unwritten_decisions: list[tuple[Any, ...]]
    # What was flushed into the open transaction: kept until it commits (see `_after_failure`).
    _uncommitted_events: list[tuple[int, str | None, str, str, float]]
    _uncommitted_decisions: list[tuple[Any, ...]]
    _written: dict[int, Written]
    _rebuilders: dict[tuple[int, str | None], Any]  # see DecisionsAndEvents._follower
    # Derives a game's side events recorded without words (`events.Side.later`): installed
    # from above (battle/later.py), for every Store, as it runs Node.
    deriver: ClassVar[Deriver | None] = None
    _deriving: set[int]  # games being derived now: their own reads take the body as it is
    _blocks = 0  # transactions open (`_transaction`): a read inside one writes into it

    def _first_inserted(self, count: int) -> int:
        """The id of the first of the `count` rows the last insert statement wrote: one
        statement inside one write transaction gives them the ids following the table's
        largest, one after another (the write lock keeps other processes out)."""
        return int(self.conn.execute("select last_insert_rowid()").fetchone()[0]) - count + 1

    def _writable(self) -> None:
        if self.read_only:
            raise PokeviewError(
                f"the database {self.path} {self.read_only_why}: nothing can be written"
            )

    def _flush(self) -> None:
        """Insert the events and decisions waiting for the commit, one statement per table.
        Every reader and writer of them on this connection calls it first, so it sees what was
        appended; other connections see it with the commit, as before."""
        # A failed insert (the file locked past the busy timeout, the disk full) keeps what
        # waits, and what was inserted since the last commit, to be written by the next flush,
        # and raises (see `_after_failure`).
        if (self._uncommitted_events or self._uncommitted_decisions) and not (
            self.conn.in_transaction
        ):
            # SQLite rolled their transaction back itself (a later statement, an update say,
            # failed on a full disk): every commit empties _uncommitted, so these are not written
            self._after_failure()
        if self._unwritten_decisions:
            decisions = self._unwritten_decisions
            try:
                self.conn.executemany(INSERT_DECISION, decisions)
            except sqlite3.Error:
                self._after_failure()
                raise
            self._uncommitted_decisions += decisions
            self._unwritten_decisions = []
            start = self._first_inserted(len(decisions))
            for n, row in enumerate(decisions, start=start):
                kept = self._written.get(row[0])  # a decision row's first value is its game
                if kept is not None and kept.decisions is not None:
                    kept.decisions.append((n, *row))
        rows = self._unwritten
        if not rows:
            return
        try:
            self.conn.executemany(
                "insert into events (game_id, side, kind, data, at) values (?, ?, ?, ?, ?)", rows
            )
        except sqlite3.Error:
            self._after_failure()
            raise
        self._uncommitted_events += rows
        self._unwritten = []
        written = self._written
        for n, (game_id, side, kind, data, at) in enumerate(
            rows, start=self._first_inserted(len(rows))
        ):
            kept = written.get(game_id)
            if kept is not None:
                kept.events.append((n, side, kind, data, at))

    def _after_failure(self) -> None:
        """A write failed: the transaction is rolled back (SQLite may have done it already, on
        a full disk), and the events and decisions it held wait again, before those appended
        since, so that they are written in order by the next commit that succeeds. Left half
        written, a game's side events (differences from the ones before) would have a hole."""
        if self.conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self.conn.rollback()
        lost_events, lost_decisions = self._uncommitted_events, self._uncommitted_decisions
        self._uncommitted_events, self._uncommitted_decisions = [], []
        self._unwritten = lost_events + self._unwritten
        self._unwritten_decisions = lost_decisions + self._unwritten_decisions
        # Their ids as first written are gone: a game's kept rows are read back when packed.
        for game_id in {r[0] for r in lost_events} | {r[0] for r in lost_decisions}:
            self._written.pop(game_id, None)
            self._forget_rebuilders(game_id)

    def _committed(self) -> None:
        self._uncommitted_events, self._uncommitted_decisions = [], []

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """`with self.conn`, keeping the rows flushed into the transaction if it fails."""
        self._blocks += 1
        try:
            with self.conn:
                yield
        except BaseException:
            self._after_failure()
            raise
        finally:
            self._blocks -= 1
        self._committed()

    # -- compaction --------------------------------------------------------------------------

    def _is_compacted(self, game_id: int) -> bool:
        if game_id in self._bodies:
            return True
        row = self.conn.execute("select compacted from games where id = ?", (game_id,)).fetchone()
        return bool(row and row[0])

    def _status(self, game_id: int) -> str | None:
        row = self.conn.execute("select status from games where id = ?", (game_id,)).fetchone()
        return row[0] if row else None

    def _compact(
        self,
        game_id: int,
        spectator_log: str | None | object = _FROM_ROW,
        stats: Mapping[str, SideStats] | None = None,
        played: list[tuple[str, float]] | None = None,
    ) -> None:
        """Pack a game's events, decisions and spectator log (given, or read from its row) into
        its body, keeping its decision stats when given (else they are computed when first
        read: `stats_missing`). Called inside a transaction: the game is either all rows or all
        body, whatever happens. `played`: a game the bridge played through by itself, whose
        body holds its decisions' times instead (`bodies.PLAYED`)."""
        if self._is_compacted(game_id):
            return
        self._flush()
        conn = self.conn
        if stats is not None:
            self._keep_stats(game_id, stats)
        else:  # any kept while it ran may be stale: computed again when read
            conn.execute("delete from decision_stats where game_id = ?", (game_id,))
        kept = self._written.pop(game_id, None)
        events: list[Any] | None = kept.events if kept else None
        if events is None:  # a game this Store did not start (resumed, imported, migrated)
            events = [
                tuple(r)
                for r in conn.execute(
                    "select id, side, kind, data, at from events where game_id = ? order by id",
                    (game_id,),
                )
            ]
        decisions: list[Any] | None = kept.decisions if kept else None
        if decisions is None:  # as above, or one changed since (a choice made again)
            decisions = [
                tuple(r)
                for r in conn.execute(
                    f"select {', '.join(bodies.DECISION_COLUMNS)} from decisions "
                    "where game_id = ? order by id",
                    (game_id,),
                )
            ]
        if spectator_log is _FROM_ROW:
            row = conn.execute("select spectator_log from games where id = ?", (game_id,))
            spectator_log = (row.fetchone() or (None,))[0]
        assert spectator_log is None or isinstance(spectator_log, str)
        fmt = bodies.FORMAT if played is None else bodies.PLAYED
        blob = bodies.pack(bodies.Body(events, decisions, spectator_log, played=played))
        conn.execute(
            "insert or replace into bodies (game_id, format, events, decisions, bytes, blob) "
            "values (?, ?, ?, ?, ?, ?)",
            (game_id, fmt, len(events), len(decisions), len(blob), blob),
        )
        _crash_point("compaction")
        self._forget_rebuilders(game_id)
        conn.execute("delete from events where game_id = ?", (game_id,))
        conn.execute("delete from decisions where game_id = ?", (game_id,))
        conn.execute(
            "update games set compacted = 1, spectator_log = null where id = ?", (game_id,)
        )

    def _expand(self, game_id: int) -> None:
        """Turn a compacted game back into rows (it is being changed). Inside a transaction."""
        self._written.pop(game_id, None)  # its rows are changed from here on: read them back
        self._forget_rebuilders(game_id)
        if not self._is_compacted(game_id):
            return
        body = self._stored_body(game_id)
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

    def _forget_rebuilders(self, game_id: int) -> None:
        for key in [k for k in self._rebuilders if k[0] == game_id]:
            del self._rebuilders[key]

    def _body_with_words(self, game_id: int) -> bodies.Body:
        """`_body` for a reader of side events: a bot's words and state left for later are
        derived first (a reader of decisions or the log alone does not pay for them)."""
        body = self._body(game_id)
        if not _has_later(body):
            return body
        if self._derive_later(game_id):  # written: read back as stored
            self._bodies.pop(game_id, None)
        return self._body(game_id)

    def _body(self, game_id: int, *, derive: bool = True) -> bodies.Body:
        """A compacted game's body for reading: its side events whole (see differences.py).
        `derive=False`: a game the bridge played alone is given as stored (its logs only)."""
        cached = self._bodies.get(game_id)
        if cached is not None:
            self._bodies.move_to_end(game_id)
            return cached
        body = self._stored_body(game_id, derive=derive)
        if body.played is not None:
            return body
        rebuilder = Rebuilder()
        try:
            body.events = [
                (i, side, kind, rebuilder.whole(side, data) if kind == "side" else data, at)
                for i, side, kind, data, at in body.events
            ]
        except BadDifferences as exc:
            raise unreadable_side_event(game_id, exc) from None
        self._bodies[game_id] = body
        if len(self._bodies) > BODY_CACHE:
            self._bodies.popitem(last=False)
        return body

    def _derive_later(self, game_id: int) -> bool:
        """Have the installed deriver write the game's words left for later (battle/derive.py
        installs one: it runs Node, which the Store does not know); True when it did. Where
        they cannot be written (a read-only file, a full disk) they are derived for this
        connection's cached body alone. Without a deriver the game reads as recorded: its bots'
        words empty."""
        deriver = StoreConnection.deriver
        if deriver is None or game_id in self._deriving:
            return False
        self._deriving.add(game_id)
        try:
            if not self.read_only:
                try:
                    self.commit()  # type: ignore[attr-defined]  # the deriver writes on this connection
                    deriver.keep(self, game_id)
                    return True
                except sqlite3.OperationalError as exc:
                    if not disk_full(exc):
                        raise
            derived = deriver.preview(self, game_id)
            body = self._body(game_id)  # the cached body, which readers are given
            body.events = [(i, s, k, derived.get(i, d), a) for i, s, k, d, a in body.events]
        finally:
            self._deriving.discard(game_id)
        return False

    def _stored_body(self, game_id: int, *, derive: bool = True) -> bodies.Body:
        """A compacted game's body as stored (side events as differences, where they were).
        A game the bridge played through by itself is derived first (`_played_whole`), unless
        `derive` is False (a reader of its spectator log alone)."""
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
        if body.played is not None and derive:
            return self._played_whole(game_id, body)
        return body

    def _played_whole(self, game_id: int, played: bodies.Body) -> bodies.Body:
        """The events and decisions of a game the bridge played through by itself, derived by
        the installed deriver (battle/derive.py plays it again the usual way), and kept as its
        body: in a transaction of their own, or in the one open around this read (`_expand`,
        say), so that every reader is given the ids they keep. Where they cannot be kept (a
        read-only file, a full disk), they are given to this read alone."""
        deriver = StoreConnection.deriver
        if deriver is None:
            raise DamagedGame(
                f"game {game_id} was played in the bridge alone, and its steps are derived in "
                "Node when first read: this reader runs none"
            )
        game = self.game(game_id, with_log=False)  # type: ignore[attr-defined]
        whole = deriver.whole(game, played)
        if self.read_only:
            return whole
        if self._blocks:
            return self._keep_whole(game_id, whole)
        try:
            self.commit()  # type: ignore[attr-defined]  # (what waits of running games too)
            with self._transaction():
                return self._keep_whole(game_id, whole)
        except sqlite3.OperationalError as exc:
            if not disk_full(exc):
                raise
            return whole

    def _keep_whole(self, game_id: int, whole: bodies.Body) -> bodies.Body:
        """Store a derived body in place of a game's PLAYED one, inside a transaction: its
        events and decisions are given ids as rows are (inserted, then packed), as if written
        while it played. Where another reader kept it first, that one is given."""
        self._flush()
        # The write lock first, then the look: two processes deriving one game keep it once.
        kept = self.conn.execute(
            "update bodies set format = format where game_id = ? and format = ?",
            (game_id, bodies.PLAYED),
        )
        if kept.rowcount == 0:
            return self._stored_body(game_id)
        events = [(game_id, s, k, d, a) for _, s, k, d, a in whole.events]
        self.conn.executemany(
            "insert into events (game_id, side, kind, data, at) values (?, ?, ?, ?, ?)", events
        )
        first = self._first_inserted(len(events))
        whole.events = [(first + n, *e[1:]) for n, e in enumerate(events)]
        decisions = [(game_id, *d[2:]) for d in whole.decisions]
        self.conn.executemany(INSERT_DECISION, decisions)
        first = self._first_inserted(len(decisions))
        whole.decisions = [(first + n, *d) for n, d in enumerate(decisions)]
        self.conn.execute("delete from events where game_id = ?", (game_id,))
        self.conn.execute("delete from decisions where game_id = ?", (game_id,))
        blob = bodies.pack(whole)
        self.conn.execute(
            "update bodies set format = ?, events = ?, decisions = ?, bytes = ?, blob = ? "
            "where game_id = ?",
            (bodies.FORMAT, len(events), len(decisions), len(blob), blob, game_id),
        )
        return whole

    def _keep_stats(self, game_id: int, stats: Mapping[str, SideStats]) -> None:
        self.conn.execute("delete from decision_stats where game_id = ?", (game_id,))
        self.conn.executemany(
            _INSERT_STATS,
            [(game_id, side, *(getattr(s, c) for c in STATS_COLUMNS)) for side, s in stats.items()],
        )

    def keep_stats(self, game_id: int, stats: Mapping[str, SideStats]) -> None:
        """Keep a game's decision stats, computed from its decisions above the Store."""
        self._writable()
        with self._transaction():
            self._keep_stats(game_id, stats)

    def stats_missing(self, game_ids: Sequence[int]) -> list[int]:
        """Of these games, those whose decision stats are to be computed (again): games still
        kept as rows (a running game's change), and ended games whose stats were never given
        (migrated, imported by an older pokeview). [] on a read-only store: nothing is kept."""
        if self.read_only:
            return []
        self._flush()
        out: list[int] = []
        for chunk in chunks(list(game_ids), 500):
            marks = ",".join("?" * len(chunk))
            out += [
                r[0]
                for r in self.conn.execute(
                    f"select id from games where id in ({marks}) and (coalesce(compacted, 0) = 0 "
                    "or id not in (select game_id from decision_stats)) order by id",
                    chunk,
                )
            ]
        return out

    def compact_all(self, on_progress: Callable[[int, int], None] | None = None) -> int:
        """Compact every ended game still kept as rows (a migration), one transaction each, so
        an interrupted migration continues where it stopped. Returns how many were compacted."""
        self._writable()
        todo = [
            r[0]
            for r in self.conn.execute(
                "select id from games where status in ('finished', 'void', 'error', 'interrupted') "
                "and coalesce(compacted, 0) = 0 order by id"
            )
        ]
        for n, game_id in enumerate(todo):
            with self._transaction():
                self._compact(game_id)
            if on_progress:
                on_progress(n + 1, len(todo))
        with self._transaction():
            self.conn.execute("delete from meta where key = 'compaction_pending'")
        if todo:  # rewrite the file at its new size, reclaiming the rows' pages from now on
            self.conn.execute("PRAGMA auto_vacuum=INCREMENTAL")
            self.conn.execute("VACUUM")
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return len(todo)


def disk_full(exc: sqlite3.OperationalError) -> bool:
    """What SQLite says when a write, or a -shm or -wal file, cannot be made on a full disk."""
    text = str(exc)
    return "full" in text or "disk I/O error" in text


def _has_later(body: bodies.Body) -> bool:
    """Whether a body holds a side event whose words were left for later (a quick look at the
    stored JSON: the flag is written only when true)."""
    return any(e[2] == "side" and '"later":true' in e[3] for e in body.events)


def payload(game_id: int, kind: str, data: str) -> Any:
    try:
        return ev.decode(kind, data)
    except ev.BadEvent as exc:
        raise DamagedGame(f"game {game_id} has an unreadable event: {exc}") from None


def unreadable_side_event(game_id: int, exc: BadDifferences) -> DamagedGame:
    return DamagedGame(f"game {game_id} has an unreadable side event: {exc}")


def decision_row(data: dict[str, Any]) -> DecisionRow:
    return DecisionRow.from_stored(data)


def chunks(items: list[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _crash_point(name: str) -> None:
    """A test switch: the process dies here when POKEVIEW_TEST_CRASH names this point."""
    if os.environ.get("POKEVIEW_TEST_CRASH") == name:
        os._exit(9)
