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
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pokeview import paths
from pokeview.errors import PokeviewError

PRICE_KEYS = ("input", "cached_input", "cache_write", "output")
TIMEOUT_KEYS = ("connect", "first_token", "total")
KNOWN = {
    "base_url",
    "model",
    "api_key_env",
    "reasoning_effort",
    "prices",
    "timeouts",
    "max_retries",
    "retry_backoff",
    "extra_body",
    "description",
}


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
        if not key:
            raise PokeviewError(
                f"player '{self.name}' reads its API key from ${self.api_key_env}, which is not set"
            )
        return key

    def describe(self) -> dict[str, Any]:
        """Settings stored with each game: everything but the key (only its variable's name)."""
        return {
            "kind": "llm",
            "player": self.name,
            **({"stand_in": True} if self.stand_in else {"base_url": self.base_url}),
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


def load_players(path: str | Path | None = None) -> dict[str, ModelSpec]:
    where = players_path(path)
    if not where.exists():
        return {}
    try:
        data = tomllib.loads(where.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise PokeviewError(f"{where}: {exc}") from None  # the message names line and column
    except OSError as exc:
        raise PokeviewError(f"cannot read the players file {where}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise PokeviewError(f"the players file {where} is not text (UTF-8)") from None
    players = data.get("players", {})
    if not isinstance(players, dict):
        raise PokeviewError(f"{where}: [players] must be a table of players")
    return {name: _spec(where, name, table) for name, table in players.items()}


def _spec(where: Path, name: str, table: Any) -> ModelSpec:
    def bad(what: str) -> PokeviewError:
        return PokeviewError(f"{where}: player '{name}': {what}")

    if not isinstance(table, dict):
        raise bad("must be a table")
    unknown = set(table) - KNOWN
    if unknown:
        raise bad(f"unknown field '{sorted(unknown)[0]}' (known: {', '.join(sorted(KNOWN))})")
    for key in ("base_url", "model"):
        if not isinstance(table.get(key), str) or not table[key]:
            raise bad(f"'{key}' is required and must be text")
    url = urlsplit(table["base_url"])
    if url.scheme not in ("http", "https") or not url.hostname:
        raise bad(
            f"'base_url' must be an http:// or https:// address such as "
            f"https://api.example.com/v1, not {table['base_url']!r}"
        )
    prices = table.get("prices", {})
    if not isinstance(prices, dict) or set(prices) - set(PRICE_KEYS):
        raise bad(f"'prices' takes {', '.join(PRICE_KEYS)} (USD per million tokens)")
    for key, value in prices.items():
        if not isinstance(value, int | float) or value < 0:
            raise bad(f"price '{key}' must be a number of dollars per million tokens")
    timeouts = table.get("timeouts", {})
    if not isinstance(timeouts, dict) or set(timeouts) - set(TIMEOUT_KEYS):
        raise bad(f"'timeouts' takes {', '.join(TIMEOUT_KEYS)} (seconds)")
    if not isinstance(table.get("max_retries", 4), int):
        raise bad("'max_retries' must be a whole number")
    return ModelSpec(
        name=name,
        base_url=table["base_url"].rstrip("/"),
        model=table["model"],
        api_key_env=table.get("api_key_env"),
        reasoning_effort=table.get("reasoning_effort"),
        prices={k: float(v) for k, v in prices.items()},
        timeouts={k: float(v) for k, v in timeouts.items()},
        max_retries=int(table.get("max_retries", 4)),
        retry_backoff=float(table.get("retry_backoff", 2.0)),
        extra_body=dict(table.get("extra_body", {})),
        description=str(table.get("description", "")),
    )
