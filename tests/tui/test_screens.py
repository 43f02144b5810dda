"""Home, ratings, themes and untrusted text, driven with Pilot on real recorded games."""

from __future__ import annotations

import subprocess
import sys
import time

import orjson
from textual.widgets import DataTable, Static

from pokeview.app import make_app
from pokeview.screens.home import HomeScreen
from pokeview.screens.ratings import RatingsScreen
from pokeview.screens.watch import WatchScreen
from tests.helpers import build_db, ready, settle, text_of

EVIL = "[bold red]x[/] [/ \x1b[2J\x07"


async def test_home_lists_searches_and_opens_a_game(recorded_db):
    app = make_app(recorded_db)
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen.query_one("#games", DataTable)
        await settle(pilot, lambda: table.row_count == 3)
        assert [table.get_row_at(i)[0] for i in range(3)] == ["3", "2", "1"]  # newest first
        await pilot.press("slash", *"loopback", "enter")
        await settle(pilot, lambda: table.row_count == 1)
        assert str(table.get_cell("3", "p1")) == "llm:loopback"
        assert "matching 'loopback'" in text_of(app.screen.query_one("#count", Static))
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, WatchScreen))
        screen = await ready(pilot)
        assert screen.game_id == 3
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)


async def test_ratings_screen_fits_off_the_ui_thread_and_draws(recorded_db, monkeypatch):
    import threading

    import pokeview.ratings.summary as summary

    real, threads = summary.build_report, []

    def slow_report(*args, **kwargs):
        threads.append(threading.current_thread())
        time.sleep(0.5)  # a large database: the screen must stay responsive meanwhile
        return real(*args, **kwargs)

    monkeypatch.setattr(summary, "build_report", slow_report)
    app = make_app(recorded_db, lambda: RatingsScreen(recorded_db))
    async with app.run_test(size=(120, 40)) as pilot:
        report = app.screen.query_one("#report", Static)
        await pilot.pause(0.2)
        assert "fitting ratings" in text_of(report)  # drawn while the fit runs
        await settle(pilot, lambda: "head to head" in text_of(report))
        assert threads and threads[0] is not threading.main_thread()
        shown = text_of(report)
        assert "heuristic" in shown and "●" in shown and "95% interval" in shown
        assert "cost, tokens and reliability" in shown
        # What the CLI prints is here too: the interval's bounds, game counts, "(prov.)" said.
        assert "1308 – 1617" in shown and "100% (1)" in shown
        assert "(prov.): provisional, fewer than 16 valid games" in shown


async def test_themes_load_and_the_choice_is_remembered(recorded_db, tmp_path):
    from pokeview import settings
    from pokeview.themes import built_in_themes

    themes = tmp_path / "themes"
    themes.mkdir()
    with built_in_themes() as shipped:
        for name in ("pokeview-dark.json", "pokeview-light.json"):
            (themes / name).write_text((shipped / name).read_text())
    (themes / "broken.json").write_text("{ not json")
    app = make_app(recorded_db, themes_dir=themes)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        assert app.theme == "pokeview-dark"
        assert any("broken.json: not valid JSON" in n.message for n in app._notifications)
        app.theme = "pokeview-light"
        await pilot.pause(0.05)
    assert settings.load().theme == "pokeview-light"
    again = make_app(recorded_db, themes_dir=themes)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        assert again.theme == "pokeview-light"


def plant(doc: dict) -> None:
    """Untrusted text where a model, a player name and the protocol can put it."""
    doc["game"]["p1"] = f"mallory {EVIL}"
    for d in doc["decisions"]:
        detail = orjson.loads(d["detail"])
        if detail.get("answer"):
            detail["answer"] = f"ACTION: 1\nREASON: {EVIL}"
            detail["reasoning"] = f"thinking {EVIL}"
            for message in detail["messages"]:
                if message["role"] == "assistant":
                    message["content"] = detail["answer"]
        d["detail"] = orjson.dumps(detail).decode()


async def test_markup_and_control_characters_are_shown_literally(tmp_path):
    db = build_db(tmp_path / "evil.db", mutate=plant)
    app = make_app(db)
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen.query_one("#games", DataTable)
        await settle(pilot, lambda: table.row_count == 3)
        cell = table.get_cell("1", "p1")
        assert cell.plain == "mallory [bold red]x[/] [/ [2J"  # literal, ESC and BEL removed
        await pilot.press("end", "enter")  # game 1, the oldest
    app = make_app(db, lambda: WatchScreen(db, 3, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await pilot.press("right")
        pane = text_of(screen.query_one("#decision"))
        assert "REASON: [bold red]x[/] [/ [2J" in pane and "thinking [bold red]x[/]" in pane
        assert "\x1b" not in pane and "\x07" not in pane
        assert "mallory [bold red]x[/]" in str(screen.title) and "\x1b" not in str(screen.title)
        await pilot.press("p")
        await settle(pilot, lambda: getattr(app.screen, "text", ""))
        assert "\x1b" not in app.screen.text and "[bold red]x[/]" in app.screen.text


def test_the_core_imports_no_textual():
    core = [
        "pokeview.cli",
        "pokeview.battle.loop",
        "pokeview.battle.replay",
        "pokeview.store",
        "pokeview.players.llm.player",
        "pokeview.tournament.runner",
        "pokeview.ratings.summary",
        "pokeview.ratings.report",
        "pokeview.tournament.ladder_play",
        "pokeview.sim.client",
        "pokeview.exchange",
        "pokeview.showdown_replay",
        "pokeview.exchange.server_game",
        "pokeview.pokeval",
        "pokeview.board.layout",
        "pokeview.site.build",
    ]
    code = (
        ";".join(f"import {m}" for m in core)
        + ";import sys;print([m for m in sys.modules if m.startswith('textual')])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


async def test_the_palette_offers_the_screens_keys(recorded_db):
    from pokeview.commands import ScreenKeys

    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 1, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        provider = ScreenKeys(screen)
        found = [hit async for hit in provider.search("switch side")]
        assert found and found[0].help == "key: s"
        await found[0].command()
        assert screen.view == "p2"
        everything = [hit.text async for hit in provider.discover()]
        assert {"◀ turn", "turn ▶", "play/pause", "prompt (the inspector)"} <= set(everything)
