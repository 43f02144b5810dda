"""A DataTable whose cells are drawn again once their columns have been measured.

Textual 8.2 measures new rows when idle but keys its cell cache without the column's width, so
a row drawn before that measure stays cut at the header's width in a real terminal ("liv" for
"live") until something else changes. Bumping its update count after a measure fixes that."""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.widgets import DataTable


class FittedTable(DataTable):
    async def _on_idle(self, event: events.Idle) -> None:
        measuring = self._require_update_dimensions or bool(self._updated_cells)
        await super()._on_idle(event)
        if measuring:
            self._update_count += 1
            self.refresh()


def choosing(label: str, said: str = "") -> type[FittedTable]:
    """A FittedTable whose Enter is named `label` in the footer (and `said`, when given, in the
    `?` help). DataTable's own Enter binding has no label, and while the table has the focus it
    hides the screen's (`watch`) there."""
    return type(
        "FittedTable",
        (FittedTable,),
        {"BINDINGS": [Binding("enter", "select_cursor", label, tooltip=said)]},
    )
