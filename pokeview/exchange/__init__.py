"""Exchange with other tools: pokeview's game files and exports (`files`), and games against
programs on the local Showdown server (`server_game`). Above the game loop: it plays and records
games through `pokeview.battle`, never the other way round."""

from pokeview.exchange.files import (
    FORMAT,
    export_as,
    export_game,
    import_game,
    import_input_log,
    import_json_into_scratch,
)

__all__ = [
    "FORMAT",
    "export_as",
    "export_game",
    "import_game",
    "import_input_log",
    "import_json_into_scratch",
]
