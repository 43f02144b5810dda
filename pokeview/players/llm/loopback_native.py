"""The loopback stand-in's native APIs: OpenAI's Responses, Anthropic's Messages, Gemini's
streamGenerateContent. Each streams the same scripted reasoning and answer as the chat path
(LoopbackModel.script), in that API's own events, errors and usage fields, faithfully enough that
the official SDKs read it without an error.

Caches, as each provider counts them: Responses and Gemini read the longest prefix of messages
sent before (automatic, inside the input count); Anthropic reads only what a request marks with
`cache_control`: each breakpoint writes the prefix up to it, and a later request reads the
longest written prefix that ends at one of its blocks up to 20 before a breakpoint of its own,
reported outside `input_tokens` as `cache_read_input_tokens` and `cache_creation_input_tokens`.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections import Counter
from typing import Any, Protocol

import orjson


class LoopbackModel(Protocol):
    """What these endpoints use of `loopback.LoopbackModel`, declared here so that the two
    modules import one way only (that one imports this)."""

    calls: Counter[str]
    anthropic_written: set[str]
    faulted: set[str]
    streamed: list[dict[str, Any]]

    def script(self, messages: list[dict[str, Any]], model: str) -> tuple[list[str], str]: ...

    def prefix_cached(self, contents: list[str], scope: str = "") -> int: ...

    async def _plain(
        self, writer: asyncio.StreamWriter, code: int, body: bytes, extra: str = ""
    ) -> None: ...


ANTHROPIC_LOOKBACK = 20  # blocks before a breakpoint at which Anthropic looks for a cache hit
_GEMINI = re.compile(r"/models/([^/:]+):streamGenerateContent$")


def tokens(text: str) -> int:
    return max(1, len(text) // 4)


def native_api(path: str) -> str | None:
    if path.endswith("/responses"):
        return "responses"
    if path.endswith("/messages"):
        return "anthropic"
    if _GEMINI.search(path):
        return "gemini"
    return None


def model_info(path: str) -> tuple[int, bytes]:
    """GET …/models/NAME, as each API answers it: the stand-in serves only loopback* models."""
    gemini = "/v1beta/models/" in path
    api = "gemini" if gemini else "responses"
    name = path.rsplit("/", 1)[-1]
    if "/models/" not in path or not name.startswith("loopback"):
        return 404, _error_body(api, 404, f"model: {name} is not a model this server serves")
    if gemini:
        info: dict[str, Any] = {"name": f"models/{name}", "displayName": name, "version": "1"}
    else:  # OpenAI's and Anthropic's fields, together (each SDK reads its own)
        info = {
            "id": name,
            "object": "model",
            "type": "model",
            "owned_by": "pokeview",
            "created": 0,
            "created_at": "2025-01-01T00:00:00Z",
            "display_name": name,
            "lifecycle": "active",
        }
    return 200, orjson.dumps(info)


def _text(content: Any) -> str:
    """A message's text: a string, or the text of its content blocks or parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return ""


def conversation(api: str, request: dict[str, Any]) -> list[dict[str, str]]:
    """The request as chat messages (role and text), whatever its envelope."""
    if api == "responses":
        system = [{"role": "system", "content": request.get("instructions") or ""}]
        items = request.get("input") or []
        if isinstance(items, str):
            items = [{"role": "user", "content": items}]
        turns = [{"role": i.get("role", "user"), "content": _text(i.get("content"))} for i in items]
        return system + turns
    if api == "anthropic":
        system = [{"role": "system", "content": _text(request.get("system") or "")}]
        turns = [
            {"role": m.get("role", "user"), "content": _text(m.get("content"))}
            for m in request.get("messages") or []
        ]
        return system + turns
    instruction = (request.get("systemInstruction") or {}).get("parts") or []
    system = [{"role": "system", "content": _text(instruction)}]
    turns = [
        {
            "role": "assistant" if c.get("role") == "model" else "user",
            "content": _text(c.get("parts")),
        }
        for c in request.get("contents") or []
    ]
    return system + turns


def anthropic_blocks(request: dict[str, Any]) -> list[tuple[str, bool]]:
    """Every block of the prompt in order (system first), each with whether it is a breakpoint."""
    blocks: list[tuple[str, bool]] = []
    system = request.get("system") or []
    if isinstance(system, str):
        system = [{"type": "text", "text": system}]
    for message in [{"content": system}, *(request.get("messages") or [])]:
        content = message.get("content")
        if isinstance(content, str):
            blocks.append((content, False))
            continue
        for block in content or []:
            blocks.append((str(block.get("text", "")), bool(block.get("cache_control"))))
    return blocks


def anthropic_cache(model: LoopbackModel, request: dict[str, Any]) -> tuple[int, int, int]:
    """(uncached input, cache reads, cache writes) of this request, as Anthropic counts them."""
    blocks = anthropic_blocks(request)
    sizes = [tokens(text) for text, _ in blocks]
    digest = hashlib.sha256(str(request.get("model")).encode() + b"\x00")  # a cache per model
    prefixes = []
    for text, _ in blocks:
        digest.update(text.encode() + b"\x00")
        prefixes.append(digest.copy().hexdigest())
    breakpoints = [i for i, (_, marked) in enumerate(blocks) if marked]
    read_end = 0
    for bp in breakpoints:
        for j in range(bp, max(-1, bp - ANTHROPIC_LOOKBACK), -1):
            if prefixes[j] in model.anthropic_written:
                read_end = max(read_end, j + 1)
                break
    write_end = max(breakpoints, default=-1) + 1
    for bp in breakpoints:
        model.anthropic_written.add(prefixes[bp])
    read = sum(sizes[:read_end])
    write = sum(sizes[read_end:write_end])
    return sum(sizes[max(read_end, write_end) :]), read, write


# -- the wire ------------------------------------------------------------------------------------


class _Wire:
    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer

    async def raw(self, text: str) -> None:
        data = text.encode()
        self.writer.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        await self.writer.drain()

    async def event(self, name: str | None, payload: dict[str, Any]) -> None:
        head = f"event: {name}\n" if name else ""
        await self.raw(f"{head}data: {orjson.dumps(payload).decode()}\n\n")

    async def end(self) -> None:
        self.writer.write(b"0\r\n\r\n")
        await self.writer.drain()


def _error_body(api: str, code: int, message: str) -> bytes:
    if api == "anthropic":
        kind = {
            401: "authentication_error",
            404: "not_found_error",
            429: "rate_limit_error",
            529: "overloaded_error",
        }.get(code, "api_error")
        return orjson.dumps({"type": "error", "error": {"type": kind, "message": message}})
    if api == "gemini":
        status = {
            401: "UNAUTHENTICATED",
            404: "NOT_FOUND",
            429: "RESOURCE_EXHAUSTED",
            503: "UNAVAILABLE",
        }.get(code, "INTERNAL")
        return orjson.dumps({"error": {"code": code, "message": message, "status": status}})
    types = {401: "invalid_request_error", 404: "invalid_request_error", 429: "requests"}
    return orjson.dumps({"error": {"message": message, "type": types.get(code, "server_error")}})


def _key(api: str, headers: dict[str, str]) -> str:
    bearer = headers.get("authorization", "").removeprefix("Bearer ")
    if api == "anthropic":  # x-api-key, or (the SDK's newer versions) a bearer token
        return headers.get("x-api-key") or bearer
    if api == "gemini":
        return headers.get("x-goog-api-key", "")
    return bearer


async def serve_native(
    model: LoopbackModel,
    writer: asyncio.StreamWriter,
    api: str,
    path: str,
    request: dict[str, Any],
    headers: dict[str, str],
) -> None:
    found = _GEMINI.search(path)
    name = found[1] if api == "gemini" and found else str(request.get("model", ""))
    model.calls[f"{api}:{name}"] += 1  # counted apart from the chat path's calls
    calls = model.calls[f"{api}:{name}"]
    messages = conversation(api, request)
    key = _key(api, headers)
    # The faults that happen once per conversation: the retry of the same request then works.
    first_time = True
    if name.endswith("-once"):
        seen = hashlib.sha256(orjson.dumps([api, name, messages])).hexdigest()
        first_time = seen not in model.faulted
        model.faulted.add(seen)

    async def refuse(code: int, message: str, extra: str = "") -> None:
        await model._plain(writer, code, _error_body(api, code, message), extra)

    if not name.startswith("loopback"):
        await refuse(404, f"model: {name} is not a model this server serves")
        return
    if name == "loopback-401":
        await refuse(401, "invalid x-api-key")
        return
    if name == "loopback-429-once" and first_time:
        await refuse(429, "slow down", "Retry-After: 0\r\n")
        return
    if name == "loopback-429-long":
        await refuse(429, "come back in an hour", "Retry-After: 3600\r\n")
        return
    if name == "loopback-overloaded-once" and first_time:
        await refuse(529 if api == "anthropic" else 503, "Overloaded")
        return
    if name == "loopback-echo-key" and calls % 3 == 1:
        await refuse(500, f"no good: {key}")
        return
    writer.write(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
        b"X-Pokeview-Estimated-Tokens: true\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    await writer.drain()
    if name == "loopback-stall":
        await asyncio.sleep(3600)
        return
    reasons, answer = model.script(messages, name)
    if name == "loopback-echo-key":
        half = len(key) // 2
        reasons = [f"my key is {key[:half]}", key[half:]]
        answer += f" Sent with {key}."
    if name == "loopback-slow":
        reasons = [f"step {n}: weighing the options. " for n in range(12)]
    redacted = name == "loopback-redacted"
    # What is streamed to whom, for tests to compare with what was recorded.
    script = {"api": api, "model": name, "reasoning": "".join(reasons), "answer": answer}
    model.streamed.append(script)
    thought = sum(tokens(p) for p in reasons)
    prompt = sum(tokens(m["content"]) for m in messages)
    if api == "anthropic":
        uncached, read, write = anthropic_cache(model, request)
        usage: dict[str, Any] = {"input_tokens": uncached, "read": read, "write": write}
    else:
        usage = {
            "input_tokens": prompt,
            "cached": model.prefix_cached([m["content"] for m in messages], f"{api}:{name}"),
        }
    stream = {"responses": _responses, "anthropic": _anthropic, "gemini": _gemini}[api]
    wire = _Wire(writer)
    fault = None
    if first_time and name.endswith("-once"):
        fault = name.removeprefix("loopback-").removesuffix("-once")
    if name == "loopback-echo-key" and calls % 3 == 2:
        fault = "echo-key"
    if name == "loopback-drop":
        fault = "drop"
    await stream(wire, name, reasons, answer, usage, thought, redacted, fault, key)


async def _middle(wire: _Wire, api: str, fault: str | None, key: str) -> bool:
    """The fault that strikes after the reasoning, if any; True when the stream is to stop."""
    if fault == "error-event":
        if api == "anthropic":
            error = {"type": "overloaded_error", "message": "Overloaded"}
            await wire.event("error", {"type": "error", "error": error})
        elif api == "responses":
            await wire.event(
                "error",
                {
                    "type": "error",
                    "code": "server_error",
                    "message": "The server had an error",
                    "param": None,
                    "sequence_number": 99,
                },
            )
        else:
            await wire.raw(
                "data: "
                + orjson.dumps(
                    {
                        "error": {
                            "code": 503,
                            "message": "The model is overloaded.",
                            "status": "UNAVAILABLE",
                        }
                    }
                ).decode()
                + "\n\n"
            )
        await wire.end()
        return True
    if fault == "bad-body":
        names = {"anthropic": "content_block_delta", "responses": "response.output_text.delta"}
        head = f"event: {names[api]}\n" if api in names else ""
        await wire.raw(f"{head}data: {{this is not json\n\n")
        await wire.end()
        return True
    if fault == "echo-key":
        await wire.raw(f"data: <html>upstream failed for {key}</html>\n\n")
        await wire.end()
        return True
    return fault == "drop"  # the connection closes without the end of the stream


# -- OpenAI's Responses --------------------------------------------------------------------------


async def _responses(wire, name, reasons, answer, usage, thought, redacted, fault, key) -> None:
    seq = iter(range(1_000_000))

    async def send(kind: str, **fields: Any) -> None:
        await wire.event(kind, {"type": kind, "sequence_number": next(seq), **fields})

    response = {
        "id": "resp_loopback",
        "object": "response",
        "created_at": 0,
        "model": name,
        "status": "in_progress",
        "output": [],
        "parallel_tool_calls": False,
        "tool_choice": "auto",
        "tools": [],
    }
    await send("response.created", response=response)
    await send("response.in_progress", response=response)
    summary = "".join(reasons)
    reasoning_item: dict[str, Any] = {"id": "rs_loopback", "type": "reasoning", "summary": []}
    await send("response.output_item.added", output_index=0, item=reasoning_item)
    if not redacted:
        at = {"item_id": "rs_loopback", "output_index": 0, "summary_index": 0}
        await send(
            "response.reasoning_summary_part.added", **at, part={"type": "summary_text", "text": ""}
        )
        for piece in reasons:
            await send("response.reasoning_summary_text.delta", **at, delta=piece)
            if name == "loopback-slow":
                await asyncio.sleep(0.25)
            if fault == "drop":
                return
        await send("response.reasoning_summary_text.done", **at, text=summary)
        await send(
            "response.reasoning_summary_part.done",
            **at,
            part={"type": "summary_text", "text": summary},
        )
        reasoning_item = {**reasoning_item, "summary": [{"type": "summary_text", "text": summary}]}
    else:
        reasoning_item = {**reasoning_item, "encrypted_content": "gAAAA-loopback-sealed"}
    await send("response.output_item.done", output_index=0, item=reasoning_item)
    if await _middle(wire, "responses", fault, key):
        return
    at = {"item_id": "msg_loopback", "output_index": 1, "content_index": 0}
    message: dict[str, Any] = {
        "id": "msg_loopback",
        "type": "message",
        "role": "assistant",
        "status": "in_progress",
        "content": [],
    }
    await send("response.output_item.added", output_index=1, item=message)
    part: dict[str, Any] = {"type": "output_text", "text": "", "annotations": []}
    await send("response.content_part.added", **at, part=part)
    for piece in (answer[: len(answer) // 2], answer[len(answer) // 2 :]):
        await send("response.output_text.delta", **at, delta=piece, logprobs=[])
    await send("response.output_text.done", **at, text=answer, logprobs=[])
    done_part = {**part, "text": answer}
    await send("response.content_part.done", **at, part=done_part)
    message = {**message, "status": "completed", "content": [done_part]}
    await send("response.output_item.done", output_index=1, item=message)
    if fault == "cut":
        await wire.end()
        return
    output = tokens(answer) + thought
    response = {
        **response,
        "status": "completed",
        "output": [reasoning_item, message],
        "usage": {
            "input_tokens": usage["input_tokens"],
            "input_tokens_details": {"cached_tokens": usage["cached"]},
            "output_tokens": output,
            "output_tokens_details": {"reasoning_tokens": thought},
            "total_tokens": usage["input_tokens"] + output,
            "estimated": True,  # characters ÷ 4, not a tokenizer's count: say so
        },
    }
    await send("response.completed", response=response)
    await wire.end()


# -- Anthropic's Messages ------------------------------------------------------------------------


async def _anthropic(wire, name, reasons, answer, usage, thought, redacted, fault, key) -> None:
    counts = {
        "input_tokens": usage["input_tokens"],
        "cache_creation_input_tokens": usage["write"],
        "cache_read_input_tokens": usage["read"],
        "output_tokens": 1,
        "estimated": True,  # characters ÷ 4, not a tokenizer's count: say so
    }
    message = {
        "id": "msg_loopback",
        "type": "message",
        "role": "assistant",
        "model": name,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": counts,
    }
    await wire.event("message_start", {"type": "message_start", "message": message})
    await wire.event("ping", {"type": "ping"})
    if redacted:
        block = {"type": "redacted_thinking", "data": "EmwKAhgBEgy-loopback-sealed"}
        await wire.event(
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": block},
        )
    else:
        block = {"type": "thinking", "thinking": "", "signature": ""}
        await wire.event(
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": block},
        )
        for piece in reasons:
            delta = {"type": "thinking_delta", "thinking": piece}
            await wire.event(
                "content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}
            )
            if name == "loopback-slow":
                await asyncio.sleep(0.25)
            if fault == "drop":
                return
        signature = {"type": "signature_delta", "signature": "EqQBCkYIARgC-loopback"}
        await wire.event(
            "content_block_delta", {"type": "content_block_delta", "index": 0, "delta": signature}
        )
    await wire.event("content_block_stop", {"type": "content_block_stop", "index": 0})
    if await _middle(wire, "anthropic", fault, key):
        return
    text = {"type": "text", "text": ""}
    await wire.event(
        "content_block_start", {"type": "content_block_start", "index": 1, "content_block": text}
    )
    for piece in (answer[: len(answer) // 2], answer[len(answer) // 2 :]):
        delta = {"type": "text_delta", "text": piece}
        await wire.event(
            "content_block_delta", {"type": "content_block_delta", "index": 1, "delta": delta}
        )
    await wire.event("content_block_stop", {"type": "content_block_stop", "index": 1})
    output = tokens(answer) + thought
    await wire.event(
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn", "stop_sequence": None},
            "usage": {
                **counts,
                "output_tokens": output,
                "output_tokens_details": {"thinking_tokens": thought},
            },
        },
    )
    if fault == "cut":
        await wire.end()
        return
    await wire.event("message_stop", {"type": "message_stop"})
    await wire.end()


# -- Gemini's streamGenerateContent --------------------------------------------------------------


async def _gemini(wire, name, reasons, answer, usage, thought, redacted, fault, key) -> None:
    async def chunk(parts: list[dict[str, Any]], **extra: Any) -> None:
        candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
        candidate.update(extra.pop("candidate", {}))
        body = {"candidates": [candidate], "modelVersion": name, "responseId": "loopback", **extra}
        await wire.raw(f"data: {orjson.dumps(body).decode()}\n\n")

    if not redacted:
        for piece in reasons:
            await chunk([{"text": piece, "thought": True}])
            if name == "loopback-slow":
                await asyncio.sleep(0.25)
            if fault == "drop":
                return
    if await _middle(wire, "gemini", fault, key):
        return
    half = len(answer) // 2
    await chunk([{"text": answer[:half]}])
    if fault == "cut":
        await chunk([{"text": answer[half:]}])
        await wire.end()
        return
    metadata = {
        "promptTokenCount": usage["input_tokens"],
        "cachedContentTokenCount": usage["cached"],
        "candidatesTokenCount": tokens(answer),
        "thoughtsTokenCount": thought,
        "totalTokenCount": usage["input_tokens"] + tokens(answer) + thought,
    }
    await chunk(
        [{"text": answer[half:]}], candidate={"finishReason": "STOP"}, usageMetadata=metadata
    )
    await wire.end()
