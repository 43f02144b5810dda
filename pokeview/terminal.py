"""What the command line writes to a terminal, with control characters removed at the last step.

A command prints through `sys.stdout` and `sys.stderr`, which `control_free_output()` wraps for
the command's run (the CLI's `main`): whatever text reaches them, from a record, a file or an
error, loses its control characters, so no escape sequence in the data can act on the terminal
(set its title, write the clipboard, clear the screen). Rich's tables and progress bars come from
`console()`: it removes them from the text of every segment and writes past the wrapper, so that
Rich's own styling sequences, and only they, reach the terminal. Textual's app writes to
`sys.__stdout__` and has a filter of its own (`pokeview.widgets.control_filter`).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import IO, Any

from rich.console import Console, ConsoleOptions, RenderableType
from rich.segment import Segment

from pokeview.text import has_control, strip_control


class ControlFree(io.TextIOBase):
    """A text stream that writes to another one what it is given, control characters removed
    (newline and tab kept)."""

    def __init__(self, raw: IO[str]) -> None:
        super().__init__()
        self.raw = raw

    def write(self, text: str) -> int:
        self.raw.write(strip_control(text))
        return len(text)

    def flush(self) -> None:
        self.raw.flush()

    def isatty(self) -> bool:
        return self.raw.isatty()

    def fileno(self) -> int:
        return self.raw.fileno()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.raw, "encoding", "utf-8")

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self.raw, "errors", None)


def unfiltered(stream: IO[str]) -> IO[str]:
    """The stream under a ControlFree wrapper: for bytes that must pass exactly (an export
    written to a pipe or a file, Rich's styling once its text is cleaned)."""
    return stream.raw if isinstance(stream, ControlFree) else stream


@contextmanager
def control_free_output() -> Iterator[None]:
    """sys.stdout and sys.stderr wrapped for the block (restored after, even on error)."""
    saved = sys.stdout, sys.stderr
    sys.stdout = ControlFree(sys.stdout)  # type: ignore[assignment]
    sys.stderr = ControlFree(sys.stderr)  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


class _ControlFreeConsole(Console):
    """A Rich console that removes control characters from every text segment it renders
    (Rich keeps ESC in text), and writes its own styling past the stream wrapper."""

    @property
    def file(self) -> IO[str]:
        return unfiltered(super().file)

    @file.setter
    def file(self, new_file: IO[str]) -> None:
        self._file = new_file

    def render(
        self, renderable: RenderableType, options: ConsoleOptions | None = None
    ) -> Iterable[Segment]:
        for segment in super().render(renderable, options):
            if segment.control is None and has_control(segment.text):
                yield Segment(strip_control(segment.text), segment.style)
            else:
                yield segment


def console(**options: Any) -> Console:
    """A Rich console for the command line (Console's own options)."""
    return _ControlFreeConsole(**options)
