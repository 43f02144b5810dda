"""Output files (`report -o`, `export -o`) are written whole, through no planted name, and never
over something that is not a regular file."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pokeview.cli import main
from pokeview.store import open_store
from tests.helpers import build_db


def report_db(path):
    store = open_store(path)
    store.create_run("shared", {"name": "shared"}, "hash", 0)
    store.close()
    return path


def test_a_planted_part_link_in_a_shared_folder_is_not_written_through(tmp_path, capsys):
    db = report_db(tmp_path / "x.db")
    shared = tmp_path / "shared"
    shared.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")
    (shared / "report.html.part").symlink_to(victim)  # another user of the folder planted it
    assert main(["report", "shared", "-o", str(shared / "report.html"), "--db", str(db)]) == 0
    assert victim.read_text() == "mine"
    assert (shared / "report.html").is_file() and not (shared / "report.html").is_symlink()
    assert "<html" in (shared / "report.html").read_text()
    assert sorted(p.name for p in shared.iterdir()) == ["report.html", "report.html.part"]


@pytest.mark.parametrize("which", ["fifo", "/dev/full", "/dev/null"])
def test_a_target_that_is_not_a_regular_file_is_refused_in_one_line(tmp_path, capsys, which):
    db = build_db(tmp_path / "x.db")
    if which == "fifo":
        target = tmp_path / "fifo"
        os.mkfifo(target)
    else:
        if not os.path.exists(which):
            pytest.skip(f"{which} does not exist here")
        target = Path(which)
    before = os.lstat(target)
    for argv in (
        ["export", "1", "-o", str(target)],
        ["report", "nothing", "-o", str(target)],
    ):
        assert main([*argv, "--db", str(db)]) == 2
        err = capsys.readouterr().err
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "not a regular file" in lines[0], err
    after = os.lstat(target)
    assert stat.S_IFMT(after.st_mode) == stat.S_IFMT(before.st_mode)
    assert after.st_ino == before.st_ino
