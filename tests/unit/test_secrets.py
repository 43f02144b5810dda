"""The scrub that keeps a key out of texts: every spelling of it, also across stream pieces."""

from __future__ import annotations

import base64
import json
import re
import urllib.parse

import pytest

from pokeview.errors import PokeviewError
from pokeview.players.llm.secrets import Scrubber, checked_key, scrub

KEY = "sk-test-Zq8RVW3/secret+vXlu=71"


def _spellings(key: str) -> list[str]:
    b64 = base64.b64encode
    return [
        key,
        repr(key)[1:-1],
        repr(f"Bearer {key}".encode()),
        json.dumps({"key": key}),
        urllib.parse.quote(key, safe=""),
        urllib.parse.quote(key),
        urllib.parse.quote_plus(key),
        re.sub("%..", lambda m: m.group().lower(), urllib.parse.quote(key, safe="")),
        b64(key.encode()).decode(),
        b64(f"Bearer {key}".encode()).decode(),
        b64(f":{key}".encode()).decode(),
        base64.urlsafe_b64encode(f"user:{key}".encode()).decode(),
        # inside a longer encoded text, at each of base64's three alignments
        *(b64(f"{'x' * n}{key} and more".encode()).decode() for n in range(3)),
    ]


@pytest.mark.parametrize("text", _spellings(KEY))
def test_every_spelling_of_the_key_is_scrubbed(text):
    said = f"Illegal header value {text} here"
    scrubbed = scrub(said, KEY)
    assert "***" in scrubbed
    # what is left of the key is at most a byte or two at a base64 group's edge
    for n in range(0, len(KEY) - 4):
        assert KEY[n : n + 5] not in scrubbed
    encoded = {urllib.parse.quote(KEY, safe=""), base64.b64encode(KEY.encode()).decode()}
    assert not any(e in scrubbed for e in encoded)


def test_a_key_with_escapes_in_its_repr_is_scrubbed_in_every_form():
    key = "sk-ключ\ttab"
    for text in (repr(key), repr(key.encode()), ascii(key), json.dumps(key)):
        assert "ключ" not in scrub(text, key) and "\\xd0\\xba" not in scrub(text, key)
        assert "***" in scrub(text, key)


def test_a_key_split_across_pieces_is_scrubbed_and_nothing_else_is_held_back():
    text = f"one {KEY} two {urllib.parse.quote(KEY, safe='')} three"
    for size in (1, 2, 3, 7, 50):
        scrubber = Scrubber(KEY)
        out = [scrubber.feed(text[n : n + size]) for n in range(0, len(text), size)]
        assert "".join(out) + scrubber.flush() == "one *** two *** three"
    scrubber = Scrubber(KEY)
    assert scrubber.feed("plain words ") == "plain words "  # nothing like the key: passed on


def test_several_secrets_and_none():
    assert (
        scrub("a user:pass@host with sk-1234567", "pass", "sk-1234567")
        == "a user:***@host with ***"
    )
    assert scrub("text", None) == "text" and Scrubber(None).feed("text") == "text"


@pytest.mark.parametrize("raw", ["sk-abc\n", "sk-abc\r", "\tsk-abc \r\n"])
def test_a_key_is_stripped_of_surrounding_whitespace(raw):
    assert checked_key(raw, "player 'p' reads its API key from $K") == "sk-abc"


@pytest.mark.parametrize("raw", ["sk-ab\ncd", "sk-ab\rcd", "sk-ключ", "sk-\x00", "   "])
def test_a_key_a_header_cannot_carry_is_refused_in_one_line_without_the_key(raw):
    with pytest.raises(PokeviewError) as caught:
        checked_key(raw, "player 'p' reads its API key from $K")
    said = str(caught.value)
    assert said.startswith("player 'p' reads its API key from $K, which holds")
    assert "\n" not in said and "ключ" not in said and "sk-" not in said


def test_credentials_leave_an_address_and_are_scrubbed():
    from pokeview.players.llm.secrets import url_secrets, without_credentials

    url = "https://us%40er:p%3Ass@api.example.com:8443/v1"
    assert without_credentials(url) == "https://***@api.example.com:8443/v1"
    assert without_credentials("https://api.example.com/v1") == "https://api.example.com/v1"
    said = "failed for https://us%40er:p%3Ass@api.example.com, user us@er, password p:ss"
    assert (
        scrub(said, *url_secrets(url))
        == "failed for https://***@api.example.com, user ***, password ***"
    )


def test_a_key_in_an_addresss_query_leaves_it_and_is_scrubbed():
    from pokeview.players.llm.secrets import url_secrets, without_credentials

    url = (
        "https://api.example.com/v1?api-version=2024-10-21&key=AIza%2Bsecret1&access_token=tok12345"
    )
    shown = without_credentials(url)
    assert shown == "https://api.example.com/v1?api-version=2024-10-21&key=***&access_token=***"
    said = f"failed for {url}: key AIza+secret1, token tok12345"
    cleaned = scrub(said, *url_secrets(url))
    assert "AIza" not in cleaned and "tok12345" not in cleaned, cleaned
    assert "api-version=2024-10-21" in cleaned
