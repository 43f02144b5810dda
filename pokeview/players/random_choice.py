"""poke-env's RandomPlayer's choice, made from the request alone.

RandomPlayer plays `orders[int(random.random() * len(orders))]` of `battle.valid_orders`: the
switches, then the moves, then the moves again with each gimmick the active Pokémon may use.
poke-env builds both lists from the request (which Pokémon are active and fainted, which moves are
disabled), so the same draw from the same seed names the same action without a poke-env
`Battle`, and feeding one is most of Python's time in a game between bots. Where the request
holds what this does not follow exactly (team preview, mega evolution, z-moves, dynamax, moves
poke-env renames, Pokémon sharing a name), or the order would name no legal action, it returns
None and the bot asks poke-env instead. `tests/integration/test_bots.py` checks it against
poke-env decision by decision.
"""

from __future__ import annotations

from _random import Random

from pokeview.battle.actions import Action
from pokeview.sim.request import ActiveSlot, Request


def _not_followed(active: ActiveSlot) -> bool:
    """A gimmick poke-env orders differently, or that this does not follow."""
    return bool(
        active.can_mega_evo
        or active.can_z_move
        or active.can_dynamax
        or active.max_moves
        or active.can_ultra_burst
    )


def _order_list(request: Request) -> list[tuple[str, str, bool]] | None:
    """`battle.valid_orders` as (kind, name or move id, terastallize); None where unsure.
    (Plain loops, not any(): this runs at every decision of every random game.)"""
    assert request.side is not None
    side = request.side.pokemon
    names = [mon.ident[4:] for mon in side]
    if len(set(names)) != len(names):
        return None  # poke-env keys its team by name
    for name in names:
        if not name.isascii() or name.lower() == name:
            return None  # and matches a name or a species id
    active = request.active[0] if request.active is not None else None
    if active is not None and _not_followed(active):
        return None
    orders: list[tuple[str, str, bool]] = []
    if not (active and active.trapped):
        reviving = False
        for mon in side:
            if mon.reviving:
                reviving = True
                break
        for mon, name in zip(side, names, strict=True):
            fainted = mon.condition == "0 fnt"
            if fainted if reviving else not mon.active and not fainted:
                orders.append(("switch", name, False))
    force_switch = request.force_switch if request.force_switch is not None else [False]
    if active is None or force_switch[0]:
        return orders
    for mon in side:
        if mon.active:
            break
    else:
        return orders
    moves = []
    for move in active.moves:
        if move.disabled:
            continue
        move_id = move.id
        if not move_id.isalnum() or move_id.startswith(("return", "frustration", "hiddenpower")):
            return None  # poke-env stores these under another id
        moves.append(move_id)
    orders += [("move", m, False) for m in moves]
    if active.can_terastallize:
        orders += [("move", m, True) for m in moves]
    return orders


def _action_of(order: tuple[str, str, bool], actions: list[Action]) -> int | None:
    """The action `order_to_action` finds for this order (the first that matches)."""
    kind, what, tera = order
    gimmick = "terastallize" if tera else None
    for i, a in enumerate(actions):
        if kind == "switch" and a.kind == "switch" and a.name == what:
            return i
        if (
            kind == "move"
            and a.kind == "move"
            and a.gimmick == gimmick
            and (a.move_id == what or (a.move_id or "").startswith(what))
        ):
            return i
    return None


def random_choice(request: Request, actions: list[Action], seed: int) -> int | None:
    """The index of the action RandomPlayer would choose with this decision's seed, or None
    when only poke-env can say."""
    if request.team_preview or request.wait or request.side is None:
        return None
    orders = _order_list(request)
    if not orders:
        return None
    # random.Random(seed) for an int seed is this generator seeded so, without two Python calls
    draw = Random(seed).random()
    return _action_of(orders[int(draw * len(orders))], actions)
