"""The prompt inspector: one side's whole conversation up to a decision, as `pokeview prompt`
prints it; searchable, and copied to the clipboard with one key."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Static, TextArea
from textual.worker import Worker, WorkerState

from pokeview.text import strip_control
from pokeview.widgets.render import t


class PromptScreen(Screen[None]):
    CSS_PATH = Path(__file__).with_suffix(".tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash,ctrl+f", "search", "search", id="prompt.search"),
        Binding("n", "next", "next match", id="prompt.next"),
        Binding("y,ctrl+y", "copy", "copy all", id="prompt.copy"),
        Binding("escape,q", "leave", "back", id="prompt.back"),
    ]

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

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(placeholder="search the conversation (Enter: next match)", id="search")
        yield TextArea("", id="text", read_only=True, soft_wrap=True, show_line_numbers=False)
        yield Static(id="where")
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"prompt · game {self.game_id} · {self.side} · decision {self.decision + 1}"
        self.query_one("#text", TextArea).focus()
        self.load()

    @work(thread=True, exclusive=True, group="prompt")
    def load(self) -> str:
        from pokeview.players.llm.conversation import conversation, format_conversation
        from pokeview.store import open_store

        store = open_store(self.store_path)
        try:
            return strip_control(
                format_conversation(conversation(store, self.game_id, self.side, self.decision))
            )
        finally:
            store.close()

    @on(Worker.StateChanged)
    def loaded(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "prompt" and event.state == WorkerState.SUCCESS:
            self.text = event.worker.result
            self.query_one("#text", TextArea).load_text(self.text)
            self.query_one("#where", Static).update(
                f"{len(self.text):,} characters · / to search · y to copy"
            )

    def action_search(self) -> None:
        self.query_one("#search", Input).focus()

    @on(Input.Submitted, "#search")
    def searched(self) -> None:
        self.action_next()
        self.query_one("#text", TextArea).focus()  # so n finds the next match

    def action_next(self) -> None:
        needle = self.query_one("#search", Input).value
        if not needle or not self.text:
            return
        at = self.text.lower().find(needle.lower(), self.found_at + 1)
        if at < 0:
            at = self.text.lower().find(needle.lower())  # wrap around
        where = self.query_one("#where", Static)
        if at < 0:
            where.update(t(f"no match for {needle!r}"))
            return
        self.found_at = at
        row = self.text.count("\n", 0, at)
        col = at - (self.text.rfind("\n", 0, at) + 1)
        area = self.query_one("#text", TextArea)
        area.selection = area.selection.__class__((row, col), (row, col + len(needle)))
        area.scroll_cursor_visible(center=True)
        where.update(f"match at line {row + 1}")

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.text)
        self.notify(f"copied {len(self.text):,} characters")

    def action_leave(self) -> None:
        if self.query_one("#search", Input).has_focus:
            self.query_one("#text", TextArea).focus()
            return
        self.app.action_back()
