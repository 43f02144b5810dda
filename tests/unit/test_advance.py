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


def test_a_pokemon_seen_first_is_not_one_whose_name_starts_the_same_but_a_forme_is():
    foes = {
        "turn": 9,
        "team": [],
        "foeTeam": [
            {"species": "Mewtwo", "active": False, "hp": 0, "maxhp": 100, "fainted": True},
            {"species": "Urshifu-Rapid-Strike", "active": False, "hp": 100, "maxhp": 100},
        ],
    }
    after = advance(foes, ["|switch|p2a: Mew|Mew, L84|100/100"], "p1")
    mewtwo, _, mew = after["foeTeam"]
    assert mewtwo["fainted"] and not mewtwo["active"]  # a Mew switching in revived it
    assert mew["species"] == "Mew" and mew["active"] and mew["level"] == 84
    after = advance(after, ["|-damage|p2: Urshifu|40/100"], "p1")
    assert after["foeTeam"][1]["hp"] == 40  # named by its base species, found by its forme


def test_heal_bell_in_early_generations_cures_the_whole_team():
    before = state()
    before["team"][1]["status"] = "par"
    after = advance(
        before,
        ["|-status|p1a: Dachsbun|brn", "|-cureteam|p1a: Dachsbun|[from] move: Heal Bell"],
        "p1",
    )
    assert [m["status"] for m in after["team"]] == ["", ""]
    assert after["foeTeam"][0]["status"] == ""


def test_illusion_revealed_puts_back_the_pokemon_it_posed_as():
    # A foe's Zoroark switches in as Torkoal, takes damage, is revealed, then faints.
    lines = [
        "|switch|p2a: Torkoal|Torkoal, L88, M|100/100",
        "|-damage|p2a: Torkoal|35/100",
        "|replace|p2a: Zoroark|Zoroark, L80, M",
        "|-end|p2a: Zoroark|Illusion",
        "|faint|p2a: Zoroark",
    ]
    # Torkoal not seen before: the entry the switch-in added goes.
    after = advance(state(), lines, "p1")
    assert [(m["species"], m.get("fainted", False)) for m in after["foeTeam"]] == [
        ("Hydreigon", False),
        ("Zoroark", True),
    ]
    assert after["foeTeam"][1]["level"] == 80
    # Torkoal seen before (on the bench at 60%): it is put back as it was.
    before = state()
    before["foeTeam"].append({"species": "Torkoal", "active": False, "hp": 60, "maxhp": 100})
    after = advance(before, lines[:3], "p1")
    hydreigon, torkoal, zoroark = after["foeTeam"]
    assert (torkoal["hp"], torkoal["active"]) == (60, False)
    assert (zoroark["hp"], zoroark["active"]) == (35, True) and not hydreigon["active"]


def test_illusion_on_ones_own_side_gives_the_real_pokemon_its_hp():
    own = state()
    own["team"].append({"species": "Zoroark", "active": False, "hp": 150, "maxhp": 210})
    after = advance(
        own,
        [
            "|switch|p1a: Gallade|Gallade, L85, M|150/210",  # Zoroark's own HP, Gallade's name
            "|-damage|p1a: Gallade|90/210",
            "|replace|p1a: Zoroark|Zoroark, L84, M",
        ],
        "p1",
    )
    dachsbun, gallade, zoroark = after["team"]
    assert (gallade["hp"], gallade["maxhp"], gallade["active"]) == (260, 260, False)
    assert (zoroark["hp"], zoroark["maxhp"], zoroark["active"]) == (90, 210, True)
    assert not dachsbun["active"]
