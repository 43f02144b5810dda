"""The decision pane shows what the search player considered, literally."""

from __future__ import annotations

from pokeview.game.decision import detail_from_data
from pokeview.store.store import DecisionRow


def test_the_decision_pane_shows_what_the_search_considered_literally():
    import io

    from rich.console import Console

    from pokeview.widgets.decision_pane import DecisionPane

    detail = {
        "search": {
            "budget": "200 ms",
            "depth": 1,
            "nodes": 37,
            "samples": 1,
            "elapsed_ms": 198.4,
            "considered": [
                {"action": "move [red]Surf[/red]", "value": 0.412, "weight": 0.75},
                {"action": "switch Pelipper", "value": -0.1, "weight": 0.25},
            ],
        }
    }
    row = DecisionRow(
        1,
        1,
        "p1",
        0,
        1,
        {},
        ["move [red]Surf[/red]", "switch Pelipper"],
        0,
        "move 1",
        "chosen",
        [],
        detail_from_data(detail),
        "",
        1.0,
    )
    pane = DecisionPane()
    console = Console(width=120, record=True, file=io.StringIO())
    for part in pane._parts(row, "search", conversation=None):
        console.print(part)
    text = console.export_text()
    assert "considered" in text and "budget 200 ms · 37 nodes" in text
    assert "+0.412   75%  move [red]Surf[/red]" in text
