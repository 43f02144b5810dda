"""Steps show drawings made ahead of time and repaint only the lines that changed: what is
painted must be what drawing the frame afresh paints."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widgets import Static

from pokeview.app import make_app
from pokeview.screens.watch import WatchScreen
from pokeview.widgets.battle_log import BattleLog
from pokeview.widgets.board import Board
from pokeview.widgets.decision_pane import DecisionPane
from pokeview.widgets.lines import Lines
from tests.helpers import ready


def painted(widget: Lines) -> list[str]:
    return [widget.render_line(y).text for y in range(widget.size.height)]


async def test_each_frame_shows_what_drawing_it_afresh_shows(recorded_db):
    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 3, "p1"))  # decisions of all sizes
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        board, pane = screen.query_one(Board), screen.query_one(DecisionPane)
        keys = ["full_stop"] * (len(screen.frames) - 1) + ["comma"] * 3 + ["s", "s", "comma", "s"]
        for key in keys:
            await pilot.press(key)
            await pilot.pause()  # the drawings ahead are made now
            shown = (painted(board), painted(pane), board.border_title)
            board.forget()
            pane.forget()
            screen.shown_decision = None
            screen.refresh_view()
            await pilot.pause()
            assert (painted(board), painted(pane), board.border_title) == shown, (key, screen.view)


class OneLines(App[None]):
    def compose(self) -> ComposeResult:
        yield Lines(id="lines")


async def test_lines_redraws_what_changed_and_keeps_drawings_by_key():
    app = OneLines()
    async with app.run_test(size=(30, 10)) as pilot:
        lines = app.query_one(Lines)
        lines.update(Text("one\ntwo\nthree"))
        await pilot.pause()
        assert painted(lines) == ["one", "two", "three"] and lines.painted
        lines.update(Text("one\nTWO\nthree"))
        assert not lines.painted  # a line changed: a repaint is due
        await pilot.pause()
        assert painted(lines)[1] == "TWO" and lines.painted
        lines.update(Text("one\nTWO\nthree\nfour"))  # taller: laid out again
        await pilot.pause()
        assert lines.size.height == 4 and painted(lines)[3] == "four"

        made = []

        def make(words: str):
            made.append(words)
            return Text(words)

        lines.prepare("a", lambda: make("drawn ahead"))
        lines.show_drawn("a", lambda: make("drawn again"))
        await pilot.pause()
        assert made == ["drawn ahead"] and painted(lines) == ["drawn ahead"]
        lines.forget()  # what the key names has changed
        lines.show_drawn("a", lambda: make("new words"))
        await pilot.pause()
        assert painted(lines) == ["new words"]
        await pilot.resize_terminal(20, 10)  # another width: drawn again
        lines.show_drawn("a", lambda: make("at 20 columns"))
        await pilot.pause()
        assert painted(lines) == ["at 20 columns"]


class LogBelow(App[None]):
    CSS = "BattleLog { border: round $primary; padding: 0 1; }"  # as in the battle column

    def compose(self) -> ComposeResult:
        yield Static("one line", id="above")
        yield BattleLog(id="log")


async def test_the_log_shows_its_newest_rows_in_the_paint_after_its_height_changes():
    app = LogBelow()
    async with app.run_test(size=(40, 14)) as pilot:
        log = app.query_one(BattleLog)
        log.show([(1, f"line {n}") for n in range(30)], 30, 1)
        await pilot.pause()

        def bottom_row() -> str:
            outer = log.outer_size
            return log.render_lines(Region(0, 0, outer.width, outer.height))[-2].text

        assert "line 29" in bottom_row()
        for above in ("1\n2\n3\n4\n5", "one line"):  # the log gets shorter, then taller
            app.query_one("#above", Static).update(above)
            # The layout the next paint makes, before the log has heard of its new size.
            app.screen._refresh_layout()
            assert "line 29" in bottom_row(), above
            await pilot.pause()
            assert "line 29" in bottom_row() and log.scroll_y == log.max_scroll_y


async def test_the_log_scroll_bar_is_repainted_when_its_thumb_moves():
    app = LogBelow()
    async with app.run_test(size=(40, 14)) as pilot:
        log = app.query_one(BattleLog)
        lines = [(1, f"line {n}") for n in range(40)]
        for count in (40, 39, 38, 20, 14, 40):  # the thumb grows and shrinks
            log.show(lines, count, 1)
            await pilot.pause()
            bar = log.vertical_scrollbar
            region = Region(0, 0, bar.outer_size.width, bar.outer_size.height)
            painted = bar.render_lines(region)
            bar.refresh()  # drawn afresh
            assert painted == bar.render_lines(region), count
