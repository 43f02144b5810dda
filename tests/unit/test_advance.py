"""A snapshot carried forward by protocol lines (the viewer's board between snapshots)."""

from __future__ import annotations

from pokeview.battle.advance import advance


def state() -> dict:
    return {
        "turn": 4,
        "team": [
            {"species": "Dachsbun", "active": True, "hp": 254, "maxhp": 254, "status": ""},
            {"species": "Gallade", "active": False, "hp": 260, "maxhp": 260, "status": ""},
        ],
        "foeTeam": [
            {"species": "Hydreigon", "active": True, "hp": 100, "maxhp": 100, "status": ""},
        ],
    }


def test_damage_faint_switch_status_boosts_and_turn():
    before = state()
    after = advance(
        before,
        [
            "|move|p2a: Hydreigon|Dark Pulse|p1a: Dachsbun",
            "|-damage|p1a: Dachsbun|163/254",
            "|-boost|p1a: Dachsbun|def|2",
            "|-damage|p2a: Hydreigon|40/100 par",
            "|faint|p2a: Hydreigon",
            "|switch|p2a: Kingambit|Kingambit, L77, M|100/100",
            "|-terastallize|p2a: Kingambit|Dark",
            "|turn|5",
        ],
        "p1",
    )
    dachsbun, gallade = after["team"]
    assert (dachsbun["hp"], dachsbun["boosts"]) == (163, {"def": 2}) and gallade["hp"] == 260
    hydreigon, kingambit = after["foeTeam"]
    assert hydreigon["fainted"] and not hydreigon["active"] and hydreigon["hp"] == 0
    assert kingambit["active"] and kingambit["level"] == 77 and kingambit["terastallized"] == "Dark"
    assert after["turn"] == 5
    assert before["team"][0]["hp"] == 254 and len(before["foeTeam"]) == 1  # the original kept


def test_own_switch_resets_boosts_and_a_bench_cure_finds_by_name():
    after = advance(
        state(),
        [
            "|-boost|p1a: Dachsbun|atk|1",
            "|-status|p1a: Dachsbun|brn",
            "|switch|p1a: Gallade|Gallade, L85, M|201/260",
            "|-curestatus|p1: Dachsbun|brn|[msg]",
        ],
        "p1",
    )
    dachsbun, gallade = after["team"]
    assert not dachsbun["active"] and dachsbun["boosts"] == {} and dachsbun["status"] == ""
    assert gallade["active"] and gallade["hp"] == 201
