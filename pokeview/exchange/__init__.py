"""Exchange with other tools: pokeview's game files and exports (`files`), what a file given to
import is (`imports`), and games against programs on the local Showdown server (`server_game`).
Above the game loop: it plays and records games through `pokeview.battle`, never the other way
round."""

from pokeview.exchange.files import (
    FORMAT,
    export_as,
    export_game,
    game_file_in_scratch,
    import_game,
    import_input_log,
    import_json_into_scratch,
    read_file,
)
from pokeview.exchange.imports import (
    ImportKind,
    import_game_file,
    import_kind,
    import_pokeval_cases,
)

__all__ = [
    "FORMAT",
    "ImportKind",
    "export_as",
    "export_game",
    "game_file_in_scratch",
    "import_game",
    "import_game_file",
    "import_input_log",
    "import_json_into_scratch",
    "import_kind",
    "import_pokeval_cases",
    "read_file",
]
