"""The Textual app: themes, settings and the first screen. Screens hold their own logic."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from textual.app import App
from textual.filter import LineFilter
from textual.screen import Screen

from pokeview import settings
from pokeview.commands import PokeviewCommands, ScreenKeys
from pokeview.screens.navigation import back
from pokeview.themes import built_in_themes, load_themes
from pokeview.widgets.control_filter import CONTROL_FREE

DEFAULT_THEME = "pokeview-dark"


class PokeviewApp(App[None]):
    TITLE = "pokeview"
    CSS = "Footer FooterLabel { margin: 0 1 0 0; }"  # a key group's label, then a gap
    COMMANDS = App.COMMANDS | {ScreenKeys, PokeviewCommands}
    # Classes each screen's .tcss lays out small terminals with (80x24 is the smallest kept).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]

    def __init__(
        self,
        first_screen: Callable[[], Screen],
        themes_dir: Path | None = None,
        store_path: Path | None = None,
    ) -> None:
        super().__init__()
        self.first_screen = first_screen
        self.store_path = store_path  # the record the palette's commands open
        self.themes_dir = themes_dir  # None: the themes shipped in the package
        self.started = False  # set once the saved theme is restored: later changes are saved

    def on_mount(self) -> None:
        if self.themes_dir is None:
            with built_in_themes() as folder:
                themes, problems = load_themes(folder)
        else:
            themes, problems = load_themes(self.themes_dir)
        for theme in themes:
            self.register_theme(theme)
        saved, ignored = settings.read()
        if ignored:
            problems.append(ignored)
        wanted = saved.theme or DEFAULT_THEME
        self.theme = (
            wanted
            if wanted in self.available_themes
            else (DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark")
        )
        self.started = True
        for problem in problems:
            self.notify(problem, severity="warning", markup=False)
        self.push_screen(self.first_screen())

    def get_line_filters(self) -> Sequence[LineFilter]:
        return [*super().get_line_filters(), CONTROL_FREE]  # every line drawn, without them

    def action_help(self) -> None:
        """`?` on any screen: its keys, from the same declarations as its footer."""
        from pokeview.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))

    def action_back(self) -> None:  # type: ignore[override]  # Textual's is async; ours is not
        """Back to the screen below; quit when the current screen is the first one."""
        back(self)

    def watch_theme(self, theme: str) -> None:
        # Not while the saved theme is being restored: a fallback (its file missing) would
        # otherwise overwrite the person's choice. (`is_mounted` is a method: always true.)
        if self.started:
            settings.save(theme=theme)


def make_app(
    store_path: Path,
    first_screen: Callable[[], Screen] | None = None,
    themes_dir: Path | None = None,
) -> PokeviewApp:
    """The one way to build the app, for the CLI and the tests alike. `first_screen` builds the
    screen it opens on (the home screen on `store_path` when not given), once it is running."""

    def home() -> Screen:
        from pokeview.screens.home import HomeScreen

        return HomeScreen(store_path)

    return PokeviewApp(first_screen or home, themes_dir, store_path)
