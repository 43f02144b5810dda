"""A Node child process spoken to in JSON lines: the common part of the bridge and the search host.

It starts a script with the pinned packages' folder, waits for the script's `ready` line, reads
every other line as one JSON message, keeps the last stderr lines to say why the child died, and
tells its owner when the child has ended (after stderr has drained, so the reason names what Node
said). What the messages mean is the owner's: `on_message` and `on_exit`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
from pathlib import Path
from typing import Any

import orjson

from pokeview.errors import BridgeDied, PokeviewError
from pokeview.sim import install


class NodeChild:
    """One Node process at a time; `start` again after it died starts a fresh one."""

    what = "the Node process"  # how messages name it ("the Showdown bridge", "the search host")

    def __init__(self, node_dir: Path | None = None, limit: int = 16 * 1024 * 1024) -> None:
        self.node_dir = node_dir
        self.limit = limit  # the longest line read from the child
        self.proc: asyncio.subprocess.Process | None = None
        self.generation = 0  # bumps on every (re)start: what a dead child held is told apart
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        self._tasks: list[asyncio.Task[None]] = []
        self._start_lock = asyncio.Lock()
        # Messages written in one turn of the event loop go to the pipe in one write (a game's
        # two choices, several games' steps read at once): one system call, one wake-up of Node.
        self._outbox: list[bytes] = []
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def script(self) -> list[str]:
        """The Node arguments before the packages' folder: flags and the script."""
        raise NotImplementedError

    def on_line(self, line: bytes) -> bool:
        """A line the owner decodes itself (True when it took it): see the bridge's steps."""
        return False

    def on_message(self, msg: dict[str, Any]) -> None:
        """One JSON line from the child other than its `ready` line."""

    def on_exit(self, generation: int) -> None:
        """The child of that generation has ended; its stderr has drained."""

    async def spawn(self) -> dict[str, Any] | None:
        """Start the child unless it runs; its `ready` message (None if it was running)."""
        async with self._start_lock:
            if self.running:
                return None
            node_dir = self.node_dir or await asyncio.to_thread(install.ensure_installed)
            self._stderr.clear()
            loop = asyncio.get_running_loop()
            # Made before the child starts: its lines are taken as soon as they are read, and
            # its `ready` line may come before the child is wrapped below.
            ready: asyncio.Future[dict[str, Any]] = loop.create_future()
            lines = _Lines(self, self.limit, ready)
            transport, protocol = await loop.subprocess_exec(
                lambda: _Protocol(lines, self.limit, loop),
                install.node_executable(),
                *self.script(),
                str(node_dir),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env={**os.environ, "NODE_OPTIONS": ""},
            )
            self.proc = asyncio.subprocess.Process(transport, protocol, loop)
            lines.proc = self.proc
            self.generation += 1
            self._loop = loop
            self._outbox = []  # what was meant for a child that died
            self._tasks = [
                asyncio.create_task(self._watch(self.proc, self.generation, lines.closed, ready)),
                asyncio.create_task(self._read_stderr(self.proc)),
            ]
            try:
                return await asyncio.wait_for(ready, timeout=60)
            except (TimeoutError, BridgeDied) as exc:
                await self.close()
                raise PokeviewError(f"{self.what} did not start: {self.why()}") from exc

    async def close(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and proc.returncode is None:
            self._send_outbox(proc)
            if proc.stdin:
                proc.stdin.close()
            try:
                await asyncio.wait_for(proc.wait(), timeout=5)
            except TimeoutError:
                proc.kill()
                await proc.wait()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []

    def write(self, msg: dict[str, Any]) -> bool:
        """Send one message (at the end of this turn of the event loop, with any others);
        False when no child is running to take it."""
        proc = self.proc
        if proc is None or proc.stdin is None or proc.returncode is not None:
            return False
        if not self._outbox and self._loop is not None:
            self._loop.call_soon(self._send_outbox)
        self._outbox.append(orjson.dumps(msg))
        return True

    def _send_outbox(self, proc: asyncio.subprocess.Process | None = None) -> None:
        """Write what waits to the child running now (or to `proc`, being closed)."""
        proc = proc or self.proc
        lines, self._outbox = self._outbox, []
        if lines and proc and proc.stdin is not None and not proc.stdin.is_closing():
            lines.append(b"")
            proc.stdin.write(b"\n".join(lines))

    def why(self) -> str:
        """The child's exit code and last stderr lines, for an error message."""
        tail = " | ".join(line for line in self._stderr if line.strip())
        code = self.proc.returncode if self.proc else None
        parts = []
        if code is not None:
            parts.append(f"exit code {code}")
        if tail:
            parts.append(tail[-400:])
        return "; ".join(parts) or "it ended without a word"

    async def _read_stderr(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stderr is not None
        while line := await proc.stderr.readline():
            self._stderr.append(line.decode(errors="replace").rstrip())

    def _take_line(self, line: bytes, ready: asyncio.Future[dict[str, Any]]) -> None:
        """One line from a child's stdout (see `_Lines`); `ready` is that child's start-up."""
        if self.on_line(line):
            return
        msg = orjson.loads(line)
        if msg.get("type") == "ready":
            if not ready.done():
                ready.set_result(msg)
            return
        self.on_message(msg)

    async def _watch(
        self,
        proc: asyncio.subprocess.Process,
        generation: int,
        closed: asyncio.Future[None],
        ready: asyncio.Future[dict[str, Any]],
    ) -> None:
        """Wait for the child's stdout to close, then for it to end, and say so. Only this
        child's start-up is failed: a child started since (its death seen first by a refused
        write) has a start-up of its own."""
        try:
            await closed
        finally:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(proc.wait(), timeout=5)
            await asyncio.sleep(0.05)  # let the stderr reader drain
            if not ready.done():
                ready.set_exception(BridgeDied(f"{self.what} exited during start-up"))
            self.on_exit(generation)
            if self.proc is proc:
                self.proc = None


class _Lines:
    """The child's stdout cut into lines, each handed to its owner as soon as it is read.

    Read this way rather than through a StreamReader and a task awaiting `readline`: a line then
    costs no waiting task to wake and no event loop turn. A line the owner cannot take (a bug,
    a line past the limit) stops the child, so that its battles fail with the reason instead of
    waiting forever."""

    def __init__(self, owner: NodeChild, limit: int, ready: asyncio.Future[dict[str, Any]]) -> None:
        self.owner = owner
        self.limit = limit
        self.ready = ready  # this child's start-up, told by its `ready` line
        self.proc: asyncio.subprocess.Process | None = None
        self.pieces: list[bytes] = []  # the start of a line not yet ended
        self.size = 0
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def data(self, data: bytes) -> None:
        if self.closed.done():
            return
        end = data.find(b"\n")
        if end < 0:
            self.pieces.append(data)
            self.size += len(data)
            if self.size > self.limit:
                self.fail(f"a line longer than {self.limit} bytes")
            return
        if self.pieces:
            self.pieces.append(data[: end + 1])
            first, data = b"".join(self.pieces), data[end + 1 :]
            self.pieces, self.size = [], 0
            self.take(first)
        lines = data.split(b"\n")
        rest = lines.pop()
        for line in lines:
            self.take(line)
        if rest:
            self.data(rest)

    def take(self, line: bytes) -> None:
        if not line or self.closed.done():
            return
        try:
            self.owner._take_line(line, self.ready)
        except Exception as exc:
            self.fail(f"pokeview could not take its line: {exc!r}")

    def fail(self, why: str) -> None:
        self.owner._stderr.append(why)
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
        self.end()

    def end(self) -> None:
        if not self.closed.done():
            self.closed.set_result(None)


class _Protocol(asyncio.subprocess.SubprocessStreamProtocol):
    """asyncio's subprocess protocol, but stdout goes to `_Lines` (stderr stays a stream)."""

    def __init__(self, lines: _Lines, limit: int, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(limit=limit, loop=loop)
        self.lines = lines

    def pipe_data_received(self, fd: int, data: bytes | str) -> None:
        if fd == 1:
            self.lines.data(data.encode() if isinstance(data, str) else data)  # bytes, always
        else:
            super().pipe_data_received(fd, data)

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd == 1:
            self.lines.end()
        super().pipe_connection_lost(fd, exc)
