"""Anthropic's Messages API, through the official SDK: extended thinking and prompt caching.

Thinking is asked for with `thinking: {type: "enabled", budget_tokens}` (the players file's
thinking_budget, or one from reasoning_effort) and streams as `thinking_delta`s; a
`redacted_thinking` block is recorded as reasoning redacted by the provider. The system prompt
and the newest user message carry a `cache_control` breakpoint each decision, so each request
reads the whole earlier conversation from Anthropic's cache (without them nothing is cached and
every decision pays the full input price again). Anthropic counts cache reads and cache writes
outside `input_tokens`: pokeview's usage puts them inside its input, as the other APIs do.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import anthropic

from pokeview.players.llm.config import ANTHROPIC_EFFORT_BUDGETS
from pokeview.players.llm.provider import ProviderError
from pokeview.players.llm.providers.base import (
    Answer,
    Done,
    Event,
    Provider,
    Reasoning,
    Redacted,
    fault,
    status_fault,
)
from pokeview.players.llm.usage import anthropic_usage

ANSWER_TOKENS = 4096  # room for the answer above the thinking budget, when max_tokens is not set
CACHE = {"type": "ephemeral"}
# Error types in Anthropic's error bodies (and `event: error` mid-stream) as fault kinds.
ERROR_KINDS = {
    "rate_limit_error": "rate-limit",
    "overloaded_error": "server",
    "api_error": "server",
    "timeout_error": "timeout",
    "invalid_request_error": "client",
    "authentication_error": "client",
    "permission_error": "client",
    "not_found_error": "client",
    "request_too_large": "client",
    "billing_error": "client",
}


class AnthropicProvider(Provider):
    api = "anthropic"

    def __init__(self, spec) -> None:
        super().__init__(spec)
        self._client: anthropic.AsyncAnthropic | None = None

    def client(self, key: str | None) -> anthropic.AsyncAnthropic:
        if self._client is None:
            self._client = anthropic.AsyncAnthropic(
                # An explicit key, so that the SDK reads no variable or file of its own; a
                # keyless stand-in is sent a word that is not a key.
                api_key=key or "no-key",
                base_url=self.spec.base_url,
                max_retries=0,  # pokeview's retries are the one policy
                http_client=self.http(),
                open_telemetry=False,
            )
        return self._client

    def budget(self) -> int | None:
        if self.spec.thinking_budget is not None:
            return self.spec.thinking_budget or None
        return ANTHROPIC_EFFORT_BUDGETS.get(self.spec.reasoning_effort or "")

    def request(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        cache = self.spec.cache_control is not False
        newest = max((i for i, m in enumerate(messages) if m["role"] == "user"), default=-1)
        system: list[dict[str, Any]] = []
        turns: list[dict[str, Any]] = []
        for i, m in enumerate(messages):
            block: dict[str, Any] = {"type": "text", "text": m["content"]}
            if m["role"] == "system":
                system.append({**block, "cache_control": CACHE} if cache else block)
            elif i == newest and cache:
                turns.append({"role": "user", "content": [{**block, "cache_control": CACHE}]})
            elif m["content"]:  # Anthropic refuses an empty text block (an empty answer)
                turns.append({"role": m["role"], "content": m["content"]})
        budget = self.budget()
        body: dict[str, Any] = {
            "model": self.spec.model,
            "max_tokens": self.spec.max_tokens or (budget or 0) + ANSWER_TOKENS,
            "system": system,
            "messages": turns,
        }
        if budget:
            body["thinking"] = {"type": "enabled", "budget_tokens": budget}
        body.update(self.spec.extra_body)
        return body

    async def _events(self, request: dict[str, Any], key: str | None) -> AsyncIterator[Event]:
        stream = await self.client(key).messages.create(**request, stream=True)
        usage: dict[str, Any] = {}
        meta: dict[str, Any] = {}
        shown = False  # whether the thinking block being streamed showed any text
        async with stream:
            async for event in stream:
                kind = event.type
                if kind == "message_start":
                    meta = {"id": event.message.id, "model": event.message.model}
                    usage.update(event.message.usage.model_dump(exclude_none=True))
                elif kind == "content_block_start":
                    block = event.content_block
                    if block.type == "redacted_thinking":
                        yield Redacted()
                    elif block.type == "thinking":
                        shown = bool(block.thinking)
                        if shown:
                            yield Reasoning(block.thinking)
                    elif block.type == "text" and block.text:
                        yield Answer(block.text)
                elif kind == "content_block_delta":
                    delta = event.delta
                    if delta.type == "thinking_delta":
                        shown = shown or bool(delta.thinking)
                        yield Reasoning(delta.thinking)
                    elif delta.type == "signature_delta" and not shown:
                        yield Redacted()  # signed thinking whose text was not returned
                    elif delta.type == "text_delta":
                        yield Answer(delta.text)
                elif kind == "message_delta":
                    meta["stop_reason"] = event.delta.stop_reason
                    usage.update(event.usage.model_dump(exclude_none=True))
                elif kind == "message_stop":
                    meta["usage"] = usage
                    yield Done(
                        anthropic_usage(usage) if usage else None,
                        meta.get("model"),
                        meta.get("stop_reason"),
                        meta,
                    )
                    return

    def _look_up(self, key: str | None) -> None:
        with anthropic.Anthropic(
            api_key=key or "no-key",
            base_url=self.spec.base_url,
            max_retries=0,
            timeout=self.spec.timeout("connect"),
            open_telemetry=False,
        ) as client:
            client.models.retrieve(self.spec.model)

    def _fault(self, exc: BaseException) -> ProviderError | None:
        if isinstance(exc, anthropic.APITimeoutError):
            return fault("timeout", "the provider did not answer in time")
        if isinstance(exc, anthropic.APIConnectionError):
            return fault("connection", f"{type(exc).__name__}: {exc}")
        if isinstance(exc, anthropic.APIStatusError):
            body = exc.body if isinstance(exc.body, dict) else {}
            found = body.get("error")
            error: dict[str, Any] = found if isinstance(found, dict) else {}
            message = str(error.get("message") or exc.message)
            if exc.status_code == 200:  # `event: error` in the middle of the stream
                kind = ERROR_KINDS.get(str(error.get("type")), "server")
                return fault(kind, f"error event in the stream: {error.get('type')}: {message}")
            return status_fault(exc.status_code, message, exc.response.headers)
        if isinstance(exc, anthropic.AnthropicError):
            return fault("bad-response", f"{type(exc).__name__}: {exc}")
        return None
