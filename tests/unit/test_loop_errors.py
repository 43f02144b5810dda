"""How a step's failure ends its game: whatever it raises, the game's future holds it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path

import msgspec

from pokeview.battle import seeds
from pokeview.battle.loop import _Game
from pokeview.battle.spec import GameSpec
from pokeview.game.bridge import SideUpdate, Step
from pokeview.players import make_player
from pokeview.sim.request import BadRequest
from pokeview.store import open_store
from pokeview.store.store import Store


@contextlib.contextmanager
def a_game(tmp_path: Path, name: str) -> Iterator[tuple[_Game, Store]]:
    """A random game on its own file, as the loop would start it, with no bridge."""
    spec = GameSpec(
        format="gen9randombattle",
        seed=seeds.game_seed(name, 0),
        p1=make_player("random"),
        p2=make_player("random"),
    )
    store = open_store(tmp_path / "s.db")
    try:
        game = _Game(spec, bridge=None, store=store)  # type: ignore[arg-type]
        game.game_id = store.create_game(**spec.record("test"))
        game.over = asyncio.get_running_loop().create_future()
        yield game, store
    finally:
        store.close()


async def test_a_step_raising_stop_iteration_ends_its_game_not_the_bridge(tmp_path):
    with a_game(tmp_path, "stop") as (game, _):
        assert game.over is not None
        # A future refuses StopIteration (TypeError), which would escape into the bridge's
        # line reader and stop every game on that Node process.
        game.end_with_error(StopIteration("stray"))
        assert isinstance(game.over.exception(), RuntimeError)
        assert "stray" in str(game.over.exception())


async def test_a_request_of_another_shape_ends_its_game_after_its_step_is_recorded(tmp_path):
    with a_game(tmp_path, "odd-request") as (game, store):
        assert game.over is not None
        odd = msgspec.Raw(b'{"side": {"pokemon": [{"ident": 7}]}}')  # an ident not a string
        update = SideUpdate(["|turn|1"], ["Turn 1"], request_json=odd)
        game.take_step(Step("b1", {"p1": update}, ["|turn|1"], []))
        error = game.over.exception()
        assert isinstance(error, BadRequest)  # a ValueError: `run` ends the game, not the run
        assert str(error).startswith("a request pokeview cannot read") and "\n" not in str(error)
        assert [e.kind for e in store.events(game.game_id)] == ["log", "side"]
