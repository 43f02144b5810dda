"""Moving between screens, the one way every screen does it."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.app import App

if TYPE_CHECKING:
    from pokeview.app import PokeviewApp


def back(app: App) -> None:
    """Back to the screen below; the app quits when the current screen is its first."""
    cast("PokeviewApp", app).action_back()
