"""Player specs as typed on the command line or in a run config, one kind each:

- `random`, `max-damage`, `heuristic`: poke-env's reference bots, in-process;
- `search` (`search:ms=200`, `search:nodes=N`): pokeview's search player;
- `llm:NAME`: a model from the players file; `loopback` (and `loopback-*`): the stand-in model;
- `human` (`human:NAME`): a person at the play screen;
- `module:Class`: any poke-env Player subclass, in-process;
- `server:USER`: a program logged in to the local Showdown server as USER.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pokeview.errors import PokeviewError
from pokeview.players.base import Player
from pokeview.players.bots import BOTS, BotPlayer

if TYPE_CHECKING:
    from pokeview.players.server import ServerOptions

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


def known_kinds() -> list[str]:
    return [*BOTS, "search", *LOOPBACK]


_loopback_server = None


def loopback_spec(name: str = "loopback"):  # -> ModelSpec
    """The built-in stand-in model, served from a thread of this process on a loopback port."""
    global _loopback_server
    from pokeview.players.llm.config import ModelSpec
    from pokeview.players.llm.loopback import LoopbackModel

    if _loopback_server is None:
        _loopback_server = LoopbackModel().start_in_thread()
    api = name.removeprefix("loopback-")
    return ModelSpec(
        name=name,
        base_url=_loopback_server.base_url,
        model=name,
        api=api if api in ("responses", "anthropic", "gemini") else "chat",
        prices={"input": 0.0, "cached_input": 0.0, "cache_write": 0.0, "output": 0.0},  # free
        description=LOOPBACK[name],
        stand_in=True,
    )


def identity(described: dict[str, Any]) -> dict[str, Any]:
    """What makes a player the same player in another process: its settings as `describe()`
    gives them, without what pokeview picks afresh each time (a stand-in's or the local
    server's port), what only prices its play, or words about it."""
    kept = {k: v for k, v in described.items() if k not in ("port", "prices", "description")}
    base_url = str(kept.get("base_url") or "")
    if kept.get("player") == "loopback" and base_url.startswith("http://127.0.0.1:"):
        kept.pop("base_url")  # recorded before stand-ins were marked as such
    kept.pop("stand_in", None)
    return kept


def make_player(
    spec: str, players_file: str | Path | None = None, *, server: ServerOptions | None = None
) -> Player:
    """The player a spec names (the kinds are listed at the top of this module); `server` says
    where a `server:USER` player's local server listens and how long to wait on it."""
    spec = spec.strip()
    if spec in BOTS:
        return BotPlayer(spec)
    if spec == "search" or spec.startswith("search:"):
        from pokeview.players.search import SearchPlayer

        return SearchPlayer(spec)
    if spec == "human" or spec.startswith("human:"):
        from pokeview.players.human import HumanPlayer

        return HumanPlayer(spec)
    if spec.startswith("llm:") or spec in LOOPBACK:
        from pokeview.players.llm.config import load_players, players_path
        from pokeview.players.llm.player import LLMPlayer

        name = spec.removeprefix("llm:")
        models = load_players(players_file)
        if name in LOOPBACK and name not in models:
            return LLMPlayer(loopback_spec(name))
        if name not in models:
            where = players_path(players_file)
            listed = ", ".join(sorted(models)) or "none"
            raise PokeviewError(f"no model player '{name}' in {where} (players there: {listed})")
        models[name].api_key()  # a missing key is said now, not at the first decision
        check_model(models[name])
        return LLMPlayer(models[name])
    if spec.startswith("server:"):
        from pokeview.players.server import ServerPlayer

        return ServerPlayer(spec.removeprefix("server:"), server)
    if ":" in spec and not spec.startswith(("llm:", "human:")):
        return outside_player(spec)
    raise PokeviewError(unknown_kind(spec))


_checked: set[tuple[str, str, str, str | None]] = set()


def check_model(spec) -> None:  # spec: ModelSpec
    """A native API's model looked up once per process before it plays (chat endpoints are not:
    not every OpenAI-compatible server has a models endpoint)."""
    if spec.api == "chat":
        return
    seen = (spec.api, spec.base_url, spec.model, spec.api_key_env)
    if seen in _checked:
        return
    from pokeview.players.llm.providers import make_provider

    make_provider(spec).check_model()
    _checked.add(seen)


def check_spec(spec: str) -> str | None:
    """What is wrong with a spec's kind, without making the player (which may load a model's
    settings or a module): None when `make_player` knows the kind."""
    spec = spec.strip()
    known = (
        spec in BOTS
        or spec in LOOPBACK
        or spec in ("search", "human")
        or spec.startswith(("search:", "human:", "llm:", "server:"))
        or ":" in spec
    )
    return None if known else unknown_kind(spec)


def unknown_kind(spec: str) -> str:
    return (
        f"unknown player kind '{spec}'; choose one of: {', '.join(known_kinds())}, "
        "search:ms=N, llm:NAME, module:Class (a poke-env Player subclass), or server:USER "
        "(a program on the local Showdown server)"
    )


def outside_player(spec: str) -> Player:
    """`module:Class`: any poke-env Player subclass, run in-process without a server."""
    import importlib

    from poke_env.player.player import Player as PokeEnvPlayer

    module_name, _, class_name = spec.partition(":")
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as exc:
        raise PokeviewError(f"cannot load player '{spec}': {exc}") from None
    if not (isinstance(cls, type) and issubclass(cls, PokeEnvPlayer)):
        raise PokeviewError(f"'{spec}' is not a poke-env Player subclass")
    return BotPlayer(spec, cls)
