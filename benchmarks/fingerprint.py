"""Digests of many seeded games, to show that a change of code changes no game's bytes.

    python benchmarks/fingerprint.py play DB            # play the games: 4 formats, bots, loopback
    python benchmarks/fingerprint.py digest DB OUT.json # a digest of each game's parts
    python benchmarks/fingerprint.py compare A.json B.json

Run `play` and `digest` once on the code before a change and once after, then `compare`. The
games are keyed by run, seat and seed, not by id (ids follow the order games finish in). What is
digested, per game: the input log; every prompt a model saw (as stored, and as `pokeview prompt`
renders it again from the record); the log, input-log and HTML exports; the JSON export with
what differs from one run to the next left out (ids, wall-clock times, latencies, how a streamed
text was cut into deltas), and once more
with each side's state snapshots also left out (a change to what the bridge snapshots changes
only that part).
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import orjson

FORMATS = ("gen1randombattle", "gen4randombattle", "gen7randombattle", "gen9randombattle")
MATCHUPS = (
    ("random", "max-damage"),
    ("random", "heuristic"),
    ("max-damage", "heuristic"),
    ("loopback", "heuristic"),
    ("loopback", "random"),
)
PAIRS = 8  # 5 matchups x 8 mirror pairs x 2 games x 4 formats = 320 games
_VARYING = {"id", "game_id", "run_id", "at", "created_at", "started_at", "ended_at", "latency_ms"}


def play(db: Path) -> None:
    pokeview = Path(sys.executable).with_name("pokeview")
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in FORMATS:
            config = Path(tmp, f"{fmt}.toml")
            matchups = ", ".join(f'["{a}", "{b}"]' for a, b in MATCHUPS)
            players = sorted({p for m in MATCHUPS for p in m})
            config.write_text(
                f'name = "fingerprint-{fmt}"\nseed = "fingerprint"\nformat = "{fmt}"\n'
                f"pairs = {PAIRS}\nconcurrency = 16\n"
                f"players = {orjson.dumps(players).decode()}\nmatchups = [{matchups}]\n"
            )
            subprocess.run([str(pokeview), "run", str(config), "--db", str(db)], check=True)


def _sha(text: str | bytes) -> str:
    data = text.encode() if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()[:16]


def _steady(value: Any) -> Any:
    """The value with what varies between two plays of the same game left out."""
    if isinstance(value, dict):
        return {k: _steady(v) for k, v in value.items() if k not in _VARYING and k[-3:] != "_ms"}
    if isinstance(value, list):
        return [_steady(v) for v in value]
    if isinstance(value, str) and value[:1] in "{[":
        try:
            return _steady(orjson.loads(value))
        except orjson.JSONDecodeError:
            return value
    return value


def _streams_joined(doc: Any) -> Any:
    """Reasoning and answers as whole texts: how a stream was cut into deltas, and where the
    deltas fell among the game's other events, follows timing."""
    texts: dict[str, str] = {}
    kept = []
    for event in doc["events"]:
        data = event.get("data")
        if event.get("kind") in ("reasoning", "answer") and isinstance(data, dict):
            key = f"{event['kind']}|{event.get('side')}|{data.get('idx')}|{data.get('attempt')}"
            texts[key] = texts.get(key, "") + str(data.get("delta", ""))
        else:
            kept.append(event)
    return {**doc, "events": kept, "streams": texts}


def _without_states(doc: Any) -> Any:
    for event in doc["events"]:
        if event.get("kind") == "side" and isinstance(event.get("data"), dict):
            for key in ("state", "stateDelta"):
                event["data"].pop(key, None)
    return doc


def digest(db: Path, out: Path) -> None:
    from pokeview.exchange import export_as
    from pokeview.players.llm.conversation import conversation, format_conversation
    from pokeview.store.store import Store

    try:  # as the command line does: a bot game's words, left for later, derived when read
        from pokeview.battle import later

        later.install()
    except ImportError:  # a pokeview from before words were left for later
        pass
    store = Store(db)
    rows: dict[str, dict[str, str]] = {}
    for listed in store.games(limit=100_000, status="finished"):
        game = store.game(listed.id)
        key = f"{game.format}|{game.p1}|{game.p2}|{game.seed_text}|{game.pair}|{game.seat}"
        doc = _streams_joined(_steady(orjson.loads(export_as(store, game.id, "json"))))
        parts = {
            "input_log": _sha(game.input_log or ""),
            "log": _sha(export_as(store, game.id, "log")),
            "inputlog": _sha(export_as(store, game.id, "inputlog")),
            "html": _sha(export_as(store, game.id, "html")),
            "json": _sha(orjson.dumps(doc, option=orjson.OPT_SORT_KEYS)),
            "json_no_states": _sha(orjson.dumps(_without_states(doc), option=orjson.OPT_SORT_KEYS)),
        }
        prompts_stored, prompts_shown = [], []
        for decision in doc["decisions"]:
            detail = decision["detail"] or {}
            if isinstance(detail, dict) and detail.get("messages") is not None:
                prompts_stored.append(orjson.dumps(detail["messages"]).decode())
                messages = conversation(store, game.id, decision["side"], decision["idx"])
                prompts_shown.append(format_conversation(messages))
        parts["prompts_stored"] = _sha("\x00".join(prompts_stored))
        parts["prompts_shown"] = _sha("\x00".join(prompts_shown))
        parts["prompts"] = str(len(prompts_shown))
        rows[key] = parts
    out.write_bytes(orjson.dumps(rows, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS))
    print(f"{len(rows)} finished games digested into {out}")


def compare(a: Path, b: Path) -> int:
    before, after = orjson.loads(a.read_bytes()), orjson.loads(b.read_bytes())
    missing = sorted(set(before) ^ set(after))
    differ: dict[str, int] = {}
    for key in set(before) & set(after):
        for part, value in before[key].items():
            if after[key].get(part) != value:
                differ[part] = differ.get(part, 0) + 1
    common = len(set(before) & set(after))
    print(f"{common} games in both; {len(missing)} in one only")
    for part in sorted({p for row in before.values() for p in row}):
        print(f"  {part:16} {common - differ.get(part, 0)} identical, {differ.get(part, 0)} differ")
    return 1 if differ or missing else 0


if __name__ == "__main__":
    verb, *paths = sys.argv[1:]
    if verb == "play":
        play(Path(paths[0]))
    elif verb == "digest":
        digest(Path(paths[0]), Path(paths[1]))
    elif verb == "compare":
        sys.exit(compare(Path(paths[0]), Path(paths[1])))
    else:
        sys.exit(__doc__)
