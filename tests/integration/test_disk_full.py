"""A run on a disk that fills up: no traceback, one clean line, no game with a hole in its
record, and the database still read while the disk is full. Needs a small tmpfs (root)."""

from __future__ import annotations

import json
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from pokeview.game.decision import BotDetail
from pokeview.store.store import open_store
from tests.helpers import pokeview


@pytest.fixture
def small_disk(tmp_path):
    where = tmp_path / "small"
    where.mkdir()
    if shutil.which("mount") is None:
        pytest.skip("no mount command here")
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=3m", f"pokeview-{uuid.uuid4().hex[:8]}", str(where)],
        capture_output=True,
        text=True,
    )
    if made.returncode != 0:
        pytest.skip(f"cannot mount a 3 MB tmpfs here: {made.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_a_run_that_fills_the_disk_ends_in_one_clean_line_and_leaves_no_hole(tmp_path, small_disk):
    config = tmp_path / "run.toml"
    config.write_text(
        'name = "full"\nseed = "f"\npairs = 60\nconcurrency = 4\n'
        'players = ["random", "max-damage"]\n'
    )
    db = small_disk / "x.db"
    ran = pokeview("run", str(config), "--db", str(db))
    assert "Traceback" not in ran.stderr and "Exception in callback" not in ran.stderr, ran.stderr
    errors = [line for line in ran.stderr.splitlines() if line.startswith("pokeview:")]
    assert ran.returncode != 0 and len(errors) == 1, ran.stderr
    assert "full" in errors[0]
    assert shutil.disk_usage(small_disk).free < 64 * 1024  # still full while it is read
    listed = pokeview("games", "--db", str(db))
    assert listed.returncode == 0 and "Traceback" not in listed.stderr, listed.stderr
    assert "gen9randombattle" in listed.stdout
    checked = pokeview("db", "--check", "--db", str(db))
    assert "Traceback" not in checked.stderr, checked.stderr
    assert checked.returncode == 0 and " 0 damaged" in checked.stdout, checked.stdout
    # A finished bot game's words, left for later and not writable now, are derived to read.
    exported = pokeview("export", "1", "--format", "json", "--db", str(db))
    assert exported.returncode == 0, exported.stderr
    events = json.loads(exported.stdout)["events"]
    sides = [json.loads(e["data"]) for e in events if e["kind"] == "side"]
    assert sides and all(d["text"] and not d.get("later") for d in sides)
    assert Path(db).exists()


def test_a_database_on_a_full_disk_is_still_read_and_a_write_is_one_line(small_disk):
    from tests.helpers import build_db

    db = build_db(small_disk / "x.db")  # closed: its log is gone, and must be made to read it
    with open(small_disk / "filler", "wb") as filler:
        try:
            while True:
                filler.write(b"\0" * 65536)
        except OSError:
            pass
    for argv in (["games"], ["ratings"], ["db", "--check"]):
        done = pokeview(*argv, "--db", str(db))
        assert done.returncode == 0 and "Traceback" not in done.stderr, (argv, done.stderr)
    listed = pokeview("games", "--db", str(db)).stdout
    assert "heuristic" in listed and "max-damage" in listed
    played = pokeview("battle", "--p1", "random", "--p2", "random", "--db", str(db))
    lines = played.stderr.strip().splitlines()
    assert played.returncode == 2 and len(lines) == 1 and "full disk" in lines[0], played.stderr


def test_rows_a_failed_commit_could_not_write_wait_for_the_next_one(small_disk):
    """The commits of one running game fail and succeed in turn as space comes and goes: what
    is committed is always every row up to some point, never later rows over a gap."""
    store = open_store(small_disk / "x.db")
    game = store.create_game(p1="a", p2="b", seed="s", format="gen9randombattle")
    store.commit()
    ballast = small_disk / "ballast"
    written, failures = 0, 0
    try:
        for n in range(400):
            store.add_decision(
                game, side="p1", idx=n, detail=BotDetail(bot_order=uuid.uuid4().hex * 40)
            )
            try:
                store.commit()
            except Exception:
                failures += 1
                if failures == 1:
                    continue  # one more row waits, then space is made
                ballast.unlink(missing_ok=True)
                store.commit()  # everything that waited goes in now
                written = n + 1
                break
            if not ballast.exists() and n == 10:
                # fill what is left, so the next commits fail
                with open(ballast, "wb") as out:
                    try:
                        while True:
                            out.write(b"\0" * 65536)
                            out.flush()
                    except OSError:
                        pass
        assert failures >= 1 and written
        idxs = [d.idx for d in store.decisions(game)]
        assert idxs == list(range(written)), idxs
    finally:
        ballast.unlink(missing_ok=True)
        store.close()
