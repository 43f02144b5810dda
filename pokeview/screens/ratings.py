"""Ratings: intervals drawn as bars on one axis, head to head as a heat map, per-player figures.

The fit and its 200 bootstrap samples run in a thread; the screen stays responsive.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from pokeview.ratings.report import Findings, findings, gather
from pokeview.ratings.summary import ESTIMATES_NOTE, PROVISIONAL_UNDER, Report
from pokeview.screens.help import HELP
from pokeview.screens.navigation import back
from pokeview.widgets.render import literal

AXIS_WIDTH = 36


def interval_bar(low: float, rating: float, high: float, lo: float, hi: float) -> Text:
    """The interval as a bar on the shared axis [lo, hi], the rating marked with ●."""
    span = max(hi - lo, 1.0)

    def col(x: float) -> int:
        return max(0, min(AXIS_WIDTH - 1, round((x - lo) / span * (AXIS_WIDTH - 1))))

    a, r, b = col(low), col(rating), col(high)
    chars = list("·" * AXIS_WIDTH)
    for x in range(a, b + 1):
        chars[x] = "━"
    chars[r] = "●"
    bar = Text("".join(chars))
    bar.stylize("dim", 0, a)
    bar.stylize("bold cyan", a, b + 1)
    bar.stylize("dim", b + 1, AXIS_WIDTH)
    return bar


def heat(score: float) -> str:
    """Background for a head-to-head cell: red (lost) to green (won)."""
    if score >= 0.5:
        g = int(80 + 150 * (score - 0.5) * 2)
        return f"on rgb(20,{g},40)"
    r = int(80 + 150 * (0.5 - score) * 2)
    return f"on rgb({r},30,30)"


def render_report(report: Report) -> Group:
    parts: list[Any] = []
    if report.header:
        h = report.header
        parts.append(
            literal(
                f"pokeview {h.get('pokeview_version')} · Showdown {h.get('showdown_version')} · "
                f"{h.get('format')} · seed {h.get('seed_text')!r} · {h.get('pairs')} pairs · "
                f"config {str(h.get('config_hash'))[:12]}",
                "dim",
            )
        )
    if report.void_games:
        counts = ", ".join(f"{name} {n}" for name, n in report.void_games.items())
        parts.append(
            literal(f"void games, left out (a model mostly on autopilot): {counts}", "yellow")
        )
    if not report.players:
        parts.append(Text("No finished games to rate yet.", style="dim"))
        return Group(*parts)
    lo = min(p.low for p in report.players)
    hi = max(p.high for p in report.players)
    table = Table(
        title=literal(f"{report.scope}: {report.games} games", "table.title"),
        title_justify="left",
        expand=False,
    )
    table.add_column("player")
    table.add_column("Elo", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column(f"on one axis, {lo:.0f} … {hi:.0f}")
    table.add_column("games", justify="right")
    table.add_column("W-L-T", justify="right")
    table.add_column("win % (95%)", justify="right")
    for p in report.players:
        name = literal(p.name, "bold")
        if p.provisional:
            name.append(" (prov.)", style="yellow")
        table.add_row(
            name,
            f"{p.rating:.0f}",
            f"{p.low:.0f} – {p.high:.0f}",
            interval_bar(p.low, p.rating, p.high, lo, hi),
            str(p.games),
            f"{p.wins}-{p.losses}-{p.ties}",
            f"{100 * p.win_rate:.0f} ({100 * p.win_low:.0f}–{100 * p.win_high:.0f})",
        )
    parts.append(table)
    names = [p.name for p in report.players]
    matrix = Table(title="head to head: row's score against column (games)", title_justify="left")
    matrix.add_column("")
    for column in names:
        matrix.add_column(literal(column[:12]), justify="center")
    for a in names:
        cells: list[Text] = []
        for b in names:
            cell = report.head_to_head.get(a, {}).get(b)
            if a == b or not cell:
                cells.append(Text(""))
            else:
                score = cell[0] / cell[1]
                cells.append(Text(f" {100 * score:.0f}% ({cell[1]}) ", style=heat(score)))
        matrix.add_row(literal(a[:16]), *cells)
    parts.append(matrix)
    figures = Table(title="cost, tokens and reliability", title_justify="left")
    for column in (
        "player",
        "cost/game",
        "out tok/dec",
        "s/dec",
        "re-ask",
        "random pick",
        "autopilot",
    ):
        figures.add_column(column, justify="left" if column == "player" else "right")

    def pct(x: float | None) -> str:
        return "-" if x is None else f"{100 * x:.1f}%"

    for p in report.players:
        model = p.reask_rate is not None
        est = " est." if p.tokens_estimated else ""
        figures.add_row(
            literal(p.name),
            ("unknown" if p.cost_per_game is None else f"${p.cost_per_game:.4f}{est}")
            if model
            else "-",
            f"{p.output_tokens_per_decision:.0f}{est}" if p.output_tokens_per_decision else "-",
            f"{(p.ms_per_decision or 0) / 1000:.2f}",
            pct(p.reask_rate),
            pct(p.random_pick_rate),
            pct(p.autopilot_rate),
        )
    parts.append(figures)
    if any(p.tokens_estimated for p in report.players):
        parts.append(literal(ESTIMATES_NOTE, "dim"))
    notes = (
        f"Anchor: {report.anchor_note}. {report.samples} bootstrap samples by mirror pair; "
        f"{report.excluded_errors} error games left out."
    )
    if any(p.provisional for p in report.players):
        notes += f" (prov.): provisional, fewer than {PROVISIONAL_UNDER} valid games."
    parts.append(literal(notes, "dim"))
    return Group(*parts)


def render_findings(f: Findings) -> Group:
    """The report's findings for one run or ladder (`pokeview report` draws them as a page)."""
    parts: list[Any] = [Text("findings", style="bold")]
    for line, flagged in findings(f):
        parts.append(literal(f"• {line}", "bold red" if flagged else ""))
    models = [m for m in f.models if m.output_tokens_per_decision is not None]
    if models:
        most = max(m.output_tokens_per_decision or 0 for m in models) or 1.0
        r = (
            "r not defined (fewer than 3 models)"
            if f.correlation is None
            else (f"r = {f.correlation:+.2f}")
        )
        scatter = Table(
            title=f"output tokens per decision against win rate: {r}", title_justify="left"
        )
        for column in ("model", "out tok/dec", "", "win %"):
            scatter.add_column(column, justify="left" if column in ("model", "") else "right")
        for m in sorted(models, key=lambda m: m.output_tokens_per_decision or 0):
            width = round(20 * (m.output_tokens_per_decision or 0) / most)
            scatter.add_row(
                literal(m.name),
                f"{m.output_tokens_per_decision:,.0f}",
                Text("▇" * width, style="cyan"),
                f"{100 * m.win_rate:.0f}",
            )
        parts.append(scatter)
    answers = Table(title="how each player answered", title_justify="left")
    for column in ("player", "names a missing action", "example", "most used move"):
        answers.add_column(column)
    for p in f.report.players:
        facts = f.facts.get(p.name)
        if facts is None:
            continue
        move = facts.moves.most_common(1)
        answers.add_row(
            literal(p.name),
            f"{100 * facts.unknown_actions / facts.answers:.1f}%" if facts.answers else "-",
            literal(facts.unknown_example or ""),
            literal(f"{move[0][0]} ({move[0][1]})") if move else literal("-"),
        )
    parts.append(answers)
    if f.zero_token_wins:
        parts.append(
            literal(
                "won with no tokens, to review: "
                + ", ".join(f"game {z['game']} ({z['player']})" for z in f.zero_token_wins),
                "bold red",
            )
        )
    return Group(*parts)


class RatingsScreen(Screen[None]):
    CSS_PATH = Path(__file__).with_suffix(".tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        HELP,
        Binding("f5,r", "reload", "refit", id="ratings.reload"),
        Binding("q,escape", "leave", "back", id="ratings.back"),
    ]

    def __init__(self, store_path: Path, run: str | None = None) -> None:
        super().__init__()
        self.store_path, self.run = store_path, run

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Static("fitting ratings and drawing 200 bootstrap samples…", id="report")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.title = f"ratings · {'run ' + self.run if self.run else 'all games'}"
        self.fit()

    @dataclass
    class Fitted(Message):
        result: Report | Findings

    @dataclass
    class Failed(Message):
        error: str

    @work(thread=True, exclusive=True, group="fit", exit_on_error=False)
    def fit(self) -> None:
        from pokeview.ratings.summary import build_report
        from pokeview.store import open_store

        try:
            store = open_store(self.store_path)
            try:
                if self.run:  # one run or ladder: the report's findings too
                    self.post_message(self.Fitted(gather(store, self.run)))
                else:
                    self.post_message(self.Fitted(build_report(store, self.run)))
            finally:
                store.close()
        except Exception as exc:  # an unknown run, a broken file: said in the screen
            self.post_message(self.Failed(f"could not fit: {exc}"))

    @on(Fitted)
    def fitted(self, message: Fitted) -> None:
        result = message.result
        if isinstance(result, Findings):
            drawn: Any = Group(render_report(result.report), render_findings(result))
        else:
            drawn = render_report(result)
        self.query_one("#report", Static).update(drawn)

    @on(Failed)
    def failed(self, message: Failed) -> None:
        self.query_one("#report", Static).update(literal(message.error, "red"))

    def action_reload(self) -> None:
        self.fit()

    def action_leave(self) -> None:
        back(self.app)
