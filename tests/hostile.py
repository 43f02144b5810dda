"""A hostile game file: every text field of a real export carrying terminal escapes and markup.

Built from a shipped recording (a model against a bot, so decisions carry reasoning, answers,
messages and attempts). `hostile_doc()` plants the text only where the record keeps free text, so
that import accepts it; `plant_raw()` writes the fields import refuses (how, times) straight into
a database, as an older pokeview or another program could have left them.
"""

from __future__ import annotations

from pathlib import Path

import orjson

from pokeview import paths
from tests.helpers import sqlite_file

# The clipboard (OSC 52), the window title (OSC 2), clear screen (CSI 2J), a lone CSI (C1),
# Rich markup, open and closing, and a right-to-left override (U+202E: what follows it, the
# rest of a line of names, reads backwards) closed by U+202C.
EVIL = "\x1b]52;c;QUJD\x07\x1b]2;pwned\x07\x1b[2J\x9b2J[red]r[/red][/bold]\u202egpj.exe\u202c"
CONTROL = ("\x1b", "\x07", "\x9b", "\u202e", "\u202c")

RECORDING = "loopback-test-model-vs-heuristic.json"


def evil(text: str) -> str:
    return f"{text} {EVIL}"


def _evil_json(text: str | None, keys: tuple[str, ...]) -> str | None:
    if text is None:
        return None
    value = orjson.loads(text)
    for key in keys:
        if isinstance(value.get(key), str):
            value[key] = evil(value[key])
    return orjson.dumps(value).decode()


def hostile_doc() -> dict:
    doc = orjson.loads((paths.recordings_dir() / RECORDING).read_bytes())
    game = doc["game"]
    for key in ("p1", "p2", "seed_text", "pokeview_version", "showdown_version"):
        game[key] = evil(game[key])
    game["error"] = evil("the provider said")
    game["spectator_log"] += f"\n|c|p1|{EVIL}"
    for key in ("p1_config", "p2_config"):
        game[key] = _evil_json(game[key], ("description", "model", "bot", "engine", "player"))
    for d in doc["decisions"]:
        d["choice"] = d["choice"]  # sent to Showdown: checked by verify, not planted
        d["actions"] = orjson.dumps([evil(a) for a in orjson.loads(d["actions"])]).decode()
        d["refusals"] = orjson.dumps(
            [{"choice": "move 9", "label": evil("move"), "error": evil("[Invalid choice]")}]
        ).decode()
        detail = orjson.loads(d["detail"])
        for key in ("model", "reasoning", "answer", "reason", "action_text"):
            if isinstance(detail.get(key), str):
                detail[key] = evil(detail[key])
        for message in detail.get("messages", []):
            message["content"] = evil(message["content"])
        for attempt in detail.get("attempts", []):
            for key in ("reasoning", "content", "error"):
                attempt[key] = evil(str(attempt.get(key) or ""))
        d["detail"] = orjson.dumps(detail).decode()
    for e in doc["events"]:
        data = orjson.loads(e["data"])
        if e["kind"] == "side":
            data["text"] = [evil(t) for t in data.get("text", [])]
            data["lines"] = [*data.get("lines", []), f"|c|p1|{EVIL}"]
        elif e["kind"] in ("reasoning", "answer"):
            data["delta"] = evil(data["delta"])
        elif e["kind"] == "log":
            data = [*data, f"|c|p1|{EVIL}"]
        elif e["kind"] == "choice":
            data["label"] = evil(data["label"])
        e["data"] = orjson.dumps(data).decode()
    return doc


def write_hostile(path: Path) -> Path:
    path.write_bytes(orjson.dumps(hostile_doc()))
    return path


def with_refused_fields(doc: dict) -> dict:
    """The fields import refuses made hostile too: how a decision was made, the times."""
    for key in ("started_at", "ended_at"):  # first: `games` shows the first 19 characters
        doc["game"][key] = EVIL + doc["game"][key]
    for d in doc["decisions"]:
        d["how"] = evil(d["how"])
        d["created_at"] = evil(d["created_at"])
    return doc


def hostile_db(db: Path) -> int:
    """A database holding the hostile game with every field planted, refused ones included,
    written through the Store (as an older pokeview or another program could have left it),
    in a run with a hostile name; the game's id."""
    from pokeview.store import open_store

    doc = with_refused_fields(hostile_doc())
    game = {k: v for k, v in doc["game"].items() if k != "id"}
    decisions = [
        {k: v for k, v in d.items() if k not in ("id", "game_id")} for d in doc["decisions"]
    ]
    events = [(e["side"], e["kind"], e["data"], e["at"]) for e in doc["events"]]
    store = open_store(db)
    run_id = store.create_run(evil("run"), {"name": evil("run")}, "hash", 1)
    game.update(run_id=run_id, pair=0, seat=0)
    game_id = store.import_game(game, decisions, events)
    store.close()
    with sqlite_file(db) as conn:
        conn.execute("update runs set created_at = ? where id = ?", (evil("2026-11-29"), run_id))
    return game_id


def control_in(text: str) -> list[str]:
    """The control characters of CONTROL found in the text, for an assertion's message."""
    return [repr(c) for c in CONTROL if c in text]
