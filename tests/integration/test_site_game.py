"""A game page of `pokeview site` in headless Chromium: the board, drawn by the page's script
from the terminal board's own drawing, follows the turns (by key, by click, by a deep link) and
the side, and shows what the replay's frame holds; a decision's prompt, opened, is the exact
messages the model was sent; hostile names show literally on the board and nothing runs."""

from __future__ import annotations

from pokeview.battle.replay import Replay
from pokeview.board.layout import BoardView, draw, of_replay
from pokeview.game.decision import ModelDetail
from pokeview.game.side import Pokemon
from pokeview.site.board import lines_of
from pokeview.site.build import build_site
from pokeview.site.game import VIEWS, turns_of
from pokeview.site.html import game_file
from tests import hostile
from tests.cdp import Browser
from tests.integration.test_site import RUNS, chromium, could_run, small_run

BOARD = "Array.from(document.getElementById('board').children, line => line.textContent)"
SHOWN = "document.querySelector('section.turn.shown').id"


def board_of(replay: Replay, view: str, turn: int) -> BoardView:
    """The board the page should show: the replay viewer's at that turn, in that view."""
    return of_replay(replay, VIEWS[view], replay.position_of_turn(VIEWS[view], turn))


def lines(shown: BoardView) -> list[str]:
    return [text.plain for _, text in lines_of(draw(shown))]


def active(team: list[Pokemon]) -> Pokemon:
    return next(mon for mon in team if mon.active)


def check_board(browser: Browser, replay: Replay, view: str, turn: int) -> list[str]:
    """The page's board is the replay's at `turn` in `view`: line for line, and its active
    Pokémon's name and HP are those of the side's state (exact for its own, a percentage for
    the foe's as that side saw it)."""
    shown = board_of(replay, view, turn)
    on_page = browser.value(BOARD)
    assert on_page == lines(shown), (view, turn)
    assert shown.near is not None
    mine = active(shown.near.team)
    mon_lines = [line for line in on_page if line.startswith("▶ ")]
    assert len(mon_lines) == 2, on_page
    assert f"{mine.species} L{mine.level}" in mon_lines[1]
    assert (f" {mine.hp}/{mine.maxhp}" in mon_lines[1]) != mine.fainted
    foe = active(shown.far.team if shown.far else shown.near.foe_team)
    assert f"{foe.species} L{foe.level}" in mon_lines[0]
    figure = f" {foe.hp}/{foe.maxhp}" if shown.far else f" {round(100 * foe.hp / foe.maxhp)}%"
    assert (figure in mon_lines[0]) != foe.fainted, (figure, mon_lines[0])
    return on_page


async def test_the_board_follows_turns_and_sides_and_the_prompt_reads_back_whole(
    bridge, store, tmp_path
):
    run = await small_run(store, bridge, tmp_path)
    folder = tmp_path / "site"
    build_site(store, run, folder)
    game = next(g for g in store.games(limit=10) if "loopback" in g.p1 + g.p2)
    replay = Replay.load(store, game.id)
    turns = turns_of(replay)
    assert len(turns) > 8
    page = (folder / game_file(game.id)).as_uri()
    browser = Browser(chromium(), page, tmp_path / "profile")
    try:
        browser.wait_for("document.body.classList.contains('js')")
        seen = [check_board(browser, replay, "both", turns[0])]
        for step in range(1, 6):  # five turns by key
            browser.press("ArrowRight")
            assert browser.value(SHOWN) == f"t{turns[step]}"
            seen.append(check_board(browser, replay, "both", turns[step]))
        assert len({tuple(board) for board in seen}) > 2  # the board moved with the turns
        browser.click('[data-go="-1"]')  # and by click, back and forth
        assert browser.value(SHOWN) == f"t{turns[4]}"
        check_board(browser, replay, "both", turns[4])
        browser.click('[data-go="1"]')
        check_board(browser, replay, "both", turns[5])
        for view in ("p1", "p2", "both"):  # s: the same turn, as each side knew it
            browser.press("s")
            assert browser.value("document.getElementById('switch-side').textContent") == (
                f"side: {view}"
            )
            check_board(browser, replay, view, turns[5])
        assert lines(board_of(replay, "p1", turns[5])) != lines(board_of(replay, "p2", turns[5]))

        # A deep link opens its turn with its board.
        browser.call("Page.navigate", url=f"{page}#t{turns[7]}")
        browser.wait_for(f"document.querySelector('section.turn.shown')?.id === 't{turns[7]}'")
        check_board(browser, replay, "both", turns[7])

        # A decision's prompt, opened, is the exact messages sent; its reasoning, the record's.
        side = "p1" if "loopback" in game.p1 else "p2"
        decisions = sorted(
            (d for (s, _), d in replay.decisions.items() if s == side), key=lambda d: d.idx
        )
        assert len(decisions) > 5
        for d in (decisions[0], decisions[3], decisions[-1]):
            assert isinstance(d.detail, ModelDetail)
            block = f"document.getElementById('{side}-d{d.idx}')"
            browser.value(f"{block}.querySelector('details').open = true")
            prompts = browser.value(
                f"Array.from({block}.querySelectorAll('pre.prompt'), p => p.textContent)"
            )
            assert prompts == [m.content for m in d.detail.messages if m.role != "assistant"]
            reasoning = browser.value(f"{block}.querySelector('pre.reasoning').textContent")
            assert reasoning == d.detail.reasoning
        # Written once: the page refers to the repeated text and the log's lines.
        source = (folder / game_file(game.id)).read_text()
        assert 'href="#q0"' in source and "data-w=" in source
    finally:
        browser.close()


def test_hostile_names_show_literally_on_the_board_and_nothing_runs(tmp_path, monkeypatch):
    monkeypatch.setattr(hostile, "EVIL", hostile.EVIL + RUNS)
    game_id = hostile.hostile_db(tmp_path / "h.db")
    from pokeview.store import open_store

    store = open_store(tmp_path / "h.db")
    replay = Replay.load(store, game_id)
    build_site(store, str(store.game(game_id).run_id), tmp_path / "site")
    store.close()
    page = (tmp_path / "site" / game_file(game_id)).as_uri()
    browser = Browser(chromium(), page, tmp_path / "profile")
    try:
        browser.wait_for("document.body.classList.contains('js')")
        for _ in range(3):
            browser.press("ArrowRight")
        browser.press("s")  # p1's view: its name and the foe's on the board
        turn = int(browser.value(SHOWN)[1:])
        on_page = check_board(browser, replay, "p1", turn)
        titles = "\n".join(line for line in on_page if line.startswith(("p1 ", "p2 ")))
        assert "<script>document.title" in titles and '"><img src=x onerror=' in titles
        assert "[red]r[/red][/bold]" in titles and "<b>bold</b>" in titles  # markup as text
        assert not hostile.control_in(titles)  # terminal escapes dropped, as in the terminal
        assert browser.value("document.querySelectorAll('#board *').length") == browser.value(
            "document.querySelectorAll('#board div, #board span').length"
        )  # the board is lines and runs of text, nothing else
        dom = browser.value("document.documentElement.outerHTML")
        assert browser.value("document.title") != "RAN"
        assert browser.value("document.body.getAttribute('data-pwned')") is None
        assert could_run(dom) == []
    finally:
        browser.close()
