"""Showdown replays as games: a replay page's HTML, its .log, or the replay server's .json.

A replay is the spectator's log only: no input log, no requests, no hidden information. It is
imported as a game that can be watched turn by turn from either side's public view, is left out
of the ratings, and cannot be verified or re-simulated (nothing says which choices were made).
"""

from __future__ import annotations

import html
import re
import time
from typing import Any

import orjson

from pokeview.errors import PokeviewError
from pokeview.store import events as ev
from pokeview.store.events import EventKind
from pokeview.store.store import REPLAY_SEED, Store

# The replay's log is the text of the script element of this class. Found by a linear scan, not
# one regex: `<script[^>]*class=…` tried at each of many `<script` with no `>` after them took
# time quadratic in the file (33 s for 256 KB of them).
_SCRIPT_OPEN = re.compile(r"<script", re.IGNORECASE)
_SCRIPT_CLOSE = re.compile(r"</script>", re.IGNORECASE)
_LOG_CLASS = re.compile(r'class="(?:battle-log-data|log)"', re.IGNORECASE)


def _log_script(text: str) -> str | None:
    """The text inside the page's first `<script class="battle-log-data">` (or `"log"`)."""
    at = 0
    while (opened := _SCRIPT_OPEN.search(text, at)) is not None:
        tag_end = text.find(">", opened.end())
        if tag_end < 0:
            return None
        if _LOG_CLASS.search(text, opened.end(), tag_end):
            closed = _SCRIPT_CLOSE.search(text, tag_end + 1)
            return None if closed is None else text[tag_end + 1 : closed.start()]
        at = tag_end + 1  # a `<script` before this `>` has the same tag, without the class too
    return None


# A turn or a team's size as a log may give it: str.isdigit() also takes "²" (which int()
# refuses), and 20 digits do not fit the record's integers.
_COUNT = re.compile(r"[0-9]{1,6}")

# The kinds of battle pokeview draws: one active Pokémon a side.
SINGLES = ("singles", "")


def looks_like_replay(text: str) -> bool:
    head = text.lstrip()[:4000]
    return (
        head.startswith("|")
        # Anywhere: poke-env's and PokéChamp's pages put about 4.9 KB of CSS before it.
        or "battle-log-data" in text
        or 'class="log"' in text[:20000]
        or (head.startswith("{") and ('"log"' in text or '"inputLog"' in text))
    )


def server_input_log(text: str) -> list[str] | None:
    """The input log of a Showdown server's battle log (`logs/…/ROOM.log.json`, its
    `inputLog` beside the `log`), when the text is one: it replays the battle exactly."""
    stripped = text.lstrip()
    if not stripped.startswith("{") or '"inputLog"' not in text:
        return None
    try:
        doc = orjson.loads(stripped)
    except orjson.JSONDecodeError:
        return None
    found = doc.get("inputLog") if isinstance(doc, dict) else None
    if isinstance(found, str):
        found = found.split("\n")
    if not isinstance(found, list) or not all(isinstance(line, str) for line in found):
        return None
    lines = [line for line in found if line.strip()]
    return lines if lines and lines[0].startswith(">start ") else None


def replay_lines(text: str) -> list[str]:
    """The protocol lines of a replay page, a .log file, or a replay .json (the replay
    server's, whose `log` is text, or a Showdown server's battle log, whose `log` is a list)."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            doc = orjson.loads(stripped)
        except orjson.JSONDecodeError:
            raise PokeviewError("the replay JSON is not valid JSON (truncated?)") from None
        log = doc.get("log") if isinstance(doc, dict) else None
        if isinstance(log, list) and all(isinstance(line, str) for line in log):
            log = "\n".join(log)
        if not isinstance(log, str):
            raise PokeviewError('the replay JSON has no "log" (text, or a list of lines)')
        text = log
    elif not stripped.startswith("|"):
        found = _log_script(text)
        if found is None:
            raise PokeviewError("no battle log in this HTML (a Showdown replay page has one)")
        # Replay pages escape "</" inside the script element (and pokeview's, "<!--" too).
        text = found.replace("<\\/", "</").replace("<\\!--", "<!--")
        if "&lt;" in text or "&quot;" in text:
            text = html.unescape(text)
    lines = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith(">") and "|" in line:  # ">battle-gen9ou-214|init|battle" (PokéChamp)
            line = line[line.index("|") :]
        # A player's own stream (poke-env's) holds its requests: its secrets, not the battle's.
        if line.startswith("|") and not line.startswith("|request|"):
            lines.append(line)
    return lines


def _header(lines: list[str]) -> dict[str, Any]:
    names: dict[str, str] = {}
    info: dict[str, Any] = {"format": "", "winner": None, "turns": 0, "gametype": ""}
    sizes: dict[str, int] = {}
    fainted: dict[str, set[str]] = {"p1": set(), "p2": set()}
    for line in lines:
        parts = line.split("|")
        kind = parts[1] if len(parts) > 1 else ""
        if kind == "player" and len(parts) > 3 and parts[3]:
            names[parts[2]] = parts[3]
        elif kind == "tier" and len(parts) > 2:
            info["format"] = parts[2]
        elif kind == "turn" and len(parts) > 2 and _COUNT.fullmatch(parts[2]):
            info["turns"] = int(parts[2])
        elif kind == "win" and len(parts) > 2:
            info["winner"] = next((s for s, n in names.items() if n == parts[2]), None)
        elif kind == "tie":
            info["winner"] = "tie"
        elif kind == "gametype" and len(parts) > 2:
            info["gametype"] = parts[2]
        elif kind == "teamsize" and len(parts) > 3 and _COUNT.fullmatch(parts[3]):
            sizes[parts[2]] = int(parts[3])
        elif kind == "faint" and len(parts) > 2 and parts[2][:2] in fainted:
            fainted[parts[2][:2]].add(parts[2].split(": ", 1)[-1])
    if info["winner"] is None:
        # PokéChamp's pages stop at the last faint, before |win|: a side with none left lost.
        out = [s for s in fainted if sizes.get(s) and len(fainted[s]) >= sizes[s]]
        if len(out) == 1:
            info["winner"] = "p2" if out[0] == "p1" else "p1"
    info["names"] = names
    return info


async def import_replay(store: Store, text: str, source: str, bridge: Any) -> int:
    """Store a replay as a watchable game; all or nothing."""
    lines = replay_lines(text)
    info = _header(lines)
    names = info["names"]
    if not lines or "p1" not in names or "p2" not in names:
        raise PokeviewError("not a Showdown replay log: it names no players (|player| lines)")
    if info["gametype"] not in SINGLES:
        raise PokeviewError(
            f"a {info['gametype']} battle: pokeview draws singles only (doubles are not supported)"
        )
    if info["winner"] is None:
        raise PokeviewError("the replay log ends before the battle does (no |win| or |tie| line)")
    from pokeview.battle.endings import from_server_log

    ending = from_server_log(lines)  # "|-message|bob forfeited.": the server's words
    pieces = await bridge.follow(lines)
    spectator = [line for piece in pieces for line in piece.lines]
    players = {side: f"replay:{names[side]}" for side in ("p1", "p2")}
    for side in ("p1", "p2"):
        store.remember_player(players[side], "replay", {"kind": "replay", "user": names[side]})
    game_id = store.create_game(
        format=_format_id(info["format"]),
        seed=REPLAY_SEED,
        seed_text=f"imported from {source}",
        p1=players["p1"],
        p2=players["p2"],
        p1_config={"kind": "replay", "user": names["p1"], "source": source},
        p2_config={"kind": "replay", "user": names["p2"], "source": source},
        showdown_version=None,
        exclude_from_ratings=1,  # who played, and with what, is not known
    )
    try:
        at = time.time()
        for piece in pieces:
            events: list[tuple[str | None, EventKind, Any]] = [(None, EventKind.LOG, piece.lines)]
            for side in ("p1", "p2"):
                data = ev.Side(
                    piece.lines,
                    piece.text[side],
                    state=piece.state[side],
                    frame=True,  # a point to stop at in the viewer, with no decision behind it
                )
                events.append((side, EventKind.SIDE, data))
            store.append_events(game_id, events, at)
        store.append_events(
            game_id, [(None, EventKind.END, ev.End(info["winner"], info["turns"], ending))], at
        )
        store.finish_game(
            game_id,
            status="finished",
            winner=info["winner"],
            turns=info["turns"],
            spectator_log=spectator,
            ending=ending,
        )
    except Exception:
        store.delete_game(game_id)
        raise
    return game_id


def _format_id(name: str) -> str:
    """'[Gen 9] Random Battle' -> 'gen9randombattle', as Showdown's toID does."""
    return re.sub(r"[^a-z0-9]", "", name.lower()) or "unknown"
