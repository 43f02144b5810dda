"""Endings read from a Showdown server's battle log, and said in words."""

from __future__ import annotations

from pokeview.battle import endings


def test_the_server_s_words_name_the_ending():
    assert (
        endings.from_server_log(["|turn|3", "|-message|bob forfeited.", "|win|alice"]) == "forfeit"
    )
    timer = ["|inactive|bob has 0 seconds left.", "|-message|bob lost due to inactivity."]
    assert endings.from_server_log(timer) == "timer"
    gone = ["|inactive|bob disconnected and has 60 seconds to reconnect!", *timer[1:]]
    assert endings.from_server_log(gone) == "disconnection"
    assert endings.from_server_log(["|faint|p2a: X", "|win|alice"]) is None


def test_each_ending_is_said():
    for ending in endings.ENDINGS:
        assert endings.describe(ending, "bob", 100)
    assert endings.describe(None, "bob", 3) == ""
    assert (
        endings.describe("turn limit", "bob", 100) == "a tie declared at the turn limit (100 turns)"
    )
