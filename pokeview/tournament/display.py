"""How a run's progress and its ratings look in a terminal (Rich; no Textual)."""

from __future__ import annotations

import sys
import threading
import time
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.text import Text

from pokeview.ratings.report import setting_text
from pokeview.ratings.summary import ESTIMATES_NOTE, Report
from pokeview.terminal import console as control_free_console
from pokeview.terminal_tables import Column, Fitted, fitted_table
from pokeview.text import games_count, strip_control
from pokeview.tournament.runner import Progress


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    seconds = int(seconds)
    return (
        f"{seconds // 3600}h{seconds // 60 % 60:02d}m"
        if seconds >= 3600
        else f"{seconds // 60}m{seconds % 60:02d}s"
    )


def progress_text(p: Progress) -> Text:
    done = p.recorded
    pct = 100 * done / p.planned if p.planned else 100
    bar_width = 30
    filled = int(bar_width * done / p.planned) if p.planned else bar_width
    cost = f"${p.cost:.4f}" + ("+unknown" if p.cost_unknown else "")
    left = "unknown" if p.cost_left is None else f"${p.cost_left:.4f}"
    text = Text()
    text.append("█" * filled, style="green")
    text.append("░" * (bar_width - filled), style="dim")
    text.append(f" {done}/{p.planned} games ({pct:.0f}%)  running {p.running}  ")
    text.append(f"failed {p.failed}", style="red" if p.failed else "")
    if p.void:
        text.append(f"  void {p.void}", style="yellow")
    text.append(
        f"  elapsed {_duration(time.monotonic() - p.started)}  left ~{_duration(p.eta_seconds)}"
    )
    if p.models:
        text.append(f"  cost {cost}, ~{left} to go")
    if p.last is not None:
        last = p.last
        text.append(
            f"\nlast: game {last.game_id} {strip_control(last.players['p1'])} vs "
            f"{strip_control(last.players['p2'])}: {last.status}"
            + (
                f", winner {strip_control(last.winner_name)} in {last.turns} turns"
                if last.status == "finished"
                else f" ({strip_control(last.error or '')[: 160 if last.status == 'void' else 80]})"
            ),
            style="dim",
        )
    return text


AGAIN_SHOWN = 20  # ids named on the restart's line; a run stopped with many void games has more


def again_line(p: Progress) -> str | None:
    """On a restart: which recorded games are played again, and why."""
    if not p.again:
        return None
    shown = list(p.again)[:AGAIN_SHOWN]
    ids = ", ".join(str(gid) for gid in shown)
    if len(p.again) > len(shown):
        ids += f" and {len(p.again) - len(shown)} more"
    kinds = sorted(set(p.again.values()))
    return (
        f"{len(p.again)} {' or '.join(kinds)} game{'s' if len(p.again) != 1 else ''} "
        f"to be played again from {'their seeds' if len(p.again) != 1 else 'its seed'} "
        f"(under new ids): {ids}"
    )


class _Ticking:
    """The progress line as it stands when it is drawn: Live draws it every second, so the time
    elapsed and the time left move between games too."""

    def __init__(self) -> None:
        self.progress: Progress | None = None

    def __rich__(self) -> Text:
        return Text("starting…") if self.progress is None else progress_text(self.progress)


class ProgressView:
    """A live line on a terminal, drawn afresh every second. Elsewhere (logs, CI), a plain line
    every few seconds while games end, and at least every `heartbeat` seconds while none does
    (so that a log shows the run is alive through a long game). On a restart, a first line names
    the games played again."""

    def __init__(self, console: Console | None = None, heartbeat: float = 30.0) -> None:
        self.console = console or control_free_console(stderr=True)
        self.live: Live | None = None
        self.ticking = _Ticking()
        self.last_plain = 0.0
        self.heartbeat = heartbeat
        self.stopped = threading.Event()

    def __enter__(self) -> ProgressView:
        if self.console.is_terminal:
            self.live = Live(self.ticking, console=self.console, refresh_per_second=1)
            self.live.__enter__()
        else:
            threading.Thread(target=self._beat, name="progress-heartbeat", daemon=True).start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stopped.set()
        if self.live:
            self.live.__exit__(*exc)

    def _beat(self) -> None:
        # Only prints: the run's state is read, never written, from this thread.
        while not self.stopped.wait(self.heartbeat / 4):
            p = self.ticking.progress
            if p is not None and time.monotonic() - self.last_plain >= self.heartbeat:
                self._plain(p)

    def _plain(self, p: Progress) -> None:
        self.last_plain = time.monotonic()
        print(progress_text(p).plain.split("\n")[0], file=sys.stderr)

    def update(self, p: Progress) -> None:
        if self.ticking.progress is None and (line := again_line(p)):
            self.console.print(Text(line, style="yellow"), soft_wrap=True)  # above the live line
        self.ticking.progress = p
        if self.live:
            self.live.refresh()
        elif time.monotonic() - self.last_plain > 5 or p.remaining == 0:
            self._plain(p)


def _money(value: float | None) -> str:
    return "unknown" if value is None else f"${value:.4f}"


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _est(line: Any) -> str:
    return " est." if line.tokens_estimated else ""


# The ratings table's columns; when the terminal is narrow, those with the highest rank are left
# out first (those that say nothing, a bots-only run's costs, before any): what a model costs
# and how often it wins outlast its token and re-ask figures.
RATINGS_COLUMNS = (
    Column("#", "right"),
    Column("player"),
    Column("Elo", "right"),
    Column("95% interval"),
    Column("games", "right"),
    Column("W-L-T", "right", drop=6),
    Column("win rate (95%)", drop=2),
    Column("cost/game", "right", drop=1),
    Column("out tok/dec", "right", drop=9),
    Column("s/dec", "right", drop=5),
    Column("re-ask", "right", drop=7),
    Column("random", "right", drop=8),
    Column("autopilot", "right", drop=4),
)


def _ratings_rows(report: Report, provisional: str) -> list[list[Any]]:
    rows: list[list[Any]] = []
    for n, line in enumerate(report.players, start=1):
        name = Text(strip_control(line.name))
        if line.provisional:
            name.append(provisional, style="yellow")
        rows.append(
            [
                str(n),
                name,
                f"{line.rating:.0f}",
                f"{line.low:.0f} – {line.high:.0f}",
                str(line.games),
                f"{line.wins}-{line.losses}-{line.ties}",
                f"{100 * line.win_rate:.1f}% ({100 * line.win_low:.0f}–{100 * line.win_high:.0f})",
                "-" if line.reask_rate is None else _money(line.cost_per_game) + _est(line),
                "-"
                if line.output_tokens_per_decision is None
                else f"{line.output_tokens_per_decision:.0f}" + _est(line),
                "-" if line.ms_per_decision is None else f"{line.ms_per_decision / 1000:.2f}",
                _rate(line.reask_rate),
                _rate(line.random_pick_rate),
                _rate(line.autopilot_rate),
            ]
        )
    return rows


def _ratings_table(
    console: Console, width: int | None, report: Report, title: Text
) -> tuple[Fitted, bool]:
    """The ratings table, and whether a `*` marks provisional players: where the word
    `(provisional)` would cost a column or a whole name, the mark stands for it (the notes under
    the table say what it means)."""
    worded = fitted_table(
        console, width, RATINGS_COLUMNS, _ratings_rows(report, " (provisional)"), title
    )
    if worded.fits and not worded.left_out:
        return worded, False
    marked = fitted_table(console, width, RATINGS_COLUMNS, _ratings_rows(report, " *"), title)
    if (marked.fits, -len(marked.left_out)) > (worded.fits, -len(worded.left_out)):
        return marked, True
    return worded, False


def _head_to_head(console: Console, width: int | None, report: Report) -> RenderableType:
    """Row's score against column. Where the whole table does not fit, columns are headed by
    the players' ranks in the ratings table (the rows keep the whole names), then the cells
    shrink from `75% (4)` to `3/4` (score of games)."""
    names = [line.name for line in report.players]
    title = "head to head: row's score against column"

    def cells(a: str, short: bool) -> list[str]:
        out = []
        for b in names:
            cell = report.head_to_head.get(a, {}).get(b)
            if a == b or not cell:
                out.append("")
            else:
                out.append(
                    f"{cell[0]:g}/{cell[1]}"
                    if short
                    else f"{100 * cell[0] / cell[1]:.0f}% ({cell[1]})"
                )
        return out

    by_name = [Column(""), *(Column(Text(strip_control(n)), "right") for n in names)]
    named: list[list[RenderableType]] = [[Text(strip_control(a)), *cells(a, False)] for a in names]
    table = fitted_table(console, width, by_name, named, title + " (games)")
    if table.fits:
        return table.renderable
    by_rank = [Column(""), *(Column(f"#{n}", "right") for n in range(1, len(names) + 1))]
    for short, how in ((False, " (games)"), (True, ": score/games")):
        labelled: list[list[RenderableType]] = [
            [Text(strip_control(f"#{n} {a}")), *cells(a, short)]
            for n, a in enumerate(names, start=1)
        ]
        table = fitted_table(console, width, by_rank, labelled, f"{title}{how}; #n: the rank")
        if table.fits:
            break
    return table.renderable


def report_renderable(report: Report, console: Console, width: int | None) -> Group:
    """The ratings report, its tables fitted to `width` (see pokeview.terminal_tables)."""
    parts: list[Any] = []
    if report.header:
        h = report.header
        lines = [
            f"pokeview {h.get('pokeview_version')} · Showdown {h.get('showdown_version')} · "
            f"{h.get('format')} · turn limit {h.get('turn_limit')}",
            f"seed text {h.get('seed_text')!r} · {h.get('pairs')} mirror pairs per matchup · "
            f"config {str(h.get('config_hash'))[:12]}",
        ]
        if h.get("ladder"):  # a ladder schedules its own sets: say how, not a pair count
            ladder = h["ladder"]
            lines[1] = (
                f"seed text {h.get('seed_text')!r} · ladder: sets of {ladder.get('set_pairs')} "
                f"mirror pairs, {ladder.get('screen_pairs')} against random first"
            )
        if h.get("team_library"):
            lines.append(
                f"team library {h['team_library']} ({str(h.get('team_library_hash'))[:12]})"
            )
        for name, settings in (h.get("players") or {}).items():
            shown = ", ".join(
                f"{k}={setting_text(k, v)}"  # prices and flags in words, as the report says them
                for k, v in settings.items()
                if k not in ("kind",) and v not in (None, {}, "")
            )
            lines.append(f"  {name}: {shown}")
        parts.append(Text(strip_control("\n".join(lines)), style="dim"))
    if report.void_games:
        share = (report.header or {}).get("void_autopilot_share", 0.5)
        counts = ", ".join(f"{name} {n}" for name, n in report.void_games.items())
        parts.append(
            Text(
                strip_control(
                    f"void games, left out (a model on autopilot for more than {100 * share:g}% "
                    f"of its decisions): {counts}"
                ),
                style="yellow",
            )
        )
    title = Text(
        strip_control(f"Bradley–Terry ratings, {report.scope}: {games_count(report.games)}"),
        style="table.title",
    )
    ratings, marked = _ratings_table(console, width, report, title)
    parts.append(ratings.renderable)
    if len(report.players) > 1:
        parts.append(_head_to_head(console, width, report))
    notes = [
        f"Anchor: {report.anchor_note}. "
        f"Intervals: {report.samples} bootstrap samples drawn by mirror pair."
    ]
    if report.excluded_errors:
        notes.append(f"{report.excluded_errors} games that ended in a harness error are left out.")
    notes.append(f"Provisional{' (*)' if marked else ''}: fewer than 16 valid games.")
    if any(line.tokens_estimated for line in report.players):
        notes.append(ESTIMATES_NOTE)
    parts.append(Text(" ".join(notes), style="dim"))
    return Group(*parts)
