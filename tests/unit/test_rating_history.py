"""Ratings as games were added: the report's fit on the first n games, at bounded steps, its
last step the report's own ratings and intervals."""

from __future__ import annotations

import pytest

from pokeview.ratings.history import STEPS, rating_history, step_sizes
from pokeview.ratings.summary import build_report
from pokeview.store import open_store


@pytest.fixture
def store(tmp_path):
    """A run of 60 games: max-damage (the anchor) against two bots, then, from game 31 on, a
    newcomer that beats everyone; one void game, which no step counts."""
    store = open_store(tmp_path / "history.db")
    run_id = store.create_run("growing", {"players": []}, "hash", 60)
    for n in range(60):
        newcomer = n >= 30
        p1 = "newcomer" if newcomer else "max-damage"
        p2 = (
            ["random", "heuristic", "max-damage"][n % 3]
            if newcomer
            else ["random", "heuristic"][n % 2]
        )
        game = store.create_game(
            format="gen9randombattle", run_id=run_id, seed=str(n), pair=n // 2, seat=n % 2,
            p1=p1, p2=p2, p1_config={"kind": "bot"}, p2_config={"kind": "bot"},
        )  # fmt: skip
        winner = "p1" if newcomer or n % 3 else "p2"
        store.finish_game(game, status="finished", winner=winner, turns=20, input_log="")
    void = store.create_game(
        format="gen9randombattle", run_id=run_id, seed="v", p1="newcomer", p2="random",
        p1_config={"kind": "bot"}, p2_config={"kind": "bot"},
    )  # fmt: skip
    store.finish_game(void, status="void", winner="p2", turns=3, input_log="", error="why")
    store.set_excluded(void)
    store.commit()
    yield store
    store.close()


def test_steps_are_bounded_and_end_with_every_game():
    assert step_sizes(0) == []
    assert step_sizes(5) == [1, 2, 3, 4, 5]
    assert step_sizes(1000) == list(range(50, 1001, 50))
    # Ten more games: the steps drawn stay, one is added for all of them.
    assert step_sizes(1010) == [*range(50, 1001, 50), 1010]
    assert step_sizes(30) == [2 * n for n in range(1, 16)]
    for total in (1, 7, 24, 25, 99, 4321, 10**6 + 3):
        sizes = step_sizes(total)
        assert len(sizes) <= STEPS + 1 and sizes[-1] == total and sizes == sorted(set(sizes))


def test_the_last_step_is_the_report_and_a_newcomer_appears_when_it_first_played(store):
    history = rating_history(store, "growing", steps=12)
    assert [s.games for s in history] == [5 * n for n in range(1, 13)]
    assert history[-1].last_game == 60  # the void game (61) counts in no step
    report = {p.name: p for p in build_report(store, "growing").players}
    last = history[-1].players
    assert set(last) == set(report)
    for name, line in report.items():
        assert (last[name].rating, last[name].low, last[name].high) == pytest.approx(
            (line.rating, line.low, line.high)
        )
        assert last[name].games == line.games
    # The newcomer's first game is game 31: absent from the first six steps, then rising.
    assert ["newcomer" in s.players for s in history] == [False] * 6 + [True] * 6
    climb = [s.players["newcomer"].rating for s in history[6:]]
    assert climb[-1] > 1500 and climb[-1] > climb[0]
    for step in history:  # measured from the anchor throughout
        anchor = step.players["max-damage"]
        assert (anchor.rating, anchor.low, anchor.high) == pytest.approx((1000, 1000, 1000))
