"""Small user settings kept between sessions (the theme), in the user config directory."""

from __future__ import annotations

import json
from typing import Any

from pokeview import paths


def _file():
    return paths.config_dir() / "settings.json"


def load() -> dict[str, Any]:
    try:
        data = json.loads(_file().read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def save(**changes: Any) -> None:
    data = {**load(), **changes}
    try:
        _file().parent.mkdir(parents=True, exist_ok=True)
        _file().write_text(json.dumps(data, indent=2))
    except OSError:
        pass  # a read-only config directory costs only the remembered setting
