"""The site's games list: each game's ending says why a game did not count."""

from __future__ import annotations

from pokeview.site.games import render
from pokeview.store.rows import GameRow


def game(game_id: int, status: str, error: str | None = None, **kw) -> GameRow:
    fields = {
        "id": game_id, "run_id": 1, "pair": 0, "seat": 0, "format": "gen9randombattle",
        "seed_text": "s", "seed": "s", "p1": "a", "p2": "b", "p1_config": {}, "p2_config": {},
        "teams": None, "status": status, "error": error, "winner": None, "turns": 3,
        "started_at": "", "ended_at": None, "pokeview_version": "0", "showdown_version": None,
        "input_log": None, "spectator_log": None, "parent_game": None, "parent_decision": None,
        "exclude_from_ratings": int(status != "finished"),
    }  # fmt: skip
    return GameRow(**{**fields, **kw})


def test_void_error_and_interrupted_games_say_why():
    why = "the runner stopped during this game; it was played again from its seed"
    listed = render(
        "r",
        [
            game(1, "void", "a (p1) was on autopilot for 9 of its 9 decisions", winner="p2"),
            game(2, "error", "the bridge died"),
            game(3, "interrupted", why),
        ],
    )
    assert "void: a (p1) was on autopilot for 9 of its 9 decisions" in listed
    assert "ended in an error: the bridge died" in listed
    assert f"interrupted: {why}" in listed
