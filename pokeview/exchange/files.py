"""pokeview's own JSON form of a game: the game row, its decisions and its events."""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

import msgspec
import orjson

from pokeview import __version__
from pokeview.errors import PokeviewError
from pokeview.exchange.validate import check_game_file
from pokeview.game.decision import BadDetail, Made, detail_from_json, side_stats
from pokeview.store.store import DamagedGame, Store, open_store

FORMAT = "pokeview-game/1"
# The most of a file `import` and `watch FILE` read: a game file, an input log or a replay is a
# few MB; a file past this (or a device that never ends) is refused before it fills memory.
READ_LIMIT = 512 * 1024 * 1024


def export_game(store: Store, game_id: int | str) -> str:
    game = store.game(game_id)
    row, decisions, events = store.export_rows(game.id)
    doc = {
        "format": FORMAT,
        "pokeview": __version__,
        "game": row,
        "decisions": decisions,
        "events": events,
    }
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode() + "\n"


REPLAY_HTML = """<!DOCTYPE html>
<meta charset="utf-8" />
<!-- version 1 -->
<title>{title} - Replay</title>
<div class="wrapper replay-wrapper" style="max-width:1180px;margin:0 auto">
<div class="battle"></div><div class="battle-log"></div>
<div class="replay-controls"></div><div class="replay-controls-2"></div>
<h1 style="font-weight:normal;text-align:center"><strong>{format}</strong><br />{title}</h1>
<script type="text/plain" class="battle-log-data">{log}
</script>
</div>
<script>
let daily = Math.floor(Date.now()/1000/60/60/24);document.write('<script src="https://play.pokemonshowdown.com/js/replay-embed.js?version'+daily+'"></'+'script>');
</script>
"""


def _with_ending(log: str, ending: str | None, winner: str | None) -> str:
    """The log with the line Showdown's server writes before |win| for a forfeit or a loss
    on time ("|-message|bob forfeited."): a simulator fed the input log writes none."""
    from pokeview.battle.endings import spectator_line

    lines = log.split("\n")
    names = {
        p[2]: p[3]
        for p in (line.split("|") for line in lines)
        if p[1:2] == ["player"] and len(p) > 3
    }
    loser = {"p1": "p2", "p2": "p1"}.get(winner or "")
    said = spectator_line(ending, names.get(loser or "", loser or ""))
    at = next((i for i, line in enumerate(lines) if line.startswith("|win|")), None)
    if said is None or at is None or said in lines:
        return log
    return "\n".join([*lines[:at], said, *lines[at:]])


def export_as(store: Store, game_id: int | str, fmt: str) -> str:
    """json (pokeview's own), log (spectator log), inputlog, or html (a Showdown replay file)."""
    if fmt == "json":
        return export_game(store, game_id)
    game = store.game(game_id)
    if fmt == "inputlog":
        if not game.input_log:
            raise PokeviewError(f"game {game.id} has no input log")
        return game.input_log + "\n"
    log = _with_ending(game.spectator_log or "", game.ending, game.winner)
    if fmt == "log":
        return log + "\n"
    if fmt == "html":
        import html

        title = html.escape(f"{game.p1} vs. {game.p2} (game {game.id})")
        # The log may not close its script element ("</"), nor open a comment in it ("<!--"),
        # after which a "<script" in it would keep the element's own end from closing it.
        safe_log = log.replace("</", "<\\/").replace("<!--", "<\\!--")
        return REPLAY_HTML.format(title=title, format=html.escape(game.format), log=safe_log)
    raise PokeviewError(f"unknown export format '{fmt}' (json, log, inputlog or html)")


def import_game(store: Store, doc: Any, rated: bool = False) -> int:
    """Insert a game from its JSON form under a new id; all or nothing.

    The file is decoded into the record's types and checked field by field before anything is
    written (`validate`); its keys never reach SQL (the Store writes through fixed statements).
    Who played it cannot be checked, so it stays out of the ratings whatever the file says,
    unless `rated`.
    """
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise PokeviewError(f"not a pokeview game file (expected format {FORMAT!r})")
    try:
        game_file = msgspec.convert(doc, GameFile)
    except msgspec.ValidationError as exc:
        raise PokeviewError(f"the game file is not valid: {exc}") from None
    game = msgspec.structs.asdict(game_file.game)
    del game["id"]
    if game["status"] == "paused":  # the word before version 3 for a game left mid-way
        game["status"] = "interrupted"
    game["run_id"] = None  # runs are not carried over
    if not rated:
        game["exclude_from_ratings"] = 1
    for key in ("p1_config", "p2_config", "teams"):
        _check_json(f"game.{key}", game[key], dict)
    decisions = []
    for n, decision in enumerate(game_file.decisions):
        fields = msgspec.structs.asdict(decision)
        for key, shape in (("actions", list), ("refusals", list), ("detail", dict)):
            _check_json(f"decisions[{n}].{key}", fields[key], shape)
        decisions.append(fields)
    events: list[tuple[str | None, str, str, float]] = [
        (e.side, e.kind, e.data, e.at) for e in game_file.events
    ]
    events = check_game_file(store, game, decisions, events)
    made = []
    for n, d in enumerate(decisions):
        try:
            detail = detail_from_json(d["detail"])
        except BadDetail as exc:
            raise PokeviewError(
                f"the game file is not valid: decisions[{n}].detail: {exc}"
            ) from None
        made.append(Made(d["side"], d["how"], d["latency_ms"], detail))
    try:
        return store.import_game(game, decisions, events, stats=side_stats(made))
    except DamagedGame as exc:
        raise PokeviewError(f"the game file is not valid: {exc}") from None
    except sqlite3.IntegrityError as exc:
        raise PokeviewError(f"the game file is not valid: {exc}") from None


class _GameFields(msgspec.Struct, forbid_unknown_fields=True):
    """A game row as exported (JSON columns as text)."""

    format: str
    seed: str
    p1: str
    p2: str
    started_at: str
    id: int | None = None
    run_id: int | None = None
    pair: int | None = None
    seat: Literal[0, 1] | None = None
    seed_text: str | None = None
    p1_config: str | None = None
    p2_config: str | None = None
    teams: str | None = None
    status: Literal["running", "finished", "error", "interrupted", "paused"] = "finished"
    error: str | None = None
    winner: Literal["p1", "p2", "tie"] | None = None
    turns: int | None = None
    ended_at: str | None = None
    pokeview_version: str | None = None
    showdown_version: str | None = None
    input_log: str | None = None
    spectator_log: str | None = None
    parent_game: int | None = None
    parent_decision: int | None = None
    exclude_from_ratings: Literal[0, 1] = 0


class _DecisionFields(msgspec.Struct, forbid_unknown_fields=True):
    side: Literal["p1", "p2"]
    idx: int
    turn: int
    actions: str
    action: int
    choice: str
    how: str
    created_at: str
    id: int | None = None
    game_id: int | None = None
    request: str | None = None
    refusals: str | None = "[]"
    detail: str | None = "{}"
    latency_ms: float | None = None

    def __post_init__(self) -> None:
        if self.idx < 0 or self.action < 0:
            raise ValueError("a decision's idx and action are not negative")


class _EventFields(msgspec.Struct, forbid_unknown_fields=True):
    kind: str
    data: str
    at: float
    id: int | None = None
    game_id: int | None = None
    side: Literal["p1", "p2"] | None = None


class GameFile(msgspec.Struct):
    format: str
    game: _GameFields
    decisions: list[_DecisionFields]
    events: list[_EventFields]
    pokeview: str | None = None


def _check_json(where: str, text: str | None, shape: type) -> None:
    if text is None:
        return
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        raise PokeviewError(f"the game file is not valid: {where} is not JSON") from None
    if not isinstance(value, shape):
        raise PokeviewError(
            f"the game file is not valid: {where} should be a JSON {shape.__name__}"
        )


async def import_input_log(
    store: Store, text: str, source: str, bridge: Any, stop_on_refusal: bool = False
) -> int:
    """Re-simulate an input log choice by choice, rebuilding the whole record; all or nothing."""
    from pokeview.battle.play import OnBridge, play
    from pokeview.battle.spec import GameSpec
    from pokeview.errors import BattleRefused
    from pokeview.players.recorded import RecordedPlayer, ending, split_input_log

    lines = [line for line in text.splitlines() if line.strip()]
    header, choices = split_input_log(lines)
    if not lines or not lines[0].startswith(">start ") or len(header) < 3:
        raise PokeviewError("not an input log: it should begin with >start and two >player lines")
    try:
        options = orjson.loads(lines[0][len(">start ") :])
    except orjson.JSONDecodeError:
        raise PokeviewError("the >start line of the input log is not valid JSON") from None
    format_id = options.get("formatid") if isinstance(options, dict) else None
    if not isinstance(format_id, str):
        raise PokeviewError('the >start line of the input log names no format ({"formatid": …})')
    players = {
        side: RecordedPlayer(side, choices[side], source, stop_on_refusal, ending=ending(lines))
        for side in ("p1", "p2")
    }
    try:
        spec = GameSpec.replaying(format_id, header, players["p1"], players["p2"], source)
        result = await play(spec, venue=OnBridge(bridge), store=store)
    except BattleRefused as exc:
        raise PokeviewError(f"Showdown would not replay this input log: {exc}") from None
    if result.status != "finished":
        if stop_on_refusal and "was refused" in (result.error or ""):
            # Pokéval's oracle stops at an illegal choice: the game is kept up to there.
            store.set_excluded(result.game_id)
            raise PokeviewError(f"game {result.game_id} stopped: {result.error}")
        store.delete_game(result.game_id)  # nothing half-imported stays
        raise PokeviewError(f"the input log could not be replayed to its end: {result.error}")
    store.set_excluded(result.game_id)  # who played is unknown: not for the ratings
    return result.game_id


@contextmanager
def game_file_in_scratch(path: Path) -> Iterator[tuple[Path, int]]:
    """A game file in a scratch database for as long as the block runs (to watch it without
    touching the user's database); the database and its WAL are gone after."""
    scratch, game_id = import_json_into_scratch(path)
    try:
        yield scratch, game_id
    finally:
        shutil.rmtree(scratch.parent, ignore_errors=True)


def read_file(path: Path, what: str = "") -> bytes:
    """A file to import or watch (`what` names it in errors: "the game file"), whole, up to
    READ_LIMIT; one line naming it otherwise."""
    named = f"{what} {path}" if what else str(path)
    too_big = PokeviewError(f"{named} is larger than {READ_LIMIT // 2**20:,} MiB")
    try:
        with path.open("rb") as file:
            if path.is_file() and path.stat().st_size > READ_LIMIT:
                raise too_big
            data = file.read(READ_LIMIT + 1)
    except OSError as exc:
        raise PokeviewError(f"cannot read {named}: {exc.strerror}") from None
    if len(data) > READ_LIMIT:
        raise too_big
    return data


def import_json_into_scratch(path: Path) -> tuple[Path, int]:
    """Load a game file into a temporary database, to watch it without touching the user's."""
    try:
        doc = orjson.loads(read_file(path, "the game file"))
    except orjson.JSONDecodeError as exc:
        raise PokeviewError(f"cannot read the game file {path}: {exc}") from None
    if isinstance(doc, dict) and isinstance(doc.get("game"), dict):
        # Alone in the scratch database, a fork's parent is not there to point to.
        doc["game"].update(parent_game=None, parent_decision=None)
    scratch = Path(tempfile.mkdtemp(prefix="pokeview-")) / "watch.db"
    try:
        store = open_store(scratch)
        try:
            return scratch, import_game(store, doc)
        finally:
            store.close()
    except BaseException:
        shutil.rmtree(scratch.parent, ignore_errors=True)  # the caller removes it otherwise
        raise
