"""Typed rows of the record, as the Store hands them out."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from typing import Any, ClassVar

import orjson

from pokeview.game.decision import DecisionDetail, detail_from_json
from pokeview.game.decision import How as How  # declared with a decision's vocabulary

REPLAY_SEED = "replay"  # the seed of games imported from Showdown replays (they have none)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def loads(text: str | None) -> Any:
    return None if text is None else orjson.loads(text)


@dataclass(slots=True)
class GameRow:
    id: int
    run_id: int | None
    pair: int | None
    seat: int | None
    format: str
    seed_text: str | None
    seed: str
    p1: str
    p2: str
    p1_config: dict[str, Any]
    p2_config: dict[str, Any]
    teams: dict[str, str] | None
    status: str
    error: str | None
    winner: str | None
    turns: int | None
    started_at: str
    ended_at: str | None
    pokeview_version: str
    showdown_version: str | None
    input_log: str | None
    spectator_log: str | None
    parent_game: int | None
    parent_decision: int | None
    exclude_from_ratings: int
    pid: int | None = None  # the process playing it, while it runs
    compacted: bool = False  # its events and decisions are one compressed body
    ending: str | None = None  # how it ended when not by a last faint (battle/endings.py)

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> GameRow:
        data = dict(row)
        for key in ("p1_config", "p2_config", "teams"):
            data[key] = loads(data[key])
        data["exclude_from_ratings"] = data["exclude_from_ratings"] or 0
        data["compacted"] = bool(data.get("compacted"))
        if data["status"] == "running" and not process_alive(data.get("pid")):
            data["status"] = "interrupted"  # its process is gone: it will never finish
        return cls(**data)

    @property
    def is_imported_replay(self) -> bool:
        """A Showdown replay imported as it was: public log only, no decisions or input log."""
        return self.seed == REPLAY_SEED

    @property
    def winner_name(self) -> str:
        return winner_name(self.winner, self.p1, self.p2)


@dataclass(slots=True, frozen=True)
class GameLine:
    """A game as lists, tallies and ratings read it: its place in a run, players and result,
    without its settings or logs (`GameRow` is the whole game)."""

    id: int
    run_id: int | None
    run: str | None  # the run's name
    pair: int | None
    seat: int | None
    format: str
    started_at: str
    p1: str
    p2: str
    status: str
    winner: str | None
    turns: int | None
    error: str | None
    kinds: dict[str, str | None]  # by side: what played it (`players.kinds.PlayerKind`'s values)
    excluded: bool  # left out of the ratings (a fork, a harness error, a void game)

    # What every query of game lines selects, in the fields' order (the kinds as two columns).
    SELECT: ClassVar[str] = (
        "select g.id, g.run_id, r.name, g.pair, g.seat, g.format, g.started_at, g.p1, g.p2, "
        "g.status, g.winner, g.turns, g.error, json_extract(g.p1_config, '$.kind'), "
        "json_extract(g.p2_config, '$.kind'), coalesce(g.exclude_from_ratings, 0) != 0 "
        "from games g left join runs r on r.id = g.run_id"
    )

    @classmethod
    def query(
        cls, conn: sqlite3.Connection, where: str, params: Sequence[Any], order: str = "g.id"
    ) -> list[GameLine]:
        """The game lines `where` picks (a condition on `g`, the games, and `r`, their run)."""
        sql = f"{cls.SELECT} where {where} order by {order}"
        head = [f.name for f in fields(cls)][:-2]  # the columns before the kinds
        lines = []
        for *values, p1_kind, p2_kind, excluded in conn.execute(sql, tuple(params)):
            lines.append(
                cls(
                    **dict(zip(head, values, strict=True)),
                    kinds={"p1": p1_kind, "p2": p2_kind},
                    excluded=bool(excluded),
                )
            )
        return lines

    @property
    def players(self) -> dict[str, str]:
        return {"p1": self.p1, "p2": self.p2}

    @property
    def winner_name(self) -> str:
        return winner_name(self.winner, self.p1, self.p2)


@dataclass(slots=True, frozen=True)
class PlayerStats:
    """One player's decisions summed over some games (`Store.player_decision_stats`)."""

    player: str
    decisions: int
    with_usage: int  # decisions whose token usage is known
    output_tokens: int
    ms_total: float
    reasks: int
    random_picks: int
    autopilot: int
    cost: float | None  # USD of the decisions whose cost is known
    unknown_cost: int  # decisions of unknown cost
    model_decisions: int
    estimated: bool  # some token counts are estimates

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> PlayerStats:
        return cls(*flag_last(row))


@dataclass(slots=True)
class RunRow:
    id: int
    name: str
    config: dict[str, Any]
    header: dict[str, Any] | None
    state: str
    created_at: str
    config_hash: str | None
    planned: int | None
    pid: int | None
    updated_at: str | None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> RunRow:
        data = dict(row)
        data["config"] = loads(data["config"]) or {}
        data["header"] = loads(data["header"])
        return cls(**data)


@dataclass(slots=True)
class DecisionRow:
    id: int
    game_id: int
    side: str
    idx: int
    turn: int
    request: dict[str, Any]
    actions: list[str]
    action: int
    choice: str
    how: str
    refusals: list[dict[str, Any]]
    detail: DecisionDetail  # decoded once, here, where the record is read
    created_at: str
    latency_ms: float | None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> DecisionRow:
        return cls.from_stored(dict(row))

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> DecisionRow:
        """A decision from its stored columns (JSON columns as text)."""
        for key in ("request", "actions", "refusals"):
            data[key] = loads(data[key])
        data["detail"] = detail_from_json(data["detail"])
        return cls(**data)


@dataclass(slots=True)
class EventRow:
    id: int
    game_id: int
    side: str | None
    kind: str
    data: Any  # the kind's typed payload (pokeview.store.events)
    at: float


def flag_last(row: Sequence[Any]) -> list[Any]:
    """A row's values with the last, SQLite's 0 or 1, as a bool."""
    values = list(row)
    values[-1] = bool(values[-1])
    return values


def winner_name(winner: str | None, p1: str, p2: str) -> str:
    """Who won, as shown: a player's name, "tie", or "-" while there is no result."""
    if winner == "p1":
        return p1
    if winner == "p2":
        return p2
    return "tie" if winner == "tie" else "-"


def process_alive(pid: int | None) -> bool:
    """Whether a process with this id exists on this machine (unknown pids count as alive)."""
    if not pid:
        return True  # games recorded before pids were kept: trust the status
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True
