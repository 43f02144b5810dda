"""The prompt inspector: one side's whole conversation up to a decision, as `pokeview prompt`
prints it. It opens at that decision's messages (not at the system prompt), steps decision by
decision, highlights every match of a search, and copies the text with one key."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Static, TextArea
from textual.widgets.text_area import TextAreaTheme

from pokeview.board.parts import literal
from pokeview.screens.help import HELP
from pokeview.screens.navigation import back
from pokeview.text import strip_control

SEARCH_THEME = TextAreaTheme(
    "pokeview-search",
    syntax_styles={
        "match": Style(color="black", bgcolor="yellow"),
        "current": Style(color="black", bgcolor="bright_magenta", bold=True),
    },
)


class ConversationText(TextArea):
    """A read-only TextArea that can mark every match of a search."""

    # TextArea's own ^y (redo) took the screen's copy key while the text had the focus; read-only,
    # there is nothing to redo.
    BINDINGS = [Binding("ctrl+y", "screen.copy", show=False)]

    def mark(self, spans: list[tuple[int, int, int]], current: int) -> None:
        """`spans`: (row, start, end) in characters; `current` is the index of the chosen one."""
        # TextArea keeps highlights by row in bytes (for tree-sitter); a search is the same kind.
        self._highlights.clear()
        lines = self.text.split("\n")
        for n, (row, start, end) in enumerate(spans):
            line = lines[row]
            begin = len(line[:start].encode())
            stop = len(line[:end].encode())
            self._highlights[row].append((begin, stop, "current" if n == current else "match"))
        self._line_cache.clear()
        self.refresh()

    def _build_highlight_map(self) -> None:  # no language: keep the search marks
        self._line_cache.clear()


class PromptScreen(Screen[None]):
    CSS_PATH = Path(__file__).with_suffix(".tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        HELP,
        Binding("slash,ctrl+f", "search", "search", id="prompt.search"),
        Binding("n", "next(1)", "next match", id="prompt.next"),
        Binding("N,shift+n", "next(-1)", "previous match", id="prompt.previous", show=False),
        Binding("comma,left_square_bracket", "decision(-1)", "◀ decision", id="prompt.back_one"),
        Binding(
            "full_stop,right_square_bracket", "decision(1)", "decision ▶", id="prompt.forward_one"
        ),
        Binding("y,ctrl+y", "copy", "copy all", id="prompt.copy"),
        Binding("ctrl+end,G", "end", "to the end", id="prompt.end", show=False),
        Binding("ctrl+home,g", "start", "to the start", id="prompt.start", show=False),
        Binding("q,escape", "leave", "back", id="prompt.back"),
    ]

    @dataclass
    class Loaded(Message):
        text: str
        header: str
        decisions: int  # how many decisions the side made
        at: int  # the character where the decision's own messages start

    @dataclass
    class Failed(Message):
        error: str

    def __init__(self, store_path: Path, game_id: int, side: str, decision: int) -> None:
        super().__init__()
        self.store_path, self.game_id, self.side, self.decision = (
            store_path,
            game_id,
            side,
            decision,
        )
        self.text = ""
        self.found_at = -1
        self.decisions = 0

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="head")
        yield Input(placeholder="search the conversation (Enter: next match)", id="search")
        area = ConversationText(
            "", id="text", read_only=True, soft_wrap=True, show_line_numbers=False
        )
        area.register_theme(SEARCH_THEME)
        area.theme = SEARCH_THEME.name
        yield area
        yield Static(id="where")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.title = f"prompt · game {self.game_id} · {self.side}"
        self.query_one("#head", Static).update(f"game {self.game_id} · {self.side} · loading…")
        self.query_one("#text", TextArea).focus()
        self.load(self.decision)

    @work(thread=True, exclusive=True, group="prompt", exit_on_error=False)
    def load(self, decision: int) -> None:
        from pokeview.players.llm.conversation import conversation, format_conversation
        from pokeview.store import open_store

        try:
            store = open_store(self.store_path)
            try:
                game = store.game(self.game_id)
                made = store.decisions(game.id, self.side)
                messages = conversation(store, game.id, self.side, decision) if made else []
            finally:
                store.close()
            if not made:  # an imported replay or log keeps no decisions
                self.post_message(
                    self.Failed(
                        f"{self.side} made no decisions in game {game.id}: "
                        "there is no prompt to show"
                    )
                )
                return
            text = strip_control(format_conversation(messages))
            row = next((d for d in made if d.idx == decision), None)
            player = game.p1 if self.side == "p1" else game.p2
            header = (
                f"game {game.id} · {player} ({self.side}) · decision {decision + 1} of "
                f"{len(made)} · turn {row.turn if row else '?'}"
            )
            marker = f"━━ user · decision {decision + 1},"
            at = max(0, text.find(marker))
            self.post_message(self.Loaded(text, strip_control(header), len(made), at))
        except Exception as exc:  # a missing game or side: said in the screen
            self.post_message(self.Failed(f"could not read the conversation: {exc}"))

    @on(Loaded)
    def loaded(self, message: Loaded) -> None:
        self.text, self.decisions, self.found_at = message.text, message.decisions, -1
        self.query_one("#head", Static).update(Text(message.header, style="bold"))
        area = self.query_one("#text", ConversationText)
        area.load_text(self.text)
        row = self.text.count("\n", 0, message.at)
        area.move_cursor((row, 0))
        # The decision's own messages at the top of the view, the earlier ones above.
        self.call_after_refresh(self._scroll_to_row, row)
        self._where(f"{len(self.text):,} characters · / search · , . decisions · y copy")
        if self.query_one("#search", Input).value:
            self._mark(-1)

    def _scroll_to_row(self, row: int) -> None:
        area = self.query_one("#text", TextArea)
        y = area.wrapped_document.location_to_offset((row, 0)).y
        area.scroll_to(y=y, animate=False, immediate=True)

    @on(Failed)
    def failed(self, message: Failed) -> None:
        self.query_one("#head", Static).update(literal(message.error, "bold red"))

    def _where(self, text: str) -> None:
        self.query_one("#where", Static).update(literal(text))  # holds what the person typed

    def action_decision(self, delta: int) -> None:
        wanted = self.decision + delta
        if not 0 <= wanted < self.decisions:  # none at all: the head says so
            if self.decisions:
                self._where(f"this side made {self.decisions} decisions")
            return
        self.decision = wanted
        self.load(wanted)

    def action_search(self) -> None:
        self.add_class("searching")
        self.query_one("#search", Input).focus()

    @on(Input.Submitted, "#search")
    def searched(self) -> None:
        self.action_next(1)
        self.query_one("#text", TextArea).focus()  # so n finds the next match

    @on(Input.Changed, "#search")
    def typed(self) -> None:
        self.found_at = -1
        self._mark(-1)

    def action_next(self, direction: int = 1) -> None:
        needle = self.query_one("#search", Input).value
        starts = self._starts(needle)
        if not needle or not self.text:
            return
        if not starts:
            self._where(f"no match for {needle!r}")
            self._mark(-1)
            return
        if direction > 0:
            current = next((n for n, s in enumerate(starts) if s > self.found_at), 0)
        else:
            current = next(
                (n for n in range(len(starts) - 1, -1, -1) if starts[n] < self.found_at),
                len(starts) - 1,
            )
        self.found_at = starts[current]
        self._mark(current)
        row, col = self._row_col(self.found_at)
        area = self.query_one("#text", TextArea)
        area.selection = area.selection.__class__((row, col), (row, col + len(needle)))
        area.scroll_cursor_visible(center=True)
        self._where(f"match {current + 1} of {len(starts)} · line {row + 1} · n next, N previous")

    def _starts(self, needle: str) -> list[int]:
        if not needle or not self.text:
            return []
        haystack, needle, starts = self.text.lower(), needle.lower(), []
        at = haystack.find(needle)
        while at >= 0:
            starts.append(at)
            at = haystack.find(needle, at + max(1, len(needle)))
        return starts

    def _row_col(self, at: int) -> tuple[int, int]:
        row = self.text.count("\n", 0, at)
        return row, at - (self.text.rfind("\n", 0, at) + 1)

    def _mark(self, current: int) -> None:
        needle = self.query_one("#search", Input).value
        spans = []
        for start in self._starts(needle):
            row, col = self._row_col(start)
            spans.append((row, col, col + len(needle)))
        self.query_one("#text", ConversationText).mark(spans, current)

    def action_end(self) -> None:
        area = self.query_one("#text", TextArea)
        area.move_cursor(area.document.end)
        area.scroll_end(animate=False)

    def action_start(self) -> None:
        area = self.query_one("#text", TextArea)
        area.move_cursor((0, 0))
        area.scroll_home(animate=False)

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.text)
        self.notify(f"copied {len(self.text):,} characters")

    def action_leave(self) -> None:
        search = self.query_one("#search", Input)
        if search.has_focus:
            self.set_class(bool(search.value), "searching")
            self.query_one("#text", TextArea).focus()
            return
        back(self.app)
