"""A ladder: a named, growing set of rated players that places each newcomer with few games.

A ladder is a run (a row of `runs`, its config JSON marked `"kind": "ladder"`), so `pokeview
runs`, `ratings`, `spectate` and `report` see it like any run. Its config keeps the members in
the order they joined, the anchors (players whose ratings are fixed), the sparring partner, and
every set the schedule chose, in order. A set is one or more mirror pairs between two players;
matchup A–B's n-th mirror pair is played on the ladder's pair-n seed, as a run's would be.

Placement (RotomArena): a newcomer first plays `screen_pairs` mirror pairs against `random` and
stops there if it wins none of them; then a set against each anchor, one against the sparring
partner, and one against the closest-rated player it has not met. Then the most informative
sets: between the two players whose ratings are least separated (the 95% bootstrap interval of
their difference covers zero the most), until the budget is spent or every pair is separated.

Resumable and deterministic: a new set is chosen only when every chosen set is complete, from
the ladder's record alone, and is written to the config before its first game starts. A runner
that dies leaves chosen sets unfinished; the next one finishes them first. A game void by the
rule of `battle/void.py` (a model side on autopilot for more than half of its decisions) is kept,
left out of the ratings, and played again once; so is a game that ended in a harness error.

This module is the schedule: what to play next, from the config and the record. What games
cost and what a budget allows are in `ladder_budget`; playing and reporting in `ladder_play`.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import msgspec
import numpy as np
import orjson

from pokeview import config_files
from pokeview.errors import PokeviewError
from pokeview.ratings.bradley_terry import anchored_covariance, fit_anchored, score_matrix
from pokeview.store.rows import GameLine, dumps
from pokeview.store.store import Store

CONTROL = "random"  # the screening opponent: a model that cannot beat it is set up wrong
TRIES = 2  # a void or errored game is played again once, then left out
Z95 = 1.959963984540054


@dataclass(frozen=True)
class PlannedSet:
    a: str
    b: str
    pairs: list[int]
    why: str

    def to_json(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "pairs": self.pairs, "why": self.why}

    @property
    def games(self) -> int:
        return 2 * len(self.pairs)


Count = Annotated[int, msgspec.Meta(ge=1)]


class LadderSet(msgspec.Struct, forbid_unknown_fields=True):
    """A set the schedule chose: mirror pairs `pairs` between `a` and `b`, and why."""

    a: str
    b: str
    pairs: list[Annotated[int, msgspec.Meta(ge=0)]]
    why: str


class LadderBudget(msgspec.Struct, forbid_unknown_fields=True):
    """The last play's budget: a restart with the same limits continues it."""

    games: Count | None
    usd: Annotated[float, msgspec.Meta(gt=0)] | None
    after_game: int  # the games it counts are those with a larger id
    done: bool = False


class LadderConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A ladder as its run row keeps it (the `config` column): written by `pokeview ladder`,
    not by hand. Members in the order they joined, and every set chosen, in order."""

    kind: Literal["ladder"] = "ladder"
    name: str
    seed: str
    format: str
    turn_limit: Count
    anchors: dict[str, float]  # players whose ratings are fixed
    sparring: str
    players: list[str]
    set_pairs: Count
    screen_pairs: Count
    players_file: str | None = None
    sets: list[LadderSet] = msgspec.field(default_factory=list)
    budget: LadderBudget | None = None


def ladder_schema() -> dict[str, Any]:
    """The JSON schema of a ladder's stored config (from the same declaration that reads it)."""
    return config_files.schema(LadderConfig)


@dataclass
class Ladder:
    run_id: int
    config: dict[str, Any]  # a LadderConfig as JSON data, checked when the ladder is loaded

    @property
    def name(self) -> str:
        return str(self.config["name"])

    @property
    def members(self) -> list[str]:
        return list(self.config["players"])

    @property
    def anchors(self) -> dict[str, float]:
        return {k: float(v) for k, v in self.config["anchors"].items()}

    @property
    def sets(self) -> list[PlannedSet]:
        return [PlannedSet(s["a"], s["b"], list(s["pairs"]), s["why"]) for s in self.config["sets"]]


# -- creating and growing ------------------------------------------------------------------------


def parse_anchor(text: str) -> tuple[str, float]:
    player, sep, value = text.rpartition("=")
    if not sep or not player.strip():
        raise PokeviewError(f"--anchor '{text}' must be PLAYER=RATING, e.g. max-damage=1000")
    try:
        rating = float(value)
    except ValueError:
        raise PokeviewError(f"--anchor '{text}': '{value}' is not a rating (a number)") from None
    if not math.isfinite(rating):
        raise PokeviewError(f"--anchor '{text}': the rating must be a finite number")
    return player.strip(), rating


def positive(value: Any, what: str, whole: bool = False) -> Any:
    """A budget or count given by a person: a positive number, or one clear line."""
    try:
        number = int(value) if whole else float(value)
    except (TypeError, ValueError):
        kind = "a whole number" if whole else "a number"
        raise PokeviewError(f"{what} must be {kind} above 0, not '{value}'") from None
    if not (number > 0 and math.isfinite(number)) or (whole and str(number) != str(value).strip()):
        kind = "a whole number" if whole else "a number"
        raise PokeviewError(f"{what} must be {kind} above 0, not '{value}'")
    return number


def _player_name(spec: str, players_file: str | None) -> str:
    """The name a player's games are recorded under; an unknown player is one clear line.
    A model need only be in the players file: its key is needed when it plays."""
    from pokeview.players import make_player
    from pokeview.players.kinds import LOOPBACK
    from pokeview.players.llm.config import load_players, no_such_model

    spec = spec.strip()
    if spec.startswith("llm:") and spec.removeprefix("llm:") not in LOOPBACK:
        models = load_players(players_file)
        if spec.removeprefix("llm:") not in models:
            raise PokeviewError(no_such_model(spec.removeprefix("llm:"), models, players_file))
        return spec
    return make_player(spec, players_file).name


def create_ladder(
    store: Store,
    name: str,
    *,
    anchors: list[str],
    sparring: str = CONTROL,
    players: list[str] = (),  # type: ignore[assignment]
    seed: str | None = None,
    format: str = "gen9randombattle",
    turn_limit: int = 300,
    set_pairs: int = 1,
    screen_pairs: int = 1,
    players_file: str | None = None,
) -> Ladder:
    name = name.strip()
    if not name:
        raise PokeviewError("a ladder needs a name")
    if store.find_run(name) is not None:
        raise PokeviewError(
            f"there is already a run or ladder named '{name}' (see `pokeview runs`)"
        )
    if not anchors:
        raise PokeviewError("a ladder needs at least one anchor: --anchor max-damage=1000")
    fixed: dict[str, float] = {}
    for text in anchors:
        player, rating = parse_anchor(text)
        player = _player_name(player, players_file)
        if player in fixed:
            raise PokeviewError(f"--anchor names '{player}' twice")
        fixed[player] = rating
    members = list(fixed)
    for spec in [CONTROL, *players]:
        player = _player_name(spec, players_file)
        if player in members and spec != CONTROL:
            raise PokeviewError(f"'{player}' is named twice")
        if player not in members:
            members.append(player)
    sparring_name = _player_name(sparring, players_file)
    if sparring_name not in members:
        raise PokeviewError(
            f"the sparring partner '{sparring_name}' is not in the ladder (members: "
            f"{', '.join(members)}); add it with --player {sparring}"
        )
    if "random" not in format:
        raise PokeviewError(
            f"a ladder plays formats with random teams (such as gen9randombattle), not '{format}': "
            "for team formats use a run config with a team library"
        )
    set_pairs = positive(set_pairs, "--set-pairs", whole=True)
    screen_pairs = positive(screen_pairs, "--screen-pairs", whole=True)
    turn_limit = positive(turn_limit, "--turn-limit", whole=True)
    declared = LadderConfig(
        name=name,
        seed=seed if seed is not None else name,
        format=format,
        turn_limit=turn_limit,
        anchors=fixed,
        sparring=sparring_name,
        players=members,
        set_pairs=set_pairs,
        screen_pairs=screen_pairs,
        players_file=players_file,
    )
    config = msgspec.to_builtins(declared)
    identity = {k: config[k] for k in ("kind", "name", "seed", "format", "turn_limit")}
    digest = hashlib.sha256(orjson.dumps(identity, option=orjson.OPT_SORT_KEYS)).hexdigest()
    run_id = store.create_run(name, config, digest, 0)
    return Ladder(run_id, config)


def load_ladder(store: Store, name: str) -> Ladder:
    run = store.run(name)
    if run.config.get("kind") != "ladder":
        raise PokeviewError(f"'{name}' is a run, not a ladder (see `pokeview ladder create`)")
    if not run.config.get("anchors"):
        raise PokeviewError(f"ladder '{name}' has no anchors; create it again with --anchor")
    config_files.convert(run.config, LadderConfig, f"ladder '{name}': its stored config")
    ladder = Ladder(run.id, run.config)
    # Every player a game can be made for is a member (`ladder_play` checks members alone).
    named = [
        *ladder.anchors,
        ladder.config["sparring"],
        *(p for s in ladder.sets for p in (s.a, s.b)),
    ]
    outside = next((p for p in named if p not in ladder.members), None)
    if outside is not None:
        raise PokeviewError(
            f"ladder '{name}': its stored config names {outside!r}, who is not a member; it "
            "was changed by hand or is damaged"
        )
    return ladder


def save(store: Store, ladder: Ladder) -> None:
    planned = sum(s.games for s in ladder.sets)
    store.update_run(ladder.run_id, config=dumps(ladder.config), planned=planned)


def add_player(store: Store, name: str, spec: str, players_file: str | None = None) -> str:
    ladder = load_ladder(store, name)
    player = _player_name(spec, players_file or ladder.config.get("players_file"))
    if player in ladder.members:
        raise PokeviewError(f"'{player}' is in ladder '{name}' already")
    ladder.config["players"].append(player)
    save(store, ladder)
    return player


# -- the record, as the schedule sees it ---------------------------------------------------------


def matchup(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


@dataclass
class Record:
    """The ladder's games, read once: which planned games are done, and who beat whom."""

    rated: list[GameLine]  # finished games that count, in a canonical order
    tries: dict[tuple[Any, ...], int]  # (pair, seat, A, B) -> finished or errored attempts
    done: set[tuple[Any, ...]]
    game_ids: list[int]

    @classmethod
    def read(cls, store: Store, run_id: int) -> Record:
        rows = store.run_games(run_id)
        tries: dict[tuple[Any, ...], int] = {}
        done = set()
        rated = []
        for r in rows:
            key = (r.pair, r.seat, *matchup(r.p1, r.p2))
            if r.status in ("finished", "void", "error"):
                tries[key] = tries.get(key, 0) + 1
            if r.status == "finished" and not r.excluded:
                done.add(key)
                rated.append(r)
        done |= {k for k, n in tries.items() if n >= TRIES}
        rated.sort(key=lambda r: (r.pair, r.seat, r.p1, r.p2, r.id))
        return cls(rated, tries, done, [r.id for r in rows])

    def pair_done(self, pair: int, a: str, b: str) -> bool:
        return all((pair, seat, *matchup(a, b)) in self.done for seat in (0, 1))

    def wins(self, player: str, opponent: str, pairs: set[int]) -> int:
        return sum(
            1
            for r in self.rated
            if r.pair in pairs
            and {r.p1, r.p2} == {player, opponent}
            and r.winner in ("p1", "p2")
            and r.players[r.winner] == player
        )


def games_of(s: PlannedSet) -> list[tuple[int, int, str, str]]:
    """(pair, seat, p1, p2) of each game of a set: seat 0 has `a` as p1, seat 1 swaps them."""
    return [
        (k, seat, *((s.a, s.b) if seat == 0 else (s.b, s.a))) for k in s.pairs for seat in (0, 1)
    ]


def pending_games(ladder: Ladder, record: Record) -> list[tuple[int, int, str, str]]:
    out = []
    for s in ladder.sets:
        for pair, seat, p1, p2 in games_of(s):
            if (pair, seat, *matchup(p1, p2)) not in record.done:
                out.append((pair, seat, p1, p2))
    return out


@dataclass
class Fitted:
    names: list[str]
    ratings: np.ndarray
    cov: np.ndarray

    def rating(self, name: str) -> float:
        return float(self.ratings[self.names.index(name)])

    def difference_interval(self, a: str, b: str) -> tuple[float, float]:
        """The 95% interval of rating(a) - rating(b), by the normal approximation."""
        x, y = self.names.index(a), self.names.index(b)
        d = self.ratings[x] - self.ratings[y]
        sd = math.sqrt(max(0.0, self.cov[x, x] + self.cov[y, y] - 2 * self.cov[x, y]))
        return float(d - Z95 * sd), float(d + Z95 * sd)


def fit_ladder(ladder: Ladder, record: Record) -> Fitted:
    """Ratings of every member, anchors fixed, and their covariance.

    The schedule reads intervals from the normal approximation (see `anchored_covariance`), not
    from the bootstrap the reports show: resampling mirror pairs gives a matchup played once no
    spread at all, which would call two players separated after a single pair."""
    names = ladder.members
    index = {n: x for x, n in enumerate(names)}
    rows = [r for r in record.rated if r.p1 in index and r.p2 in index]
    i = np.array([index[r.p1] for r in rows], dtype=int)
    j = np.array([index[r.p2] for r in rows], dtype=int)
    score = np.array([1.0 if r.winner == "p1" else 0.0 if r.winner == "p2" else 0.5 for r in rows])
    fixed = {index[n]: v for n, v in ladder.anchors.items() if n in index}
    scores = score_matrix(len(names), i, j, score)
    ratings = fit_anchored(scores, fixed)
    return Fitted(names, ratings, anchored_covariance(scores, ratings, fixed))


# -- the schedule ------------------------------------------------------------------------------


@dataclass
class Choice:
    sets: list[PlannedSet] = field(default_factory=list)
    stopped: dict[str, str] = field(default_factory=dict)  # player -> why it plays no more
    reason: str = ""  # why nothing more is chosen


def assigned_pairs(ladder: Ladder) -> dict[tuple[str, str], list[int]]:
    out: dict[tuple[str, str], list[int]] = {}
    for s in ladder.sets:
        out.setdefault(matchup(s.a, s.b), []).extend(s.pairs)
    return out


def screening(ladder: Ladder, record: Record) -> dict[str, str]:
    """Players that won none of their screening games against random: they play no more."""
    stopped = {}
    screen = int(ladder.config["screen_pairs"])
    assigned = assigned_pairs(ladder)
    for player in ladder.members:
        if player == CONTROL or player in ladder.anchors:
            continue
        pairs = sorted(assigned.get(matchup(player, CONTROL), []))[:screen]
        if len(pairs) < screen or not all(record.pair_done(k, player, CONTROL) for k in pairs):
            continue
        if record.wins(player, CONTROL, set(pairs)) == 0:
            counted = sum(
                1 for r in record.rated if r.pair in pairs and {r.p1, r.p2} == {player, CONTROL}
            )
            void = (
                f" ({2 * screen - counted} of them void or failed: on autopilot or in errors)"
                if counted < 2 * screen
                else ""
            )
            stopped[player] = (
                f"{player} won none of its {2 * screen} games against random{void}: something is "
                "wrong with its set-up (its answers, key or model); it plays no more games here"
            )
    return stopped


def _next_pairs(assigned: dict[tuple[str, str], list[int]], a: str, b: str, n: int) -> list[int]:
    start = max(assigned.get(matchup(a, b), [-1]), default=-1) + 1
    return list(range(start, start + n))


def placement_steps(
    ladder: Ladder, player: str, stopped: dict[str, str]
) -> list[tuple[str, int, str]]:
    """(opponent, mirror pairs it needs in all, why) of a player's placement, in order."""
    screen, per_set = int(ladder.config["screen_pairs"]), int(ladder.config["set_pairs"])
    steps: list[tuple[str, int, str]] = []
    if player in ladder.anchors:
        return []  # fixed: the others are placed against it
    if player != CONTROL:
        steps.append((CONTROL, screen, "screening against random"))
    for anchor in ladder.anchors:
        steps.append((anchor, per_set, "placement: anchor"))
    steps.append((ladder.config["sparring"], per_set, "placement: sparring partner"))
    out: list[tuple[str, int, str]] = []
    seen: dict[str, int] = {}
    for opponent, pairs, why in steps:
        if opponent == player or opponent in stopped:
            continue
        if opponent in seen:  # random as screening opponent and sparring partner: one step
            index = seen[opponent]
            out[index] = (opponent, max(out[index][1], pairs), out[index][2])
            continue
        seen[opponent] = len(out)
        out.append((opponent, pairs, why))
    return out


def choose(ladder: Ladder, record: Record) -> Choice:
    """The next sets to play, from the config and the record (every chosen set complete)."""
    choice = Choice(stopped=screening(ladder, record))
    assigned = assigned_pairs(ladder)
    per_set = int(ladder.config["set_pairs"])
    fitted: Fitted | None = None
    for player in ladder.members:
        if player in choice.stopped:
            continue
        steps = placement_steps(ladder, player, choice.stopped)
        missing = []
        for opponent, pairs, why in steps:
            have = len(assigned.get(matchup(player, opponent), []))
            if have < pairs:
                missing.append(
                    PlannedSet(
                        player, opponent, _next_pairs(assigned, player, opponent, pairs - have), why
                    )
                )
        if missing:
            # Screening first, alone: the rest waits for its verdict.
            if missing[0].why.startswith("screening"):
                choice.sets = [missing[0]]
            else:
                choice.sets = missing
            return choice
        if player in ladder.anchors or any(
            s.why == "placement: closest-rated" and s.a == player for s in ladder.sets
        ):
            continue
        fitted = fitted or fit_ladder(ladder, record)
        assert fitted is not None
        met = {o for o in ladder.members if matchup(player, o) in assigned}
        earlier = ladder.members[: ladder.members.index(player)]  # placed already
        candidates = [o for o in earlier if o not in met and o not in choice.stopped]
        if not candidates:
            continue
        ratings = fitted
        mine = ratings.rating(player)
        closest = min(
            candidates, key=lambda o: (abs(ratings.rating(o) - mine), ladder.members.index(o))
        )
        choice.sets = [
            PlannedSet(
                player,
                closest,
                _next_pairs(assigned, player, closest, per_set),
                "placement: closest-rated",
            )
        ]
        return choice
    fitted = fitted or fit_ladder(ladder, record)
    active = [p for p in ladder.members if p not in choice.stopped]
    best: tuple[float, int, int, int] | None = None
    best_pair: tuple[str, str] | None = None
    for x, a in enumerate(active):
        for b in active[x + 1 :]:
            if a in ladder.anchors and b in ladder.anchors:
                continue
            low, high = fitted.difference_interval(a, b)
            overlap = max(0.0, min(high, -low))
            played = len(assigned.get(matchup(a, b), []))
            key = (-overlap, played, ladder.members.index(a), ladder.members.index(b))
            if overlap > 0 and (best is None or key < best):
                best, best_pair = key, (a, b)
    if best_pair is None:
        choice.reason = "every pair of ratings is separated: more games would tell little"
        return choice
    a, b = best_pair
    choice.sets = [
        PlannedSet(
            a,
            b,
            _next_pairs(assigned, a, b, per_set),
            f"most informative: their intervals overlap by {-best[0]:.0f} points",  # type: ignore[index]
        )
    ]
    return choice
