"""The replay viewer: a recorded game step by step, from either side or as a spectator.

Keys follow Showdown's replay viewer where they can: ←/→ a turn, Home/End first and last,
Space play/pause, -/+ slower/faster; "," and "." step one decision; type a number and Enter to
go to that turn; s switches side (p1, p2, spectator).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Header, RichLog, Static
from textual.worker import Worker, WorkerState

from pokeview.battle.replay import END, VIEWS, Replay
from pokeview.text import strip_control
from pokeview.widgets.battle_column import BattleColumn
from pokeview.widgets.board import Board
from pokeview.widgets.decision_pane import DecisionPane
from pokeview.widgets.render import t

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)


class WatchScreen(Screen[None]):
    CSS_PATH = Path(__file__).with_suffix(".tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "turn(-1)", "◀ turn", id="watch.turn_back", priority=True),
        Binding("right", "turn(1)", "turn ▶", id="watch.turn_forward", priority=True),
        Binding("comma", "step(-1)", "◀ decision", id="watch.step_back", priority=True),
        Binding("full_stop", "step(1)", "decision ▶", id="watch.step_forward", priority=True),
        Binding("home", "first", "first", id="watch.first", priority=True),
        Binding("end", "last", "last", id="watch.last", priority=True),
        Binding("space", "play", "play/pause", id="watch.play", priority=True),
        Binding("minus", "speed(-1)", "slower", id="watch.slower"),
        Binding("plus,equals_sign", "speed(1)", "faster", id="watch.faster"),
        Binding("s", "side", "switch side", id="watch.side"),
        Binding("c", "conversation", "conversation", id="watch.conversation"),
        Binding("p", "prompt", "prompt", id="watch.prompt"),
        Binding("f", "fork", "play on from here", id="watch.fork"),
        Binding("l", "live", "live", id="watch.live", show=False),
        Binding("escape,q", "leave", "back", id="watch.back"),
    ]
    POLL_SECONDS = 0.25

    def __init__(
        self, store_path: Path, game_id: int, view: str = "p1", live: bool = False
    ) -> None:
        super().__init__()
        self.live = live  # follow a game while it is played
        self.following = live
        self.poller = None
        self.store_path = store_path
        self.game_id = game_id
        self.view = view
        self.position = 0
        self.replay: Replay | None = None
        self.whole = False
        self.speed = 2
        self.timer: Timer | None = None
        self.typed = ""
        self.log_shown = 0  # lines of the log already written to the RichLog

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="body"):
            yield BattleColumn(id="left")
            with VerticalScroll(id="right"):
                yield DecisionPane(id="decision")
        yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#status", Static).update("loading the game…")
        self.load()

    @work(thread=True, exclusive=True, group="load")
    def load(self) -> Replay:
        from pokeview.store import open_store

        store = open_store(self.store_path)
        try:
            return Replay.load(store, self.game_id)
        finally:
            store.close()

    @on(Worker.StateChanged)
    def loaded(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "load":
            return
        if event.state == WorkerState.SUCCESS:
            self.replay = event.worker.result
            self._titles()
            if self.following:
                self.position = len(self.frames) - 1
            self.refresh_view(rewrite=True)
            if self.live:
                from pokeview.store import open_store

                self.poller = open_store(self.store_path)
                self.set_interval(self.POLL_SECONDS, self.poll)
        elif event.state == WorkerState.ERROR:
            self.query_one("#status", Static).update(
                t(f"could not load game {self.game_id}: {event.worker.error}")
            )

    def _titles(self) -> None:
        assert self.replay is not None
        game = self.replay.game
        self.title = strip_control(f"game {game.id}: {game.p1} vs {game.p2}")
        state = "LIVE" if game.status == "running" else game.status
        fork = f" · fork of game {game.parent_game}" if game.parent_game else ""
        why = f" ({game.error})" if game.status == "void" and game.error else ""
        self.sub_title = strip_control(
            f"{game.format} · {state}{why} · winner {game.winner_name}{fork}"
        )

    def poll(self) -> None:
        """Live mode: read what the runner wrote since the last look (a few small queries)."""
        if self.replay is None or self.poller is None:
            return
        try:
            changed = self.replay.update(self.poller)
        except Exception as exc:  # the game was interrupted and deleted, or the file went away
            self.query_one("#status", Static).update(t(f"stopped following: {exc}"))
            self.poller = None
            return
        if self.following:
            self.position = len(self.frames) - 1
        if changed or self.following:
            self._titles()
            self.refresh_view()

    def on_unmount(self) -> None:
        if self.poller is not None:
            self.poller.close()

    # -- drawing ---------------------------------------------------------------------------

    @property
    def frames(self) -> list:
        return self.replay.frames[self.view] if self.replay else []

    def refresh_view(self, rewrite: bool = False) -> None:
        replay = self.replay
        if replay is None:
            return
        if not self.frames:  # nothing to decide yet: a live game's log is still worth showing
            if self.following:
                self._draw_log(rewrite)
            return
        self.position = max(0, min(self.position, len(self.frames) - 1))
        frame = self.frames[self.position]
        names = {"p1": replay.game.p1, "p2": replay.game.p2}
        if self.view == "spectator":
            near = replay.state_of("spectator", self.position, "p1")
            far = replay.state_of("spectator", self.position, "p2")
        else:
            near, far = frame.state, None
        self.query_one(Board).show(
            view=self.view,
            turn=frame.turn,
            near=near,
            far=far,
            names=names,
            public=replay.game.is_imported_replay,
        )
        self._draw_log(rewrite)
        player = names[frame.side]
        conversation = None
        if self.whole and replay.decision(frame) is not None:
            conversation = [
                m
                for d in replay_decisions(replay, frame.side, frame.index)
                for m in d.detail.get("messages", [])
            ]
        decision = replay.decision(frame)
        if decision is None and frame.event_id != END and replay.game.status == "running":
            thinking = "".join(replay.reasoning.get((frame.side, frame.index), []))
            self.query_one(DecisionPane).show_thinking(player, time.time() - frame.at, thinking)
        else:
            note = None
            if replay.game.is_imported_replay and frame.event_id != END:
                note = "An imported Showdown replay: the log is public, the choices unknown."
            self.query_one(DecisionPane).show(decision, player, self.whole, conversation, note)
        self._draw_status()

    def _draw_log(self, rewrite: bool) -> None:
        assert self.replay is not None
        if self.following:  # live: every line written so far, not only up to the last decision
            lines = self.replay.words["p2" if self.view == "p2" else "p1"]
        else:
            lines = self.replay.log_upto(self.view, self.position)
        log = self.query_one(RichLog)
        if rewrite or len(lines) < self.log_shown:
            log.clear()
            self.log_shown = 0
        current = self.frames[self.position].turn if self.frames else 0
        for turn, line in lines[self.log_shown :]:
            style = "bold" if line.startswith("== Turn") else ("" if turn >= current - 1 else "dim")
            log.write(t(line, style))
        self.log_shown = len(lines)

    def _draw_status(self) -> None:
        frame = self.frames[self.position]
        status = Text()
        status.append(f"turn {frame.turn}", style="bold")
        status.append(f" · frame {self.position + 1}/{len(self.frames)} · view {self.view}")
        status.append(f" · {'playing' if self.timer else 'paused'} ×{SPEEDS[self.speed]:g}")
        if self.live and self.replay and self.replay.game.status == "running":
            if self.following:
                status.append(" · LIVE", style="bold red")
            else:
                status.append(" · l: back to live", style="bold yellow")
        if self.typed:
            status.append(f" · go to turn {self.typed}▏ (Enter)", style="bold yellow")
        self.query_one("#status", Static).update(status)

    # -- actions -------------------------------------------------------------------------------

    def action_step(self, delta: int) -> None:
        self.position += delta
        self.following = self.live and self.position >= len(self.frames) - 1
        self.refresh_view()

    def action_live(self) -> None:
        if self.live:
            self.following = True
            self.position = len(self.frames) - 1
            self.refresh_view()

    def action_turn(self, delta: int) -> None:
        if not self.frames:
            return
        turn = self.frames[self.position].turn + delta
        if delta < 0:
            self.position = (
                self.replay.position_of_turn(self.view, max(turn, 0)) if self.replay else 0
            )
        else:
            nxt = self.replay.position_of_turn(self.view, turn) if self.replay else 0
            self.position = max(nxt, self.position + 1)
        self.following = self.live and self.position >= len(self.frames) - 1
        self.refresh_view()

    def action_first(self) -> None:
        self.position = 0
        self.refresh_view()

    def action_last(self) -> None:
        self.position = len(self.frames) - 1
        self.refresh_view()

    def action_play(self) -> None:
        if self.timer:
            self.timer.stop()
            self.timer = None
        else:
            self.timer = self.set_interval(1 / SPEEDS[self.speed], self._tick)
        self._draw_status()

    def _tick(self) -> None:
        if self.position >= len(self.frames) - 1:
            self.action_play()  # stop at the end
            return
        self.action_step(1)

    def action_speed(self, delta: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + delta))
        if self.timer:
            self.timer.stop()
            self.timer = self.set_interval(1 / SPEEDS[self.speed], self._tick)
        self._draw_status()

    def action_side(self) -> None:
        if not self.replay:
            return
        turn = self.frames[self.position].turn if self.frames else 0
        self.view = VIEWS[(VIEWS.index(self.view) + 1) % len(VIEWS)]
        self.position = self.replay.position_of_turn(self.view, turn)
        self.refresh_view(rewrite=True)

    def action_conversation(self) -> None:
        self.whole = not self.whole
        self.refresh_view()

    def action_prompt(self) -> None:
        if not self.frames:
            return
        from pokeview.screens.prompt import PromptScreen

        frame = self.frames[self.position]
        self.app.push_screen(PromptScreen(self.store_path, self.game_id, frame.side, frame.index))

    def action_fork(self) -> None:
        """Take over the viewing side from this decision, against the recorded opponent."""
        if not self.replay or not self.frames:
            return
        frame = self.frames[self.position]
        side = frame.side if self.view == "spectator" else self.view
        if frame.event_id == END or frame.side != side:
            self.notify("go to one of this side's decisions to play on from it", severity="warning")
            return
        game = self.replay.game
        opponent = game.p2 if side == "p1" else game.p1
        if opponent.startswith("human"):
            opponent = "heuristic"
        from pokeview.screens.play import PlayScreen

        self.app.push_screen(
            PlayScreen(
                self.store_path, opponent=opponent, side=side, fork=(game.id, frame.event_id, side)
            )
        )

    def action_leave(self) -> None:
        if self.typed:
            self.typed = ""
            self._draw_status()
            return
        self.app.action_back()

    def on_key(self, event) -> None:  # noqa: ANN001 - Textual's Key event
        if event.character and event.character.isdigit():
            self.typed = (self.typed + event.character)[-3:]
            self._draw_status()
            event.stop()
        elif event.key == "enter" and self.typed and self.replay:
            self.position = self.replay.position_of_turn(self.view, int(self.typed))
            self.typed = ""
            self.refresh_view()
            event.stop()
        elif event.key == "backspace" and self.typed:
            self.typed = self.typed[:-1]
            self._draw_status()
            event.stop()


def replay_decisions(replay: Replay, side: str, upto: int) -> list:
    return [d for f in replay.frames[side] if f.index <= upto and (d := replay.decision(f))]
