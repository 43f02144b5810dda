"""The event kinds of the record and their payloads: one kind, one shape.

Every event row (and every event inside a compacted game body) has a kind from `EventKind` and a
JSON payload of that kind's type. Writers build the typed payload; readers get it back decoded and
validated by `decode`. `docs/record.md` describes each kind.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import msgspec

from pokeview.game.side import SideState


class EventKind(StrEnum):
    LOG = "log"  # spectator protocol lines of one step
    INPUT = "input"  # input-log lines of one step
    SIDE = "side"  # what one side saw in one step
    CHOICE = "choice"  # a choice a side sent
    REFUSAL = "refusal"  # a choice Showdown refused
    REASONING = "reasoning"  # streamed reasoning of a model, coalesced
    ANSWER = "answer"  # streamed answer text of a model, coalesced
    ATTEMPT = "attempt"  # a failed provider attempt
    SPOILER = "spoiler"  # a person revealed a model's hidden reasoning during play
    END = "end"  # the battle ended
    ERROR = "error"  # the game ended in an error


class Payload(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Base of every payload: unknown fields are refused, defaults are not written."""


class Input(Payload):
    lines: list[str]
    # The step changed the battle (a lone choice waiting for the other side does not); resuming
    # replays the input log up to the last step that moved it.
    moved: bool = True


class Side(Payload):
    lines: list[str]  # that side's protocol lines (its secret halves of |split|)
    text: list[str]  # the same lines in Showdown's battle-log words, from that side's view
    request: dict[str, Any] | None = None
    error: str | None = None  # Showdown's refusal of the side's last choice
    # What the side knew at the end of the step: at every step it saw lines (games recorded
    # before: only at its requests), as docs/record.md says ("A side's state").
    state: SideState | None = None
    frame: bool = False  # an imported replay: a point to stop at with no decision behind it
    # Format 4: the request and snapshot as differences from the side's previous ones, in place
    # of them (`differences.py`). Only the record holds these: the Store rebuilds the event
    # whole for its readers, and a running game's player gets it whole from the loop.
    request_delta: list[Any] | None = None
    state_delta: list[Any] | None = None
    # A bot's side recorded without its words and state (`text` empty, no state): the bridge
    # computed none while the game played; `battle/derive.py` derives them, exactly, by playing
    # the game's commands again, and writes the event as it would have been (then without this).
    later: bool = False


_NULL = msgspec.Raw(b"null")


def side_from_bridge(
    lines: list[str],
    text: list[str],
    request: msgspec.Raw,
    error: str | None,
    state: msgspec.Raw,
    request_delta: msgspec.Raw = _NULL,
    state_delta: msgspec.Raw = _NULL,
    later: bool = False,
) -> Side:
    """A side event as the bridge sent it, its parts still the bridge's JSON: written to the
    record as they are. A request sent as differences is recorded as those alone (the bridge
    sends it whole as well, for the player)."""

    def given(raw: msgspec.Raw) -> Any:
        return None if raw == _NULL else raw

    request_ops = given(request_delta)
    recorded_request = given(request) if request_ops is None else None
    return Side(
        lines,
        text,
        recorded_request,
        error,
        state=given(state),
        request_delta=request_ops,
        state_delta=given(state_delta),
        later=later,
    )


class Choice(Payload):
    idx: int
    action: int
    label: str
    choice: str


class Refusal(Payload):
    choice: str
    label: str
    error: str


class Stream(Payload):
    """A piece of streamed model text (reasoning or answer) for one attempt of one decision."""

    idx: int
    attempt: int
    delta: str


class Attempt(Payload):
    idx: int
    attempt: int
    error: str


class Spoiler(Payload):
    turn: int | None
    at: float


class End(Payload):
    winner: str
    turns: int
    ending: str | None = None  # a forfeit, the timer, the turn limit (battle/endings.py)


class Error(Payload):
    error: str


PAYLOADS: dict[EventKind, Any] = {
    EventKind.LOG: list[str],  # kept as a bare list of lines, as since version 1
    EventKind.INPUT: Input,
    EventKind.SIDE: Side,
    EventKind.CHOICE: Choice,
    EventKind.REFUSAL: Refusal,
    EventKind.REASONING: Stream,
    EventKind.ANSWER: Stream,
    EventKind.ATTEMPT: Attempt,
    EventKind.SPOILER: Spoiler,
    EventKind.END: End,
    EventKind.ERROR: Error,
}

_DECODERS = {kind: msgspec.json.Decoder(shape) for kind, shape in PAYLOADS.items()}
_ENCODER = msgspec.json.Encoder()


class BadEvent(ValueError):
    """A payload that does not have its kind's shape."""


def kind_of(text: str) -> EventKind:
    try:
        return EventKind(text)
    except ValueError:
        raise BadEvent(f"unknown event kind {text!r}") from None


def encode(payload: Any) -> bytes:
    return _ENCODER.encode(payload)


def decode(kind: str | EventKind, data: str | bytes) -> Any:
    """The typed payload of one event; BadEvent when it does not fit its kind."""
    event_kind = kind_of(kind) if not isinstance(kind, EventKind) else kind
    if event_kind is EventKind.INPUT and data[:1] in ("[", b"["):
        data = b'{"lines":' + (data.encode() if isinstance(data, str) else data) + b"}"  # v1
    try:
        return _DECODERS[event_kind].decode(data)
    except msgspec.DecodeError as exc:
        raise BadEvent(f"a {event_kind} event: {exc}") from None


def check(kind: str | EventKind, payload: Any) -> Any:
    """Validate a payload given as plain data (from an imported file); returns it typed."""
    return decode(kind, msgspec.json.encode(payload))
