"""Moving between screens, the one way every screen (and the app's own `back` action) does it."""

from __future__ import annotations

from textual.app import App


def back(app: App) -> None:
    """Back to the screen below; the app quits when the current screen is its first (the one
    below it is Textual's default screen)."""
    if len(app.screen_stack) > 2:
        app.pop_screen()
    else:
        app.exit()
