"""Spectate a running tournament: the games in flight, whose decision is pending and for how
long, finished games and the run's live standings. It only reads the record the runner writes,
so any number of spectators can watch from other terminals without slowing the runner."""

from __future__ import annotations

import time
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from pokeview.store.events import EventKind
from pokeview.widgets.render import t

POLL_SECONDS = 1.0


def team_left(state: dict | None) -> str:
    if not state:
        return "-"
    team = state["team"]
    alive = sum(1 for m in team if not m.get("fainted"))
    hp = sum(m.get("hp", 0) for m in team)
    total = sum(m.get("maxhp", 0) for m in team) or 1
    return f"{alive}/{len(team)} · {100 * hp / total:.0f}%"


class GameSummary:
    """What the list shows of one running game, kept up to date from new events only."""

    def __init__(self, game_id: int, p1: str, p2: str, run: str) -> None:
        self.game_id, self.p1, self.p2, self.run = game_id, p1, p2, run
        self.last_event = 0
        self.turn = 0
        self.state: dict[str, dict | None] = {"p1": None, "p2": None}
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
            if state:
                self.state[side] = state
                self.turn = max(self.turn, state.get("turn", 0))
                request = event.data.request or {}
                if not request.get("wait") and not event.data.error:
                    self.asked[side] = event.at
        return bool(events)

    def waiting(self, now: float) -> str:
        return ", ".join(f"{s} {now - at:.0f}s" for s, at in self.asked.items() if at) or "-"


class SpectateScreen(Screen[None]):
    CSS_PATH = Path(__file__).with_suffix(".tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "watch live", id="spectate.open"),
        Binding("escape,q", "leave", "back", id="spectate.back"),
    ]

    def __init__(self, store_path: Path, run: str | None = None) -> None:
        super().__init__()
        self.store_path, self.run = store_path, run
        self.summaries: dict[int, GameSummary] = {}
        self.ticked = 0.0
        self.finished_seen: tuple[int, int] | None = None
        self.store = None
        self.run_ids: list[int] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("running games", id="running-title")
        yield DataTable(id="running", cursor_type="row")
        yield Static("finished", id="done-title")
        yield DataTable(id="done", cursor_type="row")
        yield Static(id="standings")
        yield Footer()

    def on_mount(self) -> None:
        from pokeview.store import open_store

        self.title = f"spectate · {'run ' + self.run if self.run else 'all running runs'}"
        self.store = open_store(self.store_path)
        columns = self.query_one("#running", DataTable).add_columns(
            "game", "run", "p1", "p2", "turn", "p1 left", "p2 left", "waiting for"
        )
        self.columns = columns
        self.query_one("#done", DataTable).add_columns(
            "game", "p1", "p2", "winner", "turns", "status"
        )
        self.query_one("#running", DataTable).focus()
        self.poll()
        self.set_interval(POLL_SECONDS, self.poll)

    def on_unmount(self) -> None:
        if self.store is not None:
            self.store.close()

    def _runs(self) -> list[int]:
        assert self.store is not None
        if self.run:
            return [self.store.run(self.run).id]
        return [r.id for r, _ in self.store.runs() if r.state == "running"]

    def poll(self) -> None:
        """Read what changed; redraw only what changed (spectators must stay cheap)."""
        store = self.store
        if store is None:
            return
        try:
            self.run_ids = self._runs()
        except Exception as exc:  # the run does not exist yet, or the file went away
            self.query_one("#standings", Static).update(t(f"{exc}", "red"))
            return
        running = store.running_games(self.run_ids)
        ids = [r["id"] for r in running]
        reshaped = set(ids) != set(self.summaries)
        changed: set[int] = set()
        for gone in set(self.summaries) - set(ids):
            del self.summaries[gone]  # finished, or interrupted by a runner that died
        for r in running:
            summary = self.summaries.get(r["id"])
            if summary is None:
                summary = GameSummary(r["id"], r["p1"], r["p2"], self._run_name(r["run_id"]))
                self.summaries[r["id"]] = summary
            if summary.update(store):
                changed.add(r["id"])
        now = time.time()
        table = self.query_one("#running", DataTable)
        tick = now - self.ticked >= 1
        if not reshaped:  # the same games: change their cells in place (no relayout)
            for game_id in ids:
                g = self.summaries[game_id]
                if game_id in changed:
                    for column, value in zip(
                        self.columns[4:7],
                        (str(g.turn), team_left(g.state["p1"]), team_left(g.state["p2"])),
                        strict=True,
                    ):
                        table.update_cell(str(game_id), column, value)
                if game_id in changed or tick:
                    table.update_cell(str(game_id), self.columns[7], g.waiting(now))
            if tick:
                self.ticked = now
        else:
            cursor = table.cursor_row
            table.clear()
            for game_id in ids:
                g = self.summaries[game_id]
                table.add_row(
                    str(game_id),
                    t(g.run),
                    t(g.p1),
                    t(g.p2),
                    str(g.turn),
                    team_left(g.state["p1"]),
                    team_left(g.state["p2"]),
                    g.waiting(now),
                    key=str(game_id),
                )
            if table.row_count:
                table.move_cursor(row=min(cursor, table.row_count - 1))
            self.query_one("#running-title", Static).update(f"running games: {len(ids)}")
        self._finished(store)

    def _run_name(self, run_id: int | None) -> str:
        if run_id is None or self.store is None:
            return "-"
        return self.store.run_name(run_id) or "-"

    def _finished(self, store) -> None:
        seen = store.ended_mark(self.run_ids)
        if seen == self.finished_seen:
            return
        self.finished_seen = seen
        done = self.query_one("#done", DataTable)
        rows = store.ended_games(self.run_ids, limit=30)
        done.clear()
        for r in rows:
            winner = {"p1": r["p1"], "p2": r["p2"]}.get(r["winner"], r["winner"] or "-")
            done.add_row(
                str(r["id"]),
                t(r["p1"]),
                t(r["p2"]),
                t(winner),
                str(r["turns"] or "-"),
                t(r["status"]),
                key=str(r["id"]),
            )
        standings: dict[str, list[float]] = {}
        for r in store.results(self.run_ids):
            for side, other in (("p1", "p2"), ("p2", "p1")):
                s = standings.setdefault(r[side], [0, 0, 0])
                s[0 if r["winner"] == side else 1 if r["winner"] == other else 2] += 1
        line = Text("standings: ", style="bold")
        order = sorted(
            standings.items(), key=lambda kv: -(kv[1][0] + kv[1][2] / 2) / max(1, sum(kv[1]))
        )
        for n, (name, (won, lost, tied)) in enumerate(order):
            if n:
                line.append(" · ")
            line.append_text(t(name, "bold"))
            line.append(f" {won}-{lost}-{tied}")
        self.query_one("#done-title", Static).update(f"finished: {seen[0]} (the newest 30 below)")
        self.query_one("#standings", Static).update(
            line if standings else Text("no finished games yet", style="dim")
        )

    def action_open(self) -> None:
        table = self.query_one("#running", DataTable)
        if not table.row_count:
            return
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        from pokeview.screens.watch import WatchScreen

        self.app.push_screen(WatchScreen(self.store_path, int(key), "p1", live=True))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "running":
            self.action_open()

    def action_leave(self) -> None:
        self.app.action_back()
