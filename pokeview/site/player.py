"""A player's page: its recorded settings, its rating, its results against each opponent with
links to the games, and its tokens, cost, latency and re-ask / random-pick / autopilot rates."""

from __future__ import annotations

from typing import Any

from pokeview.ratings.report import ModelFacts, percent, settings_cells
from pokeview.ratings.summary import ESTIMATES_NOTE, PlayerLine
from pokeview.site.games import status_of
from pokeview.site.html import esc, game_link, page, player_link
from pokeview.store.store import GameRow


def _facts(line: PlayerLine | None, facts: ModelFacts | None) -> str:
    if line is None:
        return "<p>Not rated: none of its games counts (void, errors or still running).</p>"
    est = ' <abbr title="estimated">est.</abbr>' if line.tokens_estimated else ""
    rows = [
        (
            "rating",
            f"{line.rating:.0f} (95% interval {line.low:.0f}–{line.high:.0f})"
            + (" provisional" if line.provisional else ""),
        ),
        ("rated games", f"{line.games}: {line.wins} won, {line.losses} lost, {line.ties} tied"),
        (
            "win rate",
            f"{100 * line.win_rate:.1f}% ({100 * line.win_low:.0f}–{100 * line.win_high:.0f})",
        ),
        ("decisions", f"{line.decisions:,}"),
    ]
    if line.reask_rate is not None:  # a model
        cost = "unknown" if line.cost_per_game is None else f"${line.cost_per_game:.4f}{est}"
        tokens = line.output_tokens_per_decision
        rows += [
            ("cost per game", cost),
            ("output tokens per decision", "–" if tokens is None else f"{tokens:,.0f}{est}"),
            (
                "latency per decision",
                "–" if line.ms_per_decision is None else f"{line.ms_per_decision / 1000:.2f} s",
            ),
            ("re-ask rate", percent(line.reask_rate)),
            ("random-pick rate", percent(line.random_pick_rate)),
            ("autopilot rate", percent(line.autopilot_rate)),
        ]
        if facts and facts.unknown_actions:
            rows.append(
                (
                    "answers naming an action that does not exist",
                    f"{facts.unknown_actions} of {facts.answers}",
                )
            )
    elif line.ms_per_decision is not None:
        rows.append(("time per decision", f"{line.ms_per_decision:.1f} ms"))
    if facts and facts.moves:
        rows.append(
            ("most used moves", ", ".join(f"{esc(m)} ({n})" for m, n in facts.moves.most_common(3)))
        )
    table = "".join(
        f"<tr><th scope=row>{esc(k)}</th><td>{v}</td></tr>"  # values: numbers, names escaped
        for k, v in rows
    )
    note = f'<p class="note">{esc(ESTIMATES_NOTE)}</p>' if line.tokens_estimated else ""
    return f'<table class="facts">{table}</table>{note}'


def _opponents(name: str, games: list[GameRow]) -> str:
    against: dict[str, list[GameRow]] = {}
    for g in games:
        if name in (g.p1, g.p2):
            against.setdefault(g.p2 if g.p1 == name else g.p1, []).append(g)
    rows = []
    for opponent, played in sorted(against.items()):
        side = {g.id: "p1" if g.p1 == name else "p2" for g in played}
        counted = [g for g in played if status_of(g) == "finished"]
        won = sum(g.winner == side[g.id] for g in counted)
        lost = sum(g.winner not in (None, side[g.id]) for g in counted)
        links = " ".join(
            game_link(
                g.id, f"{g.id}{'' if status_of(g) == 'finished' else ' (' + status_of(g) + ')'}"
            )
            for g in played
        )
        rows.append(
            f"<tr><td>{player_link(opponent)}</td>"
            f"<td class=n>{won}-{lost}-{len(counted) - won - lost}</td><td>{links}</td></tr>"
        )
    return (
        '<table id="opponents"><tr><th>opponent</th><th>W-L-T (counted games)</th>'
        f"<th>games</th></tr>{''.join(rows)}</table>"
    )


def settings_of(name: str, games: list[GameRow]) -> dict[str, Any]:
    """The player's settings as recorded with its latest game."""
    for g in reversed(games):
        if g.p1 == name:
            return g.p1_config
        if g.p2 == name:
            return g.p2_config
    return {}


def render(
    name: str, line: PlayerLine | None, facts: ModelFacts | None, games: list[GameRow]
) -> str:
    settings = settings_of(name, games)
    body = (
        f"<h1>{esc(name)}</h1>"
        f"<h2>Settings</h2>{settings_cells(settings)}"
        f"<h2>Results</h2>{_facts(line, facts)}"
        f"<h2>Against each opponent</h2>{_opponents(name, games)}"
    )
    return page(f"player {name}", body, "player")
