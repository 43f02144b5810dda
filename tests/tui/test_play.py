"""Playing a side by key presses: whole games, a model's hidden reasoning, forks and resuming."""

from __future__ import annotations

import time
from functools import partial

from pokeview.app import make_app
from pokeview.battle.verify import verify_game
from pokeview.screens.play import PlayScreen
from pokeview.screens.watch import WatchScreen
from pokeview.store import open_store
from pokeview.widgets.board import Board
from tests.helpers import ready, text_of


async def until(pilot, condition, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await pilot.pause(0.02)


async def press_number(pilot, number: int, count: int) -> None:
    await pilot.press(*str(number))
    if number * 10 <= count:  # more digits could follow: Enter confirms
        await pilot.press("enter")


async def play_out(pilot, screen: PlayScreen, moves: int | None = None) -> dict[str, bool]:
    """Answer every decision with the keyboard: Terastallize once when offered, else action 1."""
    seen = {"forced": False, "tera": False}
    made = 0
    while moves is None or made < moves:
        await until(
            pilot, lambda: screen.ctx is not None or screen.result is not None, "a decision"
        )
        if screen.result is not None:
            break
        actions = screen.ctx.actions
        seen["forced"] |= bool(screen.ctx.request.force_switch)
        tera = [i for i, a in enumerate(actions) if a.gimmick == "terastallize"]
        pick = tera[0] if tera and not seen["tera"] else 0
        seen["tera"] |= bool(tera) and pick == tera[0]
        asked = screen.ctx
        await press_number(pilot, pick + 1, len(actions))
        await until(pilot, lambda asked=asked: screen.ctx is not asked, "the choice to be taken")
        made += 1
    return seen


async def test_whole_games_against_the_bots_by_keys(tmp_path, bridge):
    db = tmp_path / "play.db"
    for opponent, seed in (("random", "keys-1"), ("heuristic", "keys-2")):
        app = make_app(db, partial(PlayScreen, db, opponent=opponent, seed_text=seed))
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            seen = await play_out(pilot, screen)
            await until(pilot, lambda s=screen: s.result is not None, "the end")
            assert screen.result.status == "finished"
            assert seen == {"forced": True, "tera": True}, seen
            assert "turns · game" in text_of(screen.query_one("#status"))
            # The board as the game left it: the loser's whole team fainted.
            board = screen.query_one(Board)

            def all_fainted(board=board) -> bool:
                near = board.shown.near
                mine = all(m.fainted for m in near.team)
                theirs = sum(1 for m in near.foe_team if m.fainted) == 6
                return mine or theirs

            await until(pilot, all_fainted, "the final board")
    store = open_store(db)
    for game in store.games():
        assert game.p1 == "human" and game.p1_config == {"kind": "human", "player": "human"}
        assert (await verify_game(bridge, store, game.id)).ok
    store.close()


async def test_a_models_reasoning_is_hidden_until_the_end(tmp_path):
    db = tmp_path / "model.db"
    app = make_app(db, lambda: PlayScreen(db, opponent="loopback", seed_text="spoiler"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await play_out(pilot, screen, moves=2)
        await until(pilot, lambda: screen.reasoning, "the model's reasoning to stream")
        thoughts = screen.query_one("#thoughts")
        assert "hidden" in text_of(thoughts) and "I have" not in text_of(thoughts)
        await pilot.press("r")
        assert "I have" in text_of(thoughts)  # the spoiler shows it
        await pilot.press("r")
        assert "hidden" in text_of(thoughts)
        await play_out(pilot, screen)
        await until(pilot, lambda: screen.result is not None, "the end")
        assert "I have" in text_of(thoughts)  # shown in full after the end
        await until(pilot, lambda: "decision 3" in text_of(thoughts), "all the reasoning")
        shown = text_of(thoughts)
        assert shown.index("decision 1") < shown.index("decision 2") < shown.index("decision 3")
        game_id = screen.result.game_id
    store = open_store(db)
    spoilers = [e for e in store.events(game_id) if e.kind == "spoiler"]
    assert len(spoilers) == 1 and spoilers[0].data.turn >= 1
    store.close()


async def test_play_on_from_a_recorded_game(recorded_db):
    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, 1, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await pilot.press("5", "enter", "f")
        await until(pilot, lambda: isinstance(app.screen, PlayScreen), "the play screen")
        screen = app.screen
        await until(pilot, lambda: screen.ctx is not None, "the first decision")
        assert screen.ctx.turn == 5
        await play_out(pilot, screen)
        await until(pilot, lambda: screen.result is not None, "the end")
        fork_id = screen.result.game_id
    store = open_store(recorded_db)
    fork, original = store.game(fork_id), store.game(1)
    assert fork.parent_game == 1 and fork.parent_decision and fork.exclude_from_ratings == 1
    before = original.spectator_log.split("|turn|5\n")[0]
    assert fork.spectator_log.startswith(before + "|turn|5\n")  # turns 1..4 replayed exactly
    assert fork.spectator_log != original.spectator_log  # then the new choices
    assert all(r.id != fork_id for r in store.rating_games())
    store.close()
    app = make_app(recorded_db, lambda: WatchScreen(recorded_db, fork_id, "p1"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        assert "fork of game 1" in screen.sub_title


async def test_leaving_keeps_the_game_and_resuming_continues_it(tmp_path, bridge):
    db = tmp_path / "resume.db"
    app = make_app(db, lambda: PlayScreen(db, opponent="heuristic", seed_text="resume"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await play_out(pilot, screen, moves=3)
        await until(pilot, lambda: screen.ctx is not None, "the fourth decision")
        game_id = screen.ctx.game_id
        await pilot.press("escape")
    store = open_store(db)
    assert store.game(game_id).status == "interrupted"
    assert len(store.decisions(game_id, "p1")) == 3
    assert store.latest_human_game().id == game_id
    store.close()
    app = make_app(db, lambda: PlayScreen(db, resume=game_id))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await until(pilot, lambda: screen.ctx is not None, "the resumed decision")
        assert screen.ctx.game_id == game_id and screen.ctx.index == 3
        await play_out(pilot, screen)
        await until(pilot, lambda: screen.result is not None, "the end")
        assert screen.result.game_id == game_id and screen.result.status == "finished"
    store = open_store(db)
    indexes = [d.idx for d in store.decisions(game_id, "p1")]
    assert indexes == list(range(len(indexes)))  # each decision once
    assert (await verify_game(bridge, store, game_id)).ok
    store.close()


async def test_digits_then_enter_make_one_move(tmp_path):
    """ "1" "0" Enter with 13 actions plays action 10 once; the Enter picks nothing afterwards."""
    db = tmp_path / "digits.db"
    app = make_app(db, lambda: PlayScreen(db, opponent="heuristic", seed_text="digits"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await until(pilot, lambda: screen.ctx is not None, "the first decision")
        first = screen.ctx
        assert len(first.actions) >= 10
        await pilot.press("²")  # a digit to str.isdigit (AZERTY's key), not to int(): raised
        assert screen.ctx is first and screen.typed == ""
        await pilot.press("1", "0", "enter")
        await until(pilot, lambda: screen.ctx not in (None, first), "the second decision")
        await pilot.press("enter")
        await pilot.pause(1.3)
        assert screen.ctx is not None and screen.ctx.index == 1  # still asking: nothing chosen
        # A number that could still grow is taken after a short pause.
        second = screen.ctx
        await pilot.press("1")
        assert screen.ctx is second
        await until(pilot, lambda: screen.ctx is not second, "the pause to choose")
        game_id = first.game_id
    store = open_store(db)
    assert [d.action for d in store.decisions(game_id, "p1")][:2] == [9, 0]
    store.close()


async def test_resuming_against_a_model_keeps_the_last_step_and_its_log(tmp_path, bridge):
    """Leave after two moves against a model, resume: the model goes on (it needs the request
    of the step the game stopped at), the board and the log are those of that step, and the
    record keeps the step's log for the viewer."""
    db = tmp_path / "resume-model.db"
    app = make_app(db, lambda: PlayScreen(db, opponent="loopback", seed_text="crash-test"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await play_out(pilot, screen, moves=2)
        await until(pilot, lambda: screen.ctx is not None, "the third decision")
        game_id = screen.ctx.game_id
        left_words = [w for u in screen.ctx.updates for w in u.text]
        left_state = screen.ctx.updates[-1].state
        await pilot.press("q")
    app = make_app(db, lambda: PlayScreen(db, resume=game_id))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await until(pilot, lambda: screen.ctx is not None, "the resumed decision")
        assert [w for u in screen.ctx.updates for w in u.text] == left_words
        assert screen.ctx.updates[-1].state == left_state  # the board of that moment
        shown = screen.query_one("#log").shown
        assert shown[-len(left_words) :] == left_words[-len(shown) :]
        await play_out(pilot, screen, moves=4)
        await until(pilot, lambda: screen.ctx is not None or screen.result, "the game to go on")
        assert screen.result is None or screen.result.status == "finished", screen.result
    store = open_store(db)
    game = store.game(game_id)
    assert game.status != "error", game.error
    p1_words = [
        w for e in store.events(game_id) if e.side == "p1" and e.kind == "side" for w in e.data.text
    ]
    assert p1_words[: len(left_words)] == left_words  # the record lost nothing
    store.close()


async def test_at_80x24_the_actives_every_action_and_the_log_are_reachable(tmp_path):
    from textual.widgets import OptionList

    db = tmp_path / "small.db"
    app = make_app(db, lambda: PlayScreen(db, opponent="heuristic", seed_text="digits"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await until(pilot, lambda: screen.ctx is not None, "the first decision")
        await pilot.pause(0.2)
        board = text_of(screen.query_one(Board))
        assert board.count("▶ ") == 2, board  # both active Pokémon
        assert screen.query_one("#board-scroll").max_scroll_y == 0
        actions = screen.query_one(OptionList)
        assert actions.option_count == len(screen.ctx.actions) >= 13
        assert actions.size.height >= 8  # most in view, the rest a scroll away
        assert screen.query_one("#log").size.height >= 4
        assert "== Turn 1 ==" in screen.query_one("#log").shown


async def test_the_screen_answers_while_a_models_address_is_checked(tmp_path):
    """Making a model opponent checks its address (a GET, up to its connect timeout): on the
    screen's own event loop that froze the app for as long as a silent server kept it waiting."""
    import socket
    import threading

    from tests.helpers import write_players

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    accepted: list[float] = []
    held: list[socket.socket] = []

    def accept() -> None:  # takes the connection and never answers
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            held.append(conn)
            accepted.append(time.monotonic())

    threading.Thread(target=accept, daemon=True).start()
    port = listener.getsockname()[1]
    players = write_players(
        tmp_path / "players.toml",
        f"http://127.0.0.1:{port}/v1",
        silent={"model": "m", "timeouts": {"connect": 3}},
    )
    db = tmp_path / "x.db"
    app = make_app(
        db, lambda: PlayScreen(db, opponent="llm:silent", players_file=str(players), seed_text="s")
    )
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: bool(accepted), "the address check")
            seen = time.monotonic()
            assert seen - accepted[0] < 1.5, "the app's loop waited on the address check"
    finally:
        listener.close()
        for conn in held:
            conn.close()
