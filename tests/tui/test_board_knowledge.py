"""The board shows what each side knows, at the frame it learns it (issue 31)."""

from __future__ import annotations

from functools import partial

from pokeview.app import make_app
from pokeview.screens.watch import WatchScreen
from pokeview.widgets.board import Board
from tests.helpers import ready, text_of


async def at_turn(pilot, screen, turn: int) -> str:  # noqa: ANN001
    """The board's text at the view's first frame of `turn`."""
    screen.position = screen.replay.position_of_turn(screen.view, turn)
    await pilot.pause()
    return text_of(screen.query_one(Board))


def block(board: str, heading: str) -> str:
    """The lines of the board from `heading` to the next side's heading (or the end)."""
    lines = board.splitlines()
    start = next(n for n, line in enumerate(lines) if heading in line)
    end = next(
        (n for n in range(start + 1, len(lines)) if "(you)" in lines[n] or "(as seen" in lines[n]),
        len(lines),
    )
    return "\n".join(lines[start:end])


def has_line(text: str, line: str) -> bool:
    """A line of its own (a side's conditions), not a word in one (the move Spikes)."""
    return any(row.strip() == line for row in text.splitlines())


async def test_lugias_heal_block_and_leech_seed_at_their_frames(recorded_db):
    """loopback-test-model-vs-heuristic: Heal Block starts in turn 6 and ends in turn 7;
    Leech Seed starts in turn 8 (the issue's case)."""
    app = make_app(recorded_db, partial(WatchScreen, recorded_db, 3, "p1"))
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        turn7 = block(await at_turn(pilot, screen, 7), "heuristic (as seen)")
        assert "Lugia" in turn7 and "Heal Block" in turn7 and "Leech Seed" not in turn7
        turn9 = block(await at_turn(pilot, screen, 9), "heuristic (as seen)")
        assert "Leech Seed" in turn9 and "Heal Block" not in turn9


async def test_item_ability_types_and_pp_known_for_own_revealed_for_the_foe(recorded_db):
    app = make_app(recorded_db, partial(WatchScreen, recorded_db, 2, "p1"))
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        first = await at_turn(pilot, screen, 1)
        foe, me = block(first, "(as seen)"), block(first, "(you)")
        assert "Ghost/Fairy · item unknown · ability unknown" in foe  # Mimikyu: nothing shown
        assert "Ground/Steel (Tera Ground) · Leftovers · Mold Breaker" in me
        assert "Earthquake 16/16" in me
        second = await at_turn(pilot, screen, 2)
        foe, me = block(second, "(as seen)"), block(second, "(you)")
        assert "Life Orb · ability unknown" in foe  # revealed by its recoil in turn 1
        assert "Drain Punch (1 used)" in foe  # PP it was seen to use
        assert "Earthquake 15/16" in me
        foe = block(await at_turn(pilot, screen, 5), "(as seen)")
        assert "Life Orb · Disguise" in foe  # its Disguise broke in turn 4


async def test_side_conditions_under_their_side_and_the_weather_with_turns(recorded_db):
    """Spikes are on p2's side: under p2's team from p1's view (the foe's) and from p2's
    (its own); Snow with the turns it may have left."""
    app = make_app(recorded_db, partial(WatchScreen, recorded_db, 1, "p1"))
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        board = await at_turn(pilot, screen, 10)
        assert has_line(block(board, "max-damage (as seen)"), "Spikes")
        assert not has_line(block(board, "heuristic (you)"), "Spikes")
        await pilot.press("s")
        board = await at_turn(pilot, screen, 10)
        assert has_line(block(board, "max-damage (you)"), "Spikes")
        assert not has_line(block(board, "heuristic (as seen)"), "Spikes")
    app = make_app(recorded_db, partial(WatchScreen, recorded_db, 3, "p1"))
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        assert "Weather Snow 4–7 turns" in await at_turn(pilot, screen, 19)
