"""A run's progress line: the time left from each matchup's own game times, a line that moves
every second, and the games a restart plays again."""

from __future__ import annotations

import io
import time

from rich.console import Console

from pokeview.tournament.display import ProgressView, again_line, progress_text
from pokeview.tournament.eta import GameClock
from pokeview.tournament.runner import Progress
from pokeview.tournament.schedule import PlannedGame


def games(p1: str, p2: str, n: int) -> list[PlannedGame]:
    return [
        PlannedGame(pair, seat, *((p1, p2) if seat == 0 else (p2, p1)))
        for pair in range(n // 2)
        for seat in (0, 1)
    ]


def test_the_time_left_is_the_slow_matchups_not_the_runs_mean():
    """16 bot games of a second each are done, 2 slow games of a minute too; 4 slow games have
    been running for 10 s on 8 slots: some 50 s are left. The run-wide mean of the old line
    (elapsed 70 s / 18 games × 4) said 16 s, and stood still."""
    fast, slow = games("random", "heuristic", 16), games("loopback-slow", "heuristic", 6)
    clock = GameClock(fast + slow, slots=8)
    now = time.monotonic()
    clock.times = {("heuristic", "random"): [1.0] * 16, ("heuristic", "loopback-slow"): [60.0] * 2}
    clock.started_count = len(fast) + len(slow)
    clock.running = {game: now - 10 for game in slow[2:]}
    left = clock.seconds_left(now)
    assert left is not None and 49 <= left <= 51
    # Past the mean, a quarter of the time run so far: not zero, and moving.
    assert clock.seconds_left(now + 55) == 0.25 * 65
    assert clock.seconds_left(now + 95) == 0.25 * 105


def test_an_unplayed_matchup_takes_the_mean_of_every_game_so_far_and_slots_are_shared():
    done, waiting = games("random", "heuristic", 2), games("max-damage", "random", 4)
    clock = GameClock(done + waiting, slots=2)
    clock.times = {("heuristic", "random"): [10.0, 20.0]}
    clock.started_count = len(done)
    assert clock.seconds_left() == 30.0  # 4 games of 15 s, two at a time
    assert GameClock(waiting, slots=2).seconds_left() is None  # nothing to go by yet


def test_the_progress_line_moves_between_games():
    """Drawn on a terminal, the line's clock goes on while no game ends (it stood still)."""
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=200)
    progress = Progress(planned=4, done_before=0, running=2)
    progress.started = time.monotonic() - 0.5  # the next second is half a second away
    with ProgressView(console) as view:
        view.update(progress)
        time.sleep(1.2)
    assert "elapsed 0m00s" in out.getvalue() and "elapsed 0m01s" in out.getvalue()


def test_a_restart_names_the_games_it_plays_again():
    progress = Progress(planned=4, done_before=1, again={12: "interrupted", 15: "void"})
    line = again_line(progress)
    assert line == (
        "2 interrupted or void games to be played again from their seeds (under new ids): 12, 15"
    )
    out = io.StringIO()
    with ProgressView(Console(file=out, width=200)) as view:
        view.update(progress)
        view.update(progress)
    assert out.getvalue().count("to be played again") == 1
    assert again_line(Progress(planned=4, done_before=1)) is None
    assert "left ~?" in progress_text(progress).plain


def test_a_restart_knows_the_games_recorded_before_it_by_their_players_names():
    slow = games("loopback-slow", "heuristic", 2)
    clock = GameClock(slow, slots=8, names={"loopback-slow": "llm:loopback-slow"})
    clock.recorded("heuristic", "random", 2.0)
    clock.recorded("llm:loopback-slow", "heuristic", 90.0)
    assert clock.seconds_left() == 90.0  # not the bots' 2 s


def test_a_matchup_with_no_game_over_is_given_twice_its_longest_running_time():
    """What stood still at `left ~0m01s` for a minute: slow games whose matchup had no game
    over yet, measured by the bots' mean."""
    fast, slow = games("random", "heuristic", 2), games("loopback-slow", "heuristic", 2)
    clock = GameClock(fast + slow, slots=8)
    now = time.monotonic()
    clock.times = {("heuristic", "random"): [2.0, 2.0]}
    clock.started_count = 4
    clock.running = {slow[0]: now - 30, slow[1]: now - 20}
    assert clock.seconds_left(now) == 60.0 - 20  # each given 2 × 30 s; the later started ends last


def test_in_a_log_the_line_is_printed_while_no_game_ends(capsys):
    """Not on a terminal (a log, CI), a long game without an end still shows the run alive."""
    progress = Progress(planned=4, done_before=0, running=2)
    progress.started = time.monotonic() - 0.75  # the next second is a quarter of one away
    with ProgressView(Console(file=io.StringIO()), heartbeat=0.2) as view:
        view.update(progress)
        time.sleep(0.75)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) >= 3 and all("0/4 games" in line for line in lines)
    assert lines[0] != lines[-1]  # the time elapsed moved


def test_a_restart_with_many_games_to_play_again_names_the_first_twenty():
    again = {gid: "void" for gid in range(100, 130)}
    line = again_line(Progress(planned=40, done_before=0, again=again))
    assert line is not None and line.startswith("30 void games to be played again")
    assert "119 and 10 more" in line and "120" not in line.split(" and ")[0]


def test_a_game_whose_spec_cannot_be_made_is_told_to_the_clock_and_leaves_the_count():
    import asyncio

    import pytest

    from pokeview.tournament.engine import Engine

    planned = games("a", "b", 2)
    clock = GameClock(planned, slots=1)
    progress = Progress(planned=2, done_before=0, clock=clock)
    engine = Engine(None, None, progress, concurrency=1)  # type: ignore[arg-type]

    def broken():
        raise RuntimeError("no such player")

    with pytest.raises(RuntimeError):
        asyncio.run(engine.play([(planned[0], broken)]))
    assert progress.running == 0
    assert clock.running == {}
