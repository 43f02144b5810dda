"""`pokeview db`: what the database file holds and how big it is, and, with `--check`, whether
every game in it can still be read."""

from __future__ import annotations

import argparse
import sqlite3
import sys

from pokeview.cli.common import Commands, open_store
from pokeview.store.store import DamagedGame, Store, Summary, damaged_file, damaged_game
from pokeview.terminal import unfiltered
from pokeview.text import strip_control

STATUSES = ("finished", "void", "error", "interrupted", "running")


def add_db(commands: Commands) -> None:
    p = commands.add(
        "db", cmd_db, "the database: its size, its games by status and how they are kept"
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="read every game's record as the viewer would and name each one that cannot be "
        "read (exit status 1 if any)",
    )


def cmd_db(args: argparse.Namespace) -> int:
    store = open_store(args, existing=True)
    try:
        try:
            print(describe(store.summary()))
        except sqlite3.DatabaseError as exc:
            if not args.check:
                raise
            print(strip_control(str(damaged_file(store.path, exc))))  # then game by game
        return check(store) if args.check else 0
    finally:
        store.close()


def describe(summary: Summary) -> str:
    games = summary.games
    statuses = ", ".join(
        f"{summary.statuses[s]:,} {s}"
        for s in (*STATUSES, *sorted(set(summary.statuses) - set(STATUSES)))
        if summary.statuses.get(s)
    )
    wal = f" (and {_size(summary.wal_bytes)} of write-ahead log)" if summary.wal_bytes else ""
    lines = [
        f"{summary.path}: record schema {summary.schema}, {_size(summary.file_bytes)}{wal}",
        f"{games:,} games" + (f": {statuses}" if statuses else ""),
    ]
    if games:
        per_game = summary.body_bytes / summary.compacted if summary.compacted else 0
        lines.append(
            f"{summary.compacted:,} compacted ({_size(summary.body_bytes)} of bodies, "
            f"{_size(per_game)} a game), {games - summary.compacted:,} kept as rows"
        )
    return strip_control("\n".join(lines))


def check(store: Store) -> int:
    from pokeview.battle.derive import CannotDerive

    ids = store.game_ids()
    damaged = 0
    show_progress = sys.stderr.isatty()
    for n, game_id in enumerate(ids, start=1):
        try:
            store.check_game(game_id)
        except sqlite3.DatabaseError as exc:  # this game's pages are damaged on disk
            damaged += 1
            print(strip_control(str(damaged_game(game_id, exc))))
        except DamagedGame as exc:
            damaged += 1
            print(strip_control(str(exc)))
        except CannotDerive as exc:  # a bot's words, left for later, cannot be made whole
            damaged += 1
            said = str(exc)
            print(strip_control(said if said.startswith("game ") else f"game {game_id}: {said}"))
        if show_progress and (n % 50 == 0 or n == len(ids)):
            # Past the control-character filter: its own carriage return redraws the line.
            progress = unfiltered(sys.stderr)
            print(f"\rchecked {n:,} of {len(ids):,} games", end="", file=progress, flush=True)
    if show_progress and ids:
        print(file=sys.stderr)
    print(f"{len(ids) - damaged:,} of {len(ids):,} games read whole; {damaged:,} damaged")
    return 1 if damaged else 0


def _size(n: float) -> str:
    if n < 1000:
        return f"{n:,.0f} bytes"
    for unit in ("KB", "MB"):
        n /= 1000
        if n < 1000:
            return f"{n:,.1f} {unit}"
    return f"{n / 1000:,.1f} GB"
