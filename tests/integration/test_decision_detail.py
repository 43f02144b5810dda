"""Every decision detail real games record decodes strictly into pokeview.game.decision's types,
is written again byte for byte, and gives the decision stats the Store's SQL used to compute."""

from __future__ import annotations

import sqlite3

import pytest

from pokeview.game.decision import (
    BotDetail,
    ModelDetail,
    NoDetail,
    SearchDetail,
    detail_from_json,
    detail_to_data,
)
from pokeview.store.compaction import STATS_COLUMNS
from pokeview.store.rows import dumps
from tests.helpers import PRICES, game, llm

# The Store's own statistics before they were computed from the types (kept here as the
# reference the Python must agree with).
OLD_STATS_SQL = """
    select side, count(*),
           sum(case when json_extract(detail, '$.usage') is not null then 1 else 0 end),
           coalesce(sum(json_extract(detail, '$.usage.output')), 0),
           sum(coalesce(json_extract(detail, '$.decision_ms'), latency_ms, 0)),
           sum(case when json_extract(detail, '$.reasks') > 0 then 1 else 0 end),
           sum(case when how = 'random pick' then 1 else 0 end),
           sum(case when how = 'autopilot' then 1 else 0 end),
           sum(json_extract(detail, '$.cost')),
           sum(case when json_extract(detail, '$.model') is not null
                     and json_extract(detail, '$.cost') is null then 1 else 0 end),
           sum(case when json_extract(detail, '$.model') is not null then 1 else 0 end),
           max(coalesce(json_extract(detail, '$.usage.estimated'), 0))
    from decisions group by side order by side
"""

MODEL_GAMES = [
    # (model, api, text): the four APIs, then re-asks, random picks, autopilot, retries,
    # refusals, redacted reasoning and a model that reports no usage
    ("loopback", "chat", "api-chat"),
    ("loopback", "responses", "api-responses"),
    ("loopback", "anthropic", "api-anthropic"),
    ("loopback", "gemini", "api-gemini"),
    ("loopback-malformed-once", "chat", "reask"),
    ("loopback-malformed", "chat", "randompick"),
    ("loopback-401", "chat", "autopilot"),
    ("loopback-switch-first", "chat", "refusals"),
    ("loopback-nousage", "chat", "nousage"),
    ("loopback-redacted", "anthropic", "redacted-anthropic"),
    ("loopback-redacted", "responses", "redacted-responses"),
    ("loopback-overloaded-once", "gemini", "overloaded"),
]


def _check(store, game_id: int) -> list[type]:
    """Each stored detail decoded strictly and written again; the stats as the SQL gave them."""
    _, decisions, _ = store.export_rows(game_id)
    kinds = []
    for d in decisions:
        detail = detail_from_json(d["detail"])  # unknown fields refused (forbid_unknown_fields)
        assert dumps(detail_to_data(detail)) == d["detail"]
        kinds.append(type(detail))
    old = sqlite3.connect(":memory:")
    old.execute("create table decisions (side, how, detail, latency_ms)")
    old.executemany(
        "insert into decisions values (?, ?, ?, ?)",
        [(d["side"], d["how"], d["detail"], d["latency_ms"]) for d in decisions],
    )
    expected = [tuple(r) for r in old.execute(OLD_STATS_SQL)]
    kept = store.conn.execute(
        f"select side, {', '.join(STATS_COLUMNS)} from decision_stats "
        "where game_id = ? and decisions > 0 order by side",
        (game_id,),
    ).fetchall()
    assert len(kept) == len(expected)
    for row, want in zip(kept, expected, strict=True):
        assert tuple(row)[:4] == want[:4] and tuple(row)[5:8] == want[5:8]
        assert tuple(row)[9:] == want[9:]
        assert row[4] == pytest.approx(want[4])
        assert row[8] == want[8] if want[8] is None else row[8] == pytest.approx(want[8])
    return kinds


@pytest.mark.parametrize(("model", "api", "text"), MODEL_GAMES)
async def test_a_models_details_decode_strictly_and_are_written_again_byte_for_byte(
    bridge, store, loopback, model, api, text
):
    player = llm(loopback, model, api=api, prices=PRICES, max_retries=1)
    result = await game(bridge, store, player, "max-damage", text=text, turn_limit=4)
    assert result.status in ("finished", "void"), result.error
    kinds = _check(store, result.game_id)
    assert ModelDetail in kinds and NoDetail in kinds  # the bot on the other side keeps nothing


async def test_search_and_bot_details_decode_strictly(bridge, store):
    searched = await game(bridge, store, "search:nodes=12", "random", "detail-search", turn_limit=6)
    assert SearchDetail in _check(store, searched.game_id)
    bots = await game(bridge, store, "heuristic", "random", "detail-bots", turn_limit=6)
    assert set(_check(store, bots.game_id)) <= {NoDetail, BotDetail}
