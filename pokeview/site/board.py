"""The board on a game page: the terminal board's own drawing (`pokeview/board/`), its Rich text
as data for the page's script, which draws each line as an element and each style as CSS
classes (`site.css` colours them). The script sets text only (`textContent`), so names,
nicknames and items from the protocol are shown literally whatever they hold."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.style import Style
from rich.text import Text

# Style attributes the board uses, as short classes (site.css: `.board .b` and so on).
FLAGS = (("bold", "b"), ("dim", "d"), ("italic", "i"), ("strike", "x"), ("reverse", "rv"))
_NAME = re.compile(r"[^a-z0-9_]")


@lru_cache(maxsize=256)
def classes_of(style: Style) -> str:
    """A style as class names: its flags, then its colour's name (`b green`)."""
    names = [name for attribute, name in FLAGS if getattr(style, attribute)]
    if style.color is not None:
        names.append("c-" + _NAME.sub("", style.color.name.lower()))
    return " ".join(names)


@lru_cache(maxsize=256)
def _style(style: str | Style) -> Style:
    return style if isinstance(style, Style) else Style.parse(style) if style else Style()


@lru_cache(maxsize=1024)
def _classes(styles: tuple[str | Style, ...]) -> str:
    combined = Style()
    for style in styles:
        combined += _style(style)
    return classes_of(combined)


def runs(text: Text) -> list[tuple[str, str]]:
    """The text as (classes, characters) runs, cut where its spans start and end (so a move or
    a team slot is a run of its own, the same in many lines); each run's style is the text's
    own and then its spans' in order (a later span wins, as Rich draws it)."""
    plain = text.plain
    size = len(plain)
    spans = [s for s in text.spans if s.start < min(s.end, size)]
    cuts = sorted({0, size} | {s.start for s in spans} | {min(s.end, size) for s in spans})
    piece = {cut: n for n, cut in enumerate(cuts)}
    styles: list[list[str | Style]] = [[text.style] for _ in cuts[1:]]
    for span in spans:  # in order: each covers the pieces from its start to its end
        for n in range(piece[span.start], piece[min(span.end, size)]):
            styles[n].append(span.style)
    return [
        (_classes(tuple(style)), plain[start:end])
        for start, end, style in zip(cuts, cuts[1:], styles, strict=False)
    ]


class Boards:
    """A game's boards for the page's script, each thing once: the style classes, the runs of
    text (a style and its characters), the lines (an indent and runs), the boards (lines), and
    per view the board at each turn. Consecutive turns share most of their lines (the teams,
    what is known), so a long game's boards stay small."""

    def __init__(self) -> None:
        self.classes: dict[str, int] = {"": 0}
        self.runs: dict[tuple[int, str], int] = {}
        self.lines: dict[tuple[int, ...], int] = {}
        self.boards: dict[tuple[int, ...], int] = {}
        self.drawn: dict[tuple[object, ...], int] = {}  # a Rich line -> its number

    def add(self, renderable: RenderableType) -> int:
        """The board `renderable` (as `pokeview.board.layout.draw` makes it): its number."""
        lines = tuple(self._line(text, indent) for indent, text in lines_of(renderable))
        return self.boards.setdefault(lines, len(self.boards))

    def _line(self, text: Text, indent: int) -> int:
        key = (indent, text.plain, text.style, *text.spans)  # the same line drawn again
        known = self.drawn.get(key)
        if known is not None:
            return known
        runs_ = [
            self.runs.setdefault(
                (self.classes.setdefault(classes, len(self.classes)), chars), len(self.runs)
            )
            for classes, chars in runs(text)
        ]
        self.drawn[key] = self.lines.setdefault((indent, *runs_), len(self.lines))
        return self.drawn[key]

    def data(self, at: dict[str, list[int]]) -> dict[str, Any]:
        """The tables as JSON for the script; `at`: per view, the board of each turn. Lines
        and boards are written as changes to a like one before them where that is shorter."""
        return {
            "classes": list(self.classes),
            "runs": [list(run) for run in self.runs],
            "lines": changes(list(self.lines)),
            "boards": changes(list(self.boards)),
            "at": at,
        }


LOOK_BACK = 6  # rows of its length a row's like one is looked for among


def changes(rows: list[tuple[int, ...]]) -> list[list[int]]:
    """Rows of numbers (each 0 or more), each written whole or, where shorter, as the changes
    to an earlier row of its length: `[-1 - that row, position, number, position, ...]` (a
    board's next turn changes a few lines; a line's, a few runs)."""
    out: list[list[int]] = []
    earlier: dict[int, list[int]] = {}  # by length: the rows before, the latest last
    for n, row in enumerate(rows):
        best = list(row)
        like = earlier.setdefault(len(row), [])
        for base in reversed(like[-LOOK_BACK:]):
            other = rows[base]
            changed = [x for k, b in enumerate(row) if other[k] != b for x in (k, b)]
            if len(changed) + 1 < len(best):
                best = [-1 - base, *changed]
        like.append(n)
        out.append(best)
    return out


def lines_of(renderable: RenderableType, indent: int = 0) -> list[tuple[int, Text]]:
    """The board's renderables (groups of texts, some padded on the left) as its lines, each
    with its indent in cells (a wrapped line keeps it, as in the terminal)."""
    if isinstance(renderable, Text):
        return [(indent, renderable)]
    if isinstance(renderable, Padding):
        return lines_of(renderable.renderable, indent + renderable.left)
    if isinstance(renderable, Group):
        return [line for part in renderable.renderables for line in lines_of(part, indent)]
    raise TypeError(f"the board drew a {type(renderable).__name__}, which the site cannot show")
