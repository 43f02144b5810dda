"""Replay files that other programs write are taken as they are (tests/data/replays, whose
SOURCES.md says where each comes from)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from pokeview.errors import PokeviewError
from pokeview.exchange import ImportKind, import_input_log, import_kind
from pokeview.showdown_replay import import_replay, server_input_log

REPLAYS = Path(__file__).parent.parent / "data" / "replays"


async def _import(store, bridge, name: str) -> int:
    path = REPLAYS / name
    text = path.read_text(encoding="utf-8")
    kind = import_kind(path, text)
    if kind is ImportKind.SERVER_LOG:
        return await import_input_log(store, "\n".join(server_input_log(text)), name, bridge)
    assert kind is ImportKind.REPLAY
    store.skip_verify = True  # a replay has no input log to verify
    return await import_replay(store, text, name, bridge)


async def test_poke_env_s_own_html_replay_imports(bridge, store):
    # poke-env 0.16.1's save_replays= page: ~4.9 KB of CSS before its battle-log-data.
    game = store.game(await _import(store, bridge, "poke-env-0.16.1-gen9randombattle.html"))
    assert (game.status, game.winner, game.p1, game.p2) == (
        "finished", "p1", "replay:alice", "replay:bob"
    )  # fmt: skip
    assert game.format == "gen9randombattle" and game.turns > 5


async def test_pokechamp_s_html_replay_imports(bridge, store):
    # PokéChamp's page joins the room's name to the first line and stops before |win|.
    game = store.game(await _import(store, bridge, "pokechamp-gen9ou.html"))
    assert (game.status, game.winner, game.format, game.turns) == ("finished", "p1", "gen9ou", 24)
    assert (game.spectator_log or "").splitlines()[0] == "|init|battle"


async def test_a_showdown_server_battle_log_imports_from_its_input_log(bridge, store):
    name = "server-gen9randombattle.log.json"
    doc = orjson.loads((REPLAYS / name).read_bytes())
    game = store.game(await _import(store, bridge, name))
    assert game.status == "finished" and game.input_log  # re-simulated: it verifies
    assert game.winner == ("p1" if doc["winner"] == doc["p1"] else "p2")
    assert game.turns == doc["turns"]


async def test_a_server_battle_log_without_its_input_log_is_a_replay(bridge, store):
    doc = orjson.loads((REPLAYS / "server-gen9randombattle.log.json").read_bytes())
    del doc["inputLog"]
    store.skip_verify = True
    game = store.game(await import_replay(store, orjson.dumps(doc).decode(), "x.json", bridge))
    assert game.status == "finished" and game.turns == doc["turns"]


async def test_a_player_s_own_stream_keeps_its_requests_out_of_the_spectator_log(bridge, store):
    lines = (REPLAYS / "pokechamp-gen9ou.html").read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("|turn|1"))
    request = '|request|{"active":[{"moves":[]}],"side":{"name":"pokechamp1124","id":"p1"}}'
    stream = "\n".join(lines[:at] + [request] + lines[at:])
    store.skip_verify = True
    game = store.game(await import_replay(store, stream, "own.html", bridge))
    assert "|request|" not in (game.spectator_log or "")


async def test_a_doubles_replay_is_refused_in_one_line(bridge, store):
    log = "|player|p1|a|\n|player|p2|b|\n|gametype|doubles\n|gen|5\n|start\n|turn|1\n|win|a\n"
    with pytest.raises(PokeviewError, match=r"^a doubles battle: .*doubles are not supported"):
        await import_replay(store, log, "doubles.log", bridge)
    assert store.games() == []


async def test_a_replay_lost_by_a_forfeit_says_so(bridge, store):
    lines = (REPLAYS / "pokechamp-gen9ou.html").read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("|turn|3"))
    cut = [*lines[:at], "|-message|abyssal1124 forfeited.", "|win|pokechamp1124", "</script>"]
    store.skip_verify = True
    game = store.game(await import_replay(store, "\n".join(cut), "forfeit.html", bridge))
    assert (game.winner, game.turns, game.ending) == ("p1", 2, "forfeit")


def test_importing_the_same_file_twice_says_so_and_again_imports_it(tmp_path):
    from tests.helpers import one_clear_line, pokeview

    db = str(tmp_path / "x.db")
    replay = str(REPLAYS / "pokechamp-gen9ou.html")
    assert "as game 1" in pokeview("import", replay, "--db", db).stdout
    said = one_clear_line(pokeview("import", replay, "--db", db))
    assert said.endswith(
        "is game 1 already (imported before); nothing was added (--again imports a second copy)"
    )
    assert "as game 2" in pokeview("import", replay, "--again", "--db", db).stdout
    assert pokeview("games", "--json", "--db", db).stdout.count('"id"') == 2


async def test_a_real_doubles_log_is_refused_in_one_line(bridge, store):
    text = (REPLAYS / "pkmn-ps-gen6-doubles.p1.log").read_text()
    with pytest.raises(PokeviewError, match=r"^a doubles battle: .*\(doubles are not supported\)$"):
        await import_replay(store, text, "doubles.log", bridge)


def test_verify_all_leaves_imported_replays_out_and_verifies_the_rest(tmp_path):
    """A replay has no input log: `verify --all` stopped at the first one ('game 1 has no input
    log'), verifying none of the games after it."""
    from tests.helpers import play_one, pokeview

    db = str(tmp_path / "x.db")
    play_one(db, "random", "max-damage", "v")
    assert pokeview("import", str(REPLAYS / "pokechamp-gen9ou.html"), "--db", db).returncode == 0
    run = pokeview("verify", "--all", "--db", db)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-2:] == [
        "1 of 1 games verified",
        "1 game imported from Showdown replays left out: a replay has no input log",
    ]
