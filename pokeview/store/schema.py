"""Tables and indexes (described in docs/record.md). Bump SCHEMA_VERSION with every change and
add the step to `migrate`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported by the Store only when it creates or migrates (0.1 s)
    import sqlite_utils

SCHEMA_VERSION = 7
# Older versions this one reads as they are (their migration only changes the number), so a
# read-only file of one opens without being migrated.
READ_AS_IS = (4,)


def create(db: sqlite_utils.Database) -> None:
    db.table("meta").create({"key": str, "value": str}, pk="key", if_not_exists=True)
    db.table("players").create(
        {"name": str, "kind": str, "config": str, "first_seen": str}, pk="name", if_not_exists=True
    )
    db.table("runs").create(
        {
            "id": int,
            "name": str,
            "config": str,
            "header": str,
            "state": str,
            "created_at": str,
            "config_hash": str,
            "planned": int,
            "pid": int,
            "updated_at": str,
        },
        pk="id",
        if_not_exists=True,
    )
    db.table("games").create(
        {
            "id": int,
            "run_id": int,
            "pair": int,
            "seat": int,  # 0: the matchup's first player is p1; 1: seats swapped
            "format": str,
            "seed_text": str,
            "seed": str,  # the game seed (64 hex digits); the pair's two games share it
            "p1": str,
            "p2": str,
            "p1_config": str,
            "p2_config": str,
            "teams": str,  # JSON {"p1": packed, "p2": packed} for formats that take teams
            "status": str,  # running, finished, error, interrupted
            "error": str,
            "winner": str,  # p1, p2 or tie
            "turns": int,
            "started_at": str,
            "ended_at": str,
            "pokeview_version": str,
            "showdown_version": str,
            "input_log": str,
            "spectator_log": str,
            "parent_game": int,
            "parent_decision": int,
            "exclude_from_ratings": int,
            "pid": int,  # the process playing it, while it runs
            "compacted": int,  # 1: events and decisions are in `bodies`
            "ending": str,  # how it ended when not by a last faint (battle/endings.py)
        },
        pk="id",
        if_not_exists=True,
    )
    _create_v3_tables(db)
    db.table("decisions").create(
        {
            "id": int,
            "game_id": int,
            "side": str,
            "idx": int,
            "turn": int,
            "request": str,
            "actions": str,  # JSON list of the labels, in PokéBench's order
            "action": int,
            "choice": str,
            "how": str,
            "refusals": str,  # JSON list of {"choice", "label", "error"}
            "detail": str,  # JSON: what the player kept (a model's messages, reasoning, usage...)
            "created_at": str,
            "latency_ms": float,
        },
        pk="id",
        if_not_exists=True,
    )
    db.table("events").create(
        {"id": int, "game_id": int, "side": str, "kind": str, "data": str, "at": float},
        pk="id",
        if_not_exists=True,
    )
    indexes = {
        "runs": [["name"]],
        "games": [["run_id", "pair", "seat"], ["started_at"], ["status"], ["p1"], ["p2"]],
        "decisions": [["game_id", "side", "idx"]],
        "events": [["game_id", "id"]],
    }
    for table, columns_list in indexes.items():
        for columns in columns_list:
            db.table(table).create_index(columns, if_not_exists=True)
    db.table("meta").upsert({"key": "schema_version", "value": str(SCHEMA_VERSION)}, pk="key")


def _create_v3_tables(db: sqlite_utils.Database) -> None:
    # A finished game's events and decisions, compressed together (pokeview.store.body).
    db.table("bodies").create(
        {
            "game_id": int,
            "format": int,  # pokeview.store.body.FORMAT
            "events": int,
            "decisions": int,
            "bytes": int,
            "blob": bytes,
        },
        pk="game_id",
        if_not_exists=True,
    )
    # Per game and side, what ratings read of the decisions (kept when decisions are compacted).
    db.table("decision_stats").create(
        {
            "game_id": int,
            "side": str,
            "decisions": int,
            "with_usage": int,  # decisions whose usage (tokens) is known
            "output_tokens": int,
            "ms_total": float,  # time per decision, summed (the model's time where known)
            "reasks": int,
            "random_picks": int,
            "autopilot": int,
            "cost": float,
            "unknown_cost": int,  # model decisions whose cost is unknown
            "model_decisions": int,
            "estimated": int,  # 1: the token counts are estimates (pokeview's stand-in model)
        },
        pk=("game_id", "side"),
        if_not_exists=True,
    )


def migrate(db: sqlite_utils.Database, version: int) -> None:
    """Bring an older database up to SCHEMA_VERSION, one step at a time."""
    if version < 2:  # runs gained their config hash, planned count and runner pid
        existing = set(db.table("runs").columns_dict)
        for column, kind in (
            ("config_hash", str),
            ("planned", int),
            ("pid", int),
            ("updated_at", str),
        ):
            if column not in existing:
                db.table("runs").add_column(column, kind)
        db.table("runs").create_index(["name"], if_not_exists=True)
    if version < 3:  # games compacted into bodies; decision stats kept apart; games' pids
        existing = set(db.table("games").columns_dict)
        for column in ("pid", "compacted"):
            if column not in existing:
                db.table("games").add_column(column, int)
        _create_v3_tables(db)
        # One word for a game left mid-way.
        db.execute("update games set status = 'interrupted' where status = 'paused'")
        # The ended games are compacted afterwards, one transaction each (Store.compact_all).
        db.table("meta").upsert({"key": "compaction_pending", "value": "1"}, pk="key")
    # Version 4 stores a side event's request and snapshot as differences from the side's last
    # ones (store/differences.py). Older events stay whole and are read as they are, so there
    # is nothing to change; the number keeps an older pokeview, which cannot read differences,
    # from opening the file.
    # Version 5 writes bodies of format 2 (store/body.py: a spectator log made of the game's
    # `log` events is rebuilt from them). Format 1 bodies are read as they are; the number keeps
    # an older pokeview, which reads format 1 only, from opening the file.
    # Version 6: games say how they ended (a forfeit, the timer, the turn limit).
    if version < 6 and "ending" not in set(db.table("games").columns_dict):
        db.table("games").add_column("ending", str)
    # Version 7 writes bodies of format 3 (store/body.py: a game the bridge played through by
    # itself, its steps derived when first read). Nothing is migrated; the number keeps an
    # older pokeview, which would read such a game as damaged, from opening the file.
    db.table("meta").upsert({"key": "schema_version", "value": str(SCHEMA_VERSION)}, pk="key")
