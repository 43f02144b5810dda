"""Games played for real on Showdown through the shared bridge."""

from __future__ import annotations

import asyncio
import json
import os
import signal

import pytest

from pokeview.battle.verify import verify_game
from pokeview.errors import BattleRefused
from pokeview.game.bridge import DebugCrash
from pokeview.sim.client import Bridge
from pokeview.store import open_store
from pokeview.store.events import EventKind
from tests.helpers import STEP_BY_STEP, game, sqlite_file
from tests.players_for_tests import Raises, RefusedOnce


async def test_a_game_is_recorded_with_provenance_decisions_and_events(bridge, store):
    result = await game(bridge, store, text="record")
    assert result.status == "finished" and result.winner in ("p1", "p2") and result.turns > 0
    row = store.game(result.game_id)
    assert row.showdown_version == "0.11.11" and row.pokeview_version
    assert row.p1_config["engine"] == "poke-env SimpleHeuristicsPlayer"
    assert row.input_log.startswith('>start {"formatid":"gen9randombattle","seed":"sodium,')
    assert row.spectator_log.splitlines()[-1].startswith("|win|")
    assert not any(line.startswith(("|t:|", "|debug|")) for line in row.spectator_log.splitlines())
    decisions = store.decisions(result.game_id)
    assert {d.side for d in decisions} == {"p1", "p2"}
    assert all(d.actions[d.action] for d in decisions)
    kinds = {e.kind for e in store.events(result.game_id)}
    assert {"side", "log", "input", "choice", "end"} <= kinds
    # Each side's words are from its own perspective.
    words = {
        side: [
            w
            for e in store.events(result.game_id)
            if e.side == side and e.kind == "side"
            for w in e.data.text
        ]
        for side in ("p1", "p2")
    }
    assert any(w.startswith("Go! ") for w in words["p1"])
    assert any(w.startswith("Player 1 sent out ") for w in words["p2"])
    assert not any("**" in w or "||" in w for w in words["p1"] + words["p2"])


async def test_same_seed_same_game_other_seed_other_game(bridge, store):
    a = await game(bridge, store, "random", "heuristic", text="same")
    b = await game(bridge, store, "random", "heuristic", text="same")
    c = await game(bridge, store, "random", "heuristic", text="other")
    ga, gb, gc = (store.game(r.game_id) for r in (a, b, c))
    assert ga.spectator_log == gb.spectator_log and ga.input_log == gb.input_log
    assert ga.spectator_log != gc.spectator_log


async def test_mirror_pair_gives_each_player_each_team(bridge, store):
    first = await game(bridge, store, "heuristic", "random", text="mirror", seat=0)
    second = await game(bridge, store, "random", "heuristic", text="mirror", seat=1)
    log1 = store.game(first.game_id).spectator_log.splitlines()
    log2 = store.game(second.game_id).spectator_log.splitlines()

    # The same seed gives the same two teams: the leads sent out on turn 0 are the same.
    def leads(log: list[str]) -> list[str]:
        return [line.split("|")[3] for line in log if line.startswith("|switch|")][:2]

    assert leads(log1) == leads(log2)


@pytest.mark.slow
async def test_heuristic_beats_random_in_nine_of_ten_games(bridge, store):
    tasks = []
    for pair in range(20):
        tasks.append(game(bridge, store, "heuristic", "random", text="strength", pair=pair))
        tasks.append(game(bridge, store, "random", "heuristic", text="strength", pair=pair))
    results = await asyncio.gather(*tasks)
    assert all(r.status == "finished" for r in results)
    wins = sum(1 for r in results if r.winner_name == "heuristic")
    assert wins >= 36, f"heuristic won {wins} of 40"


async def test_32_games_at_once_on_one_bridge(bridge, store):
    pid = bridge.pid()
    results = await asyncio.gather(*[game(bridge, store, text="many", pair=i) for i in range(32)])
    assert [r.status for r in results] == ["finished"] * 32
    assert bridge.pid() == pid and bridge.open_battles() == 0
    assert len({store.game(r.game_id).spectator_log for r in results}) == 32


async def test_killing_the_bridge_marks_the_game_and_loses_nothing(bridge, store):
    done = await game(bridge, store, text="before")
    long = asyncio.create_task(
        game(bridge, store, "random", "max-damage", text="killed", format=STEP_BY_STEP)
    )
    for _ in range(500):
        await asyncio.sleep(0.01)
        running = store.games(status="running")
        if running and len(store.decisions(running[0].id)) >= 10:
            break
    old_pid = bridge.pid()
    os.kill(old_pid, signal.SIGKILL)
    killed = await asyncio.wait_for(long, timeout=30)
    # Not a result: pokeview's own machinery failed. Kept, out of the ratings, played again.
    assert killed.status == "interrupted" and "bridge died" in killed.error
    row = store.game(killed.game_id)
    assert row.status == "interrupted" and "bridge died" in row.error
    assert row.exclude_from_ratings
    assert row.input_log and row.spectator_log  # what was played is kept
    kept = store.game(done.game_id)
    assert kept.status == "finished" and kept.spectator_log
    after = await game(bridge, store, text="after")
    assert after.status == "finished" and bridge.pid() != old_pid


async def test_battles_spread_over_two_hosts_and_one_dying_spares_the_other(store):
    from pokeview.sim.client import Bridge

    pool = Bridge(hosts=2)
    try:
        tasks = [
            asyncio.create_task(game(pool, store, "random", "random", text="pool", pair=i))
            for i in range(6)
        ]
        for _ in range(1000):
            await asyncio.sleep(0.01)
            if all(host.open_battles() for host in pool.hosts):
                break
        assert len(set(pool.pids())) == 2  # the simulator on both cores
        await asyncio.sleep(0.3)  # into the games
        victim = pool.hosts[1]
        doomed = victim.open_battles()
        os.kill(victim.pid(), signal.SIGKILL)
        results = await asyncio.gather(*tasks)
        errors = [r for r in results if r.status == "interrupted"]
        assert len(errors) == doomed and all("bridge died" in r.error for r in errors)
        assert sum(r.status == "finished" for r in results) == 6 - doomed  # the others went on
        assert (await game(pool, store, text="after")).status == "finished"
    finally:
        await pool.close()


async def test_one_battle_crashing_leaves_the_others_running(store, monkeypatch):
    # debug-crash is a test-only op: the bridge takes it only with the test switch on.
    monkeypatch.setenv("POKEVIEW_TEST_SWITCHES", "debug-crash")
    bridge = Bridge(hosts=1)  # both battles in the one process that hosts the crash
    await bridge.start()
    try:
        # max-damage is asked in Python: the game waits on it between turns, as the crash comes
        victim = asyncio.create_task(
            game(bridge, store, "random", "max-damage", text="victim", format=STEP_BY_STEP)
        )
        while bridge.open_battles() == 0:
            await asyncio.sleep(0.005)
        victim_channel = next(iter(bridge._channels))
        other = asyncio.create_task(game(bridge, store, text="bystander"))
        await asyncio.sleep(0.05)
        bridge._send(DebugCrash(victim_channel))
        crashed, fine = await asyncio.gather(victim, other)
    finally:
        await bridge.close()
    assert crashed.status == "error" and "test crash" in crashed.error
    assert fine.status == "finished"


async def test_the_test_only_crash_op_is_refused_without_the_test_switch(bridge, store):
    assert "debug-crash" not in os.environ.get("POKEVIEW_TEST_SWITCHES", "")
    victim = asyncio.create_task(
        game(bridge, store, "random", "max-damage", text="victim", format=STEP_BY_STEP)
    )
    while bridge.open_battles() == 0:
        await asyncio.sleep(0.005)
    bridge._send(DebugCrash(next(iter(bridge._channels))))
    refused = await victim
    assert refused.status == "error" and "unknown op 'debug-crash'" in refused.error


async def test_a_refused_choice_goes_back_to_the_player(bridge, store):
    player = RefusedOnce()
    result = await game(bridge, store, player, "random", text="refusal", turn_limit=3)
    assert result.status == "finished" and result.winner == "tie" and result.turns == 3
    second = player.contexts[1]
    assert second.index == 0 and second.refusal.startswith("[Invalid choice] Can't switch")
    first = store.decisions(result.game_id, "p1")[0]
    assert first.refusals[0]["choice"] == "switch 9"
    assert first.refusals[0]["error"].startswith("[Invalid choice]")
    assert first.choice != "switch 9"
    assert any(e.kind == "refusal" for e in store.events(result.game_id))


async def test_a_player_that_raises_ends_its_game_as_an_error(bridge, store):
    result = await game(bridge, store, Raises(), "random", text="raises")
    assert result.status == "error" and "a bug in a player" in result.error


async def test_unknown_format_is_refused_and_nothing_is_kept(bridge, store):
    with pytest.raises(BattleRefused, match="unknown format 'gen9nope'"):
        await game(bridge, store, format="gen9nope")
    assert store.count_games() == 0


async def test_invalid_team_is_refused(bridge, store):
    bad = "Pikachu||||thunderbolt,fly,surf,hyperbeam|||||||"
    with pytest.raises(BattleRefused, match="not valid in gen9ou"):
        await game(bridge, store, format="gen9ou", teams={"p1": bad, "p2": bad})


async def test_team_preview_format_with_export_teams(bridge, store, data_dir):
    team = (data_dir / "gen9ou-team.txt").read_text()
    result = await game(bridge, store, format="gen9ou", teams={"p1": team, "p2": team}, text="ou")
    assert result.status == "finished"
    first = store.decisions(result.game_id, "p1")[0]
    assert first.actions[0] == "lead Great Tusk" and first.choice.startswith("team ")
    assert "|teampreview" in store.game(result.game_id).spectator_log


async def test_generation_1_with_pokeval_teams(bridge, store, data_dir):
    teams = {s: (data_dir / f"gen1-pokeval-{s}.txt").read_text().strip() for s in ("p1", "p2")}
    result = await game(
        bridge, store, "max-damage", "random", format="gen1customgame", teams=teams, text="gen1"
    )
    assert result.status == "finished"
    row = store.game(result.game_id)
    assert "|switch|p1a: Mankey|Mankey|" in row.spectator_log and "|debug|" not in row.spectator_log
    # Gen 1 has no abilities: every member plays with `No Ability`, not its species' default.
    for line in row.input_log.splitlines()[1:3]:
        team = json.loads(line.split(" ", 2)[2])["team"]
        assert [m.split("|")[3] for m in team.split("]")] == ["NoAbility"] * 6
    assert "ability:" not in row.spectator_log
    # ... nor items, natures, or two Special stats.
    with pytest.raises(BattleRefused, match="Mankey holds Leftovers; Gen 1 has no items"):
        item = {s: t.replace("Mankey||", "Mankey||leftovers", 1) for s, t in teams.items()}
        await game(bridge, store, format="gen1customgame", teams=item, text="gen1")
    with pytest.raises(BattleRefused, match="Gen 1 has one Special stat"):
        special = {s: t.replace("|||||||]", "||,,,252,,|||||]", 1) for s, t in teams.items()}
        await game(bridge, store, format="gen1customgame", teams=special, text="gen1")


async def test_another_connection_follows_a_game_live(bridge, store):
    # (max-damage is asked in Python at each turn)
    task = asyncio.create_task(
        game(bridge, store, "random", "max-damage", text="live", format=STEP_BY_STEP)
    )
    reader = open_store(store.path)
    seen = []
    while not task.done():
        await asyncio.sleep(0.01)  # the writer commits every 50 ms; a game lasts a few tenths
        running = reader.games(status="running")
        if running:
            seen.append(len(reader.events(running[0].id)))
    result = await task
    # The reader saw the running game grow, commit after commit, never shrink.
    assert len({n for n in seen if n}) >= 3 and seen == sorted(seen) and seen[-1] > seen[0]
    assert len(reader.events(result.game_id)) >= seen[-1]
    reader.close()


async def test_verify_names_the_first_differing_line(bridge, store):
    result = await game(bridge, store, text="tamper")
    lines = store.game(result.game_id).spectator_log.split("\n")
    assert (await verify_game(bridge, store, result.game_id)).ok
    lines[12] = lines[12] + "|tampered"
    store.set_spectator_log(result.game_id, "\n".join(lines))
    verdict = await verify_game(bridge, store, result.game_id)
    assert not verdict.ok
    assert "line 13" in verdict.message and "tampered" in verdict.message
    store.skip_verify = True


async def test_revival_blessing_revives_a_fainted_pokemon(bridge, store):
    # Seed "many", pair 63: p1 uses Revival Blessing; before the fix every choice was refused.
    result = await game(bridge, store, "random", "random", text="many", pair=63)
    assert result.status == "finished"
    reviving = [
        e
        for e in store.events(result.game_id)
        if e.kind == "side"
        and e.data.request
        and any(m.get("reviving") for m in e.data.request["side"]["pokemon"])
    ]
    assert reviving
    assert not any(d.refusals for d in store.decisions(result.game_id))


async def test_a_pokemon_marked_illegal_that_random_battles_field_is_known_to_the_client(
    bridge, store
):
    # Showdown's gen 6 random battles field Floette-Eternal, which @pkmn/data leaves out by
    # default ("Unobtainable", "Illegal"): the foe's snapshot failed with "Cannot read properties
    # of undefined (reading 'types')" and Showdown's battle ended as refused.
    text, pair, fmt = "review-gen6randombattle", 28, "gen6randombattle"
    result = await game(bridge, store, "random", "random", text=text, pair=pair, format=fmt)
    assert result.status == "finished", result.error
    seen = [
        mon
        for e in store.events(result.game_id, kinds=[EventKind.SIDE])
        if e.data.state
        for mon in e.data.state.foe_team
        if mon.species == "Floette-Eternal"
    ]
    assert seen and seen[0].types == ["Fairy"]


async def test_a_transformed_pokemon_keeps_its_own_name_in_the_foes_snapshot(bridge, store):
    # The client names a Pokémon that used Transform as its target: a Ditto was shown (and
    # prompted) as the Meloetta it copied, and its own entry went missing from the foe's team.
    result = await game(bridge, store, "heuristic", "random", text="sweep-gen9randombattle-28")
    assert result.status == "finished"
    transformed = [
        e
        for e in store.events(result.game_id, kinds=[EventKind.SIDE])
        if e.side == "p1" and any(line.startswith("|-transform|p2a: ") for line in e.data.lines)
    ]
    assert transformed
    later = [
        e.data.state
        for e in store.events(result.game_id, kinds=[EventKind.SIDE])
        if e.side == "p1" and e.id >= transformed[0].id and e.data.state
    ]
    active = next(m for m in later[0].foe_team if m.active)
    assert active.species == "Ditto" and active.types == ["Normal", "Psychic"]
    species = [m.species for m in later[0].foe_team]
    assert len(species) == len(set(species))  # no Pokémon twice under the copied name


async def test_own_side_words_follow_the_protocol(bridge, store):
    # Regression: handing Showdown's requests to @pkmn/client made it word "X, come back!" for
    # a Pokémon that had fainted and damage figures from the wrong HP.
    result = await game(bridge, store, "random", "random", text="words", pair=1)
    for side in ("p1", "p2"):
        fainted: set[str] = set()
        own = f"|faint|{side}a: "
        for event in store.events(result.game_id):
            if event.side != side or event.kind != "side":
                continue
            for word in event.data.text:
                if word.endswith(", come back!"):
                    assert word.removesuffix(", come back!") not in fainted, word
            for line in event.data.lines:
                if line.startswith(own):
                    fainted.add(line[len(own) :])
                elif line.startswith(f"|switch|{side}a: "):
                    fainted.discard(line.split("|")[2].split(": ", 1)[1])


async def test_bots_draw_from_their_own_generator_not_the_global_one(bridge, store):
    import random

    random.seed(1234)
    expected = random.Random(1234).random()
    first = await game(bridge, store, "random", "heuristic", text="own-rng", turn_limit=6)
    assert random.random() == expected  # nothing moved the global generator
    random.seed(999)  # and moving it changes nothing in the game
    again = await game(bridge, store, "random", "heuristic", text="own-rng", turn_limit=6)
    assert store.game(first.game_id).input_log == store.game(again.game_id).input_log


async def test_a_game_cancelled_in_a_run_leaves_nothing_waiting_for_a_commit(bridge, store):
    """Stopped (SIGTERM, Ctrl-C), a run's event loop ends soon after its games are cancelled,
    so the commit a game's last events wait for may never come: cancelling commits them, even
    when the players were remembered by an earlier game (no commit of their own then)."""

    from pokeview.players import make_player
    from pokeview.players.base import Player
    from pokeview.store import events as ev

    asked: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    class Stalls(Player):
        kind = "test"
        name = "stalls"

        def describe(self) -> dict[str, object]:
            return {"kind": "test"}

        async def decide(self, ctx):  # noqa: ANN001, ANN201
            if ctx.index < 3:
                from pokeview.players.base import Decision

                return Decision(0)
            ctx.emit(ev.EventKind.ATTEMPT, ev.Attempt(ctx.index, 0, "the last word"))
            asked.set_result(ctx.game_id)
            await asyncio.Event().wait()  # a slow model: stopped before it answers

    stalls, other = Stalls(), make_player("random")
    for player in (stalls, other):  # as an earlier game of the run did
        store.remember_player(player.name, player.kind, player.describe())
    store.commit()
    task = asyncio.create_task(game(bridge, store, stalls, other, text="cancelled"))
    game_id = await asyncio.wait_for(asked, timeout=30)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not store._unwritten  # nothing left to a commit that may never come
    with sqlite_file(store.path) as reader:
        kinds = [
            k for (k,) in reader.execute("select kind from events where game_id = ?", (game_id,))
        ]
        status = reader.execute("select status from games where id = ?", (game_id,)).fetchone()
    assert kinds[-1] == "attempt" and status == ("interrupted",)
