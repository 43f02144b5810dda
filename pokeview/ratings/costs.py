"""What decisions cost, at the prices known now.

A decision recorded while its model had no price keeps its token usage and a cost of None; once
the players file gives the price, it is costed from that usage (issue 17: past games are costed
when the report is built). Prices are read from the players file, never stored again.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from pokeview.players.llm.usage import Usage, cost
from pokeview.ratings.decisions import DecisionFacts


def current_prices(players_file: str | Path | None = None) -> dict[str, dict[str, float]]:
    """Each model player's prices in the players file, by its name there; {} when unreadable."""
    from pokeview.errors import PokeviewError
    from pokeview.players.llm.config import load_players

    try:
        return {name: dict(spec.prices) for name, spec in load_players(players_file).items()}
    except PokeviewError:
        return {}


def decision_cost(
    row: DecisionFacts, prices: dict[str, dict[str, float]]
) -> tuple[float | None, bool]:
    """(USD, costed later) of one decision; (None, False) when unknown."""
    if row.cost is not None:
        return float(row.cost), False
    if row.usage is None or not row.spec_name or row.spec_name not in prices:
        return None, False
    usage = Usage.from_json(msgspec.to_builtins(row.usage))
    value = cost(usage, prices[row.spec_name])
    return value, value is not None


def side_costs(
    rows: list[DecisionFacts], prices: dict[str, dict[str, float]]
) -> dict[tuple[int, str], float | None]:
    """USD per (game, side) for the model sides of these decisions; None when any is unknown."""
    out: dict[tuple[int, str], float | None] = {}
    for row in rows:
        if not row.model:
            continue
        key = (row.game_id, row.side)
        value, _ = decision_cost(row, prices)
        if key not in out:
            out[key] = value
        elif out[key] is not None:
            out[key] = None if value is None else out[key] + value  # type: ignore[operator]
    return out
