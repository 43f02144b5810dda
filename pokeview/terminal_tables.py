"""Tables that fit the terminal they are printed on (Rich; no Textual): the command line's.

A table is built with every column, measured, and columns are left out until no cell has to
wrap: first those that say nothing (every cell empty or `-`), then the others in the order the
caller ranks them. Columns ranked 0 are always kept; names are folded, never cut with `…`, in
the last resort where even those do not fit. The columns left out are named under the table.

The width is the terminal's (or `COLUMNS`, as Rich reads it). Printed into a pipe or a file with
no `COLUMNS`, a table has no width to fit: it is printed whole.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from pokeview.terminal import console as control_free_console

UNLIMITED = 10_000  # the width a table is measured at to learn the width it wants
EMPTY = ("", "-")  # what a cell holds when it says nothing


@dataclass(frozen=True)
class Column:
    header: str | Text
    justify: str = "left"
    drop: int = 0  # 0: always kept; otherwise left out when too wide, the highest first


def output_width(console: Console) -> int | None:
    """The width tables fit on this console: COLUMNS, else the terminal's; None on a pipe or a
    file with no COLUMNS (nothing wraps there, so the table is printed whole)."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    return console.width if console.is_terminal else None


def natural_width(console: Console, renderable: RenderableType) -> int:
    options = console.options.update_width(UNLIMITED)
    return Measurement.get(console, options, renderable).maximum


def _says_nothing(rows: Sequence[Sequence[RenderableType]], index: int) -> bool:
    return all(str(row[index]) in EMPTY for row in rows)


def _table(
    columns: Sequence[Column],
    rows: Sequence[Sequence[RenderableType]],
    keep: list[int],
    title: str | Text | None,
) -> Table:
    table = Table(title=title, title_justify="left")
    for i in keep:
        column = columns[i]
        table.add_column(column.header, justify=column.justify, overflow="fold")  # type: ignore[arg-type]
    for row in rows:
        table.add_row(*(row[i] for i in keep))
    return table


@dataclass(frozen=True)
class Fitted:
    renderable: RenderableType  # the table, and the line naming the columns left out
    left_out: list[str]
    fits: bool  # False: even the columns always kept wrap at this width


def fitted_table(
    console: Console,
    width: int | None,
    columns: Sequence[Column],
    rows: Sequence[Sequence[RenderableType]],
    title: str | Text | None = None,
) -> Fitted:
    """The table with the columns that fit in `width` (all of them when None), and a dim line
    naming the columns left out."""
    keep = list(range(len(columns)))
    # The order of leaving out: columns that say nothing first, then by rank.
    order = sorted(
        (i for i, c in enumerate(columns) if c.drop),
        key=lambda i: (not (rows and _says_nothing(rows, i)), -columns[i].drop),
    )
    table = _table(columns, rows, keep, title)
    while width is not None and order and natural_width(console, table) > width:
        keep.remove(order.pop(0))
        table = _table(columns, rows, keep, title)
    fits = width is None or natural_width(console, table) <= width
    left_out = [str(columns[i].header) for i in range(len(columns)) if i not in keep]
    if not left_out:
        return Fitted(table, left_out, fits)
    note = Text(f"left out at {width} columns: {', '.join(left_out)}", style="dim")
    return Fitted(Group(table, note), left_out, fits)


def print_fitted(build: Callable[[Console, int | None], RenderableType]) -> None:
    """Print on standard output what `build(console, width)` makes for the width tables fit
    (on a pipe or a file with no COLUMNS, as wide as it is)."""
    probe = control_free_console()
    width = output_width(probe)
    renderable = build(probe, width)
    shown = width or max(natural_width(probe, renderable), 80)
    control_free_console(width=shown).print(renderable)
