"""The random bot decides from the request alone, as poke-env's RandomPlayer would with a Battle."""

from __future__ import annotations

from pokeview.players import make_player
from pokeview.players.base import Decision, DecisionContext, Player
from pokeview.players.random_choice import random_choice
from tests.helpers import game


class BothWays(Player):
    """poke-env's RandomPlayer on a parsed Battle, checked against the request-only choice."""

    kind = "bot"

    def __init__(self) -> None:
        self.inner = make_player("random")
        self.inner._request_only = False  # type: ignore[attr-defined]
        self.name = self.inner.name
        self.compared = 0
        self.retries = 0  # of those, tries after Showdown refused a choice as unavailable
        self.decisions = 0
        self.differ: list[tuple[int, int | None, int]] = []

    def describe(self):
        return self.inner.describe()

    async def decide(self, ctx: DecisionContext) -> Decision:
        decision = await self.inner.decide(ctx)  # reads ctx.view: poke-env parses the battle
        self.decisions += 1
        fast = random_choice(ctx.request, ctx.actions, ctx.seed)
        if fast is not None and not ctx.refused:
            self.compared += 1
            self.retries += ctx.refusal is not None
            if fast != decision.action:
                self.differ.append((ctx.index, fast, decision.action))
        return decision


async def test_the_request_only_random_choice_is_poke_envs_decision_by_decision(bridge, store):
    checked = []
    for pair in range(4):
        for opponent in ("random", "heuristic"):
            p1 = BothWays()
            p2 = BothWays() if opponent == "random" else opponent
            result = await game(bridge, store, p1, p2, text="random-request", pair=pair)
            assert result.status == "finished"
            checked += [p for p in (p1, p2) if isinstance(p, BothWays)]
    assert [p.differ for p in checked] == [[] for _ in checked]
    compared, decisions = sum(p.compared for p in checked), sum(p.decisions for p in checked)
    assert compared > 0.95 * decisions and compared > 300  # the request nearly always suffices


async def test_a_random_bots_game_is_the_same_whichever_way_it_decides(bridge, store):
    request_only = await game(bridge, store, "random", "random", text="same-either-way")
    both = await game(bridge, store, BothWays(), BothWays(), text="same-either-way")
    assert store.game(request_only.game_id).input_log == store.game(both.game_id).input_log


async def test_after_a_switch_refused_out_of_a_trap_poke_env_draws_what_the_port_draws(
    bridge, store
):
    # The bridge tries such a choice again with the port (sim/bridge/whole.js): here poke-env's
    # RandomPlayer, on a Battle fed the request Showdown sent with the refusal, is the judge.
    checked = []
    for text, pair in (("refuse", 131), ("refuse", 146), ("refuse2", 3)):
        p1, p2 = BothWays(), BothWays()
        result = await game(bridge, store, p1, p2, text=text, pair=pair)
        assert result.status == "finished"
        checked += [p1, p2]
    assert [p.differ for p in checked] == [[] for _ in checked]
    assert sum(p.retries for p in checked) >= 4
