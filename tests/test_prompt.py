"""PokéBench's prompt, version 3, reproduced: exact bytes where the seed gives them."""

from __future__ import annotations

import re

from pokeview.players.llm import prompt
from tests.conftest import DATA

EXAMPLES = DATA / "pokebench"


def example(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


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
    assert prompt.system_prompt() == example("system-prompt-v3.txt")
    assert prompt.system_prompt("[Gen 9] OU").startswith(
        "You are a player in a Pokémon battle on Pokémon Showdown. The format is [Gen 9] OU, singles."
    )


def test_first_message_is_the_seed_byte_for_byte():
    words = example("first-message.txt").split("\n\nCURRENT STATE")[0].split("\n")[1:]
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
    assert prompt.first_message(words, state, actions) == example("first-message.txt")


def test_turn_6_message_is_the_seed_byte_for_byte():
    text = example("turn6-message.txt")
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
    assert prompt.later_message(words, state, actions) == text


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
    assert prompt._field(state) == [
        "FIELD: Weather: Rain; Terrain: Electric; Trick Room",
        "YOUR SIDE: Spikes (2 layers); Reflect",
        "OPPONENT'S SIDE: Stealth Rock",
    ]
    assert prompt._field({"field": {"mine": [], "theirs": []}}) == []


# -- shapes: a real seeded game's messages line up with the seed's examples ----------------------

SHAPES = [
    ("heading", r"^(BATTLE LOG|NEW EVENTS|YOUR LEGAL ACTIONS|YOUR ACTIVE POKÉMON:)$"),
    ("state", r"^(CURRENT STATE|STATE NOW) \((turn \d+)\)$"),
    ("team", r"^YOUR TEAM \(Player [12]\):$"),
    ("foe-team", r"^OPPONENT'S TEAM \(Player [12]\), as far as you have seen it:$"),
    ("foe", r"^OPPONENT \(Player [12]\):$"),
    (
        "mon",
        r"^- [^\[\]]+ \[(ACTIVE|bench)\], [A-Za-z]+(/[A-Za-z]+)?, L\d+, "
        r"(HP \d+/\d+ \(\d+%\)|HP \d+%|fainted)$",
    ),
    ("ability", r"^  Ability: [^,]+, Item: [^,]+, Tera type: [A-Za-z]+$"),
    ("stats", r"^  Stats: Atk \d+, Def \d+, SpA \d+, SpD \d+, Spe \d+$"),
    (
        "active-moves",
        r"^  Moves: ([^;]+ \([A-Za-z]+, (Physical|Special|Status)(, \d+ BP)?, "
        r"(\d+% accuracy|never misses)(: [^)]*)?\)(; )?)+$",
    ),
    ("moves", r"^  Moves: [^;()]+(; [^;()]+)*$"),
    ("foe-ability", r"^  Ability: [^,]+$"),
    ("seen", r"^  Moves seen: .+$"),
    ("unseen", r"^- \d Pokémon not seen yet$"),
    ("bench", r"^YOUR BENCH: .+$"),
    ("also", r"^ALSO SEEN: .+$"),
    ("action", r"^\d+\. (move|switch) .+$"),
    ("closing", r"^Choose one action\. Answer with only the ACTION line and the REASON line\.$"),
    ("blank", r"^$"),
]


def shapes(message: str) -> list[str]:
    """Each line's shape; log lines fold into one 'log' item, repeated shapes into one."""
    out: list[str] = []
    for line in message.split("\n"):
        shape = next((name for name, rx in SHAPES if re.match(rx, line)), "log")
        if shape in ("foe-ability",):
            continue  # seen or not depending on the game
        if not out or out[-1] != shape:
            out.append(shape)
    return out


def test_shapes_of_the_examples_are_what_the_test_expects():
    assert shapes(example("first-message.txt")) == [
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


async def test_a_seeded_game_gives_messages_shaped_like_the_examples(bridge, store):
    from pokeview.players.llm.record import side_updates
    from tests.test_games import game

    result = await game(bridge, store, "heuristic", "max-damage", text="prompt-shapes")
    updates = side_updates(store, result.game_id, "p1")
    first = prompt.decision_message(updates, 0)
    assert shapes(first) == shapes(example("first-message.txt"))
    later_example = shapes(example("turn6-message.txt"))
    points = prompt.decision_points(updates)
    later = [prompt.decision_message(updates, p.index) for p in points[1:]]
    turn_starts = [m for m in later if not m.split("\n\nSTATE NOW")[0].endswith("fainted!")]
    # Every later message has the example's structure (bench/also lines and actions vary only).
    for message in later:
        assert shapes(message)[:1] == ["heading"] and "STATE NOW (turn " in message
        assert message.endswith(prompt.CLOSING)
    assert any(shapes(m) == later_example for m in turn_starts)
