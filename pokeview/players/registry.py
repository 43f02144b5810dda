"""Player specs as typed on the command line: 'random', 'max-damage', 'heuristic', ..."""

from __future__ import annotations

from pokeview.errors import PokeviewError
from pokeview.players.base import Player
from pokeview.players.bots import BOTS, BotPlayer


def known_kinds() -> list[str]:
    return list(BOTS)


def make_player(spec: str) -> Player:
    spec = spec.strip()
    if spec in BOTS:
        return BotPlayer(spec)
    raise PokeviewError(f"unknown player kind '{spec}'; choose one of: {', '.join(known_kinds())}")
