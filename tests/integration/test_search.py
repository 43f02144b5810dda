"""The search player on the real bridge: it plays, it is deterministic with a node budget, it
sees only its own side, and a format it cannot search is one line."""

from __future__ import annotations

import asyncio
import json
import subprocess

import orjson
import pytest

from pokeview import paths
from pokeview.battle import seeds
from pokeview.battle.actions import legal_actions
from pokeview.battle.loop import play_game, side_payload
from pokeview.battle.spec import GameSpec
from pokeview.errors import BridgeDied, PokeviewError
from pokeview.game.bridge import PlayerSpec, SideUpdate, Start
from pokeview.players import make_player
from pokeview.players.base import DecisionContext
from pokeview.sim import install
from pokeview.sim.request import decode_request
from pokeview.sim.search_client import SearchHost
from tests.helpers import FORMAT, game, one_clear_line, pokeview


async def test_search_beats_random_and_records_what_it_considered(bridge, store):
    result = await game(bridge, store, "search:nodes=40", "random", "search-plays")
    assert result.status == "finished" and result.winner == "p1"
    searched = [d for d in store.decisions(result.game_id, "p1") if d.detail.search.nodes]
    assert searched
    info = searched[0].detail.search
    assert info.budget == "40 nodes" and 0 < info.nodes <= 40 and info.considered
    assert store.game(result.game_id).p1_config["budget"] == "40 nodes"


@pytest.mark.parametrize("spec", ["search:nodes=12", "search:nodes=12,depth=2"])
async def test_same_seed_and_node_budget_give_the_same_game(bridge, store, spec):
    a = await game(bridge, store, spec, "random", "search-same", turn_limit=8)
    b = await game(bridge, store, spec, "random", "search-same", turn_limit=8)
    ga, gb = store.game(a.game_id), store.game(b.game_id)
    assert ga.input_log == gb.input_log and ga.spectator_log == gb.spectator_log
    considered = [
        [d.detail.search.considered for d in store.decisions(r.game_id, "p1")] for r in (a, b)
    ]
    assert considered[0] == considered[1]


LEAD = """Garchomp @ Life Orb
Ability: Rough Skin
Level: 80
Tera Type: Ground
- Earthquake
- Outrage
- Stone Edge
- Swords Dance
"""
MINE = """Gholdengo @ Choice Specs
Ability: Good as Gold
Level: 80
Tera Type: Steel
- Make It Rain
- Shadow Ball
- Focus Blast
- Trick

Slowbro @ Leftovers
Ability: Regenerator
Level: 85
Tera Type: Water
- Scald
- Slack Off
- Psychic
- Calm Mind
"""
BENCHES = [
    """Pelipper @ Damp Rock
Ability: Drizzle
Level: 88
Tera Type: Water
- Hurricane
- Surf
- U-turn
- Roost
""",
    """Tyranitar @ Choice Band
Ability: Sand Stream
Level: 80
Tera Type: Rock
- Stone Edge
- Crunch
- Earthquake
- Ice Punch
""",
]


async def first_request(bridge, p2_team: str) -> tuple[SideUpdate, list[dict]]:
    """p1's first request and the updates p1 saw before it, in a battle with the given foe."""
    channel = await bridge.open(
        Start(
            format=FORMAT,
            seed=seeds.battle_seed("fair"),
            validate=False,
            players={
                "p1": PlayerSpec("Player 1", team=MINE),
                "p2": PlayerSpec("Player 2", team=p2_team),
            },
        )
    )
    updates: list[dict] = []
    try:
        while True:
            step = await channel.next()
            update = step.sides.get("p1")
            if update:
                updates.append(side_payload(update))
                request = decode_request(update.request_json)
                if request is not None and not request.wait:
                    return update, updates
    finally:
        channel.close()


def first_context(request: SideUpdate, updates: list[dict], bridge) -> DecisionContext:
    return DecisionContext(
        side="p1",
        index=0,
        turn=1,
        side_view=None,  # the search does not read poke-env's view
        request=decode_request(request.request_json),
        request_json=request.request_json,
        actions=legal_actions(decode_request(request.request_json)),
        seed=1234,
        updates=updates,
        bridge=bridge,
    )


async def test_the_search_sees_only_its_side_the_hidden_bench_changes_nothing(bridge):
    answers = []
    for bench in BENCHES:
        request, updates = await first_request(bridge, LEAD + "\n" + bench)
        ctx = first_context(request, updates, bridge)
        player = make_player("search:nodes=60")
        query = player.query(ctx)
        assert "Pelipper" not in str(query) and "Tyranitar" not in str(query)
        decision = await player.decide(ctx)
        answers.append((decision.action, decision.detail.search.considered, query["lines"]))
    assert answers[0] == answers[1]
    assert answers[0][1], "the search considered nothing"


async def test_a_search_host_that_dies_fails_its_search_and_the_next_search_starts_a_new_one(
    bridge,
):
    request, updates = await first_request(bridge, LEAD + "\n" + BENCHES[0])
    query = make_player("search:nodes=2000").query(first_context(request, updates, bridge))
    host = SearchHost()
    try:
        await host.start()
        assert host.proc is not None
        first_pid = host.proc.pid
        doomed = asyncio.create_task(host.search(query))
        await asyncio.sleep(0)  # the query is written; Node has not answered it yet
        host.proc.kill()
        with pytest.raises(BridgeDied, match=r"the search host died: exit code -9"):
            await doomed
        answer = await host.search({**query, "budget": {"nodes": 10}})
        assert host.proc is not None and host.proc.pid != first_pid
        assert 0 < answer["nodes"] <= 10
    finally:
        await host.close()


async def test_a_format_it_cannot_search_is_refused_before_anything_is_kept(bridge, store):
    with pytest.raises(PokeviewError, match="cannot search format 'gen9ou'"):
        spec = GameSpec(
            format="gen9ou",
            seed=seeds.game_seed("x"),
            p1=make_player("search"),
            p2=make_player("random"),
        )
        await play_game(spec, bridge=bridge, store=store)
    assert store.games(limit=10) == []


def test_a_run_with_a_format_it_cannot_search_is_one_line_and_plays_nothing(tmp_path):

    config = tmp_path / "run.toml"
    config.write_text(
        'name = "s"\nseed = "s"\npairs = 1\nformat = "gen9ou"\nplayers = ["search", "random"]\n'
    )
    db = tmp_path / "s.db"
    assert "cannot search format 'gen9ou'" in one_clear_line(
        pokeview("run", str(config), "--db", str(db))
    )
    assert "cannot search" in one_clear_line(
        pokeview("play", "--vs", "search", "--format", "gen9ou", "--db", str(db))
    )
    assert "cannot search" in one_clear_line(
        pokeview(
            "battle",
            "--p1",
            "search:ms=50",
            "--p2",
            "random",
            "--format",
            "gen9ou",
            "--db",
            str(db),
        )
    )


# Every joint action of the first determinization of a query, played at depth 1 and at depth 2
# (the evaluation after each turn, and the node's value).
NODES = """
const search = require(process.argv[1]);
search.load(process.argv[2]);
const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const det = search.determinizations(input, search.readView(input.lines), 1).next().value;
const seed = search.prngSeed(input.seed, det.index, 'node');
const cols = search.foeChoices(det, search.build(det, seed));
const nodes = [];
for (const row of search.ownRows(input.request, input.actions)) {
  for (const col of cols) {
    const evals = search.playout(det, row, col, 2, seed);
    if (!evals) continue;
    nodes.push({
      shallow: search.playNode(det, row, col, 1, seed),
      evals,
      value: search.playNode(det, row, col, 2, seed),
    });
  }
}
process.stdout.write(JSON.stringify({lambda: search.LAMBDA, nodes}));
"""


async def test_a_depth_2_node_keeps_the_searched_turns_evaluation(bridge):
    # Scoring a deeper node by its last turn alone (one roll of a greedy turn) made depth 2 play
    # worse than depth 1; its value now blends the evaluation after each turn.
    request, updates = await first_request(bridge, LEAD + "\n" + BENCHES[0])
    query = make_player("search:nodes=40,depth=2").query(first_context(request, updates, bridge))
    run = subprocess.run(
        [
            install.node_executable(),
            "-e",
            NODES,
            str(paths.search_script()),
            str(paths.showdown_dir()),
        ],
        input=orjson.dumps(query).decode(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    weight, nodes = out["lambda"], out["nodes"]
    assert 0 < weight < 1 and len(nodes) > 20
    for node in nodes:
        first, second = node["evals"]
        assert node["shallow"] == first  # the same searched turn at either depth
        assert node["value"] == pytest.approx((1 - weight) * first + weight * second)
    assert any(n["value"] != pytest.approx(n["evals"][1]) for n in nodes)
