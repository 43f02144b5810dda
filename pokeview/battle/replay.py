"""A recorded game as a sequence of frames, for the replay viewer. Headless: no Textual here.

A frame is one decision point of the viewing side: the turn, what that side knew (its state
snapshot), the decision it made, and how much of each side's battle log had happened. The
spectator's frames are both sides' decision points in the order they happened, with each
side's own team shown in full. A replay can follow a game that is still being played:
`update` reads only the events written since the last read.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from pokeview.game.side import SideState
from pokeview.store.events import EventKind, Side
from pokeview.store.store import DecisionRow, EventRow, GameRow, Store

VIEWS = ("p1", "p2", "spectator")
_TURN = re.compile(r"^== Turn (\d+) ==$")
END = 1 << 62  # event id of the closing frame, after every real event


@dataclass(slots=True)
class Frame:
    side: str  # whose decision this is
    turn: int
    event_id: int
    index: int  # that side's decision number
    state: SideState
    words: dict[str, int]  # per side: how many of its log lines had happened
    at: float = 0.0  # when the request came (seconds since the epoch)
    step: int = 0  # the bridge step it belongs to: one moment of the battle


@dataclass(slots=True)
class News:
    """What was written to a game's record since the last look."""

    game: GameRow
    events: list[EventRow]
    decisions: list[DecisionRow]


class Tail:
    """Reads a game's record from where it last stopped. It touches only the store, so it can
    run in a thread and hand its News to the thread that owns the Replay."""

    def __init__(self, game_id: int | str) -> None:
        self.game_id = game_id
        self.last_event = 0
        self.last_decision = 0
        self.ended = False

    def read(self, store: Store) -> News | None:
        game = store.game(self.game_id)
        self.game_id = game.id
        events = store.events(game.id, after=self.last_event)
        if not events and self.ended:
            return None
        if game.status != "running" and not self.ended:
            decisions = store.decisions(game.id)  # all of them once more: refusals update rows
        else:
            decisions = store.decisions_after(game.id, self.last_decision)
        if events:
            self.last_event = events[-1].id
        for d in decisions:
            self.last_decision = max(self.last_decision, d.id)
        self.ended = game.status != "running"
        return News(game, events, decisions)


@dataclass
class Replay:
    game: GameRow
    words: dict[str, list[tuple[int, str]]] = field(default_factory=lambda: {"p1": [], "p2": []})
    frames: dict[str, list[Frame]] = field(default_factory=lambda: {v: [] for v in VIEWS})
    decisions: dict[tuple[str, int], DecisionRow] = field(default_factory=dict)
    reasoning: dict[tuple[str, int], list[str]] = field(default_factory=dict)  # streamed, live
    last_event: int = 0
    ended: bool = False
    tail: Tail | None = None
    # Per side: its states as (step, state), with their steps apart for bisecting.
    states: dict[str, list[tuple[int, SideState]]] = field(
        default_factory=lambda: {"p1": [], "p2": []}
    )
    _state_steps: dict[str, list[int]] = field(default_factory=lambda: {"p1": [], "p2": []})
    _step: int = 0
    _previous_kind: str = ""
    _turn: dict[str, int] = field(default_factory=lambda: {"p1": 0, "p2": 0})
    _count: dict[str, int] = field(default_factory=lambda: {"p1": 0, "p2": 0})

    @classmethod
    def load(cls, store: Store, game_id: int | str) -> Replay:
        tail = Tail(game_id)
        news = tail.read(store)
        assert news is not None
        replay = cls(news.game, tail=tail)
        replay.apply(news)
        return replay

    def update(self, store: Store) -> bool:
        """Read what was written since the last call; True when anything changed."""
        assert self.tail is not None
        news = self.tail.read(store)
        return self.apply(news) if news is not None else False

    def apply(self, news: News) -> bool:
        """Take in what a Tail read; True when anything changed."""
        self.game = news.game
        for d in news.decisions:
            self.decisions[(d.side, d.idx)] = d
        self._drop_closing_frames()
        for event in news.events:
            self.last_event = event.id
            # A step of the bridge starts with its spectator lines, or its input when it has none.
            if event.kind == EventKind.LOG or (
                event.kind == EventKind.INPUT and self._previous_kind != EventKind.LOG
            ):
                self._step += 1
            self._previous_kind = event.kind
            if event.kind == EventKind.SIDE and event.side in ("p1", "p2"):
                self._side_event(event.side, event.id, event.data, event.at)
            elif event.kind == EventKind.REASONING and event.side in ("p1", "p2"):
                self.reasoning.setdefault((event.side, event.data.idx), []).append(event.data.delta)
        self.ended = self.game.status != "running"
        if self.ended:
            self._add_closing_frames()
        return bool(news.events) or self.ended

    def decision(self, frame: Frame) -> DecisionRow | None:
        if frame.event_id == END:
            return None
        return self.decisions.get((frame.side, frame.index))

    def _side_event(self, side: str, event_id: int, data: Side, at: float) -> None:
        step = self._step
        if data.state is not None:
            self.states[side].append((step, data.state))
            self._state_steps[side].append(step)
        for line in data.text:
            match = _TURN.match(line)
            if match:
                self._turn[side] = int(match.group(1))
            self.words[side].append((self._turn[side], line))
        request = data.request
        asked = request and not request.get("wait") and not data.error
        # An imported replay has no requests: its events mark the frames themselves.
        if (asked or data.frame) and data.state is not None:
            index = self._count[side]
            self._count[side] += 1
            frame = Frame(
                side,
                data.state.turn,
                event_id,
                index,
                data.state,
                {s: len(self.words[s]) for s in ("p1", "p2")},
                at,
                step,
            )
            self.frames[side].append(frame)
            if not (data.frame and side == "p2"):  # one replay frame per turn, not two
                self.frames["spectator"].append(frame)

    def _add_closing_frames(self) -> None:
        final = {s: len(self.words[s]) for s in ("p1", "p2")}
        for view in VIEWS:  # a last frame at the end of the game, showing the final state
            if self.frames[view]:
                source = self.frames[view][-1]
                self.frames[view].append(
                    Frame(
                        source.side,
                        self.game.turns or source.turn,
                        END,
                        source.index + 1,
                        source.state,
                        final,
                        step=self._step,
                    )
                )

    def _drop_closing_frames(self) -> None:
        for view in VIEWS:
            while self.frames[view] and self.frames[view][-1].event_id == END:
                self.frames[view].pop()

    def state_of(self, view: str, position: int, side: str) -> SideState | None:
        """What `side` knew at the moment of frame `position` of `view`."""
        frames = self.frames[view]
        if not frames:
            return None
        return self.state_at(side, frames[min(position, len(frames) - 1)].step)

    def state_at(self, side: str, step: int) -> SideState | None:
        """What `side` knew at the end of `step`: its latest state by then. The bridge sends one
        at every step the side saw lines, so this is the side's state at that moment (a game
        recorded before that has states only at its requests: the last one is shown)."""
        at = bisect_right(self._state_steps[side], step)
        return self.states[side][at - 1][1] if at else None

    def log_upto(self, view: str, position: int) -> list[tuple[int, str]]:
        side = "p2" if view == "p2" else "p1"  # the spectator reads Player 1's words
        return self.words[side][: self.log_count(view, position)]

    def log_count(self, view: str, position: int) -> int:
        """How many lines of the view's log had happened at frame `position`."""
        side = "p2" if view == "p2" else "p1"
        frames = self.frames[view]
        if not frames:
            return len(self.words[side])
        return frames[min(position, len(frames) - 1)].words[side]

    def position_of_turn(self, view: str, turn: int) -> int:
        """The first frame at `turn` or later (the last frame when the game ended before)."""
        for position, frame in enumerate(self.frames[view]):
            if frame.turn >= turn:
                return position
        return max(0, len(self.frames[view]) - 1)
