"""Five real Showdown replays from other projects (tests/data/replays, SOURCES.md), imported as
`pokeview import` takes them and walked frame by frame: every volatile (`-start`), field
condition (`-weather`, `-fieldstart`, `-sidestart`), item (`-item`, `-enditem`, `[from] item:`)
and ability (`-ability`, `[from] ability:`) the log has revealed by a frame is on that frame's
board, on the side it belongs to, and gone once the log says it ended (issue 31). The reading of
the log below is independent of the bridge's and simple on purpose."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field

import pytest
from rich.console import Console

from pokeview.battle.replay import Replay
from pokeview.board.layout import BoardView, block, draw, halves
from pokeview.board.parts import field_line
from tests.integration.test_real_logs import SINGLES, _imported


def to_id(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def effect(text: str) -> str:
    """`move: Leech Seed` -> `Leech Seed`."""
    return text.split(": ", 1)[1] if ": " in text else text


# -start effects that are no lasting state of the Pokémon (Showdown's client shows none of them
# as a volatile, or keeps them on the side: Future Sight and Doom Desire wait on the field).
NOT_VOLATILE = {"futuresight", "doomdesire", "typechange", "typeadd", "bide", "dynamax"}
# The protocol's weather ids as Showdown's client names them.
WEATHER = {
    "sunnyday": "sun",
    "raindance": "rain",
    "sandstorm": "sand",
    "desolateland": "harshsunshine",
    "primordialsea": "heavyrain",
    "deltastream": "strongwinds",
}
# Volatiles the client words differently from the protocol: the protocol's id -> the board's.
WORDED = {"slowstart": "slowstart", "fallen1": "fallen", "fallen2": "fallen", "fallen3": "fallen"}


@dataclass
class Reading:
    """What the log has said by now, per side: the active Pokémon, its volatiles; every
    Pokémon's item and ability as last revealed; the field."""

    active: dict[str, str] = field(default_factory=dict)  # side -> ident name
    species: dict[tuple[str, str], str] = field(default_factory=dict)
    volatiles: dict[str, set[str]] = field(default_factory=lambda: {"p1": set(), "p2": set()})
    items: dict[tuple[str, str], str] = field(default_factory=dict)
    abilities: dict[tuple[str, str], str] = field(default_factory=dict)
    # An ability taken for a while (Role Play, Trace, Skill Swap): until it leaves the field.
    borrowed: dict[tuple[str, str], str] = field(default_factory=dict)
    weather: str = ""
    field_: set[str] = field(default_factory=set)
    sides: dict[str, set[str]] = field(default_factory=lambda: {"p1": set(), "p2": set()})
    ended_volatiles: int = 0
    ended_field: int = 0

    @staticmethod
    def who(ident: str) -> tuple[str, str]:
        return ident[:2], ident.split(": ", 1)[1].strip() if ": " in ident else ident

    def read(self, line: str) -> None:
        p = line.split("|")
        kind = p[1] if len(p) > 1 else ""
        tags = dict(
            (t[1:].split("] ", 1) + [""])[:2] if "] " in t else (t.strip("[]"), "")
            for t in p[2:]
            if t.startswith("[")
        )
        if kind in ("switch", "drag", "replace"):
            side, name = self.who(p[2])
            if kind != "replace":
                self.volatiles[side] = set()
                self.borrowed.pop((side, self.active.get(side, "")), None)
            self.active[side] = name
            self.species[(side, name)] = p[3].split(",")[0]
        elif kind == "faint":
            side, _ = self.who(p[2])
            self.volatiles[side] = set()
        elif kind == "-start" and len(p) > 3:
            side, name = self.who(p[2])
            what = to_id(effect(p[3]))
            if what.startswith("perish"):
                what = "perishsong"
            if what not in NOT_VOLATILE and name == self.active.get(side):
                self.volatiles[side].add(WORDED.get(what, what))
        elif kind == "-end" and len(p) > 3:
            side, _ = self.who(p[2])
            what = to_id(effect(p[3]))
            if what in self.volatiles[side]:
                self.volatiles[side].discard(what)
                self.ended_volatiles += 1
        elif kind == "-weather":
            if p[2] == "none":
                self.ended_field += bool(self.weather)
                self.weather = ""
            elif "upkeep" not in tags:
                self.weather = p[2]
        elif kind == "-fieldstart":
            self.field_.add(effect(p[2]))
        elif kind == "-fieldend":
            self.field_.discard(effect(p[2]))
            self.ended_field += 1
        elif kind == "-sidestart":
            self.sides[p[2][:2]].add(effect(p[3]))
        elif kind == "-sideend":
            self.sides[p[2][:2]].discard(effect(p[3]))
            self.ended_field += 1
        elif kind in ("-item", "-enditem") and len(p) > 3:
            self.items[self.who(p[2])] = p[3]
        elif kind == "-ability" and len(p) > 3:
            taken = tags.get("from", "").startswith(("move: ", "ability: "))
            (self.borrowed if taken else self.abilities)[self.who(p[2])] = p[3]
        elif kind == "-endability" and len(p) > 3 and not p[3].startswith("["):
            self.abilities[self.who(p[2])] = p[3]  # the ability it had all along
        if "from" in tags and kind not in ("-ability",):
            source = tags["from"]
            holder = (
                self.who(tags["of"]) if "of" in tags else self.who(p[2]) if len(p) > 2 else None
            )
            if holder is not None and source.startswith("item: ") and kind != "-item":
                self.items[holder] = source[6:]
            if holder is not None and source.startswith("ability: "):
                self.abilities[holder] = source[9:]


def board_text(renderable) -> str:  # noqa: ANN001
    console = Console(width=400, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def check_frame(shown: BoardView, reading: Reading, where: str) -> tuple[int, int]:
    """Everything the reading holds now is on the board; (volatiles, others) checked."""
    field_text = board_text(draw(shown))
    checked = [0, 0]
    field_only = to_id(board_text(field_line(shown.near)))
    if not reading.weather:  # ended (or never started): not said
        assert "weather" not in field_only, (where, field_only)
    if reading.weather:
        weather = WEATHER.get(to_id(reading.weather), to_id(reading.weather))
        assert weather in to_id(field_text), (where, reading.weather)
        checked[1] += 1
    for name in reading.field_:
        assert to_id(name.removesuffix(" Terrain")) in to_id(field_text), (where, name)
        checked[1] += 1
    for half in halves(shown):
        text = board_text(block(half, shown.names))
        lines = text.splitlines()
        side = half.side
        for condition in reading.sides[side]:  # on its own side's block, as a line of its own
            assert any(to_id(condition) in to_id(line) for line in lines[-1:]), (
                where,
                side,
                condition,
                text,
            )
            checked[1] += 1
        name = reading.active.get(side)
        if name is None or not any(m.active for m in half.team):
            continue
        known_ids = to_id(text)
        for volatile in reading.volatiles[side]:
            assert volatile in known_ids, (where, side, volatile, text)
            checked[0] += 1
        ability = reading.borrowed.get((side, name)) or reading.abilities.get((side, name))
        for known in (reading.items.get((side, name)), ability):
            if known:
                assert to_id(known) in known_ids, (where, side, name, known, text)
                checked[1] += 1
    return checked[0], checked[1]


def ended_checks(shown: BoardView, gone: dict[str, set[str]], where: str) -> int:
    """Volatiles the log ended are not on the active Pokémon's line any more."""
    count = 0
    for half in halves(shown):
        if not gone.get(half.side) or not any(m.active for m in half.team):
            continue
        mon = next(m for m in half.team if m.active)
        ids = {to_id(v.name) for v in mon.volatiles} | {to_id(v.id) for v in mon.volatiles}
        for volatile in gone[half.side]:
            assert volatile not in ids, (where, half.side, volatile)
            count += 1
    return count


@pytest.mark.parametrize("name", SINGLES)
async def test_every_reveal_is_on_the_board_at_its_frame(bridge, store, name):
    game_id = await _imported(store, bridge, name)
    replay = Replay.load(store, game_id)
    lines = [(e.id, line) for e in store.events(game_id) if e.kind == "log" for line in e.data]
    totals = [0, 0, 0]
    for view in ("p1", "p2"):
        reading, at = Reading(), 0
        for position, frame in enumerate(replay.frames[view]):
            before = {s: set(v) for s, v in reading.volatiles.items()}
            while at < len(lines) and lines[at][0] < frame.event_id:
                reading.read(lines[at][1])
                at += 1
            gone = {
                s: {v for v in before[s] - reading.volatiles[s] if reading.active.get(s)}
                for s in before
            }
            shown = BoardView(
                view, frame.turn, replay.state_of(view, position, view), None, {}, public=True
            )
            where = f"{name}, {view}'s frame {position} (turn {frame.turn})"
            volatiles, others = check_frame(shown, reading, where)
            totals[0] += volatiles
            totals[1] += others
            totals[2] += ended_checks(shown, gone, where)
    assert totals[0] + totals[1] > 30, totals  # checked at many frames
