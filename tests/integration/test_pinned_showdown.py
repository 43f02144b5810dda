"""The Showdown this pokeview pins, read from its shipped lock file without starting Node, is
the one its bridge runs: a Ray run that plays nothing here checks its workers against it."""

from __future__ import annotations

from pokeview.sim import install


async def test_the_pinned_showdown_is_the_one_the_bridge_runs(bridge):
    assert bridge.showdown_version
    assert install.pinned_showdown() == bridge.showdown_version
