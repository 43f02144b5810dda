"""Real logs from other programs (tests/data/replays, SOURCES.md), imported and walked frame by
frame: at every frame the board pokeview shows agrees with an independent reading of the log
(below: simple on purpose) on each side's active Pokémon, HP, status, boosts, Tera, weather,
terrain and hazards."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pokeview.exchange import ImportKind, import_input_log, import_kind
from pokeview.game.side import SideState
from pokeview.showdown_replay import import_replay, server_input_log

REPLAYS = Path(__file__).parent.parent / "data" / "replays"
SINGLES = [
    "poke-env-0.16.1-gen9randombattle.html",
    "pokechamp-gen9ou.html",
    "server-gen9randombattle.log.json",
    "pkmn-ps-gen7-singles.p1.log",
    "pkmn-ps-gen7-illusion.p1.log",  # the foe's Illusion, revealed by |replace| at turn 78
]


@dataclass
class Mon:
    species: str
    hp: float = 1.0  # a share of the whole
    status: str = ""
    boosts: dict[str, int] = field(default_factory=dict)
    tera: str = ""


@dataclass
class Reading:
    """What the log says so far, read line by line."""

    mons: dict[tuple[str, str], Mon] = field(default_factory=dict)  # (side, name)
    active: dict[str, str] = field(default_factory=dict)
    weather: bool = False
    terrain: str = ""
    hazards: dict[str, set[str]] = field(default_factory=lambda: {"p1": set(), "p2": set()})

    def mon(self, who: str) -> Mon:
        side, name = who[:2], who.split(": ", 1)[1]
        return self.mons.setdefault((side, name), Mon(name))

    def hp(self, mon: Mon, text: str) -> None:
        value, _, status = text.partition(" ")
        if value == "0" or status == "fnt":
            mon.hp, mon.status = 0.0, "fnt"
            return
        now, _, whole = value.partition("/")
        mon.hp = int(now) / int(whole or 100)
        mon.status = status

    def read(self, line: str) -> None:
        p = line.split("|")
        kind = p[1] if len(p) > 1 else ""
        if kind in ("switch", "drag", "replace"):
            side, name = p[2][:2], p[2].split(": ", 1)[1]
            old = self.mons.get((side, self.active.get(side, "")))
            if old is not None and kind != "replace":
                old.boosts = {}
            mon = self.mon(p[2])
            mon.species = p[3].split(",")[0]
            if kind == "replace" and old is not None:  # the disguise was this one all along
                mon.hp, mon.status, mon.boosts = old.hp, old.status, old.boosts
            else:
                self.hp(mon, p[4])
            self.active[side] = name
        elif kind in ("-damage", "-heal", "-sethp") and len(p) > 3:
            self.hp(self.mon(p[2]), p[3])
        elif kind == "faint":
            mon = self.mon(p[2])
            mon.hp, mon.status = 0.0, "fnt"
        elif kind == "-status":
            self.mon(p[2]).status = p[3]
        elif kind == "-curestatus":
            self.mon(p[2]).status = ""
        elif kind in ("-boost", "-unboost"):
            boosts = self.mon(p[2]).boosts
            step = int(p[4]) * (1 if kind == "-boost" else -1)
            boosts[p[3]] = max(-6, min(6, boosts.get(p[3], 0) + step))
            boosts.pop(p[3]) if boosts[p[3]] == 0 else None
        elif kind == "-setboost":
            self.mon(p[2]).boosts[p[3]] = int(p[4])
        elif kind in ("-clearboost", "-clearallboost"):
            for who in [p[2]] if kind == "-clearboost" else list(self.active.items()):
                key = who if isinstance(who, str) else f"{who[0]}a: {who[1]}"
                self.mon(key).boosts = {}
        elif kind == "-clearnegativeboost":
            mon = self.mon(p[2])
            mon.boosts = {k: v for k, v in mon.boosts.items() if v > 0}
        elif kind == "-terastallize":
            self.mon(p[2]).tera = p[3]
        elif kind == "-weather":
            self.weather = p[2] != "none"
        elif kind == "-fieldstart" and "Terrain" in p[2]:
            self.terrain = p[2].removeprefix("move: ").removesuffix(" Terrain")
        elif kind == "-fieldend" and "Terrain" in p[2]:
            self.terrain = ""
        elif kind in ("-sidestart", "-sideend"):
            what = p[3].removeprefix("move: ")
            hazards = self.hazards[p[2][:2]]
            hazards.add(what) if kind == "-sidestart" else hazards.discard(what)


UNFOLLOWED = ("-swapboost", "-copyboost", "-invertboost", "-transform", "-clearpositiveboost")


def _check(reading: Reading, state: SideState, where: str, view: str) -> int:
    """Compare one frame's board (a side's snapshot: its team, then the foe's) with the
    reading."""
    checked = 0
    field_ = state.field
    assert bool(field_.weather) == reading.weather, where
    assert field_.terrain == reading.terrain, where
    foe = "p2" if view == "p1" else "p1"
    for side, team, conditions in (
        (view, state.team, field_.mine),
        (foe, state.foe_team, field_.theirs),
    ):
        names = {c.name for c in conditions}
        assert reading.hazards[side] <= names, (where, side, reading.hazards[side], names)
        if side not in reading.active:
            continue
        mon = reading.mons[(side, reading.active[side])]
        shown = [m for m in team if m.active]
        if not shown and mon.status == "fnt":  # fainted, its replacement not yet in
            continue
        assert len(shown) == 1, (where, side)
        board = shown[0]
        assert board.species.split("-")[0] == mon.species.split("-")[0], (where, side)
        if board.maxhp:
            assert abs(board.hp / board.maxhp - mon.hp) <= 0.011, (where, side, board, mon)
        assert board.status == ("" if mon.status == "fnt" else mon.status), (where, side)
        assert {k: v for k, v in board.boosts.items() if v} == mon.boosts, (where, side)
        for (s, _), seen in reading.mons.items():
            if s == side and seen.tera:  # a Tera once used stays said, fainted or not
                terastallized = [m for m in team if m.terastallized == seen.tera]
                assert terastallized, (where, side, seen)
        checked += 1
    return checked


async def _imported(store, bridge, name: str) -> int:
    path = REPLAYS / name
    text = path.read_text(encoding="utf-8")
    if import_kind(path, text) is ImportKind.SERVER_LOG:
        return await import_input_log(store, "\n".join(server_input_log(text)), name, bridge)
    store.skip_verify = True
    return await import_replay(store, text, name, bridge)


@pytest.mark.parametrize("name", SINGLES)
async def test_the_board_agrees_with_the_log_at_every_frame(bridge, store, name):
    game_id = await _imported(store, bridge, name)
    reading, frames, checked, followed = Reading(), 0, 0, True
    for event in store.events(game_id):
        if event.kind == "log":
            for line in event.data:
                followed = followed and not line.startswith(tuple(f"|{k}|" for k in UNFOLLOWED))
                reading.read(line)
        elif event.kind == "side" and event.data.state and followed:
            frames += event.side == "p1"
            where = f"{name}, frame {frames}, {event.side}'s view"
            checked += _check(reading, event.data.state, where, event.side)
    assert frames >= 8 and checked > frames  # both sides, nearly every frame
