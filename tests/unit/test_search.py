"""The search player's specs: a bad one is one line (its games on the bridge: tests/integration)."""

from __future__ import annotations

import pytest

from pokeview.errors import PokeviewError
from pokeview.players import make_player


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("search:foo=1", "unknown search parameter 'foo'"),
        ("search:ms=0", "ms=0 is out of range"),
        ("search:ms=600000", "out of range"),
        ("search:nodes=-5", "out of range"),
        ("search:depth=9", "out of range"),
        ("search:ms=abc", "whole number"),
        ("search:ms", "needs a value"),
        ("search:ms=100,nodes=10", "one budget"),
        ("search:cpu=100,ms=10", "one budget"),
        ("search:cpu=0", "out of range"),
    ],
)
def test_bad_search_specs_are_one_line(spec, words):
    with pytest.raises(PokeviewError) as info:
        make_player(spec)
    assert words in str(info.value) and "\n" not in str(info.value)
