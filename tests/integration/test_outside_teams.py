"""Team formats against an outside program that orders its whole team at team preview."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from poke_env import AccountConfiguration
from poke_env.ps_client.server_configuration import ServerConfiguration

from pokeview.battle.verify import verify_game
from pokeview.exchange import import_input_log
from pokeview.players.server import ServerOptions
from pokeview.sim.server import ensure_server
from pokeview.tournament.config import parse_run_config
from pokeview.tournament.runner import run_tournament
from tests.helpers import free_port
from tests.players_for_tests import OrdersItsTeam

DATA = Path(__file__).parent.parent / "data"
# POKEVIEW_TEAM_PAIRS=5 plays the acceptance: ten games a format.
SECOND_AND_SIXTH = {
    "gen9ou": ("Kingambit", "Iron Valiant"),
    "gen8ou": ("Landorus-Therian", "Corviknight"),
}
PAIRS = int(os.environ.get("POKEVIEW_TEAM_PAIRS", "1"))


@pytest.mark.parametrize("format_id", ["gen9ou", "gen8ou"])
async def test_a_program_that_orders_its_team_plays_recorded_verified_games(
    bridge, store, tmp_path, format_id
):
    port = free_port()
    ensure_server(port)
    user = f"orders{format_id}"
    outside = OrdersItsTeam(
        account_configuration=AccountConfiguration(user, None),
        server_configuration=ServerConfiguration(f"ws://127.0.0.1:{port}/showdown/websocket", ""),
        battle_format=format_id,
        log_level=40,
    )
    team = str(DATA / f"{format_id}-team.txt")
    (tmp_path / "team.txt").write_text(Path(team).read_text())
    config = {
        "name": format_id,
        "seed": "orders",
        "format": format_id,
        "pairs": PAIRS,
        "players": ["heuristic", f"server:{user}"],
        "teams": {"p1": "team.txt", "p2": "team.txt"},
    }
    accepting = asyncio.create_task(outside.accept_challenges(None, 2 * PAIRS))
    await run_tournament(
        parse_run_config(config, tmp_path / "run.toml"),
        store=store,
        bridge=bridge,
        server=ServerOptions(port=port),
    )
    await asyncio.wait_for(accepting, 60)
    await outside.ps_client.stop_listening()
    games = [store.game(g.id) for g in store.run_games(store.find_run(format_id).id)]
    assert [g.status for g in games] == ["finished"] * 2 * PAIRS, [g.error for g in games]
    for game in games:
        theirs = "p2" if game.p2.startswith("server:") else "p1"
        # Showdown writes the order as it took it ("team 2, 6, ..."), not as poke-env sent it.
        order = [line for line in game.input_log.splitlines() if line.startswith(f">{theirs} team")]
        assert len(order) == 1 and order[0].startswith(f">{theirs} team 2, 6, "), order
        preview = store.decisions(game.id, theirs)[0]
        second, sixth = SECOND_AND_SIXTH[format_id]
        assert preview.actions[preview.action].startswith(f"lead {second}, then {sixth}, ")
        assert (await verify_game(bridge, store, game.id)).ok
    # The server's input log, brought as a file, imports to the same game.
    imported = store.game(await import_input_log(store, games[0].input_log, "server.log", bridge))
    assert (imported.status, imported.winner) == ("finished", games[0].winner)
    assert imported.input_log == games[0].input_log
