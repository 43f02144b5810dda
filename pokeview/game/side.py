"""What one side knows of a game at one moment: its state, as the bridge sends it.

The bridge (`sim/bridge/snapshot.js`) builds it from that side's `@pkmn/client` battle (the same
knowledge Showdown's own client has) and, for a game played here, the simulator's view of the
side's own team. These structs are its one declaration: the record's readers, the model's prompt
and the board take them. Field names are the bridge's (`foeTeam`, `teraType`); fields added after
the first records have defaults, so every stored state decodes.

Nothing a side could not know is in its state: the foe's team is what was seen of it, its item and
ability what was revealed.
"""

from __future__ import annotations

import msgspec


class _Part(msgspec.Struct, rename="camel", forbid_unknown_fields=True, omit_defaults=True):
    """Base of every part: named as the bridge names it, unknown fields refused."""


class MoveInfo(_Part):
    """A move as the Pokédex gives it (the own active Pokémon's moves, for the prompt)."""

    name: str
    type: str
    category: str
    base_power: int
    accuracy: int | bool  # `true`: it never misses
    desc: str = ""


class MoveSlot(_Part):
    """A move as the side knows it. Its own Pokémon's: PP left of the most, and whether it is
    disabled now (the simulator's). The foe's: the PP it was seen to use (`pp_used`; with
    Pressure the client knows only a range, up to `pp_used_most`)."""

    name: str
    pp: int | None = None
    maxpp: int | None = None
    disabled: bool = False
    pp_used: int | None = None
    pp_used_most: int | None = None


class Volatile(_Part):
    """A condition on a Pokémon that ends when it leaves the field (Substitute, Leech Seed,
    Confusion, Taunt, Perish Song...), as `@pkmn/client` keeps them.

    `level`: the Perish Song count, Stockpile's layers, Autotomize's count; `stat`: the stat
    Protosynthesis or Quark Drive raises; `type`: the type Soak & co. made it (typechange) or
    added to it (typeadd)."""

    id: str
    name: str
    level: int | None = None
    stat: str | None = None
    type: str | None = None


class Pokemon(_Part):
    """One Pokémon as its side knows it. Own Pokémon: exact HP, stats, moves. The foe's (and
    both sides' in an imported replay): HP in percent (`maxhp` 100), what was revealed.

    `item` and `ability` empty: for an own Pokémon, none; for a foe's, not revealed, unless
    `last_item` says what it lost (`last_item_effect`: "knocked off", "eaten", ...), when it is
    known to hold nothing. `item_effect` says how a foe's item came to be known ("frisked")."""

    species: str
    active: bool = False
    types: list[str] = []
    level: int = 100
    hp: int = 0
    maxhp: int = 0
    status: str = ""
    fainted: bool = False
    ability: str = ""
    item: str = ""
    tera_type: str = ""  # own Pokémon only
    terastallized: str = ""  # the type it took, kept past its faint
    stats: dict[str, int] = {}  # own Pokémon: atk, def, spa, spd, spe
    boosts: dict[str, int] = {}  # stat -> stages, non-zero only
    moves: list[str] = []  # own: its moves; the foe's: those seen
    move_info: list[MoveInfo] | None = None  # the own active Pokémon's moves in detail
    # Added with the board's details (issue 31): absent from older records.
    move_slots: list[MoveSlot] = []
    volatiles: list[Volatile] = []
    item_effect: str = ""
    last_item: str = ""
    last_item_effect: str = ""
    sleep_turns: int = 0  # turns asleep so far, as the client counts them
    toxic_turns: int = 0  # turns badly poisoned so far


class Condition(_Part):
    """A side's condition (Stealth Rock, Reflect, Tailwind) or a field-wide one (Trick Room).

    `level`: layers (Spikes, Toxic Spikes). Turns left as far as the side can tell: at least
    `min_turns`, at most `max_turns` (0: not known, or until removed), as `@pkmn/client` counts
    them from what the log showed (a Light Clay is known only once revealed)."""

    name: str
    level: int = 1
    min_turns: int = 0
    max_turns: int = 0

    def named(self, layered: str) -> str:
        """Its name, or `layered` (a template of `name` and `level`) when it has layers."""
        level = self.level or 1
        return layered.format(name=self.name, level=level) if level > 1 else self.name


class Field(_Part):
    """Weather, terrain, field-wide conditions and each side's conditions, as the side sees them.
    `mine` are the viewing side's conditions, `theirs` the foe's."""

    weather: str = ""
    terrain: str = ""
    pseudo_weather: list[str] = []  # names, as first recorded; with turns in pseudo_weather_turns
    mine: list[Condition] = []
    theirs: list[Condition] = []
    # Added with the board's details (issue 31): absent from older records.
    weather_turns: Condition | None = None
    terrain_turns: Condition | None = None
    pseudo_weather_turns: list[Condition] = []

    def general(self, weather: str, terrain: str) -> list[str]:
        """What is on the whole field: the weather and terrain worded by the reader's templates
        (the prompt's "Weather: {}", the board's "Weather {}"), then field-wide conditions."""
        parts = []
        if self.weather:
            parts.append(weather.format(self.weather))
        if self.terrain:
            parts.append(terrain.format(self.terrain))
        return parts + self.pseudo_weather


class SideState(_Part):
    """What one side knows at one moment: the turn, both teams as far as it knows them, the
    field. `foe_total`: how many Pokémon the foe brought (the unseen ones are not in
    `foe_team`)."""

    turn: int = 0
    format: str = ""
    me: str = ""
    foe: str = ""
    team: list[Pokemon] = []
    foe_team: list[Pokemon] = []
    foe_total: int = 6
    field: Field = msgspec.field(default_factory=Field)


STATE_DECODER = msgspec.json.Decoder(SideState)


def decode_state(data: bytes | str) -> SideState:
    """A state from the bridge's JSON (raises msgspec.ValidationError on a stray shape)."""
    return STATE_DECODER.decode(data)


def to_state(value: object) -> SideState:
    """A state from an already decoded JSON value (a record's dict)."""
    return msgspec.convert(value, SideState)
