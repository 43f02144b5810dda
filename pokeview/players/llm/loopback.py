"""A stand-in model provider on loopback: real HTTP, each API's streaming format, scripted answers.

It lets pokeview be tried, demonstrated and tested with no API key and no network. It reads the
legal actions from the last message and answers with one of them (chosen by a hash of the
conversation, so the same conversation gets the same answer), streaming made-up reasoning first.
It is not a model: games against it are labelled as such, and its token counts (characters ÷ 4)
come marked as estimates.

It speaks four APIs, by the path asked: OpenAI-compatible chat completions (`…/chat/completions`),
OpenAI's Responses API (`…/responses`), Anthropic's Messages API (`…/messages`) and Gemini's
streamGenerateContent (`…/models/NAME:streamGenerateContent`), each close enough to the real one
that the official SDK reads it without an error (see loopback_native.py for the three native
ones, with their caches: Anthropic's counted by prefix at the request's cache breakpoints).

The model id picks a behaviour, for tests:
  loopback                  reasoning in `reasoning_content`, usage with cache figures
  loopback-reasoning        reasoning in `reasoning`
  loopback-think            reasoning inside <think>…</think> in the content
  loopback-nousage          no usage reported
  loopback-malformed-once   the first answer of each decision has no ACTION line
  loopback-malformed        never an ACTION line
  loopback-illegal          names action 99 first, then answers properly
  loopback-switch-first     answers the first switch listed when there is one (to meet refusals)
  loopback-429-once         HTTP 429 on the first request, then normal
  loopback-429-long         HTTP 429 with Retry-After: 3600, every time
  loopback-401              HTTP 401 to every request (a rejected key: the game is on autopilot)
  loopback-stall            sends headers, then nothing
  loopback-drop             drops the connection in the middle of the stream
  loopback-slow             streams its reasoning over about three seconds (for live viewing)
  loopback-echo-key         echoes the request's API key back, as a careless or hostile provider
                            might: in an error body, in a stream line that is not JSON, split
                            across reasoning chunks, and in the answer (in turn, per request)
  loopback-echo-key-forms   the same, in the spellings libraries and providers use: repr-escaped
                            (`b'Bearer sk-…'`), URL-encoded, base64 of the key, of `Bearer key`
                            and of Basic auth's `user:key` (in turn, per request)
  loopback-huge-answer      5 MB of answer before its ACTION line, after 1 MB of reasoning
                            (under every API)
  loopback-huge-usage       reports 1e30 prompt and completion tokens (a float past any integer)
  loopback-bad-usage        usage whose details are lists and whose counts are strings, negative
  loopback-bad-chunk-content / -choices / -delta / -choice
                            every other request, a chunk of the wrong shape (`content: 12345`,
                            `choices` an object, `delta` a string, a choice a number), then normal

Under the native APIs only (each fault once per conversation, then a normal answer):
  loopback-overloaded-once  HTTP 529 overloaded_error (Anthropic), 503 (the others)
  loopback-error-event-once an error event in the middle of the stream
  loopback-bad-body-once    a stream line that is not JSON
  loopback-cut-once         the whole answer, then the stream ends before its last event
  loopback-redacted         the reasoning comes encrypted or redacted, with no text
  any name not starting with "loopback": HTTP 404, model not found
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import re
import threading
import urllib.parse
from collections import Counter
from typing import Any

import orjson

from pokeview.players.llm.loopback_native import model_info, native_api, serve_native
from pokeview.players.llm.loopback_native import tokens as _tokens

_ACTION_LINE = re.compile(r"^(\d+)\. (.+)$", re.MULTILINE)
# What loopback-bad-chunk-* sends instead of a chunk's choices.
_BAD_CHUNKS: dict[str, dict[str, Any]] = {
    "bad-chunk-content": {"choices": [{"index": 0, "delta": {"content": 12345}}]},
    "bad-chunk-choices": {"choices": {"index": 0, "delta": {"content": "ACTION: 1"}}},
    "bad-chunk-delta": {"choices": [{"index": 0, "delta": "ACTION: 1"}]},
    "bad-chunk-choice": {"choices": [7]},
}


class LoopbackModel:
    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host, self.port = host, port
        self.server: asyncio.AbstractServer | None = None
        self.calls: Counter[str] = Counter()
        self.requests: list[dict[str, Any]] = []  # chat bodies received, for tests
        self.native_requests: list[tuple[str, dict[str, Any]]] = []  # (api, body)
        self.headers: list[dict[str, str]] = []
        self._seen: set[str] = set()
        self.anthropic_written: set[str] = set()  # prefixes written to "Anthropic's" cache
        self.faulted: set[str] = set()  # conversations a -once fault has struck
        self.streamed: list[dict[str, Any]] = []  # native APIs: each stream's script, for tests
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    async def start(self) -> LoopbackModel:
        self.server = await asyncio.start_server(self._serve, self.host, self.port)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        if self.server:
            self.server.close()
            await self.server.wait_closed()

    def start_in_thread(self) -> LoopbackModel:
        """Serve from a background thread (for a CLI process that runs its own event loop)."""
        ready = threading.Event()
        loop = asyncio.new_event_loop()

        def run() -> None:
            asyncio.set_event_loop(loop)  # this thread's
            loop.run_until_complete(self.start())
            ready.set()
            loop.run_forever()
            # Stopped: the server and its connections closed, then the loop, whose descriptors
            # would otherwise stay open for as long as the process (a test run: hundreds).
            if self.server is not None:
                self.server.close()
            pending = asyncio.all_tasks(loop)
            for task in pending:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.close()

        self._thread = threading.Thread(target=run, daemon=True, name="loopback-model")
        self._thread.start()
        ready.wait(10)
        return self

    def stop_thread(self) -> None:
        """Stop a server started with start_in_thread (its port is free afterwards)."""
        thread, self._thread = self._thread, None
        if thread is None or self.server is None:
            return
        self.server.get_loop().call_soon_threadsafe(self.server.get_loop().stop)
        thread.join(10)

    # -- HTTP ----------------------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method, path, _ = lines[0].split(" ", 2)
            pairs = (line.split(":", 1) for line in lines[1:] if ":" in line)
            headers = {k.strip().lower(): v.strip() for k, v in pairs}
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            route = path.split("?", 1)[0]
            if method == "GET":
                code, found = model_info(route)
                await self._plain(writer, code, found)
                return
            api = native_api(route)
            if method != "POST" or (api is None and not route.endswith("/chat/completions")):
                await self._plain(writer, 404, b'{"error": "not found"}')
                return
            request = orjson.loads(body)
            self.headers.append(headers)
            if api is None:
                self.requests.append(request)
                await self._complete(writer, request, headers)
            else:
                self.native_requests.append((api, request))
                await serve_native(self, writer, api, route, request, headers)
        except (asyncio.IncompleteReadError, ConnectionError, ValueError):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def _plain(
        self, writer: asyncio.StreamWriter, code: int, body: bytes, extra: str = ""
    ) -> None:
        reasons = {
            200: "OK",
            401: "Unauthorized",
            404: "Not Found",
            429: "Too Many Requests",
            529: "Overloaded",
        }
        reason = reasons.get(code, "Error")
        writer.write(
            f"HTTP/1.1 {code} {reason}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n{extra}Connection: close\r\n\r\n".encode()
            + body
        )
        await writer.drain()

    async def _chunk(self, writer: asyncio.StreamWriter, payload: dict[str, Any] | str) -> None:
        data = payload if isinstance(payload, str) else orjson.dumps(payload).decode()
        event = f"data: {data}\n\n".encode()
        writer.write(f"{len(event):x}\r\n".encode() + event + b"\r\n")
        await writer.drain()

    # -- the "model" ---------------------------------------------------------------------------

    async def _complete(
        self, writer: asyncio.StreamWriter, request: dict[str, Any], headers: dict[str, str]
    ) -> None:
        model = request.get("model", "loopback")
        self.calls[model] += 1
        calls = self.calls[model]
        messages = request.get("messages", [])
        if model == "loopback-401":
            body = b'{"error": {"message": "Incorrect API key provided"}}'
            await self._plain(writer, 401, body)
            return
        if model == "loopback-429-once" and calls == 1:
            await self._plain(writer, 429, b'{"error": "slow down"}', "Retry-After: 0\r\n")
            return
        if model == "loopback-429-long":
            await self._plain(
                writer, 429, b'{"error": "come back in an hour"}', "Retry-After: 3600\r\n"
            )
            return
        key = headers.get("authorization", "").removeprefix("Bearer ")
        if model == "loopback-echo-key" and calls % 3 == 1:
            await self._plain(writer, 500, f'{{"error": "no good: {key}"}}'.encode())
            return
        forms = _key_forms(key)
        if model == "loopback-echo-key-forms" and calls % 3 == 1:
            said = f"Illegal header value {forms['bytes']}; retry with ?key={forms['url']}"
            await self._plain(writer, 500, orjson.dumps({"error": said}))
            return
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
            b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        )
        await writer.drain()
        if model == "loopback-stall":
            await asyncio.sleep(3600)
            return
        reasons, answer = self.script(messages, model)
        base = {"id": "loopback", "object": "chat.completion.chunk", "model": model}
        if model == "loopback-think":  # tags split across chunks, as real streams split them
            text = "<think>" + "".join(reasons) + "</think>"
            pieces = [text[:4], text[4:30], text[30:-3], text[-3:]]
            deltas = [{"content": piece} for piece in pieces]
        else:
            field = "reasoning" if model == "loopback-reasoning" else "reasoning_content"
            deltas = [{field: piece} for piece in reasons]
        if model == "loopback-slow":
            deltas = [{"reasoning_content": f"step {n}: weighing the options. "} for n in range(12)]
        if model.startswith("loopback-bad-chunk-") and calls % 2 == 1:
            await self._chunk(writer, {**base, "choices": [{"index": 0, "delta": deltas[0]}]})
            await self._chunk(writer, {**base, **_BAD_CHUNKS[model.removeprefix("loopback-")]})
            return
        if model == "loopback-echo-key":
            half = len(key) // 2
            deltas = [{"reasoning_content": f"my key is {key[:half]}"}, {"reasoning": key[half:]}]
            answer += f" Sent with {key}."
            if calls % 3 == 2:
                for delta in deltas:
                    await self._chunk(writer, {**base, "choices": [{"index": 0, "delta": delta}]})
                await self._chunk(writer, f"<html>upstream failed for {key}</html>")
                return
        if model == "loopback-echo-key-forms":
            bearer = forms["bearer64"]
            deltas = [
                {"reasoning_content": f"my header was {bearer[:9]}"},
                {"reasoning_content": f"{bearer[9:]}, or {forms['url_plus']} in a query"},
            ]
            answer += f" Basic {forms['basic64']}, {forms['repr']}, {forms['key64']}."
            if calls % 3 == 2:
                for delta in deltas:
                    await self._chunk(writer, {**base, "choices": [{"index": 0, "delta": delta}]})
                await self._chunk(writer, f"upstream failed: {forms['repr']} {forms['basic64']}")
                return
        for delta in deltas:
            if model == "loopback-slow":
                await asyncio.sleep(0.25)
            await self._chunk(writer, {**base, "choices": [{"index": 0, "delta": delta}]})
            if model == "loopback-drop":
                return  # the connection closes without the end of the stream
        half = max(len(answer) // 2, 1)
        step = min(half, 65_536)
        for part in (answer[n : n + step] for n in range(0, len(answer), step)):
            await self._chunk(
                writer, {**base, "choices": [{"index": 0, "delta": {"content": part}}]}
            )
        await self._chunk(
            writer, {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
        )
        if model != "loopback-nousage":
            prompt = sum(_tokens(m.get("content", "")) for m in messages)
            # Like a provider's prompt cache: the longest prefix sent before is read from cache.
            cached = self.prefix_cached([m.get("content", "") for m in messages])
            reasoning = sum(_tokens(p) for p in reasons)
            usage = {
                "prompt_tokens": prompt,
                "completion_tokens": reasoning + _tokens(answer),
                "total_tokens": prompt + reasoning + _tokens(answer),
                "prompt_tokens_details": {"cached_tokens": cached},
                "completion_tokens_details": {"reasoning_tokens": reasoning},
                "estimated": True,  # characters ÷ 4, not a tokenizer's count: say so
            }
            if model == "loopback-huge-usage":
                usage.update(prompt_tokens=1e30, completion_tokens=1e30, total_tokens=2e30)
            if model == "loopback-bad-usage":
                usage.update(
                    prompt_tokens="12", completion_tokens=-5, prompt_tokens_details=[cached]
                )
                usage["completion_tokens_details"] = "none"
            await self._chunk(writer, {**base, "choices": [], "usage": usage})
        await self._chunk(writer, "[DONE]")
        writer.write(b"0\r\n\r\n")
        await writer.drain()

    def script(self, messages: list[dict[str, Any]], model: str) -> tuple[list[str], str]:
        """The reasoning pieces and the answer for this conversation (the same under every API)."""
        last = messages[-1]["content"] if messages else ""
        actions = _ACTION_LINE.findall(last) or _last_actions(messages)
        pick = self._pick(messages, actions, model)
        reasons = [
            f"I have {len(actions)} legal actions. ",
            "Weighing the matchup on the board, ",
            f"I will go with {pick[1] if pick else 'the first one'}.",
        ]
        answer_number = pick[0] if pick else "1"
        opening = last.startswith(("BATTLE LOG", "NEW EVENTS", "Showdown refused"))
        if model == "loopback-malformed" or (model == "loopback-malformed-once" and opening):
            answer = "I think the best move is the strong one."
        elif model == "loopback-illegal" and not last.startswith("Your answer"):
            answer = "ACTION: 99\nREASON: Trying something that is not listed."
        else:
            answer = f"ACTION: {answer_number}\nREASON: It looks like the best option here."
        if model == "loopback-huge-answer":  # a runaway model: megabytes, then its answer
            filler = "The board is complicated and I keep thinking about it. "
            reasons += [filler * 1200] * 16
            answer = filler * 90_000 + "\n" + answer
        return reasons, answer

    def prefix_cached(self, contents: list[str], scope: str = "") -> int:
        """Tokens of the longest prefix of these messages sent before (an automatic cache; one
        per scope)."""
        hit = max(
            (k for k in range(1, len(contents)) if scope + "\x00".join(contents[:k]) in self._seen),
            default=0,
        )
        self._seen.add(scope + "\x00".join(contents))
        return sum(_tokens(c) for c in contents[:hit])

    def _pick(self, messages: list[dict[str, Any]], actions: list[tuple[str, str]], model: str):
        if not actions:
            return None
        if model == "loopback-switch-first":
            switches = [a for a in actions if a[1].startswith("switch ")]
            if switches:
                return switches[0]
        moves = [a for a in actions if a[1].startswith("move ") and "Terastallize" not in a[1]]
        options = moves or actions
        digest = hashlib.sha256("".join(m.get("content", "") for m in messages).encode()).digest()
        return options[digest[0] % len(options)]


def _key_forms(key: str) -> dict[str, str]:
    """The spellings of a key loopback-echo-key-forms sends back."""
    b64 = base64.b64encode
    return {
        "bytes": repr(f"Bearer {key}".encode()),
        "repr": repr(key),
        "url": urllib.parse.quote(key, safe=""),
        "url_plus": urllib.parse.quote_plus(key),
        "key64": b64(key.encode()).decode(),
        "bearer64": b64(f"Bearer {key}".encode()).decode(),
        "basic64": b64(f"pokeview:{key}".encode()).decode(),
    }


def _last_actions(messages: list[dict[str, Any]]) -> list[tuple[str, str]]:
    for message in reversed(messages):
        found = _ACTION_LINE.findall(message.get("content", ""))
        if found and message.get("role") == "user":
            return found
    return []
