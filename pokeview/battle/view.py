"""One side's knowledge of a game: a poke-env Battle fed from that side's stream, no server."""

from __future__ import annotations

import logging
from typing import Any

import msgspec
from poke_env.battle.battle import Battle

from pokeview.players.poke_env_data import gen_of

# |player| is skipped: the role is set here, and poke-env would flip it when the seat's name is
# not the username it was given (Pokéval's cases name their players P1 and P2). Chat (`c`, `c:`,
# `chat`) changes nothing in the battle, and poke-env refuses it (Super Staff Bros' Pokémon speak).
_IGNORED = {
    "c",
    "c:",
    "chat",
    "t:",
    "expire",
    "uhtmlchange",
    "tempnotify",
    "tempnotifyoff",
    "request",
    "debug",
    "player",
}
_REQUEST = msgspec.json.Decoder(dict[str, Any]).decode
_quiet = logging.getLogger("pokeview.poke_env")
_quiet.addHandler(logging.NullHandler())
_quiet.setLevel(logging.ERROR)
_quiet.propagate = False


class SideView:
    """A side's protocol lines and requests, fed to a poke-env `Battle` when one is read.

    Parsing into poke-env is most of Python's work per game, and only players built on poke-env
    read the result (a model reads the bridge's snapshots, a person the board, the random bot
    its request): the lines wait until someone asks for `battle`, then are fed in order.
    """

    def __init__(self, side: str, format_id: str, username: str, tag: str = "battle") -> None:
        self.side = side
        self.format_id = format_id
        self.username = username
        self.tag = tag
        self.turn = 0
        self._battle: Battle | None = None
        # Requests wait as the bridge's JSON: most games never parse them, and decoded ones kept
        # for a whole game are thousands of objects the garbage collector walks again and again.
        self._waiting: list[tuple[list[str], msgspec.Raw | None]] = []

    @property
    def battle(self) -> Battle:
        if self._battle is None:
            self._battle = Battle(
                battle_tag=f"{self.tag}-{self.side}",
                username=self.username,
                logger=_quiet,
                gen=gen_of(self.format_id),
            )
            self._battle._format = self.format_id
            self._battle.player_role = self.side
        waiting, self._waiting = self._waiting, []
        for lines, request in waiting:
            self._parse(lines, request)
        return self._battle

    def feed(self, lines: list[str], request: msgspec.Raw | None) -> None:
        """A step's lines and request (JSON, or None), parsed when `battle` is next read."""
        for line in reversed(lines):  # the last turn line counts; it is nearly always last
            if line.startswith("|turn|"):
                self.turn = int(line[6:])
                break
        self._waiting.append((lines, request))

    def _parse(self, lines: list[str], raw_request: msgspec.Raw | None) -> None:
        battle = self._battle
        assert battle is not None
        for line in lines:
            parts = line.split("|")
            if len(parts) < 2 or parts[1] in _IGNORED:
                continue
            if parts[1] == "win":
                battle.won_by(parts[2])
            elif parts[1] == "tie":
                battle.tied()
            else:
                battle.parse_message(parts)
        if raw_request is not None:
            battle.parse_request(_REQUEST(raw_request))
