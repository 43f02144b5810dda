"""`players`: the kinds of player pokeview plays (built in, or a model of the players file),
and the players file's schema."""

from __future__ import annotations

import argparse
import os
import sys

from pokeview.cli.common import PLAYERS_HELP, Commands


def add_players(commands: Commands) -> None:
    p = commands.add(
        "players",
        cmd_players,
        "list the players pokeview can play: its own kinds and the models in the players file",
    )
    p.add_argument("--players", metavar="PATH", help=PLAYERS_HELP)
    p.add_argument(
        "--schema", action="store_true", help="print the players file's JSON schema (for editors)"
    )


def cmd_players(args: argparse.Namespace) -> int:
    from pokeview.config_schemas import schema_text
    from pokeview.players.llm.config import load_players, players_path
    from pokeview.players.registry import KINDS
    from pokeview.text import strip_control

    if args.schema:  # as `pokeview schema players`
        sys.stdout.write(schema_text("players"))
        return 0
    where = players_path(args.players)
    models = load_players(args.players)
    print("players pokeview knows (give one to --p1, --p2, --vs, --player or a run config):")
    width = max(len(kind.syntax) for kind in KINDS)
    for kind in KINDS:
        print(f"  {kind.syntax:<{width}}  {kind.description}")
    if not where.exists():
        print(f"no players file at {where} (see docs/providers.md, 'The players file')")
        return 0
    if not models:
        print(f"no model players in {where} (see docs/providers.md, 'The players file')")
        return 0
    print(f"model players in {where}:")
    for spec in models.values():
        key = "no key"
        if spec.api_key_env:
            state = "set" if os.environ.get(spec.api_key_env) else "NOT SET"
            key = f"${spec.api_key_env} {state}"
        # Every price a cost is made of; one missing makes the cost of tokens of its kind unknown.
        # OpenAI's Responses and Gemini cache implicitly and bill no cache writes.
        kinds = [("input", "input"), ("cached_input", "cached input")]
        if spec.api not in ("responses", "gemini") or "cache_write" in spec.prices:
            kinds.append(("cache_write", "cache write"))
        kinds.append(("output", "output"))
        prices = ", ".join(
            f"{what} {spec.prices[k]:g}" if k in spec.prices else f"{what} ? (unknown)"
            for k, what in kinds
        )
        line = (
            f"  llm:{spec.name}  api {spec.api}  model {spec.model}  at {spec.shown_url}  {key}  "
            f"effort {spec.reasoning_effort or '-'}  USD per million tokens: {prices}"
        )
        print(strip_control(line))
    return 0
