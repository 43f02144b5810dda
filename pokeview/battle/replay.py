"""A recorded game as a sequence of frames, for the replay viewer. Headless: no Textual here.

A frame is one decision point of the viewing side: the turn, what that side knew (its state
snapshot), the decision it made, and how much of each side's battle log had happened. The
spectator's frames are both sides' decision points in the order they happened, with each
side's own team shown in full.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pokeview.store.store import DecisionRow, GameRow, Store

VIEWS = ("p1", "p2", "spectator")
_TURN = re.compile(r"^== Turn (\d+) ==$")


@dataclass(slots=True)
class Frame:
    side: str  # whose decision this is
    turn: int
    event_id: int
    index: int  # that side's decision number
    state: dict[str, Any]
    decision: DecisionRow | None
    words: dict[str, int]  # per side: how many of its log lines had happened


@dataclass
class Replay:
    game: GameRow
    words: dict[str, list[tuple[int, str]]]  # per side: (turn, line) of its battle log
    frames: dict[str, list[Frame]]
    updates: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    @classmethod
    def load(cls, store: Store, game_id: int | str) -> Replay:
        game = store.game(game_id)
        decisions = {(d.side, d.idx): d for d in store.decisions(game.id)}
        words: dict[str, list[tuple[int, str]]] = {"p1": [], "p2": []}
        updates: dict[str, list[dict[str, Any]]] = {"p1": [], "p2": []}
        frames: dict[str, list[Frame]] = {view: [] for view in VIEWS}
        turn = {"p1": 0, "p2": 0}
        count = {"p1": 0, "p2": 0}
        for event in store.events(game.id):
            if event.kind != "side" or event.side not in ("p1", "p2"):
                continue
            side, data = event.side, event.data
            updates[side].append(data)
            for line in data.get("text") or ():
                match = _TURN.match(line)
                if match:
                    turn[side] = int(match.group(1))
                words[side].append((turn[side], line))
            request = data.get("request")
            if request and not request.get("wait") and not data.get("error") and data.get("state"):
                index = count[side]
                count[side] += 1
                frame = Frame(
                    side,
                    data["state"].get("turn", turn[side]),
                    event.id,
                    index,
                    data["state"],
                    decisions.get((side, index)),
                    {s: len(words[s]) for s in ("p1", "p2")},
                )
                frames[side].append(frame)
                frames["spectator"].append(frame)
        final = {s: len(words[s]) for s in ("p1", "p2")}
        for view in VIEWS:  # a last frame at the end of the game, showing the final state
            source = frames[view][-1] if frames[view] else None
            if source is not None:
                frames[view].append(
                    Frame(
                        source.side,
                        game.turns or source.turn,
                        1 << 62,
                        source.index + 1,
                        source.state,
                        None,
                        final,
                    )
                )
        return cls(game, words, frames, updates)

    def state_of(self, view: str, position: int, side: str) -> dict[str, Any] | None:
        """The latest snapshot `side` had at or before frame `position` of `view`."""
        frames = self.frames[view]
        if not frames:
            return None
        limit = frames[min(position, len(frames) - 1)].event_id
        latest = None
        for frame in self.frames[side]:
            if frame.event_id > limit:
                break
            latest = frame.state
        return latest

    def log_upto(self, view: str, position: int) -> list[tuple[int, str]]:
        side = "p2" if view == "p2" else "p1"  # the spectator reads Player 1's words
        frames = self.frames[view]
        if not frames:
            return self.words[side]
        count = frames[min(position, len(frames) - 1)].words[side]
        return self.words[side][:count]

    def position_of_turn(self, view: str, turn: int) -> int:
        """The first frame at `turn` or later (the last frame when the game ended before)."""
        for position, frame in enumerate(self.frames[view]):
            if frame.turn >= turn:
                return position
        return max(0, len(self.frames[view]) - 1)
