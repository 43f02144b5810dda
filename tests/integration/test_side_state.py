"""A side's state as the bridge sends it: every one of many seeded games decodes into the strict
structs (`pokeview/game/side.py`) and fits the committed JSON schema; and every state a viewer
shows, read back from the record, agrees with Showdown's own client fed that side's lines."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
from bisect import bisect_right
from pathlib import Path

import jsonschema
import msgspec
import pytest

from pokeview import paths
from pokeview.battle import seeds
from pokeview.battle.actions import legal_actions
from pokeview.battle.loop import start_spec
from pokeview.battle.replay import VIEWS, Replay
from pokeview.game.side import Pokemon, SideState, decode_state
from pokeview.sim.request import decode_request
from pokeview.store.events import EventKind
from tests.helpers import game
from tests.integration.test_real_logs import SINGLES, _imported

FORMATS = ["gen1randombattle", "gen4randombattle", "gen7randombattle", "gen9randombattle"]
SCHEMA = Path(__file__).parents[2] / "docs" / "schemas" / "side-state.schema.json"
CLIENT = Path(__file__).with_name("client_reading.js")


@pytest.mark.parametrize("fmt", FORMATS)
async def test_the_bridges_states_decode_strictly_and_fit_the_schema(bridge, fmt):
    """Ten short games of each generation, random choices, every state of both sides."""
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    states = 0
    kinds: set[str] = set()
    shapes: set[frozenset[str]] = set()
    for n in range(10):
        start = start_spec(fmt, seeds.game_seed("states", n))
        channel = await bridge.open(msgspec.structs.replace(start, whole=True))
        pick = random.Random(n)
        try:
            for _ in range(80):  # short games: about 30 turns at most
                step = await channel.next()
                for update in step.sides.values():
                    if bytes(update.state) == b"null":
                        continue
                    state = decode_state(bytes(update.state))  # unknown fields refused
                    value = json.loads(bytes(update.state))
                    shape = _shape(value)
                    if shape not in shapes:  # validating costs ~20 ms: once per shape
                        shapes.add(shape)
                        validator.validate(value)
                    states += 1
                    kinds |= {v.id for m in state.team + state.foe_team for v in m.volatiles}
                if step.end:
                    break
                for side, update in step.sides.items():
                    request = decode_request(update.request_json)
                    if request is not None and not request.wait:
                        channel.choose(side, pick.choice(legal_actions(request)).choice)
        finally:
            channel.close()
    assert states > 400 and len(shapes) > 20
    assert kinds  # volatiles were seen, so their shape was checked too


def _shape(value: object, at: str = "") -> frozenset[str]:
    """The paths of a JSON value with the type found at each (list items share one path)."""
    if isinstance(value, dict):
        return frozenset().union(*(_shape(v, f"{at}.{k}") for k, v in value.items()), {at})
    if isinstance(value, list):
        return frozenset().union(*(_shape(v, f"{at}[]") for v in value), {at + "[]"})
    return frozenset({f"{at}:{type(value).__name__}"})


# -- the record's states against Showdown's own client -------------------------------------------


def _client_readings(sides: dict[str, dict]) -> dict[str, list[dict]]:
    env = {**os.environ, "POKEVIEW_SHOWDOWN_DIR": str(paths.showdown_dir())}
    run = subprocess.run(
        ["node", str(CLIENT)], input=json.dumps(sides), capture_output=True, text=True, env=env
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout)


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _in_play(team: list[Pokemon]) -> list[Pokemon]:
    return [m for m in team if m.active and not m.fainted]


def _read_in_play(team: list[dict]) -> list[dict]:
    return [m for m in team if m["active"] and not m["fainted"]]


def _same(state: SideState, client: dict, where: str) -> None:
    field = state.field
    assert field.weather == client["weather"], where
    assert field.terrain == client["terrain"], where
    assert sorted(_key(p) for p in field.pseudo_weather) == client["pseudoWeather"], where
    assert sorted(c.name for c in field.mine) == client["mine"], where
    assert sorted(c.name for c in field.theirs) == client["theirs"], where
    for ours, theirs, who in (
        (state.team, client["team"], "own"),
        (state.foe_team, client["foeTeam"], "foe"),
    ):
        assert sum(m.fainted for m in ours) == sum(m["fainted"] for m in theirs), (where, who)
        mine, seen = _in_play(ours), _read_in_play(theirs)
        assert len(mine) == len(seen) <= 1, (where, who, mine, seen)
        for board, read in zip(mine, seen, strict=True):
            if read["species"] is not None:  # Transform: the client names the copy
                assert board.species.split("-")[0] == read["species"].split("-")[0], (where, who)
            assert abs(board.hp / board.maxhp - read["hp"] / read["maxhp"]) <= 0.011, (
                where,
                who,
                board,
                read,
            )
            assert board.status == read["status"], (where, who, board, read)
            assert board.boosts == read["boosts"], (where, who, board, read)


def _check_record(store, game_id: int, name: str) -> int:
    """Every state the viewer can show (each side's, at every step it has one) against the
    client fed that side's lines up to that step; and each frame shows the latest of them."""
    replay = Replay.load(store, game_id)
    lines: dict[str, list[str]] = {"p1": [], "p2": []}
    points: dict[str, list[int]] = {"p1": [], "p2": []}
    for event in store.events(game_id, kinds=(EventKind.SIDE,)):
        lines[event.side] += event.data.lines
        if event.data.state is not None:
            points[event.side].append(len(lines[event.side]))
    readings = _client_readings({s: {"lines": lines[s], "points": points[s]} for s in lines})
    compared = 0
    for side in ("p1", "p2"):
        states = replay.states[side]
        assert len(states) == len(points[side])
        for n, ((_, state), client) in enumerate(zip(states, readings[side], strict=True)):
            _same(state, client, f"{name}, {side}'s state {n}")
            compared += 1
        steps = [step for step, _ in states]
        for view in VIEWS:
            for position, frame in enumerate(replay.frames[view]):
                at = bisect_right(steps, frame.step)
                shown = replay.state_of(view, position, side)
                assert shown is (states[at - 1][1] if at else None), (name, view, position)
    return compared


@pytest.mark.parametrize("fmt", FORMATS)
async def test_the_states_of_seeded_games_agree_with_showdowns_client(bridge, store, fmt):
    compared = 0
    for pair, players in enumerate((("random", "heuristic"), ("max-damage", "random"))):
        result = await game(bridge, store, *players, "client", pair, format=fmt, turn_limit=25)
        compared += _check_record(store, result.game_id, f"{fmt} game {pair}")
    assert compared > 60


@pytest.mark.parametrize("name", SINGLES)
async def test_the_states_of_real_logs_agree_with_showdowns_client(bridge, store, name):
    game_id = await _imported(store, bridge, name)
    assert _check_record(store, game_id, name) > 16


async def test_states_at_every_step_leave_the_decision_points_as_they_were(bridge, store):
    """More states than requests: still one frame per decision a side made (and the closing
    one), and the spectator's frames are both sides' decisions in order."""
    for pair in range(2):
        result = await game(bridge, store, "heuristic", "max-damage", "frames", pair)
        assert result.status == "finished" and result.ending is None
        replay = Replay.load(store, result.game_id)
        sides = store.events(result.game_id, kinds=(EventKind.SIDE,))
        stated = sum(e.data.state is not None for e in sides)
        asked = sum(bool(e.data.request and not e.data.request.get("wait")) for e in sides)
        assert stated > asked  # states where nothing was asked
        for side in ("p1", "p2"):
            decisions = store.decisions(result.game_id, side)
            indices = [frame.index for frame in replay.frames[side]]
            assert indices == list(range(len(decisions) + 1)), side
        spectator = replay.frames["spectator"][:-1]
        ids = [frame.event_id for frame in spectator]
        assert ids == sorted(ids) and len(ids) == sum(
            len(store.decisions(result.game_id, s)) for s in ("p1", "p2")
        )
