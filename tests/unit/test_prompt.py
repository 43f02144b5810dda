"""PokéBench's prompt, version 3, reproduced: exact bytes where the seed gives them (a seeded
game's messages against the examples are in tests/integration/test_prompt.py)."""

from __future__ import annotations

from pokeview.game.side import to_state
from pokeview.players.llm import prompt
from tests.helpers import pokebench_example, shapes


def mon(species, types, level, hp, maxhp, ability, item, tera, stats, moves, **extra):
    atk, df, spa, spd, spe = stats
    return {
        "species": species,
        "active": extra.pop("active", False),
        "types": types,
        "level": level,
        "hp": hp,
        "maxhp": maxhp,
        "status": "",
        "fainted": hp == 0,
        "ability": ability,
        "item": item,
        "teraType": tera,
        "terastallized": "",
        "stats": {"atk": atk, "def": df, "spa": spa, "spd": spd, "spe": spe},
        "moves": moves,
        **extra,
    }


def move(name, type_, category, bp, accuracy, desc):
    return {
        "name": name,
        "type": type_,
        "category": category,
        "basePower": bp,
        "accuracy": accuracy,
        "desc": desc,
    }


CARBINK_MOVES = [
    move(
        "Body Press",
        "Fighting",
        "Physical",
        80,
        100,
        "Uses user's Def stat as Atk in damage calculation.",
    ),
    move("Iron Defense", "Steel", "Status", 0, True, "Raises the user's Defense by 2."),
    move(
        "Moonblast", "Fairy", "Special", 95, 100, "30% chance to lower the target's Sp. Atk by 1."
    ),
    move("Rest", "Psychic", "Status", 0, True, "User sleeps 2 turns and restores HP and status."),
]


def team_of_the_example():
    return [
        mon(
            "Carbink",
            ["Rock", "Fairy"],
            90,
            236,
            236,
            "Sturdy",
            "Chesto Berry",
            "Fighting",
            (95, 321, 141, 321, 141),
            ["Body Press", "Iron Defense", "Moonblast", "Rest"],
            active=True,
            boosts={},
            moveInfo=CARBINK_MOVES,
        ),
        mon(
            "Palkia-Origin",
            ["Water", "Dragon"],
            72,
            249,
            249,
            "Pressure",
            "Lustrous Globe",
            "Fire",
            (149, 186, 258, 215, 215),
            ["Spacial Rend", "Fire Blast", "Hydro Pump", "Thunder Wave"],
        ),
        mon(
            "Granbull",
            ["Fairy"],
            88,
            302,
            302,
            "Intimidate",
            "Leftovers",
            "Ground",
            (261, 182, 156, 156, 129),
            ["Encore", "Play Rough", "Earthquake", "Thunder Wave"],
        ),
        mon(
            "Vivillon-Ocean",
            ["Bug", "Flying"],
            83,
            268,
            268,
            "Compound Eyes",
            "Heavy-Duty Boots",
            "Flying",
            (91, 131, 197, 131, 195),
            ["Hurricane", "Bug Buzz", "Sleep Powder", "Quiver Dance"],
        ),
        mon(
            "Virizion",
            ["Grass", "Fighting"],
            82,
            283,
            283,
            "Justified",
            "Life Orb",
            "Rock",
            (195, 165, 195, 259, 224),
            ["Swords Dance", "Leaf Blade", "Stone Edge", "Close Combat"],
        ),
        mon(
            "Weavile",
            ["Dark", "Ice"],
            79,
            239,
            239,
            "Pickpocket",
            "Choice Band",
            "Fighting",
            (235, 148, 117, 180, 243),
            ["Ice Shard", "Low Kick", "Triple Axel", "Knock Off"],
        ),
    ]


def request_for(team, tera, active_moves):
    """A Showdown request with the same team order as `team`."""
    return {
        "active": [
            {
                "moves": [
                    {
                        "move": m,
                        "id": m.lower().replace(" ", ""),
                        "pp": 8,
                        "maxpp": 8,
                        "disabled": False,
                    }
                    for m in active_moves
                ],
                "canTerastallize": tera,
            }
        ],
        "side": {
            "pokemon": [
                {
                    "ident": f"p1: {m['species']}",
                    "details": f"{m['species']}, L{m['level']}",
                    "condition": f"{m['hp']}/{m['maxhp']}" if m["hp"] else "0 fnt",
                    "active": m["active"],
                }
                for m in team
            ]
        },
    }


def test_system_prompt_is_the_seed_byte_for_byte():
    assert prompt.system_prompt() == pokebench_example("system-prompt-v3.txt")
    assert prompt.system_prompt("[Gen 9] OU").startswith(
        "You are a player in a Pokémon battle on Pokémon Showdown. The format is [Gen 9] OU, singles."
    )


def test_first_message_is_the_seed_byte_for_byte():
    words = pokebench_example("first-message.txt").split("\n\nCURRENT STATE")[0].split("\n")[1:]
    team = team_of_the_example()
    state = {
        "turn": 1,
        "me": "Player 1",
        "foe": "Player 2",
        "team": team,
        "foeTotal": 6,
        "foeTeam": [
            {
                "species": "Calyrex-Shadow",
                "active": True,
                "types": ["Psychic", "Ghost"],
                "level": 64,
                "hp": 100,
                "maxhp": 100,
                "status": "",
                "fainted": False,
                "ability": "Unnerve",
                "item": "",
                "terastallized": "",
                "boosts": {},
                "moves": [],
            }
        ],
        "field": {"weather": "", "terrain": "", "pseudoWeather": [], "mine": [], "theirs": []},
    }
    actions = prompt.legal_actions(request_for(team, "Fighting", team[0]["moves"]))
    assert prompt.first_message(words, to_state(state), actions) == pokebench_example(
        "first-message.txt"
    )


def test_turn_6_message_is_the_seed_byte_for_byte():
    text = pokebench_example("turn6-message.txt")
    words = text.split("\n\nSTATE NOW")[0].split("\n")[1:]
    full = {m["species"]: m for m in team_of_the_example()}
    granbull = dict(full["Granbull"], active=True, hp=227, boosts={})
    order = [
        granbull,
        full["Palkia-Origin"],
        dict(full["Virizion"], hp=0, fainted=True),
        full["Vivillon-Ocean"],
        dict(full["Carbink"], active=False, hp=0, fainted=True),
        full["Weavile"],
    ]
    state = {
        "turn": 6,
        "me": "Player 1",
        "foe": "Player 2",
        "team": order,
        "foeTotal": 6,
        "foeTeam": [
            {
                "species": "Calyrex-Shadow",
                "active": False,
                "types": ["Psychic", "Ghost"],
                "level": 64,
                "hp": 0,
                "maxhp": 100,
                "status": "",
                "fainted": True,
                "ability": "Unnerve",
                "item": "",
                "terastallized": "",
                "boosts": {},
                "moves": [],
            },
            {
                "species": "Rotom-Heat",
                "active": True,
                "types": ["Electric", "Fire"],
                "level": 83,
                "hp": 43,
                "maxhp": 100,
                "status": "",
                "fainted": False,
                "ability": "Levitate",
                "item": "",
                "terastallized": "",
                "boosts": {"spa": -4, "atk": -1},
                "moves": ["Overheat"],
            },
        ],
        "field": {"weather": "", "terrain": "", "pseudoWeather": [], "mine": [], "theirs": []},
    }
    actions = prompt.legal_actions(request_for(order, "Ground", granbull["moves"]))
    assert prompt.later_message(words, to_state(state), actions) == text


def test_field_lines_appear_only_when_something_is_on_the_field():
    state = {
        "field": {
            "weather": "Rain",
            "terrain": "Electric",
            "pseudoWeather": ["Trick Room"],
            "mine": [{"name": "Spikes", "level": 2}, {"name": "Reflect", "level": 1}],
            "theirs": [{"name": "Stealth Rock", "level": 1}],
        }
    }
    assert prompt._field(to_state(state)) == [
        "FIELD: Weather: Rain; Terrain: Electric; Trick Room",
        "YOUR SIDE: Spikes (2 layers); Reflect",
        "OPPONENT'S SIDE: Stealth Rock",
    ]
    assert prompt._field(to_state({"field": {"mine": [], "theirs": []}})) == []


# -- shapes: a real seeded game's messages line up with the seed's examples ----------------------


def test_shapes_of_the_examples_are_what_the_test_expects():
    assert shapes(pokebench_example("first-message.txt")) == [
        "heading",
        "log",
        "blank",
        "state",
        "team",
        "mon",
        "ability",
        "stats",
        "active-moves",
        "mon",
        "ability",
        "stats",
        "moves",
        "mon",
        "ability",
        "stats",
        "moves",
        "mon",
        "ability",
        "stats",
        "moves",
        "mon",
        "ability",
        "stats",
        "moves",
        "mon",
        "ability",
        "stats",
        "moves",
        "blank",
        "foe-team",
        "mon",
        "seen",
        "unseen",
        "blank",
        "heading",
        "action",
        "blank",
        "closing",
    ]
