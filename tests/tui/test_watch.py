"""The replay viewer driven by keys on a real recorded game."""

from __future__ import annotations

from functools import partial

from textual.widgets import Static

from pokeview.app import make_app
from pokeview.battle.replay import VIEWS
from pokeview.game.side import SideState
from pokeview.screens.watch import WatchScreen
from pokeview.widgets.battle_log import BattleLog
from pokeview.widgets.board import Board
from pokeview.widgets.decision_pane import DecisionPane
from tests.helpers import build_db, game, llm, play_one, pokeview, ready, settle, text_of


async def test_stepping_turns_decisions_first_last_and_go_to_turn(recorded_db):
    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 1, "p1"))
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
        assert "== Turn 12 ==" in screen.query_one(BattleLog).shown
        # A key giving a digit that is not 0-9 (AZERTY's ², a keypad's ³): not a turn's.
        await pilot.press("²", "³", "enter")  # int("²") raised: the app stopped
        assert screen.frames[screen.position].turn == 12 and screen.typed == ""


async def test_side_switch_shows_each_sides_own_team(recorded_db):
    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 1, "p1"))
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
    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 1, "p1"))
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
    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 3, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await pilot.press("right")
        pane = text_of(screen.query_one(DecisionPane))
        assert "llm:loopback" in pane and "answer" in pane and "ACTION:" in pane
        assert "tokens" in pane and "cached" in pane
        # The decision comes first; the prompt is in the inspector (p), not in the pane.
        assert pane.index("─ reasoning") < pane.index("─ answer") < pane.index("─ legal actions")
        assert "NEW EVENTS" not in pane
        await pilot.press("c")
        assert "BATTLE LOG" in text_of(screen.query_one(DecisionPane))  # the whole conversation
        # A bot's decision shows the legal actions with the chosen one marked.
        await pilot.press("s")
        bot = text_of(screen.query_one(DecisionPane))
        assert "legal actions" in bot and "▶ " in bot


async def test_c_goes_to_the_conversation_below_the_decision(recorded_db):
    """At 80x24 the conversation is below the decision and its legal actions: `c` showed it
    out of sight, with nothing to say it had; now the pane scrolls to its start."""
    from textual.containers import VerticalScroll

    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 3, "p1"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await ready(pilot)
        await pilot.press("right")
        right = screen.query_one("#right", VerticalScroll)
        pane = screen.query_one(DecisionPane)
        await pilot.press("c")
        await settle(pilot, lambda: right.scroll_y > 0)
        line = pane.conversation_line()
        assert line is not None
        # The rule is in view, at the top of the pane's window.
        top = pane.virtual_region.y + pane.gutter.top + line
        assert right.scroll_y <= top < right.scroll_y + right.size.height
        await pilot.press("c")  # hidden again
        await settle(pilot, lambda: pane.conversation_line() is None)


async def test_c_on_a_game_of_two_bots_says_there_is_no_conversation(recorded_db):
    # Game 1 is heuristic vs max-damage.
    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 1, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await pilot.press("right")
        before = text_of(screen.query_one(DecisionPane))
        await pilot.press("c")
        said = [n.message for n in app._notifications]
        assert said == ["no conversation: neither side is a model"], said
        assert not screen.whole and text_of(screen.query_one(DecisionPane)) == before


async def test_prompt_key_opens_the_inspector_with_the_cli_text(recorded_db):
    from pokeview.players.llm.conversation import conversation, format_conversation
    from pokeview.screens.prompt import PromptScreen
    from pokeview.store import open_store

    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 3, "p1"))
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
        app.copy_to_clipboard("")
        await pilot.press("ctrl+y")  # the read-only text has the focus: its Redo took ^y
        assert app.clipboard == expected
        await pilot.press("escape")
        assert isinstance(app.screen, WatchScreen)


async def test_an_imported_replay_steps_by_turn_from_either_public_view(tmp_path):
    db = str(tmp_path / "x.db")
    play_one(db, "heuristic", "random", "rv")
    page = tmp_path / "replay.html"
    page.write_text(pokeview("export", "1", "--format", "html", "--db", db).stdout)
    assert pokeview("import", str(page), "--db", db).returncode == 0
    app = make_app(db, lambda: WatchScreen(db, 2, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await pilot.press("right", "right")
        board = text_of(screen.query_one(Board))
        assert "Turn 3" in board and "(as seen, from the log)" in board
        assert "/100" not in board and "%" in board  # the log shows percentages, not HP figures
        assert "the choices unknown" in text_of(screen.query_one(DecisionPane))
        log = screen.query_one(BattleLog)
        assert "== Turn 3 ==" in log.shown
        await pilot.press("s")  # p2's view: its own Pokémon are sent out with "Go!"
        assert screen.view == "p2"
        assert any(line.startswith("Go! ") for line in log.shown)


async def test_switching_side_on_the_last_frame_stays_on_the_last_frame(recorded_db):
    for game_id in (1, 2, 3):
        app = make_app(recorded_db, partial(WatchScreen, recorded_db, game_id, "p1"))
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await ready(pilot)
            await pilot.press("end")
            for _ in VIEWS:
                await pilot.press("s")
                assert screen.position == len(screen.frames) - 1, (game_id, screen.view)


async def test_a_game_that_ended_in_an_error_says_so_on_its_last_frame(tmp_path):
    def broken(doc):
        doc["game"].update(status="error", winner=None, error="llm:x (p2) failed: [red]boom[/]")

    db = build_db(tmp_path / "err.db", broken)
    app = make_app(db, lambda: WatchScreen(db, 1, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        await pilot.press("end")
        pane = text_of(screen.query_one(DecisionPane))
        assert "ended in an error" in pane and "failed: [red]boom[/]" in pane


async def test_a_missing_game_is_said_in_the_screen(recorded_db):
    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 999))
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(100):
            await pilot.pause(0.02)
            if "could not load" in text_of(app.screen.query_one("#status")):
                break
        assert "could not load game 999" in text_of(app.screen.query_one("#status"))
        assert app.is_running and isinstance(app.screen, WatchScreen)


async def test_the_decision_pane_keeps_its_scroll_while_the_decision_is_the_same(recorded_db):
    # p1 is the model: long decisions
    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 3, "p1"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await ready(pilot)
        right = screen.query_one("#right")
        await pilot.press("full_stop")
        await pilot.pause()
        right.scroll_to(y=5, animate=False, immediate=True)
        screen.redraw()  # what news from a live game does
        await pilot.press("c", "c")  # shown and hidden again: the same decision
        await pilot.pause()
        assert right.scroll_y == 5
        await pilot.press("full_stop")
        await pilot.pause()
        assert right.scroll_y == 0  # another decision: its top


async def test_question_mark_lists_every_key_and_the_footer_fits_the_main_ones(recorded_db):
    from textual.widgets import Footer

    from pokeview.screens.help import HelpScreen

    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 1, "p1"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await ready(pilot)
        await pilot.pause(0.2)
        footer = screen.query_one(Footer)
        shown = {key.action for key in footer.query("FooterKey") if key.region.right <= 80}
        for action in ("app.help", "turn(1)", "play", "side", "prompt", "leave"):
            assert action in shown, (action, shown)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        listed = text_of(app.screen.query_one("Static:last-of-type")) + "".join(
            text_of(s) for s in app.screen.query("Static")
        )
        for words in ("slower", "faster", "first", "last", "play on from here", "go to that turn"):
            assert words in listed, words
        await pilot.press("escape")
        assert app.screen is screen


async def test_at_80x24_both_actives_and_the_log_are_in_view_at_every_frame(recorded_db):
    for game_id, view in ((1, "p1"), (3, "spectator")):
        app = make_app(recorded_db, partial(WatchScreen, recorded_db, game_id, view))
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await ready(pilot)
            holder = screen.query_one("#board-scroll")
            log = screen.query_one(BattleLog)
            while True:
                await pilot.pause()
                board = text_of(screen.query_one(Board))
                shown = screen.query_one(Board).shown
                teams = [shown.near.team]
                teams.append(shown.far.team if shown.far else shown.near.foe_team)
                actives = sum(1 for team in teams for mon in team if mon.active)
                assert board.count("▶ ") == actives >= 1, board  # both active Pokémon
                assert holder.max_scroll_y == 0, (screen.position, board)  # nothing cut off
                assert log.size.height >= 3
                if screen.position == len(screen.frames) - 1:
                    break
                await pilot.press("full_stop")


def hp_percent(state: SideState | None, foe: bool) -> dict[str, int]:
    """The active Pokémon's HP in percent, rounded up as Showdown shows it to the other side."""
    if state is None:
        return {}
    out = {}
    for mon in state.foe_team if foe else state.team:
        if mon.active and mon.maxhp and not mon.fainted:
            exact = 100 * mon.hp / mon.maxhp
            out[mon.species] = mon.hp if foe else -int(-exact // 1)
    return out


def fainted(state: SideState | None, foe: bool = False) -> int:
    if state is None:
        return 0
    return sum(1 for mon in (state.foe_team if foe else state.team) if mon.fainted)


async def test_the_board_agrees_with_the_log_at_every_frame_and_shows_the_end(recorded_db):
    """Fainted Pokémon on the board = faint lines in the log so far, in every view, at every
    frame; the last frame shows the loser's whole team fainted."""
    for game_id in (1, 2, 3):
        app = make_app(recorded_db, partial(WatchScreen, recorded_db, game_id, "p1"))
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await ready(pilot)
            replay = screen.replay
            for view in VIEWS:
                me = "p2" if view == "p2" else "p1"
                for position in range(len(replay.frames[view])):
                    log = [line for _, line in replay.log_upto(view, position)]
                    theirs = sum(
                        1
                        for line in log
                        if line.startswith("The opposing ") and line.endswith(" fainted!")
                    )
                    mine = sum(1 for line in log if line.endswith(" fainted!")) - theirs
                    if view == "spectator":
                        near = replay.state_of(view, position, "p1")
                        far = replay.state_of(view, position, "p2")
                        board = (fainted(near), fainted(far))
                        # Each side's own HP and what the other side sees of it: one moment.
                        for own, seen in ((near, far), (far, near)):
                            assert hp_percent(own, False) == hp_percent(seen, True), (
                                game_id,
                                position,
                                own and [m for m in own.team if m.active],
                                seen and [m for m in seen.foe_team if m.active],
                            )
                    else:
                        near = replay.state_of(view, position, me)
                        board = (fainted(near), fainted(near, foe=True))
                    assert board == (mine, theirs), (game_id, view, position, board, log[-4:])
            loser = "p1" if replay.game.winner == "p2" else "p2"
            end = replay.state_of("spectator", len(replay.frames["spectator"]) - 1, loser)
            assert fainted(end) == len(end.team), (game_id, end.team)
            await pilot.press("end")
            assert "won" in text_of(screen.query_one(DecisionPane))


async def test_a_void_game_is_viewable_and_says_it_is_void(bridge, store, loopback):
    result = await game(
        bridge, store, llm(loopback, "loopback-401"), "random", text="void", turn_limit=3
    )
    store.commit()
    app = make_app(store.path, lambda: WatchScreen(store.path, result.game_id, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        assert (
            "gen9randombattle · void (llm:loopback-401 (p1) was on autopilot for 2 of its 2 "
        ) in screen.sub_title
        assert "first failure: client: HTTP 401" in screen.sub_title
        await pilot.press("end")
        assert "(void)" in text_of(screen.query_one(DecisionPane))


async def test_a_re_asked_decision_shows_every_attempt(bridge, store, loopback):
    result = await game(
        bridge, store, llm(loopback, "loopback-malformed-once"), "random", text="re", turn_limit=2
    )
    store.commit()
    app = make_app(store.path, lambda: WatchScreen(store.path, result.game_id, "p1"))
    async with app.run_test(size=(120, 60)) as pilot:
        screen = await ready(pilot)
        pane = text_of(screen.query_one(DecisionPane))
        assert "re-ask" in pane and "tokens, estimated" in pane
        first, second = pane.index("attempt 1 of 2: reasoning"), pane.index("attempt 2 of 2")
        assert first < pane.index("I think the best move is the strong one.") < second
        assert "asked again: " in pane[first:second]
        assert "ACTION: " in pane[second:]


async def test_an_unknown_game_says_which_command_lists_the_games(recorded_db):
    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 999, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(100):
            await pilot.pause(0.02)
            pane = text_of(pilot.app.screen.query_one(DecisionPane))
            if "could not load" in pane:
                break
        assert "could not load game 999" in pane
        assert "`pokeview games`" in pane and "pokeview list" not in pane  # `list` is no command


async def test_the_header_says_the_winner_first(recorded_db):
    """A narrow header cuts its line's end: the winner, last, was cut ("winner llm:mym…")."""
    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 3, "p1"))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await ready(pilot)
        assert screen.sub_title.startswith(f"winner {screen.replay.game.winner_name} · ")
