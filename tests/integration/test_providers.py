"""The providers' own APIs (Responses, Anthropic's Messages, Gemini) against the loopback
stand-in: the official SDKs read it, games finish with the reasoning streamed, caches counted as
each provider counts them, faults retried or sent to autopilot with their reason."""

from __future__ import annotations

import statistics

import msgspec
import pytest

from pokeview.players.llm import prompt
from pokeview.players.llm.usage import Usage, cost
from tests.helpers import FAST, game, llm

NATIVE = ["responses", "anthropic", "gemini"]
PRICES = {"input": 3.0, "cached_input": 0.3, "cache_write": 3.75, "output": 15.0}
MESSAGES = [
    {"role": "system", "content": "You are a player."},
    {"role": "user", "content": "BATTLE LOG\nturn 1\n1. move Tackle\n2. switch Pikachu\n"},
]


async def test_the_official_anthropic_sdk_reads_the_stand_in(loopback):
    import anthropic

    client = anthropic.AsyncAnthropic(api_key="k", base_url=loopback.base_url, max_retries=0)
    stream = await client.messages.create(
        model="loopback",
        max_tokens=4096,
        system=[
            {"type": "text", "text": "You are a player.", "cache_control": {"type": "ephemeral"}}
        ],
        messages=[{"role": "user", "content": MESSAGES[1]["content"]}],
        thinking={"type": "enabled", "budget_tokens": 2048},
        stream=True,
    )
    thinking, text, usage = [], [], {}
    async for event in stream:
        if event.type == "content_block_delta" and event.delta.type == "thinking_delta":
            thinking.append(event.delta.thinking)
        elif event.type == "content_block_delta" and event.delta.type == "text_delta":
            text.append(event.delta.text)
        elif event.type == "message_start":
            usage = event.message.usage
    sent = loopback.streamed[-1]
    assert "".join(thinking) == sent["reasoning"] and "".join(text) == sent["answer"]
    assert usage.cache_creation_input_tokens > 0 and usage.cache_read_input_tokens == 0
    # The SDK's own accumulating helper reads it too.
    async with client.messages.stream(
        model="loopback", max_tokens=4096, messages=[{"role": "user", "content": "hi\n1. move A"}]
    ) as helper:
        final = await helper.get_final_message()
    assert [b.type for b in final.content] == ["thinking", "text"]
    assert final.usage.output_tokens > 0 and final.stop_reason == "end_turn"
    await client.close()


async def test_the_official_openai_sdk_reads_the_stand_ins_responses(loopback):
    import openai

    client = openai.AsyncOpenAI(api_key="k", base_url=loopback.base_url, max_retries=0)
    stream = await client.responses.create(
        model="loopback",
        instructions="You are a player.",
        input=[{"role": "user", "content": MESSAGES[1]["content"]}],
        reasoning={"effort": "high", "summary": "auto"},
        store=False,
        stream=True,
    )
    summary, text, done = [], [], None
    async for event in stream:
        if event.type == "response.reasoning_summary_text.delta":
            summary.append(event.delta)
        elif event.type == "response.output_text.delta":
            text.append(event.delta)
        elif event.type == "response.completed":
            done = event.response
    sent = loopback.streamed[-1]
    assert "".join(summary) == sent["reasoning"] and "".join(text) == sent["answer"]
    assert done.output_text == sent["answer"]
    assert done.usage.input_tokens > 0 and done.usage.input_tokens_details.cached_tokens == 0
    assert done.usage.output_tokens_details.reasoning_tokens > 0
    await client.close()


async def test_the_official_google_genai_sdk_reads_the_stand_in(loopback):
    from google import genai
    from google.genai import types

    client = genai.Client(
        api_key="k", vertexai=False, http_options=types.HttpOptions(base_url=loopback.base_url)
    )
    thoughts, text, usage = [], [], None
    stream = await client.aio.models.generate_content_stream(
        model="loopback",
        contents=MESSAGES[1]["content"],
        config={
            "system_instruction": "You are a player.",
            "thinking_config": {"include_thoughts": True},
        },
    )
    async for chunk in stream:
        for part in chunk.candidates[0].content.parts:
            (thoughts if part.thought else text).append(part.text)
        usage = chunk.usage_metadata or usage
    sent = loopback.streamed[-1]
    assert "".join(thoughts) == sent["reasoning"] and "".join(text) == sent["answer"]
    assert usage.prompt_token_count > 0 and usage.thoughts_token_count > 0
    assert usage.cached_content_token_count == 0
    await client.aio.aclose()


@pytest.mark.parametrize("api", NATIVE)
async def test_a_game_under_each_api_keeps_the_reasoning_usage_and_cost(
    bridge, store, loopback, api
):
    before = len(loopback.streamed)
    player = llm(loopback, api=api, prices=PRICES, reasoning_effort="high")
    result = await game(bridge, store, player, "heuristic", text=f"native-{api}", turn_limit=6)
    assert result.status == "finished"
    decisions = store.decisions(result.game_id, "p1")
    streamed = [s for s in loopback.streamed[before:] if s["api"] == api]
    assert len(decisions) >= 3 and len(streamed) == len(decisions)
    # The prompt is PokéBench's, byte for byte, whatever the envelope.
    assert decisions[0].detail.messages[0].content == prompt.system_prompt()
    cached_seen = 0
    for d, sent in zip(decisions, streamed, strict=True):
        (attempt,) = d.detail.attempts
        assert d.how == "answer" and attempt.reasoning == sent["reasoning"] != ""
        assert attempt.content == sent["answer"]
        raw = attempt.response["usage"]  # as the server reported it
        usage = Usage(**msgspec.to_builtins(d.detail.usage))
        if api == "anthropic":  # cache reads and writes outside input_tokens
            read, write = raw["cache_read_input_tokens"], raw["cache_creation_input_tokens"]
            assert usage.input == raw["input_tokens"] + read + write
            assert (usage.cached_input, usage.cache_write) == (read, write)
        elif api == "responses":
            assert usage.input == raw["input_tokens"]
            assert usage.cached_input == raw["input_tokens_details"]["cached_tokens"]
        else:
            assert usage.input == raw["prompt_token_count"]
            assert usage.cached_input == raw["cached_content_token_count"]
            assert usage.output == raw["candidates_token_count"] + raw["thoughts_token_count"]
        cached_seen += usage.cached_input
        # Exact to the cent at the players file's prices, computed here from the raw figures.
        uncached = usage.input - usage.cached_input - usage.cache_write
        expected = (
            uncached * 3.0 + usage.cached_input * 0.3 + usage.cache_write * 3.75 + usage.output * 15
        ) / 1e6
        assert round(d.detail.cost, 2) == round(expected, 2)
        assert d.detail.cost == pytest.approx(cost(usage, PRICES))
    assert cached_seen > 0  # the provider's cache served later decisions
    # What the server received is the recorded conversation, text for text, in its envelope.
    from pokeview.players.llm.loopback_native import conversation

    body = [b for a, b in loopback.native_requests if a == api][-1]
    received = conversation(api, body)
    kept = [msgspec.to_builtins(m) for d in decisions for m in d.detail.messages]
    assert received == kept[: len(received)] and len(received) == len(kept) - 1
    assert any(e.kind == "reasoning" for e in store.events(result.game_id))


async def _cached_shares(bridge, store, loopback, model, **kw):
    # A model name of its own: the stand-in keeps a cache per model, as Anthropic does.
    player = llm(loopback, model, api="anthropic", prices=PRICES, **kw)
    result = await game(bridge, store, player, "heuristic", text="cache", turn_limit=6)
    usages = [
        Usage(**msgspec.to_builtins(d.detail.usage)) for d in store.decisions(result.game_id, "p1")
    ]
    later = usages[1:]
    overall = sum(u.cached_input for u in later) / sum(u.input for u in later)
    return [u.cached_input / u.input for u in usages], overall


async def test_anthropic_reads_the_earlier_conversation_from_its_cache(bridge, store, loopback):
    shares, overall = await _cached_shares(bridge, store, loopback, "loopback-cache")
    assert shares[0] == 0 and len(shares) >= 5
    # From the second decision on, the cache serves everything but the newest exchange: at
    # the second decision that exchange is a quarter of a short conversation (PokéBench's
    # system prompt is 1.5 kB), then less and less.
    assert overall >= 0.8 and min(shares[1:]) >= 0.75 and min(shares[2:]) >= 0.8, shares
    # Without the breakpoints nothing is read from the cache: every decision pays full price.
    dropped, _ = await _cached_shares(
        bridge, store, loopback, "loopback-nocache", cache_control=False
    )
    assert max(dropped) == 0


def test_anthropic_requests_carry_two_breakpoints_and_the_prompt_unchanged():
    from pokeview.players.llm.config import ModelSpec
    from pokeview.players.llm.providers.anthropic import AnthropicProvider

    spec = ModelSpec("a", "http://127.0.0.1:9", "m", api="anthropic", reasoning_effort="high")
    messages = [*MESSAGES, {"role": "assistant", "content": "ACTION: 1"}, MESSAGES[1]]
    body = AnthropicProvider(spec).request(messages)
    assert body["system"] == [
        {"type": "text", "text": "You are a player.", "cache_control": {"type": "ephemeral"}}
    ]
    assert body["messages"][:2] == [
        {"role": "user", "content": MESSAGES[1]["content"]},
        {"role": "assistant", "content": "ACTION: 1"},
    ]
    assert body["messages"][2]["content"][0]["cache_control"] == {"type": "ephemeral"}
    assert body["messages"][2]["content"][0]["text"] == MESSAGES[1]["content"]
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 24576}
    assert body["max_tokens"] > 24576


@pytest.mark.parametrize("api", NATIVE)
@pytest.mark.parametrize(
    "model,why",
    [
        ("loopback-429-once", "rate-limit: HTTP 429"),
        ("loopback-overloaded-once", "server: HTTP 5"),
        ("loopback-error-event-once", "server: "),
        ("loopback-bad-body-once", "bad-response: "),
        ("loopback-cut-once", "bad-response: the stream ended before its last event"),
    ],
)
async def test_a_fault_is_recorded_with_its_reason_and_retried(
    bridge, store, loopback, api, model, why
):
    player = llm(loopback, model, api=api)
    result = await game(bridge, store, player, "random", text=f"{api}-{model}", turn_limit=2)
    assert result.status == "finished"
    for d in store.decisions(result.game_id, "p1"):
        failed, answered = d.detail.attempts
        assert failed.status == "error" and failed.error.startswith(why), failed.error
        assert "Traceback" not in failed.error
        if model == "loopback-error-event-once":
            assert (
                "error event in the stream" in failed.error or "error in the stream" in failed.error
            )
        assert answered.status == "ok" and answered.retry == 1 and d.how == "answer"


@pytest.mark.parametrize("api", NATIVE)
@pytest.mark.parametrize(
    "model,kind",
    [("loopback-stall", "timeout"), ("loopback-drop", "connection"), ("loopback-429-long", "")],
)
async def test_faults_that_do_not_pass_give_autopilot_with_the_reason(
    bridge, store, loopback, api, model, kind
):
    timeouts = {**FAST, "first_token": 0.5}
    player = llm(loopback, model, api=api, max_retries=1, timeouts=timeouts)
    result = await game(
        bridge, store, player, "random", text=f"{api}-{model}", turn_limit=2, void_share=1.0
    )
    assert result.status in ("finished", "void")
    for d in store.decisions(result.game_id, "p1"):
        assert d.how == "autopilot"
        assert d.detail.autopilot.startswith(kind or "rate-limit")
        if model == "loopback-429-long":
            assert "was asked to wait 3600 s" in d.detail.autopilot


@pytest.mark.parametrize("api", NATIVE)
async def test_redacted_reasoning_is_recorded_as_such(bridge, store, loopback, api):
    player = llm(loopback, "loopback-redacted", api=api)
    result = await game(bridge, store, player, "random", text=f"{api}-redacted", turn_limit=2)
    for d in store.decisions(result.game_id, "p1"):
        assert d.detail.reasoning == "(reasoning redacted by the provider)"
        assert d.detail.attempts[0].reasoning_redacted is True


@pytest.mark.parametrize("api", ["chat", *NATIVE])
async def test_reasoning_streams_live_under_each_api(loopback, api):
    """Each delta reaches pokeview as the server sends it (0.25 s apart), not at the end."""
    import time

    from pokeview.players.llm.providers import make_provider
    from tests.helpers import spec

    provider = make_provider(spec(loopback, "loopback-slow", api=api))
    arrived: list[float] = []
    started = time.perf_counter()
    completion = await provider.complete(MESSAGES, lambda _: arrived.append(time.perf_counter()))
    await provider.aclose()
    gaps = [b - a for a, b in zip(arrived, arrived[1:], strict=False)]
    assert len(arrived) == 12 and completion.reasoning.startswith("step 0: ")
    assert arrived[0] - started < 0.6 and 0.2 < statistics.median(gaps) < 0.35, gaps
