"""A game file's fields checked before import: each value's kind, range and size.

msgspec has checked the types already (`files.GameFile`); this checks what a type cannot say:
`how` is one of the record's kinds, times are ISO 8601, indices and turns are in range, a parent
game exists in the database, numbers fit SQLite and make sense. A field that is wrong refuses the
whole file with one line naming it. Free text (names, a model's reasoning and answers, errors) is
kept as written up to a cap, and cut there with a note saying how much was cut, so that a file
cannot make the viewer paint megabytes: names 200 characters, other text 256 KiB per field (a
model's streamed text 256 KiB per attempt); logs longer than 16 MiB refuse the file.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

import orjson

from pokeview.errors import PokeviewError, UnknownGame
from pokeview.store.rows import How
from pokeview.store.store import Store

NAME_CAP = 200  # player names, format, seed, versions, a model's name
TEXT_CAP = 256 * 1024  # any other text: reasoning, answers, messages, errors
LOG_CAP = 16 * 1024 * 1024  # the input and spectator logs: refused beyond (cutting breaks them)
MAX_TURNS = 1000  # Showdown ends every battle at turn 1000
MAX_ID = 2**53  # ids and counters: far below SQLite's limit, exact in JSON numbers
MAX_LATENCY_MS = 7 * 24 * 3600 * 1000.0  # a week
MAX_AT = 32503680000.0  # seconds since the epoch: the year 3000
HOWS = frozenset(How)
STREAMED = ("reasoning", "answer")  # event kinds whose deltas add up to one text


def cut(text: str, cap: int) -> str:
    """The text, or its first `cap` characters and a note of how many more there were."""
    if len(text) <= cap:
        return text
    return text[:cap] + f" … [{len(text) - cap:,} more characters cut at import]"


def check_game_file(
    store: Store,
    game: dict[str, Any],
    decisions: list[dict[str, Any]],
    events: list[tuple[str | None, str, str, float]],
) -> list[tuple[str | None, str, str, float]]:
    """Checks and caps the game row and decisions in place; the events, capped."""
    _check_game(store, game)
    for n, decision in enumerate(decisions):
        _check_decision(f"decisions[{n}]", decision)
    return _capped_events(events)


def _refuse(where: str, what: str) -> PokeviewError:
    return PokeviewError(f"the game file is not valid: {where} {what}")


def _time(where: str, value: str | None, *, required: bool = False) -> None:
    if value is None and not required:
        return
    try:
        if value is None or len(value) > 64:
            raise ValueError
        datetime.fromisoformat(value)
    except ValueError:
        raise _refuse(where, "is not an ISO 8601 time") from None


def _count(where: str, value: int | None, top: int = MAX_ID) -> None:
    if value is not None and not 0 <= value <= top:
        raise _refuse(where, f"is out of range (0 to {top:,})")


def _name(where: str, game: dict[str, Any], key: str, *, refuse: bool = False) -> None:
    value = game.get(key)
    if isinstance(value, str) and len(value) > NAME_CAP:
        if refuse:
            raise _refuse(where, f"is longer than {NAME_CAP} characters")
        game[key] = cut(value, NAME_CAP)


def _check_game(store: Store, game: dict[str, Any]) -> None:
    _time("game.started_at", game["started_at"], required=True)
    _time("game.ended_at", game["ended_at"])
    for key in ("p1", "p2", "pokeview_version", "showdown_version"):
        _name(f"game.{key}", game, key)
    for key in ("format", "seed"):  # ids Showdown and the seed are made from: not cut
        _name(f"game.{key}", game, key, refuse=True)
    for key in ("seed_text", "error", "p1_config", "p2_config"):
        if isinstance(game.get(key), str) and len(game[key]) > TEXT_CAP:
            if key.endswith("_config"):  # JSON: cut, it would no longer be
                raise _refuse(f"game.{key}", f"is longer than {TEXT_CAP:,} characters")
            game[key] = cut(game[key], TEXT_CAP)
    for key in ("input_log", "spectator_log", "teams"):
        if isinstance(game.get(key), str) and len(game[key]) > LOG_CAP:
            raise _refuse(f"game.{key}", f"is longer than {LOG_CAP:,} characters")
    _count("game.pair", game["pair"])
    _count("game.turns", game["turns"], MAX_TURNS)
    _count("game.parent_game", game["parent_game"])
    _count("game.parent_decision", game["parent_decision"])
    parent = game["parent_game"]
    if parent is not None:
        try:
            store.game(parent)
        except UnknownGame:
            raise _refuse("game.parent_game", f"{parent} is not a game in this database") from None
    if game["parent_decision"] is not None and parent is None:
        raise _refuse("game.parent_decision", "is set without a parent_game")
    if game["status"] in ("finished", "void") and game["winner"] is None:
        raise _refuse("game.winner", f"is missing from a {game['status']} game")


def _check_decision(where: str, d: dict[str, Any]) -> None:
    if d["how"] not in HOWS:
        raise _refuse(f"{where}.how", f"is not one of: {', '.join(sorted(HOWS))}")
    _time(f"{where}.created_at", d["created_at"], required=True)
    _count(f"{where}.idx", d["idx"])
    _count(f"{where}.turn", d["turn"], MAX_TURNS)
    actions = orjson.loads(d["actions"])  # checked as a JSON list by the caller
    if not 0 <= d["action"] < max(len(actions), 1):
        raise _refuse(f"{where}.action", f"{d['action']} is not one of its {len(actions)} actions")
    if len(d["actions"]) > TEXT_CAP or len(d["choice"]) > NAME_CAP:
        raise _refuse(where, "has actions or a choice too long for a turn of Pokémon")
    latency = d["latency_ms"]
    if latency is not None and not (math.isfinite(latency) and 0 <= latency <= MAX_LATENCY_MS):
        raise _refuse(f"{where}.latency_ms", f"is out of range (0 to {MAX_LATENCY_MS:,.0f})")
    for key in ("detail", "refusals"):
        text = d[key]
        if text is not None and len(text) > TEXT_CAP:
            try:
                d[key] = orjson.dumps(_capped(orjson.loads(text))).decode()
            except (RecursionError, TypeError):  # _capped's recursion, orjson's depth limit
                raise _refuse(f"{where}.{key}", "is nested too deeply") from None


def _capped(value: Any) -> Any:
    """A JSON value with every text in it cut at its cap (a model's name at NAME_CAP)."""
    if isinstance(value, str):
        return cut(value, TEXT_CAP)
    if isinstance(value, list):
        return [_capped(v) for v in value]
    if isinstance(value, dict):
        return {
            k: cut(v, NAME_CAP) if k == "model" and isinstance(v, str) else _capped(v)
            for k, v in value.items()
        }
    return value


def _capped_events(
    events: list[tuple[str | None, str, str, float]],
) -> list[tuple[str | None, str, str, float]]:
    """Times in range; a model's streamed text cut once an attempt's deltas pass TEXT_CAP."""
    streamed: dict[tuple[Any, ...], int] = {}
    kept = []
    for n, (side, kind, data, at) in enumerate(events):
        if not (math.isfinite(at) and 0 <= at <= MAX_AT):
            raise _refuse(f"events[{n}].at", "is not a time (seconds since 1970, before 3000)")
        if kind in STREAMED:
            payload = orjson.loads(data)
            if isinstance(payload, dict) and isinstance(payload.get("delta"), str):
                key = (side, kind, payload.get("idx"), payload.get("attempt"))
                before = streamed.get(key, 0)
                delta = payload["delta"]
                streamed[key] = before + len(delta)
                if before >= TEXT_CAP:
                    continue  # the note was added to the delta that passed the cap
                if before + len(delta) > TEXT_CAP:
                    payload["delta"] = delta[: TEXT_CAP - before] + " … [cut at import]"
                    data = orjson.dumps(payload).decode()
        elif len(data) > LOG_CAP:
            raise _refuse(f"events[{n}]", f"is longer than {LOG_CAP:,} characters")
        kept.append((side, kind, data, at))
    return kept
