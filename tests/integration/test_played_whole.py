"""A game of two random bots played through in the bridge with no step sent (`Autoplay.whole`,
`sim/bridge/whole.js`): recorded as its logs and decision times, its steps derived when first
read, and then everything made of it is what the game played step by step recorded."""

from __future__ import annotations

import asyncio
import os
import signal

import orjson
import pytest

from pokeview.battle.derive import CannotDerive
from pokeview.battle.loop import play_game
from pokeview.battle.spec import GameSpec
from pokeview.battle.verify import verify_game
from pokeview.errors import BattleRefused
from pokeview.exchange.files import export_as
from pokeview.players import make_player
from pokeview.sim.client import BattleChannel
from pokeview.store import body as bodies
from pokeview.store import open_store
from pokeview.store.compaction import DamagedGame, StoreConnection
from pokeview.store.events import EventKind
from tests.integration.test_bridge_plays import everything

# 16 seeded games in four generations, and two cut at a turn limit (where the bridge stops and
# the game is played the usual way).
GAMES = [(f"gen{g}randombattle", n, 1000) for g in (9, 8, 4, 1) for n in range(3)] + [
    ("gen9randombattle", 10, 1000),
    ("gen9randombattle", 11, 1000),
    ("gen9randombattle", 12, 4),
    ("gen7randombattle", 13, 6),
]


def random_game(text: str = "whole", pair: int = 0, **more) -> GameSpec:
    """A game of two random bots."""
    more.setdefault("format", "gen9randombattle")
    return GameSpec.new(
        seed_text=text, p1=make_player("random"), p2=make_player("random"), pair=pair, **more
    )


async def play_all(bridge, store, whole: bool) -> list[int]:
    async def one(fmt: str, pair: int, turn_limit: int) -> int:
        spec = random_game(pair=pair, format=fmt, turn_limit=turn_limit)
        return (await play_game(spec, bridge=bridge, store=store, whole=whole)).game_id

    ids = await asyncio.gather(*[one(*game) for game in GAMES])
    store.commit()
    return list(ids)


def formats(store) -> dict[int, int]:
    return dict(store.conn.execute("select game_id, format from bodies").fetchall())


async def test_a_game_played_whole_reads_as_the_game_played_step_by_step(bridge, tmp_path):
    steps = open_store(tmp_path / "steps.db")
    whole = open_store(tmp_path / "whole.db")
    step_ids = await play_all(bridge, steps, whole=False)
    whole_ids = await play_all(bridge, whole, whole=True)

    # The games of generations 9 and 1 were played whole: their logs and decision times only.
    # Those of 8 and 4 hold requests the bridge leaves to Python's bot (dynamax, for one), so
    # they were played the usual way, as were the games cut at a turn limit.
    played = formats(whole)
    assert [played[i] for i in whole_ids[:3] + whole_ids[9:14]] == [bodies.PLAYED] * 8
    assert played[whole_ids[-1]] == played[whole_ids[-2]] == bodies.FORMAT  # the turn limits
    assert set(formats(steps).values()) == {bodies.FORMAT}
    for i in whole_ids:  # the game's row, its stats and its logs are there before any read
        assert whole.game(i).spectator_log and whole.game(i).input_log
    assert whole.stats_missing(whole_ids) == []
    assert set(formats(whole).values()) == set(played.values())  # reading those derived nothing

    for a, b in zip(step_ids, whole_ids, strict=True):
        assert everything(whole, b) == everything(steps, a), f"game {b} reads otherwise"
    assert set(formats(whole).values()) == {bodies.FORMAT}  # derived once, and kept
    whole.close()
    again = open_store(tmp_path / "whole.db")  # another process reads them as kept
    assert [everything(again, b) for b in whole_ids] == [everything(steps, a) for a in step_ids]
    again.close()
    steps.close()


async def test_a_random_bot_s_refused_choice_is_tried_again_in_the_bridge(bridge, tmp_path):
    """A random bot's switch out of a trap it cannot see (Shadow Tag, Arena Trap) is refused as
    unavailable, and tried again with the next seed, in the bridge as in Python's loop: the game
    is still played whole, and reads as the game played step by step, its refusals included."""
    steps = open_store(tmp_path / "steps.db")
    whole = open_store(tmp_path / "whole.db")
    # p2 refused once in a turn, p2 twice in one turn, and p1
    sides = []
    for text, pair in (("refuse", 131), ("refuse", 146), ("refuse2", 3)):
        a = await play_game(random_game(text, pair), bridge=bridge, store=steps, whole=False)
        b = await play_game(random_game(text, pair), bridge=bridge, store=whole, whole=True)
        steps.commit()
        whole.commit()
        assert formats(whole)[b.game_id] == bodies.PLAYED
        refusals = [e for e in steps.events(a.game_id) if e.kind == EventKind.REFUSAL]
        assert refusals and all("trapped" in e.data.error for e in refusals)
        sides += [e.side for e in refusals]
        played = whole.played_times(b.game_id)  # (before the first read derives the game)
        assert played
        assert everything(whole, b.game_id) == everything(steps, a.game_id)
        for side in ("p1", "p2"):  # a retried decision's time too is the first play's
            times = [ms for s, ms in played if s == side]
            assert [d.latency_ms for d in whole.decisions(b.game_id, side)] == times
    assert {"p1", "p2"} <= set(sides)


async def test_the_decision_times_kept_are_the_first_play_s(bridge, tmp_path):
    store = open_store(tmp_path / "whole.db")
    (game_id,) = await play_all_one(bridge, store)
    played = store._stored_body(game_id, derive=False).played
    assert played
    by_side = {s: [ms for side, ms in played if side == s] for s in ("p1", "p2")}
    derived = {s: [d.latency_ms for d in store.decisions(game_id, s)] for s in ("p1", "p2")}
    assert derived == by_side
    store.close()


async def play_all_one(bridge, store) -> list[int]:
    result = await play_game(random_game(), bridge=bridge, store=store)
    store.commit()
    assert formats(store)[result.game_id] == bodies.PLAYED
    return [result.game_id]


async def test_verify_reads_a_game_played_whole_without_deriving_it(bridge, tmp_path):
    store = open_store(tmp_path / "whole.db")
    (game_id,) = await play_all_one(bridge, store)
    verdict = await verify_game(bridge, store, game_id)
    assert verdict.ok
    assert formats(store)[game_id] == bodies.PLAYED
    store.close()


async def test_a_read_only_file_derives_for_the_read_alone(bridge, tmp_path):
    store = open_store(tmp_path / "whole.db")
    (game_id,) = await play_all_one(bridge, store)
    store.close()
    reader = open_store(tmp_path / "whole.db")
    reader.read_only = True  # (as on a read-only file: see test_record.py)
    assert '"kind": "side"' in export_as(reader, game_id, "json")
    assert formats(reader)[game_id] == bodies.PLAYED
    reader.close()


async def test_a_game_that_plays_again_otherwise_is_one_line_and_kept(bridge, tmp_path):
    store = open_store(tmp_path / "whole.db")
    (game_id,) = await play_all_one(bridge, store)
    winner = store.game(game_id).winner
    forged = {"p1": "p2", "p2": "p1"}.get(winner or "", "p1")
    store.conn.execute("update games set winner = ? where id = ?", (forged, game_id))
    store.conn.commit()
    with pytest.raises(CannotDerive) as told:
        export_as(store, game_id, "json")
    assert "\n" not in str(told.value) and f"game {game_id}" in str(told.value)
    assert formats(store)[game_id] == bodies.PLAYED  # nothing written
    store.close()


async def test_a_reader_with_no_deriver_is_told_so_in_one_line(bridge, tmp_path, monkeypatch):
    store = open_store(tmp_path / "whole.db")
    (game_id,) = await play_all_one(bridge, store)
    monkeypatch.setattr(StoreConnection, "deriver", None)
    with pytest.raises(DamagedGame) as told:
        store.events(game_id)
    assert "\n" not in str(told.value) and "played in the bridge alone" in str(told.value)
    assert store.game(game_id).spectator_log  # its log and row read as ever
    store.close()


async def test_a_bridge_killed_while_games_are_played_whole_leaves_no_half_game(tmp_path):
    from pokeview.sim.client import Bridge

    store = open_store(tmp_path / "whole.db")
    pool = Bridge(hosts=1)
    try:
        specs = [random_game("killed", n) for n in range(16)]
        tasks = [asyncio.create_task(play_game(s, bridge=pool, store=store)) for s in specs]
        for _ in range(3000):
            await asyncio.sleep(0.005)
            if any(t.done() for t in tasks):
                break
        os.kill(pool.pids()[0], signal.SIGKILL)
        results = await asyncio.wait_for(asyncio.gather(*tasks), 60)
    finally:
        await pool.close()
    killed = [r for r in results if r.status == "interrupted"]
    assert killed and all("bridge died" in (r.error or "") for r in killed)
    for r in killed:  # nothing of it kept but its row, out of the ratings: a run plays it again
        row = store.game(r.game_id)
        assert row.exclude_from_ratings and not row.input_log
        assert [e.kind for e in store.events(r.game_id)] == ["error"]
    for r in results:
        if r.status == "finished":
            assert store.events(r.game_id) and store.decisions(r.game_id)
    store.close()


async def test_a_game_played_whole_is_shipped_as_played_and_read_whole_where_stored(
    bridge, tmp_path
):
    """As a Ray worker ships a game to the driver (ray_worker.py, ray_games.py)."""
    worker = open_store(tmp_path / "worker.db")
    (game_id,) = await play_all_one(bridge, worker)
    played = worker.played_times(game_id)
    row, decisions, events = worker.export_rows(game_id, derive=False)
    assert played and decisions == [] and events == []
    assert formats(worker)[game_id] == bodies.PLAYED  # shipping it derived nothing
    driver = open_store(tmp_path / "driver.db")
    del row["id"]
    stored = driver.import_game(row, decisions, [], played=played)
    assert formats(driver)[stored] == bodies.PLAYED
    assert driver.stats_missing([stored]) == []  # its stats from the decisions' times
    assert everything(driver, stored) == everything(worker, game_id)
    assert driver.played_times(stored) is None  # derived once read, and kept
    worker.close()
    driver.close()


async def test_a_read_while_another_game_waits_to_be_written_keeps_the_ids_it_gives(
    bridge, tmp_path
):
    """Found in review: a read inside the open transaction of a running game's rows was given
    the scratch file's ids, which changed when a later read kept the game."""
    store = open_store(tmp_path / "whole.db")
    (game_id,) = await play_all_one(bridge, store)
    running = store.create_game(format="gen9randombattle", seed="s", p1="a", p2="b")
    store.append_events(running, [(None, EventKind.LOG, ["|t:|1"])] * 3000, 0.0)
    store._flush()
    assert store.conn.in_transaction  # a running game's rows, not committed yet
    given = [e.id for e in store.events(game_id)]
    assert formats(store)[game_id] == bodies.FORMAT  # kept, not given to this read alone
    store.close()
    again = open_store(tmp_path / "whole.db")
    assert [e.id for e in again.events(game_id)] == given
    assert min(given) > 3000  # ids of this file, after the running game's
    again.close()


async def test_a_crash_while_played_whole_is_played_step_by_step(bridge, tmp_path, monkeypatch):
    """Found in review: a crash in the bridge's whole play deleted the game and stopped a run;
    step by step, a crash where it happens is recorded as the game's error."""

    async def crashed(self):
        raise BattleRefused("Showdown: something threw")

    monkeypatch.setattr(BattleChannel, "played", crashed)
    store = open_store(tmp_path / "whole.db")
    result = await play_game(random_game(), bridge=bridge, store=store)
    assert result.status == "finished" and formats(store)[result.game_id] == bodies.FORMAT
    store.close()


async def test_a_game_played_again_otherwise_on_another_showdown_says_so(bridge, tmp_path):
    store = open_store(tmp_path / "whole.db")
    (game_id,) = await play_all_one(bridge, store)
    store.conn.execute(
        "update games set showdown_version = '0.0.1', turns = turns + 1 where id = ?", (game_id,)
    )
    store.conn.commit()
    with pytest.raises(CannotDerive, match=r"played on Showdown 0\.0\.1.*pokeview db --check"):
        store.decisions(game_id)
    store.close()


def test_the_command_line_plays_a_game_whole_and_shows_it_whole(tmp_path):
    """`pokeview battle` of two random bots, then `verify` and the log exports (which do not
    derive), checked by Showdown's own `simulate-battle`, and the JSON export: the command line
    installs the deriver, so its readers meet the game's steps."""
    from tests.helpers import pokeview, showdown_spectator_log

    db = str(tmp_path / "cli.db")
    played = pokeview("battle", "--p1", "random", "--p2", "random", "--seed", "cli", "--db", db)
    assert played.returncode == 0, played.stderr
    verified = pokeview("verify", "1", "--db", db)
    assert verified.returncode == 0, verified.stderr
    # Showdown's own simulator, fed the input log the bridge kept, writes the spectator log the
    # bridge kept (the log and the input log are exported without deriving anything).
    log = pokeview("export", "1", "--format", "log", "--db", db).stdout
    inputlog = pokeview("export", "1", "--format", "inputlog", "--db", db).stdout
    assert showdown_spectator_log(inputlog) == log.rstrip("\n").split("\n")
    store = open_store(tmp_path / "cli.db")
    assert formats(store) == {1: bodies.PLAYED}  # played whole, and read so far as it is
    store.close()
    exported = pokeview("export", "1", "--db", db)
    assert exported.returncode == 0, exported.stderr
    kinds = [event["kind"] for event in orjson.loads(exported.stdout)["events"]]
    assert kinds.count("side") > 20 and kinds.count("choice") > 20 and kinds[-1] == "end"
    store = open_store(tmp_path / "cli.db")
    assert formats(store) == {1: bodies.FORMAT}  # derived by the export, and kept
    store.close()


async def test_a_format_with_team_preview_is_tried_whole_once_a_process(
    bridge, tmp_path, monkeypatch, data_dir
):
    """The bridge does not play Team Preview: a game of bots in such a format (gen9ou) stops
    there at once and is played step by step. The process learns it from the format's first
    game: later ones start no battle in vain, and each records the same game."""
    from pokeview.battle import loop

    monkeypatch.setattr(loop, "_PREVIEW_FORMATS", set(), raising=False)  # (learned afresh)
    team = (data_dir / "gen9ou-team.txt").read_text()
    opened: list[str] = []
    real_open = bridge.open

    async def counted(start, receiver=None):
        opened.append("whole" if start.autoplay and start.autoplay.whole else "steps")
        return await real_open(start, receiver)

    monkeypatch.setattr(bridge, "open", counted)
    store = open_store(tmp_path / "ou.db")
    ids = []
    for _ in range(3):
        spec = random_game("preview", format="gen9ou", teams={"p1": team, "p2": team})
        ids.append((await play_game(spec, bridge=bridge, store=store)).game_id)
    store.commit()
    assert opened == ["whole", "steps", "steps", "steps"]
    assert sorted(loop._PREVIEW_FORMATS) == ["gen9ou"]
    games = [store.game(i) for i in ids]
    assert all(g.status == "finished" for g in games)
    assert len({g.input_log for g in games}) == 1
    assert ">p1 team" in (games[0].input_log or "")
