"""A move action's details as a person sees them (pokeview/widgets/move_details.py): its type
and how effective it is against the foe's active Pokémon, as the side knows them."""

from __future__ import annotations

from pokeview.game.side import MoveInfo, MoveSlot, Pokemon, SideState
from pokeview.widgets.move_details import move_details

TERA_BLAST = MoveInfo(
    name="Tera Blast", type="Normal", category="Special", base_power=80, accuracy=100
)


def state(
    terastallized: str, foe_types: list[str], boosts: dict[str, int] | None = None
) -> SideState:
    me = Pokemon(
        species="Arcanine",
        active=True,
        types=["Fire"],
        tera_type="Grass",
        terastallized=terastallized,
        stats={"atk": 230, "def": 160, "spa": 200, "spd": 160, "spe": 190},
        boosts=boosts or {},
        move_info=[TERA_BLAST],
        move_slots=[MoveSlot(name="Tera Blast", pp=16, maxpp=16)],
    )
    foe = Pokemon(species="Gyarados", active=True, types=foe_types)
    return SideState(format="gen9randombattle", team=[me], foe_team=[foe])


def test_tera_blast_takes_the_tera_type_once_terastallized():
    before = move_details("Tera Blast", state("", ["Water", "Flying"]))
    assert before is not None and before.plain.split()[0] == "Normal"
    assert before.plain.split()[-1] == "1×"
    after = move_details("Tera Blast", state("Grass", ["Water", "Flying"]))
    assert after is not None and after.plain.split()[0] == "Grass"
    assert after.plain.split()[-1] == "1×"  # Grass on Water/Flying: 2 × ½
    rock = move_details("Tera Blast", state("Rock", ["Water", "Flying"]))
    assert rock is not None and rock.plain.split()[0] == "Rock" and rock.plain.split()[-1] == "2×"
    electric = move_details("Tera Blast", state("Electric", ["Water", "Flying"]))
    assert electric is not None and electric.plain.split()[-1] == "4×"


def test_tera_blast_is_physical_once_terastallized_when_attack_is_the_higher():
    # As Showdown's terablast: Attack against Special Attack, with their boosts.
    before = move_details("Tera Blast", state("", ["Water"]))
    assert before is not None and before.plain.split()[1] == "Spec"
    after = move_details("Tera Blast", state("Grass", ["Water"]))
    assert after is not None and after.plain.split()[1] == "Phys"
    lowered = move_details("Tera Blast", state("Grass", ["Water"], {"atk": -1}))
    assert lowered is not None and lowered.plain.split()[1] == "Spec"  # 153 against 200
