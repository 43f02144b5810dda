"""The search host: a Node process running `search.js` beside the bridge, spoken to in JSON lines.

It is a process of its own rather than an op of the bridge: a search holds its Node thread for its
whole budget (200 ms, say), and every battle hosted in that bridge would stall behind it. As its
own process it gets its own core, its own JIT warm-up and its own crash; battles never wait for it.
Searches are answered one at a time, in the order asked.
"""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path
from typing import Any

from pokeview import paths
from pokeview.errors import BridgeDied
from pokeview.sim.child import NodeChild


class SearchHost(NodeChild):
    what = "the search host"

    def __init__(self, node_dir: Path | None = None) -> None:
        super().__init__(node_dir)
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)

    def script(self) -> list[str]:
        return [str(paths.search_script())]

    async def start(self) -> None:
        await self.spawn()

    async def search(self, query: dict[str, Any]) -> dict[str, Any]:
        """One search; its answer (chosen index, values, nodes) or BridgeDied."""
        if not self.running:
            await self.start()
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[ident] = future
        if not self.write({**query, "id": ident}):
            self._pending.pop(ident, None)
            raise BridgeDied(f"the search host is not running: {self.why()}")
        try:
            answer = await future
        finally:
            self._pending.pop(ident, None)
        if "error" in answer:
            raise BridgeDied(f"the search failed: {str(answer['error']).splitlines()[0]}")
        return answer["result"]

    def on_message(self, msg: dict[str, Any]) -> None:
        future = self._pending.get(msg.get("id"))  # type: ignore[arg-type]
        if future is not None and not future.done():
            future.set_result(msg)

    def on_exit(self, generation: int) -> None:
        error = BridgeDied(f"the search host died: {self.why()}")
        for future in self._pending.values():
            if not future.done():
                future.set_exception(error)
