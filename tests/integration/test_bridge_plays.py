"""The random bot played inside the bridge (`sim/bridge/autoplay.js`): the same games, the same
record, byte for byte, as Python choosing each move; and no round trip to Python at its choices."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import subprocess
from typing import Any

import orjson

from pokeview import paths
from pokeview.battle import seeds
from pokeview.battle.loop import play_game
from pokeview.battle.spec import GameSpec
from pokeview.battle.verify import verify_game
from pokeview.exchange.files import export_as
from pokeview.players import make_player
from pokeview.store import open_store
from pokeview.store.events import EventKind
from tests.integration.test_words_later import steady

# 40 seeded games: random against random in six generations, random against the bots Python
# plays on either seat (the choices then reach Showdown in Python's order), and games cut at a
# turn limit (Python ends those, and the bridge must stop choosing there).
GAMES = (
    [("gen9randombattle", "random", "random", n, 1000) for n in range(16)]
    + [(f"gen{g}randombattle", "random", "random", g, 1000) for g in (1, 3, 4, 7, 8)]
    + [("gen9randombattle", "random", "heuristic", n, 1000) for n in range(5)]
    + [("gen9randombattle", "max-damage", "random", n, 1000) for n in range(5)]
    + [("gen8randombattle", "heuristic", "random", 30, 1000)]
    + [("gen9randombattle", "random", "random", 40 + n, 3 + n) for n in range(8)]
)


async def play_all(bridge, store, in_bridge: bool) -> list[Any]:
    async def one(fmt: str, p1: str, p2: str, pair: int, turn_limit: int):
        return await play_game(
            GameSpec(
                format=fmt,
                seed=seeds.game_seed("in-bridge", pair),
                p1=make_player(p1),
                p2=make_player(p2),
                seed_text="in-bridge",
                pair=pair,
                turn_limit=turn_limit,
            ),
            bridge=bridge,
            store=store,
            in_bridge=in_bridge,
        )

    results = await asyncio.gather(*[one(*g) for g in GAMES])
    store.commit()
    return list(results)


def everything(store, game_id: int) -> dict[str, Any]:
    """A game as its readers see it: the exports, every event and every decision."""
    return {
        "json": steady(orjson.loads(export_as(store, game_id, "json"))),
        **{fmt: export_as(store, game_id, fmt) for fmt in ("log", "inputlog", "html")},
        "events": [(e.kind, e.side, e.data) for e in store.events(game_id)],
        "decisions": [
            steady({f.name: getattr(d, f.name) for f in dataclasses.fields(d)})
            for side in ("p1", "p2")
            for d in store.decisions(game_id, side)
        ],
    }


async def test_games_the_bridge_plays_are_recorded_as_python_would_have(
    bridge, tmp_path, counted_choices
):
    here = open_store(tmp_path / "python.db")
    there = open_store(tmp_path / "bridge.db")
    ours = await play_all(bridge, here, in_bridge=False)
    sent_by_python = len(counted_choices)
    counted_choices.clear()
    theirs = await play_all(bridge, there, in_bridge=True)
    sent_by_the_loop = len(counted_choices)  # (reading words_later's games replays them)

    assert [(r.status, r.winner, r.turns, r.ending) for r in theirs] == [
        (r.status, r.winner, r.turns, r.ending) for r in ours
    ]
    assert all(r.status == "finished" for r in ours)
    assert {r.ending for r in ours[-8:]} == {"turn limit"}
    for a, b in zip(ours, theirs, strict=True):
        assert everything(there, b.game_id) == everything(here, a.game_id)
    # The bridge made the random bots' choices: Python sent the other bots' (and the random
    # bot's where only poke-env can say: dynamax in generation 8).
    assert sent_by_python > 2000 and 0 < sent_by_the_loop < sent_by_python / 3
    here.close()
    there.close()


async def test_a_choice_python_would_not_make_stops_the_game_with_its_reason(
    bridge, tmp_path, monkeypatch
):
    # Python's seeds for its check differ from the bridge's: the first choice disagrees.
    real = seeds.decision_seed
    monkeypatch.setattr(seeds, "decision_seed", lambda s, side, n: real(s, side, n + 1))
    store = open_store(tmp_path / "differ.db")
    spec = GameSpec(
        format="gen9randombattle",
        seed=seeds.game_seed("differ", 0),
        p1=make_player("random"),
        p2=make_player("random"),
        seed_text="differ",
    )
    # Step by step: a game played whole is checked so when first read (test_played_whole.py).
    result = await play_game(spec, bridge=bridge, store=store, whole=False)
    assert result.status == "interrupted"
    assert result.error and "the bridge chose" in result.error and "\n" not in result.error
    assert not store.decisions(result.game_id, "p1")  # nothing recorded as if it were right
    store.close()


def test_the_bridges_draw_is_pythons_random_for_any_seed():
    draws = random.Random(33)
    wanted = [0, 1, 2**32 - 1, 2**32, 2**64 - 1] + [draws.getrandbits(64) for _ in range(300)]
    wanted += [seeds.decision_seed("x" * 64, "p2", n) for n in range(100)]
    module = paths.bridge_script().parent / "bridge" / "random_choice.js"
    program = (
        f"const {{pythonRandom}} = require({json.dumps(str(module))});"
        "const seeds = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "console.log(JSON.stringify(seeds.map((s) => pythonRandom(BigInt(s)))));"
    )
    node = subprocess.run(
        ["node", "-e", program],
        input=json.dumps([str(s) for s in wanted]),
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(node.stdout) == [random.Random(s).random() for s in wanted]


async def test_random_bots_in_gen9_get_a_choice_from_python_only_after_a_refusal(
    bridge, tmp_path, counted_choices
):
    store = open_store(tmp_path / "verify.db")
    results = await asyncio.gather(
        *[
            play_game(
                GameSpec(
                    format="gen9randombattle",
                    seed=seeds.game_seed("verify", n),
                    p1=make_player("random"),
                    p2=make_player("random"),
                    seed_text="verify",
                ),
                bridge=bridge,
                store=store,
            )
            for n in range(4)
        ]
    )
    store.commit()
    # Showdown refuses a switch out of a trap the request did not show (Shadow Tag, Arena Trap):
    # Python's player is asked again, with the refusal, as before.
    refusals = sum(len(d.refusals) for r in results for d in store.decisions(r.game_id))
    assert len(counted_choices) == refusals > 0
    for result in results:
        assert result.status == "finished"
        choices = store.events(result.game_id, kinds=(EventKind.CHOICE,))
        decisions = store.decisions(result.game_id)  # a choice event for each attempt
        assert len(decisions) > 20
        assert len(choices) == len(decisions) + sum(len(d.refusals) for d in decisions)
        assert (await verify_game(bridge, store, result.game_id)).ok
    store.close()


async def test_a_choice_for_a_side_the_bridge_does_not_play_stops_the_game(
    bridge, tmp_path, monkeypatch
):
    # The bridge told to play both sides where Python plays p2 (max-damage): Python refuses to
    # record its choice as max-damage's, even where the two would agree.
    from pokeview.battle import loop

    told = loop._Game.start_spec

    def both_sides(self):
        start = told(self)
        start.autoplay.sides = ["p1", "p2"]
        return start

    monkeypatch.setattr(loop._Game, "start_spec", both_sides)
    store = open_store(tmp_path / "side.db")
    spec = GameSpec(
        format="gen9randombattle",
        seed=seeds.game_seed("side", 0),
        p1=make_player("random"),
        p2=make_player("max-damage"),
        seed_text="side",
    )
    result = await play_game(spec, bridge=bridge, store=store, whole=False)  # (step by step)
    assert result.status == "interrupted"
    assert result.error and "a side it does not play" in result.error
    assert not store.decisions(result.game_id, "p2")
    store.close()
