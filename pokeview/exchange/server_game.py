"""Games against a program that plays on the local Showdown server (Foul Play, a poke-env bot).

pokeview's side logs in to the local server as HOST_USER and plays its side with an ordinary
pokeview player through poke-env's websocket client. pokeview chooses the battle as on the bridge:
it asks the bridge for the input-log header of the game of its seed (battle seed, each side's team
or team seed, the seats as planned) and sends its fields to its server's /pokeviewbattle command
(see sim/server_plugin.js), which builds the same opening lines from them, seats pokeview's side,
and invites the outside user to the other seat with an ordinary challenge. HOST_USER logs in with
the secret of the server's start: nobody else can. So a server game is the game a bridge game of
the same seed would be, and a run's mirror pairs hold against outside programs too.

pokeview's server config logs every finished battle with its input log
(logs/MONTH/FORMAT/DAY/ROOM.log.json); that input log is re-simulated on the bridge, which
rebuilds the whole record (both sides' views, the spectator log, the input log) exactly as for a
game played on the bridge, so it verifies. The pokeview side's decisions keep how they were made.
One server game runs at a time per process (one host user, one connection).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import weakref
from dataclasses import dataclass, replace
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import orjson

from pokeview.battle.play import OnBridge, play
from pokeview.battle.spec import GameSpec
from pokeview.errors import PokeviewError
from pokeview.players.base import Decision, DecisionContext, Player
from pokeview.players.kinds import PlayerKind
from pokeview.players.server import ServerPlayer
from pokeview.sim.request import as_request
from pokeview.sim.server import HOST_USER, ensure_server, host_secret

if TYPE_CHECKING:
    from pokeview.battle.loop import GameResult
    from pokeview.sim.client import Bridge
    from pokeview.store.store import Store

CHALLENGE_AGAIN_SECONDS = 10.0

# One server game at a time (one host user); a lock per event loop, as locks belong to one.
_locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
    weakref.WeakKeyDictionary()
)


def _seat_class() -> type:
    """A poke-env Player that hands each request to a pokeview player (built on first use, so
    that importing this module costs nothing)."""
    from poke_env.player.battle_order import BattleOrder
    from poke_env.player.player import Player as PokeEnvPlayer

    from pokeview.battle import seeds
    from pokeview.battle.actions import legal_actions

    class _Order(BattleOrder):
        def __init__(self, choice: str) -> None:
            self.choice = choice

        @property
        def message(self) -> str:
            return f"/choose {self.choice}"

    class Seat(PokeEnvPlayer):
        def __init__(self, inner: Player, seed: str, secret: str, **kwargs: Any) -> None:
            super().__init__(start_listening=False, **kwargs)  # not before the hooks below
            self.inner = inner
            self.seed = seed
            self.decisions: list[Decision] = []
            self.popups: asyncio.Queue[str] = asyncio.Queue()
            original_handle = self.ps_client._handle_message

            async def handle(message: str) -> None:
                if "|popup|" in message:  # a challenge the server could not deliver
                    self.popups.put_nowait(message.split("|popup|", 1)[1])
                await original_handle(message)

            self.ps_client._handle_message = handle  # type: ignore[method-assign]
            client = self.ps_client

            async def log_in(split_message: list[str]) -> None:
                # The host name takes the secret as its login token (poke-env's own log_in
                # would ask Showdown's login server for one).
                await client.send_message(f"/trn {client.username},0,{secret}")

            client.log_in = log_in  # type: ignore[method-assign]
            client._listening_coroutine = asyncio.run_coroutine_threadsafe(
                client.listen(), client.loop
            )

        async def _decide(self, battle: Any) -> str:
            request = as_request(battle.last_request)
            if request is None:
                raise PokeviewError("the server asked for a choice without a request")
            actions = legal_actions(request)
            side = battle.player_role or "p1"
            index = len(self.decisions)
            ctx = DecisionContext(
                side=side,
                index=index,
                turn=battle.turn,
                side_view=SimpleNamespace(battle=battle),  # poke-env's own live view
                request=request,
                request_json=orjson.dumps(battle.last_request),
                actions=actions,
                # As on the bridge (decision index × 100 + refusals), so that a seeded bot
                # makes the same choices here as in the bridge game of the same seed.
                seed=seeds.decision_seed(self.seed, side, index * 100),
            )
            decision = await self.inner.decide(ctx)
            action = actions[decision.action]
            self.decisions.append(decision)
            return action.choice

        async def choose_move(self, battle: Any) -> Any:
            return _Order(await self._decide(battle))

        async def teampreview(self, battle: Any) -> str:
            return f"/choose {await self._decide(battle)}"

    return Seat


async def _on_poke_loop(coro: Any) -> Any:
    from poke_env.concurrency import POKE_LOOP

    return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, POKE_LOOP))


async def play_over_server(spec: GameSpec, *, bridge: Any, store: Any) -> Any:
    """One game between a pokeview player and a `server:USER` player, recorded as usual."""
    players = spec.players
    format, seed, teams = spec.format, spec.seed, spec.teams
    outside = [s for s, p in players.items() if p.kind == PlayerKind.SERVER]
    if len(outside) != 1:
        raise PokeviewError("a server game needs exactly one server:USER player")
    ours_side = "p2" if outside[0] == "p1" else "p1"
    ours, theirs = players[ours_side], players[outside[0]]
    assert isinstance(theirs, ServerPlayer)
    if ours.kind != PlayerKind.BOT:
        raise PokeviewError(
            f"{ours.name} cannot play over the server: only bots and poke-env players can "
            "(a model's prompt needs the bridge's state); play it on the bridge instead"
        )
    if not seed:
        raise PokeviewError("a server game needs a seed")
    header = await _header(bridge, format, seed, teams)
    async with _locks.setdefault(asyncio.get_running_loop(), asyncio.Lock()):
        # Started from this thread, so that the server lives as long as this process does.
        port = ensure_server(theirs.server.port)
        decisions, lines = await _play_on_server(
            ours, theirs, format, header, ours_side, seed, port
        )
    lines, server_log = _split_log(lines)
    from pokeview.battle.endings import from_server_log

    cause = from_server_log(server_log)  # a forfeit, the timer: the server's log says which
    result = await _record(spec, header, lines, decisions, ours_side, bridge, store, cause)
    if server_log and result.status == "finished":
        recorded = store.game(result.game_id).spectator_log or ""
        if _battle_lines(server_log) != _battle_lines(recorded.splitlines()):
            store.delete_game(result.game_id)
            raise PokeviewError(
                "the game on the local server is not the game pokeview started there (its "
                "moves and switches differ from the bridge's); is the server pokeview's own?"
            )
    return result


def _split_log(lines: list[str]) -> tuple[list[str], list[str]]:
    if ">log" not in lines:
        return lines, []
    at = lines.index(">log")
    return lines[:at], lines[at + 1 :]


def _battle_lines(log: list[str]) -> list[str]:
    """What two logs of one battle share whoever wrote them: moves, turns, faints, and who
    came in (without the HP figures, which a spectator's and a player's log print apart)."""
    out = []
    for line in log:
        parts = line.split("|")
        if len(parts) < 3 or parts[1] not in ("move", "turn", "faint", "switch", "drag"):
            continue
        out.append("|".join(parts[:4]) if parts[1] in ("switch", "drag") else line)
    return out


def _battle_fields(header: list[str]) -> dict[str, Any]:
    """The fields of the input-log header that /pokeviewbattle takes (the server builds the
    lines from them, each seat named after its user there, by which a client knows its side)."""
    start = json.loads(header[0].removeprefix(">start "))
    seats = {}
    for line in header[1:]:
        side, _, options = line.removeprefix(">player ").partition(" ")
        seats[side] = {k: v for k, v in json.loads(options).items() if k in ("team", "seed")}
    return {"format": start["formatid"], "seed": start["seed"], "seats": seats}


async def _header(bridge: Any, format: str, seed: str, teams: dict[str, str] | None) -> list[str]:
    """The input-log header (>start, >player p1, >player p2) of the bridge game of this seed:
    the bridge reads and checks the teams exactly as for a game played on it."""
    from pokeview.battle.loop import start_spec
    from pokeview.errors import BattleRefused

    if not bridge.running:
        await bridge.start()
    try:
        channel = await bridge.open(start_spec(format, seed, teams))
    except BattleRefused as exc:
        raise PokeviewError(str(exc)) from None
    try:
        step = await channel.next()
    finally:
        channel.close()
    header = [line for line in step.input if line.startswith((">start ", ">player "))]
    if len(header) != 3:
        raise PokeviewError(f"the bridge did not start a {format} game to copy")
    return header


async def _play_on_server(
    ours: Player,
    theirs: ServerPlayer,
    format: str,
    header: list[str],
    side: str,
    seed: str,
    port: int,
) -> tuple[list[Decision], list[str]]:
    from poke_env import AccountConfiguration
    from poke_env.ps_client.server_configuration import ServerConfiguration

    seat = _seat_class()(
        ours,
        seed or "server",
        host_secret(port),
        account_configuration=AccountConfiguration(HOST_USER, None),
        server_configuration=ServerConfiguration(
            f"ws://127.0.0.1:{port}/showdown/websocket", "http://127.0.0.1/unused"
        ),
        battle_format=format,
        start_timer_on_battle_start=True,  # an outside program that vanishes loses on time
        log_level=40,
    )
    spec = {**_battle_fields(header), "user": theirs.user, "host": side}
    try:
        tag = await _on_poke_loop(_challenge_and_play(seat, theirs, format, spec))
        return seat.decisions, await _server_input_log(tag, port)
    finally:
        # A client that never connected has no websocket to close: keep the real error.
        with contextlib.suppress(AttributeError):
            await _on_poke_loop(seat.ps_client.stop_listening())


async def _challenge_and_play(
    seat: Any, theirs: ServerPlayer, format: str, spec: dict[str, Any]
) -> str:
    """Runs on poke-env's loop: challenge `theirs` (see /pokeviewbattle) until it is online and
    accepts, then play to the end. The challenge is sent again now and then: a program still
    leaving its last battle may not have seen it."""
    user = theirs.user
    try:
        await asyncio.wait_for(seat.ps_client.logged_in.wait(), 30)
    except TimeoutError:
        raise PokeviewError(f"could not log in to the local server as {HOST_USER}") from None
    deadline = time.monotonic() + theirs.server.join_wait
    while not seat.battles:
        await seat.ps_client.send_message("/pokeviewbattle " + json.dumps(spec))
        sent = time.monotonic()
        while not seat.battles:
            try:
                popup = await asyncio.wait_for(seat.popups.get(), 0.5)
            except TimeoutError:
                if time.monotonic() > deadline:
                    raise PokeviewError(
                        f"'{user}' did not accept a {format} challenge on the local server "
                        f"({seat.ps_client.server_configuration.websocket_url}) in time"
                    ) from None
                if time.monotonic() - sent > CHALLENGE_AGAIN_SECONDS:
                    break
                continue
            if "not found" in popup or "is not accepting" in popup or "busy" in popup:
                if time.monotonic() > deadline:
                    raise PokeviewError(
                        f"'{user}' is not on the local server: {popup[:200]}"
                    ) from None
                await asyncio.sleep(1)
                break  # challenge again
            raise PokeviewError(f"the local server refused the challenge: {popup[:200]}")
    battle = next(iter(seat.battles.values()))
    limit = theirs.server.game_wait
    deadline = time.monotonic() + limit
    while not battle.finished:
        if time.monotonic() > deadline:
            raise PokeviewError(f"the game against '{user}' did not end in {limit:.0f} s")
        await asyncio.sleep(0.2)
    return battle.battle_tag


async def _server_input_log(tag: str, port: int) -> list[str]:
    """The input log the server wrote for battle `tag` (pokeview's server config logs every
    battle to logs/MONTH/FORMAT/DAY/ROOM.log.json once it ends), followed by its battle log
    as `|` lines after a `>log` marker (to check the record against)."""
    from pokeview.sim.server import package_dir

    logs = package_dir() / "logs"
    name = tag.removeprefix("battle-")
    for _ in range(100):  # it is written just after the end
        found = sorted(logs.glob(f"*/*/*/{name}.log.json"), key=lambda p: p.stat().st_mtime)
        if found:
            try:
                data = json.loads(found[-1].read_text())
            except (OSError, ValueError):
                data = None  # still being written
            if data and data.get("roomid") == tag and data.get("inputLog"):
                lines = data["inputLog"]
                lines = lines.split("\n") if isinstance(lines, str) else lines
                log = data.get("log") or []
                log = log.split("\n") if isinstance(log, str) else log
                found[-1].unlink(missing_ok=True)  # kept only for pokeview: now in the record
                return [line for line in lines if line.strip()] + [">log", *log]
        await asyncio.sleep(0.1)
    raise PokeviewError(
        f"the server on port {port} wrote no log for {tag}: is it pokeview's own "
        "(started by pokeview server)?"
    )


async def _record(
    spec: GameSpec,
    header: list[str],
    lines: list[str],
    decisions: list[Decision],
    host_side: str,
    bridge: Any,
    store: Any,
    cause: str | None = None,
) -> Any:
    """Re-simulate the server's input log on the bridge into an ordinary record."""
    from pokeview.players.recorded import RecordedPlayer, ending, split_input_log

    played, choices = split_input_log(lines)
    if not played or played[0] != header[0]:
        raise PokeviewError("the server's input log does not start the battle pokeview sent")
    # The record starts as the bridge game of the seed does, the seats named "Player 1" and
    # "Player 2" (on the server they bore the users' names, which change nothing in the game).
    theirs = spec.players["p2" if host_side == "p1" else "p1"]
    assert isinstance(theirs, ServerPlayer)
    source = f"local server, port {theirs.server.port}"
    recorded = {
        side: RecordedPlayer(
            side,
            choices[side],
            source,
            as_player=spec.players[side],
            made=decisions if side == host_side else None,
            ending=ending(lines),  # the outside program forfeited, or lost on time
            cause=cause,
        )
        for side in ("p1", "p2")
    }
    replay = replace(
        spec,
        p1=recorded["p1"],
        p2=recorded["p2"],
        inputlog=header,
        seed_text=spec.seed_text or "played on the local server",
    )
    return await play(replay, venue=OnBridge(bridge), store=store)


@dataclass(frozen=True, slots=True)
class LocalServer:
    """The venue of the callers that may meet a `server:USER` player (`battle`, runs, ladders):
    a game with such a side is played on the local server and recorded on the bridge; any other
    game is played on the bridge itself. See `battle.play`."""

    bridge: Bridge

    async def play(self, spec: GameSpec, store: Store) -> GameResult:
        if not (isinstance(spec.p1, ServerPlayer) or isinstance(spec.p2, ServerPlayer)):
            return await OnBridge(self.bridge).play(spec, store)
        unusable = [
            k for k in ("inputlog", "resume", "parent_game") if getattr(spec, k) is not None
        ]
        if unusable:
            raise PokeviewError(f"a game on the local server cannot take {', '.join(unusable)}")
        return await play_over_server(spec, bridge=self.bridge, store=store)
