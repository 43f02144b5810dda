"""poke-env's reference bots, called directly with no server and seeded per decision."""

from __future__ import annotations

import contextlib
import random
import sys
import threading
from collections.abc import Iterator
from functools import cache
from types import ModuleType
from typing import Any

from poke_env import AccountConfiguration
from poke_env.player import MaxBasePowerPlayer, RandomPlayer, SimpleHeuristicsPlayer
from poke_env.player.battle_order import SingleBattleOrder
from poke_env.player.player import Player as PokeEnvPlayer

from pokeview.battle.actions import Action
from pokeview.game.decision import BotDetail, How
from pokeview.players.base import Decision, DecisionContext, Player
from pokeview.players.kinds import BOTS, PlayerKind
from pokeview.players.poke_env_data import gen_of
from pokeview.players.random_choice import random_choice

ENGINES: dict[str, type[PokeEnvPlayer]] = {
    "RandomPlayer": RandomPlayer,
    "MaxBasePowerPlayer": MaxBasePowerPlayer,
    "SimpleHeuristicsPlayer": SimpleHeuristicsPlayer,
}


# The engines the bridge has a copy of (`sim/bridge/random_choice.js`, `baseline_bots.js`), by
# its name for them, and the generations it copies them for (None: all).
_IN_BRIDGE: dict[type[PokeEnvPlayer], tuple[str, frozenset[int] | None]] = {
    RandomPlayer: ("random", None),
    MaxBasePowerPlayer: ("max-damage", frozenset({9})),
    SimpleHeuristicsPlayer: ("heuristic", frozenset({9})),
}

_RANDOM_LOCK = threading.Lock()  # server games run players on poke-env's own thread


def _random_users(cls: type[PokeEnvPlayer]) -> list[ModuleType]:
    """The modules whose `random` an engine's choices draw from: poke-env's and its own."""
    names = {"poke_env.player.player", "poke_env.player.baselines"}
    names.update(c.__module__ for c in cls.__mro__)
    modules = [sys.modules.get(n) for n in names]
    return [m for m in modules if m is not None and getattr(m, "random", None) is random]


@contextlib.contextmanager
def own_random(seed: int, modules: list[ModuleType]) -> Iterator[random.Random]:
    """For one synchronous call, the engines' `random` is a generator of this decision's own:
    the global one is neither read nor moved, whatever else runs (another game, another thread).
    It draws exactly what `random.seed(seed)` then the module functions would."""
    rng = random.Random(seed)
    with _RANDOM_LOCK:
        for module in modules:
            module.random = rng  # type: ignore[attr-defined]
        try:
            yield rng
        finally:
            for module in modules:
                module.random = random  # type: ignore[attr-defined]


@cache
def _engine(cls: type[PokeEnvPlayer]) -> PokeEnvPlayer:
    # The bots keep no state between calls, so one instance per class serves every game.
    return cls(
        account_configuration=AccountConfiguration(f"pokeview-{cls.__name__}"[:18], None),
        start_listening=False,
    )


def order_to_action(order: Any, actions: list[Action]) -> int | None:
    """Find the legal action a poke-env order names; None when it names none of them."""
    if isinstance(order, str):  # team preview: "/team 312456"
        digits = order.rsplit(" ", 1)[-1]
        slot = int(digits[0]) if digits[:1].isdigit() else None
        return next((i for i, a in enumerate(actions) if a.slot == slot), None)
    if not isinstance(order, SingleBattleOrder):
        return None
    target: Any = order.order
    if hasattr(target, "base_power"):  # a Move
        gimmick = (
            "terastallize"
            if order.terastallize
            else "mega"
            if order.mega
            else "dynamax"
            if order.dynamax
            else None
        )
        for i, a in enumerate(actions):
            if (
                a.kind == "move"
                and a.gimmick == gimmick
                and (a.move_id == target.id or (a.move_id or "").startswith(target.id))
            ):
                return i
        if target.id == "recharge":
            return next((i for i, a in enumerate(actions) if a.kind == "move"), None)
        return None
    name = getattr(target, "name", None)
    species = getattr(target, "species", None)
    for i, a in enumerate(actions):
        if a.kind == "switch" and (a.name == name or (a.name or "").lower() == species):
            return i
    return None


class BotPlayer(Player):
    """A poke-env Player called in-process: the reference bots, or any subclass named
    `module:Class` (its randomness seeded per decision the same way)."""

    kind = PlayerKind.BOT
    answers_at_once = True
    reads_words = False  # poke-env's view is fed the lines and the request only

    def __init__(self, name: str, engine: type[PokeEnvPlayer] | None = None) -> None:
        self.name = name
        self._engine = _engine(engine or ENGINES[BOTS[name]])
        self._modules = _random_users(type(self._engine))
        # poke-env's own RandomPlayer needs no battle: its choice is made from the request.
        self._request_only = type(self._engine) is RandomPlayer
        self.bridge_plays = self._request_only  # so the bridge makes the same choice itself

    def whole_bot(self, format_id: str) -> str | None:
        copy = _IN_BRIDGE.get(type(self._engine))  # a subclass may choose otherwise
        if copy is None:
            return None
        name, gens = copy
        return name if gens is None or gen_of(format_id) in gens else None

    def describe(self) -> dict[str, Any]:
        engine = type(self._engine)
        label = "poke-env" if engine.__module__.startswith("poke_env") else engine.__module__
        return {"kind": "bot", "bot": self.name, "engine": f"{label} {engine.__name__}"}

    async def decide(self, ctx: DecisionContext) -> Decision:
        return self.decide_now(ctx)

    def decide_now(self, ctx: DecisionContext) -> Decision:
        """The choice, made at once (the game loop calls it without a task)."""
        # Every choice is a function of the game seed, side and decision index.
        if self._request_only and not ctx.refused:
            index = random_choice(ctx.request, ctx.actions, ctx.seed)
            if index is not None:  # the same action poke-env's RandomPlayer would choose
                return Decision(index, how=How.CHOSEN)
        view = ctx.view  # parsed before the draw, outside the lock
        with own_random(ctx.seed, self._modules):
            if ctx.request.team_preview:
                order: Any = self._engine.teampreview(view)
            else:
                order = self._engine.choose_move(view)
        index = order_to_action(order, ctx.actions)
        refused = {a.choice for a in ctx.refused}
        if index is None or ctx.actions[index].choice in refused:
            # The bot named nothing legal (or what Showdown just refused): fall back, seeded.
            options = [i for i, a in enumerate(ctx.actions) if a.choice not in refused]
            options = options or list(range(len(ctx.actions)))
            index = random.Random(ctx.seed).choice(options)
            return Decision(index, how=How.FALLBACK, detail=BotDetail(bot_order=str(order)))
        return Decision(index, how=How.CHOSEN)
