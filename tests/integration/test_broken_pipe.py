"""A command's output piped into a reader that stops early (`pokeview runs | head -1`) ends
quietly: `runs` and `ladder show`, which print line by line, ended in a BrokenPipeError
traceback (the commands that print through Rich were already quiet)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from pokeview.store import open_store
from tests.helpers import build_db


@pytest.mark.parametrize("argv", [["runs"], ["ladder", "show", "lad"], ["games"]])
def test_a_reader_gone_before_the_output_is_no_traceback(tmp_path, argv):
    db = build_db(tmp_path / "games.db")
    store = open_store(db)
    store.create_run("plain", {"name": "plain"}, "hash", 2)
    store.close()
    made = subprocess.run(
        [sys.executable, "-m", "pokeview", "ladder", "create", "lad", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    read, write = os.pipe()
    os.close(read)  # the reader is gone before a byte is written: every write fails
    try:
        run = subprocess.run(
            [sys.executable, "-m", "pokeview", *argv, "--db", str(db)],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write)
    assert "Traceback" not in run.stderr and "BrokenPipeError" not in run.stderr, run.stderr
    assert run.returncode != 0  # the output was not all written
