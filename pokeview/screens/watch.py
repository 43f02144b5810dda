"""The replay viewer: a recorded game step by step, from either side or as a spectator.

Keys follow Showdown's replay viewer where they can: ←/→ a turn, Home/End first and last,
Space play/pause, -/+ slower/faster; "," and "." step one decision; type a number and Enter to
go to that turn; s switches side (p1, p2, spectator). `?` lists them all.

The record is read by thread workers (never on the UI thread): one loads the game, and for a
live game one follows it, posting what is new. Position, side and speed are reactive: actions
only change them, and one redraw follows however many changed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.reactive import var
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Header, Static
from textual.worker import get_current_worker

from pokeview.battle.replay import END, VIEWS, News, Replay
from pokeview.board.layout import of_replay as board_of
from pokeview.board.parts import literal
from pokeview.game.decision import messages_of
from pokeview.players.kinds import PlayerKind
from pokeview.screens.help import HELP
from pokeview.screens.navigation import back
from pokeview.store.store import DecisionRow
from pokeview.text import strip_control
from pokeview.widgets.battle_column import BattleColumn, DetailKeys
from pokeview.widgets.battle_log import BattleLog
from pokeview.widgets.board import Board
from pokeview.widgets.decision_pane import DecisionPane, ending
from pokeview.widgets.pokemon_detail import DETAIL_BINDINGS

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
TURN = Binding.Group("turn")
STEP = Binding.Group("step")  # "decision" did not fit at 80 columns beside "i mon"
ENDS = Binding.Group("first/last")
SPEED = Binding.Group("speed")


class WatchScreen(DetailKeys, Screen[None]):
    CSS_PATH = Path(__file__).with_suffix(".tcss")
    # Declared once: the footer shows them in this order (the most used first, so that they
    # fit at 80 columns), the ? screen and the command palette list them all.
    BINDINGS: ClassVar[list[BindingType]] = [
        HELP,
        Binding("left", "turn(-1)", "◀ turn", id="watch.turn_back", priority=True, group=TURN),
        Binding("right", "turn(1)", "turn ▶", id="watch.turn_forward", priority=True, group=TURN),
        Binding(
            "space",
            "play",
            "play",
            id="watch.play",
            priority=True,
            key_display="␣",
            tooltip="play/pause",
        ),
        Binding("s", "side", "side", id="watch.side", tooltip="switch side (p1, p2, spectator)"),
        Binding("p", "prompt", "prompt", id="watch.prompt", tooltip="prompt (the inspector)"),
        Binding("q,escape", "leave", "back", id="watch.back"),
        Binding("comma", "step(-1)", "◀ decision", id="watch.step_back", priority=True, group=STEP),
        Binding(
            "full_stop", "step(1)", "decision ▶", id="watch.step_forward", priority=True, group=STEP
        ),
        Binding(
            "c",
            "conversation",
            "chat",
            id="watch.conversation",
            tooltip="conversation: show or hide the whole conversation below the decision",
        ),
        Binding(
            "f", "fork", "play on", id="watch.fork", tooltip="play on from here (take this side)"
        ),
        *DETAIL_BINDINGS,
        Binding("home", "first", "first", id="watch.first", priority=True, show=False),
        Binding("end", "last", "last", id="watch.last", priority=True, show=False),
        Binding("minus", "speed(-1)", "slower", id="watch.slower", show=False),
        Binding("plus,equals_sign", "speed(1)", "faster", id="watch.faster", show=False),
        Binding("l", "live", "back to live", id="watch.live", show=False),
        Binding(
            "pageup", "scroll_pane(-1)", "scroll the decision up", id="watch.pane_up", show=False
        ),
        Binding(
            "pagedown",
            "scroll_pane(1)",
            "scroll the decision down",
            id="watch.pane_down",
            show=False,
        ),
    ]
    KEY_NOTES: ClassVar[list[tuple[str, str]]] = [
        ("0-9 Enter", "go to that turn (Backspace corrects, Esc forgets)"),
    ]
    POLL_SECONDS = 0.25

    position: var[int] = var(0, init=False)
    view: var[str] = var("p1", init=False)
    speed: var[int] = var(2, init=False)
    playing: var[bool] = var(False, init=False)

    @dataclass
    class Loaded(Message):
        replay: Replay

    @dataclass
    class Followed(Message):
        news: News

    @dataclass
    class Failed(Message):
        error: str

    def __init__(
        self, store_path: Path, game_id: int, view: str | None = None, from_file: Path | None = None
    ) -> None:
        """`view` None: the game chooses (p1, or for a running game the side that streams).
        `from_file`: the game file whose scratch database `store_path` is (gone on leaving)."""
        super().__init__()
        self.from_file = from_file
        # A running game is followed wherever it is opened from: known once it has loaded.
        self.live = False
        self.following = False
        self.store_path = store_path
        self.game_id = game_id
        self.chosen_view = view
        self.set_reactive(WatchScreen.view, view or "p1")
        self.replay: Replay | None = None
        self.whole = False
        self.scroll_before_conversation = 0.0  # the decision pane's, before c showed it
        self.timer: Timer | None = None
        self.typed = ""
        self.shown_decision: tuple | None = None  # what the decision pane shows now
        self._redraw_pending = False
        self._ahead: Iterator[None] | None = None  # drawings to make when idle

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="body"):
            yield BattleColumn(id="left")
            with VerticalScroll(id="right", can_focus=False):
                yield DecisionPane(id="decision")
        yield Static(id="status")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#status", Static).update("loading the game…")
        self.load()

    # -- reading the record (thread workers) -----------------------------------------------------

    @work(thread=True, exclusive=True, group="load", exit_on_error=False)
    def load(self) -> None:
        from pokeview.store import open_store

        try:
            store = open_store(self.store_path)
            try:
                self.post_message(self.Loaded(Replay.load(store, self.game_id)))
            finally:
                store.close()
        except Exception as exc:  # a missing game, a broken file: said in the screen
            self.post_message(self.Failed(f"could not load game {self.game_id}: {exc}"))

    @work(thread=True, exclusive=True, group="follow", exit_on_error=False)
    def follow(self, replay: Replay) -> None:
        """Live: read what the runner wrote since the last look, and post it."""
        from pokeview.store import open_store

        tail = replay.tail
        assert tail is not None
        worker = get_current_worker()
        try:
            store = open_store(self.store_path)
        except Exception as exc:
            self.post_message(self.Failed(f"stopped following: {exc}"))
            return
        try:
            while not worker.is_cancelled and not tail.ended:
                news = tail.read(store)
                if news is not None:
                    self.post_message(self.Followed(news))
                time.sleep(self.POLL_SECONDS)
        except Exception as exc:  # the game was interrupted and deleted, or the file went away
            self.post_message(self.Failed(f"stopped following: {exc}"))
        finally:
            store.close()

    @on(Loaded)
    def loaded(self, message: Loaded) -> None:
        self.replay = message.replay
        self.live = self.following = not self.replay.ended
        if self.chosen_view is None:
            self.set_reactive(WatchScreen.view, opening_side(self.replay))
        self._titles()
        if self.following:
            self.set_reactive(WatchScreen.position, len(self.frames) - 1)
        self.redraw()
        if self.live and not self.replay.ended:
            self.follow(self.replay)
            self.set_interval(1.0, self._thinking_clock)

    @on(Followed)
    def followed(self, message: Followed) -> None:
        if self.replay is None:
            return
        self.replay.apply(message.news)
        # What a frame shows can change as its moment's lines arrive: nothing drawn is kept.
        self.query_one(Board).forget()
        self.query_one(DecisionPane).forget()
        self._titles()
        if self.following:
            self.set_reactive(WatchScreen.position, len(self.frames) - 1)
        self.redraw()

    @on(Failed)
    def failed(self, message: Failed) -> None:
        self.query_one("#status", Static).update(literal(message.error, "bold red"))
        if self.replay is None:
            self.query_one(DecisionPane).update(
                literal(
                    f"{message.error}\n\nq goes back; `pokeview games` lists the games there are."
                )
            )

    def _thinking_clock(self) -> None:
        if self.following and self.replay and not self.replay.ended:
            self.shown_decision = None  # the "thinking… N s" line changes every second
            self.redraw()

    def _titles(self) -> None:
        assert self.replay is not None
        game = self.replay.game
        self.title = strip_control(f"game {game.id}: {game.p1} vs {game.p2}")
        state = "LIVE" if game.status == "running" else game.status
        fork = f" · fork of game {game.parent_game}" if game.parent_game else ""
        why = f" ({game.error})" if game.status == "void" and game.error else ""
        # The winner first: a narrow header cuts the line's end (a void game's reason is long).
        won = f"winner {game.winner_name} · " if game.winner else ""
        self.sub_title = strip_control(f"{won}{game.format} · {state}{why}{fork}")

    # -- reactive state ------------------------------------------------------------------------

    def validate_position(self, position: int) -> int:
        return max(0, min(position, len(self.frames) - 1))

    def watch_position(self) -> None:
        self.redraw()

    def watch_view(self) -> None:
        self.redraw()

    def watch_speed(self) -> None:
        if self.timer:
            self.timer.stop()
            self.timer = self.set_interval(1 / SPEEDS[self.speed], self._tick)
        self._draw_status()

    def watch_playing(self, playing: bool) -> None:
        if self.timer:
            self.timer.stop()
            self.timer = None
        if playing:
            self.timer = self.set_interval(1 / SPEEDS[self.speed], self._tick)
        self._draw_status()

    # -- drawing ---------------------------------------------------------------------------

    @property
    def frames(self) -> list:
        return self.replay.frames[self.view] if self.replay else []

    def redraw(self) -> None:
        """Draw once after this round of changes, however many reactives changed."""
        if not self._redraw_pending:
            self._redraw_pending = True
            self.call_next(self._redraw)

    def _redraw(self) -> None:
        if self._redraw_pending:  # not already drawn by someone who could not wait
            self._redraw_pending = False
            self.refresh_view()

    def refresh_view(self) -> None:
        replay = self.replay
        if replay is None:
            return
        if not self.frames:  # nothing to decide yet: a live game's log is still worth showing
            side = "p2" if self.view == "p2" else "p1"
            words = replay.words[side]
            self.query_one(BattleLog).show(words, len(words), 0)
            return
        position = self.validate_position(self.position)
        frame = self.frames[position]
        shown = board_of(replay, self.view, position)
        self.query_one(Board).show(shown, key=(self.view, position))
        self._draw_log(frame)
        self._draw_decision(frame)
        self._draw_status()
        self._ahead = self._drawings_ahead(self.view, position)
        self.call_after_refresh(self._draw_next)

    def _decision_of(self, frame) -> tuple[tuple, DecisionRow | None, bool]:  # noqa: ANN001
        """The decision pane at `frame`: a key naming what it shows, the decision, and whether
        it is still being made (live)."""
        replay = self.replay
        assert replay is not None
        decision = replay.decision(frame)
        thinking = decision is None and frame.event_id != END and replay.game.status == "running"
        key = (
            frame.side,
            frame.index,
            frame.event_id == END,
            self.whole,
            decision.id if decision else None,
            len(replay.reasoning.get((frame.side, frame.index), ())) if thinking else 0,
            replay.game.status,
        )
        return key, decision, thinking

    def _decision_content(self, frame, decision: DecisionRow | None) -> RenderableType:  # noqa: ANN001
        replay = self.replay
        assert replay is not None
        if frame.event_id == END:
            return ending(replay.game)
        conversation = None
        if self.whole and decision is not None:
            conversation = [
                m
                for d in replay_decisions(replay, frame.side, frame.index)
                for m in messages_of(d.detail)
            ]
        note = None
        if replay.game.is_imported_replay:
            note = "An imported Showdown replay: the log is public, the choices unknown."
        player = replay.game.p1 if frame.side == "p1" else replay.game.p2
        pane = self.query_one(DecisionPane)
        return pane.content_of(decision, player, conversation, note, frame.state)

    def _draw_decision(self, frame) -> None:  # noqa: ANN001 - a replay Frame
        """The decision pane is drawn again (and scrolled to its top) only when it changes."""
        replay = self.replay
        assert replay is not None
        key, decision, thinking = self._decision_of(frame)
        if key == self.shown_decision:
            return
        same_decision = self.shown_decision is not None and self.shown_decision[:3] == key[:3]
        self.shown_decision = key
        pane = self.query_one(DecisionPane)
        if thinking:
            player = replay.game.p1 if frame.side == "p1" else replay.game.p2
            text = "".join(replay.reasoning.get((frame.side, frame.index), []))
            pane.show_thinking(player, time.time() - frame.at, text)
        else:
            pane.show_drawn(key, lambda: self._decision_content(frame, decision))
        right = self.query_one("#right", VerticalScroll)
        if thinking:
            right.scroll_end(animate=False)
        elif not same_decision:
            right.scroll_home(animate=False)

    # -- drawing ahead, in idle time -----------------------------------------------------------

    def _drawings_ahead(self, view: str, position: int) -> Iterator[None]:
        """The board and decision a step and a turn either way, and after `s`, drawn one at a
        time when the app is idle: those keys then show what is drawn already."""
        assert self.replay is not None
        board, pane = self.query_one(Board), self.query_one(DecisionPane)
        places = [
            (view, position + 1),
            (view, position - 1),
            (view, self._turn_target(view, position, 1)),
            (view, self._turn_target(view, position, -1)),
            self._side_target(view, position),
        ]
        for there, at in dict.fromkeys(places):
            frames = self.replay.frames[there]
            if not 0 <= at < len(frames) or (there, at) == (view, position):
                continue
            if board.draw_ahead((there, at), partial(board_of, self.replay, there, at)):
                yield
            key, decision, thinking = self._decision_of(frames[at])
            make = partial(self._decision_content, frames[at], decision)
            if not thinking and pane.prepare(key, make):
                yield

    def _draw_next(self) -> None:
        if self._ahead is None:
            return
        for widget in (
            self.query_one(Board),
            self.query_one(DecisionPane),
            self.query_one(BattleLog),
        ):
            if not widget.painted:  # the step's own paint comes first
                widget.after_paint(self._draw_next)
                return
        if next(self._ahead, StopIteration) is StopIteration:
            self._ahead = None
            return
        self.call_after_refresh(self._draw_next)

    def _draw_log(self, frame) -> None:  # noqa: ANN001 - a replay Frame
        assert self.replay is not None
        side = "p2" if self.view == "p2" else "p1"
        words = self.replay.words[side]
        # Live: every line written so far, not only up to the last decision.
        following = self.following
        count = len(words) if following else self.replay.log_count(self.view, self.position)
        self.query_one(BattleLog).show(words, count, frame.turn)

    def _draw_status(self) -> None:
        status = Text()
        if self.frames:
            frame = self.frames[self.validate_position(self.position)]
            status.append(f"turn {frame.turn}", style="bold")
            status.append(f" · frame {self.position + 1}/{len(self.frames)} · view {self.view}")
        else:
            status.append("no decision yet", style="bold")
        status.append(f" · {'playing' if self.timer else 'paused'} ×{SPEEDS[self.speed]:g}")
        if self.live and self.replay and self.replay.game.status == "running":
            if self.following:
                status.append(" · LIVE", style="bold red")
            else:
                status.append(" · l: back to live", style="bold yellow")
        if self.typed:
            status.append(f" · go to turn {self.typed}▏ (Enter)", style="bold yellow")
        self.query_one("#status", Static).update(status, layout=False)  # always one line

    def on_resize(self) -> None:
        self.query_one(Board).redraw()

    # -- actions -------------------------------------------------------------------------------

    def _go(self, position: int) -> None:
        self.position = position
        self.following = self.live and self.position >= len(self.frames) - 1

    def action_step(self, delta: int) -> None:
        self._go(self.position + delta)

    def action_live(self) -> None:
        if self.live:
            self.following = True
            self.position = len(self.frames) - 1
            self.redraw()

    def action_turn(self, delta: int) -> None:
        if self.frames and self.replay is not None:
            self._go(self._turn_target(self.view, self.position, delta))

    def _turn_target(self, view: str, position: int, delta: int) -> int:
        """Where ←/→ go from frame `position` of `view`: the first frame of the turn before or
        after (at least one frame on)."""
        assert self.replay is not None
        turn = self.replay.frames[view][position].turn + delta
        if delta < 0:
            return self.replay.position_of_turn(view, max(turn, 0))
        return max(self.replay.position_of_turn(view, turn), position + 1)

    def action_first(self) -> None:
        self._go(0)

    def action_last(self) -> None:
        self._go(len(self.frames) - 1)

    def action_play(self) -> None:
        self.playing = not self.playing

    def _tick(self) -> None:
        if self.position >= len(self.frames) - 1:
            self.playing = False  # stop at the end
            return
        self.action_step(1)

    def action_speed(self, delta: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + delta))

    def action_side(self) -> None:
        if not self.replay:
            return
        self.view, self.position = self._side_target(self.view, self.position)

    def _side_target(self, view: str, position: int) -> tuple[str, int]:
        """Where `s` goes from frame `position` of `view`: the next view, at the same turn."""
        assert self.replay is not None
        frames = self.replay.frames[view]
        at_end = bool(frames) and position >= len(frames) - 1
        turn = frames[position].turn if frames else 0
        view = VIEWS[(VIEWS.index(view) + 1) % len(VIEWS)]
        # The last frame (how the game ended) stays the last frame in every view.
        if at_end:
            return view, len(self.replay.frames[view]) - 1
        return view, self.replay.position_of_turn(view, turn)

    def action_scroll_pane(self, direction: int) -> None:
        right = self.query_one("#right", VerticalScroll)
        (right.scroll_page_down if direction > 0 else right.scroll_page_up)(animate=False)

    def action_conversation(self) -> None:
        if self.replay is not None and not self.whole:
            game = self.replay.game
            kinds = {(c or {}).get("kind") for c in (game.p1_config, game.p2_config)}
            if PlayerKind.LLM not in kinds:  # only a model's decisions carry messages
                self.notify("no conversation: neither side is a model")
                return
        self.whole = not self.whole
        right = self.query_one("#right", VerticalScroll)
        if self.whole:  # the conversation is below the decision, out of sight: go to it
            self.scroll_before_conversation = right.scroll_y
            self.redraw()
            self.call_after_refresh(self._scroll_to_conversation)
        else:  # and back to where the pane was
            self.redraw()
            right.scroll_to(y=self.scroll_before_conversation, animate=False)

    def _scroll_to_conversation(self) -> None:
        pane = self.query_one(DecisionPane)
        line = pane.conversation_line()
        if self.whole and line is not None:
            top = pane.virtual_region.y + pane.gutter.top + line
            self.query_one("#right", VerticalScroll).scroll_to(y=top, animate=False)

    def action_prompt(self) -> None:
        if not self.frames:
            return
        from pokeview.screens.prompt import PromptScreen

        frame = self.frames[self.position]
        index = frame.index
        if frame.event_id == END:  # the end has no decision of its own: show the last one
            index = max(0, index - 1)
        self.app.push_screen(PromptScreen(self.store_path, self.game_id, frame.side, index))

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
        if self.from_file is not None:  # a game played here would go with the scratch file
            self.notify(
                f"to play on from a game file, import it first: pokeview import {self.from_file}",
                severity="warning",
                markup=False,
            )
            return
        if game.is_imported_replay:  # no choices, no input log: nothing to replay up to here
            self.notify(
                "an imported Showdown replay keeps no choices: there is no game to play on from",
                severity="warning",
            )
            return
        opponent = game.p2 if side == "p1" else game.p1
        config = game.p2_config if side == "p1" else game.p1_config
        # Nobody to ask (a person, or choices read from an input log): a bot plays it on.
        if config.get("kind") in (PlayerKind.HUMAN, PlayerKind.RECORDED):
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
        back(self.app)

    def on_key(self, event) -> None:  # noqa: ANN001 - Textual's Key event
        if event.character and event.character.isascii() and event.character.isdigit():
            self.typed = (self.typed + event.character)[-3:]
            self._draw_status()
            event.stop()
        elif event.key == "enter" and self.typed and self.replay:
            position = self.replay.position_of_turn(self.view, int(self.typed))
            self.typed = ""
            self._go(position)
            self._draw_status()
            event.stop()
        elif event.key == "backspace" and self.typed:
            self.typed = self.typed[:-1]
            self._draw_status()
            event.stop()


def opening_side(replay: Replay) -> str:
    """Where a game opens: a running game on a side whose reasoning streams (a model's, that
    has streamed already or is a model by name), so a spectator sees it think; else p1."""
    if replay.ended:
        return "p1"
    streamed = [side for side, _ in replay.reasoning]
    if streamed:
        return streamed[-1]
    names = {"p1": replay.game.p1, "p2": replay.game.p2}
    return next((side for side, name in names.items() if name.startswith("llm:")), "p1")


def replay_decisions(replay: Replay, side: str, upto: int) -> list:
    return [d for f in replay.frames[side] if f.index <= upto and (d := replay.decision(f))]
