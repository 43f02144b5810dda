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
