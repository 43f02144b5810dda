"""Google's Gemini API (generateContent, streamed), through the official SDK (google-genai).

Thought summaries are asked for (`thinkingConfig.includeThoughts`) and arrive as parts marked
`thought: true`; thinking tokens counted with no thought text shown are recorded as reasoning
redacted by the provider. Caching is implicit: `promptTokenCount` includes
`cachedContentTokenCount`, as pokeview counts it; thinking tokens are billed as output beside
`candidatesTokenCount`, so pokeview's output is their sum.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from google import genai
from google.genai import errors, types

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
from pokeview.players.llm.usage import gemini_usage


class GeminiProvider(Provider):
    api = "gemini"

    def __init__(self, spec) -> None:
        super().__init__(spec)
        self._client: genai.Client | None = None
        self._streaming = False

    def client(self, key: str | None) -> genai.Client:
        if self._client is None:
            self._client = genai.Client(
                vertexai=False,
                api_key=key or "no-key",  # explicit, so the SDK reads no variable of its own
                http_options=types.HttpOptions(
                    base_url=self.spec.base_url,
                    # No retry_options: the SDK tries once; pokeview's retries are the one policy.
                    httpx_async_client=self.http(),
                    extra_body=self.spec.extra_body or None,
                ),
            )
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aio.aclose()
            self._client = None
        await super().aclose()

    def request(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        thinking: dict[str, Any] = {"include_thoughts": True}
        if self.spec.thinking_budget is not None:
            thinking["thinking_budget"] = self.spec.thinking_budget
        elif self.spec.reasoning_effort:
            thinking["thinking_level"] = self.spec.reasoning_effort.upper()
        config: dict[str, Any] = {
            "system_instruction": "\n\n".join(
                m["content"] for m in messages if m["role"] == "system"
            ),
            "thinking_config": thinking,
        }
        if self.spec.max_tokens:
            config["max_output_tokens"] = self.spec.max_tokens
        return {
            "model": self.spec.model,
            "contents": [
                {
                    "role": "model" if m["role"] == "assistant" else "user",
                    "parts": [{"text": m["content"]}],
                }
                for m in messages
                if m["role"] != "system" and m["content"]
            ],
            "config": config,
        }

    async def _events(self, request: dict[str, Any], key: str | None) -> AsyncIterator[Event]:
        self._streaming = False
        stream = await self.client(key).aio.models.generate_content_stream(**request)
        self._streaming = True  # an error from here on came in the stream, not as its status
        usage: dict[str, Any] = {}
        finish: str | None = None
        model: str | None = None
        thought = False
        estimated = False
        async for chunk in stream:
            model = chunk.model_version or model
            # Gemini's usage has no field to say a count is an estimate: the stand-in says so
            # in a header (its counts are characters ÷ 4).
            headers = chunk.sdk_http_response.headers if chunk.sdk_http_response else None
            estimated = estimated or (headers or {}).get("x-pokeview-estimated-tokens") == "true"
            if chunk.usage_metadata:
                usage = chunk.usage_metadata.model_dump(exclude_none=True, mode="json")
            for candidate in chunk.candidates or ():
                if candidate.finish_reason:
                    finish = str(candidate.finish_reason.value)
                for part in (candidate.content.parts if candidate.content else None) or ():
                    if part.thought:
                        thought = True
                        if part.text:
                            yield Reasoning(part.text)
                    elif part.text:
                        yield Answer(part.text)
        if finish is None:  # Gemini's last chunk says why it stopped; without it, it was cut
            return
        if not thought and usage.get("thoughts_token_count"):
            yield Redacted()
        meta = {"model": model, "finish_reason": finish, "usage": usage}
        counted = gemini_usage({**usage, "estimated": estimated}) if usage else None
        yield Done(counted, model, finish, meta)

    def _look_up(self, key: str | None) -> None:
        options = types.HttpOptions(
            base_url=self.spec.base_url, timeout=int(self.spec.timeout("connect") * 1000)
        )
        client = genai.Client(vertexai=False, api_key=key or "no-key", http_options=options)
        try:
            client.models.get(model=self.spec.model)
        finally:
            client.close()

    def _fault(self, exc: BaseException) -> ProviderError | None:
        if isinstance(exc, errors.APIError):
            headers = getattr(getattr(exc, "response", None), "headers", None)
            said = f"{exc.status or ''} {exc.message or exc.details}".strip()
            if self._streaming:
                said = f"error in the stream: {said}"
            return status_fault(int(exc.code or 500), said, headers)
        if isinstance(exc, errors.UnknownApiResponseError):
            return fault("bad-response", f"not JSON in the stream: {str(exc)[:120]}")
        return None  # httpx2's own exceptions are mapped by the base
