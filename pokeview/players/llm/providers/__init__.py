"""The model APIs a player can be asked through, one provider each (the interface: base.py)."""

from __future__ import annotations

from typing import Any

from pokeview.players.llm.config import ModelSpec


def make_provider(spec: ModelSpec) -> Any:
    """The provider of the API the player names (chat, responses, anthropic, gemini)."""
    if spec.api == "anthropic":
        from pokeview.players.llm.providers.anthropic import AnthropicProvider

        return AnthropicProvider(spec)
    if spec.api == "responses":
        from pokeview.players.llm.providers.responses import ResponsesProvider

        return ResponsesProvider(spec)
    if spec.api == "gemini":
        from pokeview.players.llm.providers.gemini import GeminiProvider

        return GeminiProvider(spec)
    from pokeview.players.llm.providers.chat import ChatProvider

    return ChatProvider(spec)
