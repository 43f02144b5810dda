"""`pokeview report`'s small helpers (the page in a real headless browser: tests/integration)."""

from __future__ import annotations

import pytest

from pokeview.ratings.report import move_name, pearson


def test_small_helpers():
    assert move_name("move Earthquake + Terastallize (Ground)") == "Earthquake"
    assert move_name("switch Garchomp") is None
    assert pearson([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0)
    assert pearson([1, 2], [1, 2]) is None  # fewer than three points: not defined


# -- the page's defects seen in headless Chromium (issue 32) -------------------------------------


def _line(name: str, rating: float, **kw):
    from pokeview.ratings.summary import PlayerLine

    base = dict(
        name=name,
        rating=rating,
        low=rating - 80,
        high=rating + 80,
        games=8,
        wins=4,
        losses=4,
        ties=0,
        win_rate=0.5,
        win_low=0.2,
        win_high=0.8,
        provisional=True,
    )
    return PlayerLine(**{**base, **kw})


def _findings(players, models=None, facts=None, header=None):
    from pokeview.ratings.report import Findings
    from pokeview.ratings.summary import Report

    report = Report(
        "run t",
        header,
        "max-damage",
        "anchored",
        players,
        {a.name: {b.name: [1.0, 2] for b in players if b is not a} for a in players},
        len(players) * 4,
        0,
        10,
    )
    return Findings(report, "t", "run", facts or {}, [], None, models or [])


LOOPBACK = dict(
    reask_rate=0.0,
    random_pick_rate=0.0,
    autopilot_rate=0.0,
    output_tokens_per_decision=60.0,
    tokens_estimated=True,
    cost_per_game=0.0,
)


def test_provenance_is_a_table_not_python_dicts():
    from pokeview.ratings.report import provenance

    header = {
        "format": "gen9randombattle",
        "players": {
            "loopback": {
                "kind": "llm",
                "player": "loopback",
                "stand_in": True,
                "model": "loopback",
                "prices": {"input": 0.0, "cached_input": 0.0, "output": 0.0},
            },
            "random": {"kind": "bot", "bot": "random"},
        },
    }
    page = provenance(_findings([_line("random", 1000)], header=header))
    assert "{" not in page and "stand_in=" not in page  # no Python repr
    assert "<table" in page and "<th" in page
    assert "$0.00" in page  # prices read as prices


def test_estimated_tokens_and_cost_are_marked_est():
    from pokeview.ratings.report import ratings_table, render

    loop = _line("loopback", 1100, **LOOPBACK)
    f = _findings([loop, _line("random", 900)], models=[loop])
    assert "est." in ratings_table(f)
    assert "estimated token counts" in render(f)  # and the page says what est. means


def _numbers(svg: str, attr: str) -> list[float]:
    import re

    return [float(v) for v in re.findall(rf' {attr}="([-0-9.]+)"', svg)]


def test_tokens_figure_has_ticks_and_keeps_points_and_labels_inside():
    import re

    from pokeview.ratings.report import tokens_figure

    a = _line("loopback", 1100, **LOOPBACK)
    b = _line("loopback-slow", 1000, **{**LOOPBACK, "output_tokens_per_decision": 61.0})
    svg = tokens_figure(_findings([a, b], models=[a, b]))
    width = float(re.search(r'viewBox="0 0 ([0-9.]+) ', svg).group(1))
    ticks = re.findall(r'class="xtick"', svg)
    assert len(ticks) >= 3
    xs = [float(v) for v in re.findall(r'class="point" cx="([0-9.]+)"', svg)]
    left, right = 60, width - 100
    assert all(left + 10 < x < right for x in xs), xs  # neither point on the plot's edge
    for label in re.finditer(r'class="plabel" x="([0-9.]+)"[^>]*text-anchor="(\w+)"', svg):
        assert label.group(2) == "end" or float(label.group(1)) + 90 < width


def test_no_favourite_move_finding_from_one_player():
    from collections import Counter

    from pokeview.ratings.report import ModelFacts, findings

    facts = {"a": ModelFacts(moves=Counter({"Play Rough": 3})), "b": ModelFacts()}
    lines = [text for text, _ in findings(_findings([_line("a", 1000)], facts=facts))]
    assert not any("favourite move" in line for line in lines)
    facts["b"] = ModelFacts(moves=Counter({"Play Rough": 2}))
    lines = [text for text, _ in findings(_findings([_line("a", 1000)], facts=facts))]
    assert any("Play Rough, preferred by 2 players" in line for line in lines)


def test_heat_map_has_no_blank_band_over_short_names():
    import re

    from pokeview.ratings.report import head_to_head_figure

    svg = head_to_head_figure(_findings([_line("random", 1000), _line("heuristic", 900)]).report)
    first_row = min(
        float(v) for v in re.findall(r'<rect class="cell" x="[0-9.]+" y="([0-9.]+)"', svg)
    )
    assert first_row < 90  # the column labels ("heuristic": 9 letters at 45°) need ~50 px
