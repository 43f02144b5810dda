"""Untrusted text (model output, player names, protocol) made safe to show in a terminal."""

from __future__ import annotations

import re

# C0 and C1 control characters except newline and tab; ESC starts every terminal sequence.
# Then Unicode's bidirectional controls (marks, embeddings, overrides, isolates): one in a name
# makes the text after it, other names included, read in another order ("Trojan Source").
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def is_utf8(text: str) -> bool:
    """Whether `text` can be written as UTF-8: Python's json reads "\\ud800" as a lone
    surrogate, which no file, database or message to Node can hold."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def strip_control(text: str) -> str:
    return _CONTROL.sub("", text)


# The noncharacters (U+FDD0-U+FDEF, the last two code points of every plane): HTML forbids them
# in a page as it does the controls; a terminal shows them as any other character.
NONCHARACTER = re.compile(
    "[\ufdd0-\ufdef"
    + "".join(chr(plane * 0x10000 + 0xFFFE) + chr(plane * 0x10000 + 0xFFFF) for plane in range(17))
    + "]"
)


def strip_for_html(text: str) -> str:
    """`strip_control`, and the noncharacters too: text for an HTML page."""
    return NONCHARACTER.sub("", strip_control(text))


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


def games_count(n: int) -> str:
    """How every count of games is said: "1 game", "2 games"."""
    return f"{n} game{'' if n == 1 else 's'}"


RETRY_WAIT_SHOWN_MS = 1000  # waits between retries shorter than this are not worth a word


def decision_time(model_ms: float, decision_ms: float | None) -> str:
    """A model decision's time: its attempts' own, and the whole decision's when the waits
    between retries made it a second or more longer (as `s/dec` in the ratings counts it)."""
    said = f"{model_ms / 1000:.1f} s"
    if decision_ms is not None and decision_ms - model_ms >= RETRY_WAIT_SHOWN_MS:
        said += f" ({decision_ms / 1000:.1f} s with retries)"
    return said
