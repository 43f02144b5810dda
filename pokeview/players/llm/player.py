"""A language model as a player: one conversation per game, PokéBench's rules for answers.

For each decision the player adds one message (the first message, a later message, or Showdown's
refusal), streams the model's reasoning out as events, and reads the last ACTION/REASON lines.
An answer naming no legal action gets a re-ask; after 3 of them a legal action is picked at random
(seeded) and counted as a random pick. Provider failures are retried with backoff; when retries run
out, or when waiting as the provider asks (Retry-After) would pass the decision's total timeout,
the decision falls back to a random pick counted as autopilot, with its reason. Every attempt is
kept in the decision's record, with its reasoning, answer, usage and time; a choice Showdown
refuses is asked again within the same decision, so its record keeps both asks.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass
from typing import Any

import msgspec
from msgspec import UNSET

from pokeview.game.decision import Attempt, How, Message, ModelDetail, TokenUsage
from pokeview.players.base import Decision, DecisionContext, Player
from pokeview.players.kinds import PlayerKind
from pokeview.players.llm import prompt
from pokeview.players.llm.answer import Answer, parse_answer
from pokeview.players.llm.config import ModelSpec
from pokeview.players.llm.provider import ChatClient, Completion, ProviderError
from pokeview.players.llm.providers import make_provider
from pokeview.players.llm.usage import Usage, cost
from pokeview.store import events as ev
from pokeview.store.events import EventKind

MAX_INVALID_ANSWERS = 3
FLUSH_SECONDS = 0.1  # reasoning deltas are coalesced into events at most this often


class _Stream:
    """Coalesces streamed text into events for live spectators."""

    def __init__(self, ctx: DecisionContext, kind: EventKind, attempt: int) -> None:
        self.ctx, self.kind, self.attempt = ctx, kind, attempt
        self.buffer: list[str] = []
        self.last = time.monotonic()

    def __call__(self, text: str) -> None:
        self.buffer.append(text)
        if time.monotonic() - self.last >= FLUSH_SECONDS:
            self.flush()

    def flush(self) -> None:
        if self.buffer and self.ctx.emit:
            self.ctx.emit(self.kind, ev.Stream(self.ctx.index, self.attempt, "".join(self.buffer)))
        self.buffer = []
        self.last = time.monotonic()


class LLMPlayer(Player):
    kind = PlayerKind.LLM

    def __init__(self, spec: ModelSpec, client: ChatClient | None = None) -> None:
        self.spec = spec
        self.name = f"llm:{spec.name}"
        self.client = client or make_provider(spec)
        self.conversation: list[dict[str, str]] = []
        # The decision last made. A choice Showdown refuses is asked again as the same decision,
        # whose record then keeps every message, attempt, token and second spent on it.
        self._last: _Asked | None = None
        self._started = 0.0

    def describe(self) -> dict[str, Any]:
        return self.spec.describe()

    def resume_conversation(self, messages: list[Any]) -> None:
        self.conversation = list(messages)

    async def close(self) -> None:
        await self.client.aclose()

    async def decide(self, ctx: DecisionContext) -> Decision:
        added: list[dict[str, str]] = []
        if not self.conversation:  # the system prompt is stored with the first decision
            state = ctx.updates[-1].state if ctx.updates else None
            system = prompt.system_prompt((state and state.format) or "[Gen 9] Random Battle")
            added.append({"role": "system", "content": system})
        if ctx.refusal is None:
            opening = prompt.decision_message(ctx.updates, ctx.index)
        else:
            opening = prompt.refusal_message(ctx.refusal, ctx.actions)
        added.append({"role": "user", "content": opening})
        self.conversation += added
        attempts: list[Attempt] = []
        deadline = time.monotonic() + self.spec.timeout("total")
        total_usage: Usage | None = None
        self._started = time.perf_counter()
        last = self._last
        if ctx.refusal is not None and last is not None and last.index == ctx.index:
            added, attempts, total_usage = last.added + added, last.attempts, last.usage
            self._started -= last.ms / 1000
            answered = [a for a in attempts if a.answered]
            if answered:
                answered[-1].refused = ctx.refusal
        invalid = 0
        while True:
            completion, failure = await self._ask(ctx, len(attempts), attempts, deadline)
            if completion is None:
                index = random.Random(ctx.seed).randrange(len(ctx.actions))
                return self._decision(
                    ctx, index, How.AUTOPILOT, added, attempts, total_usage, autopilot=failure
                )
            if completion.usage:
                total_usage = (
                    completion.usage if total_usage is None else total_usage + completion.usage
                )
            reply = {"role": "assistant", "content": completion.content}
            self.conversation.append(reply)
            added.append(reply)
            answer = parse_answer(completion.content, ctx.actions)
            attempts[-1].action_text = answer.action_text
            attempts[-1].reason = answer.reason
            attempts[-1].problem = answer.problem
            if answer.index is not None:
                how = How.ANSWER if invalid == 0 else How.REASK
                return self._decision(
                    ctx, answer.index, how, added, attempts, total_usage, answer=answer
                )
            invalid += 1
            if invalid >= MAX_INVALID_ANSWERS:
                index = random.Random(ctx.seed).randrange(len(ctx.actions))
                return self._decision(ctx, index, How.RANDOM_PICK, added, attempts, total_usage)
            again = {"role": "user", "content": prompt.reask_message(answer.problem or "")}
            self.conversation.append(again)
            added.append(again)

    async def _ask(
        self, ctx: DecisionContext, number: int, attempts: list[Attempt], deadline: float
    ) -> tuple[Completion | None, str | None]:
        """One answer from the provider, retrying failures; (None, reason) when retries run out
        or the next try would come after the decision's deadline."""
        retries = 0
        while True:
            reasoning = _Stream(ctx, EventKind.REASONING, number)
            answer = _Stream(ctx, EventKind.ANSWER, number)
            asked = time.perf_counter()
            try:
                completion = await self.client.complete(self.conversation, reasoning, answer)
            except ProviderError as exc:
                reasoning.flush()
                attempts.append(
                    Attempt(
                        n=number,
                        status="error",
                        error=str(exc),
                        retry=retries,
                        latency_ms=round((time.perf_counter() - asked) * 1000, 3),
                    )
                )
                if ctx.emit:
                    ctx.emit(EventKind.ATTEMPT, ev.Attempt(ctx.index, number, str(exc)))
                if not exc.retryable or retries >= self.spec.max_retries:
                    return None, str(exc)
                delay = self.spec.retry_backoff * (2**retries)
                if exc.retry_after is not None:
                    delay = max(delay, exc.retry_after)
                left = deadline - time.monotonic()
                if delay > left:
                    total = self.spec.timeout("total")
                    why = "was asked to wait" if exc.retry_after is not None else "would wait"
                    return None, (
                        f"{exc}; gave up: pokeview {why} {delay:g} s before trying again, "
                        f"past this decision's total timeout of {total:g} s"
                    )
                retries += 1
                await asyncio.sleep(delay)
                continue
            reasoning.flush()
            answer.flush()
            metadata = getattr(completion, "metadata", None)
            attempts.append(
                Attempt(
                    n=number,
                    status="ok",
                    retry=retries,
                    reasoning=completion.reasoning,
                    content=completion.content,
                    usage=token_usage(completion.usage),
                    cost=cost(completion.usage, self.spec.prices),
                    latency_ms=round(completion.latency_ms, 3),
                    first_token_ms=round(completion.first_token_ms or 0, 3),
                    model=completion.model,
                    finish_reason=completion.finish_reason,
                    # A native API's own account of the response (ids, its usage as it sent it).
                    response=metadata if metadata else UNSET,
                    reasoning_redacted=True if getattr(completion, "redacted", False) else UNSET,
                )
            )
            return completion, None

    def _decision(
        self,
        ctx: DecisionContext,
        index: int,
        how: How,
        added: list[dict[str, str]],
        attempts: list[Attempt],
        usage: Usage | None,
        answer: Answer | None = None,
        autopilot: str | None = None,
    ) -> Decision:
        ok = [a for a in attempts if a.answered]
        costs = [a.cost for a in ok]
        known = bool(ok) and all(isinstance(c, int | float) for c in costs)
        last = ok[-1] if ok else None
        spent = (time.perf_counter() - self._started) * 1000
        self._last = _Asked(ctx.index, added, attempts, usage, spent)
        detail = ModelDetail(
            model=(last.model if last else None) or self.spec.model,
            messages=[Message(role=m["role"], content=m["content"]) for m in added],
            reasoning=last.reasoning or "" if last else "",
            answer=last.content or "" if last else "",
            action_text=answer.action_text if answer else None,
            reason=answer.reason if answer else None,
            attempts=attempts,
            reasks=sum(1 for a in ok if a.problem),
            usage=token_usage(usage),
            cost=sum(c for c in costs if isinstance(c, int | float)) if known else None,
            autopilot=autopilot,
            # Every attempt's time, failed ones and retries included (PokéBench: from the
            # request to the answer); decision_ms adds the waits between retries.
            model_latency_ms=round(sum(a.latency_ms for a in attempts), 3),
            decision_ms=round(spent, 3),
        )
        return Decision(index, how=how, detail=detail)


@dataclass(slots=True)
class _Asked:
    """The decision last made, kept to be asked again when Showdown refuses its choice."""

    index: int
    added: list[dict[str, str]]
    attempts: list[Attempt]
    usage: Usage | None
    ms: float


def token_usage(usage: Usage | None) -> TokenUsage | None:
    """A provider's usage as the record keeps it."""
    return None if usage is None else msgspec.convert(usage.to_json(), TokenUsage)
