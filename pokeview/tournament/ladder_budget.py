"""What a ladder's games cost and what its budgets allow (issue 17).

Bots and outside programs are free; a model costs what its decisions cost at the players file's
prices (costed at today's prices where the price was missing when it played). A games budget
counts games that ended; a dollar budget counts every game played, interrupted ones included,
and plans each set at the dearest game each of its players has had so far.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokeview.errors import PokeviewError
from pokeview.ratings.costs import current_prices, side_costs
from pokeview.ratings.decisions import decision_facts
from pokeview.store.rows import GameLine
from pokeview.store.store import Store
from pokeview.text import games_count
from pokeview.tournament.ladder import (
    Ladder,
    PlannedSet,
    positive,
)

# -- money and budgets -----------------------------------------------------------------------


def is_free(player: str, players_file: str | None) -> bool | None:
    """True for bots and outside programs, False for a priced model, None for an unpriced one.

    Read from the players file, so that it needs no API key (`ladder show` runs without one)."""
    from pokeview.players.kinds import LOOPBACK
    from pokeview.players.llm.config import load_players

    if not player.startswith("llm:"):
        return True
    spec = load_players(players_file).get(player.removeprefix("llm:"))
    if spec is None:
        # The stand-ins (under every API) cost nothing.
        return True if player.removeprefix("llm:") in LOOPBACK else None
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
        return f"{games_count(self.games)}, ${self.usd:.4f}{extra}"


class Costs:
    """Cost per game of each side, and estimates per player, from the ladder's record."""

    def __init__(self, store: Store, ladder: Ladder, players_file: str | None) -> None:
        self.store = store
        self.prices = current_prices(players_file)
        self.players_file = players_file
        self.free = _FreeByPlayer(players_file)
        self.per_game: dict[str, list[float | None]] = {}
        self.by_game: dict[int, float | None] = {}

    def add_games(self, rows: list[GameLine]) -> None:
        rows = [r for r in rows if r.status != "running"]  # costed once they end
        paid = [r for r in rows if not (self.free.get(r.p1) and self.free.get(r.p2))]
        facts = decision_facts(self.store, [r.id for r in paid])
        sides = side_costs(facts, self.prices)
        for r in rows:
            total: float | None = 0.0
            for side in ("p1", "p2"):
                if self.free.get(r.players[side]):
                    value: float | None = 0.0
                else:
                    value = sides.get((r.id, side))
                    if r.status == "finished":
                        self.per_game.setdefault(r.players[side], []).append(value)
                total = None if total is None or value is None else total + value
            self.by_game[r.id] = total

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

    def spend(self, rows: list[GameLine]) -> Spend:
        """Games that ended (an interrupted game is played again: it counts once, when it ends)
        and dollars of every game that was played, interrupted ones included."""
        self.add_games([r for r in rows if r.status != "running" and r.id not in self.by_game])
        s = Spend()
        for row in rows:
            if row.status == "running":
                continue
            s.games += row.status != "interrupted"
            value = self.by_game.get(row.id)
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
