"""Review of the random bot played in the bridge (issue 33): the random bot against players
Python asks in a task (a model on loopback, a person), on either seat. The bridge then chooses
for the random side while the other side's answer is still on its way; the record must be the
one Python choosing both would have made."""

from __future__ import annotations

import asyncio
import json
import random

import msgspec

from pokeview.battle import seeds
from pokeview.battle.loop import play_game
from pokeview.battle.spec import GameSpec
from pokeview.players import make_player
from pokeview.players.human import HumanPlayer
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
    """`everything`, with the timings inside a decision's detail (a model's latency) left out."""
    return steady(unpacked(msgspec.to_builtins(everything(store, game_id))))


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
    bridge, tmp_path, loopback
):
    here = open_store(tmp_path / "python.db")
    there = open_store(tmp_path / "bridge.db")
    ours = await play_mixed(bridge, here, loopback, in_bridge=False)
    theirs = await play_mixed(bridge, there, loopback, in_bridge=True)
    assert [(r.status, r.winner, r.turns) for r in theirs] == [
        (r.status, r.winner, r.turns) for r in ours
    ]
    assert all(r.status == "finished" for r in ours)
    for a, b in zip(ours, theirs, strict=True):
        assert readable(there, b.game_id) == readable(here, a.game_id)
    here.close()
    there.close()
