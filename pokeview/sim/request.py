"""What pokeview reads of a Showdown request, typed.

A request (`|request|`, about 2.6 KB of JSON in a random battle) holds the side's whole team with
stats, items and abilities; the game loop, the legal actions and the random bot read a few fields
of it. Decoding only those into these structs takes about 3.6 µs a request where a dict of the
whole takes about 17 (measured on 1,087 requests of 8 random games), a request being decoded at
every step of every game. Players that want all of it read the JSON (`DecisionContext`).

Field names are Showdown's (`rename="camel"`: `force_switch` is `forceSwitch`). Where Showdown's
types allow more than one (`disabled` is `string | boolean` in sim/side.ts, `canZMove` a list
holding nulls, `maxMoves` an object), or where only its truth is read, the field is `Any`; the
fields typed `str` or `list` are ones Showdown always sends so. A review compared 110,819 requests
of 1,200 games in nine generations (random battles, and custom teams reaching team preview,
mega evolution, z-moves, dynamax, ultra burst, Revival Blessing): the same legal actions and
random choices as the dict, and none failed to decode. Only singles are played: in a format with
more slots than Pokémon, Showdown's `active` can hold null, which this would refuse.
"""

from __future__ import annotations

from typing import Any

import msgspec


class RequestMove(msgspec.Struct, rename="camel"):
    move: str
    id: str
    pp: Any = None  # absent for Struggle and Recharge
    maxpp: Any = None
    disabled: Any = False


class ActiveSlot(msgspec.Struct, rename="camel"):
    moves: list[RequestMove] = []
    trapped: Any = False
    can_terastallize: Any = None  # the tera type, as a string
    can_mega_evo: Any = False
    can_dynamax: Any = False
    can_z_move: Any = None
    can_ultra_burst: Any = False
    max_moves: Any = None


class RequestPokemon(msgspec.Struct, rename="camel"):
    ident: str  # "p1: Name"
    details: str  # "Species, L80, M"
    condition: str  # "250/250", "0 fnt"
    active: Any = False
    reviving: Any = False  # being brought back by Revival Blessing


class RequestSide(msgspec.Struct, rename="camel"):
    pokemon: list[RequestPokemon] = []


class Request(msgspec.Struct, rename="camel"):
    side: RequestSide | None = None
    active: list[ActiveSlot] | None = None
    force_switch: Any = None  # a flag per active slot
    team_preview: Any = False
    wait: Any = False


_DECODER = msgspec.json.Decoder(Request | None)


class BadRequest(ValueError):
    """A request that does not have the shape Showdown gives one."""


def decode_request(raw: bytes | msgspec.Raw) -> Request | None:
    """The typed request of the bridge's JSON (None for null)."""
    try:
        return _DECODER.decode(raw)
    except msgspec.DecodeError as exc:
        raise BadRequest(f"a request pokeview cannot read: {exc}") from None


def as_request(request: Request | dict[str, Any] | None) -> Request | None:
    """A request given as a dict (a recorded one, poke-env's, a test's), typed."""
    if isinstance(request, Request):
        return request
    if not request:  # as `legal_actions` always took it: nothing asked
        return None
    try:
        return msgspec.convert(request, Request)
    except msgspec.ValidationError as exc:
        raise BadRequest(f"a request pokeview cannot read: {exc}") from None
