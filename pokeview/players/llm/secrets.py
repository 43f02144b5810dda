"""Keeping an API key (or any secret) out of every text pokeview keeps or shows.

A provider, an HTTP library or an exception can hand a key back in another spelling than the one
sent: `repr`-escaped (`'sk-…\\n'`, `b'Bearer sk-\\xd0…'`), JSON-escaped, URL-encoded, or base64
(a Basic-auth header, `Bearer key` encoded whole). `scrub` replaces each of those spellings with
***; `Scrubber` does the same to text that arrives in pieces (a stream), holding back a tail that
could be the start of one. `checked_key` is how a key read from the environment is made fit to
send: surrounding whitespace stripped, and refused (one line naming where it came from, never
the key) when it still holds a character an HTTP header cannot carry. `without_credentials`
and `url_secrets` do the same for a user and password written into a base URL, and for its
query's parameters named for a secret (`?key=…`).

Used by every provider client; keep these names and their signatures stable.
"""

from __future__ import annotations

import base64
import json
import re
import urllib.parse
from functools import lru_cache

from pokeview.errors import PokeviewError

MASK = "***"
# Spellings derived from a secret are replaced only when at least this long: a derived form of a
# very short secret would match ordinary text (the secret itself is always replaced).
_MIN_FORM = 6
# What an HTTP header value may hold (RFC 9110 field-value: visible ASCII, space and tab inside).
_HEADER_SAFE = re.compile(r"[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?")


def checked_key(value: str, where: str) -> str:
    """The key as it can be sent: stripped of surrounding whitespace (a `.env` file's or a
    secret mount's trailing newline). `where` names its source for the error, e.g.
    "player 'sonnet' reads its API key from $EXAMPLE_API_KEY"."""
    key = value.strip()
    if not key:
        raise PokeviewError(f"{where}, which holds only whitespace")
    if not _HEADER_SAFE.fullmatch(key):
        raise PokeviewError(
            f"{where}, which holds a character an HTTP header cannot carry (a control character "
            "or one outside ASCII); check the variable's value"
        )
    return key


# A query parameter whose name says it carries a secret (`?key=…`, `&access_token=…`); others
# (Azure's `api-version`) are kept as they are.
_SECRET_PARAMETER = re.compile(r"key|token|secret|sig|auth|pass|pwd|credential", re.IGNORECASE)


def without_credentials(url: str) -> str:
    """`url` as it may be stored or shown: a user and password in it (`https://user:pass@host`)
    and the values of its query parameters named for a secret (`?key=…`) become ***."""
    parts = urllib.parse.urlsplit(url)
    if "@" in parts.netloc:
        parts = parts._replace(netloc="***@" + parts.netloc.rpartition("@")[2])
    if _secret_values(parts.query):
        pairs = (pair.partition("=") for pair in parts.query.split("&"))
        parts = parts._replace(
            query="&".join(
                f"{name}{eq}{MASK if eq and _SECRET_PARAMETER.search(name) else value}"
                for name, eq, value in pairs
            )
        )
    return urllib.parse.urlunsplit(parts)


def url_secrets(url: str) -> tuple[str, ...]:
    """The user and password in `url`, and its query's secret values, as written and decoded,
    for `scrub`."""
    parts = urllib.parse.urlsplit(url)
    userinfo = parts.netloc.rpartition("@")[0]
    found = {userinfo, *userinfo.split(":", 1)} if userinfo else set()
    found |= set(_secret_values(parts.query))
    found |= {urllib.parse.unquote(f) for f in found}
    return tuple(f for f in found if f)


def _secret_values(query: str) -> list[str]:
    """The values, as written, of the query's parameters named for a secret."""
    pairs = (pair.partition("=") for pair in query.split("&") if query)
    return [value for name, _, value in pairs if value and _SECRET_PARAMETER.search(name)]


def scrub(text: str, *secrets: str | None) -> str:
    """`text` with every spelling of every secret given replaced by ***."""
    for form in _forms(tuple(s for s in secrets if s)):
        if form in text:
            text = text.replace(form, MASK)
    return text


class Scrubber:
    """`scrub` for text that arrives in pieces: a secret split across two pieces is caught too.
    `feed` returns what is safe to pass on now; `flush` the rest, at the end of the text."""

    def __init__(self, *secrets: str | None) -> None:
        self.secrets = secrets
        self.pending = ""
        self._forms = _forms(tuple(s for s in secrets if s))

    def feed(self, text: str) -> str:
        if not self._forms:
            return text
        text = scrub(self.pending + text, *self.secrets)
        keep = max((_partial(text, form) for form in self._forms), default=0)
        self.pending = text[len(text) - keep :] if keep else ""
        return text[: len(text) - keep]

    def flush(self) -> str:
        rest, self.pending = self.pending, ""
        return rest


def _partial(text: str, form: str) -> int:
    """How long a tail of `text` is the start of `form` (the longest such tail)."""
    start = max(0, len(text) - len(form) + 1)
    at = text.find(form[0], start)
    while at >= 0:
        if form.startswith(text[at:]):
            return len(text) - at
        at = text.find(form[0], at + 1)
    return 0


@lru_cache(maxsize=32)
def _forms(secrets: tuple[str, ...]) -> tuple[str, ...]:
    """Every spelling of the secrets, longest first (so a longer one is replaced whole before a
    shorter one inside it could break it up)."""
    found: set[str] = set()
    for secret in secrets:
        found.add(secret)
        found.update(f for f in _spellings(secret) if len(f) >= _MIN_FORM)
    return tuple(sorted(found, key=len, reverse=True))


def _spellings(secret: str) -> set[str]:
    raw = secret.encode("utf-8", "surrogatepass")
    forms = {
        repr(secret)[1:-1],  # str repr: \n, \r, \t, \\ escaped
        ascii(secret)[1:-1],  # \u043a for a non-ASCII character
        repr(raw)[2:-1],  # bytes repr: b'...\xd0\xba...'
        json.dumps(secret)[1:-1],  # JSON, \u escapes
        json.dumps(secret, ensure_ascii=False)[1:-1],
        urllib.parse.quote(secret, safe=""),
        urllib.parse.quote(secret),
        urllib.parse.quote_plus(secret),
    }
    for encoded in list(forms):  # %xx escapes may come back in lower case
        if "%" in encoded:
            forms.add(re.sub(r"%[0-9A-F]{2}", lambda m: m.group().lower(), encoded))
    for prefix in (b"", b"Bearer ", b":"):  # the key alone, its header, Basic auth's user:key
        for encode in (base64.b64encode, base64.urlsafe_b64encode):
            whole = encode(prefix + raw).decode()
            forms.update({whole, whole.rstrip("=")})
    forms.update(_base64_cores(raw))
    return forms


def _base64_cores(raw: bytes) -> set[str]:
    """The part of base64 that is the same whatever surrounds the secret, at each of its three
    possible alignments: it catches the secret base64-encoded inside any longer text (a Basic-auth
    header `user:key`, a JSON blob encoded whole)."""
    cores = set()
    for shift in range(3):
        padded = b"\0" * shift + raw
        whole = (len(padded) // 3) * 3  # the last, partial group depends on what follows
        first = 1 if shift else 0  # the first group mixes in what comes before
        if whole // 3 - first < 2:
            continue
        for encode in (base64.b64encode, base64.urlsafe_b64encode):
            cores.add(encode(padded[first * 3 : whole]).decode())
    return cores
