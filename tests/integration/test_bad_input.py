"""Bad input, one case a line: one clear line on stderr, exit status 2, nothing written.

Each case is the command line (`{bad}` is tests/data/bad, `{tmp}` a fresh folder) and a piece of
the message it must give. The command runs in-process against a database made beforehand; its
row counts must not change.

Here are the cases Showdown's validator judges, in Node; the others are in
tests/unit/test_bad_input.py.
"""

from __future__ import annotations

import pytest

from tests.helpers import bad_input_gives_one_clear_line

CASES = [
    # run configs refused before the run is created
    ("run {bad}/unknown-format.toml", "unknown format 'gen9nosuchformat'"),
    ("run {bad}/later-gen-team.toml", "the Pokémon Koraidon is not in Gen 1 (it first appears in"),
    # custom games with what their generation does not have
    ("battle --p1 random --p2 random --format gen1customgame --team1 {bad}/koraidon.txt",
     "the team for p1: the Pokémon Koraidon is not in Gen 1 (it first appears in Gen 9)"),
    ("battle --p1 random --p2 random --format gen1customgame --team1 {bad}/volt-switch.txt",
     "the move Volt Switch is not in Gen 1 (it first appears in Gen 5)"),
    # input logs whose >start line is JSON but not the options Showdown takes
    ("import {bad}/start-not-object.log", "the >start line of the input log names no format"),
    ("import {bad}/start-format-number.log", "the >start line of the input log names no format"),
]  # fmt: skip


@pytest.mark.parametrize("argv,message", CASES, ids=[c[0][:60] for c in CASES])
def test_bad_input_is_one_clear_line_and_writes_nothing(tmp_path, capsys, argv, message):
    bad_input_gives_one_clear_line(tmp_path, capsys, argv, message)
