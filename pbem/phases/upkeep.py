"""Upkeep phase (R-PH-UPK; carried units: R-UNIT-1, R-UNIT-2).

Every Army and Rowers of the player needs upkeep, wherever it is: on land, aboard a Transport or Fleet in
port or at sea (the Rowers of a Fleet included).  In priority order (the order's ``upkeep`` list, then the
standing ``upkeep`` list, then the rest by id), each unit:
1. is paid 1 gold (its upkeep cost) if it is in or adjacent to a friendly city (``board.friendly_city``:
   controlled, not razed, not under siege) and not completely surrounded (``board.surrounded``), and the
   player still has the gold;
2. else uses a Baggage of its stack (same hex, same owner: the Baggage it carries first, then the Baggage
   aboard its own carrier, then loose Baggage, then Baggage other units carry; by id within each), which is
   removed;
3. else makes the upkeep roll: 1D6, +1 per starvation counter, -1 in Farms or Fishing Village terrain, plus
   every ``roll_modifier`` with ``roll: upkeep`` of the player's traits (Stoicism) and of the leaders in its
   stack (Logistics).  1-5: one more starvation counter; 6+: the unit disbands (what it carried stays in the
   hex, handed to the unit's own carrier if it was aboard one).
Payment or Baggage clears the unit's starvation counters.
"""
from __future__ import annotations

from typing import Any

from .. import board, cards
from ..effects import Found, player_effects, stack_effects, unit_matches
from ..events import Ev
from ..model import UPKEEP_COST, Unit, UnitType, id_order, sorted_ids
from ..movement import fate_teller

LEAN_TERRAIN = ("farms", "fishing_village")  # -1 to the upkeep roll
DISBANDS_AT = 6  # an upkeep roll this high or higher, after modifiers, disbands the unit


def resolve(ctx) -> None:
    units = priority(ctx)
    if not units:
        return
    state, me = ctx.state, ctx.me
    # Upkeep moves no unit, changes no city and removes only the player's own Armies, Rowers and Baggage (which
    # neither besiege the player's cities nor surround the player's hexes): which cities are friendly, and why a
    # hex cannot be paid, hold for the whole phase, so each is asked once.  The player's Baggage in a hex is
    # listed when a unit there first needs one; a used Baggage leaves the list as it leaves the board (no
    # Baggage comes during upkeep).
    cities, friendly = state.controlled_cities(ctx.player), {}
    where: dict[str, str | None] = {}
    bags_at: dict[str, list[Unit]] = {}
    modifiers = PhaseModifiers(ctx)
    for unit in units:
        h = unit.hex
        reason = where[h] if h in where else where.setdefault(h, why_unsupplied(ctx, h, cities, friendly))
        cost = UPKEEP_COST[unit.type] * unit.value
        if reason is None:
            if me.gold >= cost:
                me.gold -= cost
                cleared = unit.starvation
                if cleared:
                    unit.starvation = 0
                ctx.emit(Ev.UPKEEP_PAID, unit=unit.id, gold=cost, starvation_cleared=cleared)
                continue
            reason = "not enough gold"
        bags = bags_at[h] if h in bags_at else bags_at.setdefault(h, player_baggage(state, h, unit.owner))
        baggage = stack_baggage(unit, bags) if bags else None
        if baggage is not None:
            bags.remove(baggage)
            cards.release_cargo(state, baggage)
            state.remove_unit(baggage.id)
            cleared = unit.starvation
            unit.starvation = 0
            ctx.emit(Ev.BAGGAGE_USED, unit=unit.id, baggage=baggage.id, reason=reason, starvation_cleared=cleared)
            continue
        roll_for(ctx, unit, modifiers(unit), 0, "upkeep", {"reason": reason})


def priority(ctx) -> list[Unit]:
    """The player's Armies and Rowers in payment order; bad entries of the order's list are reported."""
    units = {u.id: u for u in ctx.state.units_of(ctx.player) if u.type.needs_upkeep and u.away_until is None}
    order: dict[str, Unit] = {}  # in payment order
    for i, uid in enumerate(ctx.my_orders.upkeep):
        if uid in units:
            order.setdefault(uid, units[uid])
        else:
            gone = fate_teller(ctx)(uid)  # lost or captured in an earlier player-turn of this game turn
            ctx.order_failed("upkeep", i, gone or f"{uid} is not one of your Armies or Rowers", unit=uid)
    for uid in ctx.standing(ctx.player).upkeep:
        if uid in units:
            order.setdefault(uid, units[uid])
    if not order:
        return [units[uid] for uid in sorted_ids(units)]
    return [*order.values(), *(units[uid] for uid in sorted_ids(units) if uid not in order)]


def supply_problem(ctx, hex_id: str, cities: list[str], friendly: dict[str, bool]) -> tuple[str, str | None] | None:
    """Why the units in ``hex_id`` cannot be paid whatever the gold, or None: ("no_city", why) -- no friendly
    city in or next to the hex; ``why`` says why the player's own city there does not count ("Pylos is under
    siege", "Sparta is razed", the first in or next to the hex), else None -- or ("surrounded", None), the hex
    completely surrounded.  ``cities`` are the player's; ``friendly`` remembers which of them are friendly
    (``board.friendly_city``), each asked only when a unit is in or next to it."""
    state, gm = ctx.state, ctx.game_map
    around = gm.around_city
    own: list[str] = []  # the player's cities in or next to the hex, none of them friendly
    for c in cities:
        if hex_id in around[c]:
            ok = friendly.get(c)
            if ok is None:
                ok = friendly[c] = board.friendly_city(state, gm, c, ctx.player)
            if ok:
                break
            own.append(c)
    else:
        if own:
            c = next(gm.city_at[h] for h in (hex_id, *gm.neighbours[hex_id]) if h in gm.city_at and gm.city_at[h].id in own)
            return "no_city", f"{c.name} is {'razed' if state.cities[c.id].razed else 'under siege'}"
        return "no_city", None
    if board.surrounded(state, gm, hex_id, ctx.player):
        return "surrounded", None
    return None


def why_unsupplied(ctx, hex_id: str, cities: list[str], friendly: dict[str, bool]) -> str | None:
    """``supply_problem`` in the words of the upkeep records: "no friendly city in or next to its hex (Pylos is
    under siege)", "completely surrounded", or None."""
    problem = supply_problem(ctx, hex_id, cities, friendly)
    if problem is None:
        return None
    kind, why = problem
    if kind == "surrounded":
        return "completely surrounded"
    return "no friendly city in or next to its hex" + (f" ({why})" if why else "")


def player_baggage(state, hex_id: str, player: str | None) -> list[Unit]:
    """The player's Baggage in ``hex_id``, by id in the human order (``sorted_ids``)."""
    bags = [u for u in state.units_at(hex_id) if u.type is UnitType.BAGGAGE and u.owner == player]
    if len(bags) > 1:
        bags.sort(key=lambda u: id_order(u.id))
    return bags


def stack_baggage(unit: Unit, bags: list[Unit]) -> Unit | None:
    """The Baggage of ``bags`` (the Baggage of ``unit``'s stack, by id) that ``unit`` uses: its own Baggage, then
    its carrier's, then loose Baggage, then any other; by id within each."""
    best, best_rank = None, 4
    for b in bags:
        if b.carried_by == unit.id:
            return b
        if unit.carried_by is not None and b.carried_by == unit.carried_by:
            rank = 1
        else:
            rank = 2 if b.carried_by is None else 3
        if rank < best_rank:
            best, best_rank = b, rank
    return best


def upkeep_modifiers(ctx, unit: Unit) -> list[dict[str, Any]]:
    """Everything added to ``unit``'s upkeep roll but the die, each with its source: starvation counters,
    terrain, traits and leaders."""
    found = player_effects(ctx.state, ctx.tables, unit.owner, "roll_modifier") if unit.owner else []
    found += stack_effects(ctx.state, ctx.tables, [unit], "roll_modifier")
    return unit_modifiers(ctx, unit, upkeep_effects(found))


def upkeep_effects(found: list[Found]) -> list[tuple[str, dict[str, Any]]]:
    """The ``roll_modifier`` effects of ``found`` that act on the upkeep roll, each with its source's label."""
    return [(src.label(), e) for src, e in found if e.get("roll") == "upkeep"]


def unit_modifiers(ctx, unit: Unit, effects: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """``upkeep_modifiers`` of ``unit``, given the upkeep roll effects of its owner and stack (``upkeep_effects``)."""
    out: list[dict[str, Any]] = []
    if unit.starvation:
        out.append({"source": "starvation counters", "value": unit.starvation})
    terrain = ctx.game_map.terrain[unit.hex]
    if terrain.id in LEAN_TERRAIN:
        out.append({"source": f"terrain ({terrain.name})", "value": -1})
    out += [{"source": label, "value": int(e["value"])} for label, e in effects if unit_matches(e, unit)]
    return out


class PhaseModifiers:
    """``upkeep_modifiers`` for the units of the phase's player, their traits asked once and the leaders of each
    hex once (and only if some unit rolls).  Good for one Upkeep phase: it removes only Armies, Rowers and
    Baggage, so no leader comes, goes or changes hands and no city changes controller while it lasts."""

    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.found: list[Found] | None = None  # the player's own ``roll_modifier`` effects, asked at the first roll
        self.traits: list[tuple[str, dict[str, Any]]] = []  # ``upkeep_effects`` of a unit with no leader with it
        self.by_hex: dict[str, list[tuple[str, dict[str, Any]]]] = {}  # {hex: upkeep_effects of a unit there}

    def __call__(self, unit: Unit) -> list[dict[str, Any]]:
        effects = self.by_hex.get(unit.hex)
        if effects is None:
            effects = self.by_hex[unit.hex] = self.effects_at(unit)
        return unit_modifiers(self.ctx, unit, effects)

    def effects_at(self, unit: Unit) -> list[tuple[str, dict[str, Any]]]:
        """``upkeep_effects`` of ``unit``'s traits and of the leaders in its stack, if any."""
        ctx = self.ctx
        if self.found is None:
            self.found = player_effects(ctx.state, ctx.tables, ctx.player, "roll_modifier")
            self.traits = upkeep_effects(self.found)
        player, leader = ctx.player, UnitType.LEADER
        if any(u.type is leader and u.owner == player and u.away_until is None for u in ctx.state.hex_units(unit.hex)):
            return upkeep_effects(self.found + stack_effects(ctx.state, ctx.tables, [unit], "roll_modifier"))
        return self.traits


def upkeep_roll(ctx, unit: Unit, extra: int, cause: str, **data) -> bool:
    """The upkeep roll (also made for Plague and Desertions with ``extra``).  True if the unit disbanded.
    The event carries ``modifiers`` ([{source, value}]) for the report."""
    return roll_for(ctx, unit, upkeep_modifiers(ctx, unit), extra, cause, data)


def roll_for(ctx, unit: Unit, mods: list[dict[str, Any]], extra: int, cause: str, data: dict[str, Any]) -> bool:
    """``upkeep_roll`` with the unit's ``upkeep_modifiers`` (``mods``, a list of its own) already known."""
    roll = ctx.dice.d6("upkeep roll", unit=unit.id)
    if extra:
        card = ctx.tables.cards.get(cause)
        mods.append({"source": f"{card.name} (card)" if card else cause, "value": extra})
    total = roll + sum(m["value"] for m in mods)
    if total >= DISBANDS_AT:
        cards.release_cargo(ctx.state, unit)
        ctx.state.remove_unit(unit.id)
        ctx.emit(Ev.DISBANDED, unit=unit.id, who=unit.owner, roll=roll, total=total, cause=cause, modifiers=mods,
                 **data)
        return True
    unit.starvation += 1
    ctx.emit(Ev.STARVATION, unit=unit.id, who=unit.owner, roll=roll, total=total, counters=unit.starvation,
             cause=cause, modifiers=mods, **data)
    return False
