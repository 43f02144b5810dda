"""Every key of the current screen as a command in the palette (ctrl+p), with its key shown."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider


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
