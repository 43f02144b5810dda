"""A finished game's body: its events, decisions and spectator log in one compressed blob.

While a game runs, its events and decisions are rows, so spectators can follow them. When it
ends, in the transaction that finishes it, they are packed here: the rows exactly as they were
(ids, texts, JSON as written), so every reader sees the same record, only smaller. Compressing a
whole game at once finds what its steps repeat (requests and snapshots differ little from one
step to the next); measured, that beats compressing events one by one about tenfold.
"""

from __future__ import annotations

from typing import Any

import msgspec
import zstandard

# The body's own version, kept beside each blob. 2: a spectator log that is its `log` events'
# lines, one after another (every game played here), is not stored twice but rebuilt from them.
# 3 (PLAYED): a game of two bots the bridge played through by itself holds its spectator
# log and its decisions' times only; its events and decisions are derived when first read
# (battle/derive.py) and stored as a body of format 2. A pokeview before it refuses one whole.
FORMAT = 2
PLAYED = 3
READS = (1, 2, PLAYED)
# zstd's level. Measured on 20 random games (format 2, body 245 KB before compression): level 3
# packs one in 0.36 ms to 29.9 KB, level 4 in 0.62 ms to 27.7 KB, level 5 in 0.83 ms to 25.2 KB.
# A file of 20 random games (benchmarks/record.py) then holds 39.0, 36.7 and 33.7 KB a game: level
# 3 sits at issue 12's 40 KB; level 4 keeps format 1's size at level 5 (36.3 KB) for a third less
# compression time, a game's Python CPU being the tighter of issue 12's targets.
LEVEL = 4
# The most a body may unpack to. A random game's is 245 KB, a model's with every prompt a few
# MB; a forged database's 64 KB blob can say 2 GB of zeros (a zstd bomb), which would be
# allocated whole before the body could be found wrong.
MAX_BODY = 512 * 1024 * 1024


class Body(msgspec.Struct, array_like=True):
    # Each event: (id, side, kind, data as stored, at). Each decision: its row's values in
    # DECISION_COLUMNS order.
    events: list[tuple[int, str | None, str, str, float]]
    decisions: list[tuple[Any, ...]]
    spectator_log: str | None
    log_from_events: bool = False  # format 2: the log is the `log` events' lines (then None)
    # PLAYED: each decision's side and time in ms, in the order made; events and decisions empty
    played: list[tuple[str, float]] | None = None


def log_of_events(events: list[tuple[int, str | None, str, str, float]]) -> str:
    """The spectator log the `log` events make: their lines, one after another."""
    lines: list[str] = []
    for event in events:
        if event[2] == "log":
            lines += _LOG.decode(event[3])
    return "\n".join(lines)


DECISION_COLUMNS = (
    "id",
    "game_id",
    "side",
    "idx",
    "turn",
    "request",
    "actions",
    "action",
    "choice",
    "how",
    "refusals",
    "detail",
    "created_at",
    "latency_ms",
)

_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(Body)
_LOG = msgspec.json.Decoder(list[str])


class BadBody(ValueError):
    """A blob that cannot be decompressed or decoded."""


def _log_or_none(events: list[tuple[int, str | None, str, str, float]]) -> str | None:
    try:
        return log_of_events(events)
    except msgspec.DecodeError:  # a log event of another shape (an import): keep the log
        return None


def pack(body: Body) -> bytes:
    """The blob of a body; a spectator log its `log` events make is left to be rebuilt."""
    log = body.spectator_log
    if log is not None and not body.log_from_events and log == _log_or_none(body.events):
        body = msgspec.structs.replace(body, spectator_log=None, log_from_events=True)
    # Format 2's four fields as they were; `played` only where there is one (format 3).
    fields = body if body.played is not None else msgspec.structs.astuple(body)[:4]
    return zstandard.ZstdCompressor(level=LEVEL).compress(_ENCODER.encode(fields))


def unpack(blob: bytes, fmt: int = FORMAT) -> Body:
    if fmt not in READS:
        known = " and ".join(map(str, READS))
        raise BadBody(f"body format {fmt} is not known to this pokeview (it reads {known})")
    try:
        size = zstandard.frame_content_size(blob)
        if size > MAX_BODY:
            raise BadBody(f"the body says it unpacks to {size:,} bytes (at most {MAX_BODY:,})")
        # A frame that does not say its size (-1) is unpacked up to the limit, no further.
        raw = zstandard.ZstdDecompressor().decompress(blob, max_output_size=MAX_BODY)
        body = _DECODER.decode(raw)
        if (body.played is not None) != (fmt == PLAYED):  # the row's format says which it is
            raise BadBody(
                f"a body of format {fmt} {'without' if fmt == PLAYED else 'with'} "
                "its decisions' times"
            )
        if body.log_from_events:
            body.spectator_log, body.log_from_events = log_of_events(body.events), False
        return body
    except (zstandard.ZstdError, msgspec.DecodeError) as exc:
        raise BadBody(str(exc)) from None
