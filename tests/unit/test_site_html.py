"""The site's shared pieces: data embedded in a page cannot end its script element."""

from __future__ import annotations

import re

import orjson

from pokeview.site.html import esc, esc_text, json_script, player_file


def test_embedded_json_escapes_what_could_end_its_element_and_reads_back():
    data = {
        "name": "</script><!--<script>alert(1)</script>",
        "amp": "a & b > c",
        "ls": "\u2028",
        "c1": "\x1b[2J \x9b2J \x7f",  # a terminal escape, a lone CSI (C1), DEL
    }
    element = json_script("d", data)
    inner = element.removeprefix('<script type="application/json" id="d">').removesuffix(
        "</script>"
    )
    assert "</" not in inner and "<!--" not in inner and "<" not in inner and ">" not in inner
    assert not re.search("[\x00-\x1f\x7f-\x9f]", inner)  # HTML forbids them in a page
    assert orjson.loads(inner) == data  # JSON's own escapes: the script reads the same text


def test_a_player_page_is_named_by_a_digest_whatever_the_name():
    name = '../../etc/passwd"><script>'
    assert player_file(name).startswith("player-") and "/" not in player_file(name)
    assert player_file(name) == player_file(name) != player_file("random")


# HTML forbids the noncharacters in a page, as it does the controls: U+FDD0-U+FDEF and the last
# two code points of every plane.
NONCHARACTERS = "\ufdd0\ufdef\ufffe\uffff\U0001fffe\U0010ffff"
FORBIDDEN = re.compile(
    "[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef"
    + "".join(chr(plane * 0x10000 + 0xFFFE) + chr(plane * 0x10000 + 0xFFFF) for plane in range(17))
    + "]"
)


def test_noncharacters_in_untrusted_text_do_not_reach_the_page():
    data = {"reasoning": f"a{NONCHARACTERS}b", NONCHARACTERS: 1}  # model output, a key too
    element = json_script("d", data)
    assert not FORBIDDEN.search(element)
    inner = element.removeprefix('<script type="application/json" id="d">').removesuffix(
        "</script>"
    )
    assert orjson.loads(inner) == data  # escaped, not lost: the script reads the same text
    for escaped in (esc_text(f"a{NONCHARACTERS}b"), esc(f"a{NONCHARACTERS}b")):
        assert escaped == "ab"
