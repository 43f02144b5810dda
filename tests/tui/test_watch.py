"""The replay viewer driven by keys on a real recorded game."""

from __future__ import annotations

from textual.widgets import RichLog, Static

from pokeview.app import make_app
from pokeview.screens.watch import WatchScreen
from pokeview.widgets.board import Board
from pokeview.widgets.decision_pane import DecisionPane


def text_of(widget) -> str:
    import io

    from rich.console import Console

    console = Console(width=200, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


async def ready(pilot) -> WatchScreen:
    screen = pilot.app.screen
    for _ in range(100):
        await pilot.pause(0.02)
        if isinstance(screen, WatchScreen) and screen.replay is not None:
            return screen
    raise AssertionError("the replay did not load")


async def test_stepping_turns_decisions_first_last_and_go_to_turn(recorded_db):
    app = make_app(recorded_db, ("watch", 1, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        assert screen.position == 0 and screen.frames[0].turn == 1
        assert "Turn 1" in text_of(screen.query_one(Board))
        await pilot.press("right", "right")
        assert screen.frames[screen.position].turn == 3
        assert "Turn 3" in text_of(screen.query_one(Board))
        await pilot.press("left")
        assert screen.frames[screen.position].turn == 2
        before = screen.position
        await pilot.press("full_stop")
        assert screen.position == before + 1
        await pilot.press("comma", "comma")
        assert screen.position == before - 1
        await pilot.press("end")
        assert screen.position == len(screen.frames) - 1
        assert "The game is over" in text_of(screen.query_one(DecisionPane))
        await pilot.press("home")
        assert screen.position == 0
        await pilot.press("1", "2")
        assert "go to turn 12" in text_of(screen.query_one("#status", Static))
        await pilot.press("enter")
        assert screen.frames[screen.position].turn == 12
        log = screen.query_one(RichLog)
        assert any("== Turn 12 ==" in strip.text for strip in log.lines)


async def test_side_switch_shows_each_sides_own_team(recorded_db):
    app = make_app(recorded_db, ("watch", 1, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        p1_board = text_of(screen.query_one(Board))
        assert "heuristic (you)" in p1_board and "max-damage (as seen)" in p1_board
        await pilot.press("s")
        assert screen.view == "p2"
        p2_board = text_of(screen.query_one(Board))
        assert "max-damage (you)" in p2_board and "heuristic (as seen)" in p2_board
        await pilot.press("s")
        assert screen.view == "spectator" and "full team" in text_of(screen.query_one(Board))
        await pilot.press("s")
        assert screen.view == "p1"


async def test_autoplay_moves_forward_and_pauses(recorded_db):
    app = make_app(recorded_db, ("watch", 1, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await pilot.press("plus", "plus", "plus")  # 8 frames a second
        await pilot.press("space")
        assert "playing ×8" in text_of(screen.query_one("#status", Static))
        await pilot.pause(0.6)
        await pilot.press("space")
        moved = screen.position
        assert moved >= 2
        await pilot.pause(0.3)
        assert screen.position == moved  # paused


async def test_a_model_decision_shows_messages_reasoning_and_answer(recorded_db):
    app = make_app(recorded_db, ("watch", 3, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await pilot.press("right")
        pane = text_of(screen.query_one(DecisionPane))
        assert "llm:loopback" in pane and "answer" in pane
        assert "NEW EVENTS" in pane and "reasoning" in pane and "ACTION:" in pane
        assert "tokens" in pane and "cached" in pane
        await pilot.press("c")
        assert "BATTLE LOG" in text_of(screen.query_one(DecisionPane))  # the whole conversation
        # A bot's decision shows the legal actions with the chosen one marked.
        await pilot.press("s")
        bot = text_of(screen.query_one(DecisionPane))
        assert "legal actions" in bot and "▶ " in bot


async def test_prompt_key_opens_the_inspector_with_the_cli_text(recorded_db):
    from pokeview.players.llm.conversation import conversation, format_conversation
    from pokeview.screens.prompt import PromptScreen
    from pokeview.store import open_store

    app = make_app(recorded_db, ("watch", 3, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await pilot.press("right", "right")
        frame = screen.frames[screen.position]
        await pilot.press("p")
        for _ in range(100):
            await pilot.pause(0.02)
            if isinstance(app.screen, PromptScreen) and app.screen.text:
                break
        inspector = app.screen
        store = open_store(recorded_db)
        expected = format_conversation(conversation(store, 3, "p1", frame.index))
        store.close()
        assert inspector.text == expected
        await pilot.press("slash")
        await pilot.press(*"YOUR LEGAL")
        await pilot.press("enter")
        first = inspector.found_at
        assert first >= 0 and inspector.text[first : first + 10].lower() == "your legal"
        await pilot.press("n")
        assert inspector.found_at > first
        await pilot.press("y")
        assert app.clipboard == expected
        await pilot.press("escape")
        assert isinstance(app.screen, WatchScreen)


async def test_an_imported_replay_steps_by_turn_from_either_public_view(tmp_path):
    from tests.test_cli import pokeview
    from tests.test_exchange import play_one

    db = str(tmp_path / "x.db")
    play_one(db, "heuristic", "random", "rv")
    page = tmp_path / "replay.html"
    page.write_text(pokeview("export", "1", "--format", "html", "--db", db).stdout)
    assert pokeview("import", str(page), "--db", db).returncode == 0
    app = make_app(tmp_path / "x.db", ("watch", 2, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await pilot.press("right", "right")
        board = text_of(screen.query_one(Board))
        assert "Turn 3" in board and "(as seen, from the log)" in board
        assert "/100" not in board and "%" in board  # the log shows percentages, not HP figures
        assert "the choices unknown" in text_of(screen.query_one(DecisionPane))
        log = screen.query_one(RichLog)
        assert any("== Turn 3 ==" in strip.text for strip in log.lines)
        await pilot.press("s")  # p2's view: its own Pokémon are sent out with "Go!"
        assert screen.view == "p2"
        assert any(strip.text.startswith("Go! ") for strip in log.lines)


async def test_a_void_game_is_viewable_and_says_it_is_void(bridge, store, loopback):
    from tests.test_games import game
    from tests.test_llm import llm

    result = await game(
        bridge, store, llm(loopback, "loopback-401"), "random", text="void", turn_limit=3
    )
    store.commit()
    app = make_app(store.path, ("watch", result.game_id, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        assert screen.sub_title.startswith(
            "gen9randombattle · void (llm:loopback-401 (p1) was on autopilot for 2 of its 2 "
        )
        assert "first failure: client: HTTP 401" in screen.sub_title
        await pilot.press("end")
        assert "The game is over" in text_of(screen.query_one(DecisionPane))


async def test_a_re_asked_decision_shows_every_attempt(bridge, store, loopback):
    from tests.test_games import game
    from tests.test_llm import llm

    result = await game(
        bridge, store, llm(loopback, "loopback-malformed-once"), "random", text="re", turn_limit=2
    )
    store.commit()
    app = make_app(store.path, ("watch", result.game_id, "p1"))
    async with app.run_test(size=(120, 60)) as pilot:
        screen = await ready(pilot)
        pane = text_of(screen.query_one(DecisionPane))
        assert "re-ask" in pane and "tokens, estimated" in pane
        first, second = pane.index("attempt 1 of 2: reasoning"), pane.index("attempt 2 of 2")
        assert first < pane.index("I think the best move is the strong one.") < second
        assert "asked again: " in pane[first:second]
        assert "ACTION: " in pane[second:]
