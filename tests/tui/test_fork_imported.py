"""`f` (play on from here) on imported games. A Showdown replay keeps no choices and no input
log, so there is nothing to play on from: said at once. A game imported from an input log was
played by `recorded:p1`/`recorded:p2`, which nobody can ask to play on: a bot plays on for the
other side, as for a person's side. Both opened a play screen that stayed empty, "replay:Player 2
is thinking…" (or "recorded:p2 …") for ever."""

from __future__ import annotations

import time

from pokeview.app import make_app
from pokeview.screens.play import PlayScreen
from pokeview.screens.watch import WatchScreen
from tests.helpers import build_db, pokeview, ready


def imported(tmp_path, fmt: str) -> tuple:
    """Game 1 of the recorded games exported as `fmt` and imported again: (database, its id)."""
    db = build_db(tmp_path / "games.db")
    path = tmp_path / f"game.{fmt}"
    written = pokeview("export", "1", "--format", fmt, "-o", str(path), "--db", str(db))
    assert written.returncode == 0, written.stderr
    done = pokeview("import", str(path), "--db", str(db))
    assert done.returncode == 0, done.stderr
    return db, int(done.stdout.split()[-1])


async def until(pilot, condition, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await pilot.pause(0.05)


async def test_play_on_from_an_imported_replay_is_refused_at_once(tmp_path):
    db, game = imported(tmp_path, "html")
    app = make_app(db, lambda: WatchScreen(db, game, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await pilot.press("right", "right", "f")
        await pilot.pause(0.3)
        assert isinstance(app.screen, WatchScreen)
        said = [n.message for n in app._notifications]
        assert any("replay" in m and "play on" in m for m in said), said


async def test_play_on_from_an_imported_input_log_is_against_a_bot(tmp_path):
    db, game = imported(tmp_path, "inputlog")
    app = make_app(db, lambda: WatchScreen(db, game, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await pilot.press("right", "right", "f")
        await until(pilot, lambda: isinstance(app.screen, PlayScreen), "the play screen")
        screen = app.screen
        await until(
            pilot, lambda: screen.ctx is not None or screen.failure is not None, "a decision"
        )
        assert screen.failure is None and screen.opponent_spec == "heuristic"


async def test_play_on_never_imports_a_module_the_record_names(tmp_path, monkeypatch):
    """A game file whose opponent is `module:Class` made `f` import that module, running its
    code (any module on the path: `antigravity` opens a browser). It is refused, and said."""
    import orjson

    from pokeview import paths
    from pokeview.cli import main

    marker = tmp_path / "ran"
    (tmp_path / "mods").mkdir()
    (tmp_path / "mods" / "planted_player.py").write_text(
        f"open({str(marker)!r}, 'w').write('imported')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path / "mods"))
    doc = orjson.loads(
        (paths.recordings_dir() / "loopback-test-model-vs-heuristic.json").read_bytes()
    )
    doc["game"]["p2"] = "planted_player:Bot"
    (tmp_path / "game.json").write_bytes(orjson.dumps(doc))
    db = tmp_path / "games.db"
    assert main(["--db", str(db), "import", str(tmp_path / "game.json")]) == 0
    app = make_app(db, lambda: WatchScreen(db, 1, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await pilot.press("full_stop", "full_stop", "f")
        await until(pilot, lambda: isinstance(app.screen, PlayScreen), "the play screen")
        screen = app.screen
        await until(pilot, lambda: screen.failure is not None, "the refusal")
    assert not marker.exists(), "the record's module was imported"
    assert "a record does not choose code to run" in screen.failure
