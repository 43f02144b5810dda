"""A Static that draws its content once and repaints only the lines that changed.

A step of the replay changes a few lines of the board (an HP bar, a status) and of the decision
pane (its head, the chosen action). A Static draws its whole content twice per change (once to
measure its height, once to paint), and the screen repaints all of it, laying it out again
whenever `layout=True`. Here a change is drawn once, laid out only when its height changes, and
repainted line by line; content shown under a key is kept drawn, and can be drawn ahead in idle
time (`prepare`), so that stepping to it costs no drawing at all."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from textual.geometry import Region, Size
from textual.strip import Strip
from textual.visual import Visual, VisualType, visualize
from textual.widget import Widget
from textual.widgets import Static

KEPT = 16  # drawings kept per widget: the frames around the one shown


class AfterPaint:
    """For a widget: whether its last change is on screen yet, and work to do once it is (the
    idle time after a paint is when to draw ahead without delaying what a key shows)."""

    painted = True
    _after_paint: Callable[[], object] | None = None

    def _changed(self) -> None:
        self.painted = False

    def _drawn(self) -> None:  # from render_line: Textual is painting the widget
        self.painted = True
        then = self._after_paint
        if then is not None:
            self._after_paint = None
            # (a mixin for widgets: the Widget's own method)
            self.call_after_refresh(then)  # type: ignore[attr-defined]

    def after_paint(self, callback: Callable[[], object]) -> None:
        """Call `callback` once the widget's last change is painted (at once if it is)."""
        if self.painted:
            callback()
        else:
            self._after_paint = callback


@dataclass(slots=True)
class _Drawing:
    content: VisualType
    strips: list[Strip]
    drawn_for: tuple[int, object]  # (width, the widget's visual style)


class Lines(AfterPaint, Static):
    def __init__(self, content: VisualType = "", *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(content, id=id)
        self.set_reactive(Widget.auto_links, False)  # no links in what the screens show
        self._source: VisualType = content
        self._visual: Visual | None = None
        self._strips: list[Strip] | None = None  # the content drawn for `_drawn_for`
        self._drawn_for: tuple[int, object] | None = None
        self._drawings: OrderedDict[Hashable, _Drawing] = OrderedDict()

    @property
    def content(self) -> VisualType:
        return self._source

    @content.setter
    def content(self, content: VisualType) -> None:
        self.update(content)

    @property
    def visual(self) -> Visual:
        if self._visual is None:
            self._visual = visualize(self, self._source, markup=self._render_markup)
        return self._visual

    def render(self) -> Visual:
        return self.visual

    # -- showing -----------------------------------------------------------------------------

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        """Show `content` (`layout` is for Static's signature: the height decides)."""
        self._show(content, None)

    def show_drawn(self, key: Hashable, make: Callable[[], VisualType]) -> None:
        """Show what `make()` builds, drawn once per `key` (which must name that content
        fully): content shown or prepared before under the key is not built or drawn again."""
        drawing = self._drawing(key)
        if drawing is None:
            self.update(make())
            if self._strips is not None and self._drawn_for is not None:
                self._keep(key, _Drawing(self._source, self._strips, self._drawn_for))
        else:
            self._show(drawing.content, drawing)

    def prepare(self, key: Hashable, make: Callable[[], VisualType]) -> bool:
        """Draw what `make()` builds for `key` now (in idle time), to be shown later at once.
        True when that took any drawing (not drawn already)."""
        width = self.size.width
        if width <= 0 or self._drawing(key) is not None:
            return False
        content = make()
        style = self.visual_style
        visual = visualize(self, content, markup=self._render_markup)
        strips = Visual.to_strips(self, visual, width, None, style)
        self._keep(key, _Drawing(content, strips, (width, style)))
        return True

    def forget(self) -> None:
        """Drop what was drawn ahead (the content under the keys has changed)."""
        self._drawings.clear()

    def set_title(self, title: str) -> None:
        """The border title, repainting only the border's row (the descriptor repaints all)."""
        new = self.render_str(title).expand_tabs(4).split()[0]  # as Widget.border_title does
        if self._border_title is not None and new == self._border_title:
            return
        self._border_title = new
        offset = self.content_offset
        self.refresh(Region(-offset.x, -offset.y, self.outer_size.width, 1))

    def _drawing(self, key: Hashable) -> _Drawing | None:
        drawing = self._drawings.get(key)
        if drawing is None:
            return None
        width, style = drawing.drawn_for
        if width != self.size.width or style != self.visual_style:  # resized, restyled
            del self._drawings[key]
            return None
        self._drawings.move_to_end(key)
        return drawing

    def _keep(self, key: Hashable, drawing: _Drawing) -> None:
        self._drawings[key] = drawing
        self._drawings.move_to_end(key)
        while len(self._drawings) > KEPT:
            self._drawings.popitem(last=False)

    def _show(self, content: VisualType, drawing: _Drawing | None) -> None:
        before = self._strips if self._drawn_for is not None else None
        self._source, self._visual = content, None
        self._strips, self._drawn_for = None, None
        if drawing is not None:
            self._strips, self._drawn_for = drawing.strips, drawing.drawn_for
        width = self.size.width
        if before is None or width <= 0 or self.text_selection is not None:
            self._changed()
            self.refresh(layout=True)
            return
        after = self._draw(width)
        if len(after) != len(before):
            self._changed()
            self.refresh(layout=True)
            return
        changed = [Region(0, y, width, 1) for y, line in enumerate(after) if line != before[y]]
        if changed:
            self._changed()
            self.refresh(*changed)

    # -- drawing (what Textual calls) --------------------------------------------------------

    def _draw(self, width: int) -> list[Strip]:
        style = self.visual_style
        drawn_for = self._drawn_for
        if self._strips is None or drawn_for is None or drawn_for != (width, style):
            self._strips = Visual.to_strips(self, self.visual, width, None, style)
            self._drawn_for = (width, style)
        return self._strips

    def line_with(self, text: str) -> int | None:
        """The first line of the content, as drawn at the widget's width, holding `text`."""
        width = self.size.width
        if width <= 0:
            return None
        return next((y for y, strip in enumerate(self._draw(width)) if text in strip.text), None)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._draw(width)) if width > 0 else 0

    def render_line(self, y: int) -> Strip:
        self._drawn()
        if self.text_selection is not None:  # drawn with the selection, as a Static is
            return super().render_line(y)
        self._dirty_regions.clear()  # what Static's drawing would have cleared
        width = self.size.width
        strips = self._draw(width)
        return strips[y] if y < len(strips) else Strip.blank(width, self.visual_style.rich_style)
