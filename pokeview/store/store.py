"""One class owns the SQL (docs/record.md describes what it keeps). Writes are explicit
transactions; reads need no Node process. Nothing outside `pokeview/store/` runs a statement.

The Store is put together from its parts: games (and players), runs, the journal (decisions and
events), transfer (export and import), and compaction beneath them all.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pokeview import paths
from pokeview.errors import PokeviewError
from pokeview.store import schema
from pokeview.store.compaction import DamagedGame, Written, disk_full
from pokeview.store.games import GamesAndPlayers
from pokeview.store.rows import REPLAY_SEED, DecisionRow, EventRow, GameRow, RunRow
from pokeview.store.runs import RunsAndSpectators
from pokeview.store.transfer import ExportAndImport

__all__ = [
    "REPLAY_SEED",
    "DamagedGame",
    "DecisionRow",
    "EventRow",
    "GameRow",
    "RunRow",
    "Store",
    "Summary",
    "damaged_file",
    "damaged_game",
    "open_store",
]


@dataclass(slots=True)
class Summary:
    path: Path
    schema: int
    file_bytes: int
    wal_bytes: int
    statuses: dict[str, int]
    compacted: int
    body_bytes: int

    @property
    def games(self) -> int:
        return sum(self.statuses.values())


# The Store is made of parts, one module each, all on one connection (StoreConnection, in
# compaction.py): DecisionsAndEvents (journal.py) under GamesAndPlayers (games.py) and
# ExportAndImport (transfer.py), and RunsAndSpectators (runs.py).
class Store(GamesAndPlayers, ExportAndImport, RunsAndSpectators):
    def __init__(self, path: Path, on_migrate: Callable[[int, int], None] | None = None) -> None:
        self.path = path
        self.read_only = False
        self.read_only_why = "is read-only"
        self.last_created: int | None = None
        self._bodies: collections.OrderedDict[int, Any] = collections.OrderedDict()
        self._commit_scheduled: asyncio.TimerHandle | None = None
        self._unwritten: list[tuple[int, str | None, str, str, float]] = []
        self._unwritten_decisions: list[tuple[Any, ...]] = []
        self._uncommitted_events: list[tuple[int, str | None, str, str, float]] = []
        self._uncommitted_decisions: list[tuple[Any, ...]] = []
        self._written: dict[int, Written] = {}
        self._rebuilders: dict[tuple[int, str | None], Any] = {}
        self._deriving: set[int] = set()
        try:
            conn = self._connect(path)
            self.conn = conn
            if not self.read_only:
                self._prepare_schema()
                if self._meta("compaction_pending"):
                    self.compact_all(on_migrate)
            else:
                version = self._schema_version()
                readable = (schema.SCHEMA_VERSION, *schema.READ_AS_IS)
                if version is not None and version not in readable:
                    raise PokeviewError(
                        f"the database {path} is read-only and has schema {version}: "
                        f"this pokeview reads {schema.SCHEMA_VERSION}; open it writable once "
                        "to migrate it"
                    )
        except sqlite3.Error as exc:
            # a page damaged on disk, not another kind of file
            if isinstance(exc, sqlite3.DatabaseError) and "malformed" in str(exc):
                raise damaged_file(path, exc) from None
            raise PokeviewError(f"cannot open the database at {path}: {_reason(exc)}") from None
        except OSError as exc:
            raise PokeviewError(
                f"cannot open the database at {path}: {exc.strerror or exc}; "
                "pass --db PATH or set POKEVIEW_DB"
            ) from None

    def _connect(self, path: Path) -> sqlite3.Connection:
        exists = path.exists() and path.stat().st_size > 0
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
        try:
            return self._set_up(conn, path, exists)
        except BaseException as exc:
            conn.close()
            if not (isinstance(exc, sqlite3.OperationalError) and exists and disk_full(exc)):
                raise
        # The disk is full (a -shm or -wal file cannot be made): an existing database is still
        # read, as on a read-only file system, and nothing is written to it.
        self.read_only, self.read_only_why = True, "is on a full disk"
        for uri in (f"file:{path}?mode=ro", f"file:{path}?mode=ro&immutable=1"):
            if "immutable" in uri and _has_log(path):
                break  # its latest writes are in the log, which cannot be read this way
            conn = sqlite3.connect(uri, uri=True, timeout=30, check_same_thread=False)
            try:
                conn.row_factory = sqlite3.Row
                conn.execute("select count(*) from sqlite_master").fetchone()
                return conn
            except sqlite3.OperationalError as again:
                conn.close()
                if not disk_full(again):
                    raise
        raise sqlite3.OperationalError("database or disk is full")

    def _set_up(self, conn: sqlite3.Connection, path: Path, exists: bool) -> sqlite3.Connection:
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA busy_timeout=30000")
        if exists:
            _check_ours(conn, path)  # before anything is written to it
        # Pages freed by compaction go back to the file system (a no-op on an older file until
        # its migration's VACUUM). Set only where it is not already: on a full disk an existing
        # database still opens, for reading at least.
        if conn.execute("PRAGMA auto_vacuum").fetchone()[0] != AUTO_VACUUM_INCREMENTAL:
            conn.execute("PRAGMA auto_vacuum=INCREMENTAL")
        # Changing the journal mode needs the file to itself: wait like any other write.
        if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            _retry_locked(lambda: conn.execute("PRAGMA journal_mode=WAL"))
        conn.execute("PRAGMA synchronous=NORMAL")
        # Debian's SQLite zeroes every deleted row and freed page (SECURE_DELETE), so compacting
        # a game wrote all its freed pages again; FAST zeroes only within pages written anyway.
        # Nothing secret is kept in the record, and freed pages go back at `shrink`.
        conn.execute("PRAGMA secure_delete=FAST")
        # A checkpoint copies each page once however often it was written since the last: a
        # running game's pages are written several times (its rows, then their deletion), so
        # checkpointing every 16 MB of log rather than 4 copies a third as many (the log file
        # keeps its largest size, for reuse, until a Store that freed pages closes: `shrink`).
        conn.execute("PRAGMA wal_autocheckpoint=4000")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.isolation_level = "DEFERRED"  # back to implicit transactions for the Store's writes
        return conn

    def _prepare_schema(self) -> None:
        """Create or migrate the schema in one write transaction, taken before looking, so
        several processes opening a new database at once create it once, one after another."""
        conn = self.conn
        if self._schema_version() == schema.SCHEMA_VERSION:
            return  # the common case: no lock taken
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = self._schema_version()
            if version is not None and version > schema.SCHEMA_VERSION:
                raise PokeviewError(
                    f"the database {self.path} was written by a newer pokeview (schema {version}, "
                    f"this one reads {schema.SCHEMA_VERSION}): upgrade pokeview to open it"
                )
            if version != schema.SCHEMA_VERSION:
                import sqlite_utils  # only to create or migrate: it takes 0.1 s to import

                db = sqlite_utils.Database(conn)
                if version is None:
                    schema.create(db)
                else:
                    schema.migrate(db, version)
            if conn.in_transaction:
                conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def _schema_version(self) -> int | None:
        meta = self.conn.execute(
            "select 1 from sqlite_master where type = 'table' and name = 'meta'"
        ).fetchone()
        if meta is None:
            return None
        return schema_number(self._meta("schema_version"), self.path)

    def _meta(self, key: str) -> str | None:
        row = self.conn.execute("select value from meta where key = ?", (key,)).fetchone()
        return row[0] if row else None

    def close(self) -> None:
        if self._commit_scheduled is not None:
            self._commit_scheduled.cancel()
        if not self.read_only:
            self.commit()
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

    def summary(self) -> Summary:
        """What the file holds, for `pokeview db`: games by status, how they are kept, sizes."""
        self._flush()
        statuses = dict(
            self.conn.execute("select status, count(*) from games group by status").fetchall()
        )
        compacted, body_bytes = self.conn.execute(
            "select count(*), coalesce(sum(bytes), 0) from bodies"
        ).fetchone()
        wal = self.path.with_name(self.path.name + "-wal")
        return Summary(
            path=self.path,
            schema=self._schema_version() or schema.SCHEMA_VERSION,
            file_bytes=self.path.stat().st_size,
            wal_bytes=wal.stat().st_size if wal.exists() else 0,
            statuses={str(k): int(v) for k, v in statuses.items()},
            compacted=int(compacted),
            body_bytes=int(body_bytes),
        )

    def check_game(self, game_id: int) -> None:
        """Read all of a game's record as its readers do (its body decompressed, its events
        decoded and rebuilt whole, its decisions); DamagedGame names what cannot be read."""
        self.game(game_id)
        self.events(game_id)
        self.decisions(game_id)

    def size_report(self) -> dict[str, int]:
        """Bytes each table takes (for `make bench`), after a WAL checkpoint."""
        self.commit()
        self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try:
            rows = self.conn.execute("select name, sum(pgsize) from dbstat group by name")
            return {name: int(size) for name, size in rows}
        except sqlite3.OperationalError:  # SQLite built without dbstat
            return {"total": self.path.stat().st_size}


AUTO_VACUUM_INCREMENTAL = 2  # PRAGMA auto_vacuum's answer


def _has_log(path: Path) -> bool:
    wal = path.with_name(path.name + "-wal")
    return wal.exists() and wal.stat().st_size > 0


def _check_ours(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse, before writing a byte, a file that holds tables but not pokeview's (another
    program's database given as --db): adding pokeview's tables and switching it to WAL would
    change a file that is not ours."""
    tables = {r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")}
    if tables and "meta" not in tables:
        raise PokeviewError(
            f"{path} is not a pokeview database (it has tables, but not pokeview's): give --db "
            "a pokeview database, or a new file name to start one"
        )
    if "meta" in tables:
        row = conn.execute("select value from meta where key = 'schema_version'").fetchone()
        schema_number(row[0] if row else None, path)


def schema_number(value: object, path: Path) -> int | None:
    """meta.schema_version as a number (None: not set yet); one line if it is not one."""
    if value is None or value == "":
        return None
    if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
        return int(value)
    raise PokeviewError(
        f"{path}: meta.schema_version is {str(value)[:40]!r}, not a number: the file is not a "
        "pokeview database, or it was changed by hand"
    )


def damaged_file(path: Path, exc: sqlite3.DatabaseError) -> PokeviewError:
    """One line for a file SQLite finds damaged (a page overwritten on disk): what, and how to
    see what is left and save it."""
    return PokeviewError(
        f"the database {path} is damaged ({exc}): `pokeview db --check --db {path}` names the "
        f"games that can still be read; `sqlite3 {path} .recover | sqlite3 recovered.db` saves "
        "what is left into a new file"
    )


def damaged_game(game_id: int, exc: sqlite3.DatabaseError) -> DamagedGame:
    return DamagedGame(f"game {game_id} cannot be read: the file is damaged there ({exc})")


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


def open_store(
    path: str | Path | None = None, on_migrate: Callable[[int, int], None] | None = None
) -> Store:
    return Store(Path(path) if path else paths.database_path(), on_migrate)
