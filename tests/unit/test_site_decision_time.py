"""A model decision's time on the site's game page, as in the terminal's decision pane
(tests/tui/test_decision_time.py): the waits between retries were left out, so a decision on
autopilot after 30 s of failed connections and backoff read "0.1 s"."""

from __future__ import annotations

from pokeview.game.decision import detail_from_data
from pokeview.site.game import Written, facts
from pokeview.site.prompt_text import PromptText


def detail(model_ms: float, decision_ms: float):
    return detail_from_data(
        {"model": "m", "model_latency_ms": model_ms, "decision_ms": decision_ms}
    )


def test_the_game_page_says_the_time_retries_waited():
    said = facts(detail(85.4, 30111.4), "p1", Written(PromptText([], {})))
    assert "0.1 s (30.1 s with retries)" in said, said


def test_a_decision_with_no_wait_shows_one_time():
    said = facts(detail(1200.0, 1240.0), "p1", Written(PromptText([], {})))
    assert "1.2 s" in said and "with retries" not in said, said
