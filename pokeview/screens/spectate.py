"""Spectate a running tournament: the games in flight, whose decision is pending and for how
long, finished games and the run's live standings. It only reads the record the runner writes,
so any number of spectators can watch from other terminals without slowing the runner.

A thread worker reads the record (never the UI thread) and posts what it found; with no run
named it follows the running runs, and once they have finished, the latest run's results."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static
from textual.worker import get_current_worker

from pokeview.board.parts import literal
from pokeview.game.side import SideState
from pokeview.screens.help import HELP
from pokeview.screens.navigation import back
from pokeview.store.events import EventKind
from pokeview.text import strip_control
from pokeview.widgets.fitted_table import choosing

POLL_SECONDS = 1.0
ENDED_SHOWN = 30  # the newest ended games listed
# At 80 columns the running games keep who plays, the turn and whose decision is awaited; what
# is left of each team and the run (named in the title) come after, a scroll away.
RUNNING_COLUMNS = ("game", "p1", "p2", "turn", "waiting for", "p1 left", "p2 left", "run")


def team_left(state: SideState | None) -> str:
    if state is None:
        return "-"
    team = state.team
    alive = sum(1 for m in team if not m.fainted)
    hp = sum(m.hp for m in team)
    total = sum(m.maxhp for m in team) or 1
    return f"{alive}/{len(team)} · {100 * hp / total:.0f}%"


class GameSummary:
    """What the list shows of one running game, kept up to date from new events only."""

    def __init__(self, game_id: int, p1: str, p2: str, run: str) -> None:
        self.game_id, self.p1, self.p2, self.run = game_id, p1, p2, run
        self.last_event = 0
        self.turn = 0
        self.state: dict[str, SideState | None] = {"p1": None, "p2": None}
        self.asked: dict[str, float | None] = {"p1": None, "p2": None}  # pending since

    def update(self, store) -> bool:
        events = store.events(
            self.game_id, self.last_event, kinds=(EventKind.SIDE, EventKind.CHOICE)
        )
        for event in events:
            self.last_event = event.id
            side = event.side
            if side not in ("p1", "p2"):
                continue
            if event.kind == EventKind.CHOICE:
                self.asked[side] = None
                continue
            state = event.data.state
            if state is not None:
                self.state[side] = state
                self.turn = max(self.turn, state.turn)
            # A state comes at every step the side saw lines; only a request asks it to decide.
            request = event.data.request
            if request and not request.get("wait") and not event.data.error:
                self.asked[side] = event.at
        return bool(events)


@dataclass
class Seen:
    """One look at the record: what the screen shows, read off the UI thread."""

    scope: str  # which runs these are
    running: list[tuple[int, str, str, str, int, str, str, dict[str, float | None]]]
    ended: tuple[int, int]  # (count, newest id): changes whenever a game ends
    finished: list[tuple[str, str, str, str, str, str]] | None = None  # when `ended` changed
    standings: dict[str, list[int]] = field(default_factory=dict)
    finished_count: int = 0  # of the ended games, those played to the end (the standings')


class Reader:
    """Everything the spectator reads, kept in the worker's thread with its own connection."""

    def __init__(self, store, run: str | None) -> None:  # noqa: ANN001 - a Store
        self.store, self.run = store, run
        self.summaries: dict[int, GameSummary] = {}
        self.ended_seen: tuple[int, int] | None = None

    def runs(self) -> tuple[str, list[int]]:
        store = self.store
        if self.run:
            run = store.run(self.run)
            return f"run {run.name}", [run.id]
        runs = store.runs()
        running = [r for r, _ in runs if r.state == "running"]
        if running:
            return "running runs: " + ", ".join(r.name for r in running), [r.id for r in running]
        if runs:  # all done: the latest run's results rather than an empty screen
            latest = runs[0][0]
            return f"latest run {latest.name} ({latest.state})", [latest.id]
        return "no runs yet", []

    def look(self) -> Seen:
        store = self.store
        scope, run_ids = self.runs()
        running = store.running_games(run_ids)
        ids = {r.id for r in running}
        for gone in set(self.summaries) - ids:
            del self.summaries[gone]  # finished, or interrupted by a runner that died
        rows = []
        for r in running:
            summary = self.summaries.get(r.id)
            if summary is None:
                summary = GameSummary(r.id, r.p1, r.p2, r.run or "-")
                self.summaries[r.id] = summary
            summary.update(store)
            rows.append(
                (
                    summary.game_id,
                    summary.run,
                    summary.p1,
                    summary.p2,
                    summary.turn,
                    team_left(summary.state["p1"]),
                    team_left(summary.state["p2"]),
                    dict(summary.asked),
                )
            )
        seen = Seen(scope, rows, store.ended_mark(run_ids))
        if seen.ended != self.ended_seen:
            self.ended_seen = seen.ended
            seen.finished = []
            for r in store.ended_games(run_ids, limit=ENDED_SHOWN):
                seen.finished.append(
                    (str(r.id), r.p1, r.p2, r.winner_name, str(r.turns or "-"), r.status)
                )
            results = store.results(run_ids)
            seen.finished_count = len(results)
            for r in results:
                for side, other in (("p1", "p2"), ("p2", "p1")):
                    tally = seen.standings.setdefault(r.players[side], [0, 0, 0])
                    tally[0 if r.winner == side else 1 if r.winner == other else 2] += 1
        return seen


def waiting(asked: dict[str, float | None], now: float) -> str:
    return ", ".join(f"{s} {now - at:.0f}s" for s, at in asked.items() if at) or "-"


class SpectateScreen(Screen[None]):
    CSS_PATH = Path(__file__).with_suffix(".tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        HELP,
        Binding("enter", "open", "watch live", id="spectate.open"),
        Binding("q,escape", "leave", "back", id="spectate.back"),
    ]

    @dataclass
    class Looked(Message):
        seen: Seen

    @dataclass
    class Failed(Message):
        error: str

    def __init__(self, store_path: Path, run: str | None = None) -> None:
        super().__init__()
        self.store_path, self.run = store_path, run
        self.rows: dict[int, tuple] = {}
        self.ended_seen: tuple[int, int] | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("running games", id="running-title")
        yield choosing("watch live")(id="running", cursor_type="row")
        yield Static("ended", id="done-title")
        yield choosing("watch")(id="done", cursor_type="row")
        yield Static(id="standings")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.title = "spectate"  # what it follows is the subtitle: the run, or the runs found
        running = self.query_one("#running", DataTable)
        for column in RUNNING_COLUMNS:
            running.add_column(column, key=column)
        self.query_one("#done", DataTable).add_columns(
            "game", "p1", "p2", "winner", "turns", "status"
        )
        self.query_one("#running", DataTable).focus()
        self.follow()
        self.set_interval(1.0, self._clock)

    @work(thread=True, exclusive=True, group="follow", exit_on_error=False)
    def follow(self) -> None:
        from pokeview.store import open_store

        worker = get_current_worker()
        store = None
        reader = None
        while not worker.is_cancelled:
            try:
                if store is None:
                    store = open_store(self.store_path)
                    reader = Reader(store, self.run)
                assert reader is not None
                self.post_message(self.Looked(reader.look()))
            except Exception as exc:  # the run does not exist yet, or the file went away
                self.post_message(self.Failed(str(exc)))
            time.sleep(POLL_SECONDS)
        if store is not None:
            store.close()

    @on(Failed)
    def failed(self, message: Failed) -> None:
        self.query_one("#standings", Static).update(literal(message.error, "red"))

    @on(Looked)
    def looked(self, message: Looked) -> None:
        """Redraw only what changed (spectators must stay cheap)."""
        seen = message.seen
        self.sub_title = strip_control(seen.scope)
        table = self.query_one("#running", DataTable)
        now = time.time()
        rows = {row[0]: row for row in seen.running}
        if set(rows) == set(self.rows):  # the same games: change their cells in place
            for game_id, row in rows.items():
                if row != self.rows[game_id]:
                    cells = self._cells(row, now)
                    for column in ("turn", "waiting for", "p1 left", "p2 left"):
                        table.update_cell(str(game_id), column, cells[column])
        else:
            cursor = table.cursor_row
            table.clear()
            for game_id, row in rows.items():
                table.add_row(*self._cells(row, now).values(), key=str(game_id))
            if table.row_count:
                table.move_cursor(row=min(cursor, table.row_count - 1))
            self.query_one("#running-title", Static).update(f"running games: {len(rows)}")
        self.rows = rows
        if seen.finished is not None:
            self._finished(seen)

    @staticmethod
    def _cells(row: tuple, now: float) -> dict[str, str | Text]:
        game_id, run, p1, p2, turn, left1, left2, asked = row
        cells = {
            "game": str(game_id),
            "p1": literal(p1),
            "p2": literal(p2),
            "turn": str(turn),
            "waiting for": waiting(asked, now),
            "p1 left": left1,
            "p2 left": left2,
            "run": literal(run),
        }
        return {column: cells[column] for column in RUNNING_COLUMNS}

    def _clock(self) -> None:
        """The waiting times go on between looks."""
        table = self.query_one("#running", DataTable)
        now = time.time()
        for game_id, row in self.rows.items():
            table.update_cell(str(game_id), "waiting for", waiting(row[7], now))

    def _finished(self, seen: Seen) -> None:
        done = self.query_one("#done", DataTable)
        done.clear()
        for game_id, p1, p2, winner, turns, status in seen.finished or ():
            done.add_row(
                game_id,
                literal(p1),
                literal(p2),
                literal(winner),
                literal(turns),  # a DataTable reads a str cell as markup: the record's text
                literal(status),
                key=game_id,
            )
        line = Text("standings: ", style="bold")
        order = sorted(
            seen.standings.items(),
            key=lambda kv: -(kv[1][0] + kv[1][2] / 2) / max(1, sum(kv[1])),
        )
        for n, (name, (won, lost, tied)) in enumerate(order):
            if n:
                line.append(" · ")
            line.append_text(literal(name, "bold"))
            line.append(f" {won}-{lost}-{tied}")
        # Interrupted, void and error games have ended without finishing: not in the standings.
        newest = f" (the newest {ENDED_SHOWN} below)" if seen.ended[0] > ENDED_SHOWN else ""
        self.query_one("#done-title", Static).update(
            f"ended: {seen.ended[0]}, {seen.finished_count} finished{newest}"
        )
        self.query_one("#standings", Static).update(
            line if seen.standings else Text("no finished games yet", style="dim")
        )

    def action_open(self) -> None:
        table = self.query_one("#running", DataTable)
        if not table.row_count:
            return
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        from pokeview.screens.watch import WatchScreen

        self.app.push_screen(WatchScreen(self.store_path, int(key or 0)))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "running":
            self.action_open()
        elif event.data_table.id == "done" and event.row_key.value:  # an ended game, replayed
            from pokeview.screens.watch import WatchScreen

            self.app.push_screen(WatchScreen(self.store_path, int(event.row_key.value)))

    def action_leave(self) -> None:
        back(self.app)
