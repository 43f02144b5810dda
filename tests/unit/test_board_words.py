"""The board's words for what a side knows: turns left of field and side conditions, items
known or lost, a foe's PP seen used (issue 31)."""

from __future__ import annotations

from pokeview.board.parts import conditions_text, field_line, item_text, moves_text, turns_left
from pokeview.game.side import Condition, Field, MoveSlot, Pokemon, SideState


def test_turns_left_as_far_as_the_side_can_tell():
    assert turns_left(Condition("Reflect", min_turns=3, max_turns=5)) == " 3–5 turns"
    assert turns_left(Condition("Tailwind", min_turns=2, max_turns=2)) == " 2 turns"
    assert turns_left(Condition("Trick Room", max_turns=1)) == " 1 turn"
    assert turns_left(Condition("Light Screen", min_turns=2)) == " ≥2 turns"
    assert turns_left(Condition("Stealth Rock")) == ""  # until removed


def test_field_and_side_conditions_with_turns_and_layers():
    field = Field(
        weather="Snow",
        weather_turns=Condition("Snow", min_turns=4, max_turns=7),
        terrain="Electric",
        terrain_turns=Condition("Electric Terrain", min_turns=3, max_turns=3),
        pseudo_weather=["Trick Room"],
        pseudo_weather_turns=[Condition("Trick Room", min_turns=2, max_turns=2)],
        mine=[Condition("Spikes", level=2)],
        theirs=[Condition("Reflect", min_turns=3, max_turns=5)],
    )
    line = field_line(SideState(field=field)).plain
    assert line == "Weather Snow 4–7 turns · Electric Terrain 3 turns · Trick Room 2 turns"
    assert "Spikes" not in line and "Reflect" not in line  # each under its own side
    assert conditions_text(field.mine).plain == "Spikes ×2"
    assert conditions_text(field.theirs).plain == "Reflect 3–5 turns"


def test_items_known_unknown_and_lost():
    assert item_text(Pokemon("Heatran", item="Air Balloon"), foe=True).plain == "Air Balloon"
    assert item_text(Pokemon("Heatran"), foe=True).plain == "item unknown"
    assert item_text(Pokemon("Darkrai"), foe=False).plain == "no item"
    lost = Pokemon("Sableye", last_item="Leftovers", last_item_effect="knocked off")
    assert item_text(lost, foe=True).plain == "no item (Leftovers knocked off)"


def test_pp_left_of_own_moves_and_pp_seen_used_of_the_foes():
    own = Pokemon("Dragonite", move_slots=[MoveSlot("Outrage", pp=0, maxpp=16, disabled=True)])
    assert moves_text(own, own=True).plain == "Outrage 0/16 (disabled)"
    foe = Pokemon("Lugia", move_slots=[MoveSlot("Aeroblast", pp_used=2, pp_used_most=4)])
    assert moves_text(foe, own=False).plain == "Aeroblast (2–4 used)"  # Pressure: a range
