"""An OpenAI-compatible chat-completions client with streaming (server-sent events), on httpx.

Reasoning arrives in the fields providers use (`reasoning_content`, `reasoning`, or inside
<think>…</think> in the content); the answer is the rest of the content. Usage is read from the
final chunk when the provider sends it. The API key goes in a header and nowhere else. Every text
that comes back from the provider (error bodies, stream lines, reasoning, answers, the model name)
has the key replaced by *** (in every spelling, see `secrets`) before anything keeps or shows it,
also when the key arrives split across stream chunks; an error in sending the request, whose
text could quote the Authorization header, is kept by its type's name alone.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec
import orjson

from pokeview.players.llm.config import ModelSpec
from pokeview.players.llm.secrets import Scrubber, scrub
from pokeview.players.llm.usage import Usage, parse_usage

OnText = Callable[[str], None]


@dataclass(slots=True)
class Completion:
    content: str
    reasoning: str
    usage: Usage | None
    model: str | None
    latency_ms: float
    first_token_ms: float | None
    finish_reason: str | None


@dataclass(slots=True)
class ProviderError(Exception):
    kind: str  # timeout, rate-limit, server, connection, client, bad-response
    message: str
    retryable: bool
    retry_after: float | None = None

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


@dataclass
class _ThinkSplitter:
    """Routes text between <think> and </think> to reasoning, across chunk boundaries."""

    inside: bool = False
    pending: str = ""
    tags: tuple[str, str] = ("<think>", "</think>")

    def feed(self, text: str) -> tuple[str, str]:
        text = self.pending + text
        self.pending = ""
        content: list[str] = []
        reasoning: list[str] = []
        while text:
            tag = self.tags[1] if self.inside else self.tags[0]
            at = text.find(tag)
            if at < 0:
                # Keep a possible partial tag at the end for the next chunk.
                keep = next((n for n in range(len(tag) - 1, 0, -1) if text.endswith(tag[:n])), 0)
                body, self.pending = (text[:-keep], text[-keep:]) if keep else (text, "")
                (reasoning if self.inside else content).append(body)
                break
            (reasoning if self.inside else content).append(text[:at])
            text = text[at + len(tag) :]
            self.inside = not self.inside
        return "".join(content), "".join(reasoning)

    def flush(self) -> tuple[str, str]:
        rest, self.pending = self.pending, ""
        return ("", rest) if self.inside else (rest, "")


# What is kept of one answer and of one reasoning, in characters. An answer is sent back in every
# later request of the game and stored four times (attempt, answer, conversation, live events):
# PokéBench's answer is two lines, so 64 KiB (~16k tokens) is only ever passed by a runaway model,
# whose megabytes would otherwise be paid for again at each decision. Reasoning is stored, not
# sent back; 256 KiB is ~64k tokens, more than any provider's reasoning summary. Past its cap a
# text keeps its first and last halves (the ACTION line comes last) with a note between.
ANSWER_CAP = 64 * 1024
REASONING_CAP = 256 * 1024


@dataclass
class Capped:
    """A streamed text kept up to `cap` characters: its start as it comes (also passed on live),
    and a rolling end, joined by a note saying how much was cut."""

    cap: int
    what: str  # "answer" or "reasoning", for the note
    head: list[str] = field(default_factory=list)
    head_len: int = 0
    tail: list[str] = field(default_factory=list)
    tail_len: int = 0
    cut: int = 0

    def add(self, text: str) -> str:
        """Keep `text`; return the part of it that may be shown now (within the start)."""
        room = self.cap // 2 - self.head_len
        live = text[: max(room, 0)]
        if live:
            self.head.append(live)
            self.head_len += len(live)
        rest = text[len(live) :]
        if rest:
            self.tail.append(rest)
            self.tail_len += len(rest)
            if self.tail_len > self.cap:  # trimmed in steps, so each character is copied ~twice
                end = "".join(self.tail)[-(self.cap // 2) :]
                self.cut += self.tail_len - len(end)
                self.tail, self.tail_len = [end], len(end)
        return live

    def rest(self) -> str:
        """What `add` held back, for the end of the stream: the note and the end."""
        end = "".join(self.tail)
        if self.tail_len > self.cap // 2:
            self.cut += self.tail_len - self.cap // 2
            end = end[-(self.cap // 2) :]
        if self.cut:
            end = (
                f"\n[… {self.cut:,} characters of this {self.what} cut by pokeview, which keeps "
                f"the first and last {self.cap // 2:,} …]\n{end}"
            )
        self.tail, self.tail_len = [end], len(end)
        return end

    def text(self) -> str:
        return "".join(self.head) + "".join(self.tail)


@dataclass
class ChatClient:
    spec: ModelSpec
    http: httpx.AsyncClient | None = None
    _own: bool = field(default=False, init=False)

    def _client(self) -> httpx.AsyncClient:
        if self.http is None:
            self.http = httpx.AsyncClient(
                timeout=httpx.Timeout(
                    connect=self.spec.timeout("connect"),
                    read=self.spec.timeout("first_token"),
                    write=30.0,
                    pool=30.0,
                )
            )
            self._own = True
        return self.http

    async def aclose(self) -> None:
        if self._own and self.http is not None:
            await self.http.aclose()
            self.http = None

    def body(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.spec.model,
            "messages": messages,
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        if self.spec.reasoning_effort:
            body["reasoning_effort"] = self.spec.reasoning_effort
        body.update(self.spec.extra_body)
        return body

    async def complete(
        self,
        messages: list[dict[str, str]],
        on_reasoning: OnText | None = None,
        on_content: OnText | None = None,
    ) -> Completion:
        key = self.spec.api_key()
        secrets = self.spec.secrets()
        headers = {"Accept": "text/event-stream"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        started = time.perf_counter()
        try:
            async with asyncio.timeout(self.spec.timeout("total")):
                return await self._stream(
                    messages, headers, started, on_reasoning, on_content, secrets
                )
        except ProviderError as exc:
            exc.message = scrub(exc.message, *secrets)  # whatever part of it came from the provider
            raise
        except TimeoutError:
            raise ProviderError(
                "timeout", f"no complete answer in {self.spec.timeout('total'):g} s", True
            ) from None
        except httpx.TimeoutException as exc:
            raise ProviderError(
                "timeout", f"{type(exc).__name__} after waiting for the provider", True
            ) from None
        except (httpx.LocalProtocolError, UnicodeError) as exc:
            # The request itself could not be sent: its text may quote a header, the key's.
            raise ProviderError(
                "client", f"the request could not be sent ({type(exc).__name__})", False
            ) from None
        except (httpx.TransportError, httpx.StreamError) as exc:
            raise ProviderError(
                "connection", scrub(f"{type(exc).__name__}: {exc}", *secrets), True
            ) from None

    async def _stream(
        self, messages, headers, started, on_reasoning, on_content, secrets=()
    ) -> Completion:
        url = f"{self.spec.base_url}/chat/completions"
        async with self._client().stream(
            "POST", url, json=self.body(messages), headers=headers
        ) as resp:
            if resp.status_code != 200:
                raw = (await resp.aread()).decode(errors="replace")
                raise _http_error(resp, scrub(raw, *secrets))
            content, reasoning = Capped(ANSWER_CAP, "answer"), Capped(REASONING_CAP, "reasoning")
            splitter = _ThinkSplitter()
            scrub_said, scrub_think = Scrubber(*secrets), Scrubber(*secrets)
            usage: Usage | None = None
            model = finish = None
            first_token: float | None = None
            async for line in resp.aiter_lines():
                if not line.startswith("data:"):
                    continue
                data = line[5:].strip()
                if data == "[DONE]":
                    break
                chunk = _chunk(data, secrets)
                if chunk.error:
                    raise ProviderError("server", scrub(str(chunk.error), *secrets)[:300], True)
                model = scrub(str(chunk.model or ""), *secrets) or model
                if chunk.usage:
                    usage = parse_usage(chunk.usage)
                for choice in chunk.choices or ():
                    delta = choice.delta or _Delta()
                    finish = scrub(str(choice.finish_reason or ""), *secrets) or finish
                    think = delta.reasoning_content or delta.reasoning or ""
                    if not isinstance(think, str):
                        think = ""
                    said, more_think = splitter.feed(delta.content or "")
                    said, think = scrub_said.feed(said), scrub_think.feed(think + more_think)
                    if (think or said) and first_token is None:
                        first_token = (time.perf_counter() - started) * 1000
                    think, said = reasoning.add(think), content.add(said)
                    if think and on_reasoning:
                        on_reasoning(think)
                    if said and on_content:
                        on_content(said)
            said, think = splitter.flush()
            said = scrub_said.feed(said) + scrub_said.flush()
            think = scrub_think.feed(think) + scrub_think.flush()
            think = reasoning.add(think) + reasoning.rest()
            said = content.add(said) + content.rest()
            if think and on_reasoning:
                on_reasoning(think)
            if said and on_content:
                on_content(said)
            if first_token is None:
                raise ProviderError("bad-response", "the stream ended without an answer", True)
            return Completion(
                content=content.text().strip(),
                reasoning=reasoning.text(),
                usage=usage,
                model=model,
                latency_ms=(time.perf_counter() - started) * 1000,
                first_token_ms=first_token,
                finish_reason=finish,
            )


# A stream chunk as read: a field of the wrong type (`content: 12345`, `choices` an object) is a
# bad response, asked again, not a crash. Reasoning fields stay loose: providers put other things
# there (null, objects), which are skipped.
class _Delta(msgspec.Struct):
    content: str | None = None
    reasoning_content: Any = None
    reasoning: Any = None


class _Choice(msgspec.Struct):
    delta: _Delta | None = None
    finish_reason: Any = None


class _Chunk(msgspec.Struct):
    choices: list[_Choice] | None = None
    usage: Any = None  # read by parse_usage, which takes what has the right shape
    model: Any = None
    error: Any = None


def _chunk(data: str, secrets: tuple[str, ...]) -> _Chunk:
    try:
        return msgspec.convert(orjson.loads(data), _Chunk)
    except orjson.JSONDecodeError:
        said = f"not JSON in the stream: {scrub(data, *secrets)[:80]!r}"
    except msgspec.ValidationError as exc:
        said = f"a stream chunk of the wrong shape: {scrub(str(exc), *secrets)[:200]}"
    raise ProviderError("bad-response", said, True)


def _http_error(resp: httpx.Response, body: str) -> ProviderError:
    code = resp.status_code
    detail = f"HTTP {code}: {body.strip()[:300]}"
    retry_after = None
    if "retry-after" in resp.headers:
        try:
            retry_after = float(resp.headers["retry-after"])
        except ValueError:
            retry_after = None
    if code == 429:
        return ProviderError("rate-limit", detail, True, retry_after)
    if code >= 500:
        return ProviderError("server", detail, True, retry_after)
    return ProviderError("client", detail, False)
