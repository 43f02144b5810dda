"""Pokéval diff: each battle's graded log from the pinned Showdown beside the engine's, opened at
the first line where they part, with the turns-matched score."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from pokeview.board.parts import literal
from pokeview.pokeval import Comparison


def score_line(results: list[Comparison]) -> str:
    matched = sum(r.matched for r in results)
    total = sum(r.turns for r in results) or 1
    return (
        f"score {100 * matched / total:.1f}: {matched} of {total} turns matched before the "
        f"first wrong line, over {len(results)} battles"
    )


class DiffScreen(Screen[None]):
    CSS_PATH = "diff.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "battle(1)", "next battle"),
        Binding("p", "battle(-1)", "previous battle"),
        Binding("w", "first_wrong", "first wrong line"),
        Binding("escape,q", "app.back", "back"),
    ]

    def __init__(self, results: list[Comparison], stops: dict[str, str]) -> None:
        super().__init__()
        self.results = results
        self.stops = stops
        self.current = 0

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(score_line(self.results), id="score")
        with Horizontal():
            yield DataTable(id="battles", cursor_type="row", zebra_stripes=True)
            yield DataTable(id="lines", cursor_type="row")
        yield Static(id="full")
        yield Static(id="where")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "pokeview · Pokéval diff"
        battles = self.query_one("#battles", DataTable)
        battles.add_columns("battle", "turns", "≠ at")
        for r in self.results:
            first = "-" if r.first_wrong is None else str(r.first_wrong + 1)
            battles.add_row(literal(r.id), f"{r.matched}/{r.turns}", first)
        if self.results:
            self.show(0)
        self.query_one("#lines", DataTable).focus()

    def on_resize(self) -> None:
        if self.results and self.is_mounted:
            self.show(self.current)

    def _log_width(self) -> int:
        # Both logs get the same width, whatever their longest line: side by side, always.
        return max(16, (self.app.size.width - 36 - 18) // 2)

    def show(self, index: int) -> None:
        self.current = index
        r = self.results[index]
        table = self.query_one("#lines", DataTable)
        table.clear(columns=True)
        width = self._log_width()
        table.add_column("", width=2)
        table.add_column("line", width=5)
        table.add_column("Showdown (pinned)", width=width)
        table.add_column("engine", width=width)
        for i in range(max(len(r.reference), len(r.engine))):
            a = r.reference[i] if i < len(r.reference) else "(end)"
            b = r.engine[i] if i < len(r.engine) else "(end)"
            same = a == b
            mark = Text("  " if same else "≠ ", style="bold red")
            style = "" if same else ("bold red" if i == r.first_wrong else "red")
            table.add_row(mark, Text(str(i + 1), style="dim"), literal(a, style), literal(b, style))
        battles = self.query_one("#battles", DataTable)
        if battles.cursor_row != index:
            battles.move_cursor(row=index)
        where = Text()
        where.append_text(literal(r.id, "bold"))
        if r.first_wrong is None:
            where.append(f": all {len(r.reference)} lines agree ({r.turns} turns)")
        else:
            where.append(
                f": first wrong line {r.first_wrong + 1}; {r.matched} of {r.turns} turns matched"
            )
        if r.id in self.stops:
            where.append("\n")
            where.append_text(literal(self.stops[r.id], "dim"))
        self.query_one("#where", Static).update(where)
        self.action_first_wrong()

    def action_first_wrong(self) -> None:
        r = self.results[self.current] if self.results else None
        if r is None or r.first_wrong is None:
            return
        table = self.query_one("#lines", DataTable)
        table.move_cursor(row=r.first_wrong, scroll=False)

        def centre() -> None:  # the wrong line mid-view, with the lines before it in sight
            half = max(1, table.scrollable_content_region.height // 2)
            table.scroll_to(y=max(0, (r.first_wrong or 0) - half), animate=False)

        self.call_after_refresh(centre)

    def action_battle(self, step: int) -> None:
        if self.results:
            self.show((self.current + step) % len(self.results))

    @on(DataTable.RowHighlighted, "#lines")
    def _full_lines(self, event: DataTable.RowHighlighted) -> None:
        """The highlighted line in full, both logs (the table cuts long lines)."""
        r = self.results[self.current]
        i = event.cursor_row
        full = Text()
        for label, log in (("Showdown", r.reference), ("engine  ", r.engine)):
            full.append(f"{label} {i + 1:>4}  ", style="dim")
            full.append_text(literal(log[i] if i < len(log) else "(end)"))
            full.append("\n")
        self.query_one("#full", Static).update(full[:-1] if full.plain else full)

    @on(DataTable.RowSelected, "#battles")
    @on(DataTable.RowHighlighted, "#battles")
    def _pick(self, event: DataTable.RowSelected | DataTable.RowHighlighted) -> None:
        if event.cursor_row != self.current and 0 <= event.cursor_row < len(self.results):
            self.show(event.cursor_row)
