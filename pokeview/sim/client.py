"""The Python side of the Node bridge: Node child processes hosting many battles, JSON lines.

Each battle gets a `BattleChannel` whose queue receives that battle's steps, or which hands them
straight to a receiver (a game being played: see `Receiver`). When a child dies,
every channel open on it is told at once (with the child's last stderr lines), and the next battle
opened there starts a fresh child. `Bridge` spreads battles over up to one host per core (the
simulator is single-threaded): a second host starts only once the first has battles in flight.
"""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from pokeview import paths
from pokeview.errors import BattleRefused, BridgeDied
from pokeview.game import bridge as wire
from pokeview.game.bridge import Step
from pokeview.sim.child import NodeChild
from pokeview.text import is_utf8

if TYPE_CHECKING:
    from pokeview.sim.search_client import SearchHost

STREAM_LIMIT = 64 * 1024 * 1024  # a whole-game step (a replay) can be a few MB

# The simulator's commands a game's input log holds. Showdown's BattleStream runs any other
# `>` line it is given, `>eval` (JavaScript) among them, and splits what it is given at each
# newline: an input log or a choice from a file or a database may hold neither.
INPUT_COMMANDS = frozenset(
    ("start", "player", "p1", "p2", "forcewin", "forcelose", "forcetie", "tiebreak", "reseed")
    + ("chat", "version", "version-origin")
)


_STEP = msgspec.json.Decoder(Step)
_REPLY = msgspec.json.Decoder(wire.Reply)


@dataclass(slots=True)
class _Failure:
    error: Exception


@dataclass(slots=True)
class Receiver:
    """Who takes a battle's steps as they are read, instead of a queue: a game being played.

    A step then costs no queue and no switch of tasks (in one profiled run the event loop's own
    time fell by about 1 ms a random game; the whole game's, within noise). `step` runs inside
    the bridge's reader, so it must not raise or block; `failed` is told when the battle fails
    (the bridge died, a player crashed)."""

    step: Callable[[Step], None]
    failed: Callable[[Exception], None]


@dataclass
class BattleChannel:
    """One battle hosted in the bridge."""

    bridge: BridgeHost
    id: str
    generation: int
    queue: asyncio.Queue[Step | wire.Followed | wire.Played | _Failure] = field(
        default_factory=asyncio.Queue
    )
    closed: bool = False
    receiver: Receiver | None = None

    async def next(self) -> Step:
        item = await self.queue.get()
        if isinstance(item, _Failure):
            raise item.error
        assert isinstance(item, Step)
        return item

    async def played(self) -> wire.Played:
        """The one reply of a game the bridge plays through by itself (`Autoplay.whole`)."""
        item = await self.queue.get()
        if isinstance(item, _Failure):
            raise item.error
        assert isinstance(item, wire.Played)
        return item

    def deliver(self, step: Step) -> None:
        if self.receiver is not None:
            self.receiver.step(step)
        else:
            self.queue.put_nowait(step)

    def choose(self, side: str, choice: str) -> None:
        if side not in ("p1", "p2"):  # written into the simulator's line, as the choice is
            raise BattleRefused(f"a choice for a side that is not p1 or p2: {side[:60]!r}")
        if "\n" in choice:
            raise BattleRefused(f"a choice of {side} holds a line break: {choice[:60]!r}")
        if not is_utf8(choice):
            raise BattleRefused(f"a choice of {side} is not UTF-8 text: {choice[:60]!r}")
        self.bridge._send(wire.Choose(self.id, side, choice))

    def tie(self) -> None:
        self.bridge._send(wire.Tie(self.id))

    def end_with(self, line: str) -> None:
        """End the battle as an input log ended it: `>forcelose p2` (a forfeit or a loss on
        time, as Showdown's server writes them), `>forcewin p1` or `>forcetie`."""
        self.bridge._send(wire.End(self.id, line))

    def fail(self, error: Exception) -> None:
        """Wake whoever waits on this battle with an error (a player that crashed, say)."""
        if self.receiver is not None:
            self.receiver.failed(error)
        else:
            self.queue.put_nowait(_Failure(error))

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.bridge._forget(self)


def refuse_command(line: str) -> None:
    """BattleRefused for an input-log line the simulator would run as something other than a
    game's own command (`>eval …`), or that it would read as more than one line."""
    command = line[1:].split(" ", 1)[0] if line.startswith(">") else None
    if "\n" in line or (command is not None and command not in INPUT_COMMANDS):
        raise BattleRefused(
            f"the input log holds a line that is not a game's command: {line[:60]!r}"
        )
    if not is_utf8(line):  # a lone surrogate (JSON's "\ud800"): no message to Node holds it
        raise BattleRefused(f"the input log holds a line that is not UTF-8 text: {line[:60]!r}")


class BridgeHost(NodeChild):
    """A long-lived Node process hosting many battles; restarted when it dies."""

    what = "the Showdown bridge"

    def __init__(self, node_dir: Path | None = None, name: str = "") -> None:
        super().__init__(node_dir, limit=STREAM_LIMIT)
        self.name = name  # prefixes its battle ids, unique across a pool
        self.showdown_version: str | None = None
        self._channels: dict[str, BattleChannel] = {}
        self._ids = itertools.count(1)

    # -- lifecycle -------------------------------------------------------------------------

    def script(self) -> list[str]:
        # POKEVIEW_NODE_ARGS: extra Node flags, e.g. "--cpu-prof" to profile the bridge.
        extra = os.environ.get("POKEVIEW_NODE_ARGS", "").split()
        return [*extra, str(paths.bridge_script())]

    async def start(self) -> None:
        hello = await self.spawn()
        if hello is not None:
            self.showdown_version = msgspec.convert(hello, wire.Ready).showdown

    async def __aenter__(self) -> BridgeHost:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- battles -----------------------------------------------------------------------------

    async def open(self, start: wire.Start, receiver: Receiver | None = None) -> BattleChannel:
        """Start a battle: format, seed and players, or an input log to replay. Its steps go
        to `receiver` if given, else to the channel's queue (`next`)."""
        for line in start.inputlog or ():
            refuse_command(line)
        if not self.running:
            await self.start()
        channel = BattleChannel(self, f"{self.name}b{next(self._ids)}", self.generation)
        channel.receiver = receiver
        self._channels[channel.id] = channel
        self._send(msgspec.structs.replace(start, battle=channel.id))
        return channel

    async def follow(self, lines: list[str]) -> list[wire.Piece]:
        """A spectator log (a replay) cut at each turn, each piece with both sides' words and
        what each side's view shows after it; the bridge keeps no battle for it."""
        if not self.running:
            await self.start()
        channel = BattleChannel(self, f"{self.name}b{next(self._ids)}", self.generation)
        self._channels[channel.id] = channel
        try:
            self._send(wire.Follow(channel.id, lines))
            item = await channel.queue.get()
            if isinstance(item, _Failure):
                raise item.error
            assert isinstance(item, wire.Followed)
            return item.pieces
        finally:
            self._channels.pop(channel.id, None)

    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def open_battles(self) -> int:
        return len(self._channels)

    # -- plumbing ------------------------------------------------------------------------------

    def _send(self, command: wire.Command) -> None:
        if not self.write(msgspec.to_builtins(command)):
            channel = self._channels.get(command.battle or "")
            if channel:
                channel.fail(BridgeDied(f"the Showdown bridge is not running: {self.why()}"))

    def _forget(self, channel: BattleChannel) -> None:
        if (
            self._channels.pop(channel.id, None) is not None
            and channel.generation == self.generation
        ):
            self._send(wire.Close(channel.id))

    def on_line(self, line: bytes) -> bool:
        # Each line is decoded straight into its type. Steps are nearly every line, and the
        # bridge writes "battle" then "type" first: a step's own decoder is the quickest. The
        # ready line is left to the child's start-up (see `spawn`).
        reply = _STEP.decode(line) if b'"type":"step"' in line[:64] else _REPLY.decode(line)
        if isinstance(reply, wire.Ready):
            return False
        self._take(reply)
        return True

    def _take(self, reply: wire.Reply) -> None:
        if isinstance(reply, wire.Ready | wire.InfoReply):
            return  # nobody asks for info but the tests
        channel = self._channels.get(reply.battle or "")
        if channel is None:
            return
        if isinstance(reply, Step):
            channel.deliver(reply)
        elif isinstance(reply, wire.Followed | wire.Played):
            channel.queue.put_nowait(reply)
        else:
            self._channels.pop(channel.id, None)
            channel.fail(BattleRefused(f"Showdown: {reply.message}"))

    def on_exit(self, generation: int) -> None:
        reason = f"the Showdown bridge died: {self.why()}"
        for channel in [c for c in self._channels.values() if c.generation == generation]:
            self._channels.pop(channel.id, None)
            channel.fail(BridgeDied(reason))


class Bridge:
    """Battles spread over `hosts` Node processes (default: one per core, at most 2;
    POKEVIEW_BRIDGE_HOSTS sets it).

    Same interface as one host. A battle goes to the host with the fewest battles in flight; a
    further host is started only when every running one has battles, so one game costs one
    process. A host that dies fails only its own battles and is restarted on its next use.
    """

    def __init__(self, node_dir: Path | None = None, hosts: int | None = None) -> None:
        # Past two hosts the single Python process is the limit: more is only by request.
        wanted = hosts or int(os.environ.get("POKEVIEW_BRIDGE_HOSTS") or 0)
        count = wanted or min(os.cpu_count() or 1, 2)
        self.hosts = [BridgeHost(node_dir, f"h{i}") for i in range(max(1, count))]
        self.node_dir = node_dir
        self._searcher: SearchHost | None = None

    def searcher(self) -> SearchHost:
        """The Node process that runs the search player's searches (started on first use)."""
        if self._searcher is None:
            from pokeview.sim.search_client import SearchHost

            self._searcher = SearchHost(self.node_dir)
        return self._searcher

    @property
    def running(self) -> bool:
        return self.hosts[0].running

    @property
    def showdown_version(self) -> str | None:
        return next((h.showdown_version for h in self.hosts if h.showdown_version), None)

    async def start(self) -> None:
        await self.hosts[0].start()

    async def close(self) -> None:
        closing = [host.close() for host in self.hosts]
        if self._searcher is not None:
            closing.append(self._searcher.close())
        await asyncio.gather(*closing)

    async def __aenter__(self) -> Bridge:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _pick(self) -> BridgeHost:
        first = self.hosts[0]
        if not first.running or first.open_battles() == 0:
            return first
        idle = [h for h in self.hosts if not h.running]
        running = [h for h in self.hosts if h.running]
        least = min(running, key=lambda h: h.open_battles())
        if least.open_battles() > 0 and idle:
            return idle[0]  # every running host is busy: bring up another core
        return least

    async def open(self, start: wire.Start, receiver: Receiver | None = None) -> BattleChannel:
        return await self._pick().open(start, receiver)

    async def follow(self, lines: list[str]) -> list[wire.Piece]:
        return await self._pick().follow(lines)

    def pid(self) -> int | None:
        return self.hosts[0].pid()

    def pids(self) -> list[int]:
        return [pid for host in self.hosts if (pid := host.pid()) is not None]

    def open_battles(self) -> int:
        return sum(host.open_battles() for host in self.hosts)

    @property
    def _channels(self) -> dict[str, BattleChannel]:
        return {cid: c for host in self.hosts for cid, c in host._channels.items()}

    def _send(self, command: wire.Command) -> None:
        """A command to the host of its battle (tests use it to break a battle)."""
        for host in self.hosts:
            if command.battle in host._channels:
                host._send(command)


async def start_and_drop(bridge: Bridge, start: wire.Start) -> None:
    """Start a battle and drop it at its first request: Showdown's word on its format and
    teams (BattleRefused, one line), and a host's simulator warmed for that format."""
    channel = await bridge.open(start)
    try:
        await channel.next()
    finally:
        channel.close()
