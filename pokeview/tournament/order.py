"""A run's or ladder's game as plain data: what its spec is made from, on this machine or another.

A `GameSpec` holds live players (a model's client, a server player's login); an order holds
only their specs, so it can be sent to a Ray worker and made into the same game there. Called,
it makes the spec here, with players fresh for the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokeview.battle.spec import GameSpec
from pokeview.battle.void import DEFAULT_SHARE
from pokeview.players import make_player
from pokeview.players.server import ServerOptions


@dataclass(frozen=True, slots=True)
class GameOrder:
    format: str
    seed_text: str
    p1: str  # player specs, as the run config or the ladder names them
    p2: str
    pair: int
    seat: int
    run_id: int | None
    turn_limit: int
    teams: dict[str, str] | None = None
    void_share: float = DEFAULT_SHARE
    players_file: str | None = None
    server: ServerOptions | None = None

    def __call__(self) -> GameSpec:
        return GameSpec.new(
            self.format,
            self.seed_text,
            make_player(self.p1, self.players_file, server=self.server),
            make_player(self.p2, self.players_file, server=self.server),
            pair=self.pair,
            turn_limit=self.turn_limit,
            teams=self.teams,
            run_id=self.run_id,
            seat=self.seat,
            void_share=self.void_share,
        )
