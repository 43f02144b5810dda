"""A Ray worker's side of a run: whole games played on its own bridge, each sent back as rows.

The driver makes one `GameWorker` actor per worker process (`ray_games`). Each keeps its own
Node bridge (and search host) and a scratch SQLite file; a game is played into that file exactly
as on the driver's machine, then leaves it as the rows `Store.export_rows` gives, for the driver
to store in one transaction. A worker that dies takes only its scratch file with it.

This module does not import Ray: the driver wraps the class as an actor.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import os
import shutil
import socket
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pokeview import __version__, paths
from pokeview.battle.loop import GameResult
from pokeview.battle.play import OnBridge, play
from pokeview.errors import PokeviewError
from pokeview.game.bridge import Start
from pokeview.sim import install
from pokeview.sim.client import Bridge, start_and_drop
from pokeview.store.store import Store
from pokeview.tournament.order import GameOrder


@dataclass(frozen=True, slots=True)
class Readiness:
    """What a worker says when asked at start (after `version`): where it is, the Showdown it
    plays with, or why it cannot play (`problem`, one line)."""

    host: str
    showdown: str | None = None
    problem: str | None = None


@dataclass(slots=True)
class Shipped:
    """A game played on a worker: its result, and its rows as `Store.export_rows` gives them."""

    result: GameResult
    row: dict[str, Any]
    decisions: list[dict[str, Any]]
    events: list[dict[str, Any]]
    host: str
    # A game the worker's bridge played through by itself: its decisions' times instead of
    # decisions and events, derived when the driver's record is first read (`body.PLAYED`).
    played: list[tuple[str, float]] | None = None


@dataclass(frozen=True, slots=True)
class Failed:
    """A game of a batch that raised here, said in one line: `stops` when it is what a run on
    the driver's machine would stop on too (a `PokeviewError`), else worth another worker."""

    message: str
    stops: bool


SCRATCH = "pokeview-ray-"  # a worker's scratch folder, by its pid


def _sweep() -> None:
    """Remove the scratch folders of workers whose process is gone."""
    for folder in Path(tempfile.gettempdir()).glob(f"{SCRATCH}*"):
        pid = folder.name.removeprefix(SCRATCH)
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except PermissionError:
            pass  # another user's live process


class GameWorker:
    """One per Ray worker process: a bridge of one Node host, and a scratch database."""

    def __init__(self) -> None:
        self.host = socket.gethostname()
        _sweep()  # Ray kills a worker without a word: its scratch folder is cleared here
        self.folder = Path(tempfile.gettempdir()) / f"{SCRATCH}{os.getpid()}"
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(mode=0o700)
        self.store: Store | None = None
        self.bridge = Bridge(hosts=1)  # one core per worker: Ray spreads the workers
        self.players_files: dict[str, Path] = {}
        self.closed = False  # `pokeview ray-pool stop` came: games still sent are refused

    async def version(self) -> tuple[str, str]:
        """Where this worker is and its pokeview version, in plain strings: asked before
        anything of pokeview's own types is sent, which another version may not read."""
        return self.host, __version__

    async def ready(self, warm: Start | None = None) -> Readiness:
        """Node and the pinned Showdown checked here, and the bridge started (and warmed with
        the run's first game, `warm`); the problem otherwise, said as the person at the driver
        must read it."""
        try:
            install.node_executable()
            if not install.is_installed():
                return self._cannot(
                    f"the pinned Showdown is not installed in {paths.showdown_dir()}; run "
                    "`pokeview setup` on that machine"
                )
            if not self.bridge.running:
                await self.bridge.start()
            if warm is not None:
                # Showdown loads a format's data on its first battle: here, not in a game
                await start_and_drop(self.bridge, warm)
        except PokeviewError as exc:
            return self._cannot(str(exc))
        return Readiness(self.host, self.bridge.showdown_version)

    def _cannot(self, problem: str) -> Readiness:
        return Readiness(self.host, problem=problem)

    async def play_many(
        self, orders: list[tuple[GameOrder, tuple[str, str] | None]]
    ) -> list[Shipped | Failed]:
        """Play these games side by side and send them back together, each whole or as the
        one line of what stopped it: Ray's cost is by call, so the driver sends a few at once."""
        played = await asyncio.gather(
            *(self.play(order, players) for order, players in orders), return_exceptions=True
        )
        return [_sent(outcome) for outcome in played]

    async def play(self, order: GameOrder, players: tuple[str, str] | None) -> Shipped:
        """Play the game of `order` here and send it back whole; nothing of it stays."""
        if self.closed:
            raise PokeviewError("the worker was stopped (`pokeview ray-pool stop`)")
        if not self.bridge.running:
            await self.bridge.start()
        if self.store is None:
            self.store = Store(self.folder / "games.db")
        # The run's row is the driver's: the game is stored under it there.
        order = dataclasses.replace(order, run_id=None, players_file=self._players_file(players))
        result = await play(order(), venue=OnBridge(self.bridge), store=self.store)
        played = self.store.played_times(result.game_id)
        row, decisions, events = self.store.export_rows(result.game_id, derive=played is None)
        self.store.delete_game(result.game_id)
        return Shipped(result, row, decisions, events, self.host, played)

    def _players_file(self, players: tuple[str, str] | None) -> str | None:
        """The driver's players file (its suffix, its text), written here once; its keys'
        values come from this machine's environment, as the file names them."""
        if players is None:
            return None
        suffix, text = players
        digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        path = self.players_files.get(digest)
        if path is None:
            path = self.folder / f"players-{digest}{suffix}"
            path.write_text(text)
            self.players_files[digest] = path
        return str(path)

    async def close(self) -> None:
        self.closed = True
        await self.bridge.close()
        if self.store is not None:
            self.store.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def _sent(outcome: Shipped | BaseException) -> Shipped | Failed:
    if isinstance(outcome, Shipped):
        return outcome
    if isinstance(outcome, PokeviewError):
        return Failed(str(outcome), stops=True)
    # (one game cancelled on its own is this game's, not its batch's: the others are kept)
    return Failed(first_line(outcome), stops=False)


def first_line(exc: BaseException) -> str:
    return next((line for line in str(exc).splitlines() if line.strip()), type(exc).__name__)
