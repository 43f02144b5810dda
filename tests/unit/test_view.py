"""A side's poke-env view, fed from that side's stream with no server."""

from __future__ import annotations

from pokeview.battle.view import SideView


def test_chat_in_a_sides_stream_is_skipped_not_refused():
    # Super Staff Bros' Pokémon speak (`|c:|`); poke-env's parser refuses chat, and the bots'
    # view of such a game failed at its first turn.
    view = SideView("p1", "gen9randombattle", "Player 1")
    view.feed(
        [
            "|player|p1|Player 1|",
            "|c:|1796128874| Ganjafin|How's it going guys",
            "|c|+someone|hello",
            "|chat|someone|hello",
            "|turn|1",
        ],
        None,
    )
    assert view.battle.turn == 1 and view.turn == 1
