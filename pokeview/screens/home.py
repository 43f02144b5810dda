"""Home: recorded games (newest first, searchable, paged) and runs, with ways to every screen."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Static
from textual.worker import Worker, WorkerState

from pokeview.widgets.render import t

PAGE = 200


class HomeScreen(Screen[None]):
    CSS_PATH = Path(__file__).with_suffix(".tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
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

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(
            placeholder="search: game id, player, format, status or run (Enter)", id="filter"
        )
        yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
        yield Static(id="count")
        yield Static("runs", id="runs-title")
        yield DataTable(id="runs", cursor_type="row")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "pokeview"
        self.sub_title = str(self.store_path)
        games = self.query_one("#games", DataTable)
        games.add_columns("id", "started", "format", "p1", "p2", "winner", "turns", "status", "run")
        self.query_one("#runs", DataTable).add_columns("run", "state", "games", "errors", "started")
        games.focus()
        self.fetch(0)
        self.fetch_runs()

    @work(thread=True, exclusive=True, group="games")
    def fetch(self, offset: int) -> tuple[int, list, int]:
        from pokeview.store import open_store

        store = open_store(self.store_path)
        try:
            return (
                offset,
                store.search_games(self.query_text, limit=PAGE, offset=offset),
                store.count_games(),
            )
        finally:
            store.close()

    @work(thread=True, exclusive=True, group="runs")
    def fetch_runs(self) -> list:
        from pokeview.store import open_store

        store = open_store(self.store_path)
        try:
            return store.runs()
        finally:
            store.close()

    @on(Worker.StateChanged)
    def arrived(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            self.notify(
                f"could not read {self.store_path}: {event.worker.error}",
                severity="error",
                markup=False,
            )
            return
        if event.state != WorkerState.SUCCESS:
            return
        if event.worker.group == "games":
            offset, rows, total = event.worker.result
            table = self.query_one("#games", DataTable)
            if offset == 0:
                table.clear()
            for r in rows:
                winner = {"p1": r["p1"], "p2": r["p2"]}.get(r["winner"], r["winner"] or "-")
                table.add_row(
                    str(r["id"]),
                    (r["started_at"] or "")[:16].replace("T", " "),
                    t(r["format"]),
                    t(r["p1"]),
                    t(r["p2"]),
                    t(winner),
                    str(r["turns"] or "-"),
                    t(r["status"]),
                    t(r["run"] or "-"),
                    key=str(r["id"]),
                )
            self.loaded_rows = offset + len(rows)
            more = " · m for more" if len(rows) == PAGE else ""
            search = f" matching {self.query_text!r}" if self.query_text else ""
            self.query_one("#count", Static).update(
                t(f"{self.loaded_rows} shown of {total} games{search}{more} · Enter to watch")
            )
        elif event.worker.group == "runs":
            table = self.query_one("#runs", DataTable)
            table.clear()
            for run, counts in event.worker.result:
                done = counts.get("finished", 0) + counts.get("error", 0)
                table.add_row(
                    t(run.name),
                    t(run.state),
                    f"{done}/{run.planned or '?'}",
                    str(counts.get("error", 0)),
                    run.created_at[:16].replace("T", " "),
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
        table = self.query_one("#games", DataTable)
        status = str(table.get_row_at(table.cursor_row)[7])
        row = table.get_row_at(table.cursor_row)
        human = any(str(name).startswith("human") for name in (row[3], row[4]))
        if status == "interrupted" and human:  # a game a person left: continue it
            from pokeview.screens.play import PlayScreen

            self.app.push_screen(PlayScreen(self.store_path, resume=game))
            return
        from pokeview.screens.watch import WatchScreen

        self.app.push_screen(WatchScreen(self.store_path, game))

    @on(DataTable.RowSelected, "#games")
    def chosen(self) -> None:
        self.action_watch()

    def action_prompt(self) -> None:
        game = self._selected_game()
        if game is not None:
            from pokeview.screens.prompt import PromptScreen

            self.app.push_screen(PromptScreen(self.store_path, game, "p1", 0))

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
