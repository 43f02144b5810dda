"""The players file: a TOML file naming each model player.

[players.sonnet]
api = "chat"                                # chat (the default), responses, anthropic, gemini
base_url = "https://api.example.com/v1"     # an OpenAI-compatible endpoint (native APIs: optional)
model = "provider-model-id"
api_key_env = "EXAMPLE_API_KEY"             # the variable holding the key (never the key)
reasoning_effort = "high"                   # sent as reasoning_effort; omit to send nothing
prices = { input = 3.0, cached_input = 0.3, output = 15.0 }   # USD per million tokens
timeouts = { connect = 10, first_token = 300, total = 900 }   # seconds
max_retries = 4
retry_backoff = 2.0
extra_body = { }                            # merged into every request, for provider options
thinking_budget = 8000                      # anthropic, gemini: thinking tokens (else from effort)
max_tokens = 16000                          # anthropic: the answer's ceiling, thinking included
cache_control = true                        # anthropic: cache breakpoints (the default: on)
reasoning_summary = "auto"                  # responses: the reasoning summary asked for
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from pokeview import config_files, paths
from pokeview.errors import PokeviewError
from pokeview.players.llm.secrets import checked_key, url_secrets, without_credentials

PRICE_KEYS = ("input", "cached_input", "cache_write", "output")
TIMEOUT_KEYS = ("connect", "first_token", "total")
NonNegative = Annotated[float, msgspec.Meta(ge=0)]
Positive = Annotated[float, msgspec.Meta(gt=0, le=86_400)]
AN_ADDRESS = "an http:// or https:// address such as https://api.example.com/v1"
Api = Literal["chat", "responses", "anthropic", "gemini"]
# Where each native API is served when the players file names no base_url.
DEFAULT_BASE_URLS = {
    "responses": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com",
    "gemini": "https://generativelanguage.googleapis.com",
}
# The settings only some APIs take, and which (a setting another API would ignore is refused).
API_SETTINGS = {
    "thinking_budget": ("anthropic", "gemini"),
    "max_tokens": ("anthropic", "gemini", "responses"),
    "cache_control": ("anthropic",),
    "reasoning_summary": ("responses",),
}
ANTHROPIC_MIN_THINKING = 1024  # Anthropic refuses a smaller budget_tokens
# reasoning_effort as Anthropic's thinking budget, when thinking_budget is not given.
ANTHROPIC_EFFORT_BUDGETS = {"minimal": 1024, "low": 2048, "medium": 8192, "high": 24576}
GEMINI_THINKING_LEVELS = ("minimal", "low", "medium", "high")  # reasoning_effort as thinkingLevel


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
    api: str = "chat"
    thinking_budget: int | None = None
    max_tokens: int | None = None
    cache_control: bool | None = None
    reasoning_summary: str | None = None
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
            # Only what differs from a chat player's settings, so that a player recorded before
            # there were other APIs is still the same player.
            **({"api": self.api} if self.api != "chat" else {}),
            **{k: getattr(self, k) for k in API_SETTINGS if getattr(self, k) is not None},
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
    """A model player, `[players.NAME]`, played as `llm:NAME`: the model and the API it is asked
    through (`chat`: any OpenAI-compatible chat-completions endpoint; `responses`: OpenAI's
    Responses API; `anthropic`: Anthropic's Messages API; `gemini`: Google's generateContent)."""

    api: Api = "chat"
    base_url: (
        Annotated[
            str,
            msgspec.Meta(
                pattern=r"^https?://[^/\s]+",
                description=AN_ADDRESS,
                extra={"expected": AN_ADDRESS},
            ),
        ]
        | None
    ) = None
    model: Annotated[str, msgspec.Meta(min_length=1)]
    api_key_env: str | None = None
    reasoning_effort: str | None = None
    prices: Prices = msgspec.field(default_factory=Prices)
    timeouts: Timeouts = msgspec.field(default_factory=Timeouts)
    max_retries: Annotated[int, msgspec.Meta(ge=0, le=20)] = 4
    retry_backoff: Annotated[float, msgspec.Meta(ge=0, le=600)] = 2.0
    extra_body: dict[str, Any] = msgspec.field(default_factory=dict)
    description: str = ""
    thinking_budget: Annotated[int, msgspec.Meta(ge=-1, le=1_000_000)] | None = None
    max_tokens: Annotated[int, msgspec.Meta(ge=1, le=1_000_000)] | None = None
    cache_control: bool | None = None
    reasoning_summary: Literal["auto", "concise", "detailed"] | None = None


class PlayersFile(msgspec.Struct, forbid_unknown_fields=True):
    """pokeview's players file: the model players, each a `[players.NAME]` table."""

    players: dict[str, PlayerTable] = msgspec.field(default_factory=dict)


def players_schema() -> dict[str, Any]:
    """The players file's JSON schema, for editors (from the same declaration)."""
    return config_files.schema(PlayersFile)


def no_such_model(name: str, models: dict[str, ModelSpec], path: str | Path | None) -> str:
    """Why a model player cannot be found: no players file at all (a mistyped path), or one
    that does not name it."""
    where = players_path(path)
    if not where.exists():
        return (
            f"no model player '{name}': there is no players file at {where} "
            "(see docs/providers.md, 'The players file')"
        )
    listed = ", ".join(sorted(models)) or "none"
    return f"no model player '{name}' in {where} (players there: {listed})"


def load_players(path: str | Path | None = None) -> dict[str, ModelSpec]:
    where = players_path(path)
    if not where.exists():
        return {}
    data = config_files.read_config(where, "players file")
    declared = config_files.convert(data, PlayersFile, where)
    for name, table in declared.players.items():
        wrong = api_problem(table)
        if wrong:
            raise PokeviewError(f"{where}: players.{config_files._key(name)}.{wrong}")
    return {name: _spec(name, table) for name, table in declared.players.items()}


def api_problem(table: PlayerTable) -> str | None:
    """What this table's API does not take ("key: why"), or None."""
    for key, apis in API_SETTINGS.items():
        if getattr(table, key) is not None and table.api not in apis:
            takes = " or ".join(f'api = "{a}"' for a in apis)
            return f'{key}: not a setting of api = "{table.api}" (only {takes} takes it)'
    if table.api == "chat" and table.base_url is None:
        return 'base_url: required with api = "chat" (the OpenAI-compatible endpoint)'
    effort, budget = table.reasoning_effort, table.thinking_budget
    named = {"anthropic": tuple(ANTHROPIC_EFFORT_BUDGETS), "gemini": GEMINI_THINKING_LEVELS}
    if effort is not None and budget is None and effort not in named.get(table.api, (effort,)):
        choices = ", ".join(f'"{e}"' for e in named[table.api])
        return (
            f'reasoning_effort: expected one of {choices} with api = "{table.api}" '
            f'(or a thinking_budget), got "{effort}"'
        )
    if table.api == "anthropic" and budget is not None and budget < ANTHROPIC_MIN_THINKING:
        return (
            f"thinking_budget: expected at least {ANTHROPIC_MIN_THINKING} "
            f"(Anthropic's minimum budget_tokens), got {budget}"
        )
    if table.api == "anthropic" and budget and table.max_tokens and table.max_tokens <= budget:
        return f"max_tokens: expected more than thinking_budget ({budget}), got {table.max_tokens}"
    return None


def _spec(name: str, table: PlayerTable) -> ModelSpec:
    prices = {k: float(v) for k, v in msgspec.structs.asdict(table.prices).items() if v is not None}
    return ModelSpec(
        name=name,
        base_url=(table.base_url or DEFAULT_BASE_URLS[table.api]).rstrip("/"),
        model=table.model,
        api_key_env=table.api_key_env,
        reasoning_effort=table.reasoning_effort,
        prices=prices,
        timeouts={k: float(v) for k, v in msgspec.structs.asdict(table.timeouts).items()},
        max_retries=table.max_retries,
        retry_backoff=table.retry_backoff,
        extra_body=dict(table.extra_body),
        description=table.description,
        api=table.api,
        thinking_budget=table.thinking_budget,
        max_tokens=table.max_tokens,
        cache_control=table.cache_control,
        reasoning_summary=table.reasoning_summary,
    )
