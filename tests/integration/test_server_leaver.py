"""A program on the local server that leaves mid-game loses, as Showdown decides it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from pokeview.sim.server import LocalServer
from pokeview.store import open_store
from tests.helpers import free_port, game, pokeview


def play_against_a_leaver(tmp_path, mode: str) -> tuple[subprocess.CompletedProcess, int]:
    port = str(free_port())
    db = str(tmp_path / "x.db")
    with LocalServer(int(port)):
        quitter = subprocess.Popen(
            [sys.executable, "-m", "tests.quitter", port, "leaver", mode],
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        game = subprocess.Popen(
            [sys.executable, "-m", "pokeview", "battle", "--p1", "heuristic", "--p2",
             "server:leaver", "--server-port", port, "--turn-limit", "100", "--db", db],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        assert quitter.stdout is not None
        for line in quitter.stdout:
            if line.startswith("decision 3"):
                break
        if mode == "vanish":
            os.killpg(quitter.pid, signal.SIGKILL)  # gone, without a word to the server
        out, err = game.communicate(timeout=600)
        quitter.kill()
        quitter.wait()
    return subprocess.CompletedProcess(game.args, game.returncode, out, err), int(port)


def check_won_by_pokeview(tmp_path, played: subprocess.CompletedProcess, ending: str) -> None:
    assert played.returncode == 0, played.stderr
    assert "winner heuristic (p1)" in played.stdout
    said = {"forfeit": "server:leaver forfeited", "disconnection": "server:leaver disconnected"}
    assert said[ending] in played.stdout  # how it ended, not only who won
    store = open_store(tmp_path / "x.db")
    game = store.games()[0]
    assert (game.status, game.winner, game.p2) == ("finished", "p1", "server:leaver")
    assert ">forcelose p2" in (game.input_log or "")
    assert game.ending == ending
    from pokeview.widgets.decision_pane import ending as last_frame

    assert said[ending] in last_frame(store.game(game.id)).plain  # the viewer's last frame
    end = [e for e in store.events(game.id) if e.kind == "end"]
    assert end[-1].data.ending == ending
    store.close()
    db = str(tmp_path / "x.db")
    listed = pokeview("games", "--json", "--db", db).stdout
    assert f'"ending": "{ending}"' in listed
    assert ending in pokeview("games", "--db", db).stdout  # in the table, beside the winner
    log = pokeview("export", "1", "--format", "log", "--db", db).stdout.splitlines()
    words = {"forfeit": "forfeited.", "disconnection": "lost due to inactivity."}
    assert log[-2:] == [f"|-message|Player 2 {words[ending]}", "|win|Player 1"]
    verified = pokeview("verify", "--all", "--db", str(tmp_path / "x.db"))
    assert verified.returncode == 0 and "1 of 1 games verified" in verified.stdout


def test_a_program_that_forfeits_and_leaves_loses(tmp_path):
    played, _ = play_against_a_leaver(tmp_path, "forfeit")
    check_won_by_pokeview(tmp_path, played, "forfeit")


@pytest.mark.slow
@pytest.mark.skipif(
    not os.environ.get("POKEVIEW_SLOW_TESTS"),
    reason="Showdown gives a vanished player 300 s to come back; set POKEVIEW_SLOW_TESTS=1",
)
def test_a_program_killed_mid_game_loses_on_time(tmp_path):
    import time

    started = time.monotonic()
    played, _ = play_against_a_leaver(tmp_path, "vanish")
    check_won_by_pokeview(tmp_path, played, "disconnection")
    assert time.monotonic() - started < 400  # the server's disconnection time, not more


async def test_an_input_log_that_ends_in_a_forfeit_imports_as_won(bridge, store):
    from pokeview.exchange import import_input_log

    played = await game(bridge, store, "random", "heuristic", text="forfeit", turn_limit=6)
    lines = store.game(played.game_id).input_log.splitlines()
    choices = [i for i, line in enumerate(lines) if line.startswith((">p1 ", ">p2 "))]
    cut = lines[: choices[6]] + [">forcelose p1"]  # p1 left after a few turns
    game_id = await import_input_log(store, "\n".join(cut), "forfeit.log", bridge)
    imported = store.game(game_id)
    assert (imported.status, imported.winner) == ("finished", "p2")
    assert imported.input_log.splitlines()[-1] == ">forcelose p1"
    assert imported.ending == "forced"  # a loss decided outside the battle; why is not known


async def test_a_tie_at_the_turn_limit_says_so(bridge, store):
    from pokeview.widgets.decision_pane import ending

    played = await game(bridge, store, "random", "random", text="limit", turn_limit=3)
    row = store.game(played.game_id)
    assert (row.winner, row.ending, played.ending) == ("tie", "turn limit", "turn limit")
    assert ending(row).plain == (
        "The game ended in a tie after 3 turns: a tie declared at the turn limit (3 turns)."
    )
