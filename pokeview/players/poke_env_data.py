"""What poke-env's MaxBasePowerPlayer and SimpleHeuristicsPlayer read of its generation 9 data,
as the bridge's copy of those bots reads it (`sim/bridge/poke_env_gen9.json`, made by this
module: `python -m pokeview.players.poke_env_data`). A test checks the copy against the installed
poke-env, so an upgrade that changes a number fails there, not in a game."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from poke_env.battle.pokemon_type import PokemonType
from poke_env.battle.side_condition import SideCondition
from poke_env.data import GenData
from poke_env.data.normalize import to_id_str

GEN = 9
COPY = Path(__file__).resolve().parent.parent / "sim" / "bridge" / f"poke_env_gen{GEN}.json"
_MOVE_FIELDS = ("basePower", "accuracy", "category", "type", "multihit")


def gen_of(format_id: str) -> int:
    """The generation poke-env reads a format's games as."""
    try:
        return GenData.from_format(format_id).gen
    except Exception:  # poke-env knows no such generation; its parsing still works for 9
        return 9


def _one(abilities: dict[str, str]) -> str:
    (ability,) = abilities.values()
    return to_id_str(ability)


def bridge_data() -> dict[str, Any]:
    data = GenData.from_gen(GEN)
    return {
        "pokedex": {
            species: {
                "types": entry["types"],
                "baseStats": entry["baseStats"],
                "baseSpecies": entry["baseSpecies"],
                # its one ability, which poke-env then takes as known (Illusion, for one)
                **({"ability": _one(entry["abilities"])} if len(entry["abilities"]) == 1 else {}),
            }
            for species, entry in data.pokedex.items()
        },
        "moves": {
            move: {field: entry[field] for field in _MOVE_FIELDS if field in entry}
            for move, entry in data.moves.items()
        },
        "typeChart": data.type_chart,
        "types": [t.name for t in PokemonType],
        "sideConditions": [c.name for c in SideCondition],
    }


def as_text() -> str:
    text = json.dumps(bridge_data(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text + "\n"


if __name__ == "__main__":
    COPY.write_text(as_text(), encoding="utf-8")
    sys.stdout.write(f"wrote {COPY}\n")
