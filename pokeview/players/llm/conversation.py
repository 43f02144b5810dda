"""The conversation one side had (or would have had) up to a decision, read from the record.

For a model's side it is what was sent and answered, as stored. For a bot's or a person's side
it is rendered from the record: what a model would have seen there, with the choice actually
made standing in for the answer. `pokeview prompt` and the prompt inspector show this text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokeview.errors import PokeviewError
from pokeview.game.decision import messages_of
from pokeview.players.kinds import PlayerKind
from pokeview.players.llm import prompt
from pokeview.players.llm.record import side_updates
from pokeview.store.store import DecisionRow, Store


@dataclass(slots=True)
class Message:
    role: str  # system, user, assistant
    content: str
    decision: int | None = None  # the side's decision number it belongs to
    turn: int | None = None
    note: str | None = None  # e.g. "chosen by heuristic; no model answered"
    marker: str | None = None  # what the API's envelope held that is not text, plainly

    def to_json(self) -> dict[str, Any]:
        return {
            k: v
            for k, v in {
                "role": self.role,
                "content": self.content,
                "decision": self.decision,
                "turn": self.turn,
                "note": self.note,
                "marker": self.marker,
            }.items()
            if v is not None
        }


def decision_for_turn(decisions: list[DecisionRow], turn: int, game_turns: int) -> DecisionRow:
    for decision in decisions:
        if decision.turn == turn:
            return decision
    turns = sorted({d.turn for d in decisions})
    span = f"turns {turns[0]} to {turns[-1]}" if turns else "no decisions"
    raise PokeviewError(
        f"this side made no decision at turn {turn} (the game lasted {game_turns} turns; "
        f"decisions at {span})"
    )


def conversation(store: Store, game_id: int, side: str, upto: int | None = None) -> list[Message]:
    """System prompt and every message up to and including decision `upto` (all when None)."""
    game = store.game(game_id)
    config = game.p1_config if side == "p1" else game.p2_config
    decisions = [d for d in store.decisions(game.id, side) if upto is None or d.idx <= upto]
    if config.get("kind") == PlayerKind.LLM:
        from pokeview.players.llm.providers.envelope import envelope

        sent = [
            Message(m.role, m.content)
            if m.role == "system"
            else Message(m.role, m.content, d.idx, d.turn)
            for d in decisions
            for m in messages_of(d.detail)
        ]
        return envelope(config, sent)
    updates = side_updates(store, game.id, side)
    points = prompt.decision_points(updates)
    fmt = points[0].state.format if points else None
    messages = [Message("system", prompt.system_prompt(fmt or "[Gen 9] Random Battle"))]
    player = game.p1 if side == "p1" else game.p2
    for d in decisions:
        if d.idx >= len(points):
            break
        messages.append(Message("user", prompt.decision_message(updates, d.idx), d.idx, d.turn))
        for refusal in d.refusals:
            messages.append(
                Message(
                    "assistant",
                    f"ACTION: {refusal['label']}",
                    d.idx,
                    d.turn,
                    f"chosen by {player}; no model answered",
                )
            )
            actions = points[d.idx].actions
            messages.append(
                Message("user", prompt.refusal_message(refusal["error"], actions), d.idx, d.turn)
            )
        messages.append(
            Message(
                "assistant",
                f"ACTION: {d.action + 1}",
                d.idx,
                d.turn,
                f"chosen by {player}; no model answered",
            )
        )
    return messages


def format_conversation(messages: list[Message]) -> str:
    blocks = []
    for m in messages:
        where = ""
        if m.decision is not None:
            where = f" · decision {m.decision + 1}, turn {m.turn}"
        note = f" ({m.note})" if m.note else ""
        marker = f" {m.marker}" if m.marker else ""
        blocks.append(f"━━ {m.role}{where}{note}{marker}\n{m.content}")
    return "\n\n".join(blocks) + "\n"
