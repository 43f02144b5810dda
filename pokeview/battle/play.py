"""One game, of any kind: the single way a game is played, whoever asks.

The command line's `battle`, runs, ladders, the play screen, forks, imports and games against
programs on the local server all call `play(spec, venue=..., store=...)`. Where the game is played
is the venue, handed in from above: the Node bridge (`OnBridge`), or a venue of the layer above
that plays some games elsewhere (exchange's local server) and records them on the bridge. So one
game's part never imports what exchanges games, and never asks what kind of player it has.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from pokeview.battle.loop import GameResult, play_game
from pokeview.battle.spec import GameSpec
from pokeview.errors import PokeviewError
from pokeview.sim.client import Bridge
from pokeview.store.store import Store


class Venue(Protocol):
    """Where a game is played. Every venue has the bridge: a game is recorded there."""

    @property
    def bridge(self) -> Bridge: ...

    async def play(self, spec: GameSpec, store: Store) -> GameResult: ...


@dataclass(frozen=True, slots=True)
class OnBridge:
    """The Node bridge: Showdown's own simulator, one long-lived process for many games."""

    bridge: Bridge

    async def play(self, spec: GameSpec, store: Store) -> GameResult:
        return await play_game(spec, bridge=self.bridge, store=store)


@dataclass(frozen=True, slots=True)
class AgainOnBridge:
    """The bridge, playing a game again step by step to derive its record (a game it played
    whole: battle/derive.py): words on, each decision recorded with its first time, by (side,
    index)."""

    bridge: Bridge
    latencies: dict[tuple[str, int], float]

    async def play(self, spec: GameSpec, store: Store) -> GameResult:
        return await play_game(
            spec,
            bridge=self.bridge,
            store=store,
            words_later=False,
            whole=False,
            latencies=self.latencies,
        )


async def play(spec: GameSpec, *, venue: Venue, store: Store) -> GameResult:
    """Play one game to its end (or its turn limit, a tie) in `venue`, and record it."""
    if not spec.seed:
        raise PokeviewError("a game needs a seed")
    return await venue.play(spec, store)
