"""Spectating a real runner process: new turns and streamed reasoning appear while it plays,
and the spectator keeps working when the runner is killed and started again."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time

from textual.widgets import DataTable

from pokeview.app import make_app
from pokeview.players.llm.loopback import LoopbackModel
from pokeview.screens.spectate import SpectateScreen
from pokeview.screens.watch import WatchScreen
from pokeview.widgets.decision_pane import DecisionPane
from tests.helpers import pokeview, text_of, write_players


def start_runner(config, db):
    return subprocess.Popen(
        [sys.executable, "-m", "pokeview", "run", str(config), "--db", str(db)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=os.environ.copy(),
        start_new_session=True,
    )


def rows(table: DataTable) -> dict[str, list]:
    return {str(table.get_row_at(i)[0]): table.get_row_at(i) for i in range(table.row_count)}


async def wait_for(pilot, condition, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await pilot.pause(0.1)


async def test_spectating_a_running_tournament(tmp_path):
    model = LoopbackModel().start_in_thread()  # its own thread: the runner is another process
    players = write_players(
        tmp_path / "players.toml", model.base_url, slow={"model": "loopback-slow"}
    )
    config = tmp_path / "run.toml"
    config.write_text(
        'name = "live"\nseed = "live"\npairs = 2\nconcurrency = 6\n'
        f'players = ["llm:slow", "random", "heuristic"]\nplayers_file = "{players}"\n'
    )
    db = tmp_path / "live.db"
    runner = start_runner(config, db)
    try:
        deadline = time.monotonic() + 60
        while not db.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        app = make_app(db, lambda: SpectateScreen(db, "live"))
        async with app.run_test(size=(120, 40)) as pilot:
            table = app.screen.query_one("#running", DataTable)
            await wait_for(pilot, lambda: table.row_count > 0, "running games")
            first = {k: int(v[3]) for k, v in rows(table).items()}
            await wait_for(
                pilot,
                lambda: any(int(v[3]) > first.get(k, 99) for k, v in rows(table).items()),
                "a new turn",
            )  # a new turn

            # Open a model game: the reasoning streams in while it thinks.
            model_game = next(
                k for k, v in rows(table).items() if "llm:slow" in (str(v[1]), str(v[2]))
            )
            table.move_cursor(row=list(rows(table)).index(model_game))
            await pilot.press("enter")
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, WatchScreen) and app.screen.replay,
                "the live viewer",
            )
            live = app.screen
            pane = live.query_one(DecisionPane)
            await wait_for(
                pilot,
                lambda: "is thinking" in text_of(pane) and "step 1" in text_of(pane),
                "streamed reasoning",
            )
            seen, at = text_of(pane).count("step "), live.position
            # More of it, or the decision made: the viewer, following, may be on the model's
            # next decision by the time it looks again (a busy machine), with fewer steps yet.
            await wait_for(
                pilot,
                lambda: (
                    text_of(pane).count("step ") > seen
                    or "is thinking" not in text_of(pane)
                    or live.position != at
                ),
                "more reasoning",
            )
            turn = live.frames[live.position].turn
            await wait_for(
                pilot,
                lambda: live.frames[live.position].turn > turn or live.replay.ended,
                "a later turn",
            )
            await pilot.press("escape")

            # Kill the runner; start it again; the spectator follows the resumed games.
            before = set(rows(table))
            os.killpg(runner.pid, signal.SIGKILL)
            runner.wait()
            runner = start_runner(config, db)
            await wait_for(
                pilot, lambda: rows(table) and not (set(rows(table)) & before), "the resumed games"
            )
            resumed = rows(table)
            await wait_for(
                pilot,
                lambda: any(
                    int(v[3]) > int(resumed[k][3]) for k, v in rows(table).items() if k in resumed
                ),
                "a resumed game to move on",
            )
            # Finished games move to the results list, with the run's standings.
            done = app.screen.query_one("#done", DataTable)
            await wait_for(pilot, lambda: done.row_count > 0, "a finished game")
            # (the games the kill interrupted are listed first; a bot game then finishes soon)
            standing = app.screen.query_one("#standings")
            await wait_for(pilot, lambda: "heuristic" in text_of(standing), "the standings")
            assert text_of(standing).startswith("standings: ")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(runner.pid, signal.SIGKILL)
        runner.wait()
        model.stop_thread()


async def test_with_no_run_named_the_latest_runs_results_stay_once_it_is_done(tmp_path):
    config = tmp_path / "small.toml"
    config.write_text(
        'name = "small"\nseed = "small"\npairs = 1\nplayers = ["random", "max-damage"]\n'
    )
    db = tmp_path / "small.db"
    assert pokeview("run", str(config), "--db", str(db)).returncode == 0
    app = make_app(db, lambda: SpectateScreen(db))
    async with app.run_test(size=(120, 40)) as pilot:
        done = app.screen.query_one("#done", DataTable)
        await wait_for(pilot, lambda: done.row_count == 2, "the run's two games")
        standings = text_of(app.screen.query_one("#standings"))
        assert standings.startswith("standings: ") and "max-damage" in standings
        assert "latest run small" in app.screen.sub_title
