"""Theme files (JSON): Textual themes declared as a typed struct; the built-in ones are package
data in pokeview/theme_files/. A broken file is skipped with one line naming the file and the key,
never fatal, and never half-used: a theme whose colour Textual cannot read would otherwise fail
only when it is chosen."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib.resources import as_file, files
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import msgspec

from pokeview import config_files
from pokeview.errors import PokeviewError

if TYPE_CHECKING:
    from textual.theme import Theme

Color = Annotated[
    str,
    msgspec.Meta(
        description='a colour Textual reads, such as "#E3350D", "rgb(227,53,13)" or "red"',
        extra={"expected": 'a colour such as "#E3350D"'},
    ),
]
COLORS = (
    "primary",
    "secondary",
    "warning",
    "error",
    "success",
    "accent",
    "foreground",
    "background",
    "surface",
    "panel",
    "boost",
)


class ThemeFile(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A pokeview theme (JSON, in pokeview/theme_files/): the fields of a Textual theme."""

    schema: str | None = msgspec.field(default=None, name="$schema")  # for editors
    name: Annotated[str, msgspec.Meta(pattern=r"\S", extra={"expected": "text that is not blank"})]
    primary: Color
    secondary: Color | None = None
    warning: Color | None = None
    error: Color | None = None
    success: Color | None = None
    accent: Color | None = None
    foreground: Color | None = None
    background: Color | None = None
    surface: Color | None = None
    panel: Color | None = None
    boost: Color | None = None
    dark: bool = True
    luminosity_spread: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.15
    text_alpha: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.95
    variables: dict[str, str] = msgspec.field(default_factory=dict)
    ansi: bool = False


def theme_schema() -> dict[str, Any]:
    """A theme file's JSON schema, for editors (from the same declaration)."""
    return config_files.schema(ThemeFile)


def read_theme(path: Path) -> Theme:
    """One theme file as Textual's Theme, or one line naming the file and the key."""
    from textual.color import Color as TextualColor
    from textual.color import ColorParseError
    from textual.theme import Theme

    declared = config_files.convert(config_files.read_config(path, "theme file"), ThemeFile, path)
    for key in COLORS:
        value = getattr(declared, key)
        if value is None:
            continue
        try:
            TextualColor.parse(value)
        except ColorParseError:
            expected = config_files.describe(Color)
            raise PokeviewError(
                f"{path}: {key}: expected {expected}, got {config_files.shown(value)}"
            ) from None
    fields = msgspec.structs.asdict(declared)
    del fields["schema"]
    return Theme(**fields)


@contextmanager
def built_in_themes() -> Iterator[Path]:
    """The folder of the themes shipped in the package (package data, so an installed wheel
    has them too; the repository's top folder is not there once installed)."""
    with as_file(files("pokeview") / "theme_files") as folder:
        yield folder


def load_themes(folder: Path) -> tuple[list[Theme], list[str]]:
    """Every theme in the folder; a broken file is reported and skipped, never fatal."""
    themes, problems = [], []
    for path in sorted(folder.glob("*.json")):
        try:
            themes.append(read_theme(path))
        except PokeviewError as exc:
            problems.append(f"a theme was skipped: {exc}")
    return themes, problems
