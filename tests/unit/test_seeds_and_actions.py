from pokeview.battle import seeds
from pokeview.battle.actions import legal_actions
from tests.helpers import MOVES, TEAM


def test_game_seed_is_sha256_of_text_and_pair():
    assert seeds.game_seed("abc", 0) == seeds.game_seed("abc")
    assert seeds.game_seed("abc", 0) != seeds.game_seed("abc", 1)
    assert seeds.game_seed("abc", 0) != seeds.game_seed("abd", 0)
    import hashlib

    assert seeds.game_seed("abc", 3) == hashlib.sha256(b"abc#3").hexdigest()


def test_team_seeds_follow_the_seat_and_battle_seed_is_sodium():
    g = seeds.game_seed("abc")
    assert seeds.team_seed(g, "p1") != seeds.team_seed(g, "p2")
    assert seeds.battle_seed(g).startswith("sodium,") and len(seeds.battle_seed(g)) == 7 + 32
    assert seeds.decision_seed(g, "p1", 0) != seeds.decision_seed(g, "p2", 0)


def test_actions_in_pokebench_order_and_wording():
    request = {
        "active": [{"moves": MOVES, "canTerastallize": "Fighting"}],
        "side": {"pokemon": TEAM},
    }
    actions = legal_actions(request)
    assert [a.label for a in actions] == [
        "move Body Press",
        "move Iron Defense",
        "move Body Press + Terastallize (Fighting)",
        "move Iron Defense + Terastallize (Fighting)",
        "switch Palkia-Origin",
        "switch Weavile",
    ]
    assert [a.choice for a in actions] == [
        "move 1",
        "move 2",
        "move 1 terastallize",
        "move 2 terastallize",
        "switch 2",
        "switch 4",
    ]


def test_trapped_forced_switch_wait_and_team_preview():
    trapped = {"active": [{"moves": MOVES[:1], "trapped": True}], "side": {"pokemon": TEAM}}
    assert [a.label for a in legal_actions(trapped)] == ["move Body Press"]
    forced = {"forceSwitch": [True], "side": {"pokemon": TEAM}}
    assert [a.choice for a in legal_actions(forced)] == ["switch 2", "switch 4"]
    assert legal_actions({"wait": True, "side": {"pokemon": TEAM}}) == []
    preview = {"teamPreview": True, "side": {"pokemon": TEAM}}
    assert [a.label for a in legal_actions(preview)][:2] == ["lead Carbink", "lead Palkia-Origin"]
    assert legal_actions(preview)[1].choice == "team 2"


def test_revival_blessing_offers_the_fainted():
    team = [dict(TEAM[0], reviving=True), *TEAM[1:]]
    request = {"forceSwitch": [True], "side": {"pokemon": team}}
    assert [a.label for a in legal_actions(request)] == ["switch Granbull"]
    assert [a.choice for a in legal_actions(request)] == ["switch 3"]
