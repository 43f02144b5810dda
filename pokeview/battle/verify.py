"""Re-run a stored input log in Showdown and compare the spectator log line by line."""

from __future__ import annotations

from dataclasses import dataclass

from pokeview.errors import PokeviewError
from pokeview.sim.client import Bridge
from pokeview.store.store import Store


@dataclass(slots=True)
class Verdict:
    game_id: int
    ok: bool
    lines: int
    message: str


async def replay_spectator_log(bridge: Bridge, input_log: list[str]) -> list[str]:
    channel = await bridge.open({"inputlog": input_log, "quiet": True})
    try:
        step = await channel.next()
    finally:
        channel.close()
    return step.spectator


def first_difference(stored: list[str], replayed: list[str]) -> tuple[int, str, str] | None:
    """1-based line number and both lines where the logs first differ, or None."""
    for number, (a, b) in enumerate(zip(stored, replayed, strict=False), start=1):
        if a != b:
            return number, a, b
    if len(stored) != len(replayed):
        number = min(len(stored), len(replayed)) + 1
        a = stored[number - 1] if number <= len(stored) else "(end of log)"
        b = replayed[number - 1] if number <= len(replayed) else "(end of log)"
        return number, a, b
    return None


async def verify_game(bridge: Bridge, store: Store, game_id: int | str) -> Verdict:
    game = store.game(game_id)
    if not game.input_log:
        raise PokeviewError(f"game {game.id} has no input log (status: {game.status})")
    stored = (game.spectator_log or "").split("\n")
    replayed = await replay_spectator_log(bridge, game.input_log.split("\n"))
    diff = first_difference(stored, replayed)
    if diff is None:
        return Verdict(game.id, True, len(stored), f"game {game.id}: {len(stored)} lines identical")
    number, a, b = diff
    return Verdict(
        game.id,
        False,
        len(stored),
        f"game {game.id}: spectator log differs at line {number}: stored {a!r}, Showdown {b!r}",
    )
