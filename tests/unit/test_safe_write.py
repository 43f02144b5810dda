"""Files pokeview writes for a person (exports, the report) are written whole, beside the target,
through a file made for the purpose: nothing planted beside it is followed, and a target that is
not a regular file (a device, a pipe, a link) is refused in one line and left as it was."""

from __future__ import annotations

import os
import stat

import pytest

from pokeview.errors import PokeviewError
from pokeview.safe_write import write_whole
from tests.helpers import build_db, pokeview


def test_a_planted_link_beside_the_target_is_not_followed(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    shared = tmp_path / "shared"
    shared.mkdir()
    for name in ("report.html.part", ".report.html.part", ".report.html.tmp"):
        (shared / name).symlink_to(victim)
    write_whole(shared / "report.html", "<p>report</p>")
    assert victim.read_text() == "precious"
    assert (shared / "report.html").read_text() == "<p>report</p>"
    assert not (shared / "report.html").is_symlink()


@pytest.mark.parametrize("kind", ["fifo", "link", "folder"])
def test_a_target_that_is_not_a_regular_file_is_refused_and_left_alone(tmp_path, kind):
    target = tmp_path / "out"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "link":
        (tmp_path / "elsewhere").write_text("kept")
        target.symlink_to(tmp_path / "elsewhere")
    else:
        target.mkdir()
    with pytest.raises(PokeviewError) as refused:
        write_whole(target, "text")
    assert "\n" not in str(refused.value) and str(target) in str(refused.value)
    if kind == "fifo":
        assert stat.S_ISFIFO(os.lstat(target).st_mode)
    elif kind == "link":
        assert target.is_symlink() and (tmp_path / "elsewhere").read_text() == "kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["out"] + (["elsewhere"] if kind == "link" else [])
    )  # no scratch file left behind


def test_export_to_a_pipe_is_refused_and_the_pipe_stays_a_pipe(tmp_path):
    db = build_db(tmp_path / "x.db")
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    run = pokeview("export", "1", "-o", str(pipe), "--db", str(db))
    assert run.returncode == 2 and "not a regular file" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)


def test_an_existing_regular_file_is_replaced_whole(tmp_path):
    target = tmp_path / "game.json"
    target.write_text("old")
    write_whole(target, "new")
    assert target.read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
