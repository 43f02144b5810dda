"""Plays every game of a run, concurrently, and can be killed and started again at any time.

Starting a run again plays only what is missing: finished games (and games that ended in a
harness error, which are kept and left out of the ratings) are never played twice. A game that
was running when the runner died is kept, marked interrupted, and played again from its seed
under a new id; so is a void game (a model mostly on autopilot, see battle/void.py). Only one
runner plays a run at a time: the run row holds the runner's pid.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pokeview import __version__
from pokeview.battle import seeds
from pokeview.errors import PokeviewError
from pokeview.game.bridge import PlayerSpec, Start
from pokeview.players import make_player
from pokeview.players.base import Player
from pokeview.players.registry import identity
from pokeview.players.server import ServerOptions
from pokeview.sim.client import Bridge, start_and_drop
from pokeview.store.store import Store
from pokeview.tournament.config import RunConfig
from pokeview.tournament.engine import (
    Engine,
    Progress,
    Remote,
    alive,
    checked_players,
    holding,
    plays_here,
    showdown_played,
)
from pokeview.tournament.eta import GameClock
from pokeview.tournament.order import GameOrder
from pokeview.tournament.schedule import PlannedGame, plan


def prepare_run(
    store: Store, config: RunConfig, players: dict[str, Player] | None = None
) -> tuple[int, list[PlannedGame], int, dict[int, str]]:
    """Take the run for this process (creating it if new), clear what a dead runner left, and
    list the games still to play. Taking it is one write transaction: of two runners started at
    once, one plays and the other is told who does.

    A game counts as played by its players' names as recorded (`llm:loopback` for the spec
    `loopback`), so a spec and the name it stands for are one player. A player whose settings
    changed since the run's games were played is refused: its games would mix two players.
    The last item names the recorded games (id: status) that are played again.
    """
    planned = plan(config)
    players = players or {spec: make_player(spec, config.players_file) for spec in config.players}
    names = {spec: player.name for spec, player in players.items()}
    existing = store.find_run(config.name)
    if existing is not None and existing.config_hash == config.config_hash:
        _check_same_players(config.name, existing.header, players)
    run = store.claim_run(config.name, config.raw, config.config_hash, len(planned), alive)
    run_id = run.id
    done: set[tuple[Any, ...]] = set()
    cut_short: dict[tuple[Any, ...], tuple[int, str]] = {}
    for game in store.run_games(run_id):
        key = played_key(game.pair, game.seat, game.p1, game.p2)
        if game.status == "running":
            store.mark_interrupted(game.id)  # played again from its seed, under a new id
            cut_short[key] = (game.id, "interrupted")
        elif game.status in ("finished", "error"):  # void and interrupted games are played again
            done.add(key)
        else:  # the latest record of each game is the one named
            cut_short[key] = (game.id, game.status)
    todo = [g for g in planned if played_key(g.pair, g.seat, names[g.p1], names[g.p2]) not in done]
    again = dict(sorted(v for key, v in cut_short.items() if key not in done))
    return run_id, todo, len(planned) - len(todo), again


def _check_same_players(
    run_name: str, header: dict[str, Any] | None, players: dict[str, Player]
) -> None:
    before = (header or {}).get("players") or {}
    for spec, player in players.items():
        if spec not in before:
            continue
        was, now = identity(before[spec]), identity(player.describe())
        if was != now:
            changed = sorted(k for k in set(was) | set(now) if was.get(k) != now.get(k))
            what = ", ".join(f"{k}: {was.get(k)!r} → {now.get(k)!r}" for k in changed)
            raise PokeviewError(
                f"run '{run_name}': player {player.name} is not the one its games were played "
                f"with ({what}); restore its settings, or give the run a new 'name'"
            )


def played_key(pair: int | None, seat: int | None, p1: str, p2: str) -> tuple[Any, ...]:
    # The seat as planned and the two players, in either order (games recorded before pokeview
    # chose the seats on its local server have pokeview's side first whatever the plan said).
    return (pair, seat, *sorted((p1, p2)))


def first_game(config: RunConfig) -> Start:
    """The run's first game as Showdown starts it: what `showdown_accepts` asks about."""
    seed = seeds.game_seed(config.seed, 0)
    teams = config.team_for_pair(0) or {}
    players = {
        side: PlayerSpec(side, team=teams[side])
        if teams.get(side)
        else PlayerSpec(side, seed=seeds.team_seed(seed, side))
        for side in ("p1", "p2")
    }
    return Start(format=config.format, seed=seeds.battle_seed(seed), players=players)


async def showdown_accepts(bridge: Bridge, config: RunConfig) -> None:
    """Start (and drop) the run's first game in Showdown: an unknown format or a team it
    refuses is said now, as one line, rather than by every game."""
    await start_and_drop(bridge, first_game(config))


def run_header(
    config: RunConfig, showdown: str | None, players: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """What actually ran, derived rather than typed: versions, format, teams, players, seeds."""
    return {
        "pokeview_version": __version__,
        "showdown_version": showdown,
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
        "void_autopilot_share": config.void_autopilot_share,
    }


async def run_tournament(
    config: RunConfig,
    *,
    store: Store,
    bridge: Bridge,
    concurrency: int | None = None,
    players_file: str | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    server: ServerOptions | None = None,
    remote: Remote | None = None,
) -> Progress:
    """Play what is left of the run; `server` is where its `server:USER` players are, and
    `remote` (a Ray cluster) plays the games it takes."""
    players_file = players_file or config.players_file
    # Everything that can refuse the config is asked before the run is created: its players
    # (and whether each can play the format), and whether Showdown starts it with its teams.
    players = checked_players(config.players, config.format, players_file, server)
    if plays_here(remote, players.values()):  # (else the remote's workers asked Showdown)
        if not bridge.running:
            await bridge.start()
        await showdown_accepts(bridge, config)
    run_id, todo, done_before, again = prepare_run(store, config, players)
    described = {spec: player.describe() for spec, player in players.items()}
    names = {spec: player.name for spec, player in players.items()}
    del players  # fresh players play each game; a server player holds its login while it lives
    store.update_run(run_id, header=run_header(config, showdown_played(bridge, remote), described))
    slots = concurrency or config.concurrency
    clock = GameClock(todo, slots, names)
    for p1, p2, seconds in store.run_game_times(run_id):  # a restart knows the games before it
        clock.recorded(p1, p2, seconds)
    progress = Progress(
        planned=len(plan(config)), done_before=done_before, clock=clock, again=again
    )
    engine = Engine(
        store, bridge, progress, concurrency=slots, on_progress=on_progress, remote=remote
    )

    def ending() -> str:
        # `finished` only when every planned game is recorded and none ended in an error: a
        # run with games to play again is `stopped`, one whose games are all in but some in
        # errors is `errors` (its ratings leave those out).
        if progress.remaining or progress.void or progress.interrupted:
            return "stopped"
        return "errors" if store.error_games(run_id) else "finished"

    def game(planned: PlannedGame) -> GameOrder:
        return GameOrder(
            config.format,
            config.seed,
            planned.p1,
            planned.p2,
            pair=planned.pair,
            seat=planned.seat,
            run_id=run_id,
            turn_limit=config.turn_limit,
            teams=config.team_for_pair(planned.pair),
            void_share=config.void_autopilot_share,
            players_file=players_file,
            server=server,
        )

    async with holding(store, run_id, ending):
        await engine.play((g, game(g)) for g in todo)
    return progress


def delete_run(store: Store, name: str) -> tuple[str, int]:
    """Delete a run (name or id) none of whose games has finished, so that its name can be used
    again; refused while a live process plays it. Returns its name and how many games went."""
    run = store.run(name)
    if run.state == "running" and alive(run.pid):
        raise PokeviewError(f"run '{run.name}' is being played by process {run.pid}")
    try:
        gone = store.delete_unplayed_run(run.id)
    except PokeviewError as exc:
        raise PokeviewError(f"run '{run.name}' is not deleted: {exc}") from None
    return run.name, gone
