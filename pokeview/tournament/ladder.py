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
that dies leaves chosen sets unfinished; the next one finishes them first. A finished game on
autopilot for more than half of a side's decisions is void (kept, left out of the ratings) and
played again once; so is a game that ended in a harness error.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import orjson

from pokeview import __version__
from pokeview.battle import seeds
from pokeview.errors import PokeviewError
from pokeview.ratings.bradley_terry import anchored_covariance, fit_anchored, score_matrix
from pokeview.ratings.costs import current_prices, side_costs
from pokeview.store.store import Store, dumps
from pokeview.text import strip_control

CONTROL = "random"  # the screening opponent: a model that cannot beat it is set up wrong
TRIES = 2  # a void or errored game is played again once, then left out
VOID_AUTOPILOT = 0.5  # RotomArena: void if a side was on autopilot for more than half its turns
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


@dataclass
class Ladder:
    run_id: int
    config: dict[str, Any]

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
    from pokeview.players.llm.config import load_players, players_path

    spec = spec.strip()
    if spec.startswith("llm:") and spec != "llm:loopback":
        models = load_players(players_file)
        if spec.removeprefix("llm:") not in models:
            listed = ", ".join(sorted(models)) or "none"
            raise PokeviewError(
                f"no model player '{spec.removeprefix('llm:')}' in {players_path(players_file)} "
                f"(players there: {listed})"
            )
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
    config = {
        "kind": "ladder",
        "name": name,
        "seed": seed if seed is not None else name,
        "format": format,
        "turn_limit": turn_limit,
        "anchors": fixed,
        "sparring": sparring_name,
        "players": members,
        "set_pairs": set_pairs,
        "screen_pairs": screen_pairs,
        "players_file": players_file,
        "sets": [],
        "budget": None,
    }
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
    return Ladder(run.id, run.config)


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

    rated: list[Any]  # finished games that count, in a canonical order
    tries: dict[tuple[Any, ...], int]  # (pair, seat, A, B) -> finished or errored attempts
    done: set[tuple[Any, ...]]
    game_ids: list[int]

    @classmethod
    def read(cls, store: Store, run_id: int) -> Record:
        rows = store.run_results(run_id)
        tries: dict[tuple[Any, ...], int] = {}
        done = set()
        rated = []
        for r in rows:
            key = (r["pair"], r["seat"], *matchup(r["p1"], r["p2"]))
            if r["status"] in ("finished", "error"):
                tries[key] = tries.get(key, 0) + 1
            if r["status"] == "finished" and not r["excluded"]:
                done.add(key)
                rated.append(r)
        done |= {k for k, n in tries.items() if n >= TRIES}
        rated.sort(key=lambda r: (r["pair"], r["seat"], r["p1"], r["p2"], r["id"]))
        return cls(rated, tries, done, [r["id"] for r in rows])

    def pair_done(self, pair: int, a: str, b: str) -> bool:
        return all((pair, seat, *matchup(a, b)) in self.done for seat in (0, 1))

    def wins(self, player: str, opponent: str, pairs: set[int]) -> int:
        return sum(
            1
            for r in self.rated
            if r["pair"] in pairs
            and {r["p1"], r["p2"]} == {player, opponent}
            and r["winner"] in ("p1", "p2")
            and r[r["winner"]] == player
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
    rows = [r for r in record.rated if r["p1"] in index and r["p2"] in index]
    i = np.array([index[r["p1"]] for r in rows], dtype=int)
    j = np.array([index[r["p2"]] for r in rows], dtype=int)
    score = np.array(
        [1.0 if r["winner"] == "p1" else 0.0 if r["winner"] == "p2" else 0.5 for r in rows]
    )
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
                1
                for r in record.rated
                if r["pair"] in pairs and {r["p1"], r["p2"]} == {player, CONTROL}
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
        met = {o for o in ladder.members if matchup(player, o) in assigned}
        earlier = ladder.members[: ladder.members.index(player)]  # placed already
        candidates = [o for o in earlier if o not in met and o not in choice.stopped]
        if not candidates:
            continue
        mine = fitted.rating(player)
        closest = min(
            candidates, key=lambda o: (abs(fitted.rating(o) - mine), ladder.members.index(o))
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


# -- money and budgets -----------------------------------------------------------------------


def is_free(player: str, players_file: str | None) -> bool | None:
    """True for bots and outside programs, False for a priced model, None for an unpriced one.

    Read from the players file, so that it needs no API key (`ladder show` runs without one)."""
    from pokeview.players.llm.config import load_players

    if not player.startswith("llm:"):
        return True
    spec = load_players(players_file).get(player.removeprefix("llm:"))
    if spec is None:
        return True if player == "llm:loopback" else None  # loopback costs nothing
    prices = spec.prices
    if "input" in prices and "output" in prices:
        return all(v == 0 for v in prices.values()) or False
    return None


class _FreeByPlayer(dict[str, bool | None]):
    """`is_free` of each player, looked up once (players may join while a ladder plays)."""

    def __init__(self, players_file: str | None) -> None:
        super().__init__()
        self.players_file = players_file

    def __missing__(self, player: str) -> bool | None:
        self[player] = is_free(player, self.players_file)
        return self[player]

    def get(self, player: str, default: Any = None) -> bool | None:  # type: ignore[override]
        return self[player]


@dataclass
class Spend:
    games: int = 0
    usd: float = 0.0
    unknown: int = 0  # model games whose cost is not known

    def text(self) -> str:
        extra = f" + {self.unknown} of unknown cost" if self.unknown else ""
        return f"{self.games} game{'' if self.games == 1 else 's'}, ${self.usd:.4f}{extra}"


class Costs:
    """Cost per game of each side, and estimates per player, from the ladder's record."""

    def __init__(self, store: Store, ladder: Ladder, players_file: str | None) -> None:
        self.store = store
        self.prices = current_prices(players_file)
        self.players_file = players_file
        self.free = _FreeByPlayer(players_file)
        self.per_game: dict[str, list[float | None]] = {}
        self.by_game: dict[int, float | None] = {}

    def add_games(self, rows: list[Any]) -> None:
        rows = [r for r in rows if r["status"] != "running"]  # costed once they end
        paid = [r for r in rows if not (self.free.get(r["p1"]) and self.free.get(r["p2"]))]
        facts = self.store.decision_facts([r["id"] for r in paid])
        sides = side_costs(facts, self.prices)
        for r in rows:
            total: float | None = 0.0
            for side in ("p1", "p2"):
                if self.free.get(r[side]):
                    value: float | None = 0.0
                else:
                    value = sides.get((r["id"], side))
                    if r["status"] == "finished":
                        self.per_game.setdefault(r[side], []).append(value)
                total = None if total is None or value is None else total + value
            self.by_game[r["id"]] = total

    def estimate(self, player: str) -> float | None:
        """Expected USD per game of this player: 0 if free, its average so far, else None."""
        if self.free.get(player):
            return 0.0
        known = [c for c in self.per_game.get(player, []) if c is not None]
        return sum(known) / len(known) if known else None

    def dearest(self, player: str) -> float | None:
        """The most a game of this player has cost: what a dollar budget plans with."""
        if self.free.get(player):
            return 0.0
        known = [c for c in self.per_game.get(player, []) if c is not None]
        return max(known) if known else None

    def spend(self, rows: list[Any]) -> Spend:
        """Games that ended (an interrupted game is played again: it counts once, when it ends)
        and dollars of every game that was played, interrupted ones included."""
        self.add_games(
            [r for r in rows if r["status"] != "running" and r["id"] not in self.by_game]
        )
        s = Spend()
        for row in rows:
            if row["status"] == "running":
                continue
            s.games += row["status"] != "interrupted"
            value = self.by_game.get(row["id"])
            if value is None:
                s.unknown += 1
            else:
                s.usd += value
        return s


@dataclass
class Budget:
    games: int | None
    usd: float | None
    after_game: int  # the budget pays for games with a higher id
    resumed: bool = False

    def left(self, spent: Spend) -> tuple[int | None, float | None]:
        games = None if self.games is None else self.games - spent.games
        usd = None if self.usd is None else self.usd - spent.usd
        return games, usd


def open_budget(ladder: Ladder, games: int | None, usd: float | None, last_game: int) -> Budget:
    """This play's budget; an unfinished one with the same limits is continued (a restart)."""
    if games is None and usd is None:
        raise PokeviewError("give a budget: --budget-games N and/or --budget-usd DOLLARS")
    if games is not None:
        games = positive(games, "--budget-games", whole=True)
    if usd is not None:
        usd = positive(usd, "--budget-usd")
    old = ladder.config.get("budget")
    if old and not old.get("done") and old.get("games") == games and old.get("usd") == usd:
        return Budget(games, usd, int(old["after_game"]), resumed=True)
    return Budget(games, usd, last_game)


def check_prices(ladder: Ladder, budget: Budget, costs: Costs, stopped: dict[str, str]) -> None:
    if budget.games is not None:
        return
    unpriced = [p for p in ladder.members if costs.free.get(p) is None and p not in stopped]
    if unpriced:
        raise PokeviewError(
            f"{unpriced[0]} has no price in the players file, so a dollar budget cannot bound its "
            "games: give --budget-games N (or its prices)"
        )


def affordable_pairs(
    s: PlannedSet,
    budget: Budget,
    spent: Spend,
    costs: Costs,
    extra_games: int = 0,
    extra_usd: float = 0.0,
) -> int:
    """How many of a set's mirror pairs the budget still pays for, after `extra_*` already
    planned. Dollars are planned at each player's dearest game so far, so that a set is not
    started on an average it may well exceed."""
    games_left, usd_left = budget.left(spent)
    n = len(s.pairs)
    if games_left is not None:
        n = min(n, (games_left - extra_games) // 2)
    if usd_left is not None:
        usd_left -= extra_usd
        a, b = costs.dearest(s.a), costs.dearest(s.b)
        if spent.unknown and budget.games is None:
            n = 0  # the spend is not known: a dollar budget cannot go on
        elif a is None or b is None:
            n = min(n, 1 if usd_left > 0 else 0)  # one pair first, to learn what it costs
        elif a + b > 0:
            n = min(n, int(usd_left // (2 * (a + b))))
    return max(0, n)


# -- what is said before and during play -------------------------------------------------------


def _money(value: float | None) -> str:
    return "unknown" if value is None else f"${value:.4f}"


def preview(
    ladder: Ladder, record: Record, costs: Costs, budget: Budget, spent: Spend
) -> list[str]:
    lines = []
    anchors = ", ".join(f"{p} at {v:g}" for p, v in ladder.anchors.items())
    lines.append(
        f"ladder {ladder.name}: {len(ladder.members)} players (anchors: {anchors}; sparring "
        f"partner: {ladder.config['sparring']}); {len(record.rated)} rated games recorded"
    )
    limits = " and ".join(
        x
        for x in (
            f"{budget.games} games" if budget.games is not None else "",
            f"${budget.usd:.4f}" if budget.usd is not None else "",
        )
        if x
    )
    lines.append(
        f"budget: {limits}"
        + (f" (continued; spent so far {spent.text()})" if budget.resumed else "")
    )
    for why in screening(ladder, record).values():
        lines.append(f"stopped earlier: {why}")
    pending = pending_games(ladder, record)
    if pending:
        lines.append(f"first, {len(pending)} games of sets already chosen:")
        for s in ladder.sets:
            left = [g for g in games_of(s) if g in pending]
            if left:
                lines.append(f"  {len(left)} games {s.a} vs {s.b} ({s.why})")
    stopped = screening(ladder, record)
    assigned = assigned_pairs(ladder)
    expected: float | None = 0.0
    for player in ladder.members:
        if player in stopped:
            continue
        steps = [
            (o, n - len(assigned.get(matchup(player, o), [])), why)
            for o, n, why in placement_steps(ladder, player, stopped)
        ]
        steps = [s for s in steps if s[1] > 0]
        if not steps:
            continue
        earlier = ladder.members[: ladder.members.index(player)]
        met = {o for o in earlier if matchup(player, o) in assigned} | {o for o, _, _ in steps}
        closest = any(o not in met and o not in stopped for o in earlier) and not any(
            s.why == "placement: closest-rated" and s.a == player for s in ladder.sets
        )
        lines.append(f"placement of {player}:")
        for opponent, pairs, why in steps:
            a, b = costs.estimate(player), costs.estimate(opponent)
            each = None if a is None or b is None else a + b
            cost = None if each is None else each * 2 * pairs
            expected = None if expected is None or cost is None else expected + cost
            lines.append(f"  {2 * pairs} games vs {opponent} ({why}), expected {_money(cost)}")
        if closest:
            lines.append(
                f"  {2 * int(ladder.config['set_pairs'])} games vs the closest-rated player "
                "it has not met, chosen after these"
            )
    lines.append(
        f"then sets of {2 * int(ladder.config['set_pairs'])} games between the players whose "
        "intervals overlap most, until the budget is spent or every pair is separated"
    )
    estimates = {p: costs.estimate(p) for p in ladder.members if p not in stopped}
    per_game = list(estimates.values())
    unknown = [p for p, c in estimates.items() if c is None]
    if unknown:
        lines.append(
            f"expected cost: unknown for {', '.join(unknown)} until its first games; a dollar "
            "budget plays one mirror pair with it first, then plans with what that cost"
        )
    else:
        most = max(per_game, default=0.0) or 0.0
        games_left, usd_left = budget.left(spent)
        bound = [
            x
            for x in (usd_left, None if games_left is None else games_left * 2 * most)
            if x is not None
        ]
        whole = _money(min(bound) if bound else None)
        lines.append(f"expected cost: placement {_money(expected)}; at most {whole} in all")
    return [strip_control(line) for line in lines]


# -- playing -------------------------------------------------------------------------------------


def _alive(pid: int | None) -> bool:
    from pokeview.tournament.runner import _alive as alive

    return alive(pid)


@dataclass
class Outcome:
    played: int = 0
    failed: int = 0
    spent: Spend = field(default_factory=Spend)
    stopped: dict[str, str] = field(default_factory=dict)
    why_stopped: str = ""


def _header(ladder: Ladder, bridge: Any, described: dict[str, Any]) -> dict[str, Any]:
    c = ladder.config
    return {
        "pokeview_version": __version__,
        "showdown_version": bridge.showdown_version,
        "format": c["format"],
        "turn_limit": c["turn_limit"],
        "players": described,
        "seed_text": c["seed"],
        "ladder": {
            "anchors": c["anchors"],
            "sparring": c["sparring"],
            "set_pairs": c["set_pairs"],
            "screen_pairs": c["screen_pairs"],
        },
        "config_hash": None,
        "pairs": "per matchup, as scheduled",
    }


def _void_reason(store: Store, game_id: int) -> str | None:
    counts: dict[str, list[int]] = {}
    for row in store.decision_facts([game_id]):
        if row["model"]:
            c = counts.setdefault(row["side"], [0, 0])
            c[0] += 1
            c[1] += row["how"] == "autopilot"
    for side, (n, autopilot) in sorted(counts.items()):
        if n and autopilot / n > VOID_AUTOPILOT:
            return f"void: {side} was on autopilot for {100 * autopilot / n:.0f}% of its decisions"
    return None


async def play_ladder(
    store: Store,
    bridge: Any,
    name: str,
    *,
    budget_games: Any = None,
    budget_usd: Any = None,
    concurrency: int = 4,
    players_file: str | None = None,
    say: Callable[[str], None] = print,
) -> Outcome:
    from pokeview.battle.loop import play_game
    from pokeview.players import make_player

    ladder = load_ladder(store, name)
    concurrency = positive(concurrency, "--concurrency", whole=True)
    players_file = players_file or ladder.config.get("players_file")
    run = store.run(ladder.run_id)
    if run.state == "running" and _alive(run.pid):
        raise PokeviewError(f"ladder '{name}' is being played by process {run.pid} already")
    described = {p: make_player(p, players_file).describe() for p in ladder.members}
    record = Record.read(store, ladder.run_id)
    last_game = max(record.game_ids, default=0)
    budget = open_budget(ladder, budget_games, budget_usd, last_game)
    costs = Costs(store, ladder, players_file)
    costs.add_games(store.run_results(ladder.run_id))
    check_prices(ladder, budget, costs, screening(ladder, record))
    for row in store.run_results(ladder.run_id):
        if row["status"] == "running":
            store.mark_interrupted(row["id"])  # played again from its seed, under a new id

    def budget_spend() -> Spend:
        return costs.spend(
            [r for r in store.run_results(ladder.run_id) if r["id"] > budget.after_game]
        )

    for line in preview(ladder, record, costs, budget, budget_spend()):
        say(line)
    ladder.config["budget"] = {
        "games": budget.games,
        "usd": budget.usd,
        "after_game": budget.after_game,
        "done": False,
    }
    save(store, ladder)
    if not bridge.running:
        await bridge.start()
    store.update_run(
        ladder.run_id, state="running", pid=os.getpid(), header=_header(ladder, bridge, described)
    )
    outcome = Outcome()
    stopped_before = screening(ladder, record)
    said_stopped: set[str] = set(stopped_before)
    semaphore = asyncio.Semaphore(concurrency)
    fmt, seed_text = ladder.config["format"], ladder.config["seed"]

    async def play(pair: int, seat: int, p1: str, p2: str) -> None:
        async with semaphore:
            result = await play_game(
                fmt,
                seeds.game_seed(seed_text, pair),
                make_player(p1, players_file),  # fresh players for every game
                make_player(p2, players_file),
                bridge=bridge,
                store=store,
                turn_limit=int(ladder.config["turn_limit"]),
                seed_text=seed_text,
                run_id=ladder.run_id,
                pair=pair,
                seat=seat,
            )
        what = f"{result.status}"
        if result.status == "finished":
            void = _void_reason(store, result.game_id)
            if void:
                store.void_game(result.game_id, void)
                what = void + " (it is played again once)"
            else:
                what = f"winner {result.winner_name} in {result.turns} turns"
        else:
            outcome.failed += 1
            what = f"error: {(result.error or '')[:80]}"
        outcome.played += 1
        spent = budget_spend()
        say(
            strip_control(
                f"game {result.game_id}: {p1} vs {p2} (pair {pair}): {what} · spent {spent.text()}"
            )
        )

    finished_cleanly = False
    try:
        while True:
            # Players added by `ladder add` while this plays join at the next choice.
            members = load_ladder(store, name).config["players"]
            if members != ladder.config["players"]:
                ladder.config["players"] = members
                for p in members:
                    described.setdefault(p, make_player(p, players_file).describe())
                store.update_run(ladder.run_id, header=_header(ladder, bridge, described))
            record = Record.read(store, ladder.run_id)
            spent = budget_spend()
            pending = pending_games(ladder, record)
            if not pending:
                choice = choose(ladder, record)
                for player, why in choice.stopped.items():
                    if player not in said_stopped:
                        said_stopped.add(player)
                        say(strip_control(why))
                outcome.stopped = {
                    p: why for p, why in choice.stopped.items() if p not in stopped_before
                }
                chosen = []
                extra, extra_usd = 0, 0.0
                for s in choice.sets:
                    n = affordable_pairs(s, budget, spent, costs, extra, extra_usd)
                    if n:
                        chosen.append(PlannedSet(s.a, s.b, s.pairs[:n], s.why))
                        extra += 2 * n
                        dearest = (costs.dearest(s.a) or 0.0) + (costs.dearest(s.b) or 0.0)
                        extra_usd += 2 * n * dearest
                if not chosen:
                    outcome.why_stopped = choice.reason or "the budget is spent"
                    if choice.sets and budget.games is None and spent.unknown:
                        outcome.why_stopped = (
                            f"{spent.unknown} games have no known cost, so a dollar budget "
                            "cannot be kept: give --budget-games N"
                        )
                    finished_cleanly = True
                    break
                for s in chosen:
                    ladder.config["sets"].append(s.to_json())
                    say(strip_control(f"next: {s.games} games {s.a} vs {s.b} ({s.why})"))
                save(store, ladder)
                continue
            games_left, _ = budget.left(spent)
            if games_left is not None:
                pending = pending[: max(0, games_left)]
            if not pending or (budget.usd is not None and budget.left(spent)[1] <= 0):  # type: ignore[operator]
                outcome.why_stopped = "the budget is spent"
                finished_cleanly = True
                break
            failed_before = outcome.failed
            await asyncio.gather(*(play(*g) for g in pending))
            if outcome.failed - failed_before == len(pending):
                outcome.why_stopped = (
                    f"all {len(pending)} games just played ended in errors (see `pokeview games "
                    "--status error`); fix the cause and play again"
                )
                break
    finally:
        outcome.spent = budget_spend()
        ladder.config["budget"]["done"] = finished_cleanly
        save(store, ladder)
        store.update_run(
            ladder.run_id, state="stopped" if not finished_cleanly else "finished", pid=None
        )
    return outcome


def status_lines(store: Store, ladder: Ladder, players_file: str | None = None) -> list[str]:
    """Members and where each stands, what was spent, and what the next play starts with."""
    players_file = players_file or ladder.config.get("players_file")
    record = Record.read(store, ladder.run_id)
    costs = Costs(store, ladder, players_file)
    rows = store.run_results(ladder.run_id)
    costs.add_games(rows)
    stopped = screening(ladder, record)
    assigned = assigned_pairs(ladder)
    lines = [f"ladder {ladder.name}: members in the order they joined"]
    for player in ladder.members:
        if player in ladder.anchors:
            where = f"anchor, fixed at {ladder.anchors[player]:g}"
        elif player in stopped:
            where = "stopped: " + stopped[player]
        else:
            steps = placement_steps(ladder, player, stopped)
            placing = any(len(assigned.get(matchup(player, o), [])) < n for o, n, _ in steps)
            where = "being placed" if placing else "placed"
        price = costs.estimate(player)
        lines.append(f"  {player}: {where}; cost per game {_money(price)}")
    spent = costs.spend(rows)
    lines.append(f"spent in all: {spent.text()} (costed at today's prices where not recorded)")
    pending = pending_games(ladder, record)
    if pending:
        lines.append(f"next: {len(pending)} games of sets already chosen")
    else:
        choice = choose(ladder, record)
        if choice.sets:
            lines += [f"next: {s.games} games {s.a} vs {s.b} ({s.why})" for s in choice.sets]
        else:
            lines.append(f"next: nothing ({choice.reason})")
    return [strip_control(line) for line in lines]
