"""A bot's side recorded without its words and state (the game loop's `words_later`) made
whole: the game's commands are played again from its seed, with the bridge computing words and
state for those sides only, and each of their side events is written as the game would have
written it with words on (the same bytes: the bridge is deterministic, and every side's words,
state and differences depend only on the commands it was sent, in their order).

The commands are the start, every choice in the order the record holds them (a refused one
too: it was sent), and an ending written into the input log (`>forcetie` at the turn limit).
What the replay gives is checked against the record (each side's lines, the input log) before
anything is written: a record that cannot be derived exactly is left as it is, and said so.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import threading
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from pokeview.battle.loop import side_payload, start_spec
from pokeview.battle.play import AgainOnBridge, play
from pokeview.battle.spec import GameSpec
from pokeview.errors import PokeviewError
from pokeview.game.bridge import SIDES, SideUpdate, Step
from pokeview.game.decision import bot_choices
from pokeview.players import make_player
from pokeview.players.base import Player
from pokeview.players.kinds import BOTS
from pokeview.sim.client import BattleChannel, Bridge
from pokeview.store import body as bodies
from pokeview.store import events as ev
from pokeview.store.differences import Rebuilder
from pokeview.store.events import EventKind
from pokeview.store.rows import GameRow
from pokeview.store.store import EventRow, Store, open_store

T = TypeVar("T")

STEP_TIMEOUT = 30.0  # seconds for one step of the replay: a diverging one stops, not hangs
_ENDINGS = (">forcetie", ">forcelose ", ">forcewin ")


class CannotDerive(PokeviewError):
    """The replay of a game's commands did not give back its record: nothing was written."""


def later_events(events: list[EventRow]) -> list[EventRow]:
    return [e for e in events if e.kind == EventKind.SIDE and e.data.later]


async def derived_payloads(store: Store, bridge: Bridge, game_id: int) -> dict[int, ev.Side]:
    """The game's side events recorded without words, by id, as an eager game wrote them."""
    events = store.events(game_id)
    later = later_events(events)
    if not later:
        return {}
    game = store.game(game_id)
    start = start_spec(game.format, game.seed, game.teams)
    start.words = [s for s in SIDES if any(e.side == s for e in later)]
    channel = await bridge.open(start)
    try:
        replayed = await _replay(channel, events, set(start.words), len(later))
    finally:
        channel.close()
    payloads: dict[int, ev.Side] = {}
    for event, (side, update) in zip(later, replayed, strict=True):
        if side != event.side or update.lines != event.data.lines:
            raise CannotDerive(
                f"game {game_id}: playing its choices again gave other lines for {event.side} "
                f"(event {event.id}); its words were left to be derived"
            )
        payloads[event.id] = side_payload(update)
    return payloads


async def derive_words(store: Store, bridge: Bridge, game_id: int) -> int:
    """Write a game's side events recorded without words whole; how many were written."""
    payloads = await derived_payloads(store, bridge, game_id)
    store.rewrite_events(game_id, payloads)
    return len(payloads)


async def preview_words(store: Store, bridge: Bridge, game_id: int) -> dict[int, str]:
    """For a running game: its side events recorded without words, derived and made whole
    (as a reader gets them from the Store), by id; nothing is written."""
    payloads = await derived_payloads(store, bridge, game_id)
    rebuilder = Rebuilder()  # a side's events are all later or none: followed from its first
    sides = {e.id: e.side for e in store.events(game_id, kinds=(EventKind.SIDE,))}
    return {
        event_id: rebuilder.whole(sides[event_id], ev.encode(payload).decode())
        for event_id, payload in sorted(payloads.items())
    }


async def _replay(
    channel: BattleChannel, events: list[EventRow], sides: set[str], wanted: int
) -> list[tuple[str, SideUpdate]]:
    """Send the game's commands, then read steps until `wanted` updates of `sides` came."""
    recorded_input = [line for e in events if e.kind == EventKind.INPUT for line in e.data.lines]
    for event in events:
        if event.kind == EventKind.CHOICE and event.side:
            channel.choose(event.side, event.data.choice)
        elif event.kind == EventKind.INPUT:
            for line in event.data.lines:
                if line.startswith(_ENDINGS):
                    channel.end_with(line)
    updates: list[tuple[str, SideUpdate]] = []
    replayed_input: list[str] = []
    while len(updates) < wanted:
        try:
            step: Step = await asyncio.wait_for(channel.next(), STEP_TIMEOUT)
        except TimeoutError:
            raise CannotDerive(
                f"playing a game's choices again stopped after {len(updates)} of {wanted} "
                "side updates"
            ) from None
        replayed_input += step.input
        updates += [(side, u) for side, u in step.sides.items() if side in sides]
    if replayed_input != recorded_input[: len(replayed_input)]:
        raise CannotDerive("playing a game's choices again gave another input log")
    return updates


def _bot(game: GameRow, config: dict[str, Any]) -> Player:
    """The bot that played a side of a game played whole: one of poke-env's, by its name."""
    if config.get("kind") != "bot" or config.get("bot") not in BOTS:
        raise CannotDerive(
            f"game {game.id} was played in the bridge alone by a player it has no bot for"
        )
    return make_player(config["bot"])


async def whole_body(
    bridge: Bridge, scratch: Store, game: GameRow, played: bodies.Body
) -> bodies.Body:
    """A game of two bots the bridge played through by itself (`bodies.PLAYED`): played
    again the usual way into `scratch`, each decision's time its first, and its body as that
    game would have been recorded, checked against what the game recorded (CannotDerive). Its
    events and decisions are given the game's end as their time (they were not seen before)."""
    latencies = {
        key: made.latency_ms or 0.0 for key, made in bot_choices(played.played or ()).items()
    }
    spec = GameSpec.again(game, _bot(game, game.p1_config), _bot(game, game.p2_config))
    result = await play(spec, venue=AgainOnBridge(bridge, latencies), store=scratch)
    again = scratch.game(result.game_id)
    try:
        if (again.status, again.winner, again.turns, again.input_log, again.spectator_log) != (
            game.status,
            game.winner,
            game.turns,
            game.input_log,
            played.spectator_log,
        ):
            versions = ""
            if game.showdown_version and game.showdown_version != bridge.showdown_version:
                versions = (
                    f" (it was played on Showdown {game.showdown_version}, and is played again "
                    f"on {bridge.showdown_version}: `pokeview db --check` derives every game; "
                    "run it before changing Showdown)"
                )
            raise CannotDerive(
                f"game {game.id} was played in the bridge alone, and playing it again gave "
                f"another game: its steps cannot be shown{versions}"
            )
        body = scratch._stored_body(result.game_id)
    finally:
        scratch.delete_game(result.game_id)
        scratch.commit()
    at = datetime.fromisoformat(game.ended_at).timestamp() if game.ended_at else 0.0
    created = bodies.DECISION_COLUMNS.index("created_at")
    return bodies.Body(
        [(i, side, kind, data, at) for i, side, kind, data, _ in body.events],
        [(d[0], game.id, *d[2:created], game.ended_at, *d[created + 1 :]) for d in body.decisions],
        body.spectator_log,
    )


async def derive_all(store: Store, bridge: Bridge, game_ids: list[int]) -> int:
    """`derive_words` for each game (those with nothing to derive cost one read)."""
    total = 0
    for game_id in game_ids:
        total += await derive_words(store, bridge, game_id)
    return total


class ForReaders:
    """The Store's deriver (`compaction.Deriver`) for readers: a reader is plain code (an
    export, the site, a screen's worker), often inside another event loop, and waits for the
    words it asked for. So a thread of its own runs an event loop and a Node bridge, started
    when first needed; the bridge's Node child ends with the process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._bridge: Bridge | None = None
        self._inherited: tuple[object, ...] | None = None
        self._scratch: Store | None = None
        self._scratch_dir: tempfile.TemporaryDirectory[str] | None = None

    def keep(self, store: Store, game_id: int) -> None:
        self._run(lambda bridge: derive_words(store, bridge, game_id))

    def whole(self, game: GameRow, played: bodies.Body) -> bodies.Body:
        return self._run(lambda bridge: whole_body(bridge, self._scratch_store(), game, played))

    def _scratch_store(self) -> Store:
        """Where games are played again to derive them (in this thread: SQLite's objects are
        its own), a file of its own, emptied after each."""
        if self._scratch is None:
            self._scratch_dir = tempfile.TemporaryDirectory(prefix="pokeview-derive-")
            self._scratch = open_store(Path(self._scratch_dir.name) / "again.db")
        return self._scratch

    def forget_in_child(self) -> None:
        """In a process forked from one that derived: the parent's loop has no thread here and
        its Node is the parent's, so this process starts its own when first needed. The
        parent's objects are kept, not collected: collecting them would close what is not
        this process's."""
        self._inherited = (self._loop, self._bridge, self._scratch, self._scratch_dir)
        self._lock = threading.Lock()
        self._loop = None
        self._bridge = None
        self._scratch = None
        self._scratch_dir = None

    def preview(self, store: Store, game_id: int) -> dict[int, str]:
        return self._run(lambda bridge: preview_words(store, bridge, game_id))

    def _run(self, work: Callable[[Bridge], Awaitable[T]]) -> T:
        with self._lock:
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
                threading.Thread(
                    target=self._loop.run_forever, name="pokeview-derive", daemon=True
                ).start()
                self._bridge = Bridge(hosts=1)
        assert self._bridge is not None
        bridge = self._bridge

        async def call() -> T:
            return await work(bridge)

        try:
            return asyncio.run_coroutine_threadsafe(call(), self._loop).result()
        except CannotDerive:
            raise
        except (PokeviewError, OSError) as exc:  # no Node here, the bridge died, ...
            raise CannotDerive(
                f"a bot game's words are derived in Node when first read, and could not be: {exc}"
            ) from None


FOR_READERS = ForReaders()
os.register_at_fork(after_in_child=FOR_READERS.forget_in_child)
