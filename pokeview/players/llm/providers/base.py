"""One small interface for every model API: a provider streams reasoning and answer deltas, then
one final event with the usage and the provider's own metadata of the response.

What is the same under every API lives here, once: the key (read from its variable, sent by the
API's own client, scrubbed out of every text that comes back, also across deltas), the time to
the first token, the decision's total timeout, and the rule that a stream which stops before its
last event is a failure (retried like any other), never a short answer. Each API only turns the
conversation into its request and its stream into `Reasoning`, `Answer`, `Redacted` and `Done`,
and says which of its client's exceptions is which of pokeview's fault kinds.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

import httpx
import httpx2
import orjson

from pokeview.errors import PokeviewError
from pokeview.players.llm.config import ModelSpec
from pokeview.players.llm.provider import (
    ANSWER_CAP,
    REASONING_CAP,
    Capped,
    Completion,
    OnText,
    ProviderError,
)
from pokeview.players.llm.secrets import Scrubber
from pokeview.players.llm.secrets import scrub as _scrub

# What the record and the screen show where a provider returned its reasoning encrypted or
# redacted: never an empty reasoning, which would read as "the model did not think".
REDACTED = "(reasoning redacted by the provider)"
NOT_TEXT = "[{what}]"  # the plain marker for what an envelope holds that is not text


@dataclass(slots=True)
class Reasoning:
    text: str


@dataclass(slots=True)
class Answer:
    text: str


@dataclass(slots=True)
class Redacted:
    """Reasoning the provider sent encrypted or redacted (it exists; its text is not shown)."""


@dataclass(slots=True)
class Done:
    usage: Any  # pokeview's Usage, or None when the provider reported none
    model: str | None = None
    finish_reason: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)  # the provider's, as it sent them


Event = Reasoning | Answer | Redacted | Done


@dataclass(slots=True)
class NativeCompletion(Completion):
    """A completion with what a native API said about it besides the text."""

    metadata: dict[str, Any] = field(default_factory=dict)
    redacted: bool = False


def fault(kind: str, message: str, retry_after: float | None = None) -> ProviderError:
    """A ProviderError with pokeview's rule for what is worth trying again."""
    return ProviderError(kind, message, kind != "client", retry_after)


def retry_after(headers: Any) -> float | None:
    try:
        value = headers.get("retry-after") if headers is not None else None
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def status_fault(code: int, message: str, headers: Any = None) -> ProviderError:
    """An HTTP status as pokeview's fault kinds (the same rule as the chat path's)."""
    detail = f"HTTP {code}: {message.strip()[:300]}"
    if code == 429:
        return fault("rate-limit", detail, retry_after(headers))
    if code in (408, 409) or code >= 500:  # 529: Anthropic's "overloaded"
        return fault("server", detail, retry_after(headers))
    return fault("client", detail)


def transport_fault(exc: BaseException) -> ProviderError | None:
    """httpx2's own exceptions (what an SDK lets through unwrapped), or None."""
    if isinstance(exc, httpx2.TimeoutException):
        return fault("timeout", f"{type(exc).__name__} after waiting for the provider")
    if isinstance(exc, httpx2.TransportError | httpx2.StreamError):
        return fault("connection", f"{type(exc).__name__}: {exc}")
    return None


def scrub_data(value: Any, *secrets: str | None) -> Any:
    """A JSON-like value with the secrets replaced in every string in it."""
    if not any(secrets):
        return value
    return orjson.loads(_scrub(orjson.dumps(value, default=str).decode(), *secrets))


def http_client(spec: ModelSpec) -> httpx2.AsyncClient:
    """The HTTP client an SDK is given, with pokeview's timeouts: connect, then first_token for
    every read (the first token, and every gap in the stream after it). A request hook puts them
    on every request, whatever timeout the SDK would have set on its own."""
    timeout = httpx2.Timeout(
        connect=spec.timeout("connect"), read=spec.timeout("first_token"), write=30.0, pool=30.0
    )

    async def ours(request: httpx2.Request) -> None:
        request.extensions = {**request.extensions, "timeout": timeout.as_dict()}

    return httpx2.AsyncClient(timeout=timeout, event_hooks={"request": [ours]})


def _connect_failure(exc: BaseException) -> BaseException | None:
    """The failure to connect at the root of `exc` (nothing listens on the port, the host does
    not resolve, no connection within the connect timeout), or None."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(
            seen,
            httpx.ConnectError | httpx.ConnectTimeout | httpx2.ConnectError | httpx2.ConnectTimeout,
        ):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def refuse_unreachable(spec: ModelSpec, exc: BaseException) -> None:
    """One line when `exc` says nothing answers at the player's base_url: a mistyped address
    would otherwise be retried at every decision and played on autopilot, silently, for as long
    as a whole game."""
    cause = _connect_failure(exc)
    if cause is not None:
        detail = _scrub(f"{type(cause).__name__}: {cause}", *spec.secrets())
        raise PokeviewError(
            f"player '{spec.name}': nothing answers at {spec.shown_url} ({detail}); "
            "check its base_url"
        ) from None


def check_reachable(spec: ModelSpec) -> None:
    """A chat endpoint has no models endpoint to ask for sure: any HTTP answer at its base_url
    will do (no key is sent)."""
    try:
        httpx.get(spec.base_url, timeout=spec.timeout("connect"))
    except Exception as exc:
        refuse_unreachable(spec, exc)


class Provider:
    """One model API. Subclasses give `request`, `_events` and `_fault`."""

    api: ClassVar[str]

    def __init__(self, spec: ModelSpec) -> None:
        self.spec = spec
        self._http: httpx2.AsyncClient | None = None

    def http(self) -> httpx2.AsyncClient:
        if self._http is None:
            self._http = http_client(self.spec)
        return self._http

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    def request(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        """The request's body for this conversation, as the API's client is given it."""
        raise NotImplementedError

    def _events(self, request: dict[str, Any], key: str | None) -> AsyncIterator[Event]:
        raise NotImplementedError

    def _fault(self, exc: BaseException) -> ProviderError | None:
        """This API's client's exception as a fault kind, or None when it is not one of them."""
        raise NotImplementedError

    def _look_up(self, key: str | None) -> None:
        """Ask the API about the model (its models endpoint: free, and it checks the key too)."""
        raise NotImplementedError

    def check_model(self) -> None:
        """Before any game: a model name or key the provider refuses, or an address where
        nothing answers, is one line naming the player, and nothing is played. A provider that
        answers slowly or with a server error now is let be (the game's own retries and
        autopilot are for that)."""
        key = self.spec.api_key()
        try:
            self._look_up(key)
        except Exception as exc:
            refuse_unreachable(self.spec, exc)
            mapped = self._fault(exc) or transport_fault(exc)
            if mapped is not None and mapped.kind == "client":
                raise PokeviewError(
                    f"player '{self.spec.name}': model: {self.spec.api} API refused model "
                    f"'{self.spec.model}': {_scrub(mapped.message, key)}"
                ) from None

    async def complete(
        self,
        messages: list[dict[str, str]],
        on_reasoning: OnText | None = None,
        on_content: OnText | None = None,
    ) -> Completion:
        key = self.spec.api_key()
        secrets = self.spec.secrets()  # the key, and credentials written into base_url
        started = time.perf_counter()
        total = self.spec.timeout("total")
        try:
            async with asyncio.timeout(total):
                return await self._run(messages, key, started, on_reasoning, on_content)
        except ProviderError as exc:
            exc.message = _scrub(exc.message, *secrets)
            raise
        except TimeoutError:
            raise fault("timeout", f"no complete answer in {total:g} s") from None
        except Exception as exc:
            mapped = self._fault(exc) or transport_fault(exc)
            if mapped is None:
                # An exception no rule knows is still the provider's fault, not a crash.
                mapped = fault("bad-response", f"{type(exc).__name__}: {exc}")
            mapped.message = _scrub(mapped.message, *secrets)
            raise mapped from None

    async def _run(self, messages, key, started, on_reasoning, on_content) -> NativeCompletion:
        secrets = self.spec.secrets()
        # kept up to their caps, as on the chat path (see provider.ANSWER_CAP)
        content, reasoning = Capped(ANSWER_CAP, "answer"), Capped(REASONING_CAP, "reasoning")
        scrub_said, scrub_think = Scrubber(*secrets), Scrubber(*secrets)
        first_token: float | None = None
        done: Done | None = None
        redacted = False

        def said(text: str, into: Capped, scrubber: Scrubber, on: OnText | None) -> None:
            nonlocal first_token
            text = scrubber.feed(text)
            if not text:
                return
            if first_token is None:
                first_token = (time.perf_counter() - started) * 1000
            text = into.add(text)
            if text and on:
                on(text)

        async for event in self._events(self.request(messages), key):
            if isinstance(event, Reasoning):
                said(event.text, reasoning, scrub_think, on_reasoning)
            elif isinstance(event, Answer):
                said(event.text, content, scrub_said, on_content)
            elif isinstance(event, Redacted):
                redacted = True
            else:
                done = event
        for into, scrubber, on in (
            (reasoning, scrub_think, on_reasoning),
            (content, scrub_said, on_content),
        ):
            rest = into.add(scrubber.flush()) + into.rest()
            if rest and on:
                on(rest)
        if done is None:
            raise fault("bad-response", "the stream ended before its last event")
        if not content.text():
            raise fault("bad-response", "the stream ended without an answer")
        if redacted and not reasoning.text().strip():
            reasoning.add(REDACTED)
            if on_reasoning:
                on_reasoning(REDACTED)
        return NativeCompletion(
            content=content.text().strip(),
            reasoning=reasoning.text(),
            usage=done.usage,
            model=_scrub(done.model, *secrets) if done.model else None,
            latency_ms=(time.perf_counter() - started) * 1000,
            first_token_ms=first_token,
            finish_reason=_scrub(done.finish_reason, *secrets) if done.finish_reason else None,
            metadata=scrub_data(done.metadata, *secrets),
            redacted=redacted,
        )
