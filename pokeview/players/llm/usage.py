"""Token usage as providers report it, and its cost at the players file's prices."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any


@dataclass(slots=True)
class Usage:
    input: int = 0  # all input tokens, cached ones included
    cached_input: int = 0
    cache_write: int = 0
    output: int = 0  # reasoning included, as providers bill it
    reasoning: int = 0
    # Counted by the provider from text length, not by a tokenizer: pokeview's loopback test
    # model says so in its usage ("estimated": true). Shown as an estimate wherever shown.
    estimated: bool = False

    def __add__(self, other: Usage) -> Usage:
        counts = [f.name for f in fields(self) if f.name != "estimated"]
        summed = {name: getattr(self, name) + getattr(other, name) for name in counts}
        return Usage(**summed, estimated=self.estimated or other.estimated)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = asdict(self)
        if not self.estimated:
            del data["estimated"]  # real counts are stored as they always were
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Usage | None:
        return cls(**data) if data else None


# A provider's count is kept up to this (a billion tokens, far past any request's): 1e30 or 2**70
# reported by a broken or hostile provider would not fit the record's integers.
MAX_TOKENS = 10**9


def astuple(u: Usage) -> tuple[int, ...]:
    return (u.input, u.cached_input, u.cache_write, u.output, u.reasoning)


def token_count(value: Any) -> int:
    """A token count as reported: a number (not a bool, not NaN), clamped to 0..MAX_TOKENS."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return 0
    return int(min(max(value, 0), MAX_TOKENS))


def details(value: Any) -> dict[str, Any]:
    """A usage's details object, or {} when it is of another shape (a list, a string)."""
    return value if isinstance(value, dict) else {}


def parse_usage(raw: Any) -> Usage | None:
    """OpenAI's usage object and the common variants (Anthropic- and DeepSeek-style fields);
    a field of the wrong shape counts as not reported."""
    if not raw or not isinstance(raw, dict):
        return None
    prompt = token_count(raw.get("prompt_tokens") or raw.get("input_tokens"))
    in_details = details(raw.get("prompt_tokens_details") or raw.get("input_tokens_details"))
    cached = token_count(in_details.get("cached_tokens"))
    cached = (
        cached
        or token_count(raw.get("cache_read_input_tokens"))
        or token_count(raw.get("prompt_cache_hit_tokens"))
    )
    write = token_count(in_details.get("cache_write_tokens")) or token_count(
        raw.get("cache_creation_input_tokens")
    )
    if "cache_read_input_tokens" in raw and "prompt_tokens" not in raw:
        prompt += cached + write  # Anthropic counts cache reads and writes outside input_tokens
    output = token_count(raw.get("completion_tokens") or raw.get("output_tokens"))
    out_details = details(raw.get("completion_tokens_details") or raw.get("output_tokens_details"))
    reasoning = token_count(out_details.get("reasoning_tokens"))
    prompt = min(prompt, MAX_TOKENS)  # Anthropic's sum, too
    return Usage(prompt, cached, write, output, reasoning, estimated=raw.get("estimated") is True)


# Each native API's usage object, read here rather than beside its provider, so that reading
# counts needs none of the SDKs (importing anthropic's alone takes seconds).


def responses_usage(raw: dict[str, Any]) -> Usage:
    """OpenAI's Responses API."""
    cached = details(raw.get("input_tokens_details")).get("cached_tokens") or 0
    reasoning = details(raw.get("output_tokens_details")).get("reasoning_tokens") or 0
    return Usage(
        input=token_count(raw.get("input_tokens") or 0),  # cached tokens included, as OpenAI counts
        cached_input=token_count(cached),
        output=token_count(raw.get("output_tokens") or 0),
        reasoning=token_count(reasoning),
        estimated=raw.get("estimated") is True,
    )


def anthropic_usage(raw: dict[str, Any]) -> Usage:
    """Anthropic's Messages API."""
    read = token_count(raw.get("cache_read_input_tokens") or 0)
    write = token_count(raw.get("cache_creation_input_tokens") or 0)
    out = details(raw.get("output_tokens_details"))
    return Usage(
        input=token_count(raw.get("input_tokens") or 0) + read + write,  # Anthropic's are outside
        cached_input=read,
        cache_write=write,
        output=token_count(raw.get("output_tokens") or 0),
        reasoning=token_count(out.get("thinking_tokens") or 0),
        estimated=raw.get("estimated") is True,
    )


def gemini_usage(raw: dict[str, Any]) -> Usage:
    """Gemini's generateContent."""
    thoughts = token_count(raw.get("thoughts_token_count") or 0)
    return Usage(
        input=token_count(raw.get("prompt_token_count") or 0),  # cached tokens included
        cached_input=token_count(raw.get("cached_content_token_count") or 0),
        output=token_count(raw.get("candidates_token_count") or 0) + thoughts,
        reasoning=thoughts,
        estimated=raw.get("estimated") is True,
    )


def cost(usage: Usage | None, prices: dict[str, float]) -> float | None:
    """USD, or None when unknown: no usage, or a price needed for it is missing (never 0)."""
    if usage is None:
        return None
    parts = [
        ("input", usage.input - usage.cached_input - usage.cache_write),
        ("cached_input", usage.cached_input),
        ("cache_write", usage.cache_write),
        ("output", usage.output),
    ]
    total = 0.0
    for key, tokens in parts:
        if tokens <= 0:
            continue
        if key not in prices:
            return None
        total += tokens * prices[key] / 1_000_000
    return total
