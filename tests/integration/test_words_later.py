"""A bot's side played without words and state (`words_later`), then derived: the record, and
everything made of it, is what playing with words on would have written, byte for byte."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest

from pokeview.battle import seeds
from pokeview.battle.derive import CannotDerive, ForReaders, derive_all, later_events
from pokeview.battle.loop import play_game
from pokeview.battle.spec import GameSpec
from pokeview.errors import PokeviewError
from pokeview.exchange.files import export_as
from pokeview.players import make_player
from pokeview.players.base import Decision, DecisionContext, Player
from pokeview.players.kinds import PlayerKind
from pokeview.screens.spectate import GameSummary
from pokeview.sim import install
from pokeview.store import open_store
from pokeview.store.compaction import StoreConnection
from pokeview.store.events import EventKind

# 12 seeded games: three matchups over three formats, and one cut short at the turn limit.
GAMES = [
    (fmt, p1, p2, pair)
    for pair, (p1, p2) in enumerate(
        [("random", "random"), ("heuristic", "max-damage"), ("max-damage", "random")]
    )
    for fmt in ("gen9randombattle", "gen4randombattle", "gen1randombattle")
] + [
    ("gen9randombattle", "random", "heuristic", 7),
    ("gen7randombattle", "heuristic", "heuristic", 8),
    ("gen9randombattle", "random", "random", 9),
]
VARYING = {"id", "game_id", "run_id", "at", "created_at", "started_at", "ended_at"}


def steady(value: Any) -> Any:
    """What differs between two plays of one game (ids, times, latencies) left out."""
    if isinstance(value, dict):
        return {k: steady(v) for k, v in value.items() if k not in VARYING and k[-3:] != "_ms"}
    if isinstance(value, list):
        return [steady(v) for v in value]
    return value


async def play_all(bridge, store, words_later: bool, games=GAMES) -> list[int]:
    async def one(n: int, fmt: str, p1: str, p2: str, pair: int) -> int:
        result = await play_game(
            GameSpec(
                format=fmt,
                seed=seeds.game_seed("later", pair * 10 + n),
                p1=make_player(p1),
                p2=make_player(p2),
                seed_text="later",
                pair=pair,
                turn_limit=12 if pair == 9 else 1000,
            ),
            bridge=bridge,
            store=store,
            words_later=words_later,
            whole=False,  # step by step (a game played whole: test_played_whole.py)
        )
        return result.game_id

    ids = await asyncio.gather(*[one(n, *game) for n, game in enumerate(games)])
    store.commit()
    return list(ids)


def exports(store, ids: list[int]) -> list[dict[str, Any]]:
    return [
        {
            "json": steady(orjson.loads(export_as(store, i, "json"))),
            **{fmt: export_as(store, i, fmt) for fmt in ("log", "inputlog", "html")},
        }
        for i in ids
    ]


async def test_games_played_with_words_later_derive_to_the_same_record(
    bridge, tmp_path, monkeypatch
):
    monkeypatch.setattr(StoreConnection, "deriver", None)  # derived here, step by step
    eager = open_store(tmp_path / "eager.db")
    lazy = open_store(tmp_path / "lazy.db")
    eager_ids = await play_all(bridge, eager, words_later=False)
    lazy_ids = await play_all(bridge, lazy, words_later=True)

    # Played lazily, the bots' sides hold their lines and requests, no words and no state.
    pending = [e for i in lazy_ids for e in later_events(lazy.events(i))]
    assert pending and all(not e.data.text and e.data.state is None for e in pending)
    assert exports(lazy, lazy_ids) != exports(eager, eager_ids)

    assert await derive_all(lazy, bridge, lazy_ids) == len(pending)
    assert not [e for i in lazy_ids for e in later_events(lazy.events(i))]
    assert exports(lazy, lazy_ids) == exports(eager, eager_ids)
    # The side events' stored bytes too, each as the eager game wrote it.
    for a, b in zip(eager_ids, lazy_ids, strict=True):
        kinds = (EventKind.SIDE,)
        assert [e.data for e in eager.events(a, kinds=kinds)] == [
            e.data for e in lazy.events(b, kinds=kinds)
        ]
    assert await derive_all(lazy, bridge, lazy_ids) == 0  # derived once, then kept
    eager.close()
    lazy.close()


async def test_a_reader_of_a_game_of_two_bots_meets_its_words_derived(bridge, tmp_path):
    """By default a game of two bots is played lazily, and the first reader (an export here,
    with the deriver the command line installs) gets, and keeps, what an eager game wrote."""
    eager = open_store(tmp_path / "eager.db")
    lazy = open_store(tmp_path / "lazy.db")
    games = GAMES[:2]
    eager_ids = await play_all(bridge, eager, words_later=False, games=games)
    lazy_ids = await play_all(bridge, lazy, words_later=None, games=games)
    stored = [e for i in lazy_ids for e in lazy._stored_body(i).events]  # as written
    assert any(kind == "side" and '"later":true' in data for _, _, kind, data, _ in stored)
    assert exports(lazy, lazy_ids) == exports(eager, eager_ids)
    lazy.close()
    again = open_store(tmp_path / "lazy.db")  # kept: another process reads it as written
    assert not [e for i in lazy_ids for e in later_events(again.events(i))]
    again.close()
    eager.close()


class Paused(Player):
    """A random bot that stops before its sixth decision until let go: its game is running."""

    kind = PlayerKind.BOT
    reads_words = False

    def __init__(self) -> None:
        self.name = "random"
        self.bot = make_player("random")
        self.reached, self.go = asyncio.Event(), asyncio.Event()

    def describe(self) -> dict[str, Any]:
        return self.bot.describe()

    async def decide(self, ctx: DecisionContext) -> Decision:
        if ctx.index == 5:
            self.reached.set()
            await self.go.wait()
        return self.bot.decide_now(ctx)


async def test_a_spectator_of_a_running_game_of_two_bots_sees_it_move(bridge, tmp_path):
    paused = Paused()
    spec = GameSpec(
        format="gen9randombattle",
        seed=seeds.game_seed("live", 1),
        p1=paused,
        p2=make_player("random"),
        seed_text="live",
    )
    store = open_store(tmp_path / "live.db")
    game = asyncio.create_task(play_game(spec, bridge=bridge, store=store))
    await asyncio.wait_for(paused.reached.wait(), 60)
    store.commit()
    spectator = open_store(tmp_path / "live.db")  # as `pokeview spectate` reads it
    (running,) = spectator.games(status="running")
    raw = spectator.conn.execute("select data from events where kind = 'side'").fetchall()
    assert raw and all('"later":true' in r[0] for r in raw)  # recorded without words
    summary = GameSummary(running.id, "random", "random", "live")
    assert summary.update(spectator)
    assert summary.turn >= 4 and summary.state["p1"] and summary.state["p2"]
    seen = spectator.events(running.id, kinds=(EventKind.SIDE,))
    assert all(not e.data.later and e.data.text for e in seen if e.data.lines)
    paused.go.set()
    result = await game
    # What the spectator saw is what the record holds once the game is over and read.
    final = {e.id: e.data for e in store.events(result.game_id, kinds=(EventKind.SIDE,))}
    assert [e.data for e in seen] == [final[e.id] for e in seen]
    spectator.close()
    store.close()


async def test_a_reader_with_no_node_is_told_so_in_one_line(bridge, tmp_path, monkeypatch):
    store = open_store(tmp_path / "lazy.db")
    (game_id,) = await play_all(bridge, store, words_later=True, games=GAMES[:1])

    def no_node() -> str:
        raise PokeviewError("Node.js was not found")

    monkeypatch.setattr(install, "node_executable", no_node)
    reader = ForReaders()  # a process of its own, on a machine without Node
    monkeypatch.setattr(StoreConnection, "deriver", reader)
    with pytest.raises(CannotDerive) as told:
        export_as(store, game_id, "json")
    assert "\n" not in str(told.value) and "Node.js was not found" in str(told.value)
    stored = store._stored_body(game_id).events  # nothing was written
    assert any(kind == "side" and '"later":true' in data for _, _, kind, data, _ in stored)
    store.close()
