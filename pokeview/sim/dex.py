"""The game's data files, read from Python without Node: the type chart and Pokédex poke-env
ships (its JSON files, read directly: importing poke-env costs a third of a second), and the
pinned Showdown's own random-battle sets (`dist/data/random-battles/genN/sets.json` in the
installed package). Each file is read once."""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import orjson

from pokeview import paths

_GEN = re.compile(r"^gen(\d+)")
_RANDOM = re.compile(r"^gen(\d+)random(doubles)?battle")
# Showdown's typechart `damageTaken` codes: 0 normal, 1 weak, 2 resists, 3 immune.
_TAKEN = {0: 1.0, 1: 2.0, 2: 0.5, 3: 0.0}


def to_id(name: str) -> str:
    """Showdown's id of a name: lower case letters and digits only."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def generation(format_id: str) -> int:
    """The generation of a format, by id or by name ("[Gen 9] Random Battle")."""
    match = _GEN.match(to_id(format_id))
    return min(9, max(1, int(match.group(1)))) if match else 9


def _poke_env_static() -> Path:
    spec = importlib.util.find_spec("poke_env")
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).parent / "data" / "static"


@cache
def type_chart(gen: int) -> dict[str, dict[str, float]]:
    """defending type id -> attacking type id -> multiplier."""
    path = _poke_env_static() / "typechart" / f"gen{gen}typechart.json"
    chart = orjson.loads(path.read_bytes())
    return {
        defending.lower(): {
            attacking.lower(): _TAKEN.get(code, 1.0)
            for attacking, code in data["damageTaken"].items()
        }
        for defending, data in chart.items()
    }


def effectiveness(move_type: str, defending: list[str], gen: int = 9) -> float | None:
    """The multiplier of a `move_type` move against `defending` types (None: unknown types)."""
    chart = type_chart(gen)
    if move_type.lower() not in chart or not defending:
        return None
    out = 1.0
    for t in defending:
        out *= chart.get(t.lower(), {}).get(move_type.lower(), 1.0)
    return out


@cache
def pokedex(gen: int) -> dict[str, Any]:
    return orjson.loads((_poke_env_static() / "pokedex" / f"gen{gen}pokedex.json").read_bytes())


@cache
def _move_names(gen: int) -> dict[str, str]:
    moves = orjson.loads((_poke_env_static() / "moves" / f"gen{gen}moves.json").read_bytes())
    return {move_id: data["name"] for move_id, data in moves.items() if data.get("name")}


def move_name(move: str, gen: int) -> str:
    """A move's name as players read it ("Body Slam" for `bodyslam`); as given when unknown."""
    return _move_names(gen).get(to_id(move), move)


def _entry(species: str, gen: int) -> dict[str, Any] | None:
    dex = pokedex(gen)
    return dex.get(to_id(species)) or dex.get(to_id(species.split("-", 1)[0]))


def possible_abilities(species: str, gen: int) -> list[str]:
    """The abilities a species may have (its Pokédex entry's), in the Pokédex's order."""
    entry = _entry(species, gen)
    if gen < 3 or entry is None:
        return []
    return [a for a in (entry.get("abilities") or {}).values() if a]


@dataclass(frozen=True, slots=True)
class RandomSet:
    """One of a species' random-battle sets (a role): the moves it draws from, its abilities
    and Tera types (empty where that generation's data has none)."""

    role: str
    movepool: tuple[str, ...]
    abilities: tuple[str, ...] = ()
    tera_types: tuple[str, ...] = ()

    def fits(self, moves: list[str], ability: str, tera: str) -> bool:
        """Whether a Pokémon seen with these moves, ability and Tera type could have it."""
        pool = {to_id(m) for m in self.movepool}
        if any(to_id(m) not in pool and not _hidden_power(m, pool) for m in moves):
            return False
        if ability and self.abilities and to_id(ability) not in {to_id(a) for a in self.abilities}:
            return False
        return not (tera and self.tera_types and tera not in self.tera_types)


def _hidden_power(move: str, pool: set[str]) -> bool:
    return to_id(move).startswith("hiddenpower") and any(m.startswith("hiddenpower") for m in pool)


@cache
def _random_data(gen: int, doubles: bool) -> dict[str, Any]:
    folder = (
        paths.showdown_dir()
        / "node_modules"
        / "pokemon-showdown"
        / "dist"
        / "data"
        / "random-battles"
        / f"gen{gen}"
    )
    for name in (
        ("doubles-sets.json", "sets.json", "data.json") if doubles else ("sets.json", "data.json")
    ):
        if (folder / name).is_file():
            return orjson.loads((folder / name).read_bytes())
    return {}


def random_sets(species: str, format_id: str) -> list[RandomSet]:
    """The pinned Showdown's random-battle sets of `species` in `format_id` (none when the
    format is no random battle, or Showdown is not installed). `format_id` may be a name."""
    match = _RANDOM.match(to_id(format_id))
    if match is None:
        return []
    gen = int(match.group(1))
    data = _random_data(gen, bool(match.group(2)))
    entry = data.get(to_id(species)) or data.get(to_id(species.split("-", 1)[0]))
    if not entry:
        return []
    if "sets" in entry:
        return [
            RandomSet(
                s.get("role", ""),
                # Generations 1 to 4 list move ids (`bodyslam`); later ones, names.
                tuple(move_name(m, gen) for m in s.get("movepool", ())),
                tuple(s.get("abilities", ())),
                tuple(s.get("teraTypes", ())),
            )
            for s in entry["sets"]
        ]
    moves = tuple(entry.get("moves", ())) + tuple(entry.get("exclusiveMoves", ()))
    names = tuple(dict.fromkeys(move_name(m, gen) for m in moves))
    return [RandomSet("", names)] if names else []
