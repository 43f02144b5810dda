"""What a file handed to `pokeview import` is, and importing the kinds that need more than one
call: pokeview's game files as text, and Pokéval's battle cases (one game each)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

import orjson

from pokeview.errors import PokeviewError
from pokeview.exchange.files import import_game, import_input_log
from pokeview.store.store import Store


class ImportKind(StrEnum):
    GAME_FILE = "pokeview game file"  # written by `pokeview export`
    INPUT_LOG = "Showdown input log"  # re-simulated choice by choice
    SERVER_LOG = "Showdown server battle log"  # logs/…/ROOM.log.json: its inputLog, as above
    REPLAY = "Showdown replay"  # a replay page's HTML, its .log or .json
    POKEVAL_CASES = "Pokéval battle cases"  # JSON lines: seed, teams, choices


def import_kind(path: Path, text: str) -> ImportKind:
    """What an import file is, from its name and how its text begins; one clear line if it is
    none of the kinds."""
    from pokeview.showdown_replay import looks_like_replay, server_input_log

    stripped = text.lstrip()
    if stripped.startswith("{") and path.suffix == ".jsonl":
        return ImportKind.POKEVAL_CASES
    if stripped.startswith("{") and '"pokeview-game/' in stripped[:200]:
        return ImportKind.GAME_FILE
    if not stripped and path.suffix == ".jsonl":
        raise PokeviewError(f"{path} is empty")
    if stripped.startswith(">"):
        return ImportKind.INPUT_LOG
    if stripped.startswith("{") and server_input_log(text) is not None:
        return ImportKind.SERVER_LOG
    if looks_like_replay(text):
        return ImportKind.REPLAY
    if stripped.startswith("{"):
        return ImportKind.GAME_FILE  # not marked as one: import_game says what it expected
    raise PokeviewError(
        f"{path} is none of: a pokeview game file (JSON), a Showdown input log (>start …), "
        "a Showdown replay (HTML, .log or .json), a Showdown server's battle log (.log.json)"
    )


def import_game_file(store: Store, path: Path, text: str, rated: bool = False) -> int:
    """A game file's text, imported; its new game id (`rated`: counted in the ratings)."""
    try:
        doc = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise PokeviewError(f"{path} is not valid JSON ({exc}); is it truncated?") from None
    return import_game(store, doc, rated)


@dataclass
class CaseImported:
    case_id: Any
    game_id: int | None  # None: it was not imported, for `error`
    error: str | None = None


async def import_pokeval_cases(store: Store, path: Path, bridge: Any) -> list[CaseImported]:
    """Each Pokéval case as a game of its own; a case Showdown stops on is said, not fatal."""
    from pokeview import pokeval

    said = []
    for case in pokeval.load_cases(path):
        lines = "\n".join(pokeval.input_log(case))
        try:
            gid = await import_input_log(
                store, lines, f"{path.name} {case['id']}", bridge, stop_on_refusal=True
            )
            said.append(CaseImported(case["id"], gid))
        except PokeviewError as exc:
            said.append(CaseImported(case["id"], None, str(exc)))
    return said
