"""The home screen on a file damaged on disk says so (it showed an empty list and no error)."""

from __future__ import annotations

from pokeview.app import make_app
from tests.helpers import settle
from tests.integration.test_damage import damage_page


async def test_home_on_a_damaged_file_shows_the_damage(recorded_db):
    damage_page(recorded_db, "games")
    app = make_app(recorded_db)
    async with app.run_test(size=(120, 40)) as pilot:

        def damage_said() -> bool:
            return any("is damaged" in n.message for n in app._notifications)

        try:
            await settle(pilot, damage_said)
        except AssertionError:
            raise AssertionError([n.message for n in app._notifications]) from None
        said = next(n.message for n in app._notifications if "is damaged" in n.message)
        assert ".recover" in said and "\n" not in said, said
