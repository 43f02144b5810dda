"""The `pokeview` command: parses arguments, then hands over to the parts that do the work.

One module per group of commands; each adds its commands' options and holds their handlers.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from collections.abc import Callable, Sequence

from pokeview import __version__
from pokeview.battle import later
from pokeview.cli import (
    database,
    exchange,
    games,
    ladder,
    players,
    ray_pool,
    runs,
    schema,
    setup,
)
from pokeview.cli.common import DB_HELP, Commands, Stopped
from pokeview.errors import PokeviewError
from pokeview.terminal import control_free_output

# Every command, in the order `pokeview --help` lists them.
COMMANDS: tuple[Callable[[Commands], None], ...] = (
    setup.add_setup,
    games.add_battle,
    games.add_games,
    database.add_db,
    runs.add_run,
    runs.add_runs,
    runs.add_ratings,
    ladder.add_ladder,
    ray_pool.add_ray_pool,
    runs.add_report,
    runs.add_site,
    games.add_watch,
    games.add_play,
    exchange.add_import,
    exchange.add_diff,
    setup.add_server,
    runs.add_spectate,
    exchange.add_export,
    players.add_players,
    schema.add_schema,
    games.add_prompt,
    exchange.add_verify,
)

ENVIRONMENT = """\
environment:
  POKEVIEW_HOME          keep all of pokeview's files (data, config) under this folder
  POKEVIEW_DB            the database (as --db)
  POKEVIEW_PLAYERS       the players file (as --players)
  POKEVIEW_SHOWDOWN_DIR  where the pinned Showdown is installed (by `pokeview setup`)
  POKEVIEW_SERVER_PORT   the local server's port for server:USER players (as --server-port)
"""


class _HelpFormatter(argparse.HelpFormatter):
    """Wraps the description as argparse does, and keeps the environment table as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text == ENVIRONMENT:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


class _CommandParser(argparse.ArgumentParser):
    """A command's parser: an option it does not know is refused here, with this command's
    usage, rather than handed up to `pokeview`'s parser, whose usage shows none of them."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extra = super().parse_known_args(args, namespace)
        if extra:
            self.error(f"unrecognized arguments: {' '.join(extra)}")
        return parsed, extra


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pokeview",
        description="Run, record, replay and play Pokémon Showdown games "
        "between models, bots and people.",
        epilog=ENVIRONMENT,
        formatter_class=_HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"pokeview {__version__}")
    parser.add_argument("--db", metavar="PATH", help=DB_HELP)
    common = argparse.ArgumentParser(add_help=False)
    # SUPPRESS: `pokeview --db X games` and `pokeview games --db X` both work.
    common.add_argument("--db", metavar="PATH", help=DB_HELP, default=argparse.SUPPRESS)
    commands = Commands(
        parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_CommandParser),
        common,
    )
    for add in COMMANDS:
        add(commands)
    return parser


def tune_gc() -> None:
    """Games allocate many short-lived objects (poke-env's views, JSON steps) over a large, stable
    heap; Python's default thresholds then spend a third of the time in full collections."""
    import gc

    gc.freeze()  # what is loaded by now lives for the whole process
    gc.set_threshold(50_000, 20, 100)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        args.func = games.cmd_app  # `pokeview` alone opens the app on the database
    tune_gc()
    later.install()  # a bot game's words, left for later, are derived when first read
    try:
        with control_free_output():  # no text from a record or a file acts on the terminal
            return _run(args)
    except BrokenPipeError:
        return _reader_gone()


def _reader_gone() -> int:
    """The reader of standard output left (`pokeview runs | head -1`): stop quietly, as Rich's
    console does for the commands that print through it. Standard output then goes to /dev/null,
    so that Python's last flush has nothing to complain of."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # standard output's descriptor, under any wrapper
    return 1


def _run(args: argparse.Namespace) -> int:
    try:
        return args.func(args)
    except PokeviewError as exc:
        print(f"pokeview: error: {exc}", file=sys.stderr)
        return 2
    except sqlite3.OperationalError as exc:  # the file went read-only, the disk filled up...
        where = args.db or os.environ.get("POKEVIEW_DB") or "the database"
        print(f"pokeview: error: {where}: {exc}; nothing more was written", file=sys.stderr)
        return 2
    except sqlite3.DatabaseError as exc:  # a page damaged on disk ("malformed")
        from pathlib import Path

        from pokeview import paths
        from pokeview.store.store import damaged_file

        where = Path(args.db or os.environ.get("POKEVIEW_DB") or paths.database_path())
        print(f"pokeview: error: {damaged_file(where, exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("pokeview: interrupted", file=sys.stderr)
        return 130
    except Stopped as stopped:
        then = f"; {stopped.then}" if stopped.then else ""
        print(f"pokeview: stopped ({stopped.signal}){then}", file=sys.stderr)
        return stopped.exit_code
