"""An outside program for the local server that leaves mid-game: `python -m tests.quitter PORT
USER forfeit|vanish`. It accepts one challenge, plays its first move each turn and says so on
stdout; at its third decision it forfeits and leaves (forfeit), or stops answering and waits to
be killed (vanish)."""

from __future__ import annotations

import asyncio
import sys

from poke_env import AccountConfiguration
from poke_env.player import Player
from poke_env.ps_client.server_configuration import ServerConfiguration


class Quitter(Player):
    mode = "forfeit"
    decisions = 0

    async def choose_move(self, battle):
        self.decisions += 1
        print(f"decision {self.decisions}", flush=True)
        if self.decisions >= 3:
            if self.mode == "forfeit":
                await self.ps_client.send_message("/forfeit", battle.battle_tag)
            await asyncio.sleep(3600)  # no answer: a forfeit ends it, or a kill does
        if battle.available_moves:
            return self.create_order(battle.available_moves[0])
        return self.choose_random_move(battle)


async def main(port: str, user: str, mode: str) -> None:
    Quitter.mode = mode
    player = Quitter(
        account_configuration=AccountConfiguration(user, None),
        server_configuration=ServerConfiguration(f"ws://127.0.0.1:{port}/showdown/websocket", ""),
        log_level=40,
    )
    print("ready", flush=True)
    await player.accept_challenges(None, 1)


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
