"""How a game ended when it did not end by a last faint: named once, in one word, for the
record (`games.ending`, the `end` event), and in words for people.

Showdown's server words the endings it decides in its battle log ("|-message|bob forfeited.",
"|inactive|bob disconnected ...", "|-message|bob lost due to inactivity."); a simulator fed an
input log sees only `>forcelose p2` or `>forcetie`, so the cause is read from the server's log
when there is one.
"""

from __future__ import annotations

FORFEIT = "forfeit"  # the side gave up (/forfeit)
DISCONNECTION = "disconnection"  # the side's program left or crashed, and lost on time
TIMER = "timer"  # the side ran out of time while connected
TURN_LIMIT = "turn limit"  # a tie declared at the game's turn limit
FORCED = "forced"  # the input log ends with >forcelose: a loss decided outside the battle

ENDINGS = (FORFEIT, DISCONNECTION, TIMER, TURN_LIMIT, FORCED)


def from_server_log(lines: list[str]) -> str | None:
    """The ending a Showdown server's battle log words, if it words one."""
    disconnected = False
    for line in lines:
        if line.startswith("|inactive|") and " disconnected" in line:
            disconnected = True
        elif line.startswith("|inactive|") and "reconnected" in line:
            disconnected = False
        elif line.startswith("|-message|") and line.endswith(" forfeited."):
            return FORFEIT
        elif line.startswith("|-message|") and line.endswith(" lost due to inactivity."):
            return DISCONNECTION if disconnected else TIMER
    return None


def describe(ending: str | None, loser: str, turns: int | None) -> str:
    """The ending in words ("bob forfeited"), or "" for an ordinary end."""
    if ending == FORFEIT:
        return f"{loser} forfeited"
    if ending == DISCONNECTION:
        return f"{loser} disconnected (the program left or crashed) and lost on time"
    if ending == TIMER:
        return f"{loser} ran out of time"
    if ending == TURN_LIMIT:
        return f"a tie declared at the turn limit ({turns} turns)"
    if ending == FORCED:
        return f"{loser} was made to lose (>forcelose: a forfeit or a loss on time)"
    return ""


def of_game(
    ending: str | None, winner: str | None, names: dict[str, str], turns: int | None
) -> str:
    """The ending of a game in words, its loser named (`names`: the sides' player names)."""
    loser = {"p1": "p2", "p2": "p1"}.get(winner or "")
    return describe(ending, names.get(loser or "", "a player"), turns)


def spectator_line(ending: str | None, loser: str) -> str | None:
    """The line Showdown's server writes before |win| for this ending, for exported logs."""
    if ending == FORFEIT:
        return f"|-message|{loser} forfeited."
    if ending in (DISCONNECTION, TIMER):
        return f"|-message|{loser} lost due to inactivity."
    return None
