"""The pinned Showdown's random-battle sets as the detail panel lists them (pokeview/sim/dex.py):
every generation's moves by name, whichever way its data file spells them."""

from __future__ import annotations

import pytest

from pokeview.sim.dex import random_sets


@pytest.mark.parametrize("gen", [1, 2, 3, 4, 9])
def test_every_generations_sets_name_their_moves(gen):
    sets = random_sets("Snorlax", f"gen{gen}randombattle")
    moves = {m for s in sets for m in s.movepool}
    assert "Body Slam" in moves or "Double-Edge" in moves, moves
    assert all(m[0].isupper() for m in moves), moves  # no id (`bodyslam`) is shown


def test_a_set_still_fits_what_was_seen_by_name_or_by_id():
    (first, *_) = random_sets("Snorlax", "gen4randombattle")
    seen = [first.movepool[0], "Self-Destruct" if "Self-Destruct" in first.movepool else "Rest"]
    assert first.fits(seen, "", "")
    assert first.fits([m.lower().replace(" ", "").replace("-", "") for m in seen], "", "")
    assert not first.fits(["Aeroblast"], "", "")
