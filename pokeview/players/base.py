"""What a player is given for a decision, what it answers, and what every player can do."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import msgspec
from poke_env.battle.battle import Battle

from pokeview.battle.actions import Action
from pokeview.game.decision import DecisionDetail, NoDetail
from pokeview.sim.request import Request
from pokeview.store.events import EventKind, Side


@dataclass(slots=True)
class DecisionContext:
    """Everything a player may use for one decision."""

    side: str  # "p1" or "p2"
    index: int  # this side's decision number, from 0
    turn: int
    side_view: Any  # pokeview.battle.view.SideView: read `view` for the poke-env Battle
    request: Request  # what pokeview reads of Showdown's request, typed
    actions: list[Action]
    seed: int  # for any randomness the player needs
    refusal: str | None = None  # Showdown's message when the previous choice was refused
    refused: list[Action] = field(default_factory=list)
    # This side's updates so far, exactly as recorded (the prompt renders from them).
    updates: list[Side] = field(default_factory=list)
    # Appends an event for this side to the record at once (streamed reasoning, attempts).
    emit: Callable[[EventKind, Any], None] | None = None
    game_id: int = 0
    bridge: Any = None  # the game's Bridge, for players that compute next to the simulator
    # The whole request as JSON: as the bridge sent it, or (a server game) poke-env's encoded again.
    request_json: bytes | msgspec.Raw = field(kw_only=True)

    @property
    def view(self) -> Battle:
        """The side's knowledge as a poke-env Battle (parsed on first use)."""
        return self.side_view.battle


@dataclass(slots=True)
class Decision:
    action: int  # index into DecisionContext.actions
    how: str = "chosen"  # chosen, answer, re-ask, random pick, autopilot, ...
    detail: DecisionDetail = field(default_factory=NoDetail)  # what the record keeps verbatim


class Player(ABC):
    """A side's player. `decide` is the one thing each must do; the rest is declared here with
    what it does by default, so the game loop and the runners call it without asking first."""

    name: str  # as stored and shown: "heuristic", "llm:gpt-5"
    kind: str  # a registry.PlayerKind (tests' own players may use another word)
    # True when `decide_now` gives the choice without waiting (the bots): the game loop then
    # calls it at once, with no task.
    answers_at_once: ClassVar[bool] = False
    # False for a player that reads only its request and protocol lines (the bots, search): the
    # bridge then computes no words and no state for its side while the game plays.
    reads_words: ClassVar[bool] = True
    # True for a player whose every choice the bridge can make by itself, the same from the same
    # seed (poke-env's RandomPlayer: `sim/bridge/autoplay.js`); the game loop then checks and
    # records the choices the bridge made, and is asked only where the bridge cannot choose.
    bridge_plays: bool = False

    def whole_bot(self, format_id: str) -> str | None:
        """The bot of the bridge's that makes this player's every choice in a game of this format,
        the same from the same seed (`sim/bridge/whole.js`), or None."""
        return None

    @abstractmethod
    def describe(self) -> dict[str, Any]:
        """The settings stored with each game (never a secret)."""

    @abstractmethod
    async def decide(self, ctx: DecisionContext) -> Decision: ...

    def decide_now(self, ctx: DecisionContext) -> Decision:
        """The choice as a plain call; only asked of a player that `answers_at_once`."""
        raise NotImplementedError(f"{type(self).__name__} does not answer at once")

    def check_format(self, format_id: str) -> None:
        """Raises PokeviewError, before any game starts, when this player cannot play the
        format; by default a player plays every format."""
        return None

    def resume_conversation(self, messages: list[Any]) -> None:
        """A resumed game's earlier messages for this side, for a player that keeps a
        conversation (a model); the others have none."""
        return None

    async def close(self) -> None:
        """Frees what the player holds (a client, a search host) when its game ends."""
        return None
