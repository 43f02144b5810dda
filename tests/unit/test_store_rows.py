"""The Store's queries hand out typed rows, read by attribute, never `sqlite3.Row`s or tuples
indexed by column name or position (issue 30)."""

from __future__ import annotations

import dataclasses
import sqlite3

import pytest

from pokeview.game.decision import TokenUsage
from pokeview.ratings.decisions import DecisionFacts, decision_facts, player_decision_stats
from pokeview.store import open_store
from pokeview.store.rows import GameLine, PlayerStats


@pytest.fixture
def store(tmp_path):
    store = open_store(tmp_path / "rows.db")
    run_id = store.create_run("league", {"players": ["a", "b"]}, "hash", 4)
    common = {"format": "gen9randombattle", "run_id": run_id, "p1": "a", "p2": "llm:b"}
    config = {"p1_config": {"kind": "bot"}, "p2_config": {"kind": "llm", "player": "b"}}
    won = store.create_game(seed="1", pair=0, seat=0, **common, **config)
    store.add_decision(
        won, side="p2", idx=0, turn=1, actions=["move Tackle"], action=0, how="answer",
        detail={"model": "b", "cost": 0.5, "usage": {"input": 3, "output": 7}, "attempts": [{"n": 0, "status": "ok"}]},
    )  # fmt: skip
    store.finish_game(won, status="finished", winner="p2", turns=12, input_log="", ending=None)
    void = store.create_game(seed="2", pair=0, seat=1, **common)
    store.finish_game(
        void, status="void", winner="p1", turns=3, input_log="", ending=None,
        error="void: p2 (p2) was on autopilot for 90% of its decisions",
    )  # fmt: skip
    store.set_excluded(void)
    store.create_game(seed="3", pair=1, seat=0, **common)  # still running
    store.commit()
    yield store
    store.close()


def only_game_lines(rows: list) -> list[GameLine]:
    assert rows and all(type(r) is GameLine for r in rows), rows
    return rows


def test_every_game_list_is_of_typed_game_lines(store):
    run_id = store.find_run("league").id
    games = only_game_lines(store.run_games(run_id))
    first = games[0]
    assert (first.id, first.run, first.pair, first.seat) == (1, "league", 0, 0)
    assert (first.p1, first.p2, first.status, first.winner, first.turns) == (
        "a", "llm:b", "finished", "p2", 12,
    )  # fmt: skip
    assert first.winner_name == "llm:b" and first.players == {"p1": "a", "p2": "llm:b"}
    assert first.excluded is False and games[1].excluded is True
    assert [g.id for g in only_game_lines(store.running_games([run_id]))] == [3]
    assert [g.id for g in only_game_lines(store.ended_games([run_id]))] == [2, 1]
    assert [g.id for g in only_game_lines(store.results([run_id]))] == [1]
    assert [g.id for g in only_game_lines(store.rating_games(run_id))] == [1]
    void = only_game_lines(store.void_games(run_id))
    assert [g.id for g in void] == [2] and "autopilot" in (void[0].error or "")
    listed = only_game_lines(store.search_games("league"))
    assert [(g.id, g.run, g.format) for g in listed] == [
        (3, "league", "gen9randombattle"),
        (2, "league", "gen9randombattle"),
        (1, "league", "gen9randombattle"),
    ]
    assert [g.id for g in store.search_games("2")] == [2]
    # "²" is a digit to str.isdigit, not to int(): the home screen said the file could not be
    # read. It is text to look for, found nowhere.
    assert store.search_games("²") == []


def test_decision_facts_and_player_stats_are_typed(store):
    facts = decision_facts(store, [1])
    assert facts == [
        DecisionFacts(
            game_id=1, side="p2", turn=1, how="answer", player="llm:b", kind="llm",
            spec_name="b", label="move Tackle", usage=TokenUsage(input=3, output=7), cost=0.5, model=True,
            answers=1, unknown_actions=0, unknown_example=None,
        )
    ]  # fmt: skip
    stats = {s.player: s for s in player_decision_stats(store, [1])}
    assert all(type(s) is PlayerStats for s in stats.values())
    assert stats["llm:b"].decisions == 1 and stats["llm:b"].model_decisions == 1
    assert stats["llm:b"].cost == 0.5 and stats["llm:b"].estimated is False


def test_the_typed_rows_cannot_be_indexed_like_sqlite_rows():
    line = GameLine(
        1, None, None, None, None, "f", "t", "a", "b", "finished", "p1", 3, None, {}, False
    )
    with pytest.raises(TypeError):
        line["p1"]  # type: ignore[index]
    assert not isinstance(line, sqlite3.Row | tuple)
    with pytest.raises(dataclasses.FrozenInstanceError):
        line.winner = "p2"  # type: ignore[misc]
