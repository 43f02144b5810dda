"""Which games a Ray cluster takes: bot games; model games only when asked; never a game whose
player is a person or a program on the local server. (Ray itself is not needed to decide.)"""

from __future__ import annotations

from pokeview.players import make_player
from pokeview.tournament.engine import kinds_of, plays_here
from pokeview.tournament.order import GameOrder
from pokeview.tournament.ray_games import RayGames


def game(p1: str, p2: str) -> set[str]:
    spec = GameOrder("gen9randombattle", "t", p1, p2, pair=0, seat=0, run_id=None, turn_limit=9)()
    return kinds_of(spec.players.values())


def test_bot_games_go_to_ray_and_model_games_only_when_asked():
    bots_only, with_models = RayGames(None, [], models=False), RayGames(None, [], models=True)
    assert bots_only.takes(game("random", "max-damage"))
    assert bots_only.takes(game("heuristic", "search:nodes=10"))
    assert not bots_only.takes(game("random", "loopback"))
    assert with_models.takes(game("random", "loopback"))
    for never in ("server:bob", "human"):
        assert not with_models.takes(game("random", never))


def test_this_machine_plays_only_the_games_the_cluster_does_not_take():
    """A run's players decide whether this machine's bridge is started at all: not for a Ray
    run of bots, which its workers play every game of."""
    bots = [make_player(s) for s in ("random", "max-damage", "search:nodes=10")]
    with_model = [*bots, make_player("loopback")]
    bots_only, with_models = RayGames(None, [], models=False), RayGames(None, [], models=True)
    assert not plays_here(bots_only, bots)
    assert plays_here(bots_only, with_model)
    assert not plays_here(with_models, with_model)
    assert plays_here(None, bots)


def test_the_ready_line_counts_the_workers_by_machine():
    from pokeview.tournament.ray_games import _Worker

    def line(*hosts: str) -> str:
        return RayGames(None, [_Worker(None, h) for h in hosts], models=False).ready_line()

    assert line("a") == "1 Ray worker ready: 1 on a"
    assert line("a", "b", "a") == "3 Ray workers ready: 2 on a, 1 on b"
    assert (
        line("a", "b", "c", "d") == "4 Ray workers ready: 1 on a, 1 on b, 1 on c and 1 more machine"
    )
    assert line(*"abcde").endswith("1 on c and 2 more machines")
    kept = RayGames(None, [_Worker(None, h) for h in "aab"], models=False, kept=2).ready_line()
    assert kept == "3 Ray workers ready (2 kept by `pokeview ray-pool`): 2 on a, 1 on b"
