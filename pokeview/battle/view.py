"""One side's knowledge of a game: a poke-env Battle fed from that side's stream, no server."""

from __future__ import annotations

import logging
from typing import Any

from poke_env.battle.battle import Battle
from poke_env.data import GenData

# |player| is skipped: the role is set here, and poke-env would flip it when the seat's name is
# not the username it was given (Pokéval's cases name their players P1 and P2).
_IGNORED = {
    "t:",
    "expire",
    "uhtmlchange",
    "tempnotify",
    "tempnotifyoff",
    "request",
    "debug",
    "player",
}
_quiet = logging.getLogger("pokeview.poke_env")
_quiet.addHandler(logging.NullHandler())
_quiet.setLevel(logging.ERROR)
_quiet.propagate = False


def gen_of(format_id: str) -> int:
    try:
        return GenData.from_format(format_id).gen
    except Exception:  # poke-env knows no such generation; its parsing still works for 9
        return 9


class SideView:
    """Feeds a side's protocol lines and requests to a poke-env `Battle`."""

    def __init__(self, side: str, format_id: str, username: str, tag: str = "battle") -> None:
        self.side = side
        self.battle = Battle(
            battle_tag=f"{tag}-{side}", username=username, logger=_quiet, gen=gen_of(format_id)
        )
        self.battle._format = format_id
        self.battle.player_role = side
        self.request: dict[str, Any] | None = None

    @property
    def turn(self) -> int:
        return self.battle.turn

    def feed(self, lines: list[str], request: dict[str, Any] | None) -> None:
        battle = self.battle
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
        if request is not None:
            self.request = request
            battle.parse_request(request)
