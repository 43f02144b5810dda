"""A model player named where there is no players file at all (a mistyped `--players`,
`POKEVIEW_PLAYERS` or a run config's `players_file`): the error said "no model player 'x' in
nope.toml (players there: none)", as if the file were there and empty."""

from __future__ import annotations

import pytest

from pokeview.errors import PokeviewError
from pokeview.players import make_player
from pokeview.tournament import ladder


def test_make_player_says_the_file_is_missing(tmp_path):
    missing = tmp_path / "nope.toml"
    with pytest.raises(PokeviewError) as caught:
        make_player("llm:mymodel", missing)
    said = str(caught.value)
    assert f"no players file at {missing}" in said and "'mymodel'" in said, said
    assert "players there" not in said, said


def test_a_ladder_member_is_told_so_too(tmp_path):
    missing = tmp_path / "nope.toml"
    with pytest.raises(PokeviewError) as caught:
        ladder._player_name("llm:mymodel", str(missing))
    said = str(caught.value)
    assert f"no players file at {missing}" in said and "players there" not in said, said


def test_a_file_that_is_there_still_lists_its_players(tmp_path):
    there = tmp_path / "players.toml"
    there.write_text('[players.other]\nbase_url = "http://h/v1"\nmodel = "m"\n')
    with pytest.raises(
        PokeviewError, match=r"no model player 'mymodel' in .*\(players there: other\)"
    ):
        make_player("llm:mymodel", there)
