"""Exchange with the ecosystem, without Node: a server game other than the one started is caught."""

from __future__ import annotations

from poke_env.player import Player


class FirstMovePlayer(Player):
    """An outside poke-env player: always its first available move, else its first switch."""

    def choose_move(self, battle):
        if battle.available_moves:
            return self.create_order(battle.available_moves[0])
        if battle.available_switches:
            return self.create_order(battle.available_switches[0])
        return self.choose_default_move()


def test_a_server_game_that_is_not_the_started_one_is_caught():
    from pokeview.exchange.server_game import _battle_lines

    server = [
        "|j|☆a",
        "|switch|p1a: Azelf|Azelf, L84|100/100",
        "|move|p1a: Azelf|Fire Blast|p2a: X",
    ]
    ours = ["|switch|p1a: Azelf|Azelf, L84|100/100", "|move|p1a: Azelf|Fire Blast|p2a: X"]
    assert _battle_lines(server) == _battle_lines(ours)  # chat and joins aside, the same game
    other = [*ours[:1], "|move|p1a: Azelf|Psychic|p2a: X"]
    assert _battle_lines(server) != _battle_lines(other)
