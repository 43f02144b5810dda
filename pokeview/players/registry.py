"""Player kinds, declared once: what a player spec names, how it is written, what it is and how
it is made. `--help` of every command that takes a player, `pokeview players`, the config checks
and the error for an unknown player all read `KINDS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pokeview.errors import PokeviewError
from pokeview.players.kinds import BOTS, LOOPBACK, PlayerKind

if TYPE_CHECKING:
    from pokeview.players.base import Player
    from pokeview.players.server import ServerOptions


@dataclass(frozen=True)
class Where:
    """What making a player may need besides its spec."""

    players_file: str | Path | None = None
    server: ServerOptions | None = None  # where a server:USER player's local server listens


@dataclass(frozen=True)
class Kind:
    """One kind of player spec."""

    syntax: str  # as typed: "heuristic", "search:ms=N", "llm:NAME"
    description: str  # what it is, for `pokeview players`
    plays_as: PlayerKind  # the `kind` of the players it makes
    matches: Callable[[str], bool]  # whether a (stripped) spec is of this kind
    make: Callable[[str, Where], Player]
    short: str = ""  # a few words after the syntax in `--help` (kinds in a row may share them)


def _bot(spec: str, where: Where) -> Player:
    from pokeview.players.bots import BotPlayer

    return BotPlayer(spec)


def _search(spec: str, where: Where) -> Player:
    from pokeview.players.search import SearchPlayer

    return SearchPlayer(spec)


def _loopback(spec: str, where: Where) -> Player:
    return _model(f"llm:{spec}", where)


def _model(spec: str, where: Where) -> Player:
    from pokeview.players.llm.config import load_players, no_such_model
    from pokeview.players.llm.player import LLMPlayer

    name = spec.removeprefix("llm:")
    models = load_players(where.players_file)
    if name in LOOPBACK and name not in models:
        return LLMPlayer(loopback_spec(name))
    if name not in models:
        raise PokeviewError(no_such_model(name, models, where.players_file))
    models[name].api_key()  # a missing key is said now, not at the first decision
    check_model(models[name])
    return LLMPlayer(models[name])


def _human(spec: str, where: Where) -> Player:
    from pokeview.players.human import HumanPlayer

    return HumanPlayer(spec)


def _server(spec: str, where: Where) -> Player:
    from pokeview.players.server import ServerPlayer

    return ServerPlayer(spec.removeprefix("server:"), where.server)


def _named(name: str) -> Callable[[str], bool]:
    return lambda spec: spec == name or spec.startswith(f"{name}:")


_PREFIXED = ("search:", "llm:", "human:", "server:")  # kinds of their own, never module:Class

KINDS: tuple[Kind, ...] = (
    *(
        Kind(name, f"poke-env's {engine}, in-process", PlayerKind.BOT, name.__eq__, _bot)
        for name, engine in BOTS.items()
    ),
    Kind(
        "search:ms=N",
        "pokeview's search player (a matrix game on Showdown's simulator); its budget is ms=N, "
        "cpu=N or nodes=N, with depth=N and samples=N (`search` alone: ms=200)",
        PlayerKind.BOT,
        _named("search"),
        _search,
        short="search, or search:cpu=N, nodes=N, depth=N, samples=N",
    ),
    *(
        Kind(
            name,
            text,
            PlayerKind.LLM,
            name.__eq__,
            _loopback,
            short="the built-in stand-in model, slowed or under each API; free",
        )
        for name, text in LOOPBACK.items()
    ),
    Kind(
        "human",
        "a person at the play screen (`pokeview play`); human:NAME names them",
        PlayerKind.HUMAN,
        _named("human"),
        _human,
        short="or human:NAME, a person at the play screen",
    ),
    Kind(
        "server:USER",
        "a program logged in to pokeview's local Showdown server as USER (`pokeview server`)",
        PlayerKind.SERVER,
        lambda spec: spec.startswith("server:"),
        _server,
        short="a program on the local server",
    ),
    Kind(
        "module:Class",
        "any poke-env Player subclass, imported and run in-process",
        PlayerKind.BOT,
        lambda spec: ":" in spec and not spec.startswith(_PREFIXED),
        lambda spec, where: outside_player(spec),
        short="a poke-env Player",
    ),
    Kind(
        "llm:NAME",
        "a model player named in the players file (listed below)",
        PlayerKind.LLM,
        lambda spec: spec.startswith("llm:"),
        _model,
        short="a model in the players file",
    ),
)


def kind_of(spec: str) -> Kind | None:
    """The kind a spec names, or None."""
    spec = spec.strip()
    return next((kind for kind in KINDS if kind.matches(spec)), None)


def player_help() -> str:
    """The kinds as `--help` gives them, in one line: "random, ..., server:USER (...)"."""
    parts: list[str] = []
    names: list[str] = []
    for n, kind in enumerate(KINDS):
        names.append(kind.syntax)
        following = KINDS[n + 1] if n + 1 < len(KINDS) else None
        if following is None or following.short != kind.short or not kind.short:
            parts.append(", ".join(names) + (f" ({kind.short})" if kind.short else ""))
            names = []
    return ", ".join(parts[:-1]) + ", or " + parts[-1]


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
    if base_url:  # recorded before credentials in the address were left out
        from pokeview.players.llm.secrets import without_credentials

        kept["base_url"] = without_credentials(base_url)
    return kept


def make_player(
    spec: str, players_file: str | Path | None = None, *, server: ServerOptions | None = None
) -> Player:
    """The player a spec names (its kind is one of `KINDS`); `server` says where a
    `server:USER` player's local server listens and how long to wait on it."""
    spec = spec.strip()
    kind = kind_of(spec)
    if kind is None:
        raise PokeviewError(unknown_kind(spec))
    return kind.make(spec, Where(players_file, server))


_checked: set[tuple[str, str, str, str | None]] = set()


def check_model(spec) -> None:  # spec: ModelSpec
    """A native API's model looked up once per process before it plays; a chat endpoint's
    address only checked to answer at all (not every OpenAI-compatible server has a models
    endpoint)."""
    seen = (spec.api, spec.base_url, spec.model, spec.api_key_env)
    if seen in _checked:
        return
    from pokeview.players.llm.providers import make_provider
    from pokeview.players.llm.providers.base import check_reachable

    if spec.api == "chat":
        check_reachable(spec)
    else:
        make_provider(spec).check_model()
    _checked.add(seen)


def imports_code(spec: str) -> bool:
    """Whether making this player imports a Python module (`module:Class`): importing runs the
    module's code, so a spec read from a record (a game file, a database) is not made so."""
    kind = kind_of(spec)
    return kind is not None and kind.syntax == "module:Class"


def check_spec(spec: str) -> str | None:
    """What is wrong with a spec's kind, without making the player (which may load a model's
    settings or a module): None when its kind is one of `KINDS`."""
    return None if kind_of(spec) is not None else unknown_kind(spec)


def unknown_kind(spec: str) -> str:
    return f"unknown player kind '{spec.strip()}'; choose one of: {player_help()}"


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
    from pokeview.players.bots import BotPlayer

    return BotPlayer(spec, cls)
