"""How tests/data/record-v2.tar.zst was made, with pokeview at commit 217ea55 (schema 2).

It holds v2.db and export-N.json, each game exported by that version. Games: bot vs bot, the
loopback model vs random, a tie at the turn limit, a fork (parent 1), an input-log import, then
(by the CLI) a Showdown replay import of game 1's HTML, and a game left running.
Run with PYTHONPATH pointing at a checkout of 217ea55: python record-v2.make.py v2.db
"""

import asyncio
import sys

from pokeview import exchange
from pokeview.battle import seeds
from pokeview.battle.loop import play_game
from pokeview.players import make_player
from pokeview.sim.client import Bridge
from pokeview.store import open_store


async def main(db):
    store = open_store(db)
    async with Bridge() as bridge:
        for i, (a, b) in enumerate(
            [("heuristic", "max-damage"), ("loopback", "random"), ("random", "heuristic")]
        ):
            r = await play_game(
                "gen9randombattle",
                seeds.game_seed("fixture", i),
                make_player(a),
                make_player(b),
                bridge=bridge,
                store=store,
                seed_text="fixture",
                turn_limit=8 if i == 2 else 300,
            )
            print(r)
        # a fork of game 1 from its 5th event with an input
        log = store.input_log_before(1, 40)
        r = await play_game(
            "gen9randombattle",
            seeds.game_seed("fixture", 0),
            make_player("random"),
            make_player("random"),
            bridge=bridge,
            store=store,
            inputlog=log,
            parent_game=1,
            parent_decision=3,
        )
        print(r)
        text = exchange.export_as(store, 1, "inputlog")
        gid = await exchange.import_input_log(store, text, "fixture.inputlog", bridge)
        print("imported", gid)
    store.commit()
    store.close()


asyncio.run(main(sys.argv[1]))
