"""Run configs (TOML or JSON). Every problem names the field.

name = "bots-calibration"
seed = "bots-calibration"        # the run's seed text; pair k's seed is sha256("TEXT#k")
format = "gen9randombattle"
turn_limit = 300
pairs = 100                      # mirror pairs per matchup: 2 games each, seats swapped
players = ["random", "max-damage", "heuristic"]
matchups = "round-robin"         # or a list of pairs: [["heuristic", "random"], ...]
# For formats that take teams, one of:
# teams = { p1 = "team1.txt", p2 = "team2.txt" }   # the same two teams in every game
# team_library = "teams.txt"     # teams separated by blank-line '===' lines; pair k plays
#                                # team k (mod the library's size) on both sides (a mirror)
void_autopilot_share = 0.5       # a game where a model was on autopilot for more than this
#                                # share of its decisions is void: kept, not rated, played again
"""

from __future__ import annotations

import hashlib
import itertools
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from pokeview.battle.void import DEFAULT_SHARE
from pokeview.errors import PokeviewError

FIELDS = {
    "name",
    "seed",
    "format",
    "turn_limit",
    "pairs",
    "players",
    "matchups",
    "teams",
    "team_library",
    "concurrency",
    "players_file",
    "description",
    "void_autopilot_share",
}


@dataclass(frozen=True)
class RunConfig:
    name: str
    seed: str
    format: str
    turn_limit: int
    pairs: int
    players: list[str]
    matchups: list[tuple[str, str]]
    teams: dict[str, str] | None = None  # packed or export text, read from the files
    team_library: list[str] | None = None
    team_library_path: str | None = None
    concurrency: int = 8
    players_file: str | None = None
    description: str = ""
    void_autopilot_share: float = DEFAULT_SHARE
    raw: dict[str, Any] = field(default_factory=dict)

    @property
    def config_hash(self) -> str:
        """SHA-256 of the config as read, canonically, with team files' contents in it."""
        canonical = {**self.raw, "teams": self.teams, "team_library": self.team_library}
        canonical.pop("concurrency", None)  # how fast it runs does not change what it plays
        return hashlib.sha256(orjson.dumps(canonical, option=orjson.OPT_SORT_KEYS)).hexdigest()

    @property
    def team_library_hash(self) -> str | None:
        if not self.team_library:
            return None
        return hashlib.sha256("\n===\n".join(self.team_library).encode()).hexdigest()

    def team_for_pair(self, pair: int) -> dict[str, str] | None:
        if self.team_library:
            team = self.team_library[pair % len(self.team_library)]
            return {"p1": team, "p2": team}
        return self.teams


def load_run_config(path: str | Path) -> RunConfig:
    where = Path(path)
    try:
        text = where.read_text(encoding="utf-8")
    except OSError as exc:
        raise PokeviewError(f"cannot read the run config {where}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise PokeviewError(f"the run config {where} is not text (UTF-8)") from None
    try:
        raw = json.loads(text) if where.suffix == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PokeviewError(f"{where}: {exc}") from None
    return parse_run_config(raw, where)


PAIRS = (1, 10_000)
TURN_LIMITS = (1, 1000)  # Showdown itself ends every battle at turn 1000
CONCURRENCY = (1, 256)


def whole_number(
    raw: dict[str, Any], name: str, default: int, allowed: tuple[int, int], bad: Any
) -> int:
    value = raw.get(name, default)
    # bool is an int to Python, but `pairs = true` is no number of pairs
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad(name, f"must be a whole number from {allowed[0]} to {allowed[1]}")
    if not allowed[0] <= value <= allowed[1]:
        raise bad(name, f"is {value}: it must be from {allowed[0]} to {allowed[1]}")
    return value


def parse_run_config(raw: dict[str, Any], where: Path) -> RunConfig:
    def bad(name: str, what: str) -> PokeviewError:
        return PokeviewError(f"{where}: '{name}' {what}")

    unknown = set(raw) - FIELDS
    if unknown:
        raise bad(
            sorted(unknown)[0], f"is not a run config field (fields: {', '.join(sorted(FIELDS))})"
        )
    for name in ("name", "seed"):
        if not isinstance(raw.get(name), str) or not raw[name].strip():
            raise bad(name, "is required and must be text")
    fmt = raw.get("format", "gen9randombattle")
    if not isinstance(fmt, str):
        raise bad("format", "must be a Showdown format id such as gen9randombattle")
    pairs = whole_number(raw, "pairs", 1, PAIRS, bad)
    turn_limit = whole_number(raw, "turn_limit", 300, TURN_LIMITS, bad)
    concurrency = whole_number(raw, "concurrency", 8, CONCURRENCY, bad)
    share = raw.get("void_autopilot_share", DEFAULT_SHARE)
    if isinstance(share, bool) or not isinstance(share, int | float) or not 0 < share <= 1:
        raise bad("void_autopilot_share", "must be a share above 0 and at most 1, such as 0.5")
    players = raw.get("players")
    if (
        not isinstance(players, list)
        or len(players) < 2
        or not all(isinstance(p, str) for p in players)
    ):
        raise bad("players", 'must list at least two player specs, e.g. ["heuristic", "random"]')
    if len(set(players)) != len(players):
        raise bad("players", "names a player twice")
    matchups_raw = raw.get("matchups", "round-robin")
    if matchups_raw == "round-robin":
        matchups = list(itertools.combinations(players, 2))
    elif isinstance(matchups_raw, list) and all(
        isinstance(m, list) and len(m) == 2 and all(isinstance(x, str) for x in m)
        for m in matchups_raw
    ):
        matchups = [(a, b) for a, b in matchups_raw]
        for a, b in matchups:
            for p in (a, b):
                if p not in players:
                    raise bad("matchups", f"names '{p}', which is not in 'players'")
            if a == b:
                raise bad("matchups", f"pairs '{a}' with itself")
    else:
        raise bad("matchups", 'must be "round-robin" or a list of [A, B] pairs')
    base = where.parent
    teams = None
    if "teams" in raw:
        if not isinstance(raw["teams"], dict) or set(raw["teams"]) != {"p1", "p2"}:
            raise bad("teams", "must be { p1 = FILE, p2 = FILE }")
        teams = {
            side: _read(base, raw["teams"][side], f"teams.{side}", where) for side in ("p1", "p2")
        }
    library = None
    if "team_library" in raw:
        if teams:
            raise bad("team_library", "cannot be given with 'teams'")
        text = _read(base, raw["team_library"], "team_library", where)
        library = [t.strip() for t in text.split("\n===\n") if t.strip()]
        if not library:
            raise bad("team_library", "holds no team")
    return RunConfig(
        name=raw["name"].strip(),
        seed=raw["seed"],
        format=fmt,
        turn_limit=turn_limit,
        pairs=pairs,
        players=players,
        matchups=matchups,
        teams=teams,
        team_library=library,
        team_library_path=raw.get("team_library"),
        concurrency=concurrency,
        players_file=raw.get("players_file"),
        description=str(raw.get("description", "")),
        void_autopilot_share=float(share),
        raw=raw,
    )


def _read(base: Path, name: Any, field_name: str, where: Path) -> str:
    if not isinstance(name, str):
        raise PokeviewError(f"{where}: '{field_name}' must be a file name")
    path = (base / name) if not Path(name).is_absolute() else Path(name)
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PokeviewError(
            f"{where}: '{field_name}': cannot read {path}: {exc.strerror}"
        ) from None
    except UnicodeDecodeError:
        raise PokeviewError(f"{where}: '{field_name}': {path} is not text (UTF-8)") from None
