"""A running game, opened from anywhere (the command line, the home screen), is followed live:
it opens on the model's side, moves on as the runner plays, and its thinking clock ticks."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sqlite3
import time

from textual.widgets import DataTable

from pokeview.app import make_app
from pokeview.screens.watch import WatchScreen
from pokeview.widgets.decision_pane import DecisionPane
from tests.helpers import text_of
from tests.tui.test_spectate import start_runner, wait_for


def running_model_games(db) -> dict[int, str]:
    """The running games, each with the side the model plays."""
    if not db.exists():
        return {}
    try:
        with contextlib.closing(sqlite3.connect(db)) as conn:
            rows = conn.execute("select id, p1, p2 from games where status = 'running'").fetchall()
    except sqlite3.Error:  # the runner is still creating the file
        return {}
    return {
        game_id: "p1" if p1 == "llm:loopback-slow" else "p2"
        for game_id, p1, p2 in rows
        if "llm:loopback-slow" in (p1, p2)
    }


def thinking_seconds(screen: WatchScreen) -> int | None:
    found = re.search(r"is thinking… (\d+) s", text_of(screen.query_one(DecisionPane)))
    return int(found.group(1)) if found else None


async def follows_live(pilot, screen: WatchScreen, model_side: str) -> None:
    await wait_for(pilot, lambda: screen.replay is not None and screen.frames, "the game")
    assert "LIVE" in screen.sub_title
    assert screen.view == model_side  # the side whose reasoning streams
    frames = len(screen.frames)
    await wait_for(pilot, lambda: len(screen.frames) > frames, "a new decision")
    assert screen.position == len(screen.frames) - 1  # it moved on by itself
    # While the model thinks, its clock ticks (it stood still at the first second it showed).
    await wait_for(pilot, lambda: thinking_seconds(screen) is not None, "the model thinking")
    first = thinking_seconds(screen)
    await wait_for(
        pilot,
        lambda: (thinking_seconds(screen) or 0) > (first or 0) or thinking_seconds(screen) is None,
        "the thinking clock to tick",
        seconds=10,
    )
    # Going back stops following; `l` goes back to live.
    await pilot.press("home")
    assert screen.position == 0
    await pilot.press("l")
    assert screen.position == len(screen.frames) - 1


async def test_a_running_game_is_followed_from_the_command_line_and_the_home_screen(tmp_path):
    config = tmp_path / "run.toml"
    config.write_text(
        'name = "live"\nseed = "follow"\npairs = 1\nplayers = ["random", "llm:loopback-slow"]\n'
    )
    db = tmp_path / "live.db"
    runner = start_runner(config, db)
    try:
        deadline = time.monotonic() + 60
        while len(running_model_games(db)) < 2:
            assert time.monotonic() < deadline, "the runner started no games"
            time.sleep(0.2)
        games = running_model_games(db)
        # `pokeview watch N`: the screen as the command line builds it.
        for game_id, side in games.items():
            app = make_app(db, lambda game_id=game_id: WatchScreen(db, game_id))
            async with app.run_test(size=(120, 36)) as pilot:
                await follows_live(pilot, app.screen, side)
        # The home screen: Enter on a running game.
        from pokeview.screens.home import HomeScreen

        game_id, side = next(iter(games.items()))
        app = make_app(db, lambda: HomeScreen(db))
        async with app.run_test(size=(120, 36)) as pilot:
            table = app.screen.query_one("#games", DataTable)
            await wait_for(pilot, lambda: table.row_count > 0, "the games")
            table.move_cursor(row=table.get_row_index(str(game_id)))
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, WatchScreen), "the viewer")
            await follows_live(pilot, app.screen, side)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(runner.pid, signal.SIGKILL)
        runner.wait()
