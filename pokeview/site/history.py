"""A player's rating as games were added: an SVG chart (the rating and its 95% interval after
each step of the run's games) drawn like the report's figures, and the same numbers as a table
for a screen reader or a reader who wants them."""

from __future__ import annotations

import math

from pokeview.ratings.history import Step
from pokeview.ratings.report import esc, nice_ticks, svg_figure


def points_of(name: str, steps: list[Step]) -> list[tuple[Step, float, float, float, int]]:
    """(step, rating, low, high, the player's games) for the steps after its first game."""
    return [
        (s, r.rating, r.low, r.high, r.games)
        for s in steps
        if (r := s.players.get(name)) is not None
    ]


def history_figure(name: str, steps: list[Step]) -> str:
    points = points_of(name, steps)
    if not points:
        return "<p>No rating yet: none of its games counts so far.</p>"
    left, top, width, height = 60, 16, 520, 220
    ticks = nice_ticks(max(steps[-1].games, 5))  # whole games: no tick at 0.2 of one
    most = ticks[-1]
    # Rounded to hundreds, with room around the band (an anchor's is a flat line at 1000).
    lo = math.floor((min(p[2] for p in points) - 50) / 100) * 100
    hi = math.ceil((max(p[3] for p in points) + 50) / 100) * 100

    def x(games: float) -> float:
        return left + games / most * width

    def y(elo: float) -> float:
        return top + (hi - elo) / (hi - lo) * height

    step = 100 if hi - lo <= 800 else 200 if hi - lo <= 1600 else 500
    body = [
        f'<line x1="{left}" y1="{top + height}" x2="{left + width}" y2="{top + height}" '
        'stroke="#888"/>',
        f'<text x="{left + width / 2}" y="{top + height + 32}" font-size="11" '
        'text-anchor="middle">rated games of the run so far</text>',
        f'<text x="14" y="{top + height / 2}" font-size="11" text-anchor="middle" '
        f'transform="rotate(-90 14 {top + height / 2})">Elo</text>',
    ]
    for tick in range(lo, hi + 1, step):
        body.append(
            f'<line x1="{left}" y1="{y(tick):.1f}" x2="{left + width}" y2="{y(tick):.1f}" '
            f'stroke="#eee"/><text x="{left - 4}" y="{y(tick) + 3:.1f}" font-size="10" '
            f'text-anchor="end">{tick}</text>'
        )
    for at in ticks:
        body.append(
            f'<line x1="{x(at):.1f}" y1="{top + height}" x2="{x(at):.1f}" '
            f'y2="{top + height + 4}" stroke="#888"/><text x="{x(at):.1f}" '
            f'y="{top + height + 15}" font-size="10" text-anchor="middle">{at:,.0f}</text>'
        )
    upper = " ".join(f"{x(s.games):.1f},{y(high):.1f}" for s, _, _, high, _ in points)
    lower = " ".join(f"{x(s.games):.1f},{y(low):.1f}" for s, _, low, _, _ in reversed(points))
    line = " ".join(f"{x(s.games):.1f},{y(r):.1f}" for s, r, _, _, _ in points)
    body.append(f'<polygon class="band" points="{upper} {lower}" fill="#1f6feb" opacity="0.18"/>')
    body.append(f'<polyline points="{line}" fill="none" stroke="#1f6feb" stroke-width="2"/>')
    for s, rating, low, high, games in points:
        body.append(
            f'<circle class="step" cx="{x(s.games):.1f}" cy="{y(rating):.1f}" r="3.5" '
            f'fill="#1f6feb"><title>after {s.games} games ({games} of its own): '
            f"{rating:.0f} ({low:.0f}–{high:.0f})</title></circle>"
        )
    first, last = points[0], points[-1]
    title = (
        f"{name}'s rating as games were added: {first[1]:.0f} after {first[0].games} games, "
        f"{last[1]:.0f} (95% interval {last[2]:.0f}–{last[3]:.0f}) after {last[0].games}"
    )
    return svg_figure("fig-history", left + width + 20, top + height + 44, body, title)


def history_table(name: str, steps: list[Step]) -> str:
    rows = "".join(
        f"<tr><td class=n>{s.games}</td><td class=n>{games}</td><td class=n>{rating:.0f}</td>"
        f"<td>{low:.0f}–{high:.0f}</td></tr>"
        for s, rating, low, high, games in points_of(name, steps)
    )
    if not rows:
        return ""
    return (
        "<details><summary>the rating after each step, as a table</summary>"
        '<table id="history"><tr><th>rated games of the run</th><th>its own</th>'
        f"<th>Elo</th><th>95% interval</th></tr>{rows}</table></details>"
    )


def history_section(name: str, steps: list[Step]) -> str:
    if not points_of(name, steps):
        return history_figure(name, steps)  # says there is none yet
    note = (
        '<p class="note">The same fit as the ratings (Bradley–Terry, 95% bootstrap intervals), '
        f"refitted on the run's first games in the order they were played, at {len(steps)} "
        f"steps; the last is {esc(name)}'s rating now.</p>"
    )
    return history_figure(name, steps) + history_table(name, steps) + note
