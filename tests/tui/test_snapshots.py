"""What a person sees, at a fixed size: the home, replay (also at 80x24), keys, prompt and
ratings screens.

Update after a deliberate change with `pytest tests/tui/test_snapshots.py --snapshot-update`
and look at the new SVGs before committing them.
"""

from __future__ import annotations

from pokeview.app import make_app
from pokeview.screens.prompt import PromptScreen
from pokeview.screens.ratings import RatingsScreen
from pokeview.screens.watch import WatchScreen


def test_home(snap_compare, recorded_db):
    assert snap_compare(make_app(recorded_db), terminal_size=(120, 40), run_before=_settle)


def test_replay_of_a_model_game_at_turn_3(snap_compare, recorded_db):
    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 3, "p1"))
    assert snap_compare(app, terminal_size=(120, 40), run_before=_settle, press=["right", "right"])


def test_replay_at_80x24(snap_compare, recorded_db):
    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 3, "spectator"))
    assert snap_compare(app, terminal_size=(80, 24), run_before=_settle, press=["right", "right"])


def test_keys_screen(snap_compare, recorded_db):
    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 3, "p1"))
    assert snap_compare(app, terminal_size=(80, 24), run_before=_settle, press=["question_mark"])


def test_prompt_inspector(snap_compare, recorded_db):
    app = make_app(recorded_db, lambda: PromptScreen(recorded_db, 3, "p1", 1))
    assert snap_compare(app, terminal_size=(120, 40), run_before=_settle)


def test_ratings(snap_compare, recorded_db):
    app = make_app(recorded_db, lambda: RatingsScreen(recorded_db))
    assert snap_compare(app, terminal_size=(120, 40), run_before=_settle)


async def _settle(pilot) -> None:
    await pilot.pause(0.5)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause(0.2)
