"""How a conversation is shown as it was sent under each API (`pokeview prompt`, the prompt
inspector): the text is PokéBench's, the same under every API; the envelope names the system
prompt and the model's turns as that API does, and marks plainly what is not text (Anthropic's
cache breakpoints)."""

from __future__ import annotations

from typing import Any

# What each API calls the system prompt and the model's turns.
ROLES = {
    "responses": {"system": "instructions"},
    "anthropic": {"system": "system"},
    "gemini": {"system": "system_instruction", "assistant": "model"},
}
CACHE_BREAKPOINT = "[cache breakpoint]"


def envelope(described: dict[str, Any], messages: list[Any]) -> list[Any]:
    """The messages of one request (conversation.Message), with the API's role names and
    markers; the settings are the player's as recorded (`describe()`)."""
    api = described.get("api") or "chat"
    if api not in ROLES:
        return messages
    for m in messages:
        m.role = ROLES[api].get(m.role, m.role)
    if api == "anthropic" and described.get("cache_control") is not False:
        # Each request marks the system prompt and its newest user message.
        users = [m for m in messages if m.role == "user"]
        for m in [m for m in messages if m.role == "system"] + users[-1:]:
            m.marker = CACHE_BREAKPOINT
    return messages
