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
from textual.widgets import Footer, Header, Select, Static

from pokeview.board.parts import literal
from pokeview.ratings.report import Findings, findings, gather
from pokeview.ratings.summary import ESTIMATES_NOTE, PROVISIONAL_UNDER, Report
from pokeview.screens.help import HELP
from pokeview.screens.navigation import back
from pokeview.text import games_count

AXIS_WIDTH = 36  # the widest axis; narrower screens get a shorter one, never a cut one
WIDE = 110  # from this width the table also shows the intervals in numbers
ALL_GAMES = "all games"
AXIS_MIN = 10
NAME_MIN = 12


def interval_bar(
    low: float, rating: float, high: float, lo: float, hi: float, width: int = AXIS_WIDTH
) -> Text:
    """The interval as a bar on the shared axis [lo, hi], the rating marked with ●."""
    span = max(hi - lo, 1.0)

    def col(x: float) -> int:
        return max(0, min(width - 1, round((x - lo) / span * (width - 1))))

    a, r, b = col(low), col(rating), col(high)
    chars = list("·" * width)
    for x in range(a, b + 1):
        chars[x] = "━"
    chars[r] = "●"
    bar = Text("".join(chars))
    bar.stylize("dim", 0, a)
    bar.stylize("bold cyan", a, b + 1)
    bar.stylize("dim", b + 1, width)
    return bar


def axis_width(width: int, name_width: int, others: int) -> int:
    """The axis that fits beside the other columns at `width` (`others`: the cells they take,
    borders and padding included): at 80 columns about 20 cells, from 110 the full 36."""
    return max(AXIS_MIN, min(AXIS_WIDTH, width - name_width - others))


def heat(score: float) -> str:
    """Background for a head-to-head cell: red (lost) to green (won)."""
    if score >= 0.5:
        g = int(80 + 150 * (score - 0.5) * 2)
        return f"on rgb(20,{g},40)"
    r = int(80 + 150 * (0.5 - score) * 2)
    return f"on rgb({r},30,30)"


def render_report(report: Report, width: int = 140) -> Group:
    """The report for a screen `width` cells wide: names whole, interval bars whole (their axis
    is what narrows), and below WIDE the intervals in numbers left to the bars."""
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
    table, name_width = ratings_table(report, width)
    parts += [
        table,
        head_to_head(report, width, name_width),
        figures_table(report, width, name_width),
    ]
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


def ratings_table(report: Report, width: int) -> tuple[Table, int]:
    """The ratings, and the width of their names' column, which the other tables share."""
    lo = min(p.low for p in report.players)
    hi = max(p.high for p in report.players)
    wide = width >= WIDE
    axis_header = f"on one axis, {lo:.0f} – {hi:.0f}"
    figures_of = {
        "Elo": [f"{p.rating:.0f}" for p in report.players],
        **(
            {"95% interval": [f"{p.low:.0f} – {p.high:.0f}" for p in report.players]}
            if wide
            else {}
        ),
        "games": [str(p.games) for p in report.players],
        "W-L-T": [f"{p.wins}-{p.losses}-{p.ties}" for p in report.players],
        "win % (95%)" if wide else "win %": [
            f"{100 * p.win_rate:.0f} ({100 * p.win_low:.0f}–{100 * p.win_high:.0f})"
            if wide
            else f"{100 * p.win_rate:.0f}"
            for p in report.players
        ],
    }
    # The cells every column but the names' and the axis's takes: its widest text, and 3 cells
    # of border and padding (and 1 for the table's last border).
    others = 1 + 6 + sum(3 + max(map(len, [h, *cells])) for h, cells in figures_of.items())
    axis_least = max(AXIS_MIN, len(axis_header) // 2 + 1)  # its header on two lines
    # Wide, "(prov.)" follows the name on its line; narrow, it goes under it. A name longer
    # than the room left wraps, where the table would otherwise run off the screen's edge.
    name_width = min(
        max(NAME_MIN, width - others - axis_least),
        max(
            literal(p.name).cell_len + (8 if wide and p.provisional else 0) for p in report.players
        ),
    )
    axis = axis_width(width, name_width, others)
    table = Table(
        title=literal(f"{report.scope}: {games_count(report.games)}", "table.title"),
        title_justify="left",
        expand=False,
    )
    table.add_column("player", width=name_width, overflow="fold")
    headers = list(figures_of)
    at = 2 if wide else 1  # the axis comes after the Elo (and its interval in numbers)
    for header in headers[:at]:
        table.add_column(header, justify="right")
    # The axis's header wraps to the bars' width, where it would widen the table past the edge.
    table.add_column(axis_header, min_width=axis, max_width=max(axis, axis_least))
    for header in headers[at:]:
        table.add_column(header, justify="right")
    for n, p in enumerate(report.players):
        name = literal(p.name, "bold")
        if p.provisional:
            # Narrow, on a line of its own: the column is then as wide as the longest name.
            name.append(" (prov.)" if wide else "\n(prov.)", style="yellow")
        cells = [figures_of[h][n] for h in headers]
        bar = interval_bar(p.low, p.rating, p.high, lo, hi, axis)
        table.add_row(name, *cells[:at], bar, *cells[at:])
    return table, name_width


def head_to_head(report: Report, width: int, name_width: int) -> Table:
    """Columns by number, rows by whole name: names too long for a column stay distinct.
    Narrow, the cells go without padding: five players' columns then fit in 80."""
    wide = width >= WIDE
    pad = 2 if wide else 0
    names = [p.name for p in report.players]
    rows: list[list[Text]] = []
    for n, a in enumerate(names, 1):
        row = [literal(f"{n}. {a}")]
        for b in names:
            cell = report.head_to_head.get(a, {}).get(b)
            if a == b or not cell:
                row.append(Text(""))
            else:
                score = cell[0] / cell[1]
                said = f"{100 * score:.0f}% ({cell[1]})"
                row.append(Text(f" {said} " if wide else said, style=heat(score)))
        rows.append(row)
    matrix = Table(
        title="head to head: row's score against column (games)",
        title_justify="left",
        padding=(0, pad // 2),
    )
    # The names' column is as wide as the longest name, or what leaves the scores whole (a
    # column of fixed width, which Rich does not narrow).
    scores = 1 + sum(
        1 + pad + max(len(str(n)), *(len(row[n].plain) for row in rows))
        for n in range(1, len(names) + 1)
    )
    matrix.add_column(
        "", width=min(name_width + 3, max(NAME_MIN, width - scores - pad)), overflow="fold"
    )
    for n in range(1, len(names) + 1):
        matrix.add_column(str(n), justify="center")
    for row in rows:
        matrix.add_row(*row)
    return matrix


def _percent(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def figures_table(report: Report, width: int, name_width: int) -> Table:
    """Cost, tokens and reliability. Narrow, its cells go without padding too. The names'
    column is as wide as the longest name, or what leaves each figure's longest word whole (a
    column of fixed width, which Rich does not narrow): Rich then wraps the figures' headers
    (`out` over `tok/dec`)."""
    pad = 2 if width >= WIDE else 0
    rows: list[list[str]] = []
    for p in report.players:
        model = p.reask_rate is not None
        est = " est." if p.tokens_estimated else ""
        cost = "unknown" if p.cost_per_game is None else f"${p.cost_per_game:.4f}{est}"
        tokens = p.output_tokens_per_decision
        rows.append(
            [
                cost if model else "-",
                f"{tokens:.0f}{est}" if tokens else "-",
                f"{(p.ms_per_decision or 0) / 1000:.2f}",
                _percent(p.reask_rate),
                _percent(p.random_pick_rate),
                _percent(p.autopilot_rate),
            ]
        )
    headers = ["cost/game", "out tok/dec", "s/dec", "re-ask", "random pick", "autopilot"]
    words = 1 + sum(
        1 + pad + max(len(w) for text in [h, *(row[n] for row in rows)] for w in text.split())
        for n, h in enumerate(headers)
    )
    figures = Table(
        title="cost, tokens and reliability", title_justify="left", padding=(0, pad // 2)
    )
    figures.add_column(
        "player", width=min(name_width, max(NAME_MIN, width - words - pad - 1)), overflow="fold"
    )
    for header in headers:
        figures.add_column(header, justify="right", overflow="fold")
    for p, row in zip(report.players, rows, strict=True):
        figures.add_row(literal(p.name), *row)
    return figures


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
    """All games, or one run's (picked at the top, or opened from the run list)."""

    CSS_PATH = Path(__file__).with_suffix(".tcss")
    # The report has the focus, so the arrows and page keys scroll it; on the run picker (the
    # first widget) they opened the picker instead. `u` goes to the picker.
    AUTO_FOCUS = "VerticalScroll"
    BINDINGS: ClassVar[list[BindingType]] = [
        HELP,
        Binding("f5,r", "reload", "refit", id="ratings.reload"),
        Binding("u", "pick_run", "run", id="ratings.run", tooltip="pick the run to rate"),
        Binding("q,escape", "leave", "back", id="ratings.back"),
    ]

    def __init__(self, store_path: Path, run: str | None = None) -> None:
        super().__init__()
        self.store_path, self.run = store_path, run
        self.result: Report | Findings | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        shown = [ALL_GAMES] + ([self.run] if self.run else [])
        yield Select(
            [(literal(n), n) for n in shown],
            value=self.run or ALL_GAMES,
            allow_blank=False,
            id="scope",
            compact=True,
        )
        with VerticalScroll():
            yield Static("fitting ratings and drawing 200 bootstrap samples…", id="report")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self._title()
        self.list_runs()
        self.fit()

    def _title(self) -> None:
        self.title = f"ratings · {'run ' + self.run if self.run else ALL_GAMES}"

    @dataclass
    class Fitted(Message):
        result: Report | Findings

    @dataclass
    class Runs(Message):
        names: list[str]

    @dataclass
    class Failed(Message):
        error: str

    @work(thread=True, exclusive=True, group="runs", exit_on_error=False)
    def list_runs(self) -> None:
        from pokeview.store import open_store

        try:
            store = open_store(self.store_path)
            try:
                self.post_message(self.Runs([run.name for run, _ in store.runs()]))
            finally:
                store.close()
        except Exception as exc:
            self.post_message(self.Failed(f"could not list the runs: {exc}"))

    @on(Runs)
    def runs_listed(self, message: Runs) -> None:
        scope = self.query_one("#scope", Select)
        names = [name for name in message.names if name != ALL_GAMES]
        with self.prevent(Select.Changed):
            scope.set_options([(ALL_GAMES, ALL_GAMES)] + [(literal(n), n) for n in names])
            scope.value = self.run if self.run in names else ALL_GAMES

    @on(Select.Changed, "#scope")
    def scope_changed(self, event: Select.Changed) -> None:
        run = None if event.value == ALL_GAMES else str(event.value)
        if run != self.run:
            self.run = run
            self._title()
            self.query_one("#report", Static).update("fitting…")
            self.fit()

    @work(thread=True, exclusive=True, group="fit", exit_on_error=False)
    def fit(self) -> None:
        from pokeview.ratings.summary import build_report
        from pokeview.store import open_store

        run = self.run
        try:
            store = open_store(self.store_path)
            try:
                if run:  # one run or ladder: the report's findings too
                    self.post_message(self.Fitted(gather(store, run)))
                else:
                    self.post_message(self.Fitted(build_report(store, run)))
            finally:
                store.close()
        except Exception as exc:  # an unknown run, a broken file: said in the screen
            self.post_message(self.Failed(f"could not fit: {exc}"))

    @on(Fitted)
    def fitted(self, message: Fitted) -> None:
        self.result = message.result
        self._draw()

    def _draw(self) -> None:
        result = self.result
        if result is None:
            return
        report = self.query_one("#report", Static)
        # The room inside the scrolling area, less the report's padding (its own width follows
        # what it shows).
        width = self.query_one(VerticalScroll).scrollable_content_region.width - 2
        if isinstance(result, Findings):
            drawn: Any = Group(render_report(result.report, width), render_findings(result))
        else:
            drawn = render_report(result, width)
        report.update(drawn)

    def on_resize(self) -> None:
        self.call_after_refresh(self._draw)

    @on(Failed)
    def failed(self, message: Failed) -> None:
        self.query_one("#report", Static).update(literal(message.error, "red"))

    def action_reload(self) -> None:
        self.fit()

    def action_pick_run(self) -> None:
        scope = self.query_one("#scope", Select)
        scope.focus()
        scope.expanded = True

    def action_leave(self) -> None:
        back(self.app)
