"""A compacted game's body: format 2 keeps a spectator log made of the `log` events once."""

from __future__ import annotations

import msgspec
import pytest
import zstandard

from pokeview.store import body as bodies

EVENTS = [
    (1, None, "log", '["|start","|turn|1"]', 1.0),
    (2, "p1", "side", '{"lines":[],"text":[]}', 1.0),
    (3, None, "log", '["|move|p1a: A|Tackle","|turn|2"]', 2.0),
    (4, None, "end", '{"winner":"p1","turns":2}', 3.0),
]
DECISIONS = [
    (1, 7, "p1", 0, 1, None, '["move Tackle"]', 0, "move 1", "chosen", "[]", "{}", "t", 1.5)
]
LOG = "|start\n|turn|1\n|move|p1a: A|Tackle\n|turn|2"


def stored(blob: bytes) -> list[object]:
    """The body as it is in the blob, before any rebuilding."""
    return msgspec.msgpack.decode(zstandard.ZstdDecompressor().decompress(blob))


def test_a_log_made_of_the_log_events_is_stored_once_and_read_back_whole():
    blob = bodies.pack(bodies.Body(EVENTS, DECISIONS, LOG))
    assert stored(blob)[2:] == [None, True]  # not written twice
    body = bodies.unpack(blob)
    assert body.spectator_log == LOG and not body.log_from_events
    assert body.events == EVENTS and body.decisions == DECISIONS
    # What a game stored that way reads as is what it would read as stored whole.
    whole = zstandard.ZstdCompressor().compress(msgspec.msgpack.encode([EVENTS, DECISIONS, LOG]))
    assert bodies.unpack(whole, 1) == body


@pytest.mark.parametrize(
    "log",
    [
        LOG + "\n|win|A",  # an imported replay's log can say more than its events
        None,  # a game that kept no log
        "|start\n|turn|1",
    ],
)
def test_any_other_log_is_stored_as_it_is(log):
    blob = bodies.pack(bodies.Body(EVENTS, DECISIONS, log))
    assert stored(blob)[2] == log
    assert bodies.unpack(blob).spectator_log == log


def test_log_events_of_another_shape_leave_the_log_stored():
    events = [(1, None, "log", '{"not": "a list"}', 1.0)]
    blob = bodies.pack(bodies.Body(events, [], "x"))
    assert bodies.unpack(blob).spectator_log == "x"


def test_an_unknown_format_is_refused_in_one_line():
    blob = bodies.pack(bodies.Body(EVENTS, DECISIONS, LOG))
    with pytest.raises(bodies.BadBody, match="body format 4 is not known"):
        bodies.unpack(blob, 4)


def test_a_played_body_is_read_only_under_its_own_format():
    """A game the bridge played whole (format 3) holds its decisions' times; any other body does
    not: a row whose format says otherwise (a forged file) is one line, not an empty game."""
    played = bodies.pack(bodies.Body([], [], LOG, played=[("p1", 0.02), ("p2", 0.03)]))
    assert bodies.unpack(played, bodies.PLAYED).played == [("p1", 0.02), ("p2", 0.03)]
    with pytest.raises(bodies.BadBody, match="format 2 with its decisions' times"):
        bodies.unpack(played, bodies.FORMAT)
    plain = bodies.pack(bodies.Body(EVENTS, DECISIONS, LOG))
    with pytest.raises(bodies.BadBody, match="format 3 without its decisions' times"):
        bodies.unpack(plain, bodies.PLAYED)
