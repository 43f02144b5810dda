"""Untrusted text (model output, player names, protocol) made safe to show in a terminal."""

from __future__ import annotations

import re

# C0 and C1 control characters except newline and tab; ESC starts every terminal sequence.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def strip_control(text: str) -> str:
    return _CONTROL.sub("", text)


def has_control(text: str) -> bool:
    return _CONTROL.search(text) is not None


def safe(text: str) -> str:
    """Control characters removed and Rich markup escaped, for use inside markup strings."""
    from rich.markup import escape

    return escape(strip_control(text))


def home_relative(path: object) -> str:
    """A path as a person reads it: under their home folder it starts with ~."""
    from pathlib import Path

    full = Path(str(path)).expanduser()
    try:
        return "~/" + str(full.relative_to(Path.home()))
    except ValueError:
        return str(full)
