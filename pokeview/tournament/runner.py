"""Plays every game of a run, concurrently, and can be killed and started again at any time.

Starting a run again plays only what is missing: finished games (and games that ended in a
harness error, which are kept and left out of the ratings) are never played twice, and a game
that was running when the runner died is kept, marked interrupted, and played again from its
seed under a new id. Only one
runner plays a run at a time: the run row holds the runner's pid.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pokeview import __version__
from pokeview.battle import seeds
from pokeview.battle.loop import GameResult, play_game
from pokeview.errors import PokeviewError
from pokeview.players import make_player
from pokeview.sim.client import Bridge
from pokeview.store.store import Store
from pokeview.tournament.config import RunConfig
from pokeview.tournament.schedule import PlannedGame, plan


@dataclass
class Progress:
    planned: int
    done_before: int  # finished or error when this runner started
    done: int = 0  # by this runner
    failed: int = 0  # harness errors, by this runner
    running: int = 0
    cost: float = 0.0  # USD of this runner's games, where known
    cost_unknown: bool = False
    models: bool = False  # whether any game so far had a model in it
    started: float = field(default_factory=time.monotonic)
    last: GameResult | None = None

    @property
    def remaining(self) -> int:
        return self.planned - self.done_before - self.done

    @property
    def eta_seconds(self) -> float | None:
        if not self.done:
            return None
        return (time.monotonic() - self.started) / self.done * self.remaining

    @property
    def cost_left(self) -> float | None:
        if not self.done or self.cost_unknown:
            return None
        return self.cost / self.done * self.remaining


def _alive(pid: int | None) -> bool:
    if not pid or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def prepare_run(store: Store, config: RunConfig) -> tuple[int, list[PlannedGame], int]:
    """Find or create the run, clear what a dead runner left, and list the games still to play."""
    planned = plan(config)
    run = store.find_run(config.name)
    if run is None:
        run_id = store.create_run(config.name, config.raw, config.config_hash, len(planned))
    else:
        if run.config_hash != config.config_hash:
            raise PokeviewError(
                f"run '{config.name}' was started with a different config; "
                "give the changed config a new 'name' (a run's games must all follow one config)"
            )
        if run.state == "running" and _alive(run.pid):
            raise PokeviewError(f"run '{config.name}' is being played by process {run.pid} already")
        run_id = run.id
    done = set()
    for game_id, pair, seat, p1, p2, status in store.run_games(run_id):
        if status == "running":
            store.mark_interrupted(game_id)  # played again from its seed, under a new id
        elif status in ("finished", "error"):
            done.add(played_key(pair, seat, p1, p2))
    todo = [g for g in planned if played_key(g.pair, g.seat, g.p1, g.p2) not in done]
    return run_id, todo, len(planned) - len(todo)


def played_key(pair: int, seat: int, p1: str, p2: str) -> tuple[Any, ...]:
    # The seat as planned and the two players, in either order: on the local server Showdown
    # seats the challenger (pokeview's side) first, whatever the plan said.
    return (pair, seat, *sorted((p1, p2)))


def run_header(
    config: RunConfig, bridge: Bridge, players: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """What actually ran, derived rather than typed: versions, format, teams, players, seeds."""
    return {
        "pokeview_version": __version__,
        "showdown_version": bridge.showdown_version,
        "format": config.format,
        "turn_limit": config.turn_limit,
        "team_library": config.team_library_path,
        "team_library_hash": config.team_library_hash,
        "fixed_teams": bool(config.teams),
        "players": players,
        "matchups": [list(m) for m in config.matchups],
        "seed_text": config.seed,
        "pairs": config.pairs,
        "config_hash": config.config_hash,
    }


def _described(spec: str, players_file: str | None, format_id: str) -> dict:
    """A player's settings; one that cannot play the format says so before the run starts.
    The player is not kept (a server player holds its login while it lives)."""
    player = make_player(spec, players_file)
    check = getattr(player, "check_format", None)
    if check is not None:
        check(format_id)
    return player.describe()


async def run_tournament(
    config: RunConfig,
    *,
    store: Store,
    bridge: Bridge,
    concurrency: int | None = None,
    players_file: str | None = None,
    on_progress: Callable[[Progress], None] | None = None,
) -> Progress:
    players_file = players_file or config.players_file
    described = {spec: _described(spec, players_file, config.format) for spec in config.players}
    run_id, todo, done_before = prepare_run(store, config)
    if not bridge.running:
        await bridge.start()
    store.update_run(
        run_id, state="running", pid=os.getpid(), header=run_header(config, bridge, described)
    )
    progress = Progress(planned=len(plan(config)), done_before=done_before)
    semaphore = asyncio.Semaphore(concurrency or config.concurrency)

    async def play(game: PlannedGame) -> None:
        async with semaphore:
            progress.running += 1
            if on_progress:
                on_progress(progress)
            try:
                result = await play_game(
                    config.format,
                    seeds.game_seed(config.seed, game.pair),
                    make_player(game.p1, players_file),  # fresh players for every game
                    make_player(game.p2, players_file),
                    bridge=bridge,
                    store=store,
                    turn_limit=config.turn_limit,
                    teams=config.team_for_pair(game.pair),
                    seed_text=config.seed,
                    run_id=run_id,
                    pair=game.pair,
                    seat=game.seat,
                )
            finally:
                progress.running -= 1
            progress.done += 1
            progress.last = result
            if result.status != "finished":
                progress.failed += 1
            game_cost = store.game_cost(result.game_id)
            if store.game_has_model(result.game_id):
                progress.models = True
                progress.cost_unknown |= game_cost is None
            progress.cost += game_cost or 0.0
            if on_progress:
                on_progress(progress)

    try:
        await asyncio.gather(*(play(g) for g in todo))
    finally:
        complete = progress.remaining == 0
        store.update_run(run_id, state="finished" if complete else "stopped", pid=None)
    return progress
