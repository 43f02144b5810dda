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

FORMAT = 1  # the body's own version, kept beside each blob
# zstd's level. Measured on 40 random games stored as differences (body 237 KB before
# compression): level 3 packs one in 0.7 ms to 30.3 KB, level 4 in 1.4 ms to 28.1 KB, level 5 in
# 2.0 ms to 25.5 KB, level 6 in 2.8 ms to 25.2 KB. Level 3 saved a tenth of a random game's Python
# instructions, but put a file of 20 random games at 41 KB a game, over issue 12's 40 (level 5:
# 36 KB); the time is well under 1% of a game's CPU with Node's. Size wins.
LEVEL = 5


class Body(msgspec.Struct, array_like=True):
    # Each event: (id, side, kind, data as stored, at). Each decision: its row's values in
    # DECISION_COLUMNS order.
    events: list[tuple[int, str | None, str, str, float]]
    decisions: list[tuple[Any, ...]]
    spectator_log: str | None


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


class BadBody(ValueError):
    """A blob that cannot be decompressed or decoded."""


def pack(body: Body) -> bytes:
    return zstandard.ZstdCompressor(level=LEVEL).compress(_ENCODER.encode(body))


def unpack(blob: bytes, fmt: int = FORMAT) -> Body:
    if fmt != FORMAT:
        raise BadBody(f"body format {fmt} is not known to this pokeview (it reads {FORMAT})")
    try:
        return _DECODER.decode(zstandard.ZstdDecompressor().decompress(blob))
    except (zstandard.ZstdError, msgspec.DecodeError) as exc:
        raise BadBody(str(exc)) from None
