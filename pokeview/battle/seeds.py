"""Seeds from text, as PokéBench makes them: SHA-256 of the run's seed text and the pair number.

A game seed (64 hex digits) fixes the battle's random rolls and both random teams; the two games
of a mirror pair share it, with the seats swapped. Bots draw their randomness from it too, per
side and per decision, so a bot game replays byte for byte.
"""

from __future__ import annotations

import hashlib


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def game_seed(seed_text: str, pair: int = 0) -> str:
    return _sha(f"{seed_text}#{pair}")


def battle_seed(seed: str) -> str:
    """The simulator's PRNG seed (Showdown's sodium form takes 32 hex digits)."""
    return "sodium," + _sha(f"{seed}:battle")[:32]


def team_seed(seed: str, side: str) -> str:
    """Random-battle team seed: 'team1' for p1's seat and 'team2' for p2's, in every matchup."""
    team = "team1" if side == "p1" else "team2"
    return "sodium," + _sha(f"{seed}:{team}")[:32]


def decision_seed(seed: str, side: str, index: int) -> int:
    # The first 16 hex digits as a number: the digest's first 8 bytes, read big-endian.
    digest = hashlib.sha256(f"{seed}:{side}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
