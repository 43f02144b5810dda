"""Players: anything that, given a side's view and its legal actions, returns a choice."""

from pokeview.players.base import Decision, DecisionContext, Player
from pokeview.players.registry import make_player

__all__ = ["Decision", "DecisionContext", "Player", "make_player"]
