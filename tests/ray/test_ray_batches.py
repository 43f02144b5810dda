"""How the driver sends games to a Ray worker: Ray's cost is by call, so bot games started
together go to a worker a few to a call, and each still comes back on its own: stored whole, or
its own one-line error, without the games sent with it."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from pathlib import Path
from typing import Any

from pokeview.errors import PokeviewError
from pokeview.store.store import Store
from pokeview.tournament.order import GameOrder
from pokeview.tournament.ray_worker import Failed, _sent
from tests.helpers import sqlite_file

WAIT = 120  # seconds a few games may take here before the test gives up on them


def order(pair: int, p1: str = "random") -> GameOrder:
    return GameOrder(
        "gen9randombattle", "batches", p1, "max-damage", pair, seat=0, run_id=None, turn_limit=1000
    )


def stored(db: Path) -> list[int]:
    with sqlite_file(db) as conn:
        return [row[0] for row in conn.execute("select id from games where status = 'finished'")]


class CountedCalls:
    """A worker's actor handle, the calls to `play_many` counted (by their sizes) on the way."""

    def __init__(self, actor: Any, sizes: list[int]) -> None:
        self.actor, self.sizes = actor, sizes
        self.play_many = self

    def remote(self, games: list[Any]) -> Any:
        self.sizes.append(len(games))
        return self.actor.play_many.remote(games)


def play_on_one_worker(
    address: str, db: Path, games: list[tuple[GameOrder, GameOrder]], *, models: bool = False
) -> Any:
    """Each game (the order sent, the order its spec on the driver is made of) played at once
    on a one-worker cluster, as the engine starts them; the results (or errors) and call sizes."""
    from pokeview.tournament.ray_games import RayGames

    async def run() -> tuple[list[Any], list[int]]:
        remote = await RayGames.start(address, workers=1, models=models)
        sizes: list[int] = []
        remote.workers[0].actor = CountedCalls(remote.workers[0].actor, sizes)
        store = Store(db)
        try:
            played = await asyncio.wait_for(
                asyncio.gather(
                    *(remote.play(sent, store, spec()) for sent, spec in games),
                    return_exceptions=True,
                ),
                WAIT,
            )
        finally:
            store.close()
            remote.close()
        return played, sizes

    return asyncio.run(run())


def test_bot_games_started_together_go_to_a_worker_four_to_a_call(address, tmp_path):
    orders = [order(pair) for pair in range(6)]
    played, sizes = play_on_one_worker(address, tmp_path / "x.db", [(o, o) for o in orders])
    assert sizes == [4, 2]
    assert [r.status for r in played] == ["finished"] * 6
    assert stored(tmp_path / "x.db") == sorted(r.game_id for r in played)


def test_a_model_s_game_goes_to_a_worker_alone(address, tmp_path):
    """A model's game takes minutes: it is not held back for the bot games sent with it, nor
    they for it (here the stand-in model, on a loopback port of the worker's own)."""
    orders = [order(0), order(1, p1="loopback"), order(2), order(3, p1="loopback")]
    played, sizes = play_on_one_worker(
        address, tmp_path / "x.db", [(o, o) for o in orders], models=True
    )
    assert sorted(sizes) == [1, 1, 2]
    assert [r.status for r in played] == ["finished"] * 4
    assert stored(tmp_path / "x.db") == sorted(r.game_id for r in played)


def test_one_game_s_error_in_a_call_is_its_own_and_the_others_are_stored(address, tmp_path):
    """A game whose player the worker refuses (what a run here would stop on) is its one line,
    naming the worker; the games sent in the same call are stored."""
    games = [(order(0), order(0)), (order(1, p1="nosuchbot"), order(1)), (order(2), order(2))]
    played, sizes = play_on_one_worker(address, tmp_path / "x.db", games)
    assert sizes == [3]
    assert [type(r).__name__ for r in played] == ["GameResult", "PokeviewError", "GameResult"]
    assert str(played[1]).startswith("on the Ray worker on ") and "nosuchbot" in str(played[1])
    assert "\n" not in str(played[1])
    assert stored(tmp_path / "x.db") == [played[0].game_id, played[2].game_id]


def test_a_worker_says_each_game_s_error_as_one_line():
    """What a run here would stop on stops the run; any other error, a game cancelled on its
    own included, is worth another worker, and costs the games sent with it nothing."""
    assert _sent(PokeviewError("unknown player 'x'")) == Failed("unknown player 'x'", stops=True)
    assert _sent(ValueError("bad\nsecond line")) == Failed("bad", stops=False)
    assert _sent(asyncio.CancelledError()) == Failed("CancelledError", stops=False)


def test_a_call_ray_cannot_send_fails_each_of_its_games_and_none_waits(address, tmp_path):
    """Ray refusing a call itself (here an argument it cannot send) reaches every game of the
    call, not only the one that filled it: no game waits for ever, nothing is stored."""
    unsendable = dataclasses.replace(order(1), teams={"p1": threading.Lock()})  # type: ignore[dict-item]
    games = [(order(0), order(0)), (unsendable, order(1))]
    played, sizes = play_on_one_worker(address, tmp_path / "x.db", games)
    assert sizes == [2]
    assert [type(r).__name__ for r in played] == ["TypeError", "TypeError"]
    assert stored(tmp_path / "x.db") == []
