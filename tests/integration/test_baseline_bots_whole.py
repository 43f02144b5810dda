"""Games of poke-env's max-damage and heuristic bots played whole in the bridge, by its copy of
them (`sim/bridge/baseline_bots.js`, `poke_env_view.js`): each choice is the one poke-env makes
in Python, so the game and everything read of it is the game played step by step."""

from __future__ import annotations

import asyncio

import pytest
from poke_env.player import SimpleHeuristicsPlayer

from pokeview.battle.loop import play_game
from pokeview.battle.spec import GameSpec
from pokeview.exchange.files import export_as
from pokeview.players import make_player
from pokeview.players.bots import BotPlayer
from pokeview.players.poke_env_data import COPY, as_text
from pokeview.store import body as bodies
from pokeview.store import open_store
from tests.helpers import STEP_BY_STEP, showdown_spectator_log
from tests.integration.test_bridge_plays import everything

# (p1, p2, format, pair) with seed text "whole". In pair 22, p1's Zoroark passes for Deoxys and
# poke-env repairs its view from the next request; in pair 54, a Zoroark's illusion ends
# (`replace`), which poke-env's view follows in its own way. The last is played step by step:
# a generation the copy is not made for.
GAMES = (
    [("heuristic", "max-damage", "gen9randombattle", n) for n in (*range(6), 22, 54)]
    + [("max-damage", "heuristic", "gen9randombattle", n) for n in range(3)]
    + [
        ("heuristic", "heuristic", "gen9randombattle", 0),
        ("random", "heuristic", "gen9randombattle", 1),
    ]
    + [("heuristic", "max-damage", STEP_BY_STEP, 0)]
)
WHOLE = 13


async def play_all(bridge, store, whole: bool) -> list[int]:
    async def one(p1: str, p2: str, fmt: str, pair: int) -> int:
        spec = GameSpec.new(
            seed_text="whole", p1=make_player(p1), p2=make_player(p2), pair=pair, format=fmt
        )
        return (await play_game(spec, bridge=bridge, store=store, whole=whole)).game_id

    ids = await asyncio.gather(*[one(*game) for game in GAMES])
    store.commit()
    return list(ids)


async def test_games_of_the_baseline_bots_played_whole_read_as_played_step_by_step(
    bridge, tmp_path
):
    steps = open_store(tmp_path / "steps.db")
    whole = open_store(tmp_path / "whole.db")
    step_ids = await play_all(bridge, steps, whole=False)
    whole_ids = await play_all(bridge, whole, whole=True)

    played = dict(whole.conn.execute("select game_id, format from bodies").fetchall())
    assert [played[i] for i in whole_ids] == [bodies.PLAYED] * WHOLE + [bodies.FORMAT] * (
        len(GAMES) - WHOLE
    )
    # Showdown's own simulator, fed the input log a game played whole kept, writes its log.
    first = whole_ids[0]
    assert showdown_spectator_log(export_as(whole, first, "inputlog")) == (
        export_as(whole, first, "log").rstrip("\n").split("\n")
    )
    for a, b in zip(step_ids, whole_ids, strict=True):
        assert steps.game(a).status == "finished"
        assert everything(whole, b) == everything(steps, a), f"game {b} reads otherwise"
    steps.close()
    whole.close()


def test_the_bridge_s_copy_of_poke_env_s_data_is_the_installed_poke_env_s():
    assert COPY.read_text(encoding="utf-8") == as_text(), (
        "poke-env's data changed: run python -m pokeview.players.poke_env_data"
    )


class Cautious(SimpleHeuristicsPlayer):
    """A subclass: it may choose otherwise than the bridge's copy of its parent."""


@pytest.mark.parametrize(
    ("player", "fmt", "bot"),
    [
        (BotPlayer("heuristic"), "gen9randombattle", "heuristic"),
        (BotPlayer("max-damage"), "gen9ou", "max-damage"),
        (BotPlayer("heuristic"), STEP_BY_STEP, None),
        (BotPlayer("random"), "gen4randombattle", "random"),
        (BotPlayer("heuristic", Cautious), "gen9randombattle", None),
    ],
)
def test_which_bots_the_bridge_plays_whole(player, fmt, bot):
    assert player.whole_bot(fmt) == bot


def test_what_the_copy_of_the_heuristic_leaves_out_still_never_chooses():
    # SimpleHeuristicsPlayer's set-up moves' branch compares Move.target with "self": a Target,
    # never equal to a string, so baseline_bots.js leaves the branch out. A poke-env whose
    # Target is a string would choose there.
    from poke_env.battle.move import Move

    assert Move("swordsdance", gen=9).target != "self"
