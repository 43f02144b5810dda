"""Home: recorded games (newest first, searchable, paged) and runs, with ways to every screen."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Static

from pokeview.board.parts import literal
from pokeview.players.kinds import PlayerKind
from pokeview.screens.help import HELP
from pokeview.text import home_relative, strip_control
from pokeview.widgets.fitted_table import choosing

if TYPE_CHECKING:
    from pokeview.store.rows import GameLine

COLUMNS = ("id", "p1", "p2", "winner", "turns", "status", "run", "started", "format")
PAGE = 100  # rows read and drawn at a time (m for more): the first paint stays quick


class HomeScreen(Screen[None]):
    CSS_PATH = Path(__file__).with_suffix(".tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        HELP,
        Binding("enter", "watch", "watch", id="home.watch", show=True),
        Binding("p", "prompt", "prompt", id="home.prompt"),
        Binding("r", "ratings", "ratings", id="home.ratings"),
        Binding("slash", "filter", "search", id="home.search"),
        Binding("m", "more", "more games", id="home.more"),
        Binding("f5", "reload", "reload", id="home.reload"),
        Binding("q", "app.quit", "quit", id="home.quit"),
    ]

    def __init__(self, store_path: Path) -> None:
        super().__init__()
        self.store_path = store_path
        self.loaded_rows = 0
        self.query_text = ""
        self._lines: dict[int, GameLine] = {}  # the games listed, by id

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(
            placeholder="search: game id, player, format, status or run (Enter)", id="filter"
        )
        yield choosing("watch")(id="games", cursor_type="row", zebra_stripes=True)
        yield Static(id="count")
        yield Static("runs", id="runs-title")
        yield choosing("ratings", "the run's ratings")(id="runs", cursor_type="row")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.title = "pokeview"
        self.sub_title = strip_control(home_relative(self.store_path))
        games = self.query_one("#games", DataTable)
        # At 80 columns the table keeps what tells games apart and how they went (id, players,
        # winner, turns, status, run); when and which format come last, a scroll away. The
        # winner is its side, the winning name in bold: a third name column would not fit.
        for column in COLUMNS:
            games.add_column(column, key=column)
        self.query_one("#runs", DataTable).add_columns("run", "state", "games", "errors", "started")
        games.focus()
        self.fetch(0)
        self.fetch_runs()

    @dataclass
    class Games(Message):
        offset: int
        rows: list[GameLine]
        total: int

    @dataclass
    class Runs(Message):
        runs: list

    @dataclass
    class Failed(Message):
        error: str

    @work(thread=True, exclusive=True, group="games", exit_on_error=False)
    def fetch(self, offset: int) -> None:
        from pokeview.store import open_store

        try:
            store = open_store(self.store_path)
            try:
                rows = store.search_games(self.query_text, limit=PAGE, offset=offset)
                self.post_message(self.Games(offset, rows, store.count_games()))
            finally:
                store.close()
        except Exception as exc:  # a broken or foreign file: said, not a traceback
            self.post_message(self.Failed(_unreadable(self.store_path, exc)))

    @work(thread=True, exclusive=True, group="runs", exit_on_error=False)
    def fetch_runs(self) -> None:
        from pokeview.store import open_store

        try:
            store = open_store(self.store_path)
            try:
                self.post_message(self.Runs(store.runs()))
            finally:
                store.close()
        except Exception as exc:
            self.post_message(self.Failed(_unreadable(self.store_path, exc)))

    @on(Failed)
    def failed(self, message: Failed) -> None:
        self.notify(message.error, severity="error", markup=False)

    @on(Games)
    def games_arrived(self, message: Games) -> None:
        offset, rows, total = message.offset, message.rows, message.total
        table = self.query_one("#games", DataTable)
        if offset == 0:
            table.clear()
            self._lines.clear()
        self._lines.update((r.id, r) for r in rows)
        for r in rows:
            won = {side: "bold" if r.winner == side else "" for side in ("p1", "p2")}
            table.add_row(
                str(r.id),
                literal(r.p1, won["p1"]),
                literal(r.p2, won["p2"]),
                literal(r.winner or "-"),
                literal(r.turns or "-"),
                literal(r.status),
                literal(r.run or "-"),
                # A DataTable reads a str cell as markup: a stored time is the record's text.
                literal((r.started_at or "")[:16].replace("T", " ")),
                literal(r.format),
                key=str(r.id),
            )
        self.loaded_rows = offset + len(rows)
        more = " · m for more" if len(rows) == PAGE else ""
        if not self.query_text:
            said = f"{self.loaded_rows} shown of {total} games{more} · Enter to watch"
        elif self.loaded_rows:  # the total is all games, not the matches
            said = (
                f"{self.loaded_rows} shown matching {self.query_text!r} ({total} games in all)"
                f"{more} · Enter to watch"
            )
        else:
            said = (
                f"no game matches {self.query_text!r} ({total} games in all; "
                "an empty search lists them)"
            )
        if not total:  # a new database: what to do first, rather than an empty list to watch
            said = "no games yet: `pokeview battle` or `pokeview play` records one"
        self.query_one("#count", Static).update(literal(said))

    @on(Runs)
    def runs_arrived(self, message: Runs) -> None:
        table = self.query_one("#runs", DataTable)
        table.clear()
        for run, counts in message.runs:
            done = counts.get("finished", 0) + counts.get("error", 0)
            table.add_row(
                literal(run.name),
                literal(run.state),
                literal(f"{done}/{run.planned or '?'}"),
                str(counts.get("error", 0)),
                literal(run.created_at[:16].replace("T", " ")),
                key=run.name,
            )

    def _selected_game(self) -> int | None:
        table = self.query_one("#games", DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return int(key) if key else None

    def action_watch(self) -> None:
        game = self._selected_game()
        if game is None:
            return
        line = self._lines.get(game)
        human = line is not None and PlayerKind.HUMAN in line.kinds.values()
        if line is not None and line.status == "interrupted" and human:  # a person left it
            from pokeview.screens.play import PlayScreen

            self.app.push_screen(PlayScreen(self.store_path, resume=game))
            return
        from pokeview.screens.watch import WatchScreen

        self.app.push_screen(WatchScreen(self.store_path, game))

    @on(DataTable.RowSelected, "#games")
    def chosen(self) -> None:
        self.action_watch()

    @on(DataTable.RowSelected, "#runs")
    def run_chosen(self) -> None:
        self.action_ratings()  # the run's ratings (the runs table has the focus)

    def action_prompt(self) -> None:
        game = self._selected_game()
        if game is not None:
            from pokeview.screens.prompt import PromptScreen

            # The model's side: p1 unless only p2 is a model (a bot's prompt is its legal actions).
            line = self._lines.get(game)
            kinds = line.kinds if line is not None else {}
            models = [s for s in ("p1", "p2") if kinds.get(s) == PlayerKind.LLM]
            self.app.push_screen(PromptScreen(self.store_path, game, (models or ["p1"])[0], 0))

    def action_ratings(self) -> None:
        from pokeview.screens.ratings import RatingsScreen

        runs = self.query_one("#runs", DataTable)
        run = None
        if runs.has_focus and runs.row_count:
            run = runs.coordinate_to_cell_key(runs.cursor_coordinate).row_key.value
        self.app.push_screen(RatingsScreen(self.store_path, run))

    def action_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    @on(Input.Submitted, "#filter")
    def filtered(self, event: Input.Submitted) -> None:
        self.query_text = event.value
        self.fetch(0)
        self.query_one("#games", DataTable).focus()

    def action_more(self) -> None:
        self.fetch(self.loaded_rows)

    def action_reload(self) -> None:
        self.fetch(0)
        self.fetch_runs()


def _unreadable(path: Path, exc: Exception) -> str:
    """What the notification says: a page damaged on disk as every command says it."""
    import sqlite3

    if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
        from pokeview.store.store import damaged_file

        return str(damaged_file(path, exc))
    return f"could not read {path}: {exc}"
