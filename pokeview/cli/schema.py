"""`schema`: the JSON schema of a config file, for editors (the same as docs/schemas/)."""

from __future__ import annotations

import argparse
import sys

from pokeview.cli.common import Commands
from pokeview.config_schemas import SCHEMAS, schema_text


def add_schema(commands: Commands) -> None:
    p = commands.add(
        "schema", cmd_schema, "print the JSON schema of a config file (run, players, theme, ...)"
    )
    p.add_argument("kind", choices=list(SCHEMAS), help="which config file")


def cmd_schema(args: argparse.Namespace) -> int:
    sys.stdout.write(schema_text(args.kind))
    return 0
