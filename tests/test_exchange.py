"""Exchange with the ecosystem: Showdown's server, outside poke-env players, exports."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

from poke_env.player import Player

from pokeview.battle import seeds
from pokeview.battle.loop import play_game
from pokeview.players import make_player
from pokeview.sim import install
from pokeview.sim.server import port_open
from tests.test_cli import one_clear_line, pokeview


class FirstMovePlayer(Player):
    """An outside poke-env player: always its first available move, else its first switch."""

    def choose_move(self, battle):
        if battle.available_moves:
            return self.create_order(battle.available_moves[0])
        return self.choose_random_move(battle)


async def test_an_outside_poke_env_player_plays_in_process(bridge, store):
    outside = make_player("tests.test_exchange:FirstMovePlayer")
    assert outside.describe()["engine"] == "tests.test_exchange FirstMovePlayer"
    result = await play_game(
        "gen9randombattle",
        seeds.game_seed("outside"),
        outside,
        make_player("random"),
        bridge=bridge,
        store=store,
    )
    assert result.status == "finished"  # and it verifies at teardown
    firsts = [d for d in store.decisions(result.game_id, "p1") if d.actions[0].startswith("move ")]
    assert firsts and all(d.action == 0 for d in firsts if not d.refusals)


def test_bad_outside_players_are_one_clear_line(tmp_path):
    line = one_clear_line(
        pokeview(
            "battle", "--p1", "nosuchmodule:X", "--p2", "random", "--db", str(tmp_path / "x.db")
        )
    )
    assert "cannot load player 'nosuchmodule:X'" in line
    line = one_clear_line(
        pokeview("battle", "--p1", "pathlib:Path", "--p2", "random", "--db", str(tmp_path / "x.db"))
    )
    assert "not a poke-env Player subclass" in line


def spectator_of(simulator_output: str) -> list[str]:
    """The spectator's lines from simulate-battle's `update` blocks (public side of splits)."""
    lines, out, skip = [], [], 0
    for block in simulator_output.split("\n\n"):
        if block.startswith("update\n"):
            lines += block.split("\n")[1:]
    for n, line in enumerate(lines):
        if skip:
            skip -= 1
            continue
        if line.startswith("|split|"):
            out.append(lines[n + 2])
            skip = 2
        elif line.startswith("|") and not line.startswith(("|t:|", "|debug|")):
            out.append(line)
    return out


def test_exports_and_the_input_log_replays_in_showdowns_own_simulator(tmp_path):
    db = str(tmp_path / "x.db")
    assert (
        pokeview(
            "battle", "--p1", "heuristic", "--p2", "random", "--seed", "export", "--db", db
        ).returncode
        == 0
    )
    log = pokeview("export", "1", "--format", "log", "--db", db).stdout
    inputlog = pokeview("export", "1", "--format", "inputlog", "--db", db).stdout
    page = pokeview("export", "1", "--format", "html", "--db", db).stdout
    assert inputlog.startswith(">start ") and log.rstrip().split("\n")[-1].startswith("|win|")
    assert '<script type="text/plain" class="battle-log-data">' in page and "|turn|1" in page
    assert "replay-embed.js" in page
    package = install.ensure_installed() / "node_modules" / "pokemon-showdown"
    sim = subprocess.run(
        ["node", "pokemon-showdown", "simulate-battle", "--skip-build"],
        cwd=package,
        input=inputlog,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert spectator_of(sim.stdout) == log.rstrip("\n").split("\n")
    assert "unknown export format" not in one_clear_line(pokeview("export", "9", "--db", db))


def test_server_starts_on_loopback_and_stops_cleanly():
    port = 8391
    proc = subprocess.Popen(
        [sys.executable, "-m", "pokeview", "server", "--port", str(port)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        ready = proc.stdout.readline()
        assert f"ws://127.0.0.1:{port}/showdown/websocket" in ready
        assert port_open(port)
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    assert "Showdown stopped" in proc.stdout.read()
    time.sleep(0.5)
    assert not port_open(port)
