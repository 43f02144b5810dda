"""OpenAI-compatible chat completions: today's client (pokeview/players/llm/provider.py), kept
on httpx as it is.

It is not moved to the openai SDK because this path serves many servers besides OpenAI's
(DeepSeek, OpenRouter, vLLM, llama.cpp, Ollama), each putting reasoning in its own field
(`reasoning_content`, `reasoning`, <think>…</think> in the content) that the SDK's typed chunks
do not declare; the httpx client reads them all, with its tested faults and key scrubbing.
OpenAI's own reasoning models are asked through `api = "responses"` instead.
"""

from __future__ import annotations

from typing import ClassVar

from pokeview.players.llm.provider import ChatClient


class ChatProvider(ChatClient):
    api: ClassVar[str] = "chat"

    def request(self, messages: list[dict[str, str]]) -> dict:
        return self.body(messages)
