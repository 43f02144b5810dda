"""The Pokéval diff view: both logs side by side, opened at the first wrong line."""

from __future__ import annotations

from textual.widgets import DataTable, Static

from pokeview import pokeval
from pokeview.app import make_app
from pokeview.screens.diff import DiffScreen
from tests.helpers import pokeval_example, settle, text_of


async def test_the_diff_view_opens_each_battle_at_its_first_wrong_line(bridge, tmp_path):
    case, printed = pokeval_example()
    refused = dict(case, id="refused", choices=[dict(c) for c in case["choices"]])
    refused["choices"][3]["p2"] = "move 1"  # a switch is due: Showdown refuses the choice
    reference, stops = await pokeval.showdown_graded_logs([case, refused], bridge)
    cid = case["id"]
    # The engine departs at one damage figure, line 48: 31 against the printed 39 HP.
    changed = printed[:47] + ["|-damage|p1a: Omanyte|31/210 brn"] + printed[48:]
    results = [
        pokeval.compare(cid, reference[cid], changed),
        pokeval.compare("agrees", reference[cid], printed),
        pokeval.compare("refused", reference["refused"], printed),
        pokeval.compare("[b]evil[/]", reference[cid], ["[bold red]x[/] [/ \x1b[2J\x07"]),
    ]
    app = make_app(tmp_path / "x.db", lambda: DiffScreen(results, stops))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, DiffScreen))
        screen = app.screen
        score = text_of(screen.query_one("#score", Static))
        assert "score 40.2: 35 of 87 turns matched" in score, score
        lines = screen.query_one("#lines", DataTable)
        # The cursor sits on line 48, where the damage figures part: 31 against 39 HP.
        assert lines.cursor_row == 47
        row = [str(cell) for cell in lines.get_row_at(47)]
        assert row == [
            "≠ ",
            "48",
            "|-damage|p1a: Omanyte|39/210 brn",
            "|-damage|p1a: Omanyte|31/210 brn",
        ]
        assert str(lines.get_row_at(46)[0]) == "  "  # the line before agrees
        full = text_of(screen.query_one("#full", Static))
        assert "Showdown   48  |-damage|p1a: Omanyte|39/210 brn" in full
        assert "engine     48  |-damage|p1a: Omanyte|31/210 brn" in full
        # Scrolled so that the wrong line sits mid-view, the lines before it in sight.
        half = lines.scrollable_content_region.height // 2
        await settle(pilot, lambda: abs((47 - lines.scroll_y) - half) <= 2)
        where = text_of(screen.query_one("#where", Static))
        assert "first wrong line 48; 5 of 28 turns matched" in where
        assert "stopped" not in where
        await pilot.press("n")
        await settle(pilot, lambda: screen.current == 1)
        assert "all 207 lines agree (28 turns)" in text_of(screen.query_one("#where", Static))
        assert all(str(lines.get_row_at(i)[0]) == "  " for i in range(lines.row_count))
        await pilot.press("n")  # Showdown refused a recorded choice: the view says where
        await settle(pilot, lambda: screen.current == 2)
        where = text_of(screen.query_one("#where", Static))
        assert "Showdown stopped at choice line 10 (>p2 move 1)" in where
        assert "You need a switch response" in where
        await pilot.press("n")  # an engine's text is shown literally, markup and all
        await settle(pilot, lambda: screen.current == 3)
        assert str(lines.get_row_at(0)[3]) == "[bold red]x[/] [/ [2J"
        assert "[b]evil[/]" in text_of(screen.query_one("#where", Static))
        await pilot.press("p", "p", "p")
        await settle(pilot, lambda: screen.current == 0 and lines.cursor_row == 47)
