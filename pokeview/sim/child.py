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
        self._ready: asyncio.Future[dict[str, Any]] | None = None

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
            self.proc = await asyncio.create_subprocess_exec(
                install.node_executable(),
                *self.script(),
                str(node_dir),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                limit=self.limit,
                env={**os.environ, "NODE_OPTIONS": ""},
            )
            self.generation += 1
            self._ready = asyncio.get_running_loop().create_future()
            self._tasks = [
                asyncio.create_task(self._read_stdout(self.proc, self.generation)),
                asyncio.create_task(self._read_stderr(self.proc)),
            ]
            try:
                return await asyncio.wait_for(self._ready, timeout=60)
            except (TimeoutError, BridgeDied) as exc:
                await self.close()
                raise PokeviewError(f"{self.what} did not start: {self.why()}") from exc

    async def close(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and proc.returncode is None:
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
        """Send one message; False when no child is running to take it."""
        proc = self.proc
        if proc is None or proc.stdin is None or proc.returncode is not None:
            return False
        proc.stdin.write(orjson.dumps(msg) + b"\n")
        return True

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

    async def _read_stdout(self, proc: asyncio.subprocess.Process, generation: int) -> None:
        assert proc.stdout is not None
        try:
            while line := await proc.stdout.readline():
                if self.on_line(line):
                    continue
                msg = orjson.loads(line)
                if msg.get("type") == "ready":
                    if self._ready and not self._ready.done():
                        self._ready.set_result(msg)
                    continue
                self.on_message(msg)
        finally:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(proc.wait(), timeout=5)
            await asyncio.sleep(0.05)  # let the stderr reader drain
            if self._ready and not self._ready.done():
                self._ready.set_exception(BridgeDied(f"{self.what} exited during start-up"))
            self.on_exit(generation)
            if self.proc is proc:
                self.proc = None
