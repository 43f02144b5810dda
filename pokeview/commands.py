"""The command palette (ctrl+p): every key of the current screen, with its key shown, and
pokeview's own commands (open a game, ratings, spectate, play)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher
from textual.markup import escape
from textual.screen import Screen

from pokeview.text import strip_control


class ScreenKeys(Provider):
    def _entries(self) -> list[tuple[str, str, str]]:
        screen = self.screen
        entries = []
        seen = set()
        # Textual's public view of the keys in force (an action its check_action hides is left
        # out, as the footer leaves it out); the screen's own, not the app's or a widget's.
        for active in screen.active_bindings.values():
            b = active.binding
            if active.node is not screen or not b.description or b.action in seen:
                continue
            seen.add(b.action)
            # The longer words (tooltip) where the footer's are short.
            entries.append((b.tooltip or b.description, b.action, b.key.split(",")[0]))
        return entries

    async def discover(self) -> Hits:
        for description, action, key in self._entries():
            yield DiscoveryHit(
                description, partial(self.screen.run_action, action), help=f"key: {key}"
            )

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for description, action, key in self._entries():
            score = matcher.match(description)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(description),
                    partial(self.screen.run_action, action),
                    help=f"key: {key}",
                )


class PokeviewCommands(Provider):
    """pokeview's own commands, on every screen: watch a game (the newest, or any by its
    number), the ratings of all games or of one run, spectate, play against a bot."""

    async def startup(self) -> None:
        import asyncio

        self.games: list[tuple[int, str]] = []
        self.runs: list[str] = []
        path = getattr(self.app, "store_path", None)
        if path is not None and path.exists():  # read off the UI thread
            self.games, self.runs = await asyncio.to_thread(_recorded, path)

    def _commands(self) -> list[tuple[str, Callable[[], None], str]]:
        from pokeview.screens.play import PlayScreen
        from pokeview.screens.ratings import RatingsScreen
        from pokeview.screens.spectate import SpectateScreen
        from pokeview.screens.watch import WatchScreen

        path = getattr(self.app, "store_path", None)
        if path is None:
            return []
        opens = self._opener
        return [
            ("ratings of all games", opens(partial(RatingsScreen, path)), "the ratings screen"),
            ("spectate the running runs", opens(partial(SpectateScreen, path)), "live games"),
            *(
                (f"ratings of run {run}", opens(partial(RatingsScreen, path, run)), "one run")
                for run in self.runs
            ),
            *(
                (f"play against {bot}", opens(partial(PlayScreen, path, opponent=bot)), "")
                for bot in ("heuristic", "max-damage", "random")
            ),
            *(
                (
                    f"watch game {game_id}",
                    opens(partial(WatchScreen, path, game_id)),
                    strip_control(players),
                )
                for game_id, players in self.games
            ),
        ]

    def _opener(self, make: Callable[[], Screen]) -> Callable[[], None]:
        """The command: the screen is built when chosen, not while the palette lists it."""
        return partial(self._open, make)

    def _open(self, make: Callable[[], Screen]) -> None:
        self.app.push_screen(make())

    async def discover(self) -> Hits:
        for name, run, help in self._commands():
            yield DiscoveryHit(Content(name), run, text=name, help=escape(help))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        commands = self._commands()
        # Any game by its number, listed or not: "game 1234" or "watch 1234".
        number = "".join(c for c in query if c.isdigit())
        if number and getattr(self.app, "store_path", None) is not None:
            name = f"watch game {int(number)}"
            if all(n != name for n, _, _ in commands):
                from pokeview.screens.watch import WatchScreen

                watch = partial(WatchScreen, self.app.store_path, int(number))  # type: ignore[attr-defined]
                commands.append((name, self._opener(watch), "by its number"))
        for name, run, help in commands:
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, _highlight(matcher, name), run, text=name, help=escape(help))


def _highlight(matcher: Matcher, name: str) -> Content:
    """`matcher.highlight(name)` with the name taken literally: a run's or a player's name may
    hold markup (Textual's own highlight parses it: `[/]` raised, `[@click=...]` acted)."""
    content = Content(name)
    score, offsets = matcher.fuzzy_search.match(matcher.query, name)
    if score:
        for offset in offsets:
            if not name[offset].isspace():
                content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


def _recorded(path: Path) -> tuple[list[tuple[int, str]], list[str]]:
    """The newest games (id, "p1 vs p2") and the runs' names, for the palette."""
    from pokeview.store import open_store

    store = open_store(path)
    try:
        games = [(r.id, f"{r.p1} vs {r.p2}") for r in store.search_games(limit=20)]
        return games, [run.name for run, _ in store.runs()]
    finally:
        store.close()
