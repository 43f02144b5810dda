"""Small user settings kept between sessions (the theme), in the user config directory.

The app writes them; a file that is broken or of the wrong shape is ignored whole (the defaults
are used and the app says why), never a reason not to start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from pokeview import config_files, paths
from pokeview.errors import PokeviewError
from pokeview.safe_write import write_whole


class Settings(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """pokeview's settings.json, written by the app: what it remembers between sessions."""

    theme: str | None = None  # the name of the theme last chosen


def settings_schema() -> dict[str, Any]:
    """The settings file's JSON schema, for editors (from the same declaration)."""
    return config_files.schema(Settings)


def _file() -> Path:
    return paths.config_dir() / "settings.json"


def read() -> tuple[Settings, str | None]:
    """The settings, and why the file was ignored if it was (None when it is fine or absent)."""
    where = _file()
    if not where.exists():
        return Settings(), None
    try:
        return config_files.convert(
            config_files.read_config(where, "settings file"), Settings, where
        ), None
    except PokeviewError as exc:
        return Settings(), f"the settings were ignored: {exc}"


def load() -> Settings:
    return read()[0]


def save(**changes: Any) -> None:
    data = msgspec.structs.replace(load(), **changes)
    try:
        _file().parent.mkdir(parents=True, exist_ok=True)
        write_whole(_file(), msgspec.json.format(msgspec.json.encode(data), indent=2))
    except (OSError, PokeviewError):
        pass  # a read-only config directory costs only the remembered setting
