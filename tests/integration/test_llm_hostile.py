"""A provider's odd answers and a decision the record cannot keep never hang a game."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import orjson
import pytest

from pokeview.game.decision import ModelDetail
from pokeview.players.base import Decision, DecisionContext, Player
from pokeview.players.llm.provider import ANSWER_CAP, REASONING_CAP
from pokeview.players.llm.usage import MAX_TOKENS
from tests.helpers import game, llm

WAIT = 120  # seconds: far more than a short game takes, so a hang fails rather than waits


async def _game(bridge, store, p1, text: str, turn_limit: int = 3):
    return await asyncio.wait_for(
        game(bridge, store, p1, "random", text=text, turn_limit=turn_limit), WAIT
    )


async def test_a_usage_past_any_integer_is_clamped_and_the_game_ends(bridge, store, loopback):
    # `"prompt_tokens": 1e30` made storing the decision raise outside any `try`: the decision's
    # task died unseen ("Task exception was never retrieved") and the game waited for ever.
    result = await _game(bridge, store, llm(loopback, "loopback-huge-usage"), "huge-usage")
    assert result.status == "finished", result.error
    decisions = store.decisions(result.game_id, "p1")
    assert decisions and all(d.how == "answer" for d in decisions)
    for d in decisions:
        assert d.detail.usage.input == MAX_TOKENS == d.detail.usage.output


async def test_usage_of_the_wrong_shape_is_read_as_far_as_it_can_be(bridge, store, loopback):
    result = await _game(bridge, store, llm(loopback, "loopback-bad-usage"), "bad-usage")
    assert result.status == "finished", result.error
    first = store.decisions(result.game_id, "p1")[0]
    assert first.how == "answer"
    usage = first.detail.usage
    assert usage.cached_input == 0 and usage.output == 0 and usage.reasoning == 0
    assert min(msgspec.to_builtins(usage).values()) >= 0


@pytest.mark.parametrize("shape", ["content", "choices", "delta", "choice"])
async def test_a_chunk_of_the_wrong_shape_is_a_bad_response_asked_again(
    bridge, store, loopback, shape
):
    # `content: 12345` and the like ended the game as a harness error, never played again.
    model = f"loopback-bad-chunk-{shape}"
    result = await _game(bridge, store, llm(loopback, model), f"bad-{shape}", turn_limit=2)
    assert result.status == "finished", result.error
    first = store.decisions(result.game_id, "p1")[0]
    assert first.how == "answer"
    failed, answered = first.detail.attempts
    assert failed.status == "error" and failed.error.startswith("bad-response: ")
    assert "\n" not in failed.error and answered.status == "ok"


class _Unrecordable(Player):
    """A player whose decision the record cannot store (a number past 64 bits in its detail)."""

    name, kind = "unrecordable", "test"

    def describe(self) -> dict[str, Any]:
        return {"kind": "test"}

    async def decide(self, ctx: DecisionContext) -> Decision:
        return Decision(0, how="chosen", detail=ModelDetail(model="unrecordable", cost=10**30))


async def test_a_decision_the_record_cannot_keep_interrupts_its_game(bridge, store):
    result = await _game(bridge, store, _Unrecordable(), "unrecordable")
    assert result.status == "interrupted"  # pokeview's failure: played again by a run
    assert result.error and "pokeview failed at a decision of unrecordable" in result.error
    assert "64-bit" in result.error
    row = store.game(result.game_id)
    assert row.status == "interrupted" and row.error == result.error


@pytest.mark.parametrize("api", ["chat", "responses", "anthropic", "gemini"])
async def test_a_runaway_answer_is_kept_and_sent_again_only_up_to_its_cap(
    bridge, store, loopback, api
):
    # A 5 MB answer was stored four times per decision (attempt, answer, conversation, events)
    # and sent again in every later request.
    player = llm(loopback, "loopback-huge-answer", api=api)
    result = await _game(bridge, store, player, f"huge-{api}", 4)
    assert result.status == "finished", result.error
    decisions = store.decisions(result.game_id, "p1")
    assert len(decisions) >= 2 and all(d.how == "answer" for d in decisions)  # its ACTION read
    for d in decisions:
        answer, reasoning = d.detail.answer, d.detail.reasoning
        assert len(answer) < ANSWER_CAP + 200 and len(reasoning) < REASONING_CAP + 200
        assert "characters of this answer cut by pokeview" in answer
        assert "characters of this reasoning cut by pokeview" in reasoning
        assert answer.endswith("REASON: It looks like the best option here.")
        assert d.detail.attempts[-1].content == answer
        assert [m for m in d.detail.messages if m.role == "assistant"][-1].content == answer
    streamed = [e for e in store.events(result.game_id) if e.kind in ("answer", "reasoning")]
    assert (
        sum(len(e.data.delta) for e in streamed)
        < len(decisions) * (ANSWER_CAP + REASONING_CAP) * 1.1
    )
    if api == "chat":
        sent = [r for r in loopback.requests if r["model"] == "loopback-huge-answer"][-1]
        assistant = [m["content"] for m in sent["messages"] if m["role"] == "assistant"]
        assert assistant and all(len(text) < ANSWER_CAP + 200 for text in assistant)
    else:  # each API wraps the conversation its own way: no request holds a runaway text
        assert all(len(orjson.dumps(r)) < 200_000 for a, r in loopback.native_requests if a == api)
