"""A game page's prompts, with what they repeat written once. A model is sent the same paragraphs
again and again (its legal actions, the answer's format) and the battle log's lines since its
last decision, which the page shows already. Each paragraph that recurs is kept once, at the
page's end; each run of lines that is the side's battle log on the page refers to it.

With the script, opening a decision's prompt puts the text back in its place (site.js), so the
prompt a reader sees and copies is the exact message; without the script each reference is a
link to the one copy (the paragraph, or the turn where the log's lines are).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable

from pokeview.site.html import esc_text
from pokeview.text import strip_for_html

# Shorter text costs about as much as a reference to it (30 to 60 characters of markup).
SHORTEST = 45
# Lines a side's log may compare in finding runs: the demo run's pages compare under 2,000
# each, a forged log of many equal lines the square of its lines. Past it a run found is still
# the log's own (and linked), only maybe not the longest.
COMPARISONS = 1_000_000


def paragraphs(text: str) -> list[str]:
    """The text cut after each blank line: joined back, the pieces are the text exactly."""
    parts = text.split("\n\n")
    return [p + "\n\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


class PageLog:
    """A side's battle log as the page shows it: one `<pre>` per turn, in order; its lines
    numbered as the script reads them back (each turn's text split at its newlines)."""

    def __init__(self, turns: list[tuple[int, list[str]]]) -> None:
        self.lines: list[str] = []
        self.starts: list[int] = []  # where each turn's lines start
        self.turns: list[int] = []
        for turn, lines in turns:
            text = strip_for_html("\n".join(lines))  # what the page shows, escaped
            self.starts.append(len(self.lines))
            self.turns.append(turn)
            self.lines += text.split("\n") if text else []
        self.at: dict[str, list[int]] = {}
        self.compared = 0
        for n, line in enumerate(self.lines):
            self.at.setdefault(line, []).append(n)

    def turn_of(self, line: int) -> int:
        return self.turns[bisect_right(self.starts, line) - 1]

    def longest_run(self, lines: list[str], start: int) -> tuple[int, int]:
        """The longest run of `lines` from `start` that is the log's lines from some line:
        (that line, how many)."""
        best = (0, 0)
        for at in self.at.get(lines[start], ()):
            if self.compared >= COMPARISONS:
                break
            n = 1
            while (
                start + n < len(lines)
                and at + n < len(self.lines)
                and self.lines[at + n] == lines[start + n]
            ):
                n += 1
            self.compared += n
            best = max(best, (n, -at))
        return -best[1], best[0]


class PromptText:
    """The page's prompts (`texts`, in page order) and each side's log on the page. Repeated
    text is the paragraphs that occur more than once, then the long lines that do in the other
    paragraphs (a team's line in a changing state), numbered in the order they first occur."""

    def __init__(self, texts: Iterable[str], logs: dict[str, PageLog]) -> None:
        pieces = [p for t in texts for p in paragraphs(t)]
        counts = Counter(p for p in pieces if len(p) >= SHORTEST)
        once = [p for p in pieces if counts[p] < 2]
        counts.update(line for p in once for line in p.split("\n") if len(line) >= SHORTEST)
        self.numbers = {p: n for n, p in enumerate(p for p, c in counts.items() if c > 1)}
        self.logs = logs

    def html(self, text: str, side: str) -> str:
        """`text` (a prompt `side` was sent) escaped, each repeated paragraph a link to its one
        copy and each run of its log's lines a link to where the log shows them."""
        out = []
        for p in paragraphs(text):
            n = self.numbers.get(p)
            out.append(self._lines(p, self.logs[side], side) if n is None else self._link(n))
        return "".join(out)

    @staticmethod
    def _link(n: int) -> str:
        return f'<a href="#q{n}">[repeated {n}]</a>'

    def _lines(self, paragraph: str, log: PageLog, side: str) -> str:
        """A paragraph's lines: runs of them that are the log's, repeated lines, the rest."""
        lines = paragraph.split("\n")
        shown = [strip_for_html(line) for line in lines]  # as the page shows the log
        out: list[str] = []
        i = 0
        while i < len(lines):
            n = self.numbers.get(lines[i])
            if n is not None:
                out.append(self._link(n))
                i += 1
                continue
            at, count = log.longest_run(shown, i)
            if count and sum(len(line) + 1 for line in lines[i : i + count]) > SHORTEST:
                turn = log.turn_of(at)
                out.append(
                    f'<a href="#t{turn}" data-w="{side} {at} {count}">'
                    f"[log: {count} lines, turn {turn}]</a>"
                )
                i += count
            else:
                out.append(esc_text(lines[i]))
                i += 1
        return "\n".join(out)

    def section(self) -> str:
        """The one copy of each repeated text (empty when none repeats)."""
        if not self.numbers:
            return ""
        copies = "".join(f'<pre id="q{n}">{esc_text(p)}</pre>' for p, n in self.numbers.items())
        return (
            '<section id="repeated"><h2>Text repeated in the prompts</h2><p class="note">'
            "Each prompt above refers to these texts (numbered from 0) where the model was "
            "sent them; the page's script puts them back in place when a prompt is opened.</p>"
            f"{copies}</section>"
        )
