"""Play one side yourself, against a bot or a model, seeing what a player on Showdown sees.

The game runs on the app's event loop (a worker); the person's side is a HumanPlayer whose
decisions this screen answers: a number key, or the arrow keys and Enter (or the mouse) in the
list of legal actions, numbered as a model sees them. A model opponent's reasoning streams into a
pane that stays hidden while the game runs (r shows it, and that is recorded on the game) and is
shown in full at the end. Quitting keeps the game; `pokeview play --resume` continues it.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from pokeview.board.layout import BoardView
from pokeview.board.parts import literal
from pokeview.players.base import DecisionContext
from pokeview.players.human import HumanPlayer
from pokeview.players.kinds import PlayerKind
from pokeview.screens.help import HELP
from pokeview.screens.navigation import back
from pokeview.store import events as ev
from pokeview.store.events import EventKind
from pokeview.store.store import Store
from pokeview.text import strip_control
from pokeview.widgets.battle_column import BattleColumn, DetailKeys
from pokeview.widgets.battle_log import BattleLog
from pokeview.widgets.board import Board
from pokeview.widgets.move_details import action_line
from pokeview.widgets.pokemon_detail import DETAIL_BINDINGS

if TYPE_CHECKING:
    from pokeview.battle.loop import GameResult


class PlayScreen(DetailKeys, Screen[None]):
    CSS_PATH = Path(__file__).with_suffix(".tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        HELP,
        Binding("r", "spoiler", "reasoning", id="play.spoiler"),
        *DETAIL_BINDINGS,
        Binding("q,escape", "leave", "leave (kept)", id="play.leave"),
    ]
    KEY_NOTES: ClassVar[list[tuple[str, str]]] = [
        ("1-9 0", "play that action (a number that could grow waits for Enter or a pause)"),
        ("↑ ↓ Enter", "pick an action from the list; the mouse works too"),
        ("r", "show or hide the opponent's reasoning (recorded on the game)"),
    ]

    DIGIT_PAUSE = 1.0  # seconds
    FOLLOW_SECONDS = 0.3

    @dataclass
    class Reasoned(Message):
        """New pieces of the opponent's streamed reasoning: (decision, attempt, text)."""

        pieces: list[tuple[int, int, str]]

    @dataclass
    class Ended(Message):
        """What the person's side saw, in full, once the game is over."""

        updates: list[ev.Side]

    def __init__(
        self,
        store_path: Path,
        *,
        opponent: str = "heuristic",
        side: str = "p1",
        format: str = "gen9randombattle",
        seed_text: str | None = None,
        resume: int | None = None,
        fork: tuple[int, int, str] | None = None,  # (game id, side event id, original side)
        players_file: str | None = None,
        teams: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.store_path = store_path
        self.opponent_spec, self.side, self.format = opponent, side, format
        self.seed_text, self.resume, self.fork = seed_text, resume, fork
        self.players_file, self.teams = players_file, teams
        self.human = HumanPlayer()
        self.human.on_decision = self.asked
        self.ctx: DecisionContext | None = None
        self.spoiler_at: tuple[int | None, float] | None = None  # revealed, not yet recorded
        self.game_id: int | None = None
        self.store: Store | None = None
        self.result: GameResult | None = None
        self.reveal = False
        self.words: list[tuple[int, str]] = []  # (turn, line) of the battle log so far
        self.turn = 0
        self.typed = ""
        self.pause: Timer | None = None  # a number that could still grow is taken after it
        self.waiting_since = time.monotonic()
        self.reasoning: list[tuple[int, int, str]] = []  # (decision, attempt, text)
        self.thinks = True  # the opponent is a model, whose reasoning streams (and is hidden)
        self.failure: str | None = None  # why the game could not start or go on

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="body"):
            yield BattleColumn(id="left")
            with Vertical(id="right"):
                yield OptionList(id="actions")
                with VerticalScroll(id="reasoning"):
                    yield Static(id="thoughts")
        yield Static(id="status")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        from pokeview.store import open_store

        self.store = open_store(self.store_path)
        self.title = "play"
        self.query_one("#thoughts", Static).update(
            Text("the opponent's reasoning is hidden (r shows it; that is recorded)", style="dim")
        )
        self.set_interval(0.5, self.tick)
        self.play()

    # -- the game ------------------------------------------------------------------------

    @work(exclusive=True, group="game", exit_on_error=False)
    async def play(self) -> None:
        import pokeview.battle.play as battle
        from pokeview.battle.spec import GameSpec
        from pokeview.errors import PokeviewError
        from pokeview.players import make_player
        from pokeview.players.registry import imports_code
        from pokeview.sim.client import Bridge

        store = self.store
        assert store is not None
        bridge = Bridge()
        try:
            if self.resume is not None:  # the person takes the human side again
                game = store.game(self.resume)
                self.side = "p1" if game.p1_config.get("kind") == PlayerKind.HUMAN else "p2"
                self.opponent_spec = game.p2 if self.side == "p1" else game.p1
                self.format = game.format
            elif self.fork is not None:
                self.format = store.game(self.fork[0]).format
            if (self.resume is not None or self.fork is not None) and imports_code(
                self.opponent_spec
            ):
                raise PokeviewError(
                    f"the recorded opponent {self.opponent_spec!r} is a Python module that "
                    "pokeview would import, running its code; a record does not choose code to "
                    f"run: to play against it, name it yourself (pokeview play --vs SPEC)"
                )
            # In a thread: a model's address is checked on the way (a GET, up to its connect
            # timeout), which would freeze the screen on its own event loop.
            opponent = await asyncio.to_thread(make_player, self.opponent_spec, self.players_file)
            if opponent.kind != PlayerKind.LLM:  # a bot reasons in no words: nothing to hide
                self.thinks = False
                self.query_one("#reasoning").display = False
                self.refresh_bindings()
            p1, p2 = (self.human, opponent) if self.side == "p1" else (opponent, self.human)
            if self.resume is not None:
                spec = GameSpec.resuming(store, self.resume, p1, p2)
            elif self.fork is not None:
                spec = GameSpec.forking(store, self.fork[0], self.fork[1], p1, p2)
            else:
                text = self.seed_text or f"play-{int(time.time())}"
                spec = GameSpec.new(self.format, text, p1, p2, teams=self.teams)
            self.sub_title = strip_control(
                f"you ({self.side}) against {opponent.name} · {self.format}"
            )
            async with bridge:
                result = await battle.play(spec, venue=battle.OnBridge(bridge), store=store)
                self.game_id = result.game_id
                self.result = result
                self.finished()  # at once, not after the bridge has closed
        except Exception as exc:  # making the players or the game, or playing it
            self.failure = f"the game could not go on: {exc}"
            self.query_one("#status", Static).update(literal(self.failure, "red"))

    def asked(self, ctx: DecisionContext) -> None:
        """The game loop asks the person for a decision."""
        self._stop_pause()
        self.ctx = ctx
        self.typed = ""
        if self.game_id != ctx.game_id:  # the game is in the record now: follow the opponent
            self.game_id = ctx.game_id
            self.follow_reasoning(ctx.game_id, "p2" if self.side == "p1" else "p1")
        self._record_spoiler()
        state = ctx.updates[-1].state if ctx.updates else None
        names = {self.side: "your team", ("p2" if self.side == "p1" else "p1"): self.opponent_spec}
        self.query_one(Board).show(BoardView(self.side, ctx.turn, state, None, names))
        self._log(ctx.updates)
        actions = self.query_one(OptionList)
        actions.clear_options()
        for number, action in enumerate(ctx.actions, start=1):
            actions.add_option(Option(action_line(number, action.label, state), id=str(number - 1)))
        if ctx.refusal:
            self.notify(f"Showdown refused that: {ctx.refusal}", severity="warning", markup=False)
        # Nothing highlighted: a stray Enter (after a number that was taken at once) picks nothing.
        actions.highlighted = None
        actions.focus()
        self._status()

    def _log(self, updates: list[ev.Side]) -> None:
        words = [w for u in updates for w in u.text]
        for word in words[len(self.words) :]:
            if word.startswith("== Turn "):
                self.turn = int(word.split()[2])
            self.words.append((self.turn, word))
        self.query_one(BattleLog).show(self.words, len(self.words), self.turn)

    def finished(self) -> None:
        result = self.result
        assert result is not None
        self.query_one(OptionList).clear_options()
        mine = result.winner == self.side
        verdict = "You won!" if mine else ("A tie." if result.winner == "tie" else "You lost.")
        if result.status != "finished":
            verdict = f"The game ended in an error: {result.error}"
        self.query_one("#status", Static).update(
            literal(f"{verdict} {result.turns} turns · game {result.game_id} · q to leave", "bold")
        )
        self.reveal = True  # the reasoning is no spoiler any more
        self._thoughts()
        self.read_the_end(result.game_id)

    @work(thread=True, exclusive=True, group="end", exit_on_error=False)
    def read_the_end(self, game_id: int) -> None:
        from pokeview.store import open_store

        try:
            store = open_store(self.store_path)
            try:
                updates = [
                    e.data for e in store.events(game_id, kinds=(EventKind.SIDE,), side=self.side)
                ]
            finally:
                store.close()
        except Exception as exc:  # the game is kept; only its last lines are not shown
            self.notify(
                f"could not read the end of the game: {exc}", severity="warning", markup=False
            )
            return
        self.post_message(self.Ended(updates))

    @on(Ended)
    def show_the_end(self, message: Ended) -> None:
        """The last words, and the board as they left it (the bridge's state at the end)."""
        self._log(message.updates)
        states = [u.state for u in message.updates if u.state is not None]
        if not states or self.result is None:
            return
        state = states[-1]
        names = {self.side: "your team", ("p2" if self.side == "p1" else "p1"): self.opponent_spec}
        turn = self.result.turns or state.turn
        self.query_one(Board).show(BoardView(self.side, turn, state, None, names))

    # -- the person -----------------------------------------------------------------------

    @on(OptionList.OptionSelected, "#actions")
    def picked(self, event: OptionList.OptionSelected) -> None:
        self._choose(int(event.option.id or 0))

    def _choose(self, index: int) -> None:
        self._stop_pause()
        if self.human.choose(index):
            self.ctx = None
            self.typed = ""
            self.query_one(OptionList).clear_options()
            self.waiting_since = time.monotonic()
            self._status()

    def _stop_pause(self) -> None:
        if self.pause is not None:
            self.pause.stop()
            self.pause = None

    def on_key(self, event) -> None:  # noqa: ANN001
        if self.ctx is None:
            return
        if event.key == "enter" and self.typed:  # Enter confirms a number that could still grow
            event.stop()
            self._choose(int(self.typed) - 1)
            return
        if event.key == "backspace" and self.typed:
            event.stop()
            self._stop_pause()
            self.typed = self.typed[:-1]
            self.query_one(OptionList).highlighted = int(self.typed) - 1 if self.typed else None
            self._status()
            return
        if not (event.character and event.character.isascii() and event.character.isdigit()):
            return
        event.stop()
        self._stop_pause()
        count = len(self.ctx.actions)
        self.typed += event.character
        number = int(self.typed)
        # Decide at once when no longer number could be meant; "1" with 13 actions waits for
        # another digit, Enter, or a short pause.
        if number == 0 or number > count:
            self.typed = ""
            self.query_one(OptionList).highlighted = None
        elif number * 10 > count:
            self._choose(number - 1)
            return
        else:
            self.query_one(OptionList).highlighted = number - 1
            self.pause = self.set_timer(self.DIGIT_PAUSE, self._typed_paused)
        self._status()

    def _typed_paused(self) -> None:
        self.pause = None
        if self.typed and self.ctx is not None:
            self._choose(int(self.typed) - 1)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.thinks if action == "spoiler" else True

    def action_spoiler(self) -> None:
        if self.result is None and not self.reveal and self.game_id is not None:
            # Recorded through the game's own recorder, with the person's next decision.
            self.spoiler_at = (self.ctx.turn if self.ctx else None, time.time())
            self._record_spoiler()
        self.reveal = not self.reveal if self.result is None else True
        self._thoughts()

    def _record_spoiler(self) -> None:
        if self.spoiler_at is not None and self.ctx is not None and self.ctx.emit is not None:
            turn, at = self.spoiler_at
            turn = self.ctx.turn if turn is None else turn
            self.ctx.emit(EventKind.SPOILER, ev.Spoiler(turn, at))
            self.spoiler_at = None

    def action_leave(self) -> None:
        if self.result is None and self.game_id is not None:  # said where the app goes on
            self.notify(
                f"game {self.game_id} is kept: Enter on it in the games list, or "
                "`pokeview play --resume`, plays on from where you left",
                title="left the game",
                markup=False,
            )
        back(self.app)

    def on_unmount(self) -> None:
        if self.store is not None:
            self.store.commit()

    # -- the other side -------------------------------------------------------------------

    def tick(self) -> None:
        self._status()

    @work(thread=True, exclusive=True, group="reasoning", exit_on_error=False)
    def follow_reasoning(self, game_id: int, side: str) -> None:
        """Read the opponent's streamed reasoning as it is recorded, off the UI thread."""
        from pokeview.store import open_store

        worker = get_current_worker()
        try:
            store = open_store(self.store_path)
        except Exception:
            return
        seen = 0
        try:
            while not worker.is_cancelled:
                events = store.events(game_id, seen, kinds=(EventKind.REASONING,), side=side)
                if events:
                    seen = events[-1].id
                    self.post_message(
                        self.Reasoned([(e.data.idx, e.data.attempt, e.data.delta) for e in events])
                    )
                elif self.result is not None:
                    return  # the game is over and everything it recorded has been read
                time.sleep(self.FOLLOW_SECONDS)
        finally:
            store.close()

    @on(Reasoned)
    def reasoned(self, message: Reasoned) -> None:
        self.reasoning.extend(message.pieces)
        self._thoughts()

    def _thoughts(self) -> None:
        shown = self.query_one("#thoughts", Static)
        if not self.reveal:
            size = sum(len(piece) for _, _, piece in self.reasoning)
            shown.update(
                Text(
                    f"the opponent's reasoning is hidden ({size:,} characters so far); "
                    "r shows it, and that is recorded",
                    style="dim",
                )
            )
        elif not self.reasoning:
            shown.update(
                Text(
                    "(no reasoning: the opponent is not a model, or it has not thought yet)",
                    style="dim italic",
                )
            )
        else:
            shown.update(reasoning_by_decision(self.reasoning))

    def _status(self) -> None:
        if self.result is not None or self.failure is not None:  # said once, and kept
            return
        status = Text()
        if self.ctx is not None:
            status.append(f"turn {self.ctx.turn} · your move: ", style="bold")
            status.append("type its number, or ↑↓ then Enter")
            if self.typed:
                status.append(f" · {self.typed}▏", style="bold yellow")
        else:
            status.append(
                f"{self.opponent_spec} is thinking… {time.monotonic() - self.waiting_since:.0f} s",
                style="yellow",
            )
        self.query_one("#status", Static).update(status)


def reasoning_by_decision(pieces: list[tuple[int, int, str]]) -> Group:
    """The opponent's reasoning, each decision (and each retried attempt) under its own rule."""
    parts: list[RenderableType] = []
    for (index, attempt), group in groupby(pieces, key=lambda p: (p[0], p[1])):
        title = f"decision {index + 1}" + (f", attempt {attempt + 1}" if attempt else "")
        parts.append(Rule(title, style="dim", align="left"))
        parts.append(literal("".join(piece for _, _, piece in group), "italic"))
    return Group(*parts)
