"""Reading a model's answer: the last ACTION: and REASON: lines (PokéBench, section 2)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pokeview.battle.actions import Action

# A line's own leading blanks, not `\s*` (which spans lines), and its trailing ones stripped
# after: `^\s*ACTION:\s*(.*?)\s*$` backtracked in time quadratic in a run of blank lines or of
# spaces inside a line, 7.6 s of the event loop for a 64 KB answer of newlines.
_ACTION = re.compile(r"^[^\S\n]*ACTION:\s*([^\n]*)", re.MULTILINE)
_REASON = re.compile(r"^[^\S\n]*REASON:\s*([^\n]*)", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Answer:
    index: int | None  # the chosen action, or None when the answer names none
    action_text: str | None
    reason: str | None
    problem: str | None  # why it names no legal action


def parse_answer(text: str, actions: list[Action]) -> Answer:
    """Accept the number of a legal action or its text exactly as listed."""
    found = [said.rstrip() for said in _ACTION.findall(text or "")]
    reasons = [said.rstrip() for said in _REASON.findall(text or "")]
    reason = reasons[-1] if reasons else None
    if not found:
        return Answer(None, None, reason, "there is no line starting with ACTION:")
    said = found[-1]
    if said.isascii() and said.isdigit():  # "²" and "①" are digits to isdigit, not to int()
        number = int(said)
        if 1 <= number <= len(actions):
            return Answer(number - 1, said, reason, None)
        return Answer(
            None,
            said,
            reason,
            f"{number} is not the number of a legal action (1 to {len(actions)})",
        )
    for index, action in enumerate(actions):
        if said == action.label:
            return Answer(index, said, reason, None)
    return Answer(None, said, reason, f"'{said}' is not one of the listed actions")
