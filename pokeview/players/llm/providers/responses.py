"""OpenAI's Responses API, through the official SDK: the reasoning summaries of OpenAI's
reasoning models, which chat completions do not return.

`reasoning: {effort, summary}` asks for a summary, streamed as
`response.reasoning_summary_text.delta` events; a reasoning item with no summary (the model
reasoned, the provider kept its text) is recorded as reasoning redacted by the provider. Nothing
is stored at OpenAI (`store: false`). Caching is automatic: `input_tokens` includes
`input_tokens_details.cached_tokens`, as pokeview counts it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import openai

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
from pokeview.players.llm.usage import responses_usage

RATE_LIMIT_CODES = ("rate_limit_exceeded", "insufficient_quota")


class ResponsesProvider(Provider):
    api = "responses"

    def __init__(self, spec) -> None:
        super().__init__(spec)
        self._client: openai.AsyncOpenAI | None = None

    def client(self, key: str | None) -> openai.AsyncOpenAI:
        if self._client is None:
            self._client = openai.AsyncOpenAI(
                api_key=key or "no-key",  # explicit, so the SDK reads no variable of its own
                base_url=self.spec.base_url,
                max_retries=0,  # pokeview's retries are the one policy
                http_client=self.http(),
            )
        return self._client

    def request(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.spec.model,
            "instructions": "\n\n".join(m["content"] for m in messages if m["role"] == "system"),
            "input": [
                {"role": m["role"], "content": m["content"]}
                for m in messages
                if m["role"] != "system"
            ],
            "stream": True,
            "store": False,
        }
        if self.spec.reasoning_effort or self.spec.reasoning_summary:
            reasoning: dict[str, Any] = {"summary": self.spec.reasoning_summary or "auto"}
            if self.spec.reasoning_effort:
                reasoning["effort"] = self.spec.reasoning_effort
            body["reasoning"] = reasoning
        if self.spec.max_tokens:
            body["max_output_tokens"] = self.spec.max_tokens
        body.update(self.spec.extra_body)
        return body

    async def _events(self, request: dict[str, Any], key: str | None) -> AsyncIterator[Event]:
        stream = await self.client(key).responses.create(**request)
        async with stream:
            async for event in stream:
                kind = event.type
                if kind == "response.reasoning_summary_text.delta":
                    yield Reasoning(event.delta)
                elif kind == "response.reasoning_summary_part.added" and event.summary_index:
                    yield Reasoning("\n\n")  # between the parts of one summary
                elif kind == "response.output_text.delta":
                    yield Answer(event.delta)
                elif kind == "response.output_item.done":
                    item = event.item
                    if item.type == "reasoning" and not any(s.text for s in item.summary or ()):
                        yield Redacted()
                elif kind == "error":
                    code = str(event.code or "")
                    why = "rate-limit" if code in RATE_LIMIT_CODES else "server"
                    raise fault(why, f"error event in the stream: {code}: {event.message}")
                elif kind == "response.failed":
                    error = event.response.error
                    said = f"{error.code}: {error.message}" if error else "no reason given"
                    raise fault("server", f"the response failed: {said}")
                elif kind in ("response.completed", "response.incomplete"):
                    response = event.response
                    usage = response.usage.model_dump(exclude_none=True) if response.usage else {}
                    finish = response.status
                    if response.incomplete_details and response.incomplete_details.reason:
                        finish = f"{finish}: {response.incomplete_details.reason}"
                    meta = {"id": response.id, "model": response.model, "status": finish}
                    yield Done(
                        responses_usage(usage) if usage else None,
                        response.model,
                        finish,
                        {**meta, "usage": usage},
                    )
                    return

    def _look_up(self, key: str | None) -> None:
        with openai.OpenAI(
            api_key=key or "no-key",
            base_url=self.spec.base_url,
            max_retries=0,
            timeout=self.spec.timeout("connect"),
        ) as client:
            client.models.retrieve(self.spec.model)

    def _fault(self, exc: BaseException) -> ProviderError | None:
        if isinstance(exc, openai.APITimeoutError):
            return fault("timeout", "the provider did not answer in time")
        if isinstance(exc, openai.APIConnectionError):
            return fault("connection", f"{type(exc).__name__}: {exc}")
        if isinstance(exc, openai.APIStatusError):
            body = exc.body if isinstance(exc.body, dict) else {}
            found = body.get("message")
            said = found if isinstance(found, str) else str(exc.message)
            return status_fault(exc.status_code, said, exc.response.headers)
        if isinstance(exc, openai.APIResponseValidationError):
            return fault("bad-response", f"{type(exc).__name__}: {exc}")
        if isinstance(exc, openai.APIError):  # an error in the stream
            return fault("server", f"error in the stream: {exc.message}")
        if isinstance(exc, openai.OpenAIError):
            return fault("bad-response", f"{type(exc).__name__}: {exc}")
        return None
