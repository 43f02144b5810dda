"""The site's shared pieces: data embedded in a page cannot end its script element."""

from __future__ import annotations

import re

import orjson

from pokeview.site.html import json_script, player_file


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
