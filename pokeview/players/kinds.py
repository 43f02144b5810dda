"""The kinds of player, and the built-in names of the bots and the stand-in model: declared
here, below every player, so that each player module and the registry that makes them read one
declaration without importing each other."""

from __future__ import annotations

from enum import StrEnum


class PlayerKind(StrEnum):
    """What plays a side, as `Player.kind` says and the record keeps (`players.kind`)."""

    BOT = "bot"  # answers from the request and the protocol: poke-env's bots, search, module:Class
    LLM = "llm"  # a language model, from a prompt rendered from the side's state
    HUMAN = "human"  # a person at the play screen
    SERVER = "server"  # a program on the local Showdown server: it makes its choices there
    RECORDED = "recorded"  # choices replayed from an input log


# The reference bots, each a poke-env class of `poke_env.player` run in-process.
BOTS = {
    "random": "RandomPlayer",
    "max-damage": "MaxBasePowerPlayer",
    "heuristic": "SimpleHeuristicsPlayer",
}

LOOPBACK = {
    "loopback": "pokeview's loopback test model: scripted answers, not a language model",
    "loopback-slow": (
        "pokeview's loopback test model, slowed down: it streams its reasoning over about three "
        "seconds, so that live viewing can be seen (scripted answers, not a language model)"
    ),
    **{
        f"loopback-{api}": (
            f"pokeview's loopback test model, asked through {what}: scripted answers, not a "
            "language model"
        )
        for api, what in (
            ("responses", "OpenAI's Responses API"),
            ("anthropic", "Anthropic's Messages API"),
            ("gemini", "Gemini's generateContent"),
        )
    },
}
