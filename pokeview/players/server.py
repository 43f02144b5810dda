"""`server:USER`: a program logged in to pokeview's local Showdown server as USER. It makes its
own choices there; `pokeview.exchange.server_game` challenges it and records the game."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pokeview.errors import PlayerFailed, PokeviewError
from pokeview.players.base import Decision, DecisionContext, Player
from pokeview.players.kinds import PlayerKind
from pokeview.sim.server import HOST_USER

DEFAULT_PORT = 8000
JOIN_WAIT_SECONDS = 120.0  # how long to wait for the outside program to come online
GAME_WAIT_SECONDS = 3600.0  # how long one game there may last


@dataclass(frozen=True)
class ServerOptions:
    """Where the local server listens, and how long pokeview waits on the program there."""

    port: int = DEFAULT_PORT
    join_wait: float = JOIN_WAIT_SECONDS  # to come online and accept the challenge
    game_wait: float = GAME_WAIT_SECONDS  # for the game to end


class ServerPlayer(Player):
    """`server:USER`: a program logged in to the local server as USER, which pokeview challenges."""

    kind = PlayerKind.SERVER

    def __init__(self, user: str, server: ServerOptions | None = None) -> None:
        if not re.fullmatch(r"[A-Za-z0-9 _.-]{1,18}", user or ""):
            raise PokeviewError(
                f"'{user}' is not a Showdown user name (letters, digits, spaces, _ . -; at most 18)"
            )
        if re.sub(r"[^a-z0-9]", "", user.lower()) == HOST_USER:  # as Showdown reads a name
            raise PokeviewError(f"'{user}' is pokeview's own user on its local server")
        self.user = user
        self.name = f"server:{user}"
        self.server = server or ServerOptions()

    def describe(self) -> dict[str, Any]:
        return {"kind": "server", "user": self.user, "port": self.server.port}

    async def decide(self, ctx: DecisionContext) -> Decision:  # never asked: it plays elsewhere
        raise PlayerFailed("a server player makes its own choices on the server")
