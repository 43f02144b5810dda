"""The Node child's plumbing: stdout cut into lines as it is read, a child that dies, a restart."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

from pokeview.sim.child import NodeChild
from pokeview.sim.client import Bridge
from tests.helpers import game

# Written in pieces, with pauses so that each piece is its own read: a line cut across reads,
# empty lines, a long line, then a line cut short by the child's death.
STUB = r"""
const pieces = [
  '{"type":"ready"}\n',
  '{"n":1}\n\n\n{"n"',
  ':2}\n{"n":3',
  '}\n{"n":4,"long":"' + 'x'.repeat(300000),
  '"}\n\n{"n":5}\n{"n":6',
];
let i = 0;
function next() {
  if (i < pieces.length) {
    process.stdout.write(pieces[i++], () => setTimeout(next, 30));
  } else {
    process.exit(3);
  }
}
next();
"""


class Stub(NodeChild):
    what = "the stub"

    def __init__(self, script: Path, limit: int = 16 * 1024 * 1024) -> None:
        super().__init__(Path("."), limit=limit)
        self.path = script
        self.messages: list[dict[str, Any]] = []
        self.reason = ""
        self.exited: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def script(self) -> list[str]:
        return [str(self.path)]

    def on_message(self, msg: dict[str, Any]) -> None:
        self.messages.append(msg)

    def on_exit(self, generation: int) -> None:
        if not self.exited.done():
            self.exited.set_result(generation)
            self.reason = self.why()


async def test_lines_cut_across_reads_come_whole_in_order_and_a_line_cut_by_death_is_dropped(
    tmp_path,
):
    script = tmp_path / "stub.js"
    script.write_text(STUB)
    child = Stub(script)
    await child.spawn()
    try:
        assert await asyncio.wait_for(child.exited, timeout=10) == 1
        assert [m["n"] for m in child.messages] == [1, 2, 3, 4, 5]  # 6 never ended
        assert child.messages[3]["long"] == "x" * 300000
        assert "exit code 3" in child.reason
    finally:
        await child.close()


async def test_a_line_past_the_limit_stops_the_child_and_says_why(tmp_path):
    script = tmp_path / "stub.js"
    script.write_text(STUB)
    child = Stub(script, limit=100_000)
    await child.spawn()
    try:
        await asyncio.wait_for(child.exited, timeout=10)
        assert [m["n"] for m in child.messages] == [1, 2, 3]
        assert "a line longer than 100000 bytes" in child.reason
        assert "exit code -9" in child.reason  # stopped: its battles fail with the reason
    finally:
        await child.close()


async def test_a_bridge_whose_node_died_starts_again_at_once_and_plays(store):
    """A game that learns of the death first (a write refused, say) starts the next at once;
    the dead child's watcher must not take the new child's start-up for its own."""
    from pokeview.players import make_player

    players = make_player("random"), make_player("random")  # made first: imports take a while
    pool = Bridge(hosts=1)
    try:
        await pool.start()
        host = pool.hosts[0]
        old = host.pid()
        assert old is not None
        os.kill(old, signal.SIGKILL)
        while host.running:
            await asyncio.sleep(0.001)
        result = await game(pool, store, *players, text="restarted")
        assert result.status == "finished" and pool.pid() != old
    finally:
        await pool.close()
