"""How a step's failure ends its game: whatever it raises, the game's future holds it."""

from __future__ import annotations

import asyncio

from pokeview.battle import seeds
from pokeview.battle.loop import _Game
from pokeview.battle.spec import GameSpec
from pokeview.players import make_player
from pokeview.store import open_store


async def test_a_step_raising_stop_iteration_ends_its_game_not_the_bridge(tmp_path):
    spec = GameSpec(
        format="gen9randombattle",
        seed=seeds.game_seed("stop", 0),
        p1=make_player("random"),
        p2=make_player("random"),
    )
    store = open_store(tmp_path / "s.db")
    try:
        game = _Game(spec, bridge=None, store=store)  # type: ignore[arg-type]
        game.over = asyncio.get_running_loop().create_future()
        # A future refuses StopIteration (TypeError), which would escape into the bridge's
        # line reader and stop every game on that Node process.
        game.end_with_error(StopIteration("stray"))
        assert isinstance(game.over.exception(), RuntimeError)
        assert "stray" in str(game.over.exception())
    finally:
        store.close()
