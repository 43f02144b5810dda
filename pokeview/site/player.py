"""A player's page: its recorded settings, its rating and how it got there, its results against
each opponent with links to the games, its tokens, cost, latency and re-ask / random-pick /
autopilot rates, and its most telling decisions, each linked to its turn on the game's page."""

from __future__ import annotations

from typing import Any

from pokeview.ratings.history import Step
from pokeview.ratings.report import ModelFacts, percent, setting_text, settings_cells
from pokeview.ratings.summary import ESTIMATES_NOTE, PlayerLine
from pokeview.ratings.telling import KINDS, TellingDecisions
from pokeview.site.games import matchup_link, status_of
from pokeview.site.history import history_section
from pokeview.site.html import esc, game_file, page, player_link
from pokeview.store.store import GameRow

EST = ' <abbr title="estimated">est.</abbr>'

# A model's settings that a reader looks for, shown even when the record leaves them out (a
# player recorded with the defaults): key, label, what the default means.
MODEL_SETTINGS = (
    ("model", "model", "–"),
    ("api", "API", "chat completions (OpenAI-compatible)"),
    ("reasoning_effort", "reasoning setting", "none sent: the provider's default"),
    ("thinking_budget", "thinking budget", None),
    ("prices", "prices", "none: costs unknown"),
)


def _rows(rows: list[tuple[str, str]]) -> str:
    """A two-column table; keys are escaped here, values were escaped where made."""
    cells = "".join(f"<tr><th scope=row>{esc(k)}</th><td>{v}</td></tr>" for k, v in rows)
    return f'<table class="facts">{cells}</table>'


def settings_table(settings: dict[str, Any]) -> str:
    """A model's settings with the defaults said in words; anything else as recorded."""
    if settings.get("kind") != "llm":
        return settings_cells(settings)
    rows = []
    for key, label, default in MODEL_SETTINGS:
        value = settings.get(key)
        if value in (None, {}, ""):
            if default is not None:
                rows.append((label, esc(default)))
        else:
            rows.append((label, esc(setting_text(key, value))))
    where = (
        "pokeview's loopback stand-in (not a language model)"
        if settings.get("stand_in")
        else settings.get("base_url") or "–"
    )
    rows.append(("address", esc(where)))
    shown = {key for key, _, _ in MODEL_SETTINGS} | {"kind", "player", "stand_in", "base_url"}
    rows += [
        (k.replace("_", " "), esc(setting_text(k, v)))
        for k, v in settings.items()
        if k not in shown and v not in (None, {}, "")
    ]
    return _rows(rows)


def _results(line: PlayerLine | None, facts: ModelFacts | None) -> str:
    if line is None:
        return "<p>Not rated: none of its games counts (void, errors or still running).</p>"
    est = EST if line.tokens_estimated else ""
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
        rows += [("cost per game", cost)]
        if facts is not None and not facts.cost_unknown:
            later = " (some costed at today's prices)" if facts.costed_later else ""
            rows.append(("cost of its rated games", f"${facts.cost:.4f}{est}{later}"))
        if facts is not None and (facts.input_tokens or facts.output_tokens):
            rows.append(
                (
                    "tokens in its rated games",
                    f"{facts.input_tokens:,} in, {facts.output_tokens:,} out{est}",
                )
            )
        rows += [
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
    note = f'<p class="note">{esc(ESTIMATES_NOTE)}</p>' if line.tokens_estimated else ""
    return _rows(rows) + note


WORDS = {"W": "won", "L": "lost", "T": "a tie"}  # a mark's title, for a screen reader


def _mark(game: GameRow, side: str) -> str:
    """A game's result for the player on `side`: W, L, T, or its status (as recorded: it is
    escaped where shown)."""
    status = status_of(game)
    if status != "finished":
        return status
    return "T" if game.winner not in ("p1", "p2") else "W" if game.winner == side else "L"


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
            f'<a href="{game_file(g.id)}" title="game {g.id}: {esc(WORDS.get(mark, mark))}">'
            f"{g.id} {esc(mark)}</a>"
            for g in played
            if (mark := _mark(g, side[g.id]))
        )
        rows.append(
            f"<tr><td>{player_link(opponent)}</td>"
            f"<td class=n>{won}-{lost}-{len(counted) - won - lost}</td><td>{links}</td>"
            f"<td>{matchup_link(name, opponent, f'{len(played)} in the list')}</td></tr>"
        )
    return (
        '<p class="note">Each game: its number and the result for this player (W, L, T; '
        "void, error or interrupted games do not count).</p>"
        '<table id="opponents"><tr><th>opponent</th><th>W-L-T (counted games)</th>'
        f"<th>games</th><th>games list</th></tr>{''.join(rows)}</table>"
    )


def _telling(name: str, telling: TellingDecisions, games: int) -> str:
    kept = telling.of(name)
    if not kept:
        return "<p>No model decision: nothing to show of how it reasoned.</p>"
    of_all = {kind: k.count for kind, k in kept.items()}
    parts = [
        f'<p id="telling-all">In all {games} of its games (void ones included), '
        f"{telling.decisions[name]:,} decisions: {of_all['reask']:,} asked again, "
        f"{of_all['refused']:,} refused by Showdown, {of_all['random']:,} random picks, "
        f"{of_all['autopilot']:,} on autopilot.</p>"
    ]
    none = []
    for kind, heading, did in KINDS:
        of_kind = kept.get(kind)
        if of_kind is None or not of_kind.count:
            none.append(did)
            continue
        shown = of_kind.shown()
        which = "longest" if kind == "reasoning" else "first"
        count = f"{of_kind.count} decision{'s' if of_kind.count != 1 else ''}"
        if of_kind.count > len(shown):
            count += f", the {len(shown)} {which} shown"
        parts.append(f"<h3>{esc(heading)}: {count}</h3>")
        items = "".join(
            f'<li data-kind="{kind}"><a href="{game_file(t.game_id)}#t{int(t.turn)}">'
            f"game {t.game_id}, turn {int(t.turn)}, {esc(t.side)} decision {int(t.idx) + 1}</a>"
            + (f" · {t.size:,} characters of reasoning" if kind == "reasoning" else "")
            + f'<blockquote class="{"reasoning" if kind == "reasoning" else "why"}">'
            f"{esc(t.note)}</blockquote></li>"
            for t in shown
        )
        parts.append(f'<ol class="telling" id="telling-{kind}">{items}</ol>')
    if none:
        said = ", ".join(none[:-1]) + (" or " if len(none) > 1 else "") + none[-1]
        parts.append(f'<p id="telling-none">None of its decisions {esc(said)}.</p>')
    return "".join(parts)


def settings_of(name: str, games: list[GameRow]) -> dict[str, Any]:
    """The player's settings as recorded with its latest game."""
    for g in reversed(games):
        if g.p1 == name:
            return g.p1_config
        if g.p2 == name:
            return g.p2_config
    return {}


def render(
    name: str,
    line: PlayerLine | None,
    facts: ModelFacts | None,
    games: list[GameRow],
    history: list[Step],
    telling: TellingDecisions,
) -> str:
    settings = settings_of(name, games)
    played = sum(name in (g.p1, g.p2) for g in games)
    body = (
        f"<h1>{esc(name)}</h1>"
        f"<h2>Settings</h2>{settings_table(settings)}"
        f"<h2>Results</h2>{_results(line, facts)}"
        f"<h2>Rating as games were added</h2>{history_section(name, history)}"
        f"<h2>Against each opponent</h2>{_opponents(name, games)}"
        "<h2>Its most telling decisions</h2>"
        '<p class="note">Each links to the turn of the game where it was made; the game page '
        "shows the whole prompt, reasoning and answer.</p>"
        f"{_telling(name, telling, played)}"
    )
    return page(f"player {name}", body, "player")
