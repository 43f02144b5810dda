"""The Pokémon detail panel (issue 31): picked by keys and by a click on the team row, it shows
what the viewing side knows of a Pokémon, and for a foe's its possible abilities and random-battle
sets, never anything that side could not know."""

from __future__ import annotations

from functools import partial

import pytest

from pokeview.app import make_app
from pokeview.screens.watch import WatchScreen
from pokeview.widgets.board import Board
from pokeview.widgets.pokemon_detail import PokemonDetail
from tests.helpers import ready, text_of


def row(panel: str, name: str) -> str:
    """The panel's row `name` (its first line)."""
    return next(line for line in panel.splitlines() if line.startswith(name))


async def at_turn(pilot, screen, turn: int) -> None:  # noqa: ANN001
    screen.position = screen.replay.position_of_turn(screen.view, turn)
    await pilot.pause()


@pytest.mark.parametrize("size", [(120, 36), (80, 24)])
async def test_the_foes_active_pokemon_by_keys_with_what_it_could_be(recorded_db, size):
    app = make_app(recorded_db, partial(WatchScreen, recorded_db, 3, "p1"))
    async with app.run_test(size=size) as pilot:
        screen = await ready(pilot)
        await at_turn(pilot, screen, 9)
        await pilot.press("i")  # the foe's active Pokémon first
        panel_widget = screen.query_one(PokemonDetail)
        assert panel_widget.parent.display
        panel = text_of(panel_widget)
        assert panel.startswith("Lugia L73 (p2, as seen)")
        assert row(panel, "Item").split()[1:] == ["unknown"]  # Heavy-Duty Boots, not revealed
        assert "unknown — possible: Pressure, Multiscale" in row(panel, "Ability")
        assert row(panel, "Moves seen").split()[2:] == [
            "Aeroblast",
            "(7",
            "used)",
        ]  # not Calm Mind...
        assert "Leech Seed" in row(panel, "Now")
        assert "Possible random-battle sets" in panel
        assert "Bulky Setup: Aeroblast, Calm Mind, Earth Power" in panel.replace("\n", " ")
        assert "Stats" not in panel and "254/275" not in panel  # the foe's figures are hidden
        await pilot.press("right_square_bracket")  # the next: the own active Pokémon
        panel = text_of(panel_widget)
        assert panel.startswith("Revavroom L79 (p1, you)")
        assert row(panel, "Item").split()[1:] == ["Life", "Orb"]
        assert row(panel, "Ability").split()[1:] == ["Filter"]
        assert "atk 234" in row(panel, "Stats")
        assert "Possible random-battle sets" not in panel
        await pilot.press("left")  # another turn: the panel follows the frame
        assert screen.frames[screen.position].turn == 8
        assert "Revavroom" in text_of(panel_widget)
        await pilot.press("i")
        assert not panel_widget.parent.display


def slot_at(board: Board, word: str, skip: str = "▶") -> tuple[int, int]:
    """Where `word` is drawn on screen in the board's team row (not on an active line)."""
    region = board.content_region
    for y in range(board.size.height):
        text = board.render_line(y).text
        if word in text and not text.lstrip().startswith(skip) and "·" not in text:
            return region.x + text.index(word) + 1, region.y + y
    raise AssertionError(f"{word} not on the board")


async def test_a_pokemon_by_a_click_on_its_slot(recorded_db):
    app = make_app(recorded_db, partial(WatchScreen, recorded_db, 3, "p1"))
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await at_turn(pilot, screen, 9)
        board = screen.query_one(Board)
        await pilot.click(offset=slot_at(board, "Gothitel"))  # benched: only in the row
        assert board.selected == ("bottom", "Gothitelle")
        panel = text_of(screen.query_one(PokemonDetail))
        assert panel.startswith("Gothitelle L90 (p1, you)")
        assert "HP 272/272" in panel
        # A foe's slot: what p1 saw of it, and its sets from the pinned Showdown's data.
        await pilot.click(offset=slot_at(board, "Lugia PAR"))
        assert board.selected == ("top", "Lugia")
        assert "Possible random-battle sets" in text_of(screen.query_one(PokemonDetail))


async def test_the_panel_while_playing(tmp_path, bridge):
    from pokeview.screens.play import PlayScreen
    from tests.tui.test_play import until

    db = tmp_path / "play.db"
    app = make_app(db, partial(PlayScreen, db, opponent="random", seed_text="panel-1"))
    async with app.run_test(size=(120, 36)) as pilot:
        screen = app.screen
        await until(pilot, lambda: screen.ctx is not None, "a decision")
        await pilot.press("i")
        panel = text_of(screen.query_one(PokemonDetail))
        assert "(p2, as seen)" in panel.splitlines()[0], panel
        assert row(panel, "Item").split()[1:] == ["unknown"]  # nothing revealed yet
        assert "Possible random-battle sets" in panel
        await pilot.press("right_square_bracket")
        panel = text_of(screen.query_one(PokemonDetail))
        assert "(p1, you)" in panel.splitlines()[0] and "Stats" in panel
