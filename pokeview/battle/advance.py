"""A side's state snapshot carried forward by that side's protocol lines.

The bridge snapshots a side's state when it is asked to decide. Between two snapshots (and after
the last one, when the game ends) the protocol says what changed: HP, fainting, status, switches,
boosts, Terastallization, the turn. Applying those lines gives the board at any moment, so the
viewer's board always agrees with the log up to the frame it shows. Headless: no Textual here.
"""

from __future__ import annotations

from typing import Any

_BOOST_LIMIT = 6


# What the last switch-in of each seat ("p1a") changed: the member it made active and that
# member as it was before (None: the switch-in added it). Illusion's `replace` undoes it.
_Switched = dict[str, tuple[dict[str, Any], dict[str, Any] | None]]


def advance(state: dict[str, Any], lines: list[str], side: str) -> dict[str, Any]:
    """A copy of `side`'s snapshot with its protocol `lines` applied (the original is kept)."""
    out = dict(state)
    out["team"] = [dict(mon) for mon in state.get("team") or ()]
    out["foeTeam"] = [dict(mon) for mon in state.get("foeTeam") or ()]
    switched: _Switched = {}
    for line in lines:
        _apply(out, line, side, switched)
    return out


def _apply(state: dict[str, Any], line: str, side: str, switched: _Switched) -> None:
    parts = line.split("|")
    if len(parts) < 2:
        return
    command = parts[1]
    if command == "turn" and len(parts) > 2 and parts[2].isdigit():
        state["turn"] = int(parts[2])
        return
    if len(parts) < 3 or parts[2][:2] not in ("p1", "p2"):
        return
    who = parts[2]
    own = who[:2] == side
    team = state["team"] if own else state["foeTeam"]
    if command in ("switch", "drag") and len(parts) > 4:
        switched[who[:3]] = _switch_in(team, who, parts[3], parts[4])
        return
    if command == "replace" and len(parts) > 3:
        _reveal(team, parts[3], switched.pop(who[:3], None))
        return
    if command == "-cureteam":  # Heal Bell and Aromatherapy in generations 2 to 4
        for member in team:
            member["status"] = ""
        return
    mon = _find(team, who)
    if mon is None:
        return
    if command in ("-damage", "-heal", "-sethp") and len(parts) > 3:
        _set_hp(mon, parts[3])
    elif command == "faint":
        mon.update(hp=0, fainted=True, status="")
    elif command == "-status" and len(parts) > 3:
        mon["status"] = parts[3]
    elif command == "-curestatus":
        mon["status"] = ""
    elif command in ("-boost", "-unboost") and len(parts) > 4 and parts[4].lstrip("-").isdigit():
        amount = int(parts[4]) * (1 if command == "-boost" else -1)
        boosts = dict(mon.get("boosts") or {})
        value = max(-_BOOST_LIMIT, min(_BOOST_LIMIT, boosts.get(parts[3], 0) + amount))
        if value:
            boosts[parts[3]] = value
        else:
            boosts.pop(parts[3], None)
        mon["boosts"] = boosts
    elif command in ("-clearboost", "-clearallboost", "-clearnegativeboost"):
        mon["boosts"] = {}
    elif command == "-terastallize" and len(parts) > 3:
        mon["terastallized"] = parts[3]
    elif command in ("detailschange", "-formechange") and len(parts) > 3:
        mon["species"] = parts[3].split(",")[0]


def _switch_in(
    team: list[dict[str, Any]], who: str, details: str, hp: str
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Make the Pokémon switching in active; returns it and what it was before (see `_reveal`)."""
    species = details.split(",")[0]
    for member in team:
        if member.get("active"):
            member["active"] = False
            member["boosts"] = {}
    mon: dict[str, Any] | None = next((m for m in team if m.get("species") == species), None)
    if mon is None:
        mon = _by_name(team, who)
    before = dict(mon) if mon is not None else None
    if mon is None:  # an opponent's Pokémon seen for the first time
        mon = _new_member(species, details)
        team.append(mon)
    mon["active"] = True
    mon["boosts"] = {}
    _set_hp(mon, hp)
    return mon, before


def _new_member(species: str, details: str) -> dict[str, Any]:
    level = next((p.strip()[1:] for p in details.split(",")[1:] if p.strip()[:1] == "L"), 100)
    return {
        "species": species,
        "level": int(level),
        "hp": 100,
        "maxhp": 100,
        "status": "",
        "fainted": False,
    }


def _reveal(
    team: list[dict[str, Any]],
    details: str,
    switched: tuple[dict[str, Any], dict[str, Any] | None] | None,
) -> None:
    """Illusion ends (`replace`): the active Pokémon was another in disguise. What it showed
    (HP, status, boosts) was the real one's; the Pokémon it posed as is put back as it was
    before that switch-in, or dropped if the switch-in added it."""
    disguise = next((m for m in team if m.get("active")), None)
    if disguise is None:
        return
    species = details.split(",")[0]
    real = next((m for m in team if m is not disguise and m.get("species") == species), None)
    if real is None:
        real = _new_member(species, details)
        team.append(real)
    for key in ("hp", "maxhp", "status", "fainted", "boosts", "terastallized"):
        if key in disguise:
            real[key] = disguise[key]
    real["active"] = True
    if switched is not None and switched[0] is disguise:
        before = switched[1]
        if before is None:
            team.remove(disguise)
        else:
            disguise.clear()
            disguise.update(before, active=False)
    else:  # switched in before the snapshot: what it was is not known here
        disguise["active"] = False


def _find(team: list[dict[str, Any]], who: str) -> dict[str, Any] | None:
    """`p1a: Name` is the active Pokémon of that slot; `p1: Name` one named on the bench."""
    if len(who) > 2 and who[2] != ":":
        active = next((m for m in team if m.get("active")), None)
        if active is not None:
            return active
    return _by_name(team, who)


def _by_name(team: list[dict[str, Any]], who: str) -> dict[str, Any] | None:
    name = who.partition(": ")[2]
    if not name:
        return None
    exact = next((m for m in team if m.get("species") == name), None)
    # A Pokémon not nicknamed is named by its base species: "Urshifu" is Urshifu-Rapid-Strike.
    # Only a forme counts: "Mew" is not Mewtwo (a Mew switching in revived a fainted Mewtwo).
    forme = name + "-"
    return exact or next((m for m in team if str(m.get("species", "")).startswith(forme)), None)


def _set_hp(mon: dict[str, Any], text: str) -> None:
    """`137/302`, `64/100 par`, `0 fnt`: HP over the maximum (or percent), then any status."""
    figures, _, status = text.strip().partition(" ")
    hp, _, maxhp = figures.partition("/")
    if not hp.isdigit():
        return
    mon["hp"] = int(hp)
    if maxhp.isdigit():
        mon["maxhp"] = int(maxhp)
    if status == "fnt" or int(hp) == 0:
        mon.update(hp=0, fainted=True, status="")
    else:
        mon["fainted"] = False
        mon["status"] = status
