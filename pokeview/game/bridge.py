"""The Node bridge's language, declared once: every command it takes (tagged by `op`, as the
`switch` in `sim/bridge.js` names them) and every reply it sends (tagged by `type`). The JS side
declares the same shapes as JSDoc `@typedef`s (`sim/bridge/messages.js`), and
tests/integration/test_bridge_messages.py sends each command to the real bridge and decodes each
reply strictly with these.

A side's request and state inside a step stay the bridge's JSON, undecoded (`msgspec.Raw`): the
record writes them as they are, and each is decoded only for a reader (the request in
`sim/request.py`, the state by whoever reads a side's state)."""

from __future__ import annotations

from typing import Literal

import msgspec

NULL_JSON = msgspec.Raw(b"null")  # a part the bridge sent as null

Side = Literal["p1", "p2"]
SIDES: tuple[Side, ...] = ("p1", "p2")


class _Command(msgspec.Struct, tag_field="op", omit_defaults=True, forbid_unknown_fields=True):
    """What Python sends; `battle` is the id the Python side gave the battle."""


class PlayerSpec(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    """One side of a new battle: its name and its team (packed, export or JSON), or, for a
    random-battle format, the seed its team is generated from."""

    name: str | None = None
    team: str | None = None
    seed: str | None = None


class Autoplay(msgspec.Struct, forbid_unknown_fields=True):
    """The sides the bridge chooses for by itself (poke-env's RandomPlayer, from the request and
    each decision's seed, drawn from the game's `seed`), until `turn_limit`: see
    `sim/bridge/autoplay.js`. Each choice comes back in its step (`SideUpdate.chosen`).
    `whole` (both sides the bridge's): the game is played through with no step sent, and
    answered with one `Played` (`sim/bridge/whole.js`), each side by its bot in `bots`
    (random, max-damage or heuristic; random where none is named)."""

    seed: str
    sides: list[Side]
    turn_limit: int
    whole: bool = False
    bots: dict[Side, str] = {}


class Info(_Command, tag="info"):
    """Which Showdown, and how many battles are hosted (answered by `InfoReply`)."""

    battle: str | None = None


class Start(_Command, tag="start"):
    """Start a battle from a format, a seed and the players, or from an input log (a replay or
    a fork). `quiet` sends no side (verification needs the spectator log only); `omniscient`
    replays an input log line by line with the omniscient log and stops at the first refused
    choice (Pokéval's oracle); `whole` (for tests) sends every request and state whole.
    `validate=False` skips the team validator. `words` names the sides whose words and state
    are computed (None: both); the others get their lines, requests and refusals only (a bot
    that reads its request needs no more while it plays; the record derives the rest later).
    `autoplay` names the sides the bridge plays by itself."""

    battle: str = ""
    format: str | None = None
    seed: str | list[int] | None = None
    players: dict[str, PlayerSpec] | None = None  # by side: p1, p2
    validate: bool = True
    inputlog: list[str] | None = None
    quiet: bool = False
    omniscient: bool = False
    whole: bool = False
    words: list[Side] | None = None
    autoplay: Autoplay | None = None


class Choose(_Command, tag="choose"):
    """One side's choice (`move 1`, `switch 3`, ...), sent after that side's request."""

    battle: str
    side: str  # p1 or p2
    choice: str


class Tie(_Command, tag="tie"):
    """End the battle in a tie (`>forcetie`): the turn limit."""

    battle: str


class End(_Command, tag="end"):
    """End the battle as an input log ended it: `>forcelose p2`, `>forcewin p1` or
    `>forcetie` (a forfeit or a loss on time, as Showdown's server writes them)."""

    battle: str
    line: str


class Close(_Command, tag="close"):
    """Forget the battle (no reply)."""

    battle: str


class Follow(_Command, tag="follow"):
    """Follow a replay's spectator log, for importing it; no battle is kept (see `Followed`)."""

    battle: str
    lines: list[str]


class DebugCrash(_Command, tag="debug-crash"):
    """For tests only (with POKEVIEW_TEST_SWITCHES=debug-crash): the battle's next choice throws
    inside the simulator."""

    battle: str


Command = Info | Start | Choose | Tie | End | Close | Follow | DebugCrash


class _Reply(msgspec.Struct, tag_field="type", forbid_unknown_fields=True):
    """What the bridge sends, one JSON line each."""


class Ready(_Reply, tag="ready"):
    """The bridge's first line: it is listening."""

    showdown: str
    pid: int


class InfoReply(_Reply, tag="info"):
    showdown: str
    battles: int


class Chosen(msgspec.Struct, forbid_unknown_fields=True):
    """A choice the bridge made and sent for a side it plays (`Autoplay`), and how long it took."""

    choice: str
    ms: float


class SideUpdate(msgspec.Struct, forbid_unknown_fields=True):
    """What one side saw in one step: protocol lines, their words, a request, a refusal."""

    lines: list[str]
    text: list[str]
    # The request and what the side knows (its state, sent at every step it saw lines) come as the
    # bridge's JSON, undecoded: the record writes them as they are (together two thirds of a
    # step's bytes), and each is decoded only for a reader.
    request_json: msgspec.Raw = msgspec.field(default=NULL_JSON, name="request")
    error: str | None = None
    state: msgspec.Raw = NULL_JSON
    # Record format 4: the request and state as differences from the side's last ones (the
    # state is then not sent whole; the request is, for the player). See store/differences.py.
    request_delta: msgspec.Raw = NULL_JSON
    state_delta: msgspec.Raw = NULL_JSON
    chosen: Chosen | None = None  # the bridge's own choice for this request (`Autoplay`)


class Ending(msgspec.Struct, forbid_unknown_fields=True):
    """How a battle ended: the winning side (None for a tie) after so many turns."""

    winner: Side | None
    turns: int


class Stopped(msgspec.Struct, forbid_unknown_fields=True):
    """Where an omniscient replay met a choice Showdown refused: the input log's line number
    (from 1), the line and Showdown's words."""

    line: int
    input: str
    error: str


class Step(_Reply, tag="step"):
    """Everything the simulator emitted for one command: each side's update (only the sides
    that saw something), the spectator's and the input log's new lines, and the end."""

    battle: str
    sides: dict[Side, SideUpdate]
    spectator: list[str]
    input: list[str]
    end: Ending | None = None
    stopped: Stopped | None = None  # only an omniscient replay's step has it


class Piece(msgspec.Struct, forbid_unknown_fields=True):
    """A followed replay cut at a turn's start: its lines, each side's words for them, and what
    each side's view shows after it (undecoded, as a step's state)."""

    lines: list[str]
    text: dict[Side, list[str]]
    state: dict[Side, msgspec.Raw]


class Followed(_Reply, tag="followed"):
    battle: str
    pieces: list[Piece]


class Played(_Reply, tag="played"):
    """A game of two bots the bridge played through by itself (`Autoplay.whole`): its
    input log, its spectator log, its end, and each decision's side and time in ms, in the
    order they were made. `end` is None where the bridge stopped (`stopped` says why: a
    refused choice, the turn limit, Team Preview), and the game is to be played the usual way."""

    battle: str
    input: list[str]
    spectator: list[str]
    end: Ending | None
    decisions: list[tuple[Side, float]]
    stopped: str | None = None


class Crash(_Reply, tag="crash"):
    """A command failed (an unknown battle or op, a bad team, a throw in the simulator): that
    battle, if any, is gone."""

    battle: str | None
    message: str


Reply = Ready | InfoReply | Step | Followed | Played | Crash
