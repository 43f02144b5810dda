"""What one game is, before it is played: the single argument of `battle.play.play`.

Format, seed and teams decide the battle; the players decide the choices; the limits end it;
and where it came from (a run's pair and seat, a fork's parent, an input log to replay, a stored
game to continue) is kept on its record. A spec is made by one of the constructors below, by what
the game starts from: seed text (`new`), a stored game to continue (`resuming`), a point of a
stored game to branch from (`forking`), or an input log to re-simulate (`replaying`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pokeview import __version__
from pokeview.battle import seeds
from pokeview.battle.void import DEFAULT_SHARE
from pokeview.players.base import Player

if TYPE_CHECKING:
    from pokeview.store.rows import GameRow
    from pokeview.store.store import Store

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

    @classmethod
    def new(
        cls,
        format: str,
        seed_text: str,
        p1: Player,
        p2: Player,
        *,
        pair: int | None = None,
        **more: Any,
    ) -> GameSpec:
        """A game from seed text (and, in a run or a ladder, its pair: both seats of a mirror
        pair share the seed); `more` are the limits, teams and a run's fields."""
        seed = seeds.game_seed(seed_text, pair or 0)
        return cls(format=format, seed=seed, p1=p1, p2=p2, seed_text=seed_text, pair=pair, **more)

    @classmethod
    def resuming(cls, store: Store, game_id: int, p1: Player, p2: Player) -> GameSpec:
        """The stored game `game_id`, left unfinished, continued under its own id."""
        game = store.game(game_id)
        return cls(
            format=game.format,
            seed=game.seed,
            p1=p1,
            p2=p2,
            seed_text=game.seed_text,
            resume=game.id,
        )

    @classmethod
    def again(cls, game: GameRow, p1: Player, p2: Player) -> GameSpec:
        """Stored game `game`, played again from its seed and teams to derive its steps (a game
        the bridge played whole: battle/derive.py); it ended before any turn limit."""
        return cls(
            format=game.format,
            seed=game.seed or "",
            p1=p1,
            p2=p2,
            teams=game.teams,
            turn_limit=(game.turns or 0) + 1,
        )

    @classmethod
    def forking(cls, store: Store, game_id: int, event_id: int, p1: Player, p2: Player) -> GameSpec:
        """A new game that branches from stored game `game_id` just before its event
        `event_id` (a decision): Showdown replays the input log up to there."""
        source = store.game(game_id)
        decision = [e for e in store.events(game_id) if e.id == event_id]
        return cls(
            format=source.format,
            seed=source.seed,
            p1=p1,
            p2=p2,
            inputlog=store.input_log_before(game_id, event_id),
            parent_game=game_id,
            parent_decision=decision[0].id if decision else None,
        )

    @classmethod
    def replaying(
        cls, format: str, inputlog: list[str], p1: Player, p2: Player, source: str
    ) -> GameSpec:
        """An input log from elsewhere (`source`), re-simulated by players that give its
        choices: the header starts the battle, so no seed of pokeview's is in it."""
        return cls(
            format=format,
            seed="imported",
            p1=p1,
            p2=p2,
            inputlog=inputlog,
            seed_text=f"imported from {source}",
        )

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
