"""A player's identity across processes: what resuming a run compares, and what it leaves out."""

from __future__ import annotations

from pokeview.players.llm.loopback import LoopbackModel
from tests.helpers import one_clear_line, pokeview, sqlite_file, write_players

LOOPBACK_RUN = """
name = "stand-in"
seed = "stand-in"
pairs = 1
turn_limit = 3
players = ["random", "loopback"]
"""


def counts(db) -> tuple[int, int]:
    with sqlite_file(db) as conn:
        return conn.execute(
            "select count(*), count(distinct pair || seat || p1 || p2) from games "
            "where status = 'finished'"
        ).fetchone()


def test_a_run_with_the_loopback_model_is_not_played_again_by_a_new_process(tmp_path):
    config = tmp_path / "run.toml"
    config.write_text(LOOPBACK_RUN)
    db = str(tmp_path / "x.db")
    first = pokeview("run", str(config), "--db", db)  # each process serves it on a new port
    assert first.returncode == 0, first.stderr
    again = pokeview("run", str(config), "--db", db)
    assert again.returncode == 0, again.stderr
    assert "2/2 games recorded (0 now" in again.stdout
    assert counts(db) == (2, 2)
    assert "2/2 games" in pokeview("runs", "--db", db).stdout


def test_a_player_whose_settings_changed_is_refused_rather_than_mixed_in(tmp_path):
    loopback = LoopbackModel().start_in_thread()  # served while this test waits on the CLI
    players = write_players(tmp_path / "players.toml", loopback.base_url, m={"model": "loopback"})
    config = tmp_path / "run.toml"
    config.write_text(
        LOOPBACK_RUN.replace('"loopback"]', '"llm:m"]') + f'players_file = "{players}"\n'
    )
    db = str(tmp_path / "x.db")
    assert pokeview("run", str(config), "--db", db).returncode == 0
    write_players(players, loopback.base_url, m={"model": "loopback-think"})
    line = one_clear_line(pokeview("run", str(config), "--db", db))
    assert "llm:m" in line and "'loopback' → 'loopback-think'" in line
    assert counts(db) == (2, 2)
    # A new price changes what its games cost, not who played them: the run goes on.
    write_players(players, loopback.base_url, m={"model": "loopback", "prices": {"input": 1.0}})
    again = pokeview("run", str(config), "--db", db)
    assert again.returncode == 0 and "(0 now" in again.stdout
    loopback.stop_thread()
