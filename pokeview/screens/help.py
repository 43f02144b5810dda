"""`?`: every key of the screen below, read from the same binding declarations the footer shows
(so the two never disagree), with the screen's notes on keys that are not bindings (digits)."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

HELP = Binding("question_mark", "app.help", "keys", id="help")  # first in every screen's list


def key_rows(screen: Screen) -> list[tuple[str, str]]:
    """(keys, what they do) for the screen's own bindings (those with an id, after the user's
    keymap), in declared order, then the app's few. A key the focused widget binds itself does
    what that widget says (home's runs table: Enter opens the run's ratings, not `watch`)."""
    by_action: dict[str, tuple[list[str], str]] = {}
    app = screen.app
    shadowed = focused_keys(screen)
    for key, bindings in screen._bindings.key_to_bindings.items():
        for b in bindings:
            if not b.id or not b.description:
                continue
            action, description = b.action, b.tooltip or b.description
            if key in shadowed and not b.priority:
                action, description = shadowed[key]
            keys, _ = by_action.setdefault(action, ([], description))
            display = app.get_key_display(b)
            if display not in keys:
                keys.append(display)
    rows = [(" ".join(keys), description) for keys, description in by_action.values()]
    return [*rows, ("^p", "every command, searchable"), ("^q", "quit pokeview")]


def focused_keys(screen: Screen) -> dict[str, tuple[str, str]]:
    """key: (action, what it does) for the described bindings of the focused widget and the
    widgets around it, the nearest first: Textual runs those before the screen's own (unless
    the widget turns the action off: then the key goes on to the screen)."""
    found: dict[str, tuple[str, str]] = {}
    node: DOMNode | None = screen.focused
    while node is not None and node is not screen:
        for key, bindings in node._bindings.key_to_bindings.items():
            for b in bindings:
                on = screen.app._check_action_state(b.action, node)
                if b.description and on and key not in found:
                    found[key] = (f"{node.id}.{b.action}", b.tooltip or b.description)
        node = node.parent
    return found


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 76; max-width: 96%; height: auto; max-height: 90%;
        border: round $accent; padding: 0 1; background: $surface;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", "close", id="help.close"),
    ]

    def __init__(self, below: Screen) -> None:
        super().__init__()
        self.below = below

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold")
        table.add_column()
        for keys, description in key_rows(self.below):
            table.add_row(keys, description)
        notes = getattr(self.below, "KEY_NOTES", ())
        for keys, description in notes:
            table.add_row(keys, description)
        title = Text(f"Keys · {self.below.title or self.below.__class__.__name__}", style="bold")
        with VerticalScroll():
            yield Static(title)
            yield Static(table)
            yield Static(Text("Esc or ? closes this", style="dim"))
