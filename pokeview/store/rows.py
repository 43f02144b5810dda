"""Typed rows of the record, as the Store hands them out."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

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
        if self.winner == "p1":
            return self.p1
        if self.winner == "p2":
            return self.p2
        return "tie" if self.winner == "tie" else "-"


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
