"""JSON schemas of the config files, for editors, from the same declarations that read them; and
of a side's state as the record keeps it (`pokeview/game/side.py`), for other programs.

`python -m pokeview.config_schemas [FOLDER]` writes them to docs/schemas (`make schemas`); a unit
test keeps the committed files equal to what the declarations give. In an editor, point a TOML
file at its schema with a first line `#:schema PATH` (taplo, Even Better TOML) and a JSON file
with `"$schema"` (or the editor's schema settings).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from pokeview import paths
from pokeview.safe_write import write_whole


def _run() -> dict[str, Any]:
    from pokeview.tournament.config import run_schema

    return run_schema()


def _ladder() -> dict[str, Any]:
    from pokeview.tournament.ladder import ladder_schema

    return ladder_schema()


def _players() -> dict[str, Any]:
    from pokeview.players.llm.config import players_schema

    return players_schema()


def _theme() -> dict[str, Any]:
    from pokeview.themes import theme_schema

    return theme_schema()


def _settings() -> dict[str, Any]:
    from pokeview.settings import settings_schema

    return settings_schema()


def _side_state_schema() -> dict[str, Any]:
    from pokeview.config_files import schema
    from pokeview.game.side import SideState

    return schema(SideState)


def _decision_detail() -> dict[str, Any]:
    from pokeview.game.decision import schema

    return schema()


# kind -> its schema: run configs, the players file, theme files, the user's settings, a
# ladder's config as its run row keeps it (written by `pokeview ladder`, not by hand), and a
# side's state as the record's `side` events keep it (docs/record.md)
# decision's detail as the record keeps it (docs/record.md)
SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {
    "run": _run,
    "ladder": _ladder,
    "players": _players,
    "theme": _theme,
    "settings": _settings,
    "side-state": _side_state_schema,
    "decision-detail": _decision_detail,
}
FOLDER = paths.REPO_DIR / "docs" / "schemas"


def schema_text(kind: str) -> str:
    """A config kind's schema as the committed file holds it (and as a command prints it)."""
    return orjson.dumps(SCHEMAS[kind](), option=orjson.OPT_INDENT_2).decode() + "\n"


def file_name(kind: str) -> str:
    return f"{kind}.schema.json"


def write_all(folder: Path = FOLDER) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in SCHEMAS:
        path = folder / file_name(kind)
        write_whole(path, schema_text(kind))
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write_all(Path(sys.argv[1]) if len(sys.argv) > 1 else FOLDER):
        print(path)
