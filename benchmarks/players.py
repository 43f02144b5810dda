"""Players for the benchmarks: poke-env Player subclasses, run as `module:Class`."""

from __future__ import annotations

from poke_env.player.player import Player


class AlwaysSwitch(Player):
    """Switches whenever it can, else uses its first move: two of them play very long games."""

    def choose_move(self, battle):  # noqa: ANN001, ANN201
        if battle.available_switches:
            return self.create_order(battle.available_switches[0])
        if battle.available_moves:
            return self.create_order(battle.available_moves[0])
        return self.choose_random_move(battle)
