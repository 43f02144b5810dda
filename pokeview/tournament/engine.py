"""What runs and ladders share: playing a run's games, counting them, and leaving the run's row.

A run plays a fixed plan and a ladder chooses its sets as it goes: that is their own (`runner`,
`ladder_play`). The rest is here, once: each game is played through `battle.play` at the local
server's venue (so `server:USER` players play there), a given number at once; its result is
counted (done, void by the one rule of `battle/void.py`, interrupted, failed; its cost); the
progress hook hears of every change; and the run's row is taken for this process and left
`finished`, `errors` or `stopped` however play ends: Ctrl-C and SIGTERM cancel the work, the games
in flight are kept as interrupted, and the row says `stopped`. A remote (a Ray cluster, see
`ray_games`) may take a game instead: it is played there and arrives here whole, as one transaction.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from pokeview.battle.loop import GameResult
from pokeview.battle.play import play
from pokeview.battle.spec import GameSpec
from pokeview.exchange.server_game import LocalServer
from pokeview.players import make_player
from pokeview.players.base import Player
from pokeview.players.server import ServerOptions
from pokeview.ratings.decisions import ensure_stats
from pokeview.sim.client import Bridge
from pokeview.store.store import Store
from pokeview.tournament.eta import GameClock
from pokeview.tournament.order import GameOrder


@dataclass
class Progress:
    planned: int
    done_before: int  # finished or error when this runner started
    done: int = 0  # by this runner
    failed: int = 0  # harness errors, by this runner
    void: int = 0  # void games, by this runner: played again when the run is started again
    interrupted: int = 0  # games cut short (the bridge died, say): played again likewise
    running: int = 0
    cost: float = 0.0  # USD of this runner's games, where known
    cost_unknown: bool = False
    models: bool = False  # whether any game so far had a model in it
    started: float = field(default_factory=time.monotonic)
    last: GameResult | None = None
    last_spec: GameSpec | None = None  # the spec `last` was played from
    clock: GameClock | None = None  # a run's games' times, for the time left
    again: dict[int, str] = field(default_factory=dict)  # recorded games played again: status

    @property
    def recorded(self) -> int:
        """The run's games recorded for good so far (a void or interrupted game is to be played
        again)."""
        return self.done_before + self.done - self.void - self.interrupted

    @property
    def remaining(self) -> int:
        return self.planned - self.done_before - self.done

    @property
    def eta_seconds(self) -> float | None:
        if self.clock is not None:
            return self.clock.seconds_left()
        if not self.done:
            return None
        return (time.monotonic() - self.started) / self.done * self.remaining

    @property
    def cost_left(self) -> float | None:
        if not self.done or self.cost_unknown:
            return None
        return self.cost / self.done * self.remaining


def checked_players(
    specs: Iterable[str], format: str, players_file: str | None, server: ServerOptions | None
) -> dict[str, Player]:
    """The players these specs name, each asked first whether it can play the format, so that
    a run or ladder that cannot be played is refused before anything is recorded."""
    players = {spec: make_player(spec, players_file, server=server) for spec in specs}
    for player in players.values():
        player.check_format(format)
    return players


def alive(pid: int | None) -> bool:
    """Whether another live process has this pid (the one that holds a run)."""
    if not pid or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def kinds_of(players: Iterable[Player]) -> set[str]:
    return {player.kind for player in players}


class Remote(Protocol):
    """Somewhere else that plays games (a Ray cluster): it says which games it takes, by the
    kinds of their players, and hands each back recorded in `store`."""

    @property
    def showdown(self) -> str | None:
        """The Showdown version its games are played on."""

    def takes(self, kinds: set[str]) -> bool: ...

    async def play(self, order: GameOrder, store: Store, spec: GameSpec) -> GameResult: ...


def plays_here(remote: Remote | None, players: Iterable[Player]) -> bool:
    """Whether a run or ladder of these players plays any game on this machine's bridge: not
    when a remote takes every game, and then this machine's Node is not started at all (its
    start and first game cost 0.7 s of CPU beside the Ray workers', on the cores they need)."""
    return remote is None or not remote.takes(kinds_of(players))


def showdown_played(bridge: Bridge, remote: Remote | None) -> str | None:
    """The Showdown the games are played on, for the run's header: a remote's workers are
    checked to have this machine's pinned one."""
    return remote.showdown if remote is not None else bridge.showdown_version


class Engine:
    """Plays games of one run, `concurrency` at once, counting each into `progress` and telling
    `on_progress` (the progress line of `run`, the game lines of `ladder play`)."""

    def __init__(
        self,
        store: Store,
        bridge: Bridge,
        progress: Progress,
        *,
        concurrency: int,
        on_progress: Callable[[Progress], None] | None = None,
        remote: Remote | None = None,
    ) -> None:
        self.store = store
        self.remote = remote
        self.venue = LocalServer(bridge)
        self.progress = progress
        self.on_progress = on_progress
        self.semaphore = asyncio.Semaphore(concurrency)

    async def play(self, games: Iterable[tuple[Any, Callable[[], GameSpec]]]) -> list[GameResult]:
        """Play these games and count them: each is (what the progress clock knows it by, how
        to make its spec). A spec is made when its game's turn comes, with players fresh for it
        (a server player holds its login while it lives)."""
        tasks = [asyncio.ensure_future(self._one(key, game)) for key, game in games]
        try:
            return list(await asyncio.gather(*tasks))
        except BaseException:
            # One game's error (a full disk, a stop) ends the others here, before it is told:
            # left to asyncio.run's shutdown, a game cancelled there that then cannot write
            # its status (the full disk again) was a traceback after the one clean line.
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise

    async def _one(self, key: Any, game: Callable[[], GameSpec]) -> GameResult:
        progress = self.progress
        clock = progress.clock
        async with self.semaphore:
            progress.running += 1
            if clock is not None:
                clock.started(key)
            self._tell()
            try:
                spec = game()  # making the players may fail: the clock is told all the same
                remote = self.remote
                if (
                    isinstance(game, GameOrder)
                    and remote
                    and remote.takes(kinds_of(spec.players.values()))
                ):
                    for player in spec.players.values():
                        await player.close()  # made here only to be asked; played there
                    result = await remote.play(game, self.store, spec)
                else:
                    result = await play(spec, venue=self.venue, store=self.store)
            except BaseException:
                if clock is not None:
                    clock.ended(key, counted=False)  # cut short: its time says nothing
                raise
            finally:
                progress.running -= 1
        if clock is not None:
            clock.ended(key, counted=result.status != "interrupted")
        progress.last_spec = spec
        self.count(result)
        self._tell()
        return result

    def count(self, result: GameResult) -> None:
        progress = self.progress
        progress.done += 1
        progress.last = result
        if result.status == "void":
            progress.void += 1
        elif result.status == "interrupted":
            progress.interrupted += 1
        elif result.status != "finished":
            progress.failed += 1
        ensure_stats(self.store, [result.game_id])  # a resumed game's are computed here
        game_cost = self.store.game_cost(result.game_id)
        if self.store.game_has_model(result.game_id):
            progress.models = True
            progress.cost_unknown |= game_cost is None
        progress.cost += game_cost or 0.0

    def _tell(self) -> None:
        if self.on_progress:
            self.on_progress(self.progress)


@asynccontextmanager
async def holding(store: Store, run_id: int, ending: Callable[[], str]) -> AsyncIterator[None]:
    """The run's row held by this process while the block plays: `running` with this pid, then
    the state `ending()` says when the block ends by itself, and `stopped` when it is stopped
    (Ctrl-C, SIGTERM) or fails; the pid is let go either way."""
    store.update_run(run_id, state="running", pid=os.getpid())
    state = "stopped"
    try:
        yield
        state = ending()
    finally:
        store.update_run(run_id, state=state, pid=None)
