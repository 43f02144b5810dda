"""A decision's detail: what the record keeps of how a player made one decision, by kind.

A model's detail keeps its conversation, every attempt (failed ones and re-asks included), tokens,
cost and time; the search player's what it weighed; a bot's the order it named when that was not
legal; a bot's own choice, a person's and a replayed one keep nothing. The record stores the
detail as JSON with no tag (these structs give exactly the bytes pokeview always wrote: fields in
the order written, a key that is sometimes absent declared UNSET), so its kind is read from its
keys. `docs/schemas/decision-detail.schema.json` is generated from these declarations.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Annotated, Any, Literal, Protocol

import msgspec
from msgspec import UNSET, UnsetType

# A JSON number kept as it was written: 0 stays 0 and 0.5 stays 0.5 (a float field would turn
# a stored 0 into 0.0 when written again).
Number = int | float


class How(StrEnum):
    """How a decision was made (`decisions.how`)."""

    CHOSEN = "chosen"  # a bot's or a person's own choice
    ANSWER = "answer"  # a model's first answer named a legal action
    REASK = "re-ask"  # a model named one after being asked again
    RANDOM_PICK = "random pick"  # 3 answers named none: a seeded random action
    AUTOPILOT = "autopilot"  # the provider failed past its retries: a seeded random action
    FALLBACK = "fallback"  # a bot named nothing legal: a seeded random action
    ONLY_CHOICE = "only choice"  # one action was possible: nothing was asked
    RECORDED = "recorded"  # replayed from an input log


class _Detail(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Every part of a detail: a key pokeview never wrote is refused, not dropped."""


# A count of tokens as the record keeps one: a provider's is clamped to 10**9 an attempt, so a
# decision's sum stays far below this, and a game's sums below SQLite's 64-bit integers (a
# file's 10**30 raised OverflowError while its stats were written).
Tokens = Annotated[int, msgspec.Meta(ge=0, le=10**15)]


class TokenUsage(_Detail):
    """Tokens as the provider counted them (pokeview.players.llm.usage.Usage as stored)."""

    input: Tokens  # all input tokens, cached ones included
    cached_input: Tokens = 0
    cache_write: Tokens = 0
    output: Tokens = 0  # reasoning included, as providers bill it
    reasoning: Tokens = 0
    # Kept only when true: counted from text length by pokeview's loopback model.
    estimated: bool | UnsetType = UNSET


class Message(_Detail):
    role: str  # system, user, assistant
    content: str


class Attempt(_Detail):
    """One ask of the provider: failed (`status` "error") or answered ("ok")."""

    n: int  # the attempt's number in its decision, from 0
    status: Literal["ok", "error"]
    error: str | UnsetType = UNSET  # a failed attempt: the provider's error
    retry: int = 0  # how many tries of this attempt failed before this one
    reasoning: str | UnsetType = UNSET
    content: str | UnsetType = UNSET  # the model's whole answer
    usage: TokenUsage | None | UnsetType = UNSET
    cost: Number | None | UnsetType = UNSET  # USD; None: a price was missing
    latency_ms: Number = 0
    first_token_ms: Number | UnsetType = UNSET
    model: str | None | UnsetType = UNSET  # as the provider named it
    finish_reason: str | None | UnsetType = UNSET
    # A native API's own account of the response (ids, its usage as it sent it), verbatim.
    response: dict[str, Any] | UnsetType = UNSET
    reasoning_redacted: bool | UnsetType = UNSET
    action_text: str | None | UnsetType = UNSET  # what its ACTION line said
    reason: str | None | UnsetType = UNSET
    problem: str | None | UnsetType = UNSET  # why it was asked again; None: it named an action
    refused: str | UnsetType = UNSET  # Showdown refused the choice it named: its message

    @property
    def answered(self) -> bool:
        return self.status == "ok"


class ModelDetail(_Detail):
    """A language model's decision (pokeview.players.llm.player)."""

    model: str
    messages: list[Message] = []  # what this decision added to the conversation
    reasoning: str = ""  # the last answer's
    answer: str = ""
    action_text: str | None = None
    reason: str | None = None
    attempts: list[Attempt] = []
    reasks: int = 0  # answers that named no legal action
    usage: TokenUsage | None = None  # all attempts' summed
    cost: Number | None = None  # USD; None: unknown
    autopilot: str | None = None  # why the provider gave out, when it did
    model_latency_ms: Number = 0  # every attempt's time
    decision_ms: Number | None = None  # that and the waits between retries

    @property
    def answers(self) -> list[Attempt]:
        return [a for a in self.attempts if a.answered]


class Considered(_Detail):
    action: str  # its label
    value: Number
    weight: Number  # how often the equilibrium plays it


class SearchInfo(_Detail):
    budget: str  # "200 nodes", "500 ms CPU"
    depth: int | UnsetType = UNSET
    nodes: int = 0
    samples: int | UnsetType = UNSET
    hidden_foes: int | UnsetType = UNSET
    elapsed_ms: Number | UnsetType = UNSET
    cpu_ms: Number | UnsetType = UNSET
    considered: list[Considered] | UnsetType = UNSET  # the best few, best first


class SearchDetail(_Detail):
    """The search player's decision (pokeview.players.search)."""

    search: SearchInfo


class BotDetail(_Detail):
    """A bot that named nothing legal (its order as it gave it), so a seeded random pick."""

    bot_order: str


class NoDetail(_Detail):
    """Nothing kept: a bot's or a person's own choice, a replayed one."""


DecisionDetail = ModelDetail | SearchDetail | BotDetail | NoDetail
KINDS: dict[str, type[DecisionDetail]] = {
    "model": ModelDetail,
    "search": SearchDetail,
    "bot_order": BotDetail,
}
_DECODERS = {key: msgspec.json.Decoder(kind) for key, kind in KINDS.items()}


class BadDetail(ValueError):
    """A stored detail of no known kind, or not of its kind's shape."""


def kind_of(data: dict[str, Any]) -> type[DecisionDetail]:
    """A detail's kind from its keys (the record stores no tag)."""
    for key, kind in KINDS.items():
        if key in data:
            return kind
    if data:
        raise BadDetail(f"a decision's detail of no known kind (keys {', '.join(sorted(data))})")
    return NoDetail


def detail_from_json(text: str | bytes | None) -> DecisionDetail:
    """A stored detail, typed; raises BadDetail for anything pokeview does not write."""
    if not text or text in ("{}", b"{}"):
        return NoDetail()
    raw = text.encode() if isinstance(text, str) else text
    # Every producer writes its kind's key first: decode straight into it.
    for key, decoder in _DECODERS.items():
        if raw.startswith(b'{"' + key.encode() + b'"'):
            try:
                return decoder.decode(raw)
            except msgspec.ValidationError as exc:
                raise BadDetail(f"a decision's detail: {exc}") from None
    try:
        data = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise BadDetail(f"a decision's detail is not JSON: {exc}") from None
    return detail_from_data(data)


def detail_from_data(data: Any) -> DecisionDetail:
    """A detail given as decoded JSON (a dict), typed."""
    if data is None:
        return NoDetail()
    if not isinstance(data, dict):
        raise BadDetail("a decision's detail is not a JSON object")
    try:
        return msgspec.convert(data, kind_of(data))
    except msgspec.ValidationError as exc:
        raise BadDetail(f"a decision's detail: {exc}") from None


def detail_to_data(detail: DecisionDetail) -> dict[str, Any]:
    """The detail as the record stores it (JSON-ready builtins, keys in the order written)."""
    data: dict[str, Any] = msgspec.to_builtins(detail)
    return data


def messages_of(detail: DecisionDetail) -> list[Message]:
    """What a decision added to its model's conversation (nothing for other kinds)."""
    return detail.messages if isinstance(detail, ModelDetail) else []


# -- statistics ------------------------------------------------------------------------------


class Decided(Protocol):
    """What statistics read of one recorded decision."""

    side: str
    how: str
    latency_ms: float | None
    detail: DecisionDetail


class Made(msgspec.Struct):
    """One decision as it was made: what statistics read of it, where no record row is at hand."""

    side: str
    how: str
    latency_ms: float | None
    detail: DecisionDetail


class SideStats(msgspec.Struct, kw_only=True):
    """One side's decisions in one game, summed: what ratings read (kept in decision_stats)."""

    decisions: int = 0
    with_usage: int = 0  # decisions whose usage (tokens) is known
    output_tokens: int = 0
    ms_total: float = 0  # time per decision, summed (the model's time where known)
    reasks: int = 0  # decisions with at least one re-ask
    random_picks: int = 0
    autopilot: int = 0
    cost: float | None = None  # None: no decision's cost is known
    unknown_cost: int = 0  # model decisions whose cost is unknown
    model_decisions: int = 0
    estimated: int = 0  # 1: the token counts are estimates (pokeview's stand-in model)

    def add(self, d: Decided) -> None:
        self.decisions += 1
        self.random_picks += d.how == How.RANDOM_PICK
        self.autopilot += d.how == How.AUTOPILOT
        detail = d.detail
        if not isinstance(detail, ModelDetail):
            self.ms_total += d.latency_ms or 0
            return
        self.ms_total += detail.decision_ms if detail.decision_ms is not None else d.latency_ms or 0
        self.model_decisions += 1
        if detail.usage is not None:
            self.with_usage += 1
            self.output_tokens += detail.usage.output
            self.estimated = max(self.estimated, int(detail.usage.estimated is True))
        self.reasks += detail.reasks > 0
        if detail.cost is None:
            self.unknown_cost += 1
        else:
            self.cost = (self.cost or 0) + detail.cost


def bot_choices(times: Iterable[tuple[str, float]]) -> dict[tuple[str, int], Made]:
    """The decisions of a game the bridge played through by itself (`body.PLAYED`), from each
    one's side and time in the order made: a bot's own choices, by (side, its index)."""
    counts: dict[str, int] = {}
    made: dict[tuple[str, int], Made] = {}
    for side, ms in times:
        index = counts[side] = counts.get(side, -1) + 1
        made[(side, index)] = Made(side, How.CHOSEN, ms, NoDetail())
    return made


def side_stats(decisions: Iterable[Decided]) -> dict[str, SideStats]:
    """Each side's statistics over a game's decisions. Both sides have theirs, zeros for a side
    that made none, so that a game's stats, once kept, are never looked for again."""
    out = {"p1": SideStats(), "p2": SideStats()}
    for d in decisions:
        out.setdefault(d.side, SideStats()).add(d)
    return out


def schema() -> dict[str, Any]:
    """The JSON schema of a decision's detail (one of its kinds), for docs/schemas."""
    kinds = [ModelDetail, SearchDetail, BotDetail, NoDetail]
    refs, defs = msgspec.json.schema_components(kinds, ref_template="#/$defs/{name}")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "A decision's detail (pokeview's record, decisions.detail)",
        "anyOf": list(refs),
        "$defs": defs,
    }
