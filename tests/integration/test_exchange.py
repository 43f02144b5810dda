"""Exchange with the ecosystem: Showdown's server, outside poke-env players, exports."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import subprocess
import sys
import time

from poke_env.player import Player

from pokeview.battle import seeds
from pokeview.battle.play import OnBridge, play
from pokeview.battle.spec import GameSpec
from pokeview.cli import main
from pokeview.players import make_player
from pokeview.players.base import Decision
from pokeview.players.base import Player as PokeviewPlayer
from pokeview.sim.server import port_open
from tests.helpers import (
    free_port,
    one_clear_line,
    play_one,
    pokeview,
    showdown_spectator_log,
    sqlite_file,
)
from tests.helpers import game as a_game


class FirstMovePlayer(Player):
    """An outside poke-env player: always its first available move, else its first switch."""

    def choose_move(self, battle):
        if battle.available_moves:
            return self.create_order(battle.available_moves[0])
        if battle.available_switches:
            return self.create_order(battle.available_switches[0])
        return self.choose_default_move()


async def test_an_outside_poke_env_player_plays_in_process(bridge, store):
    outside = make_player("tests.integration.test_exchange:FirstMovePlayer")
    assert outside.describe()["engine"] == "tests.integration.test_exchange FirstMovePlayer"
    spec = GameSpec(
        format="gen9randombattle",
        seed=seeds.game_seed("outside"),
        p1=outside,
        p2=make_player("random"),
    )
    result = await play(spec, venue=OnBridge(bridge), store=store)
    assert result.status == "finished"  # and it verifies at teardown
    firsts = [d for d in store.decisions(result.game_id, "p1") if d.actions[0].startswith("move ")]
    assert firsts and all(d.action == 0 for d in firsts if not d.refusals)


async def test_an_outside_poke_env_player_plays_mirror_pairs_over_the_server_as_on_the_bridge(
    bridge, store, tmp_path
):
    import asyncio

    from poke_env import AccountConfiguration
    from poke_env.ps_client.server_configuration import ServerConfiguration

    from pokeview.battle.verify import verify_game
    from pokeview.tournament.config import parse_run_config
    from pokeview.tournament.runner import run_tournament

    # The same player, in process on the bridge ...
    spec = "tests.integration.test_exchange:FirstMovePlayer"
    in_process = {"name": "in-process", "seed": "o", "pairs": 1, "players": ["heuristic", spec]}
    progress = await run_tournament(
        parse_run_config(in_process, tmp_path / "a.toml"), store=store, bridge=bridge
    )
    assert progress.done == 2 and progress.failed == 0

    # ... and as an outside program on the local server, over its websocket.
    port = free_port()
    from pokeview.players.server import ServerOptions
    from pokeview.sim.server import ensure_server

    ensure_server(port)  # a real Showdown server on loopback, as `pokeview server` runs it
    outside = FirstMovePlayer(
        account_configuration=AccountConfiguration("firstmove", None),
        server_configuration=ServerConfiguration(f"ws://127.0.0.1:{port}/showdown/websocket", ""),
        log_level=40,
    )
    accepting = asyncio.create_task(outside.accept_challenges(None, 2))
    over_server = {
        "name": "server",
        "seed": "o",
        "pairs": 1,
        "players": ["heuristic", "server:firstmove"],
    }
    config = parse_run_config(over_server, tmp_path / "b.toml")
    progress = await run_tournament(
        config, store=store, bridge=bridge, server=ServerOptions(port=port)
    )
    await asyncio.wait_for(accepting, 60)
    assert progress.done == 2 and progress.failed == 0
    run = store.find_run("server")
    games = [store.game(g.id) for g in store.run_games(run.id)]
    # Both seats of the pair: pokeview chose the seed and the seats, not the server.
    by_seat = {g.seat: g for g in games}
    assert [(by_seat[s].p1, by_seat[s].p2, by_seat[s].status) for s in (0, 1)] == [
        ("heuristic", "server:firstmove", "finished"),
        ("server:firstmove", "heuristic", "finished"),
    ]
    bridge_games = {
        store.game(g.id).seat: store.game(g.id)
        for g in store.run_games(store.find_run("in-process").id)
    }
    for seat, game in by_seat.items():
        theirs_side = "p2" if seat == 0 else "p1"
        theirs = store.decisions(game.id, theirs_side)
        moves = [d for d in theirs if d.actions[0].startswith("move ") and not d.refusals]
        assert moves and all(d.action == 0 for d in moves)  # the outside program's first moves
        ours = store.decisions(game.id, "p1" if seat == 0 else "p2")
        assert ours and all(d.how == "chosen" for d in ours)  # as the bot made them, live
        # The same game as on the bridge: same seed, same teams, same rolls, same log.
        twin = bridge_games[seat]
        assert game.seed == twin.seed and game.input_log == twin.input_log
        assert game.spectator_log == twin.spectator_log
        assert (await verify_game(bridge, store, game.id)).ok
    # Resuming the finished run plays nothing more: both server games count for the pair.
    assert (await run_tournament(config, store=store, bridge=bridge)).done == 0
    await outside.ps_client.stop_listening()


async def _foul_play_like(port: int, name: str, fmt: str, seen: dict) -> None:
    """Foul Play's way into a battle (fp/websocket_client.py, fp/run_battle.py), over a raw
    websocket: accept a challenge whose 9-part pm names the format; take the opponent's name
    from the room title; take the opponent's side from the first later message holding
    "|player|" and that name (split("|")[2]). Then answer every request with `default`."""
    import websockets

    async with websockets.connect(f"ws://127.0.0.1:{port}/showdown/websocket") as ws:
        while (await ws.recv()).split("|")[1] != "challstr":
            pass
        await ws.send(f"|/trn {name},0,")
        while True:
            parts = (await ws.recv()).split("|")
            if (
                len(parts) == 9
                and parts[1] == "pm"
                and parts[3].strip() == name
                and parts[4].startswith("/challenge")
                and parts[5] == fmt
            ):
                await ws.send(f"|/accept {parts[2].strip()}")
                break
        while True:
            parts = (await ws.recv()).split("|")
            if "battle" in parts[0]:
                tag = parts[0].replace(">", "").strip()
                opponent = parts[4].replace(name, "").replace("vs.", "").strip()
                break
        while True:
            message = await ws.recv()
            if "|player|" in message and opponent in message:
                seen["opponent"], seen["opponent_side"] = opponent, message.split("|")[2]
                break
        while True:
            message = await ws.recv()
            if not message.startswith(f">{tag}"):
                continue
            for line in message.split("\n"):
                if line.startswith("|request|{"):
                    request = json.loads(line[len("|request|") :])
                    seen.setdefault("side", request["side"]["id"])
                    if not request.get("wait"):
                        await ws.send(f"{tag}|/choose default|{request['rqid']}")
                if line.startswith("|win|") or line == "|tie":
                    return


async def test_a_bot_that_reads_its_side_as_foul_play_does_finds_it_in_both_seats(bridge, store):
    import asyncio

    port = free_port()
    from pokeview.exchange.server_game import LocalServer
    from pokeview.players.server import ServerOptions
    from pokeview.sim.server import ensure_server

    ensure_server(port)
    for seat, host in ((0, "p1"), (1, "p2")):
        seen: dict = {}
        bot = asyncio.create_task(_foul_play_like(port, "foulish", "gen9randombattle", seen))
        ours, theirs = (
            make_player("max-damage"),
            make_player("server:foulish", server=ServerOptions(port=port)),
        )
        p1, p2 = (ours, theirs) if host == "p1" else (theirs, ours)
        spec = GameSpec(
            format="gen9randombattle",
            seed=seeds.game_seed("fp"),
            p1=p1,
            p2=p2,
            seed_text="fp",
            pair=0,
            seat=seat,
            turn_limit=300,
        )
        result = await play(spec, venue=LocalServer(bridge), store=store)
        await asyncio.wait_for(bot, 60)
        assert result.status == "finished", result.error
        theirs_side = "p2" if host == "p1" else "p1"
        assert seen == {"opponent": "pokeviewhost", "opponent_side": host, "side": theirs_side}


def test_server_players_that_cannot_play_are_one_clear_line(tmp_path):
    db = str(tmp_path / "x.db")
    port = str(free_port())
    run = pokeview(
        "battle",
        "--p1",
        "random",
        "--p2",
        "server:nobody",
        "--server-port",
        port,
        "--server-wait",
        "2",
        "--db",
        db,
    )
    assert run.returncode != 0 and "Traceback" not in run.stderr
    assert run.stderr.splitlines()[0].startswith("waiting for 'nobody' on ws://127.0.0.1:" + port)
    assert run.stderr.splitlines()[-1].startswith(
        "pokeview: error: 'nobody' is not on the local server"
    )
    assert not port_open(int(port))  # the server pokeview started went with it
    run = pokeview("battle", "--p1", "loopback", "--p2", "server:someone", "--db", db)
    assert "loopback cannot play over the server" in run.stderr.splitlines()[-1]
    line = one_clear_line(pokeview("battle", "--p1", "random", "--p2", "server:a|b", "--db", db))
    assert "is not a Showdown user name" in line


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


def test_exports_and_the_input_log_replays_in_showdowns_own_simulator(tmp_path):
    db = str(tmp_path / "x.db")
    play_one(db, "heuristic", "random", "export")
    log = pokeview("export", "1", "--format", "log", "--db", db).stdout
    inputlog = pokeview("export", "1", "--format", "inputlog", "--db", db).stdout
    page = pokeview("export", "1", "--format", "html", "--db", db).stdout
    assert inputlog.startswith(">start ") and log.rstrip().split("\n")[-1].startswith("|win|")
    assert '<script type="text/plain" class="battle-log-data">' in page and "|turn|1" in page
    assert "replay-embed.js" in page
    assert showdown_spectator_log(inputlog) == log.rstrip("\n").split("\n")
    assert "unknown export format" not in one_clear_line(pokeview("export", "9", "--db", db))


def test_a_replay_page_keeps_a_hostile_log_inside_its_script_and_reads_back(tmp_path):
    """A name that opens a comment and a script in the log ("<!--<script>") would make the
    page's own "</script>" end neither, swallowing the page; it is escaped, and read back."""
    db = str(tmp_path / "x.db")
    play_one(db, "heuristic", "random", "hostile-page")
    log = pokeview("export", "1", "--format", "log", "--db", db).stdout
    evil = "<!--<script>x</script>"
    hostile = re.sub(r"^\|player\|p1\|[^|]*\|", f"|player|p1|{evil}|", log, count=1, flags=re.M)
    assert evil in hostile
    (tmp_path / "hostile.log").write_text(hostile)
    assert pokeview("import", str(tmp_path / "hostile.log"), "--db", db).returncode == 0
    page = pokeview("export", "2", "--format", "html", "--db", db).stdout
    data = page.split('class="battle-log-data">', 1)[1].split("</script>", 1)[0]
    assert "<!--" not in data and "</" not in data and "|turn|1" in data
    (tmp_path / "hostile.html").write_text(page)
    # As a browser parses it: the log's element ends where the page ends it, the page's own
    # script after it stays a script of its own.
    from tests.cdp import Browser
    from tests.integration.test_site import chromium

    browser = Browser(chromium(), (tmp_path / "hostile.html").as_uri(), tmp_path / "profile")
    try:
        browser.wait_for("document.querySelector('.battle-log-data') !== null")
        held = browser.value("document.querySelector('.battle-log-data').textContent")
        assert "|turn|1" in held and "let daily" not in held
        scripts = "[...document.scripts].map((s) => s.textContent.includes('let daily'))"
        assert browser.value(scripts).count(True) == 1
    finally:
        browser.close()
    again = pokeview("import", str(tmp_path / "hostile.html"), "--again", "--db", db)
    assert again.returncode == 0, again.stderr
    exported = [pokeview("export", n, "--format", "log", "--db", db).stdout for n in ("2", "3")]
    assert exported[0] == exported[1] and evil in exported[1]


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


def rows(db, sql):

    with sqlite_file(db) as conn:
        return conn.execute(sql).fetchall()


def recorded(db, game_id: int) -> tuple[list, tuple, int]:
    """A game's decisions, main fields and event count, read through the Store."""
    from pokeview.store import open_store

    store = open_store(db)
    try:
        decisions = [
            (d.side, d.idx, d.turn, d.actions, d.action, d.choice, d.how, d.refusals, d.detail)
            for d in store.decisions(game_id)
        ]
        g = store.game(game_id)
        game = (g.format, g.seed, g.p1, g.p2, g.winner, g.turns, g.input_log, g.spectator_log)
        return decisions, game, len(store.events(game_id))
    finally:
        store.close()


def test_export_then_import_of_a_model_game_gives_the_same_record(tmp_path):
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    play_one(a, "loopback", "random", "round")
    exported = tmp_path / "game.json"
    assert pokeview("export", "1", "-o", str(exported), "--db", a).returncode == 0
    done = pokeview("import", str(exported), "--db", b)
    assert done.returncode == 0 and "as game 1" in done.stdout
    original, copy = recorded(a, 1), recorded(b, 1)
    assert original[0] == copy[0]  # messages, reasoning, answers, usage, cost
    details = [r[-1] for r in copy[0] if r[0] == "p1"]
    assert details and all(d.reasoning and d.usage for d in details)
    assert original[1] == copy[1] and original[1][-1]  # the game, its spectator log included
    assert original[2] == copy[2] > 0  # as many events


def test_an_input_log_is_re_simulated_into_a_whole_record(tmp_path):
    db = str(tmp_path / "x.db")
    play_one(db, "heuristic", "random", "resim")
    inputlog = tmp_path / "game.inputlog"
    inputlog.write_text(pokeview("export", "1", "--format", "inputlog", "--db", db).stdout)
    assert pokeview("import", str(inputlog), "--db", db).returncode == 0
    original, imported = recorded(db, 1), recorded(db, 2)
    assert original[1][-1] == imported[1][-1]  # the spectator log
    assert len(original[0]) == len(imported[0])  # as many decisions
    assert rows(db, "select exclude_from_ratings, p1 from games where id = 2") == [
        (1, "recorded:p1")
    ]


def test_a_showdown_replay_imports_as_a_game_to_watch_from_either_side(tmp_path):
    from pokeview.battle.replay import Replay
    from pokeview.store import open_store

    db = str(tmp_path / "x.db")
    play_one(db, "heuristic", "max-damage", "replay")
    page = tmp_path / "replay.html"
    page.write_text(pokeview("export", "1", "--format", "html", "--db", db).stdout)
    # A replay server's .log carries timestamps and chat, which are not part of the battle.
    log = tmp_path / "replay.log"
    exported = pokeview("export", "1", "--format", "log", "--db", db).stdout
    log.write_text("|j|☆someone\n|t:|1700000000\n" + exported)
    # The replay server's .json: the log inside, with fields pokeview does not need.
    as_json = tmp_path / "replay.json"
    as_json.write_text(
        json.dumps({"id": "gen9randombattle-1", "format": "[Gen 9] Random Battle", "log": exported})
    )
    for path, game_id in ((page, 2), (log, 3), (as_json, 4)):
        # The .json holds the page's very game: a second copy is asked for (--again).
        again = ["--again"] if path == as_json else []
        run = pokeview("import", str(path), *again, "--db", db)
        assert run.stdout.strip() == f"imported {path.name} as game {game_id}", run.stderr
    store = open_store(db)
    original = store.game(1)
    for game_id, extra in ((2, ""), (3, "|j|☆someone\n"), (4, "")):
        game = store.game(game_id)
        assert (game.winner, game.turns, game.format) == (
            original.winner,
            original.turns,
            original.format,
        )
        assert game.spectator_log == extra + original.spectator_log  # timestamps dropped
        assert game.p1 == "replay:Player 1" and game.exclude_from_ratings == 1
        assert game.input_log is None
        replay = Replay.load(store, game_id)
        # One frame per turn (and the start, and the end), from either side's public view.
        assert len(replay.frames["spectator"]) == original.turns + 2
        assert len(replay.frames["p2"]) == original.turns + 2
        for side in ("p1", "p2"):  # each side's own words: "Go! X!" for its own Pokémon
            assert any(line.startswith("Go! ") for _, line in replay.words[side])
        turn5 = replay.frames["p1"][replay.position_of_turn("p1", 5)]
        assert turn5.turn == 5 and turn5.state.team and turn5.state.foe_team
    verify = pokeview("verify", "2", "--db", db)
    assert verify.returncode != 0 and "no input log" in verify.stdout + verify.stderr
    store.close()


def test_bad_replays_are_one_clear_line_and_leave_nothing(tmp_path):
    db = str(tmp_path / "x.db")
    cut = tmp_path / "cut.log"
    cut.write_text("|player|p1|a|1\n|player|p2|b|2\n|tier|[Gen 9] Random Battle\n|start\n|turn|1\n")
    assert "ends before the battle does" in one_clear_line(pokeview("import", str(cut), "--db", db))
    page = tmp_path / "page.html"
    page.write_text('<!DOCTYPE html><div class="battle-log-data"></div><p>no log here</p>')
    assert "no battle log in this HTML" in one_clear_line(pokeview("import", str(page), "--db", db))
    nameless = tmp_path / "nameless.log"
    nameless.write_text("|start\n|turn|1\n|win|x\n")
    assert "names no players" in one_clear_line(pokeview("import", str(nameless), "--db", db))
    assert rows(db, "select count(*) from games") == [(0,)]


def test_bad_import_files_are_one_clear_line_and_leave_nothing(tmp_path):
    db = str(tmp_path / "x.db")
    play_one(db, "random", "random", "bad", "--turn-limit", "3")
    exported = pokeview("export", "1", "--db", db).stdout
    truncated = tmp_path / "truncated.json"
    truncated.write_text(exported[: len(exported) // 2])
    assert "truncated" in one_clear_line(pokeview("import", str(truncated), "--db", db))
    other = tmp_path / "notes.txt"
    other.write_text("hello\n")
    assert "is none of" in one_clear_line(pokeview("import", str(other), "--db", db))
    bad_team = tmp_path / "bad.inputlog"
    bad_team.write_text(
        '>start {"formatid":"gen9ou"}\n>player p1 {"name":"a","team":"|||"}\n'
        '>player p2 {"name":"b","team":"|||"}\n>p1 move 1\n>p2 move 1\n'
    )
    assert "Showdown" in one_clear_line(pokeview("import", str(bad_team), "--db", db))
    assert rows(db, "select count(*) from games") == [(1,)]


class Waits(PokeviewPlayer):
    """Holds its first decision until let go, so that its game is running for as long as the
    test needs."""

    kind = "test"
    name = "waits"

    def __init__(self) -> None:
        self.asked, self.go = asyncio.Event(), asyncio.Event()

    def describe(self) -> dict:
        return {"kind": "test"}

    async def decide(self, ctx) -> Decision:
        self.asked.set()
        await self.go.wait()
        return Decision(0)


async def test_a_running_game_is_refused_as_a_log_not_written_empty(
    bridge, store, tmp_path, capsys
):
    waits = Waits()
    playing = asyncio.create_task(a_game(bridge, store, waits, "random", text="running"))
    await waits.asked.wait()
    store.commit()
    game_id = store.games(status="running")[0].id
    db = str(store.path)
    for fmt in ("log", "inputlog", "html"):
        out = tmp_path / f"running.{fmt}"
        assert main(["--db", db, "export", str(game_id), "--format", fmt, "-o", str(out)]) == 2
        said = capsys.readouterr()
        assert not out.exists() and "written" not in said.out
        assert said.err.count("\n") == 1 and f"game {game_id} is still being played" in said.err
        assert f"`pokeview export {game_id}` (JSON) has what is recorded so far" in said.err
    # The JSON export gives what is recorded so far, and says the game is running.
    assert main(["--db", db, "export", str(game_id)]) == 0
    assert json.loads(capsys.readouterr().out)["game"]["status"] == "running"
    waits.go.set()
    result = await playing
    assert result.status == "finished"
    assert main(["--db", db, "export", str(game_id), "--format", "log"]) == 0
    assert "|win|" in capsys.readouterr().out
