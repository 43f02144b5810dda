"""What one game is, before it is played: the single argument of `play_game`.

Format, seed and teams decide the battle; the players decide the choices; the limits end it;
and where it came from (a run's pair and seat, a fork's parent, an input log to replay, a stored
game to continue) is kept on its record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokeview import __version__
from pokeview.battle.void import DEFAULT_SHARE
from pokeview.players.base import Player

SIDES = ("p1", "p2")


@dataclass(frozen=True, slots=True, kw_only=True)
class GameSpec:
    format: str
    seed: str  # a game seed from `seeds.game_seed`
    p1: Player
    p2: Player
    teams: dict[str, str] | None = None  # packed teams by side; random formats generate them
    # Limits: a tie at this turn; void when a model side was on autopilot for more than this
    # share of its decisions (RotomArena's rule).
    turn_limit: int = 300
    void_share: float = DEFAULT_SHARE
    # Where it came from.
    seed_text: str | None = None  # the text the seed was made from, as the user gave it
    run_id: int | None = None
    pair: int | None = None
    seat: int | None = None
    parent_game: int | None = None  # a fork: the game and decision it branched from
    parent_decision: int | None = None
    # How it starts: from an input log (a fork's prefix, an import) instead of format and seed,
    # or by continuing a stored game that was left unfinished (same id, same record).
    inputlog: list[str] | None = None
    resume: int | None = None

    @property
    def players(self) -> dict[str, Player]:
        return {"p1": self.p1, "p2": self.p2}

    def record(self, showdown_version: str | None) -> dict[str, Any]:
        """The game row this spec starts."""
        return {
            "run_id": self.run_id,
            "pair": self.pair,
            "seat": self.seat,
            "format": self.format,
            "seed_text": self.seed_text,
            "seed": self.seed,
            "p1": self.p1.name,
            "p2": self.p2.name,
            "p1_config": self.p1.describe(),
            "p2_config": self.p2.describe(),
            "teams": self.teams,
            "pokeview_version": __version__,
            "showdown_version": showdown_version,
            "parent_game": self.parent_game,
            "parent_decision": self.parent_decision,
            "exclude_from_ratings": 1 if self.parent_game is not None else 0,
        }
