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

from functools import cached_property
from typing import Any

from .. import board, cards
from ..effects import Found, player_effects, stack_effects, unit_matches
from ..events import Ev
from ..model import UPKEEP_COST, Unit, UnitType, sorted_ids
from ..movement import fate_teller

LEAN_TERRAIN = ("farms", "fishing_village")  # -1 to the upkeep roll
DISBANDS_AT = 6  # an upkeep roll this high or higher, after modifiers, disbands the unit


def resolve(ctx) -> None:
    state, me = ctx.state, ctx.me
    # Upkeep moves no enemy, so which cities are friendly is fixed for the phase: ask once.
    friendly = set(board.friendly_cities(state, ctx.game_map, ctx.player))
    supplied = supplied_hexes(ctx.game_map, friendly)
    # Nor does it move any unit into or next to another: the answer for a hex holds for the whole phase.
    where: dict[str, str | None] = {}
    modifiers = PhaseModifiers(ctx)
    for unit in priority(ctx):
        h = unit.hex
        reason = where[h] if h in where else where.setdefault(h, why_unsupplied(ctx, h, friendly, supplied))
        cost = upkeep_cost(unit)
        if reason is None and me.gold < cost:
            reason = "not enough gold"
        if reason is None:
            me.gold -= cost
            cleared = unit.starvation
            if cleared:
                unit.starvation = 0
            ctx.emit(Ev.UPKEEP_PAID, unit=unit.id, gold=cost, starvation_cleared=cleared)
            continue
        baggage = stack_baggage(ctx, unit)
        if baggage is not None:
            cards.release_cargo(state, baggage)
            state.remove_unit(baggage.id)
            cleared = unit.starvation
            unit.starvation = 0
            ctx.emit(Ev.BAGGAGE_USED, unit=unit.id, baggage=baggage.id, reason=reason, starvation_cleared=cleared)
            continue
        roll_for(ctx, unit, modifiers(unit), 0, "upkeep", {"reason": reason})


def upkeep_cost(unit: Unit) -> int:
    return UPKEEP_COST[unit.type] * unit.value


def priority(ctx) -> list[Unit]:
    """The player's Armies and Rowers in payment order; bad entries of the order's list are reported."""
    state = ctx.state
    units = {u.id: u for u in state.units_of(ctx.player) if u.type.needs_upkeep and u.away_until is None}
    order: list[str] = []
    for i, uid in enumerate(ctx.my_orders.upkeep):
        if uid not in units:
            gone = fate_teller(ctx)(uid)  # lost or captured in an earlier player-turn of this game turn
            ctx.order_failed("upkeep", i, gone or f"{uid} is not one of your Armies or Rowers", unit=uid)
        elif uid not in order:
            order.append(uid)
    for uid in ctx.standing(ctx.player).upkeep:
        if uid in units and uid not in order:
            order.append(uid)
    order += [uid for uid in sorted_ids(units) if uid not in order]
    return [units[uid] for uid in order]


def supplied_hexes(game_map, friendly: set[str]) -> set[str]:
    """The hexes in or next to a city of ``friendly``: where a unit may be paid if not surrounded."""
    return {h for cid in friendly for h in game_map.around_city[cid]}


def why_unsupplied(ctx, hex_id: str, friendly: set[str], supplied: set[str]) -> str | None:
    """Why the units in ``hex_id`` cannot be paid whatever the gold, or None: no friendly city (``friendly``:
    the player's, asked once per phase; ``supplied``: the hexes in or next to one) in or next to the hex, or
    the hex completely surrounded."""
    state, gm = ctx.state, ctx.game_map
    if hex_id not in supplied:
        near = [c for h in (hex_id, *gm.neighbours[hex_id]) if (c := gm.city_at.get(h))]
        own = [c for c in near if state.cities[c.id].controller == ctx.player]
        if own:  # say why the player's own city there does not count
            c = own[0]
            why = "razed" if state.cities[c.id].razed else "under siege"
            return f"no friendly city in or next to its hex ({c.name} is {why})"
        return "no friendly city in or next to its hex"
    if board.surrounded(state, gm, hex_id, ctx.player):
        return "completely surrounded"
    return None


def stack_baggage(ctx, unit: Unit) -> Unit | None:
    bags = {u.id: u for u in ctx.state.units_at(unit.hex) if u.type is UnitType.BAGGAGE and u.owner == unit.owner}
    if not bags:
        return None
    def rank(b: Unit) -> int:  # its own Baggage, then its carrier's, then loose Baggage, then any other
        if b.carried_by == unit.id:
            return 0
        if unit.carried_by is not None and b.carried_by == unit.carried_by:
            return 1
        return 2 if b.carried_by is None else 3

    by_id = sorted_ids(bags)
    return bags[min(by_id, key=lambda b: (rank(bags[b]), by_id.index(b)))]


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
        self.by_hex: dict[str, list[tuple[str, dict[str, Any]]]] = {}  # {led hex: upkeep_effects of a unit there}

    @cached_property
    def found(self) -> list[Found]:
        """The player's own ``roll_modifier`` effects."""
        return player_effects(self.ctx.state, self.ctx.tables, self.ctx.player, "roll_modifier")

    @cached_property
    def traits(self) -> list[tuple[str, dict[str, Any]]]:
        """``upkeep_effects`` of a unit with no leader in its stack."""
        return upkeep_effects(self.found)

    @cached_property
    def led(self) -> set[str]:
        """The hexes of the player's leaders in play."""
        player = self.ctx.player
        return {u.hex for u in self.ctx.state.leaders() if u.owner == player and u.away_until is None}

    def __call__(self, unit: Unit) -> list[dict[str, Any]]:
        h = unit.hex
        if h not in self.led:
            effects = self.traits
        elif h in self.by_hex:
            effects = self.by_hex[h]
        else:
            ctx = self.ctx
            effects = self.by_hex[h] = upkeep_effects(
                self.found + stack_effects(ctx.state, ctx.tables, [unit], "roll_modifier"))
        return unit_modifiers(self.ctx, unit, effects)


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
