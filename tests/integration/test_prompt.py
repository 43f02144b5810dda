"""PokéBench's prompt, version 3, reproduced: exact bytes where the seed gives them."""

from __future__ import annotations

from pokeview.players.llm import prompt
from tests.helpers import game, pokebench_example, shapes

# -- shapes: a real seeded game's messages line up with the seed's examples ----------------------


async def test_a_seeded_game_gives_messages_shaped_like_the_examples(bridge, store):
    from pokeview.players.llm.record import side_updates

    result = await game(bridge, store, "heuristic", "max-damage", text="prompt-shapes")
    updates = side_updates(store, result.game_id, "p1")
    first = prompt.decision_message(updates, 0)
    assert shapes(first) == shapes(pokebench_example("first-message.txt"))
    later_example = shapes(pokebench_example("turn6-message.txt"))
    points = prompt.decision_points(updates)
    later = [prompt.decision_message(updates, p.index) for p in points[1:]]
    turn_starts = [m for m in later if not m.split("\n\nSTATE NOW")[0].endswith("fainted!")]
    # Every later message has the example's structure (bench/also lines and actions vary only).
    for message in later:
        assert shapes(message)[:1] == ["heading"] and "STATE NOW (turn " in message
        assert message.endswith(prompt.CLOSING)
    assert any(shapes(m) == later_example for m in turn_starts)
