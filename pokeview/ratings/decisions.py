"""What ratings and reports read of decisions, computed here from their typed details (the Store
keeps the details as payloads and the per-side sums as they are given to it)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import msgspec

from pokeview.game.decision import ModelDetail, TokenUsage, side_stats
from pokeview.store.rows import PlayerStats
from pokeview.store.store import DecisionRow, Store


def ensure_stats(store: Store, game_ids: Iterable[int]) -> None:
    """Compute and keep the decision stats of the games that have none yet, or whose decisions
    may have changed since (a game still kept as rows)."""
    for game_id in store.stats_missing(list(game_ids)):
        store.keep_stats(game_id, side_stats(store.decisions(game_id)))


def player_decision_stats(store: Store, game_ids: list[int]) -> list[PlayerStats]:
    """Per player, the decision stats of these games summed (see Store.player_decision_stats)."""
    ensure_stats(store, game_ids)
    return store.player_decision_stats(game_ids)


class DecisionFacts(msgspec.Struct, kw_only=True):
    """The few facts a report needs of one decision (no prompts or reasoning)."""

    game_id: int
    side: str
    turn: int
    how: str
    player: str
    kind: str | None  # its settings' kind
    spec_name: str | None  # its settings' player name (a model's entry in the players file)
    label: str | None  # the action taken
    usage: TokenUsage | None
    cost: float | None
    model: bool  # a model made it
    answers: int  # answers given
    unknown_actions: int  # answers that named an action not on the list
    unknown_example: str | None  # the first such


def decision_facts(
    store: Store,
    game_ids: list[int],
    each: Callable[[str, DecisionRow], None] | None = None,
) -> list[DecisionFacts]:
    """Per decision of these games, what reports read. From rows or bodies alike. `each` is
    also handed every decision whole, with its player's name (reading decisions is what costs:
    the site's player pages pick their telling decisions in the same pass)."""
    out: list[DecisionFacts] = []
    for game_id in game_ids:
        game = store.game(game_id, with_log=False)
        names = {"p1": game.p1, "p2": game.p2}
        configs = {"p1": game.p1_config or {}, "p2": game.p2_config or {}}
        for d in store.decisions(game_id):
            if each is not None:
                each(names[d.side], d)
            detail = d.detail if isinstance(d.detail, ModelDetail) else None
            answers = detail.answers if detail else []
            unknown = [
                a.action_text
                for a in answers
                if a.problem is not None and isinstance(a.action_text, str)
            ]
            out.append(
                DecisionFacts(
                    game_id=game_id,
                    side=d.side,
                    turn=d.turn,
                    how=d.how,
                    player=names[d.side],
                    kind=configs[d.side].get("kind"),
                    spec_name=configs[d.side].get("player"),
                    label=d.actions[d.action] if 0 <= d.action < len(d.actions) else None,
                    usage=detail.usage if detail else None,
                    cost=detail.cost if detail else None,
                    model=detail is not None,
                    answers=len(answers),
                    unknown_actions=len(unknown),
                    unknown_example=unknown[0] if unknown else None,
                )
            )
    return out
