"""The app's last step before the terminal: control characters removed from every line drawn.

Each widget's lines pass through the app's line filters as they are painted, so this one filter
covers every screen, widget, notification and title, whatever text reaches them (a record, a
file, a model's answer): an escape sequence in the data cannot set the terminal's title, write
its clipboard or clear it. Widgets still escape markup themselves (`pokeview.text.safe`).
"""

from __future__ import annotations

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from pokeview.text import has_control, strip_control


class ControlFree(LineFilter):
    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if not any(has_control(s.text) for s in segments):
            return segments
        return [Segment(strip_control(s.text), s.style, s.control) for s in segments]


CONTROL_FREE = ControlFree()
