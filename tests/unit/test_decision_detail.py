"""A decision's detail, typed once (pokeview.game.decision): what it refuses, and that no part of
pokeview declares a detail as a plain dict again."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pokeview.game.decision import (
    BadDetail,
    BotDetail,
    ModelDetail,
    NoDetail,
    detail_from_json,
    detail_to_data,
)
from pokeview.store.rows import dumps

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "text",
    ['{"tokens": 1}', '{"model": "m", "colour": "red"}', '{"search": 3}', "[1]", '{"model": 1}'],
)
def test_a_detail_of_no_known_kind_or_shape_is_refused(text):
    with pytest.raises(BadDetail):
        detail_from_json(text)


def test_an_empty_detail_is_no_detail_and_numbers_stay_as_written():
    assert detail_from_json("{}") == NoDetail() == detail_from_json(None)
    assert dumps(detail_to_data(NoDetail())) == "{}"
    assert dumps(detail_to_data(BotDetail(bot_order="/choose move 9"))) == (
        '{"bot_order":"/choose move 9"}'
    )
    # An older record without the later keys still reads; 0 stays 0, not 0.0.
    old = detail_from_json('{"model":"m","cost":0,"model_latency_ms":0}')
    assert isinstance(old, ModelDetail) and old.decision_ms is None
    assert '"cost":0,' in dumps(detail_to_data(old))


def test_no_annotation_declares_a_decisions_detail_as_a_plain_dict():
    """`detail: dict[str, Any]` was the decision's detail before it had a type: read by string
    key all over the code. A detail (or a list of them) annotated as a dict or Any is refused."""
    offenders = []
    pattern = re.compile(r"\bdetails?\s*:\s*(dict|Any|list\[(dict|Any))")
    for path in (ROOT / "pokeview").rglob("*.py"):
        for n, line in enumerate(path.read_text().splitlines(), start=1):
            if pattern.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert offenders == []


def test_a_migrated_games_decision_stats_are_computed_when_first_read(tmp_path, data_dir):
    """Migration compacts games with no stats (the Store computes none); the first ratings read
    computes them from the typed details and keeps them, and they are not computed again."""
    from pokeview.ratings.decisions import ensure_stats, player_decision_stats
    from pokeview.store import open_store
    from tests.helpers import unpack_v2

    store = open_store(unpack_v2(data_dir, tmp_path))
    try:
        ids = store.game_ids()
        assert store.stats_missing(ids) == ids  # the compacted ones have none; the running one
        rows = player_decision_stats(store, ids)
        assert sum(r.decisions for r in rows) == sum(len(store.decisions(g)) for g in ids) > 0
        running = [g.id for g in store.games(limit=100) if not g.compacted]
        assert running and store.stats_missing(ids) == running  # a running game's may change
        ensure_stats(store, ids)
        kept = store.conn.execute("select count(*) from decision_stats").fetchone()[0]
        assert kept == 2 * len(ids)  # both sides of every game, a game with no decisions too
    finally:
        store.close()
