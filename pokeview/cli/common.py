"""What the command modules share: how a command is added, the database, stopping on a signal,
the options several commands take, and reading or writing a user's file."""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pokeview.errors import PokeviewError
from pokeview.players.registry import player_help
from pokeview.terminal import console

if TYPE_CHECKING:
    from pokeview.game.bridge import Start
    from pokeview.players.server import ServerOptions
    from pokeview.store.store import Store

T = TypeVar("T")
Handler = Callable[[argparse.Namespace], int]

DEFAULT_FORMAT = "gen9randombattle"
PORTS = (1, 65535)

DB_HELP = (
    "the SQLite database (default: POKEVIEW_DB or the user data directory); commands that look "
    "up what is recorded in it want it to exist"
)
PLAYERS_HELP = (
    "the players file naming model players "
    "(default: POKEVIEW_PLAYERS or players.toml in the user config directory)"
)
# Player kinds as `--help` lists them (pokeview.players.registry declares them).
KINDS = player_help()
SERVER_PORT_HELP = (
    "the local Showdown server's port for server:USER players; pokeview starts one there "
    "unless one listens already (default: POKEVIEW_SERVER_PORT or 8000)"
)
SERVER_WAIT_HELP = (
    "how long to wait for a server:USER program to come online and accept the challenge "
    "(default 120)"
)


@dataclass
class Commands:
    """Adds subcommands, each with the options every command takes (`--db`)."""

    sub: Any  # argparse's subparsers action
    common: argparse.ArgumentParser  # the parent parser of every command

    def add(self, name: str, func: Handler, help: str) -> argparse.ArgumentParser:
        p = self.sub.add_parser(name, parents=[self.common], help=help, description=help)
        p.set_defaults(func=func)
        return p


# -- running ------------------------------------------------------------------------------------


class Stopped(Exception):
    """The process was asked to stop: Ctrl-C (SIGINT) or SIGTERM, named by `signal`."""

    def __init__(self, signal: str, then: str = "") -> None:
        super().__init__(signal)
        self.signal = signal
        self.then = then  # what was kept, and how to go on

    @property
    def exit_code(self) -> int:
        return 130 if self.signal == "SIGINT" else 143  # 128 + the signal's number, as a shell


def run_stoppable(coro: Coroutine[Any, Any, T]) -> T:
    """asyncio.run, where Ctrl-C and SIGTERM stop the work the same way: the running task is
    cancelled, so games in flight are kept as interrupted (and played again or resumed later),
    a run or ladder is left `stopped`, and `Stopped` names the signal."""

    async def main() -> T:
        import signal

        task, stopped = asyncio.current_task(), []
        loop = asyncio.get_running_loop()

        def stop(name: str) -> None:
            stopped.append(name)
            if task is not None:
                task.cancel()

        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop, sig.name)
        try:
            return await coro
        except asyncio.CancelledError:
            if stopped:
                raise Stopped(stopped[0]) from None
            raise
        finally:
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(sig)

    return asyncio.run(main())


async def with_bridge(work: Callable[[Any], Coroutine[Any, Any, T]]) -> T:
    """`work(bridge)` on a Node bridge started for it and closed after."""
    from pokeview.sim.client import Bridge

    async with Bridge() as bridge:
        return await work(bridge)


# -- the database -------------------------------------------------------------------------------


def open_store(args: argparse.Namespace, *, existing: bool = False) -> Store:
    """The database, created or migrated as needed. A command that looks up what is recorded
    (`existing`) refuses a `--db` path where there is no file, rather than leave an empty database
    behind a mistyped name."""
    from pokeview.store import open_store

    if args.db:
        check_db_path(args.db, existing=existing)
    with ProgressBar("migrating the record (compacting finished games)") as progress:
        return open_store(args.db, on_migrate=progress)


def check_db_path(db: str, *, existing: bool) -> None:
    """One clear line for a `--db` path that cannot be a database, before SQLite is asked."""
    import stat

    try:
        mode = os.stat(db).st_mode
    except FileNotFoundError:  # a dangling symbolic link too
        if existing:
            raise PokeviewError(f"there is no database at {db}") from None
        folder = Path(db).parent
        if not folder.is_dir():  # a mistyped folder is not made behind the person's back
            raise PokeviewError(
                f"the folder {folder} for --db does not exist; create it first, "
                "or give another path"
            ) from None
        return  # a command that records creates it
    except OSError as exc:  # a name too long, a folder that cannot be searched...
        raise PokeviewError(f"cannot open the database at {db}: {exc.strerror}") from None
    if stat.S_ISDIR(mode):
        raise PokeviewError(f"{db} is a folder; give --db a file name inside it")


def database_file(args: argparse.Namespace, *, existing: bool = False) -> Path:
    # Opens (and creates or migrates) it, with a clear error if it cannot.
    store = open_store(args, existing=existing)
    path = store.path
    store.close()
    return path


class ProgressBar:
    """A progress bar on a terminal's stderr for long work, shown from its first step: work
    that never reports one (a record with nothing to migrate) shows nothing."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.bar: Any = None
        self.task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            from rich.progress import Progress

            from pokeview.terminal import console

            shown = console(stderr=True)
            if not shown.is_terminal:  # a log or a pipe: the command's own last line says it
                return
            self.bar = Progress(console=shown, transient=False)
            self.bar.start()
            self.task = self.bar.add_task(self.what, total=total)
        self.bar.update(self.task, completed=done)

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


# -- options ------------------------------------------------------------------------------------


def in_range(flag: str, value: int | None, allowed: tuple[int, int]) -> None:
    if value is not None and not allowed[0] <= value <= allowed[1]:
        raise PokeviewError(f"{flag} {value} is out of range: give {allowed[0]} to {allowed[1]}")


def add_server_options(p: argparse.ArgumentParser) -> None:
    """--server-port and --server-wait, for commands that may meet a server:USER player."""
    p.add_argument("--server-port", type=int, metavar="PORT", help=SERVER_PORT_HELP)
    p.add_argument("--server-wait", type=float, metavar="SECONDS", help=SERVER_WAIT_HELP)


def server_options(args: argparse.Namespace) -> ServerOptions:
    """The local server's options from --server-port and --server-wait; the port's default
    is the user's POKEVIEW_SERVER_PORT, else 8000."""
    from pokeview.players.server import DEFAULT_PORT, ServerOptions

    in_range("--server-port", args.server_port, PORTS)
    port = args.server_port
    if not port:
        text = os.environ.get("POKEVIEW_SERVER_PORT") or str(DEFAULT_PORT)
        if not text.isdigit() or not 1 <= int(text) <= 65535:
            raise PokeviewError(f"POKEVIEW_SERVER_PORT={text!r} is not a port (1 to 65535)")
        port = int(text)
    if args.server_wait is None:
        return ServerOptions(port=port)
    if not args.server_wait > 0:
        raise PokeviewError(
            f"--server-wait {args.server_wait:g} is out of range: give a number of seconds above 0"
        )
    return ServerOptions(port=port, join_wait=args.server_wait)


def add_ray_options(p: argparse.ArgumentParser) -> None:
    """--ray [ADDRESS], --ray-workers and --ray-models, for commands that play many bot games."""
    p.add_argument(
        "--ray",
        nargs="?",
        const="auto",
        metavar="ADDRESS",
        help="play the bot games on a Ray cluster (HOST:PORT; alone: RAY_ADDRESS, the cluster "
        "started here with `ray start`, or a new one here); the record stays on this machine",
    )
    p.add_argument(
        "--ray-workers",
        type=int,
        metavar="N",
        help="Ray workers (default: those `pokeview ray-pool` keeps, else one per cluster CPU)",
    )
    p.add_argument(
        "--ray-models",
        action="store_true",
        help="send games with a model player to Ray as well (by default they play here)",
    )


@asynccontextmanager
async def bridge_and_ray(
    args: argparse.Namespace, first_game: Start | None = None
) -> AsyncIterator[tuple[Any, Any]]:
    """A Node bridge, and the Ray cluster's games when --ray is given (else None), for the
    block. With --ray the bridge is not started here: a run or ladder starts it only if it
    plays a game on this machine (`engine.plays_here`). Every worker is checked first, so
    that a cluster that cannot play is said before anything is played: its Showdown is the
    one this pokeview pins, and it starts (and drops) the run's `first_game`, which is
    Showdown's word on the run's format and teams and warms each worker's simulator."""
    from pokeview.sim.client import Bridge

    if args.ray is None:
        if args.ray_workers is not None or args.ray_models:
            raise PokeviewError("--ray-workers and --ray-models go with --ray")
        async with Bridge() as bridge:
            yield bridge, None
        return
    in_range("--ray-workers", args.ray_workers, (1, 10_000))
    from rich.text import Text

    from pokeview.tournament.ray_games import RayGames

    address = None if args.ray == "auto" else args.ray
    # Starting takes seconds (minutes on a cold cluster): a terminal shows what is waited on,
    # then which workers came up. Not a log or a pipe, where what stops a run is its one line.
    where = f"at {address}" if address else "Ray finds (RAY_ADDRESS, `ray start`, or a new one)"
    shown = console(stderr=True)
    with shown.status(
        Text(f"starting the Ray workers on the cluster {where}…"), refresh_per_second=4
    ):
        remote = await RayGames.start(
            address, workers=args.ray_workers, models=args.ray_models, warm=first_game
        )
    try:
        bridge = Bridge()
        if shown.is_terminal:
            shown.print(Text(remote.ready_line()))
        try:
            yield bridge, remote
        finally:
            await bridge.close()
    finally:
        remote.close()


def played_again_note(remote: Any) -> str:
    """For a summary's end: how many games a Ray run started again after a worker died."""
    again = remote.played_again if remote is not None else 0
    return f"; {again} started again after a Ray worker died" if again else ""


# -- users' files -------------------------------------------------------------------------------


def read_team(path: str | None) -> str | None:
    if not path:
        return None
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise PokeviewError(f"cannot read the team file {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise PokeviewError(
            f"the team file {path} is not text (UTF-8); give a team in packed or export format"
        ) from None
