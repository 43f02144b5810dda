"""Which games a Ray cluster takes: bot games; model games only when asked; never a game whose
player is a person or a program on the local server. (Ray itself is not needed to decide.)"""

from __future__ import annotations

from pokeview.tournament.order import GameOrder
from pokeview.tournament.ray_games import RayGames


def game(p1: str, p2: str):
    return GameOrder("gen9randombattle", "t", p1, p2, pair=0, seat=0, run_id=None, turn_limit=9)()


def test_bot_games_go_to_ray_and_model_games_only_when_asked():
    bots_only, with_models = RayGames(None, [], models=False), RayGames(None, [], models=True)
    assert bots_only.takes(game("random", "max-damage"))
    assert bots_only.takes(game("heuristic", "search:nodes=10"))
    assert not bots_only.takes(game("random", "loopback"))
    assert with_models.takes(game("random", "loopback"))
    for never in ("server:bob", "human"):
        assert not with_models.takes(game("random", never))
