"""Exchange with the ecosystem, without Node: what an import file is, and a server game other than
the one started is caught."""

from __future__ import annotations

import re

import pytest
from poke_env.player import Player

from pokeview.errors import PokeviewError
from pokeview.exchange import ImportKind, import_kind


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


@pytest.mark.parametrize(
    ("name", "text", "kind"),
    [
        ("cases.jsonl", '{"seed": [1, 2, 3, 4]}\n', ImportKind.POKEVAL_CASES),
        ("game.json", '{"format": "pokeview-game/1", "game": {}}', ImportKind.GAME_FILE),
        ("game.txt", '  {"game": {}}', ImportKind.GAME_FILE),  # unmarked JSON: import_game says
        ("battle.log", '>start {"formatid": "gen9ou"}\n>player p1 {}', ImportKind.INPUT_LOG),
        ("replay.log", "|j|☆a\n|player|p1|a|\n|turn|1\n", ImportKind.REPLAY),
        (
            "replay.html",
            '<script type="text/plain" class="battle-log-data">|turn|1',
            ImportKind.REPLAY,
        ),
        ("replay.json", '{"id": "x", "log": "|turn|1"}', ImportKind.REPLAY),
    ],
)
def test_an_import_file_is_known_by_its_name_and_how_it_begins(tmp_path, name, text, kind):
    assert import_kind(tmp_path / name, text) is kind


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        ("cases.jsonl", "\n  \n", "cases.jsonl is empty"),
        ("notes.txt", "hello", "notes.txt is none of: a pokeview game file (JSON), a Showdown"),
    ],
)
def test_a_file_of_no_kind_is_one_clear_line(tmp_path, name, text, said):
    with pytest.raises(PokeviewError, match=re.escape(said)):
        import_kind(tmp_path / name, text)
