"""Bad input, one case a line: one clear line on stderr, exit status 2, nothing written.

Each case is the command line (`{bad}` is tests/data/bad, `{tmp}` a fresh folder) and a piece of
the message it must give. The command runs in-process against a database made beforehand; its
row counts must not change.

Bad config files (run configs, the players file, themes, settings) are cases of their own, one
file each, in tests/unit/test_bad_configs.py.

The cases Showdown's validator judges (it runs in Node) are in
tests/integration/test_bad_input.py.
"""

from __future__ import annotations

import pytest

from tests.helpers import bad_input_gives_one_clear_line

CASES = [
    # files that are not text
    ("battle --p1 random --p2 random --format gen9customgame --team1 {bad}/binary.txt",
     "the team file {bad}/binary.txt is not text (UTF-8)"),
    ("players --players {bad}/binary.txt", "the players file {bad}/binary.txt is not text"),
    ("battle --p1 llm:x --p2 random --players {bad}/binary.txt", "is not text (UTF-8)"),
    ("run {bad}/binary.txt", "the run config {bad}/binary.txt is not text (UTF-8)"),
    # where an export cannot go
    ("export 1 -o {tmp}", "{tmp} is a folder; give a file name inside it"),
    ("export 1 -o {tmp}/missing/game.json", "the folder {tmp}/missing does not exist"),
    # numbers out of range
    ("run {bad}/ok-run.toml --concurrency -2", "--concurrency -2 is out of range: give 1 to 256"),
    ("server --port 70000", "--port 70000 is out of range: give 1 to 65535"),
    ("battle --p1 random --p2 server:bob --server-port -1", "--server-port -1 is out of range"),
    ("battle --p1 random --p2 server:bob --server-wait 0", "--server-wait 0 is out of range"),
    ("battle --p1 random --p2 server:PokeView-Host", "'PokeView-Host' is pokeview's own user on"),
    ("run {bad}/ok-run.toml --server-wait -5", "--server-wait -5 is out of range: give a number"),
    ("battle --p1 random --p2 random --turn-limit 0", "--turn-limit 0 is out of range: give 1 to"),
    # imported games of the wrong shape
    ("import {bad}/import-game-list.json", "not valid: Expected `object`, got `array` - at `$.game`"),
    ("import {bad}/import-decisions-string.json", "not valid: Expected `array`, got `str` - at `$.decisions`"),
    ("runs --delete nobody", "no run 'nobody'"),
    # `games --limit 0` listed nothing under "N games in ...", and -1 listed every game
    ("games --limit 0", "--limit 0 is out of range: give 1 to 1000000"),
    ("games --limit -1", "--limit -1 is out of range: give 1 to 1000000"),
    # game files that are not there, or not text: the reason in words, not Python's repr
    ("import {tmp}/missing.json", "cannot read {tmp}/missing.json: No such file or directory"),
    ("import {tmp}", "cannot read {tmp}: Is a directory"),
    ("import {bad}/binary.txt", "{bad}/binary.txt is not text (UTF-8)"),
    ("watch {tmp}/missing.json",
     "cannot read the game file {tmp}/missing.json: No such file or directory"),
    # a command that looks up what is recorded, given a database path with no file: nothing is
    # created there
    *[
        (f"{command} --db {{tmp}}/missing.db", "there is no database at {tmp}/missing.db")
        for command in ("db", "games", "watch 1", "prompt 1 --turn 1", "export 1", "verify 1",
                        "runs", "ratings", "report r -o {tmp}/r.html", "ladder show x",
                        "ladder add x random", "ladder play x", "play --resume", "spectate r")
    ],
    # database paths no command can open: said before SQLite is asked, in one line
    ("games --db {tmp}", "{tmp} is a folder; give --db a file name inside it"),
    ("battle --p1 random --p2 random --db {tmp}", "{tmp} is a folder; give --db a file name"),
    ("battle --p1 random --p2 random --db {tmp}/no/such/x.db",
     "the folder {tmp}/no/such for --db does not exist; create it first, or give another path"),
    (f"games --db {{tmp}}/{'n' * 300}.db", f"cannot open the database at {{tmp}}/{'n' * 300}.db: "
                                           "File name too long"),
]  # fmt: skip


@pytest.mark.parametrize("argv,message", CASES, ids=[c[0][:60] for c in CASES])
def test_bad_input_is_one_clear_line_and_writes_nothing(tmp_path, capsys, argv, message):
    bad_input_gives_one_clear_line(tmp_path, capsys, argv, message)
