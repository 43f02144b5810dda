"""Record format 4: a side's request and snapshot travel and are stored as differences from its
previous ones, and every reader gets them whole, exactly as the bridge would have sent them."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import msgspec
import pytest

from pokeview.battle import seeds
from pokeview.battle.actions import legal_actions
from pokeview.battle.loop import start_spec
from pokeview.game.side import SideState
from pokeview.sim.request import decode_request
from pokeview.store.differences import Rebuilder, apply
from pokeview.store.events import EventKind
from pokeview.store.store import DamagedGame
from tests.helpers import game, sqlite_file

_JSON = msgspec.json
DIFFERENCES_JS = Path(__file__).parents[2] / "pokeview" / "sim" / "bridge" / "differences.js"


def _exact(value) -> bytes:
    return _JSON.encode(value)  # key order included: dicts encode in their own order


@pytest.mark.parametrize("n", range(3))
async def test_the_bridges_differences_rebuild_each_request_and_snapshot_exactly(bridge, n):
    """The same battle twice in step: sent as differences, and sent whole."""
    spec = start_spec("gen9randombattle", seeds.game_seed("differences", n))
    sent = await bridge.open(spec)
    whole = await bridge.open(msgspec.structs.replace(spec, whole=True))
    rebuilder = Rebuilder()
    pick = random.Random(n)
    compared = with_differences = 0
    sent_bytes = whole_bytes = 0
    try:
        for _ in range(200):
            a, b = await sent.next(), await whole.next()
            assert a.sides.keys() == b.sides.keys()
            for side, update in a.sides.items():
                other = b.sides[side]
                request, state = rebuilder.values(
                    side,
                    _raw(update.request_json),
                    _raw(update.state),
                    _raw(update.request_delta),
                    _raw(update.state_delta),
                )
                whole_request = _JSON.decode(other.request_json)
                assert _exact(request) == _exact(whole_request)
                assert _exact(state) == _exact(_JSON.decode(other.state))
                assert _JSON.decode(update.request_json) == whole_request  # the player's is whole
                compared += 1
                if _raw(update.state_delta) is not None:
                    with_differences += 1
                    sent_bytes += len(update.state_delta) + len(update.request_delta)
                    whole_bytes += len(other.state) + len(other.request_json)
            if a.end:
                break
            for side, update in b.sides.items():
                request = decode_request(update.request_json)
                if request is not None and not request.wait:
                    choice = pick.choice(legal_actions(request)).choice
                    sent.choose(side, choice)
                    whole.choose(side, choice)
    finally:
        sent.close()
        whole.close()
    assert compared > 40 and with_differences > compared / 3
    assert sent_bytes * 5 < whole_bytes  # what the differences are for


def _raw(value):
    return None if value is None or bytes(value) == b"null" else value


async def test_a_game_is_stored_as_differences_and_every_way_of_reading_it_agrees(store, bridge):
    result = await game(bridge, store, "random", "random", "differences", turn_limit=25)
    gid = result.game_id
    from_body = store.events(gid)
    with store.conn:
        store._expand(gid)  # back into rows, as a running game's are
    with sqlite_file(store.path) as conn:
        rows = conn.execute(
            "select data from events where game_id = ? and kind = 'side'", (gid,)
        ).fetchall()
    with_differences = [data for (data,) in rows if '"state_delta"' in data]
    assert len(with_differences) > len(rows) / 2  # stored as differences (before format 4: none)
    assert all('"state"' not in data for data in with_differences)

    def same(events):
        return [(e.id, e.side, e.kind, _exact(e.data)) for e in events]

    from_rows = store.events(gid)
    assert same(from_rows) == same(from_body)
    sides = [e for e in from_rows if e.kind == EventKind.SIDE]
    assert all(e.data.request_delta is None and e.data.state_delta is None for e in sides)
    assert sum(e.data.state is not None for e in sides) >= len(with_differences)
    # A spectator's way: what is new since the last event seen, in several reads.
    for cut in (sides[3].id, sides[10].id, sides[-5].id):
        later = [e for e in from_rows if e.id > cut]
        assert same(store.events(gid, after=cut)) == same(later)
    p2 = [e for e in sides if e.side == "p2"]
    assert same(store.events(gid, p2[6].id, kinds=(EventKind.SIDE,), side="p2")) == same(p2[7:])
    reader = type(store)(store.path)  # another Store, following from nothing
    assert same(reader.events(gid, after=sides[20].id)) == same(
        [e for e in from_rows if e.id > sides[20].id]
    )
    reader.close()


async def test_a_side_event_whose_differences_lost_their_start_is_one_line_and_only_that_game(
    store, bridge
):
    damaged = (await game(bridge, store, "random", "random", "lost", turn_limit=8)).game_id
    intact = (await game(bridge, store, "random", "random", "kept", turn_limit=8)).game_id
    store.skip_verify = True
    with store.conn:
        store._expand(damaged)
        first = store.conn.execute(
            "select min(id) from events where game_id = ? and kind = 'side' and side = 'p1'",
            (damaged,),
        ).fetchone()[0]
        store.conn.execute("delete from events where id = ?", (first,))
    with pytest.raises(DamagedGame, match=f"^game {damaged} has an unreadable side event: "):
        store.events(damaged)
    store.compact_all()
    reader = type(store)(store.path)
    with pytest.raises(DamagedGame, match=f"^game {damaged} "):
        reader.events(damaged)
    assert any(e.kind == EventKind.SIDE for e in reader.events(intact))
    reader.close()


# Values whose keys or items JSON treats unusually; `undefined` (left out by JSON.stringify) can
# only be written in JavaScript, so the pairs are built there.
_EDGE_PAIRS = """[
  [{a: 1}, {a: 1, __proto__x: 2}],
  [{a: 1}, JSON.parse('{"a": 1, "__proto__": {"b": 2}}')],
  [JSON.parse('{"__proto__": {}, "a": 1}'), {a: 1}],
  [JSON.parse('{"__proto__": [1], "a": 1}'), JSON.parse('{"a": 2, "__proto__": [1, 2]}')],
  [{constructor: 1, a: 1}, {a: 1}],
  [{a: 1}, {a: 1, toString: {b: 1}}],
  [{a: 1, b: undefined, c: 2}, {a: 1, b: 3, c: 2}],
  [{a: 1, b: 3, c: 2}, {a: 1, b: undefined, c: 2}],
  [{a: null}, {a: undefined}],
  [[1, undefined], [1, 2]],
  [{x: [null]}, {x: [undefined, {}]}],
  [{n: 1e21, f: 0.1, z: 0}, {n: -1e-7, f: 0.30000000000000004, z: -0}],
  [{t: [{species: 'A'}, {species: 'A'}]}, {t: [{species: 'A', hp: 1}, {species: 'A'}, {}]}],
  [{t: [{species: 'A'}, {species: 'B'}]}, {t: [{species: 'B'}, null, {species: 'A', hp: 2}]}],
  [{t: {a: 1}}, {t: [1]}],
  [{t: 'x'}, {t: {a: [{ident: 'p1: A'}]}}]
]"""


def test_the_bridges_differences_rebuild_unusual_keys_and_values():
    """A key named `__proto__` (or `constructor`, which every object inherits) is a key like
    another: the differences set and delete it as JSON.stringify writes it."""
    script = (
        f"const {{differences}} = require({json.dumps(str(DIFFERENCES_JS))});"
        f"const pairs = {_EDGE_PAIRS};"
        "console.log(JSON.stringify(pairs.map(([a, b]) =>"
        " [JSON.stringify(a), JSON.stringify(b), differences(a, b)])));"
    )
    run = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
    for before, after, ops in json.loads(run.stdout):
        rebuilt = apply(json.loads(before), ops)
        assert json.dumps(rebuilt) == json.dumps(json.loads(after)), (before, after, ops)


async def test_a_reader_following_a_game_that_was_resumed_elsewhere_rebuilds_from_the_new_rows(
    store, bridge
):
    """Resuming deletes a game's later events, and their ids are used again: another process's
    reader must not apply the new differences to what it had followed of the old ones."""
    from pokeview.store import events as ev

    gid = (await game(bridge, store, "random", "random", "resumed", turn_limit=12)).game_id
    store.skip_verify = True
    with store.conn:
        store._expand(gid)
    reader = type(store)(store.path)  # another process's Store, say
    followed = reader.events(gid)
    last = followed[-1].id
    first_p1 = next(e for e in followed if e.kind == EventKind.SIDE and e.side == "p1")
    cut = followed[0].id
    store.forget_after(gid, cut, set())  # as resuming from the first event would
    restart = ev.Side(first_p1.data.lines, [], state={"turn": 1, "format": "fresh"})
    filler = [(None, EventKind.LOG, [f"|filler|{n}"]) for n in range(last - cut - 1)]
    later = ev.Side([], [], state_delta=[[["turn"], 2]])
    store.append_events(gid, [("p1", EventKind.SIDE, restart), *filler], 1.0)
    store.append_events(gid, [("p1", EventKind.SIDE, later)], 2.0)
    store.commit()
    new = reader.events(gid, after=last)
    assert [e.kind for e in new] == [EventKind.SIDE]
    assert new[0].data.state == SideState(turn=2, format="fresh")  # the new rows, not the old
    reader.close()


@pytest.mark.parametrize("at", [1, 2], ids=["before-its-first-read", "between-its-two-reads"])
async def test_a_game_compacted_between_a_readers_reads_of_it_reads_as_nothing_new(
    store, bridge, at
):
    """A reader of a running game sees it running, then reads its side events' bases and its new
    rows in two statements. If the game ends in another process before either (its rows deleted,
    its body written), the reader must see nothing new, not differences with nothing to apply."""
    gid = (await game(bridge, store, "random", "random", "race", turn_limit=8)).game_id
    store.skip_verify = True
    with store.conn:  # back to rows, as while it ran
        store._expand(gid)
        store.conn.execute("update games set status = 'running' where id = ?", (gid,))
    whole = store.events(gid)
    middle = [e.id for e in whole if e.kind == EventKind.SIDE][4]
    reader = type(store)(store.path)  # the spectator's process, say
    reads: list[str] = []

    def finish_in_the_other_process(sql: str) -> None:
        # Runs as the reader's next statement on the events starts: the other connection ends
        # the game (compacting it) right there, before that statement reads.
        if " from events " in sql:
            reads.append(sql)
            if len(reads) == at:
                store.finish_game(gid, status="finished", winner="p1", turns=8)

    reader.conn.set_trace_callback(finish_in_the_other_process)
    try:
        news = reader.events(gid, after=middle)
    finally:
        reader.conn.set_trace_callback(None)
    assert len(reads) == 2  # the bases, then the rows
    assert store.game(gid).compacted  # the game really ended in between
    assert news == []  # nothing new yet: never damaged
    expected = [e for e in whole if e.id > middle]
    assert reader.events(gid, after=middle) == expected  # and next time, from the body
    reader.close()
