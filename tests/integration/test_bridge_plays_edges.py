"""The random bot played in the bridge, at its edges: against players Python asks in a task (a
model on loopback, a person) on either seat, where the bridge chooses for the random side while
the other side's answer is on its way; Revival Blessing and forced switches at the turn limit;
generations 7 and 8 (mega, z-moves, dynamax, left to Python); and requests with odd field values.
In each, the record is the one Python choosing both sides would have made."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess

import msgspec

from pokeview import paths
from pokeview.battle import seeds
from pokeview.battle.actions import legal_actions
from pokeview.battle.loop import play_game
from pokeview.battle.spec import GameSpec
from pokeview.players import make_player
from pokeview.players.human import HumanPlayer
from pokeview.players.random_choice import random_choice
from pokeview.sim.request import BadRequest, decode_request
from pokeview.store import open_store
from tests.helpers import llm
from tests.integration.test_bridge_plays import everything
from tests.integration.test_words_later import steady


def scripted_person() -> HumanPlayer:
    """A person who answers each decision a moment later, with the decision's seeded pick."""
    person = HumanPlayer("human:scripted")

    def asked(ctx) -> None:
        pick = random.Random(ctx.seed).randrange(len(ctx.actions))
        asyncio.get_running_loop().call_later(0.002, person.choose, pick)

    person.on_decision = asked
    return person


def readable(store, game_id: int):
    """`everything`, with the timings inside a decision's detail (a model's latency) left out,
    and a model's streamed texts joined: how a stream is cut into events, and where those fall
    among the other side's, follows timing (as `benchmarks/fingerprint.py` joins them)."""
    game = steady(unpacked(msgspec.to_builtins(everything(store, game_id))))
    game["events"], game["streams"] = streams_joined(game["events"], lambda e: (e[0], e[1], e[2]))
    game["json"]["events"], game["json_streams"] = streams_joined(
        game["json"]["events"], lambda e: (e.get("kind"), e.get("side"), e.get("data"))
    )
    return game


def streams_joined(events: list, parts) -> tuple[list, dict[str, str]]:
    """The events without a model's streamed ones, and those joined into whole texts."""
    kept, texts = [], {}
    for event in events:
        kind, side, data = parts(event)
        if kind in ("reasoning", "answer") and isinstance(data, dict):
            key = f"{kind}|{side}|{data.get('idx')}|{data.get('attempt')}"
            texts[key] = texts.get(key, "") + str(data.get("delta", ""))
        else:
            kept.append(event)
    return kept, texts


def unpacked(value):
    """JSON held as text (the JSON export's decision details) read as values, to compare."""
    if isinstance(value, dict):
        return {k: unpacked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [unpacked(v) for v in value]
    if isinstance(value, str) and value[:1] in "{[":
        try:
            return unpacked(json.loads(value))
        except ValueError:
            return value
    return value


async def play_mixed(bridge, store, loopback, in_bridge: bool) -> list:
    async def one(p1, p2, pair: int):
        return await play_game(
            GameSpec(
                format="gen9randombattle",
                seed=seeds.game_seed("review33", pair),
                p1=p1,
                p2=p2,
                seed_text="review33",
                pair=pair,
                turn_limit=12,
            ),
            bridge=bridge,
            store=store,
            in_bridge=in_bridge,
        )

    games = [
        (llm(loopback), make_player("random"), 0),
        (make_player("random"), llm(loopback), 1),
        (scripted_person(), make_player("random"), 2),
        (make_player("random"), scripted_person(), 3),
    ]
    results = [await one(*g) for g in games]  # one at a time: the other side's timing alone
    store.commit()
    return results


async def test_random_against_players_asked_in_a_task_is_recorded_as_python_would_have(
    bridge, tmp_path, loopback, counted_choices
):
    here = open_store(tmp_path / "python.db")
    there = open_store(tmp_path / "bridge.db")
    ours = await play_mixed(bridge, here, loopback, in_bridge=False)
    sent_by_python = len(counted_choices)
    counted_choices.clear()
    theirs = await play_mixed(bridge, there, loopback, in_bridge=True)
    # The bridge chose for the random side (on p1 at each turn; on p2 only where p1 was not
    # asked in the same step, as its forced switches): 29 of 97 choices in one run.
    assert len(counted_choices) <= sent_by_python - 10
    assert [(r.status, r.winner, r.turns) for r in theirs] == [
        (r.status, r.winner, r.turns) for r in ours
    ]
    assert all(r.status == "finished" for r in ours)
    for n, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        theirs_read = readable(there, b.game_id)
        assert theirs_read == readable(here, a.game_id)
        assert bool(theirs_read["streams"]) == (n < 2)  # the model's games stream their texts
    here.close()
    there.close()


async def both_ways(bridge, tmp_path, games, name: str, sent: list[str]) -> None:
    """Each (format, text, pair, p1, p2, turn_limit) played with and without the bridge
    choosing, one at a time; every export, event and decision the same."""
    by_python = 0
    stores = {way: open_store(tmp_path / f"{name}-{way}.db") for way in (False, True)}
    results = {way: [] for way in (False, True)}
    for fmt, text, pair, p1, p2, limit in games:
        for way in (False, True):
            spec = GameSpec.new(
                fmt, text, make_player(p1), make_player(p2), pair=pair, turn_limit=limit
            )
            sent.clear()
            results[way].append(
                await play_game(spec, bridge=bridge, store=stores[way], in_bridge=way)
            )
            by_python += len(sent) if not way else -len(sent)
    assert by_python > len(games)  # the bridge made choices Python made the other way
    for way in (False, True):
        stores[way].commit()
    for a, b in zip(results[False], results[True], strict=True):
        assert (b.status, b.winner, b.turns, b.ending, b.error) == (
            a.status,
            a.winner,
            a.turns,
            a.ending,
            a.error,
        )
        assert readable(stores[True], b.game_id) == readable(stores[False], a.game_id)
    for store in stores.values():
        store.close()


async def test_revival_blessing_and_forced_switches_just_before_the_turn_limit(
    bridge, tmp_path, counted_choices
):
    # Seed "many", pair 63 (test_games.py): random against random, p1 uses Revival Blessing at
    # turn 47 and chooses whom to revive (a forced choice). Each game is cut at the turn after
    # one of its forced switches (the switch is then the last choice before the tie), at 47
    # (the tie comes before the revival) and not at all; the same with Python's bots on a seat.
    cuts = {
        ("random", "random"): (11, 22, 26, 33, 35, 39, 45, 47, 48, 52, 57, 58, 61, 1000),
        ("random", "heuristic"): (7, 12, 15, 16, 18, 22, 1000),
        ("max-damage", "random"): (6, 8, 22, 25, 28, 29, 30, 32, 35, 1000),
    }
    games = [
        ("gen9randombattle", "many", 63, p1, p2, limit)
        for (p1, p2), limits in cuts.items()
        for limit in limits
    ]
    await both_ways(bridge, tmp_path, games, "revival", counted_choices)


async def test_gimmick_generations_with_the_bridge_choosing_beside_python_sides(
    bridge, tmp_path, counted_choices
):
    # Generation 7 (mega evolution, z-moves, Hidden Power, Return) and 8 (dynamax): requests the
    # bridge leaves to Python, the random bot on either seat against Python's bots.
    games = [
        (f"gen{g}randombattle", "gimmicks", pair, p1, p2, 1000)
        for g in (7, 8)
        for pair, (p1, p2) in enumerate(
            (("random", "random"), ("random", "heuristic"), ("max-damage", "random"))
        )
    ]
    await both_ways(bridge, tmp_path, games, "gimmicks", counted_choices)


def test_the_bridges_choice_is_pythons_for_requests_with_odd_field_values():
    # Every field the two read, given values of each JSON kind where Showdown's types allow more
    # than one (empty lists and objects, empty strings, 0, null): where the bridge chooses, it
    # chooses what random_choice.py does (where it does not, Python chooses, as before).
    draws = random.Random(3301)
    odd = [True, False, "", "x", 0, 1, [], {}, None, [None], {"a": 1}, "Fire"]
    names = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot"]

    def maybe(target: dict, key: str, p: float) -> None:
        if draws.random() < p:
            target[key] = draws.choice(odd)

    def move() -> dict:
        found = {"move": "M", "id": draws.choice(["tackle", "thunder", "thunderbolt", "uturn"])}
        maybe(found, "disabled", 0.3)
        if draws.random() < 0.7:
            found["pp"], found["maxpp"] = draws.choice([0, 5, None]), draws.choice([0, 5, None])
        return found

    def request() -> dict:
        team = []
        for n in range(draws.randint(1, 6)):
            name = draws.choice(["pikachu", "Alpha"]) if draws.random() < 0.1 else names[n]
            mon = {"ident": f"p1: {name}", "details": "X, L80"}
            mon["condition"] = draws.choice(["100/100", "0 fnt", "50/100 par"])
            maybe(mon, "active", 0.4)
            maybe(mon, "reviving", 0.15)
            team.append(mon)
        made: dict = {"side": {"pokemon": team}}
        if draws.random() < 0.8:
            active = {"moves": [move() for _ in range(draws.randint(0, 4))]}
            for key in ("trapped", "canTerastallize", "canMegaEvo", "canDynamax", "maxMoves"):
                maybe(active, key, 0.12)
            made["active"] = [active]
        if draws.random() < 0.3:
            made["forceSwitch"] = draws.choice([[True], [False]])
        return made

    cases = [(request(), draws.getrandbits(64)) for _ in range(6000)]
    module = paths.bridge_script().parent / "bridge" / "random_choice.js"
    program = (
        f"const {{randomChoice}} = require({json.dumps(str(module))});"
        "const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "console.log(JSON.stringify(cases.map(([r, s]) => randomChoice(r, BigInt(s)))));"
    )
    node = subprocess.run(
        ["node", "-e", program],
        input=json.dumps([[r, str(s)] for r, s in cases]),
        capture_output=True,
        text=True,
        check=True,
    )
    chosen = 0
    for (raw, seed), theirs in zip(cases, json.loads(node.stdout), strict=True):
        request_ = decode_request(json.dumps(raw).encode())
        try:
            actions = legal_actions(request_)
        except BadRequest:
            continue  # the game loop stops there in either case, before any choice
        if theirs is None:
            continue
        index = random_choice(request_, actions, seed)
        assert index is not None and actions[index].choice == theirs, raw
        chosen += 1
    assert chosen > 1000
