"""Token counts as providers report them, of any size and shape, fit the record."""

from __future__ import annotations

import orjson
import pytest

from pokeview.players.llm.usage import (
    MAX_TOKENS,
    anthropic_usage,
    gemini_usage,
    parse_usage,
    responses_usage,
)

HUGE = [1e30, 10**30, float("inf")]


@pytest.mark.parametrize("huge", HUGE)
def test_a_count_past_any_integer_is_clamped_under_every_api(huge):
    used = [
        parse_usage({"prompt_tokens": huge, "completion_tokens": huge}),
        responses_usage({"input_tokens": huge, "output_tokens": huge}),
        anthropic_usage({"input_tokens": huge, "output_tokens": huge}),
        gemini_usage({"prompt_token_count": huge, "candidates_token_count": huge}),
    ]
    for usage in used:
        assert usage is not None and usage.input == MAX_TOKENS
        orjson.dumps(usage.to_json())  # it fits the record (1e30 raised here, in add_decision)


def test_counts_and_details_of_the_wrong_shape_count_as_not_reported():
    usage = parse_usage(
        {
            "prompt_tokens": 100,
            "completion_tokens": -5,
            "prompt_tokens_details": [3],
            "completion_tokens_details": "none",
            "cache_read_input_tokens": True,
        }
    )
    assert usage is not None and (usage.input, usage.cached_input, usage.output) == (100, 0, 0)
    assert parse_usage([1, 2]) is None  # type: ignore[arg-type]
    odd = responses_usage({"input_tokens": 5, "input_tokens_details": [1]})
    assert odd.input == 5 and odd.cached_input == 0
