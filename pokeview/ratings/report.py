"""A run's or a ladder's findings as one static HTML page, generated from the record on each call.

The page works offline: no script, no font, no image from anywhere; its figures are SVG drawn
here. Every name and every piece of model text is escaped (`html.escape` after removing control
characters). Costs not recorded because a price was missing are costed at today's prices.
"""

from __future__ import annotations

import html
import math
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pokeview import __version__
from pokeview.errors import PokeviewError
from pokeview.ratings.costs import current_prices, decision_cost
from pokeview.ratings.decisions import DecisionFacts, decision_facts
from pokeview.ratings.summary import ESTIMATES_NOTE, PlayerLine, Report, build_report
from pokeview.safe_write import write_whole
from pokeview.store.store import Store
from pokeview.text import strip_for_html


def esc(value: Any) -> str:
    return html.escape(strip_for_html(str(value)), quote=True)


@dataclass
class ModelFacts:
    answers: int = 0
    unknown_actions: int = 0
    unknown_example: str | None = None
    moves: Counter[str] = field(default_factory=Counter)
    cost: float = 0.0
    cost_unknown: int = 0  # model decisions still without a cost
    costed_later: int = 0  # decisions costed now, at today's prices
    input_tokens: int = 0  # as the provider counted them, cached ones included
    output_tokens: int = 0  # reasoning included


@dataclass
class Findings:
    report: Report
    run_name: str
    kind: str  # "run" or "ladder"
    facts: dict[str, ModelFacts]
    zero_token_wins: list[dict[str, Any]]
    correlation: float | None
    models: list[PlayerLine]
    endings: dict[str, int] = field(default_factory=dict)  # games not ended by a last faint


def move_name(label: str | None) -> str | None:
    """'move Earthquake + Terastallize (Ground)' -> 'Earthquake'; None for anything else."""
    if not label or not label.startswith("move "):
        return None
    return label.removeprefix("move ").split(" + ", 1)[0].strip() or None


def pearson(xs: list[float], ys: list[float]) -> float | None:
    if len(xs) < 3:
        return None
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / math.sqrt(sxx * syy)


def gather(
    store: Store,
    run: str,
    players_file: str | None = None,
    decisions: list[DecisionFacts] | None = None,
) -> Findings:
    """The findings of a run's rated games. `decisions`: their facts when read already (the
    site reads every game's decisions once, rated or not: those of other games are skipped)."""
    run_row = store.run(run)
    report = build_report(store, run_row.id)
    rows = store.rating_games(run_row.id)
    winners = {r.id: r.winner for r in rows}
    if decisions is None:
        decisions = decision_facts(store, [r.id for r in rows])
    prices = current_prices(players_file or run_row.config.get("players_file"))
    facts: dict[str, ModelFacts] = {}
    tokens: dict[tuple[int, str], int] = {}
    llm_sides: dict[tuple[int, str], str] = {}
    for d in decisions:
        if d.game_id not in winners:
            continue
        f = facts.setdefault(d.player, ModelFacts())
        move = move_name(d.label)
        if move:
            f.moves[move] += 1
        if not d.model:
            continue
        f.answers += d.answers
        f.unknown_actions += d.unknown_actions
        if d.unknown_example and f.unknown_example is None:
            f.unknown_example = d.unknown_example
        value, later = decision_cost(d, prices)
        if value is None:
            f.cost_unknown += 1
        else:
            f.cost += value
            f.costed_later += later
        if d.usage:
            f.input_tokens += d.usage.input
            f.output_tokens += d.usage.output
        key = (d.game_id, d.side)
        tokens[key] = tokens.get(key, 0) + (d.usage.output if d.usage else 0)
        llm_sides[key] = d.player
    zero = []
    for (game_id, side), player in sorted(llm_sides.items()):
        if winners.get(game_id) == side and tokens.get((game_id, side), 0) == 0:
            zero.append({"game": game_id, "side": side, "player": player})
    models = [p for p in report.players if p.reask_rate is not None]
    with_tokens = [p for p in models if p.output_tokens_per_decision is not None]
    r = pearson(
        [p.output_tokens_per_decision or 0.0 for p in with_tokens],
        [p.win_rate for p in with_tokens],
    )
    kind = "ladder" if run_row.config.get("kind") == "ladder" else "run"
    endings = store.ending_counts(run_row.id)
    return Findings(report, run_row.name, kind, facts, zero, r, models, endings)


# -- figures -------------------------------------------------------------------------------------


def svg_figure(
    fig_id: str, width: int, height: int, body: list[str], title: str, role: str = "img"
) -> str:
    """`role`: "img" for a picture; "group" where it holds links (an image's parts are hidden
    from assistive technology, so its links could not be reached)."""
    return (
        f'<svg id="{fig_id}" class="figure" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="{role}" '
        f'aria-label="{esc(title)}"><title>{esc(title)}</title>' + "".join(body) + "</svg>"
    )


def ratings_figure(report: Report) -> str:
    players = report.players
    if not players:
        return "<p>No rated games yet.</p>"
    lo = min(p.low for p in players + []) if players else 0
    hi = max(p.high for p in players)
    lo, hi = (
        math.floor(min(lo, min(p.rating for p in players)) / 100) * 100,
        math.ceil(hi / 100) * 100,
    )
    if hi <= lo:
        hi = lo + 100
    left, width, row = 300, 440, 26
    height = 40 + row * len(players)

    def x(v: float) -> float:
        return left + (v - lo) / (hi - lo) * width

    body = []
    for tick in range(int(lo), int(hi) + 1, 100 if hi - lo <= 1200 else 200):
        body.append(
            f'<line x1="{x(tick):.1f}" y1="20" x2="{x(tick):.1f}" y2="{height - 16}" '
            f'stroke="#ddd"/><text x="{x(tick):.1f}" y="{height - 2}" font-size="10" '
            f'text-anchor="middle" fill="#666">{tick}</text>'
        )
    for n, p in enumerate(players):
        y = 30 + n * row
        colour = "#c77d00" if p.provisional else "#1f6feb"
        body.append(
            f'<text x="{left - 8}" y="{y + 4}" font-size="12" text-anchor="end">'
            f"{esc(short(p.name, 34))}"
            f"{' (provisional)' if p.provisional else ''}</text>"
            f'<line class="interval" x1="{x(p.low):.1f}" y1="{y}" x2="{x(p.high):.1f}" y2="{y}" '
            f'stroke="{colour}" stroke-width="6" stroke-linecap="round" opacity="0.45"/>'
            f'<circle cx="{x(p.rating):.1f}" cy="{y}" r="5" fill="{colour}"/>'
            f'<text x="{x(p.high) + 8:.1f}" y="{y + 4}" font-size="11" fill="#333">'
            f"{p.rating:.0f} ({p.low:.0f}–{p.high:.0f})</text>"
        )
    return svg_figure("fig-ratings", left + width + 120, height, body, "ratings with 95% intervals")


def _heat(score: float) -> str:
    """Red (lost every game) through grey (even) to green (won every game), each dark enough
    for the cell's white text (WCAG AA, 4.5:1)."""
    lost, even, won = (190, 50, 45), (110, 110, 110), (30, 120, 55)
    a, b, t = (lost, even, score * 2) if score < 0.5 else (even, won, (score - 0.5) * 2)
    return "rgb({},{},{})".format(*(round(x + (y - x) * t) for x, y in zip(a, b, strict=True)))


def short(name: str, most: int = 26) -> str:
    """A label that fits a figure; the whole name is in the element's tooltip."""
    return name if len(name) <= most else name[: most - 1] + "…"


def head_to_head_figure(report: Report, pair: Callable[[str, str], str] | None = None) -> str:
    """`pair(a, b)`: where a cell links to (the site's list of the games between a and b)."""
    names = [p.name for p in report.players]
    if len(names) < 2:
        return "<p>Head to head needs two players.</p>"
    # Room above the grid for the longest column label at 45° (about 4.6 px a letter), no more.
    longest = max(len(short(name)) for name in names)
    cell, left, top = 56, 250, round(24 + longest * 4.6)
    size_w, size_h = left + cell * len(names) + 140, top + cell * len(names) + 10
    body = []
    for c, name in enumerate(names):
        cx = left + c * cell + cell / 2
        body.append(
            f'<text x="{cx:.1f}" y="{top - 8}" font-size="11" '
            f'transform="rotate(-45 {cx:.1f} {top - 8})">{esc(short(name))}'
            f"<title>{esc(name)}</title></text>"
        )
    for r_, a in enumerate(names):
        y = top + r_ * cell
        body.append(
            f'<text x="{left - 8}" y="{y + cell / 2 + 4:.1f}" font-size="11" '
            f'text-anchor="end">{esc(short(a, 34))}<title>{esc(a)}</title></text>'
        )
        for c, b in enumerate(names):
            x = left + c * cell
            entry = report.head_to_head.get(a, {}).get(b)
            if a == b or not entry or not entry[1]:
                body.append(
                    f'<rect x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" fill="#eee"/>'
                )
                continue
            share = entry[0] / entry[1]
            shown = (
                f'<rect class="cell" x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" '
                f'fill="{_heat(share)}"><title>{esc(a)} against {esc(b)}: '
                f"{entry[0]:g} of {entry[1]} games</title></rect>"
                f'<text x="{x + cell / 2 - 1:.1f}" y="{y + cell / 2:.1f}" font-size="12" '
                f'fill="#fff" text-anchor="middle">{100 * share:.0f}%</text>'
                f'<text x="{x + cell / 2 - 1:.1f}" y="{y + cell / 2 + 14:.1f}" font-size="9" '
                f'fill="#fff" text-anchor="middle">{entry[1]} g</text>'
            )
            if pair is not None:
                # The name starts with the cell's visible text, as a reader hears it.
                label = f"{100 * share:.0f}% {entry[1]} g: the games of {a} against {b}"
                shown = f'<a href="{esc(pair(a, b))}" aria-label="{esc(label)}">{shown}</a>'
            body.append(shown)
    title = "head to head: row's score vs column"
    role = "img" if pair is None else "group"
    return svg_figure("fig-head-to-head", size_w, size_h, body, title, role)


def nice_ticks(most: float, count: int = 5) -> list[float]:
    """Round ticks from 0 to past `most` (steps of 1, 2 or 5 times a power of ten)."""
    if most <= 0:
        return [0.0, 1.0]
    raw = most / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    n = math.floor(most / step) + 1  # one tick past the largest value: no point on the edge
    return [k * step for k in range(n + 1)]


def tokens_figure(findings: Findings) -> str:
    points = [p for p in findings.models if p.output_tokens_per_decision is not None]
    if not points:
        return "<p>No model with recorded token usage.</p>"
    left, top, width, height = 60, 20, 460, 260
    ticks = nice_ticks(max(p.output_tokens_per_decision or 0 for p in points) * 1.05)
    most = ticks[-1]

    def x(v: float) -> float:
        return left + v / most * width

    def y(v: float) -> float:
        return top + 10 + (1 - v) * (height - 20)  # 0% and 100% sit inside the frame

    body = [
        f'<line x1="{left}" y1="{top + height}" x2="{left + width}" y2="{top + height}" '
        'stroke="#888"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + height}" stroke="#888"/>',
        f'<text x="{left + width / 2}" y="{top + height + 32}" font-size="11" '
        'text-anchor="middle">output tokens per decision</text>',
        f'<text x="14" y="{top + height / 2}" font-size="11" text-anchor="middle" '
        f'transform="rotate(-90 14 {top + height / 2})">win rate</text>',
    ]
    for share in (0.0, 0.25, 0.5, 0.75, 1.0):
        body.append(
            f'<line x1="{left}" y1="{y(share):.1f}" x2="{left + width}" y2="{y(share):.1f}" '
            f'stroke="#eee"/><text x="{left - 4}" y="{y(share) + 3:.1f}" font-size="10" '
            f'text-anchor="end">{100 * share:.0f}%</text>'
        )
    for tick in ticks:
        body.append(
            f'<line x1="{x(tick):.1f}" y1="{top + height}" x2="{x(tick):.1f}" '
            f'y2="{top + height + 4}" stroke="#888"/><text class="xtick" x="{x(tick):.1f}" '
            f'y="{top + height + 15}" font-size="10" text-anchor="middle">{tick:,.6g}</text>'
        )
    placed: list[tuple[float, float]] = []
    for p in sorted(points, key=lambda p: (p.output_tokens_per_decision or 0, p.win_rate)):
        px, py = x(p.output_tokens_per_decision or 0), y(p.win_rate)
        ly = py - 8
        while any(abs(ly - oy) < 13 and abs(px - ox) < 120 for ox, oy in placed):
            ly += 14  # a neighbour's label is there: go below it
        placed.append((px, ly))
        right = px > left + width * 0.6  # labels of points on the right read leftwards
        anchor, lx = ("end", px - 8) if right else ("start", px + 8)
        body.append(
            f'<circle class="point" cx="{px:.1f}" cy="{py:.1f}" r="5" fill="#1f6feb">'
            f"<title>{esc(p.name)}: {p.output_tokens_per_decision:,.0f} tokens per decision"
            f"{' (estimated)' if p.tokens_estimated else ''}, {100 * p.win_rate:.0f}% won"
            f"</title></circle>"
            f'<text class="plabel" x="{lx:.1f}" y="{ly:.1f}" font-size="10" '
            f'text-anchor="{anchor}">{esc(short(p.name))}</text>'
        )
    r = findings.correlation
    label = "r not defined (fewer than 3 models)" if r is None else f"r = {r:+.2f}"
    body.append(
        f'<text x="{left + width}" y="{top - 6}" font-size="12" text-anchor="end">{label}</text>'
    )
    return svg_figure(
        "fig-tokens", left + width + 100, top + height + 44, body, "tokens per decision vs win rate"
    )


def rates_figure(models: list[PlayerLine]) -> str:
    if not models:
        return "<p>No model player: re-ask, random-pick and autopilot rates apply to models.</p>"
    left, row, width = 240, 54, 360
    kinds = [
        ("re-ask", "reask_rate", "#1f6feb"),
        ("random pick", "random_pick_rate", "#c77d00"),
        ("autopilot", "autopilot_rate", "#cf222e"),
    ]
    most = max(max(getattr(m, k) or 0 for _, k, _ in kinds) for m in models) or 0.01
    most = max(most, 0.05)
    body = []
    for n, m in enumerate(models):
        y = 10 + n * row
        body.append(
            f'<text x="{left - 8}" y="{y + 20}" font-size="12" text-anchor="end">'
            f"{esc(short(m.name, 34))}</text>"
        )
        for k, (label, attr, colour) in enumerate(kinds):
            value = getattr(m, attr) or 0.0
            by = y + k * 14
            body.append(
                f'<rect class="bar" x="{left}" y="{by}" width="{value / most * width:.1f}" '
                f'height="11" fill="{colour}"><title>{esc(m.name)}: {label} '
                f"{100 * value:.1f}%</title></rect>"
                f'<text x="{left + value / most * width + 6:.1f}" y="{by + 9}" font-size="10">'
                f"{label} {100 * value:.1f}%</text>"
            )
    return svg_figure(
        "fig-rates",
        left + width + 160,
        10 + row * len(models),
        body,
        "re-ask, random-pick and autopilot rates",
    )


# -- the page ------------------------------------------------------------------------------------

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto;
       max-width: 980px; color: #1f2328; line-height: 1.45; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.2rem; font-size: 1.2rem; }
.provenance { color: #57606a; font-size: .9rem; } .provenance code { font-size: .85rem; }
table { border-collapse: collapse; font-size: .9rem; margin: .6rem 0; }
th, td { border-bottom: 1px solid #d0d7de; padding: .25rem .6rem; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
dl.settings { display: grid; grid-template-columns: max-content 1fr; gap: 0 .8rem; margin: 0; }
dl.settings dt { color: #57606a; } dl.settings dd { margin: 0; }
.flag { color: #cf222e; font-weight: 600; } .note { color: #57606a; font-size: .85rem; }
svg.figure { max-width: 100%; height: auto; font-family: inherit; }
"""


def percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def _games_were(n: int) -> str:
    return "1 game was" if n == 1 else f"{n} games were"


def _tokens(value: float | None) -> str:
    return "–" if value is None else f"{value:,.0f}"


def _money(value: float | None) -> str:
    return "unknown" if value is None else f"${value:.4f}"


def findings(f: Findings) -> list[tuple[str, bool]]:
    """The main findings as plain sentences (untrusted names in them), each with whether it
    is a flag for review. The page escapes them; the app shows them literally."""
    out: list[tuple[str, bool]] = []
    players = f.report.players
    if players:
        top = players[0]
        out.append(
            (
                f"{top.name} leads with a rating of {top.rating:.0f} "
                f"(95% interval {top.low:.0f}–{top.high:.0f}) over {top.games} games.",
                False,
            )
        )
    if f.correlation is not None:
        n = len([m for m in f.models if m.output_tokens_per_decision is not None])
        out.append(
            (
                f"Across {n} models, output tokens per decision and win rate correlate at "
                f"r = {f.correlation:+.2f}.",
                False,
            )
        )
    spenders = [m for m in f.models if m.output_tokens_per_decision]
    if spenders:
        most = max(spenders, key=lambda m: m.output_tokens_per_decision or 0)
        median = statistics.median(m.output_tokens_per_decision or 0 for m in spenders)
        highest = most.output_tokens_per_decision or 0.0
        ratio = f", or {highest / median:.1f}× the median" if median and len(spenders) > 1 else ""
        out.append(
            (
                f"{most.name} spends the most output tokens per decision: "
                f"{most.output_tokens_per_decision:,.0f}{ratio}.",
                False,
            )
        )
    if f.zero_token_wins:
        out.append(
            (
                f"{_games_were(len(f.zero_token_wins))} won by a model side that produced no "
                "tokens: review them before trusting the ratings.",
                True,
            )
        )
    favourites = Counter(m.most_common(1)[0][0] for m in (x.moves for x in f.facts.values()) if m)
    if favourites:
        move, n = favourites.most_common(1)[0]
        if n > 1:  # one player's favourite is no finding (its table row shows it)
            out.append(
                (f"The most common favourite move is {move}, preferred by {n} players.", False)
            )
    worst = [(name, x) for name, x in f.facts.items() if x.answers and x.unknown_actions]
    if worst:
        name, x = max(worst, key=lambda item: item[1].unknown_actions / item[1].answers)
        out.append(
            (
                f"{name} names actions that do not exist in "
                f"{100 * x.unknown_actions / x.answers:.1f}% of its answers, for example "
                f"ACTION: {x.unknown_example or ''}.",
                False,
            )
        )
    return out


def setting_text(key: str, value: Any) -> str:
    """One recorded setting in words: prices as dollars per million tokens, flags as yes/no,
    anything nested as 'key value' pairs (never a Python repr)."""
    if key == "prices" and isinstance(value, dict):
        return (
            ", ".join(f"{k.replace('_', ' ')} ${float(v):.2f}" for k, v in value.items())
            + " per million tokens"
        )
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return "; ".join(f"{k.replace('_', ' ')} {setting_text(k, v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(setting_text(key, v) for v in value)
    return str(value)


def settings_cells(settings: dict[str, Any]) -> str:
    """A player's recorded settings as a definition list, escaped."""
    shown = [
        f"<dt>{esc(k.replace('_', ' '))}</dt><dd>{esc(setting_text(k, v))}</dd>"
        for k, v in settings.items()
        if k not in ("kind", "player") and v not in (None, {}, "")
    ]
    return f'<dl class="settings">{"".join(shown)}</dl>' if shown else "–"


def provenance(f: Findings) -> str:
    h = f.report.header or {}
    rows: list[tuple[str, str]] = [
        (f.kind, f"<b>{esc(f.run_name)}</b>"),
        ("pokeview", esc(h.get("pokeview_version", "?"))),
        ("Showdown", esc(h.get("showdown_version", "?"))),
        ("format", esc(h.get("format", "?"))),
        ("turn limit", esc(h.get("turn_limit", "?"))),
        ("seed text", f"<code>{esc(h.get('seed_text', '?'))}</code>"),
    ]
    if h.get("config_hash"):
        rows.append(("config", f"<code>{esc(str(h['config_hash'])[:12])}</code>"))
    if h.get("ladder"):
        lad = h["ladder"]
        anchors = ", ".join(
            f"{esc(k)} at {float(v):g}" for k, v in (lad.get("anchors") or {}).items()
        )
        rows.append(("anchors", anchors))
        rows.append(("sparring partner", esc(lad.get("sparring"))))
    if f.endings:  # the games a forfeit, the timer or the turn limit ended
        ended = ", ".join(f"{n} by {esc(how)}" for how, n in f.endings.items())
        rows.append(
            (
                "not ended by a last faint",
                f"Finished games that did not end by a last faint: {ended}.",
            )
        )
    made = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    rows.append(
        (
            "ratings",
            f"{f.report.games} rated games; {f.report.excluded_errors} harness errors left out; "
            f"anchor: {esc(f.report.anchor_note)}; intervals from {f.report.samples} bootstrap "
            "samples drawn by mirror pair.",
        )
    )
    rows.append(("generated", f"{made} by pokeview {esc(__version__)} from the record"))
    table = "".join(f"<tr><th scope=row>{esc(k)}</th><td>{v}</td></tr>" for k, v in rows)
    players = "".join(
        f"<tr><td>{esc(name)}</td><td>{esc(settings.get('kind', ''))}</td>"
        f"<td>{settings_cells(settings)}</td></tr>"
        for name, settings in (h.get("players") or {}).items()
    )
    out = f'<table class="facts">{table}</table>'
    if players:
        out += (
            '<table class="players"><tr><th>player</th><th>kind</th><th>settings</th></tr>'
            f"{players}</table>"
        )
    return out


def ratings_table(f: Findings, name: Callable[[str], str] = esc) -> str:
    """`name` writes a player's name cell (the site links it to the player's page)."""
    head = (
        "<tr><th>#</th><th>player</th><th>Elo</th><th>95% interval</th><th>games</th>"
        "<th>W-L-T</th><th>win rate</th><th>cost/game</th><th>out tok/dec</th></tr>"
    )
    body = []
    for n, p in enumerate(f.report.players, start=1):
        facts = f.facts.get(p.name)
        cost = None
        if p.reask_rate is not None and facts is not None and not facts.cost_unknown and p.games:
            cost = facts.cost / p.games
        later = " *" if facts is not None and facts.costed_later else ""
        prov = ' <span class="note">(provisional)</span>' if p.provisional else ""
        est = ' <abbr class="note" title="estimated">est.</abbr>' if p.tokens_estimated else ""
        body.append(
            f"<tr><td class=n>{n}</td><td>{name(p.name)}{prov}</td><td class=n>{p.rating:.0f}</td>"
            f"<td>{p.low:.0f}–{p.high:.0f}</td><td class=n>{p.games}</td>"
            f"<td class=n>{p.wins}-{p.losses}-{p.ties}</td>"
            f"<td>{100 * p.win_rate:.1f}% ({100 * p.win_low:.0f}–{100 * p.win_high:.0f})</td>"
            f"<td class=n>{'–' if p.reask_rate is None else _money(cost) + later + est}</td>"
            f"<td class=n>{_tokens(p.output_tokens_per_decision)}{est}</td></tr>"
        )
    return f'<table id="ratings-table">{head}{"".join(body)}</table>'


def model_table(f: Findings, name: Callable[[str], str] = esc) -> str:
    rows = []
    for p in f.report.players:
        facts = f.facts.get(p.name, ModelFacts())
        move = facts.moves.most_common(1)
        share = f"{100 * facts.unknown_actions / facts.answers:.1f}%" if facts.answers else "–"
        example = f" <code>{esc(facts.unknown_example)}</code>" if facts.unknown_example else ""
        rows.append(
            f"<tr><td>{name(p.name)}</td><td>{percent(p.reask_rate)}</td>"
            f"<td>{percent(p.random_pick_rate)}</td><td>{percent(p.autopilot_rate)}</td>"
            f"<td>{share}{example}</td>"
            f"<td>{esc(move[0][0]) + f' ({move[0][1]})' if move else '–'}</td></tr>"
        )
    head = (
        "<tr><th>player</th><th>re-ask</th><th>random pick</th><th>autopilot</th>"
        "<th>answers naming an action that does not exist</th><th>most used move</th></tr>"
    )
    return f'<table id="behaviour-table">{head}{"".join(rows)}</table>'


def _watch_command(game_id: int) -> str:
    return f"<code>pokeview watch {game_id}</code>"


def zero_token_table(f: Findings, game: Callable[[int], str] = _watch_command) -> str:
    if not f.zero_token_wins:
        return (
            '<p id="zero-token-wins">No game was won by a model side that produced no tokens.</p>'
        )
    rows = "".join(
        f"<tr><td class=n>{z['game']}</td><td>{esc(z['player'])} ({z['side']})</td>"
        f"<td>{game(z['game'])}</td></tr>"
        for z in f.zero_token_wins
    )
    return (
        '<table id="zero-token-wins" class="flag"><tr><th>game</th><th>won by, with no tokens'
        f"</th><th>to review</th></tr>{rows}</table>"
    )


def sections(
    f: Findings,
    name: Callable[[str], str] = esc,
    game: Callable[[int], str] = _watch_command,
    pair: Callable[[str, str], str] | None = None,
) -> list[str]:
    """The findings' sections, shared by the report's one page and the site's index (which links
    names, games and the head to head's cells through `name`, `game` and `pair`)."""
    later = any(x.costed_later for x in f.facts.values())
    return [
        f'<section class="provenance" id="provenance">{provenance(f)}</section>',
        '<h2>Main findings</h2><ol id="findings">',
        *(
            f'<li class="flag">{esc(line)}</li>' if flagged else f"<li>{esc(line)}</li>"
            for line, flagged in findings(f)
        ),
        "</ol>",
        "<h2>Ratings with 95% intervals</h2>",
        ratings_figure(f.report),
        ratings_table(f, name),
        (
            f'<p class="note" id="estimates">{esc(ESTIMATES_NOTE)}</p>'
            if any(p.tokens_estimated for p in f.report.players)
            else ""
        ),
        (
            '<p class="note">* costed at today\'s prices: the price was not known when these '
            "games were played.</p>"
            if later
            else ""
        ),
        "<h2>Head to head</h2>",
        '<p class="note">Each cell: the row player\'s score against the column player '
        "(a tie counts half), and the games between them.</p>",
        head_to_head_figure(f.report, pair),
        "<h2>Tokens per decision against win rate</h2>",
        tokens_figure(f),
        "<h2>Re-asks, random picks and autopilot</h2>",
        rates_figure(f.models),
        "<h2>How each player answered</h2>",
        model_table(f, name),
        "<h2>Games won by a side that produced no tokens</h2>",
        zero_token_table(f, game),
    ]


def render(f: Findings) -> str:
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>pokeview report: {esc(f.run_name)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Findings: {esc(f.run_name)}</h1>",
        *sections(f),
        "</body></html>",
    ]
    return "\n".join(parts)


def write_report(store: Store, run: str, output: Path, players_file: str | None = None) -> Path:
    findings = gather(store, run, players_file)
    text = render(findings)
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PokeviewError(f"cannot write the report to {output}: {exc.strerror}") from None
    write_whole(output, text)
    return output
