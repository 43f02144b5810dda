"""The search host: a Node process running `search.js` beside the bridge, spoken to in JSON lines.

It is a process of its own rather than an op of the bridge: a search holds its Node thread for its
whole budget (200 ms, say), and every battle hosted in that bridge would stall behind it. As its
own process it gets its own core, its own JIT warm-up and its own crash; battles never wait for it.
Searches are answered one at a time, in the order asked.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import os
from pathlib import Path
from typing import Any

import orjson

from pokeview import paths
from pokeview.errors import BridgeDied, PokeviewError
from pokeview.sim import install


class SearchHost:
    def __init__(self, node_dir: Path | None = None) -> None:
        self.node_dir = node_dir
        self.proc: asyncio.subprocess.Process | None = None
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        self._tasks: list[asyncio.Task[None]] = []
        self._lock = asyncio.Lock()
        self._ready: asyncio.Future[dict[str, Any]] | None = None

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def start(self) -> None:
        async with self._lock:
            if self.running:
                return
            node_dir = self.node_dir or await asyncio.to_thread(install.ensure_installed)
            self._stderr.clear()
            self.proc = await asyncio.create_subprocess_exec(
                install.node_executable(),
                str(paths.search_script()),
                str(node_dir),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                limit=16 * 1024 * 1024,
                env={**os.environ, "NODE_OPTIONS": ""},
            )
            self._ready = asyncio.get_running_loop().create_future()
            self._tasks = [
                asyncio.create_task(self._read_stdout(self.proc)),
                asyncio.create_task(self._read_stderr(self.proc)),
            ]
            try:
                await asyncio.wait_for(self._ready, timeout=60)
            except (TimeoutError, BridgeDied) as exc:
                await self.close()
                raise PokeviewError(f"the search host did not start: {self._why()}") from exc

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

    async def search(self, query: dict[str, Any]) -> dict[str, Any]:
        """One search; its answer (chosen index, values, nodes) or BridgeDied."""
        if not self.running:
            await self.start()
        proc = self.proc
        assert proc is not None and proc.stdin is not None
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[ident] = future
        proc.stdin.write(orjson.dumps({**query, "id": ident}) + b"\n")
        try:
            answer = await future
        finally:
            self._pending.pop(ident, None)
        if "error" in answer:
            raise BridgeDied(f"the search failed: {str(answer['error']).splitlines()[0]}")
        return answer["result"]

    def _why(self) -> str:
        tail = " | ".join(line for line in self._stderr if line.strip())
        return tail[-400:] or "it ended without a word"

    async def _read_stderr(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stderr is not None
        while line := await proc.stderr.readline():
            self._stderr.append(line.decode(errors="replace").rstrip())

    async def _read_stdout(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        try:
            while line := await proc.stdout.readline():
                msg = orjson.loads(line)
                if msg.get("type") == "ready":
                    if self._ready and not self._ready.done():
                        self._ready.set_result(msg)
                    continue
                future = self._pending.get(msg.get("id"))
                if future is not None and not future.done():
                    future.set_result(msg)
        finally:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(proc.wait(), timeout=5)
            await asyncio.sleep(0.05)  # let stderr drain, so the reason names what Node said
            error = BridgeDied(f"the search host died: {self._why()}")
            if self._ready and not self._ready.done():
                self._ready.set_exception(error)
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(error)
            if self.proc is proc:
                self.proc = None
