"""Playing a ladder: what is said first, the games, the spend as it goes, and `ladder show`.

The schedule (what to play next) is in `ladder`; money and budgets in `ladder_budget`.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from pokeview import __version__
from pokeview.errors import PokeviewError
from pokeview.players import make_player
from pokeview.players.registry import imports_code
from pokeview.players.server import ServerOptions
from pokeview.sim.client import Bridge
from pokeview.store.store import Store
from pokeview.text import strip_control
from pokeview.tournament.engine import (
    Engine,
    Progress,
    Remote,
    alive,
    checked_players,
    holding,
    plays_here,
    showdown_played,
)
from pokeview.tournament.ladder import (
    Ladder,
    PlannedSet,
    Record,
    assigned_pairs,
    choose,
    games_of,
    load_ladder,
    matchup,
    pending_games,
    placement_steps,
    positive,
    save,
    screening,
)
from pokeview.tournament.ladder_budget import (
    Budget,
    Costs,
    Spend,
    affordable_pairs,
    check_prices,
    open_budget,
)
from pokeview.tournament.order import GameOrder

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
        most = max((c for c in per_game if c is not None), default=0.0)
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


@dataclass
class Outcome:
    played: int = 0
    failed: int = 0
    spent: Spend = field(default_factory=Spend)
    stopped: dict[str, str] = field(default_factory=dict)
    why_stopped: str = ""


def _header(ladder: Ladder, showdown: str | None, described: dict[str, Any]) -> dict[str, Any]:
    c = ladder.config
    return {
        "pokeview_version": __version__,
        "showdown_version": showdown,
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


# A module and class as a person types them (`pkg.mod:Class`): a stored spec that is not (a
# line break, say) is refused without a command to copy.
MODULE_SPEC = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*", re.ASCII)


def refuse_recorded_code(name: str, members: list[str], allowed: Collection[str]) -> None:
    """A member that is a Python module (`module:Class`) plays only when the person names it:
    importing it runs its code, and a ladder's database does not choose code to run."""
    for player in members:
        if imports_code(player) and player not in allowed:
            said = f"ladder '{name}' has the member {player!r}, a Python module that pokeview "
            if not MODULE_SPEC.fullmatch(player):
                raise PokeviewError(said + "would import; it is no module's name: refused")
            raise PokeviewError(
                said + "would import, running its code; a database does not choose code to "
                f"run: to let it play, name it yourself (add --allow-module {shlex.quote(player)})"
            )


async def play_ladder(
    store: Store,
    bridge: Bridge,
    name: str,
    *,
    budget_games: Any = None,
    budget_usd: Any = None,
    concurrency: int = 4,
    players_file: str | None = None,
    say: Callable[[str], None] = print,
    server: ServerOptions | None = None,
    remote: Remote | None = None,
    allow_modules: Collection[str] = (),
) -> Outcome:
    ladder = load_ladder(store, name)
    refuse_recorded_code(name, ladder.members, allow_modules)
    concurrency = positive(concurrency, "--concurrency", whole=True)
    players_file = players_file or ladder.config.get("players_file")
    run = store.run(ladder.run_id)
    if run.state == "running" and alive(run.pid):
        raise PokeviewError(f"ladder '{name}' is being played by process {run.pid} already")
    fmt, seed_text = ladder.config["format"], ladder.config["seed"]
    players = checked_players(ladder.members, fmt, players_file, server)
    described = {p: player.describe() for p, player in players.items()}
    here = plays_here(remote, players.values())
    del players  # fresh players play each game
    record = Record.read(store, ladder.run_id)
    last_game = max(record.game_ids, default=0)
    budget = open_budget(ladder, budget_games, budget_usd, last_game)
    costs = Costs(store, ladder, players_file)
    costs.add_games(store.run_games(ladder.run_id))
    check_prices(ladder, budget, costs, screening(ladder, record))
    for row in store.run_games(ladder.run_id):
        if row.status == "running":
            store.mark_interrupted(row.id)  # played again from its seed, under a new id

    def budget_spend() -> Spend:
        return costs.spend([r for r in store.run_games(ladder.run_id) if r.id > budget.after_game])

    for line in preview(ladder, record, costs, budget, budget_spend()):
        say(line)
    ladder.config["budget"] = {
        "games": budget.games,
        "usd": budget.usd,
        "after_game": budget.after_game,
        "done": False,
    }
    save(store, ladder)
    if here and not bridge.running:
        await bridge.start()
    store.update_run(
        ladder.run_id, header=_header(ladder, showdown_played(bridge, remote), described)
    )
    outcome = Outcome()
    stopped_before = screening(ladder, record)
    said_stopped: set[str] = set(stopped_before)

    def said(progress: Progress) -> None:
        """The ladder's progress hook: a line for each game played."""
        result, spec = progress.last, progress.last_spec
        if result is None or spec is None or progress.done == outcome.played:
            return  # a game started, or one told already
        outcome.played = progress.done
        if result.status == "void":  # battle/void.py's rule, in the game loop
            what = f"void: {result.error} (it is played again once)"
        elif result.status == "finished":
            what = f"winner {result.winner_name} in {result.turns} turns"
        else:
            outcome.failed += 1
            what = f"error: {(result.error or '')[:80]}"
        say(
            strip_control(
                f"game {result.game_id}: {spec.p1.name} vs {spec.p2.name} (pair {spec.pair}): "
                f"{what} · spent {budget_spend().text()}"
            )
        )

    progress = Progress(planned=0, done_before=0)  # a ladder chooses as it goes: no plan to count
    engine = Engine(
        store, bridge, progress, concurrency=concurrency, on_progress=said, remote=remote
    )

    def game(pair: int, seat: int, p1: str, p2: str) -> GameOrder:
        refuse_recorded_code(name, [p1, p2], allow_modules)  # (members all: said at the start)
        return GameOrder(
            fmt,
            seed_text,
            p1,
            p2,
            pair=pair,
            seat=seat,
            run_id=ladder.run_id,
            turn_limit=int(ladder.config["turn_limit"]),
            players_file=players_file,
            server=server,
        )

    finished_cleanly = False

    def ending() -> str:
        return "finished" if finished_cleanly else "stopped"

    async with holding(store, ladder.run_id, ending):
        try:
            while True:
                # Players added by `ladder add` while this plays join at the next choice.
                members = load_ladder(store, name).config["players"]
                if members != ladder.config["players"]:
                    refuse_recorded_code(name, members, allow_modules)
                    ladder.config["players"] = members
                    for p in members:
                        if p not in described:  # (made only to be described)
                            described[p] = make_player(p, players_file, server=server).describe()
                    store.update_run(
                        ladder.run_id,
                        header=_header(ladder, showdown_played(bridge, remote), described),
                    )
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
                await engine.play((g, game(*g)) for g in pending)
                if outcome.failed - failed_before == len(pending):
                    outcome.why_stopped = (
                        f"all {len(pending)} games just played ended in errors (see `pokeview "
                        "games --status error`); fix the cause and play again"
                    )
                    break
        finally:
            outcome.spent = budget_spend()
            ladder.config["budget"]["done"] = finished_cleanly
            save(store, ladder)
    return outcome


def status_lines(store: Store, ladder: Ladder, players_file: str | None = None) -> list[str]:
    """Members and where each stands, what was spent, and what the next play starts with."""
    players_file = players_file or ladder.config.get("players_file")
    record = Record.read(store, ladder.run_id)
    costs = Costs(store, ladder, players_file)
    rows = store.run_games(ladder.run_id)
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
