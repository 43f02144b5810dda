"""The battle log as a line-based view: the game's words are given once, and a step only moves
how many of them have happened. Lines are wrapped to the width as they are first needed and
cached, so a step costs the new lines' wrapping, never a rewrite of the whole log."""

from __future__ import annotations

from math import ceil

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar
from textual.strip import Strip
from textual.widget import Widget

from pokeview.text import strip_control
from pokeview.widgets.lines import AfterPaint

_BOLD = Style(bold=True)
_DIM = Style(dim=True)
KEPT_ROWS = 2000  # drawn rows kept for the next steps


# Keys belong to the screen; the wheel scrolls.
class BattleLog(AfterPaint, ScrollView, can_focus=False):
    DEFAULT_CSS = """
    BattleLog { height: 1fr; overflow-x: hidden; scrollbar-gutter: stable; }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.source: list[tuple[int, str]] = []  # (turn, words), for the whole game so far
        self.count = 0  # how many of them have happened at the frame shown
        self.turn = 0  # the frame's turn: older turns are dimmed
        self._rows: list[tuple[int, str]] = []  # wrapped rows: (source line, piece of text)
        self._starts: list[int] = []  # first row of each wrapped source line
        self._width = 0
        self._styles: tuple[Style, Style, Style, int] | None = None
        self._strips: dict[tuple[int, Style], Strip] = {}  # drawn rows, by row and style
        # Another side's words, as wrapped and drawn when last shown (s comes back to them).
        self._aside: list[tuple[list, list, list, dict]] = []
        # At the end (as a step leaves it), rows are drawn from the bottom: the paint right
        # after a layout that changes the log's height is right before its scroll catches up.
        self._at_end = True
        self._top = 0  # the first row in view, worked out once per paint
        self._bar_before: list | None = None  # the scroll bar's look before a step moves it

    # -- what the screens call -------------------------------------------------------------

    def show(self, source: list[tuple[int, str]], count: int, turn: int) -> None:
        """Show the first `count` lines of `source` (which only ever grows), newest in view."""
        if source is not self.source:  # another side's words: wrapped when last shown, or now
            self._aside.append((self.source, self._rows, self._starts, self._strips))
            kept = [a for a in self._aside if a[0] is source]
            self._aside = [a for a in self._aside if a[0] is not source][-2:]
            _, self._rows, self._starts, self._strips = kept[0] if kept else (source, [], [], {})
        self.source, self.count, self.turn = source, min(count, len(source)), turn
        # The bar's window and position change by steps of their own: it is repainted once,
        # if it looks any different at the end.
        self._bar_before = before = self._bar_look()
        try:
            self._resize()
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        finally:
            self._bar_before = None
        if before != self._bar_look():
            self.vertical_scrollbar.refresh()
        self._refresh_rows()
        self._changed()

    @property
    def shown(self) -> list[str]:
        """The lines that have happened at the frame shown (for tests and copying)."""
        return [line for _, line in self.source[: self.count]]

    # -- drawing ---------------------------------------------------------------------------

    def _forget(self) -> None:
        self._rows, self._starts = [], []
        self._strips = {}
        self._aside = []

    def _wrap_upto(self, count: int) -> None:
        width = max(10, self.scrollable_content_region.width)
        if width != self._width:
            self._width = width
            self._forget()
        for index in range(len(self._starts), count):
            self._starts.append(len(self._rows))
            text = strip_control(self.source[index][1])
            if len(text) <= width and text.isascii():
                self._rows.append((index, text))
                continue
            for piece in Text(text).wrap(self.app.console, width):
                self._rows.append((index, piece.plain))

    def _row_count(self) -> int:
        if self.count == 0:
            return 0
        self._wrap_upto(self.count)
        return self._starts[self.count - 1] + self._rows_of(self.count - 1)

    def _rows_of(self, index: int) -> int:
        start = self._starts[index]
        end = self._starts[index + 1] if index + 1 < len(self._starts) else len(self._rows)
        return end - start

    def _resize(self) -> None:
        size = Size(self.scrollable_content_region.width, self._row_count())
        if size == self.virtual_size:
            return
        height = self.scrollable_content_region.height
        if (size.height > height) != (self.virtual_size.height > height):
            self.virtual_size = size  # the scroll bar comes or goes: that needs a layout
            return
        # Otherwise the log's own size is set by the layout (1fr), not by its lines: a new
        # virtual size needs no layout of the whole screen (the reactive does one every step).
        self.set_reactive(ScrollView.virtual_size, size)
        self._move_bar(window_virtual_size=size.height, window_size=height)
        self._refresh_rows()

    def _move_bar(self, **values: float) -> None:
        """Set the scroll bar's window and position, repainting it only when its thumb moves
        by a visible amount (a step moves a long log's thumb by a sliver of a cell)."""
        if not self.show_vertical_scrollbar:
            return
        bar = self.vertical_scrollbar
        if "position" in values:
            values["position"] = bar.validate_position(values["position"])
        before = self._bar_before or self._bar_look()
        for name, value in values.items():
            bar.set_reactive(getattr(ScrollBar, name), value)
        if self._bar_before is None and before != self._bar_look():
            bar.refresh()

    def _bar_look(self) -> list | None:
        """The bar as Textual draws it (the thumb's cells and eighths), in default colours."""
        if not self.show_vertical_scrollbar:
            return None
        bar = self.vertical_scrollbar
        virtual, window = bar.window_virtual_size, bar.window_size
        window = ceil(window) if window < virtual else 0
        drawn = bar.renderer.render_bar(
            bar.size.height, ceil(virtual), window, bar.position, bar.thickness
        )
        return drawn.segments

    def _refresh_rows(self) -> None:
        """Repaint the rows, not the border around them (as a scroll of a ScrollView does)."""
        if self.size:
            self.refresh(self.size.region)
        else:
            self.refresh()

    def on_resize(self) -> None:
        self._resize()
        if not self._at_end:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
            return
        # Drawn from the bottom already: only the scroll position and its bar follow.
        end = self.max_scroll_y
        self.set_reactive(Widget.scroll_y, end)
        self.set_reactive(Widget.scroll_target_y, end)
        self._move_bar(position=end)

    def watch_scroll_y(self, old: float, new: float) -> None:
        # ScrollView's, with the bar repainted only when it shows a move.
        self._move_bar(position=new)
        if round(old) != round(new):
            self.refresh(self.size.region)
        self._at_end = new >= self.max_scroll_y  # the wheel took it away from the end, or back

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None

    def render_lines(self, crop):  # noqa: ANN001, ANN201 - Textual's signature
        base = self.rich_style  # worked out once per paint, not once per line
        styles = (base, base + _BOLD, base + _DIM, self.scrollable_content_region.width)
        if styles != self._styles:  # another width or theme: the rows are drawn again
            self._styles = styles
            self._strips.clear()
        self._top = round(self.max_scroll_y) if self._at_end else self.scroll_offset.y
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        self._drawn()
        if self._styles is None:
            base = self.rich_style
            self._styles = (base, base + _BOLD, base + _DIM, self.scrollable_content_region.width)
        base, bold, dim, width = self._styles
        if max(10, width) != self._width:  # wrapped for another width: wrap again and resize
            self._resize()
            self._strips.clear()
        row = self._top + y
        if row >= self._row_count() or row < 0:
            return Strip.blank(width, base)
        index, text = self._rows[row]
        turn, line = self.source[index]
        style = bold if line.startswith("== Turn") else dim if turn < self.turn - 1 else base
        # A step scrolls the log: most rows in view were drawn at the last step, a row up.
        strip = self._strips.get((row, style))
        if strip is None:
            if len(self._strips) > KEPT_ROWS:
                self._strips.clear()
            strip = Strip([Segment(text, style)]).extend_cell_length(width, base)
            self._strips[(row, style)] = strip
        return strip
