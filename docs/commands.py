"""Writes the README's table of commands from `pokeview`'s own argument parser (`make docs`).

Every command and ladder action, with the help line `pokeview --help` shows for it, so the table
cannot drift from the code: a unit test (tests/unit/test_docs.py) compares the README with what
this gives. Run it again after adding or rewording a command:

    .venv/bin/python docs/commands.py
"""

from __future__ import annotations

import argparse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BEGIN = "<!-- commands: written by docs/commands.py (make docs); do not edit by hand -->"
END = "<!-- /commands -->"
# `pokeview` with no command opens the app (cli.main's default), which the parser does not list.
NO_COMMAND = ("pokeview", "open the app on the database: recorded games, runs, ratings")


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """Each subcommand's name, help line and parser, in the order `--help` lists them."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, sub in action.choices.items():
                found.append((name, helps.get(name, ""), sub))
    return found


def _arguments(parser: argparse.ArgumentParser) -> str:
    """The command's positional arguments as its usage line names them (`GAME`, `[RUN]`)."""
    words = []
    for action in parser._actions:
        if action.option_strings or isinstance(action, argparse._SubParsersAction):
            continue
        name = action.metavar if isinstance(action.metavar, str) else action.dest.upper()
        if action.nargs == "?":
            name = f"[{name}]"
        elif action.nargs == "*":
            name = f"[{name} ...]"
        elif action.nargs == "+":
            name = f"{name} ..."
        words.append(name)
    return "".join(f" {word}" for word in words)


def rows(parser: argparse.ArgumentParser) -> list[tuple[str, str]]:
    """(command line, help) for every command and every action of a command that has actions."""
    found = [NO_COMMAND]
    for name, help, sub in _subcommands(parser):
        actions = _subcommands(sub)
        if not actions:
            found.append((f"pokeview {name}{_arguments(sub)}", help))
        for action, action_help, action_parser in actions:
            found.append((f"pokeview {name} {action}{_arguments(action_parser)}", action_help))
    return found


def table(parser: argparse.ArgumentParser | None = None) -> str:
    if parser is None:
        from pokeview.cli import build_parser

        parser = build_parser()
    lines = ["| command | what it does |", "|---|---|"]
    for command, help in rows(parser):
        text = " ".join(help.split()).replace("|", "\\|")
        lines.append(f"| `{command}` | {text} |")
    return "\n".join(lines) + "\n"


def in_readme(text: str) -> str:
    """The table as the README has it, between its two markers."""
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[start:end].strip("\n") + "\n"


def written_into(text: str, made: str) -> str:
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return f"{text[:start]}\n{made}{text[end:]}"


def main() -> int:
    text = README.read_text(encoding="utf-8")
    new = written_into(text, table())
    if new != text:
        README.write_text(new, encoding="utf-8")
        print(f"wrote the table of commands into {README}")
    else:
        print(f"{README}: the table of commands is up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
