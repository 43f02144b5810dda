"""The prompt inspector and `pokeview prompt --decision`: a forced switch is reachable, the
inspector opens at its decision, steps decision by decision and marks every match."""

from __future__ import annotations

from pokeview.app import make_app
from pokeview.players.llm.conversation import conversation, format_conversation
from pokeview.screens.prompt import PromptScreen
from pokeview.store import open_store
from tests.helpers import pokeview, text_of


def two_decisions_in_one_turn(db) -> tuple[int, str, int]:
    """(game, side, index) of a decision that shares its turn with the one before it."""
    store = open_store(db)
    try:
        for game in store.games():
            for side in ("p1", "p2"):
                decisions = store.decisions(game.id, side)
                for a, b in zip(decisions, decisions[1:], strict=False):
                    if a.turn == b.turn:
                        return game.id, side, b.idx
    finally:
        store.close()
    raise AssertionError("no forced switch in the recorded games")


def test_decision_n_reaches_the_second_decision_of_a_turn(recorded_db):
    game_id, side, index = two_decisions_in_one_turn(recorded_db)
    db = ["--db", str(recorded_db), "--side", side]
    by_decision = pokeview("prompt", str(game_id), "--decision", str(index + 1), *db)
    assert by_decision.returncode == 0, by_decision.stderr
    store = open_store(recorded_db)
    expected = format_conversation(conversation(store, game_id, side, index))
    store.close()
    assert by_decision.stdout == expected
    too_far = pokeview("prompt", str(game_id), "--decision", "999", *db)
    assert too_far.returncode == 2 and "--decision takes 1 to" in too_far.stderr
    assert len(too_far.stderr.strip().splitlines()) == 1


async def loaded(pilot, screen: PromptScreen, header: str) -> None:
    for _ in range(150):
        await pilot.pause(0.02)
        if header in text_of(screen.query_one("#head")) and screen.text:
            return
    raise AssertionError(f"the inspector did not show {header!r}")


async def test_the_inspector_opens_at_the_decision_steps_and_marks_matches(recorded_db):
    app = make_app(recorded_db, lambda: PromptScreen(recorded_db, 3, "p1", 4))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await loaded(pilot, screen, "decision 5 of")
        head = text_of(screen.query_one("#head"))
        assert "game 3" in head and "llm:loopback (p1)" in head and "turn " in head
        area = screen.query_one("#text")
        row = area.cursor_location[0]
        assert area.document.get_line(row).startswith("━━ user · decision 5,")
        assert area.scroll_y > 0  # not at the system prompt
        await pilot.press("full_stop")
        await loaded(pilot, screen, "decision 6 of")
        await pilot.press("comma", "comma")
        await loaded(pilot, screen, "decision 4 of")
        await pilot.press("slash", *"legal", "enter")
        count = screen.text.lower().count("legal")
        marks = [mark for row in area._highlights.values() for mark in row]
        assert len(marks) == count > 1 and sum(m[2] == "current" for m in marks) == 1
        assert f"match 1 of {count}" in text_of(screen.query_one("#where"))
        await pilot.press("ctrl+end")
        await pilot.pause()
        assert area.scroll_y == area.max_scroll_y > 0
