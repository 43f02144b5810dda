"""A model decision's time in the decision pane (the site's game page: tests/unit/
test_site_decision_time.py): the time spent
waiting between retries was left out. A decision put on autopilot after 30 s of failed
connections and backoff read "0.1 s" (its attempts' own time), while `s/dec` in the ratings
counted the 30 s."""

from __future__ import annotations

import io

from rich.console import Console

from pokeview.game.decision import detail_from_data
from pokeview.store.store import DecisionRow

FAILED = {"status": "error", "error": "connection: ConnectError: refused", "latency_ms": 1.5}


def decision(model_ms: float, decision_ms: float) -> DecisionRow:
    detail = {
        "model": "m",
        "attempts": [{**FAILED, "n": 0, "retry": n} for n in range(5)],
        "autopilot": "connection: ConnectError: refused",
        "model_latency_ms": model_ms,
        "decision_ms": decision_ms,
    }
    actions = ["move Surf", "switch Pelipper"]
    return DecisionRow(
        1, 1, "p1", 0, 1, {}, actions, 0, "move 1", "autopilot", [],
        detail_from_data(detail), "", decision_ms,
    )  # fmt: skip


def pane_text(row: DecisionRow) -> str:
    from pokeview.widgets.decision_pane import DecisionPane

    console = Console(width=120, record=True, file=io.StringIO())
    for part in DecisionPane()._parts(row, "llm:m", conversation=None):
        console.print(part)
    return console.export_text()


def test_the_pane_says_the_time_retries_waited():
    text = pane_text(decision(85.4, 30111.4))
    assert "0.1 s (30.1 s with retries)" in text, text


def test_a_decision_with_no_wait_shows_one_time():
    text = pane_text(decision(1200.0, 1240.0))
    assert "1.2 s" in text and "with retries" not in text, text
