"""Check a game's whole record against Showdown: its input log re-run gives the stored spectator
log line by line, and the winner and turns the record claims; its player names are those its
players' settings describe (a file's forged winner, turns or names do not pass)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokeview.errors import BattleRefused, PokeviewError
from pokeview.game.bridge import Ending, Start, Step
from pokeview.players.kinds import PlayerKind
from pokeview.sim.client import Bridge
from pokeview.store.rows import GameRow
from pokeview.store.store import Store


@dataclass(slots=True)
class Verdict:
    game_id: int
    ok: bool
    lines: int
    message: str


async def replay_spectator_log(bridge: Bridge, input_log: list[str]) -> list[str]:
    return (await _replay(bridge, input_log)).spectator


async def _replay(bridge: Bridge, input_log: list[str]) -> Step:
    """Showdown's step for the whole input log: its spectator lines and `end` when it ended."""
    channel = await bridge.open(Start(inputlog=input_log, quiet=True))
    try:
        return await channel.next()
    finally:
        channel.close()


ENDED = ("finished", "void")


def outcome_difference(game: GameRow, end: Ending | None) -> str | None:
    """What the record claims of the end (winner, turns) that Showdown's replay does not say."""
    if end is None:
        if game.status in ENDED or game.winner is not None:
            return (
                f"the record says {game.status} (winner {game.winner}), "
                "but its input log does not end the battle"
            )
        return None
    winner, turns = end.winner or "tie", end.turns
    if game.status not in ENDED:
        return f"the record says {game.status}, but its input log ends the battle"
    if game.winner != winner:
        return f"the record says the winner is {game.winner}, Showdown says {winner}"
    if game.turns != turns:
        return f"the record says {game.turns} turns, Showdown says {turns}"
    return None


def described_name(config: dict[str, Any] | None) -> tuple[str, ...] | None:
    """The names a player with these settings goes by, or None when they do not say."""
    if not isinstance(config, dict):
        return None
    kind = config.get("kind")
    for kinds, key, prefix in (
        ((PlayerKind.LLM,), "player", "llm:"),
        ((PlayerKind.SERVER,), "user", "server:"),
        (("replay",), "user", "replay:"),  # an imported replay's player
        ((PlayerKind.HUMAN,), "player", ""),
    ):
        if kind in kinds and isinstance(config.get(key), str):
            return (prefix + config[key],)
    if kind == PlayerKind.BOT and isinstance(config.get("bot"), str):
        return (config["bot"], config["bot"] + ":")  # search:ms=500 is the search bot
    return None


def name_difference(game: GameRow) -> str | None:
    for side, name, config in (("p1", game.p1, game.p1_config), ("p2", game.p2, game.p2_config)):
        names = described_name(config)
        if names is None:
            continue
        if not (name == names[0] or (len(names) > 1 and name.startswith(names[1]))):
            return f"{side} is recorded as {name!r}, but its settings describe {names[0]!r}"
    return None


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
    try:
        step = await _replay(bridge, game.input_log.split("\n"))
    except BattleRefused as exc:  # a line that is not a game's: the other games go on
        return Verdict(game.id, False, len(stored), f"game {game.id}: {exc}")
    diff = first_difference(stored, step.spectator)
    if diff is None:
        wrong = outcome_difference(game, step.end) or name_difference(game)
        if wrong:
            return Verdict(game.id, False, len(stored), f"game {game.id}: {wrong}")
        return Verdict(
            game.id,
            True,
            len(stored),
            f"game {game.id}: {len(stored)} lines identical, winner, turns and names as recorded",
        )
    number, a, b = diff
    return Verdict(
        game.id,
        False,
        len(stored),
        f"game {game.id}: spectator log differs at line {number}: stored {a!r}, Showdown {b!r}",
    )
