"""`pokeview report`'s small helpers (the page in a real headless browser: tests/integration)."""

from __future__ import annotations

import pytest

from pokeview.ratings.report import move_name, pearson


def test_small_helpers():
    assert move_name("move Earthquake + Terastallize (Ground)") == "Earthquake"
    assert move_name("switch Garchomp") is None
    assert pearson([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0)
    assert pearson([1, 2], [1, 2]) is None  # fewer than three points: not defined
