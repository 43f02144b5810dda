"""One game from start to end on the shared bridge, recorded as it happens.

Each step the bridge sends (both sides' lines, words and requests) is fed to the sides' poke-env
views and appended to the record; every open request goes to its player as a task, so a slow
player (a model, a person) never blocks the other side. A refused choice goes back to the same
player with Showdown's message.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from pokeview.battle import endings, seeds
from pokeview.battle.actions import Action, legal_actions
from pokeview.battle.spec import SIDES, GameSpec
from pokeview.battle.view import SideView
from pokeview.battle.void import void_reason
from pokeview.errors import BattleRefused, BridgeDied, PlayerFailed, PokeviewError
from pokeview.game.bridge import (
    NULL_JSON,
    Autoplay,
    Chosen,
    Ending,
    Played,
    PlayerSpec,
    SideUpdate,
    Start,
    Step,
)
from pokeview.game.bridge import SIDES as WIRE_SIDES
from pokeview.game.decision import (
    How,
    Made,
    SideStats,
    bot_choices,
    messages_of,
    side_stats,
)
from pokeview.game.side import SideState, to_state
from pokeview.players.base import Decision, DecisionContext
from pokeview.players.kinds import PlayerKind
from pokeview.players.random_choice import random_choice
from pokeview.players.recorded import InputLogEnds
from pokeview.sim.client import BattleChannel, Bridge, Receiver
from pokeview.sim.request import Request, decode_request
from pokeview.store import events as ev
from pokeview.store.differences import Rebuilder
from pokeview.store.events import EventKind
from pokeview.store.store import Store

SEAT_NAMES = {"p1": "Player 1", "p2": "Player 2"}  # what the players (and models) are called
# What the bridge says when a game played whole stops at Team Preview (`sim/bridge/whole.js`),
# which it does not play: from then on this process plays that format's games step by step
# without starting each once in vain (about 7% of a gen9ou run of bots' CPU).
TEAM_PREVIEW = "team preview"
_PREVIEW_FORMATS: set[str] = set()
MAX_REFUSALS = 20


@dataclass(slots=True)
class GameResult:
    game_id: int
    # finished, void (a model side mostly on autopilot), error (a player failed) or interrupted
    # (pokeview's machinery did)
    status: str
    winner: str | None  # p1, p2, tie
    turns: int
    error: str | None
    players: dict[str, str]
    ending: str | None = None  # battle/endings.py's word, when not by a last faint

    @property
    def winner_name(self) -> str:
        if self.winner in SIDES:
            return self.players[self.winner]
        return self.winner or "-"


def start_spec(format_id: str, seed: str, teams: dict[str, str] | None = None) -> Start:
    """How the bridge starts the game of this seed: the battle seed, and each side's team (or
    the seed its random team is generated from). A game on the local server starts the same."""
    players = {}
    for side in SIDES:
        if teams and teams.get(side):
            players[side] = PlayerSpec(SEAT_NAMES[side], team=teams[side])
        else:
            players[side] = PlayerSpec(SEAT_NAMES[side], seed=seeds.team_seed(seed, side))
    return Start(format=format_id, seed=seeds.battle_seed(seed), players=players)


@dataclass(slots=True)
class _Pending:
    index: int
    request: Request
    request_json: msgspec.Raw  # as Showdown sent it, for players that read all of it
    actions: list[Action]
    recorded: bool = False  # its decision row is written (a refused choice updates it)
    action: Action | None = None
    refusals: list[dict[str, str]] = field(default_factory=list)


class _Game:
    def __init__(
        self,
        spec: GameSpec,
        *,
        bridge: Bridge,
        store: Store,
        words_later: bool | None = None,
        in_bridge: bool = True,
        whole: bool = True,
        latencies: dict[tuple[str, int], float] | None = None,
    ) -> None:
        self.spec = spec
        self.bridge = bridge
        self.store = store
        self.players = spec.players
        self.inputlog = spec.inputlog
        self.game_id = 0
        # The sides whose words and state are derived after the game (battle/derive.py): a
        # player that reads neither, in a game started from its seed (a fork or a resumed game
        # starts from an input log, which the derivation does not replay). By default only in a
        # game of two such players: one with a model or a person in it is watched as it plays.
        fresh = spec.inputlog is None and spec.resume is None
        blind = {s for s in SIDES if not self.players[s].reads_words}
        if words_later is None:
            words_later = len(blind) == len(SIDES)
        self.later = blind if words_later and fresh else set()
        # The sides the bridge plays by itself (`sim/bridge/autoplay.js`), in a game started from
        # its seed: it counts each side's decisions from the first.
        self.in_bridge = (
            {s for s in SIDES if self.players[s].bridge_plays} if fresh and in_bridge else set()
        )
        # A game of two bots the bridge has a copy of, started from its seed and recorded for
        # later, is played through in the bridge with no step sent (`sim/bridge/whole.js`): the
        # record derives its steps when first read.
        self.whole_bots = {s: self.players[s].whole_bot(spec.format) for s in SIDES}
        self.whole = (
            whole
            and in_bridge
            and fresh
            and self.later == set(SIDES)
            and all(self.whole_bots.values())
            and spec.format not in _PREVIEW_FORMATS
        )
        # Each decision's time as first made, by (side, index): a game played again to derive
        # its steps (battle/derive.py) records those, not its own.
        self.latencies = latencies or {}
        # A view is a shell until a player reads its poke-env battle (see SideView).
        self.views = {s: SideView(s, spec.format, SEAT_NAMES[s]) for s in SIDES}
        self.updates: dict[str, list[ev.Side]] = {s: [] for s in SIDES}
        self.decoded = dict.fromkeys(SIDES, 0)  # how many of each side's have their snapshot
        self.rebuilder = Rebuilder()  # ...rebuilt whole from the bridge's differences
        self.next_index = dict.fromkeys(SIDES, 0)
        self.pending: dict[str, _Pending] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.spectator: list[str] = []
        self.input: list[str] = []
        self.tie_sent = False
        self.ending_sent = False
        self.ending: str | None = None  # battle/endings.py's word, when not by a last faint
        self.steps = 0
        self.channel: BattleChannel | None = None
        self.resuming = False
        # Each decision as last made here, by (side, index): the game's stats when it ends.
        self.made: dict[tuple[str, int], Made] = {}
        # Set when the game ends (the battle's end) or fails (an exception from a step, a
        # player or the bridge); the steps are taken as they are read (`take_step`).
        self.over: asyncio.Future[Ending | None] | None = None

    def start_spec(self) -> Start:
        if self.inputlog is not None:
            return Start(inputlog=self.inputlog)
        start = start_spec(self.spec.format, self.spec.seed, self.spec.teams)
        if self.later:
            start.words = [s for s in WIRE_SIDES if s not in self.later]
        if self.in_bridge:
            start.autoplay = Autoplay(
                self.spec.seed, [s for s in WIRE_SIDES if s in self.in_bridge], self.spec.turn_limit
            )
        return start

    def restore(self, game_id: int) -> None:
        """Continue a stored game: its input log up to the last step that moved the battle is
        replayed in Showdown; anything recorded after that point is dropped and asked again."""
        self.game_id = game_id
        self.resuming = True
        events = self.store.events(game_id)
        cut = last_moved = 0
        for n, event in enumerate(events):
            if event.kind == EventKind.INPUT and event.data.moved:
                last_moved = n
                cut = event.id
        # That step's side updates come after its input and belong to it: they hold its words,
        # the state and the request being answered now. Dropping them lost the step's log and
        # left a model one request short ("this side has 2 decisions, not 3").
        for event in events[last_moved + 1 :] if cut else ():
            if event.kind != EventKind.SIDE:
                break
            cut = event.id
        lines = []
        for event in events:
            if event.id > cut:
                break
            if event.kind == EventKind.INPUT:
                lines += event.data.lines
            elif event.kind == EventKind.LOG:
                self.spectator += event.data
            elif event.kind == EventKind.SIDE and event.side in SIDES:
                self.updates[event.side].append(event.data)
        dropped = {
            (e.side, e.data.idx)
            for e in events
            if e.kind == EventKind.CHOICE and e.id > cut and e.side is not None
        }
        self.store.forget_after(game_id, cut, dropped)
        for side in SIDES:
            self.next_index[side] = len(self.store.decisions(game_id, side))
            # A model picks up its own conversation.
            self.players[side].resume_conversation(
                [
                    {"role": m.role, "content": m.content}
                    for d in self.store.decisions(game_id, side)
                    for m in messages_of(d.detail)
                ]
            )
        self.input = lines
        self.inputlog = lines

    async def run(self) -> GameResult:
        if not self.resuming:
            self.game_id = self.store.create_game(**self.spec.record(self.bridge.showdown_version))
        self.over = asyncio.get_running_loop().create_future()
        try:
            if self.whole:
                with contextlib.suppress(BattleRefused):  # (played step by step: said there)
                    played = await self.play_whole()
                    if played.end is not None:
                        return self.finish_played(played)
                    if played.stopped == TEAM_PREVIEW:
                        _PREVIEW_FORMATS.add(self.spec.format)
            self.channel = await self.bridge.open(
                self.start_spec(), Receiver(self.take_step, self.end_with_error)
            )
            return self.finish(await self.over)
        except BattleRefused as exc:
            if self.steps == 0:  # Showdown would not start it: nothing to keep
                self.store.delete_game(self.game_id)
                raise
            return self.fail(str(exc))
        except BridgeDied as exc:
            # pokeview's own machinery failed, not a player: no result; a run plays it again.
            return self.fail(str(exc), status="interrupted")
        except PlayerFailed as exc:
            return self.fail(str(exc))
        except _HarnessFailed as exc:
            return self.fail(str(exc), status="interrupted")
        except (KeyError, ValueError, TypeError, AttributeError, IndexError) as exc:
            # A gap in following the battle (poke-env's view, say) ends this game, not the run.
            return self.fail(f"pokeview could not follow the battle: {exc!r}")
        except PokeviewError:
            raise
        except Exception as exc:
            # Anything else is pokeview's own failure in this game: it is interrupted (played
            # again by a run) with its reason, and the run goes on.
            return self.fail(f"pokeview failed in this game: {_said(exc)}", status="interrupted")
        except asyncio.CancelledError:
            # Left in the middle (a person quit, Ctrl-C, SIGTERM): kept as it is, as interrupted;
            # a person's game is resumed from there, a run's is played again from its seed.
            self.store.set_status(self.game_id, "interrupted")
            raise
        finally:
            for task in self.tasks:
                task.cancel()
            if self.channel:
                self.channel.close()
            for player in self.players.values():
                await player.close()

    async def play_whole(self) -> Played:
        """The game played through in the bridge, with no step sent (`Autoplay.whole`); where
        the bridge stopped (`Played.end` None), it is played the usual way, from its start."""
        start = self.start_spec()
        bots = {s: bot for s in WIRE_SIDES if (bot := self.whole_bots[s]) is not None}
        start.autoplay = Autoplay(
            self.spec.seed, list(WIRE_SIDES), self.spec.turn_limit, whole=True, bots=bots
        )
        channel = await self.bridge.open(start)
        try:
            return await channel.played()
        finally:
            channel.close()

    def finish_played(self, played: Played) -> GameResult:
        """Record a game the bridge played through: its logs, result and decision stats now;
        its events and decisions when first read (the Store derives them: `bodies.PLAYED`)."""
        self.steps = 1
        self.input = played.input
        self.spectator = played.spectator
        times: list[tuple[str, float]] = [(side, round(ms, 3)) for side, ms in played.decisions]
        self.made = bot_choices(times)
        assert played.end is not None
        return self.finish(played.end, played=times)

    # -- steps -------------------------------------------------------------------------------

    def take_step(self, step: Step) -> None:
        """One step, as the bridge reads it; what it raises ends the game (see `run`)."""
        if self.over is None or self.over.done():
            return
        self.steps += 1
        try:
            if self.apply(step) and not self.over.done():
                self.over.set_result(step.end)
        except Exception as exc:
            self.end_with_error(exc)

    def end_with_error(self, exc: Exception) -> None:
        if self.over is not None and not self.over.done():
            if isinstance(exc, StopIteration):  # a future refuses one (as a coroutine would)
                exc = RuntimeError(f"a step raised {exc!r}")
            self.over.set_exception(exc)

    def apply(self, step: Step) -> bool:
        """Record one step and hand out its requests; True when the game is over."""
        events: list[tuple[str | None, EventKind, Any]] = []
        replayed = self.resuming and self.steps == 1  # history already in the record
        if step.spectator and not replayed:
            self.spectator += step.spectator
            events.append((None, EventKind.LOG, step.spectator))
        if step.input and not replayed:
            self.input += step.input
            events.append((None, EventKind.INPUT, ev.Input(step.input, bool(step.spectator))))
        for side, update in step.sides.items():
            raw = update.request_json
            self.views[side].feed(update.lines, None if raw == NULL_JSON else raw)
            data = side_payload(update, later=side in self.later)
            if not replayed:
                self.updates[side].append(data)
            events.append((side, EventKind.SIDE, data))
        if not replayed:
            self.store.append_events(self.game_id, events, time.time())
            self.store.commit_soon()
        if step.end:
            return True
        for side, update in step.sides.items():
            if update.error:
                self.refused(side, update.error, update)
                continue
            request = decode_request(update.request_json)  # decoded here, once
            if request is not None and not request.wait:
                self.requested(side, request, update.request_json, update.chosen)
            elif update.chosen:
                raise _HarnessFailed(f"the bridge chose for {side} where nothing was asked")
        return False

    def requested(
        self, side: str, request: Request, request_json: msgspec.Raw, chosen: Chosen | None = None
    ) -> None:
        if chosen and side not in self.in_bridge:
            raise _HarnessFailed(f"the bridge chose for {side}, a side it does not play")
        if self.views[side].turn >= self.spec.turn_limit and not request.force_switch:
            if chosen:
                raise _HarnessFailed(f"the bridge chose for {side} past the turn limit")
            if not self.tie_sent and self.channel:
                self.tie_sent = True
                self.ending = endings.TURN_LIMIT
                self.channel.tie()
            return
        index = self.next_index[side]
        self.next_index[side] += 1
        self.pending[side] = _Pending(index, request, request_json, legal_actions(request))
        if chosen:
            self.bridge_chose(side, chosen)
        else:
            self.spawn(side)

    def bridge_chose(self, side: str, chosen: Chosen) -> None:
        """Record the choice the bridge made and sent for a side it plays, once it is the one
        the side's player makes here (a difference would be a bug: the game then stops)."""
        pending = self.pending[side]
        index = random_choice(pending.request, pending.actions, self.decision_seed(side))
        ours = None if index is None else pending.actions[index].choice
        if index is None or ours != chosen.choice:
            raise _HarnessFailed(
                f"the bridge chose {chosen.choice!r} for {side}'s decision {pending.index + 1}, "
                f"where {self.players[side].name} chooses {ours or 'through poke-env'}"
            )
        ms = self.latencies.get((side, pending.index), chosen.ms)
        self.record(side, self.views[side].turn, Decision(index, how=How.CHOSEN), ms)

    def refused(self, side: str, error: str, update: SideUpdate) -> None:
        pending = self.pending.get(side)
        if pending is None or pending.action is None:
            raise PlayerFailed(f"Showdown refused a choice nobody made for {side}: {error}")
        pending.refusals.append(
            {"choice": pending.action.choice, "label": pending.action.label, "error": error}
        )
        if len(pending.refusals) > MAX_REFUSALS:
            raise PlayerFailed(
                f"{self.players[side].name} ({side}) made {MAX_REFUSALS} refused choices in a row"
            )
        new_request = decode_request(update.request_json)
        if new_request is not None:  # [Unavailable choice] comes with what is really possible
            pending.request = new_request
            pending.request_json = update.request_json
            pending.actions = legal_actions(new_request)
        self.events(side, EventKind.REFUSAL, ev.Refusal(**pending.refusals[-1]))
        self.spawn(side, refusal=error)

    def spawn(self, side: str, refusal: str | None = None) -> None:
        player = self.players[side]
        if player.answers_at_once:  # a bot: no task, no turn of the event loop
            self.decide_at_once(side, refusal, player.decide_now)
            return
        task = asyncio.create_task(self.decide(side, refusal))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def events(self, side: str | None, kind: EventKind, data: Any) -> None:
        self.store.append_events(self.game_id, [(side, kind, data)], time.time())
        self.store.commit_soon()

    # -- decisions -----------------------------------------------------------------------

    def decision_seed(self, side: str) -> int:
        """The seed of a side's pending decision (its player's randomness): each decision, and
        each try after a refusal, has its own (the bridge draws the random bot's from the same
        formula: sim/bridge/random_choice.js)."""
        pending = self.pending[side]
        index = pending.index * 100 + len(pending.refusals)
        return seeds.decision_seed(self.spec.seed, side, index)

    def context(self, side: str, refusal: str | None) -> DecisionContext:
        pending = self.pending[side]
        refused: list[Action] = []
        if pending.refusals:
            refused_choices = {r["choice"] for r in pending.refusals}
            refused = [a for a in pending.actions if a.choice in refused_choices]
        return DecisionContext(
            side=side,
            index=pending.index,
            turn=self.views[side].turn,
            side_view=self.views[side],
            request=pending.request,
            request_json=pending.request_json,
            actions=pending.actions,
            seed=self.decision_seed(side),
            refusal=refusal,
            refused=refused,
            updates=self.updates_for(side),
            emit=lambda kind, data: self.events(side, kind, data),
            game_id=self.game_id,
            bridge=self.bridge,
        )

    async def decide(self, side: str, refusal: str | None) -> None:
        """A decision's task: whatever it raises ends the game through `over`, never escapes
        the task (an exception left in a task is never seen, and the game waited for ever)."""
        try:
            ctx = self.context(side, refusal)
            started = time.perf_counter()
            try:
                decision = await self.players[side].decide(ctx)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.decision_failed(side, exc)
                return
            self.decided(side, ctx, decision, started)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.bookkeeping_failed(side, exc)

    def decide_at_once(
        self, side: str, refusal: str | None, decide_now: Callable[[DecisionContext], Decision]
    ) -> None:
        """`decide` for a player whose choice is a plain function call (the bots)."""
        try:
            ctx = self.context(side, refusal)
            started = time.perf_counter()
            try:
                decision = decide_now(ctx)
            except Exception as exc:
                self.decision_failed(side, exc)
                return
            self.decided(side, ctx, decision, started)
        except Exception as exc:
            self.bookkeeping_failed(side, exc)

    def bookkeeping_failed(self, side: str, exc: Exception) -> None:
        """pokeview itself failed around a decision (asking for it, recording it, sending it):
        not the player's doing, so the game is interrupted and a run plays it again."""
        player = self.players[side]
        self.end_with_error(
            _HarnessFailed(f"pokeview failed at a decision of {player.name} ({side}): {_said(exc)}")
        )

    def decision_failed(self, side: str, exc: Exception) -> None:
        if isinstance(exc, InputLogEnds):  # a recorded game that ended in a forfeit or on time
            if not self.ending_sent and self.channel:
                self.ending_sent = True
                self.ending = exc.cause or endings.FORCED
                self.channel.end_with(exc.line)
        elif isinstance(exc, PokeviewError):
            self.end_with_error(exc)
        else:  # a player's bug ends its game, not the run
            player = self.players[side]
            self.end_with_error(PlayerFailed(f"{player.name} ({side}) failed: {exc!r}"))

    def decided(self, side: str, ctx: DecisionContext, decision: Decision, started: float) -> None:
        """Record the decision and send its choice to Showdown."""
        pending = self.pending[side]
        # (a game played again to derive it keeps each decision's first time, a retry's too)
        latency = self.latencies.get((side, pending.index), (time.perf_counter() - started) * 1000)
        player = self.players[side]
        if not 0 <= decision.action < len(pending.actions):
            self.end_with_error(
                PlayerFailed(
                    f"{player.name} ({side}) chose action {decision.action + 1}, "
                    f"but there are {len(pending.actions)}"
                )
            )
            return
        self.record(side, ctx.turn, decision, latency)
        assert self.channel is not None and pending.action is not None
        self.channel.choose(side, pending.action.choice)

    def record(self, side: str, turn: int, decision: Decision, latency_ms: float) -> None:
        """Write a decision (a legal action of the pending request) and its choice event."""
        latency = round(latency_ms, 3)
        pending = self.pending[side]
        action = pending.actions[decision.action]
        pending.action = action
        fields = {
            "turn": turn,
            "actions": [a.label for a in pending.actions],
            "action": decision.action,
            "choice": action.choice,
            "how": decision.how,
            "refusals": pending.refusals,
            "detail": decision.detail,
            "latency_ms": latency,
        }
        if not pending.recorded:
            pending.recorded = True
            self.store.add_decision(self.game_id, side=side, idx=pending.index, **fields)
        else:
            self.store.update_decision(self.game_id, side, pending.index, **fields)
        # Counted once kept: a decision the record refused is in neither.
        self.made[(side, pending.index)] = Made(side, decision.how, latency, decision.detail)
        self.events(
            side,
            EventKind.CHOICE,
            ev.Choice(pending.index, decision.action, action.label, action.choice),
        )

    def updates_for(self, side: str) -> list[ev.Side]:
        """The side's updates so far, for its player. Bots decide from the request and the
        protocol; for the others (a model's prompt, a person's board) snapshots are decoded."""
        updates = self.updates[side]
        if self.players[side].kind != PlayerKind.BOT:
            for n in range(self.decoded[side], len(updates)):
                u = updates[n]
                # A resumed game's earlier updates come from the record, their state typed.
                typed = u.state if isinstance(u.state, SideState) else None
                request, state = self.rebuilder.values(
                    side, u.request, None if typed else u.state, u.request_delta, u.state_delta
                )
                updates[n] = msgspec.structs.replace(
                    u,
                    request=request,
                    state=typed or (None if state is None else to_state(state)),
                    request_delta=None,
                    state_delta=None,
                )
            self.decoded[side] = len(updates)
        return updates

    # -- the end -----------------------------------------------------------------------------

    def finish(
        self, end: Ending | None, played: list[tuple[str, float]] | None = None
    ) -> GameResult:
        winner = (end and end.winner) or "tie"
        turns = end.turns if end else 0
        if played is None:  # (a game played through in the bridge has its end derived)
            self.events(None, EventKind.END, ev.End(winner, turns, self.ending))
        void = self.void_reason()
        status = "void" if void else "finished"
        self.store.finish_game(
            self.game_id,
            status=status,
            winner=winner,
            turns=turns,
            error=void,
            input_log=self.input,
            spectator_log=self.spectator,
            showdown_version=self.bridge.showdown_version,
            ending=self.ending,
            stats=self.stats(),
            played=played,
        )
        if void:
            self.store.set_excluded(self.game_id)
        result = self.result(status, winner, turns, void)
        result.ending = self.ending
        return result

    def stats(self) -> dict[str, SideStats] | None:
        """Each side's decision stats, from the decisions made here (None for a resumed game,
        whose earlier decisions were made elsewhere: computed from the record when read)."""
        return None if self.resuming else side_stats(self.made.values())

    def void_reason(self) -> str | None:
        """Why the game is void: a model side the harness decided for too often (RotomArena)."""
        share = self.spec.void_share
        reasons = [
            void_reason(side, p.name, self.store.decisions(self.game_id, side), share)
            for side, p in self.players.items()
            if p.kind == PlayerKind.LLM
        ]
        return "; ".join(r for r in reasons if r) or None

    def fail(self, reason: str, status: str = "error") -> GameResult:
        turns = max(v.turn for v in self.views.values())
        with contextlib.suppress(Exception):  # the reason is kept on the game row regardless
            self.events(None, EventKind.ERROR, ev.Error(reason))
        if status == "interrupted":
            self.store.set_excluded(self.game_id)
        self.store.finish_game(
            self.game_id,
            status=status,
            error=reason,
            turns=turns,
            input_log=self.input,
            spectator_log=self.spectator,
            showdown_version=self.bridge.showdown_version,
            stats=self.stats(),
        )
        return self.result(status, None, turns, reason)

    def result(self, status: str, winner: str | None, turns: int, error: str | None) -> GameResult:
        return GameResult(
            self.game_id,
            status,
            winner,
            turns,
            error,
            {s: self.players[s].name for s in SIDES},
        )


class _HarnessFailed(Exception):
    """pokeview's own bookkeeping failed in a game: the game is interrupted, not an error."""


def _said(exc: BaseException) -> str:
    """An exception as one short line, for a game's reason."""
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    return text if len(text) <= 300 else text[:299] + "…"


def side_payload(update: SideUpdate, later: bool = False) -> ev.Side:
    return ev.side_from_bridge(
        update.lines,
        update.text,
        update.request_json,
        update.error,
        update.state,
        update.request_delta,
        update.state_delta,
        later=later,
    )


async def play_game(
    spec: GameSpec,
    *,
    bridge: Bridge,
    store: Store,
    words_later: bool | None = None,
    in_bridge: bool = True,
    whole: bool = True,
    latencies: dict[tuple[str, int], float] | None = None,
) -> GameResult:
    """Play one game on the bridge to its end (or to its turn limit, a tie) and record it: the
    bridge's venue (`battle.play.OnBridge`); everything else calls `battle.play.play`.

    `words_later`: a bot's side is recorded without its words and state, derived when first read
    (`battle/derive.py`), and the bridge does only the simulation's work for it; None (the
    default) does so in a game of two bots, True in any game, False in none.
    `in_bridge`: the bridge plays the sides it can play by itself (the random bot), and the loop
    records its choices (`sim/bridge/autoplay.js`); False asks every player here.
    `whole`: a game of two such sides, its words left for later, is played through in the
    bridge and its steps derived when first read (`sim/bridge/whole.js`); False sends each step.
    `latencies`: each decision's time, by (side, index), to record instead of its own (a game
    played again to derive its steps: battle/derive.py)."""
    if not spec.seed:
        raise PokeviewError("a game needs a seed")
    for player in (spec.p1, spec.p2):  # a player that cannot play this format says so first
        player.check_format(spec.format)
    if not bridge.running:
        await bridge.start()
    game = _Game(
        spec,
        bridge=bridge,
        store=store,
        words_later=words_later,
        in_bridge=in_bridge,
        whole=whole,
        latencies=latencies,
    )
    if spec.resume is not None:
        game.restore(spec.resume)
    try:
        return await game.run()
    finally:
        if game.steps:  # Showdown started it (a refused start leaves nothing behind)
            wrote = [
                store.remember_player(player.name, player.kind, player.describe())
                for player in spec.players.values()
            ]
            if any(wrote):
                store.commit()
