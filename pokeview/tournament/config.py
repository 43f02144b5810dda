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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
import orjson

from pokeview import config_files
from pokeview.battle.void import DEFAULT_SHARE
from pokeview.errors import PokeviewError

PAIRS = (1, 10_000)
TURN_LIMITS = (1, 1000)  # Showdown itself ends every battle at turn 1000
CONCURRENCY = (1, 256)


def _whole(allowed: tuple[int, int], description: str) -> msgspec.Meta:
    return msgspec.Meta(ge=allowed[0], le=allowed[1], description=description)


NotBlank = msgspec.Meta(pattern=r"\S", extra={"expected": "text that is not blank"})


class Teams(msgspec.Struct, forbid_unknown_fields=True):
    """The same two teams in every game: files of packed or exported text, beside the config."""

    p1: str
    p2: str


# The run config's only declaration. What a type cannot say (players known, matchups naming
# listed players, team files readable) is checked in `parse_run_config`.
class RunFile(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A pokeview run config (TOML or JSON): the players, the matchups, the seed text and how
    many mirror pairs to play."""

    schema: str | None = msgspec.field(default=None, name="$schema")  # for editors, in JSON
    name: Annotated[
        str, NotBlank, msgspec.Meta(description="the run's name; starting it again resumes it")
    ]
    seed: Annotated[
        str,
        NotBlank,
        msgspec.Meta(description='the seed text: pair k is played on sha256("SEED#k")'),
    ]
    format: Annotated[str, msgspec.Meta(description="a Showdown format id")] = "gen9randombattle"
    turn_limit: Annotated[
        int, _whole(TURN_LIMITS, "a game still going at this turn ends in a tie")
    ] = 300
    pairs: Annotated[
        int, _whole(PAIRS, "mirror pairs per matchup: two games each, seats swapped")
    ] = 1
    players: Annotated[
        list[str],
        msgspec.Meta(
            min_length=2,
            description='player specs, such as "heuristic", "search:ms=200" or "llm:NAME"',
            extra={"expected": 'a list of at least two player specs, e.g. ["heuristic", "random"]'},
        ),
    ]
    matchups: Annotated[
        Literal["round-robin"] | list[tuple[str, str]],
        msgspec.Meta(
            description='"round-robin", or the matchups as [A, B] pairs of listed players',
            extra={"expected": '"round-robin" or a list of [A, B] pairs'},
        ),
    ] = "round-robin"
    teams: Teams | None = None
    team_library: Annotated[
        str | None,
        msgspec.Meta(
            description="a file of teams separated by '===' lines; pair k plays team k on both "
            "sides (a mirror), modulo the library's size"
        ),
    ] = None
    concurrency: Annotated[int, _whole(CONCURRENCY, "games played at once")] = 8
    players_file: Annotated[
        str | None,
        msgspec.Meta(
            description="the players file naming the model players; relative: beside this config"
        ),
    ] = None
    description: Annotated[str, msgspec.Meta(description="words about the run")] = ""
    void_autopilot_share: Annotated[
        float,
        msgspec.Meta(
            gt=0,
            le=1,
            description="a game where a model was on autopilot for more than this share of its "
            "decisions is void: kept, not rated, played again",
        ),
    ] = DEFAULT_SHARE


def run_schema() -> dict[str, Any]:
    """The run config's JSON schema, for editors (from the same declaration)."""
    return config_files.schema(RunFile)


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
        canonical.pop("$schema", None)  # nor does where an editor finds its schema
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
    return parse_run_config(config_files.read_config(where, "run config"), where)


def parse_run_config(raw: dict[str, Any], where: Path) -> RunConfig:
    """The run a config describes, its team files read; any mistake is one line naming the key."""
    from pokeview.players.registry import check_spec

    declared = config_files.convert(raw, RunFile, where)

    def bad(name: str, what: str) -> PokeviewError:
        return PokeviewError(f"{where}: {name}: {what}")

    players = declared.players
    for spec in players:
        if problem := check_spec(spec):
            raise bad("players", problem)
    if len(set(players)) != len(players):
        twice = next(p for p in players if players.count(p) > 1)
        raise bad("players", f"names '{twice}' twice")
    if declared.matchups == "round-robin":
        matchups = list(itertools.combinations(players, 2))
    else:
        matchups = list(declared.matchups)
        for a, b in matchups:
            for p in (a, b):
                if p not in players:
                    raise bad("matchups", f"names '{p}', which is not in 'players'")
            if a == b:
                raise bad("matchups", f"pairs '{a}' with itself")
    base = where.parent
    teams = None
    if declared.teams is not None:
        teams = {
            "p1": _read(base, declared.teams.p1, "teams.p1", where),
            "p2": _read(base, declared.teams.p2, "teams.p2", where),
        }
    library = None
    if declared.team_library is not None:
        if teams:
            raise bad("team_library", "cannot be given with 'teams'")
        text = _read(base, declared.team_library, "team_library", where)
        library = [t.strip() for t in text.split("\n===\n") if t.strip()]
        if not library:
            raise bad("team_library", f"{_path(base, declared.team_library)} holds no team")
    return RunConfig(
        name=declared.name.strip(),
        seed=declared.seed,
        format=declared.format,
        turn_limit=declared.turn_limit,
        pairs=declared.pairs,
        players=players,
        matchups=matchups,
        teams=teams,
        team_library=library,
        team_library_path=declared.team_library,
        concurrency=declared.concurrency,
        # Beside the config, as its team files are (a path given on the command line is not
        # a config's: it stays as typed).
        players_file=(
            str(_path(base, declared.players_file)) if declared.players_file is not None else None
        ),
        description=declared.description,
        void_autopilot_share=declared.void_autopilot_share,
        raw=raw,
    )


def _path(base: Path, name: str) -> Path:
    """A file a config names, relative to the config's folder."""
    return (base / name) if not Path(name).is_absolute() else Path(name)


def _read(base: Path, name: str, key: str, where: Path) -> str:
    path = _path(base, name)
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PokeviewError(f"{where}: {key}: cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise PokeviewError(f"{where}: {key}: {path} is not text (UTF-8)") from None
