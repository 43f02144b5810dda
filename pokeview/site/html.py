"""What every page of the site shares: escaping, embedded data, file names and the page shell."""

from __future__ import annotations

import hashlib
import html
import re
from typing import Any

import orjson

from pokeview.ratings.report import esc
from pokeview.text import NONCHARACTER, strip_for_html

CSS = "site.css"
JS = "site.js"
TITLE = 70  # characters
# Written raw by orjson and forbidden in a page by HTML: DEL, the C1 controls, the noncharacters.
_RAW = re.compile("[\x7f-\x9f]|" + NONCHARACTER.pattern)


def esc_text(value: str) -> str:
    """Untrusted text for an element's content (not an attribute): control characters removed,
    `&`, `<` and `>` escaped; quotes stay as they are (a long log or prompt stays small)."""
    return html.escape(strip_for_html(value), quote=False)


def json_script(element_id: str, data: Any) -> str:
    """Data for the page's script, inert: inside `<script>` the text may not hold `</`, `<!--`
    (or, to be safe in any context, `>` and `&`), so each is written as a JSON `\\u` escape."""
    text = orjson.dumps(data).decode()
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(raw, escaped)
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    text = _RAW.sub(_json_escape, text)
    return f'<script type="application/json" id="{esc(element_id)}">{text}</script>'


def _json_escape(match: re.Match[str]) -> str:
    """A character as JSON's `\\u` escape: past U+FFFF, as its UTF-16 surrogate pair."""
    point = ord(match.group())
    if point < 0x10000:
        return f"\\u{point:04x}"
    point -= 0x10000
    return f"\\u{0xD800 + (point >> 10):04x}\\u{0xDC00 + (point & 0x3FF):04x}"


def player_key(name: str) -> str:
    """A player as a page's file name and the games list's filters know it: a digest of its
    name, which may hold any character."""
    return hashlib.sha256(name.encode()).hexdigest()[:12]


def player_file(name: str) -> str:
    return f"player-{player_key(name)}.html"


def game_file(game_id: int) -> str:
    return f"game-{game_id}.html"


def player_link(name: str) -> str:
    return f'<a href="{player_file(name)}">{esc(name)}</a>'


def game_link(game_id: int, text: str | None = None) -> str:
    return f'<a href="{game_file(game_id)}">{esc(text or f"game {game_id}")}</a>'


def page(title: str, body: str, page_kind: str) -> str:
    """A whole page: the shared style and script, a navigation bar, then `body`. The title is
    cut to what a browser's tab and a search result show (the page's heading has it whole)."""
    if len(title) > TITLE:
        title = title[: TITLE - 1] + "…"
    return "\n".join(
        [
            "<!doctype html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{esc(title)}</title>",
            f'<link rel="stylesheet" href="{CSS}">',
            f'<script src="{JS}" defer></script>',
            f'</head><body class="{page_kind}">',
            '<nav class="site"><a href="index.html">findings</a> · '
            '<a href="games.html">games</a></nav>',
            f"<main>{body}</main>",
            "</body></html>",
        ]
    )
