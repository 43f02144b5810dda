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

from pokeview.battle.replay import Replay
from pokeview.widgets.render import t

POLL_SECONDS = 0.5


def team_left(state: dict | None) -> str:
    if not state:
        return "-"
    team = state["team"]
    alive = sum(1 for m in team if not m.get("fainted"))
    hp = sum(m.get("hp", 0) for m in team)
    total = sum(m.get("maxhp", 0) for m in team) or 1
    return f"{alive}/{len(team)} · {100 * hp / total:.0f}%"


class SpectateScreen(Screen[None]):
    CSS_PATH = Path(__file__).with_suffix(".tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "watch live", id="spectate.open"),
        Binding("escape,q", "leave", "back", id="spectate.back"),
    ]

    def __init__(self, store_path: Path, run: str | None = None) -> None:
        super().__init__()
        self.store_path, self.run = store_path, run
        self.replays: dict[int, Replay] = {}
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
        self.query_one("#running", DataTable).add_columns(
            "game", "run", "p1", "p2", "turn", "p1 left", "p2 left", "waiting for"
        )
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
        store = self.store
        if store is None:
            return
        try:
            self.run_ids = self._runs()
        except Exception as exc:
            self.query_one("#standings", Static).update(t(f"{exc}", "red"))
            return
        marks = ",".join("?" * len(self.run_ids)) or "null"
        running = [
            r[0]
            for r in store.conn.execute(
                "select id from games where status = 'running' "
                f"and run_id in ({marks}) order by id",
                self.run_ids,
            )
        ]
        for gone in set(self.replays) - set(running):
            del self.replays[gone]  # finished, or interrupted by a runner that died
        table = self.query_one("#running", DataTable)
        cursor = table.cursor_row
        table.clear()
        now = time.time()
        for game_id in running:
            try:
                replay = self.replays.get(game_id) or Replay(store.game(game_id))
                replay.update(store)
            except Exception:
                continue  # deleted between the two queries: a runner restart replays it
            self.replays[game_id] = replay
            frames = replay.frames["spectator"]
            turn = frames[-1].turn if frames else 0
            pending = []
            for side in ("p1", "p2"):
                mine = replay.frames[side]
                if mine and replay.decision(mine[-1]) is None:
                    pending.append(f"{side} {now - mine[-1].at:.0f}s")
            game = replay.game
            table.add_row(
                str(game_id),
                t(self._run_name(game.run_id)),
                t(game.p1),
                t(game.p2),
                str(turn),
                team_left(replay.frames["p1"][-1].state if replay.frames["p1"] else None),
                team_left(replay.frames["p2"][-1].state if replay.frames["p2"] else None),
                ", ".join(pending) or "-",
                key=str(game_id),
            )
        if table.row_count:
            table.move_cursor(row=min(cursor, table.row_count - 1))
        self.query_one("#running-title", Static).update(f"running games: {len(running)}")
        self._finished(store, marks)

    def _run_name(self, run_id: int | None) -> str:
        if run_id is None or self.store is None:
            return "-"
        row = self.store.conn.execute("select name from runs where id = ?", (run_id,)).fetchone()
        return row[0] if row else "-"

    def _finished(self, store, marks: str) -> None:
        done = self.query_one("#done", DataTable)
        rows = store.conn.execute(
            f"select id, p1, p2, winner, turns, status from games where status != 'running' "
            f"and run_id in ({marks}) order by id desc limit 200",
            self.run_ids,
        ).fetchall()
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
        for r in store.conn.execute(
            f"select p1, p2, winner from games where status = 'finished' and run_id in ({marks})",
            self.run_ids,
        ):
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
        self.query_one("#done-title", Static).update(f"finished: {len(rows)}")
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
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()
