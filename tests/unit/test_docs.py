"""The README and docs/ say what the code does: every command in the table, no dead link, one Node."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from pokeview.cli import build_parser
from pokeview.sim.install import MIN_NODE_MAJOR
from tests.helpers import ROOT, script

PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
# [text](target) and ![alt](target); a target ends at the first space (a title may follow).
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def commands_script():
    return script("docs/commands.py")


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def test_the_readmes_table_of_commands_is_the_parsers():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = commands_script()
    assert commands.in_readme(readme) == commands.table(), (
        "the README's table of commands is not the parser's: run `make docs`"
    )


def test_the_readmes_table_lists_every_command_and_ladder_action():
    listed = commands_script().in_readme((ROOT / "README.md").read_text(encoding="utf-8"))
    named = set()
    for line in re.findall(r"^\| `pokeview([^`]*)`", listed, re.MULTILINE):
        # The command's words, without its arguments (GAME, [RUN], PLAYER ...).
        named.add(" ".join(w for w in line.split() if re.fullmatch(r"[a-z][a-z-]*", w)))
    wanted = set()
    for name, sub in subcommands(build_parser()).items():
        actions = subcommands(sub)
        wanted |= {f"{name} {action}" for action in actions} if actions else {name}
    assert len(wanted) > 20  # the parser was read, not an empty list
    assert wanted <= named, f"missing from the README's table: {sorted(wanted - named)}"


def test_a_command_missing_from_the_table_is_seen():
    # The comparison the first test makes does fail when the parser has a command the README lacks.
    commands = commands_script()
    parser = build_parser()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    subparsers.add_parser("brand-new", help="a command added after the table was written")
    assert "brand-new" in commands.table(parser)
    assert commands.in_readme(readme) != commands.table(parser)


def headings(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    found = set()
    for title in re.findall(r"^#+\s+(.*?)\s*$", text, re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", title.replace("`", "").lower()).replace(" ", "-")
        found.add(slug)
    return found


def relative_links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return [
        target
        for target in LINK.findall(text)
        if not re.match(r"[a-z][a-z0-9+.-]*:", target)  # https:, mailto:
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_leads_to_a_file_in_the_repository(page):
    dead = []
    for target in relative_links(page):
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        if not where.is_relative_to(ROOT) or not where.exists():
            dead.append(f"{target} (no such file)")
        elif anchor and where.suffix == ".md" and anchor not in headings(where):
            dead.append(f"{target} (no heading #{anchor} in {where.name})")
    assert not dead, f"{page.name}: {dead}"


def test_the_link_check_finds_a_dead_link(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Here\n\nSee [a](missing.md), [b](#here), [c](https://example.org/x.md).\n")
    assert relative_links(page) == ["missing.md", "#here"]
    assert not (tmp_path / "missing.md").exists()
    assert "here" in headings(page)


def test_the_readme_and_the_makefile_ask_for_the_node_the_code_checks_for():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    makefile_header = (ROOT / "Makefile").read_text(encoding="utf-8").split("\n\n")[0]
    wanted = f"Node.js {MIN_NODE_MAJOR}+"
    assert wanted in readme
    assert wanted in makefile_header
    said = set(re.findall(r"Node\.js (\d+)\+", readme + makefile_header))
    assert said == {str(MIN_NODE_MAJOR)}


def test_pokeview_players_with_no_players_points_at_a_page_that_exists(capsys):
    from pokeview.cli import main

    assert main(["players"]) == 0  # the test's own home: no players file
    out = capsys.readouterr().out
    pages = re.findall(r"docs/[\w-]+\.md", out)
    assert pages, out
    assert all((ROOT / page).is_file() for page in pages), out
