"""`server:USER`: a program logged in to pokeview's local Showdown server as USER. It makes its
own choices there; `pokeview.exchange.server_game` challenges it and records the game."""

from __future__ import annotations

import os
import re
from typing import Any

from pokeview.errors import PlayerFailed, PokeviewError
from pokeview.players.base import Decision, DecisionContext

DEFAULT_PORT = 8000


class ServerPlayer:
    """`server:USER`: a program logged in to the local server as USER, which pokeview challenges."""

    kind = "server"

    def __init__(self, user: str) -> None:
        if not re.fullmatch(r"[A-Za-z0-9 _.-]{1,18}", user or ""):
            raise PokeviewError(
                f"'{user}' is not a Showdown user name (letters, digits, spaces, _ . -; at most 18)"
            )
        self.user = user
        self.name = f"server:{user}"

    def describe(self) -> dict[str, Any]:
        return {"kind": "server", "user": self.user, "port": server_port()}

    async def decide(self, ctx: DecisionContext) -> Decision:  # never asked: it plays elsewhere
        raise PlayerFailed("a server player makes its own choices on the server")


def server_port() -> int:
    text = os.environ.get("POKEVIEW_SERVER_PORT") or str(DEFAULT_PORT)
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise PokeviewError(f"POKEVIEW_SERVER_PORT={text!r} is not a port (1 to 65535)")
    return int(text)
