"""The players file: a TOML file naming each model player.

[players.sonnet]
base_url = "https://api.example.com/v1"     # an OpenAI-compatible endpoint
model = "provider-model-id"
api_key_env = "EXAMPLE_API_KEY"             # the variable holding the key (never the key)
reasoning_effort = "high"                   # sent as reasoning_effort; omit to send nothing
prices = { input = 3.0, cached_input = 0.3, output = 15.0 }   # USD per million tokens
timeouts = { connect = 10, first_token = 300, total = 900 }   # seconds
max_retries = 4
retry_backoff = 2.0
extra_body = { }                            # merged into every request, for provider options
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import msgspec

from pokeview import config_files, paths
from pokeview.errors import PokeviewError
from pokeview.players.llm.secrets import checked_key, url_secrets, without_credentials

PRICE_KEYS = ("input", "cached_input", "cache_write", "output")
TIMEOUT_KEYS = ("connect", "first_token", "total")
NonNegative = Annotated[float, msgspec.Meta(ge=0)]
Positive = Annotated[float, msgspec.Meta(gt=0, le=86_400)]
AN_ADDRESS = "an http:// or https:// address such as https://api.example.com/v1"


@dataclass(frozen=True)
class ModelSpec:
    name: str
    base_url: str
    model: str
    api_key_env: str | None = None
    reasoning_effort: str | None = None
    prices: dict[str, float] = field(default_factory=dict)  # USD per million tokens
    timeouts: dict[str, float] = field(default_factory=dict)
    max_retries: int = 4
    retry_backoff: float = 2.0
    extra_body: dict[str, Any] = field(default_factory=dict)
    description: str = ""
    # pokeview's own loopback stand-in: its port is chosen afresh by each process, so it is
    # not part of what the player is (nor of what resuming a run compares).
    stand_in: bool = False

    def timeout(self, key: str) -> float:
        defaults = {"connect": 10.0, "first_token": 300.0, "total": 900.0}
        return float(self.timeouts.get(key, defaults[key]))

    def api_key(self) -> str | None:
        if not self.api_key_env:
            return None
        key = os.environ.get(self.api_key_env)
        where = f"player '{self.name}' reads its API key from ${self.api_key_env}"
        if not key:
            raise PokeviewError(f"{where}, which is not set")
        # A `.env` line's or a secret file's newline is dropped; a key no header can carry is
        # refused here, before an HTTP library's error could show it.
        return checked_key(key, where)

    @property
    def shown_url(self) -> str:
        return without_credentials(self.base_url)

    def secrets(self) -> tuple[str, ...]:
        """What texts from the provider are scrubbed of: the key, the address's credentials."""
        key = self.api_key()
        return (*((key,) if key else ()), *url_secrets(self.base_url))

    def describe(self) -> dict[str, Any]:
        """Settings stored with each game: everything but the key (only its variable's name)."""
        return {
            "kind": "llm",
            "player": self.name,
            # a user and password written into the address are not stored (nor shown)
            **({"stand_in": True} if self.stand_in else {"base_url": self.shown_url}),
            "model": self.model,
            "api_key_env": self.api_key_env,
            "reasoning_effort": self.reasoning_effort,
            "prices": self.prices,
            "prompt_version": 3,
            **({"description": self.description} if self.description else {}),
        }


def players_path(path: str | Path | None = None) -> Path:
    if path:
        return Path(path)
    env = os.environ.get("POKEVIEW_PLAYERS")
    return Path(env) if env else paths.config_dir() / "players.toml"


class Prices(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """USD per million tokens; a price left out makes the cost of what it prices unknown."""

    input: NonNegative | None = None
    cached_input: NonNegative | None = None
    cache_write: NonNegative | None = None
    output: NonNegative | None = None


class Timeouts(msgspec.Struct, forbid_unknown_fields=True):
    """Seconds."""

    connect: Positive = 10.0
    first_token: Positive = 300.0
    total: Positive = 900.0


# The players file's only declaration.
class PlayerTable(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A model player, `[players.NAME]`, played as `llm:NAME`: an OpenAI-compatible
    chat-completions endpoint and the model it serves."""

    base_url: Annotated[
        str,
        msgspec.Meta(
            pattern=r"^https?://[^/\s]+",
            description=AN_ADDRESS,
            extra={"expected": AN_ADDRESS},
        ),
    ]
    model: Annotated[str, msgspec.Meta(min_length=1)]
    api_key_env: str | None = None
    reasoning_effort: str | None = None
    prices: Prices = msgspec.field(default_factory=Prices)
    timeouts: Timeouts = msgspec.field(default_factory=Timeouts)
    max_retries: Annotated[int, msgspec.Meta(ge=0, le=20)] = 4
    retry_backoff: Annotated[float, msgspec.Meta(ge=0, le=600)] = 2.0
    extra_body: dict[str, Any] = msgspec.field(default_factory=dict)
    description: str = ""


class PlayersFile(msgspec.Struct, forbid_unknown_fields=True):
    """pokeview's players file: the model players, each a `[players.NAME]` table."""

    players: dict[str, PlayerTable] = msgspec.field(default_factory=dict)


def players_schema() -> dict[str, Any]:
    """The players file's JSON schema, for editors (from the same declaration)."""
    return config_files.schema(PlayersFile)


def load_players(path: str | Path | None = None) -> dict[str, ModelSpec]:
    where = players_path(path)
    if not where.exists():
        return {}
    data = config_files.read_config(where, "players file")
    declared = config_files.convert(data, PlayersFile, where)
    return {name: _spec(name, table) for name, table in declared.players.items()}


def _spec(name: str, table: PlayerTable) -> ModelSpec:
    prices = {k: float(v) for k, v in msgspec.structs.asdict(table.prices).items() if v is not None}
    return ModelSpec(
        name=name,
        base_url=table.base_url.rstrip("/"),
        model=table.model,
        api_key_env=table.api_key_env,
        reasoning_effort=table.reasoning_effort,
        prices=prices,
        timeouts={k: float(v) for k, v in msgspec.structs.asdict(table.timeouts).items()},
        max_retries=table.max_retries,
        retry_backoff=table.retry_backoff,
        extra_body=dict(table.extra_body),
        description=table.description,
    )
