"""The search player: a matrix-game search on Showdown's own simulator, fair by construction.

Each decision sends the search host (pokeview/sim/search.js, a Node process beside the bridge)
only this side's request and the protocol lines this side saw; the host samples what is unseen
from the format's random-battle sets, plays every joint action in real Showdown battles and
answers with its choice and what it considered.

Spec: `search` or `search:ms=200`, `search:cpu=200`, `search:nodes=600,depth=2,samples=4`
(comma-separated). A node budget makes games byte-identical for the same seed; a time budget
does not. `ms` is the wall clock a decision may take; `cpu` is the search process's CPU time,
the same compute however busy the machine is (the wall clock then runs longer).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import orjson

from pokeview.errors import PokeviewError
from pokeview.game.decision import Considered, How, SearchDetail, SearchInfo
from pokeview.players.base import Decision, DecisionContext, Player
from pokeview.players.kinds import PlayerKind

SEARCHABLE_FORMATS = ("gen9randombattle",)
DEFAULT_MS = 200
LIMITS = {
    "ms": (1, 60_000),
    "cpu": (1, 60_000),
    "nodes": (1, 1_000_000),
    "depth": (1, 4),
    "samples": (1, 64),
}
BUDGETS = ("ms", "cpu", "nodes")
CONSIDERED = 5  # how many of the top actions the record keeps


@dataclass(frozen=True, slots=True)
class SearchSettings:
    ms: int | None = None  # wall-clock milliseconds per decision
    cpu: int | None = None  # the search process's CPU milliseconds (load does not shrink it)
    nodes: int | None = None  # simulated turns: the same game on any machine
    depth: int = 1
    samples: int = 64

    @property
    def budget(self) -> str:
        if self.nodes:
            return f"{self.nodes} nodes"
        return f"{self.cpu} ms CPU" if self.cpu else f"{self.ms} ms"

    def budget_query(self) -> dict[str, int]:
        if self.nodes:
            return {"nodes": self.nodes}
        return {"cpu": self.cpu} if self.cpu else {"ms": self.ms or DEFAULT_MS}


def parse_settings(spec: str) -> SearchSettings:
    """'search', 'search:ms=200', 'search:nodes=500,depth=2'; anything else is one clear line."""
    _, _, params = spec.partition(":")
    values: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in params.split(","))):
        key, eq, raw = part.partition("=")
        key = key.strip()
        if key not in LIMITS:
            known = ", ".join(LIMITS)
            raise PokeviewError(f"unknown search parameter '{key}' in '{spec}' (known: {known})")
        if not eq:
            raise PokeviewError(f"search parameter '{key}' needs a value, as in {key}=N")
        try:
            value = int(raw.strip())
        except ValueError:
            raise PokeviewError(
                f"search parameter {key} must be a whole number, not '{raw}'"
            ) from None
        low, high = LIMITS[key]
        if not low <= value <= high:
            raise PokeviewError(f"search parameter {key}={value} is out of range ({low} to {high})")
        values[key] = value
    if sum(key in values for key in BUDGETS) > 1:
        raise PokeviewError(
            "give the search one budget: ms=N (wall clock), cpu=N (CPU time) or nodes=N "
            "(deterministic)"
        )
    if not any(key in values for key in BUDGETS):
        values["ms"] = DEFAULT_MS
    return SearchSettings(**values)


def check_format(format_id: str) -> None:
    if format_id not in SEARCHABLE_FORMATS:
        raise PokeviewError(
            f"the search player cannot search format '{format_id}': it samples the unseen "
            f"from random-battle sets and plays only {', '.join(SEARCHABLE_FORMATS)}"
        )


class SearchPlayer(Player):
    kind = PlayerKind.BOT
    reads_words = False  # it searches from the request and the protocol lines

    def __init__(self, spec: str) -> None:
        self.settings = parse_settings(spec)
        self.name = spec.strip()
        self._own_host: Any = None  # only when the game gives no bridge (a server game)
        # Names this player's stream of lines, so the host can keep its view between decisions.
        self._stream = uuid.uuid4().hex

    def describe(self) -> dict[str, Any]:
        s = self.settings
        return {
            "kind": "bot",
            "bot": "search",
            "engine": "pokeview search.js (matrix game on Showdown's simulator)",
            "budget": s.budget,
            "depth": s.depth,
            "samples": s.samples,
        }

    def check_format(self, format_id: str) -> None:
        check_format(format_id)

    @staticmethod
    def open_actions(ctx: DecisionContext) -> list[int]:
        """The actions to search: all but those Showdown just refused (all, if it refused all)."""
        refused = {a.choice for a in ctx.refused}
        open_actions = [i for i, a in enumerate(ctx.actions) if a.choice not in refused]
        return open_actions or list(range(len(ctx.actions)))

    def query(self, ctx: DecisionContext) -> dict[str, Any]:
        """All the search is given: this side's request and the lines this side saw."""
        lines = [line for update in ctx.updates for line in update.lines]
        s = self.settings
        budget = s.budget_query()
        return {
            "stream": f"{self._stream}:{ctx.side}",
            "side": ctx.side,
            "request": orjson.Fragment(bytes(ctx.request_json)),  # sent on as it came
            "lines": lines,
            "actions": [ctx.actions[i].choice for i in self.open_actions(ctx)],
            "seed": str(ctx.seed),
            "budget": budget,
            "depth": s.depth,
            "samples": s.samples,
        }

    async def _host(self, ctx: DecisionContext) -> Any:
        if ctx.bridge is not None and hasattr(ctx.bridge, "searcher"):
            return ctx.bridge.searcher()
        if self._own_host is None:
            from pokeview.sim.search_client import SearchHost

            self._own_host = SearchHost()
        return self._own_host

    async def decide(self, ctx: DecisionContext) -> Decision:
        open_actions = self.open_actions(ctx)
        if len(open_actions) == 1 or ctx.request.team_preview:
            return Decision(
                open_actions[0],
                how=How.ONLY_CHOICE,
                detail=SearchDetail(search=SearchInfo(budget=self.settings.budget, nodes=0)),
            )
        host = await self._host(ctx)
        query = self.query(ctx)
        answer = await host.search(query)
        index = open_actions[answer["index"]]
        considered = sorted(
            (
                Considered(
                    action=ctx.actions[open_actions[i]].label, value=v, weight=answer["probs"][i]
                )
                for i, v in enumerate(answer["values"])
                if v is not None
            ),
            key=lambda row: -row.value,
        )[:CONSIDERED]
        info = SearchInfo(
            budget=self.settings.budget,
            depth=self.settings.depth,
            nodes=answer["nodes"],
            samples=answer["samples"],
            hidden_foes=answer["hidden"],
            elapsed_ms=answer["elapsed_ms"],
            cpu_ms=answer["cpu_ms"],
            considered=considered,
        )
        return Decision(index, how=How.CHOSEN, detail=SearchDetail(search=info))

    async def close(self) -> None:
        if self._own_host is not None:
            await self._own_host.close()
            self._own_host = None
