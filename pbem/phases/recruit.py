"""Recruit phase (R-PH-REC; stacking R-UNIT-2; NMR R-TURN-5; new leaders and traits R-SET-3, R-SET-4).

Each entry of ``orders.recruit`` ({city, unit?, baggage?}) is carried out whole or skipped whole (R-TURN-4):
- the city must be controlled by the player, not razed, not hostile, not under siege (``board.may_recruit``);
- ``unit`` (army, rowers, fleet, transport): one per city per turn, plus the ``extra_recruit`` effects that
  apply there (Organization: the city nearest the leader that may recruit, ties by city id); Fleets and Transports
  only in coastal cities;
- ``baggage``: up to 6 per city per turn, over all entries;
- the player pays every cost of the entry (``RECRUIT_COST``) or the entry fails;
- stacking: a new Army, Fleet or Transport must fit the city hex's limit.  New Rowers go aboard an unmanned
  Fleet of the player in the city (lowest id) when there is one, and then count for nothing; otherwise they
  stand in the city as an Army does and must fit.
Then the player's home city makes the experience roll, if the player controls it and it could recruit (not
razed, hostile or under siege): 1D10; on 10, 1D6: 1-3 a new leader there, 4-6 a new random city trait.
A player without orders this turn (NMR) skips the whole phase, experience roll included (R-TURN-5).
"""
from __future__ import annotations

from .. import board
from ..effects import held_traits, player_effects
from ..events import Ev
from ..model import RECRUIT_COST, Unit, UnitType
from ..ordertypes import Recruit
from ..setup import new_leader, roll_trait

UNIT_TYPES = (UnitType.ARMY, UnitType.ROWERS, UnitType.FLEET, UnitType.TRANSPORT)
UNITS_PER_CITY = 1
BAGGAGE_PER_CITY = 6


def resolve(ctx) -> None:
    if ctx.player in ctx.nmr:
        return
    allowance = extra_recruits(ctx.state, ctx.game_map, ctx.tables, ctx.player)
    units: dict[str, int] = {}
    baggage: dict[str, int] = {}
    for i, entry in enumerate(ctx.my_orders.recruit):
        recruit(ctx, i, entry, allowance, units, baggage)
    experience(ctx)


def extra_recruits(state, game_map, tables, player: str) -> dict[str, int]:
    """Units each city may recruit this turn beyond the first (``extra_recruit``: Organization): the city nearest
    each such leader among those that may recruit (not razed, besieged or hostile: a hostile city would swallow
    the bonus).  Pure: the order checker asks it too."""
    extra: dict[str, int] = {}
    found = player_effects(state, tables, player, "extra_recruit")
    if not found:  # most players have no such leader: no need to look for sieges around their cities
        return extra
    able = [cid for cid in state.controlled_cities(player) if board.may_recruit(state, game_map, cid, player) is None]
    for src, e in found:
        leader = state.units.get(src.unit) if src.unit else None
        if leader is None:
            continue
        cid = board.nearest_city(game_map, able, leader.hex)
        if cid is not None:
            extra[cid] = extra.get(cid, 0) + int(e["value"])
    return extra



def unmanned_fleet(ctx, hex_id: str) -> Unit | None:
    return next((u for u in ctx.state.units_at(hex_id) if u.owner == ctx.player and u.type is UnitType.FLEET
                 and not board.is_manned(ctx.state, u)), None)


def recruit(ctx, i: int, entry: Recruit, allowance: dict[str, int], units: dict[str, int],
            baggage: dict[str, int]) -> None:
    state, gm, me = ctx.state, ctx.game_map, ctx.me
    c = gm.find_city(entry.city)

    def fail(reason: str) -> None:
        ctx.order_failed("recruit", i, reason, city=entry.city)

    if c is None:
        return fail(f"{entry.city} is not a city")
    cid, h = c.id, c.hex
    reason = board.may_recruit(state, gm, cid, ctx.player)
    if reason:
        return fail(f"{c.name} may not recruit: {reason}")
    utype = None
    if entry.unit is not None:
        try:
            utype = UnitType(entry.unit)
        except ValueError:
            utype = None
        if utype not in UNIT_TYPES:
            return fail(f"{entry.unit!r} cannot be recruited (army, rowers, fleet or transport)")
    if utype is None and entry.baggage <= 0:
        return fail("nothing to recruit")
    if entry.baggage < 0:
        return fail("a negative number of baggage")
    if utype is not None:
        limit = UNITS_PER_CITY + allowance.get(cid, 0)
        if units.get(cid, 0) >= limit:
            return fail(f"{c.name} has recruited its {limit} unit{'s' if limit > 1 else ''} this turn")
        if utype.is_ship and not gm.is_coastal_city(cid):
            return fail(f"{c.name} is not on the coast: no Fleets or Transports")
    if baggage.get(cid, 0) + entry.baggage > BAGGAGE_PER_CITY:
        return fail(f"{c.name} may recruit at most {BAGGAGE_PER_CITY} Baggage per turn "
                    f"({baggage.get(cid, 0)} already)")
    cost = (RECRUIT_COST[utype] if utype else 0) + entry.baggage * RECRUIT_COST[UnitType.BAGGAGE]
    if me.gold < cost:
        return fail(f"it costs {cost} gold and you have {me.gold}")
    aboard = unmanned_fleet(ctx, h) if utype is UnitType.ROWERS else None
    if utype is not None and aboard is None:
        if board.stack_size(state, h, ctx.player) + 1 > board.stack_limit(gm, h):
            return fail(f"{c.name}'s hex is at its stacking limit of {board.stack_limit(gm, h)}")
    # carry it out
    me.gold -= cost
    new: list[str] = []
    if utype is not None:
        u = state.add_unit(Unit(state.new_unit_id(me.abbr, utype), utype, ctx.player, h,
                                carried_by=aboard.id if aboard else None))
        units[cid] = units.get(cid, 0) + 1
        new.append(u.id)
        ctx.emit(Ev.RECRUITED, city=cid, unit=u.id, type=utype.value, cost=RECRUIT_COST[utype],
                 aboard=aboard.id if aboard else None)
    for _ in range(entry.baggage):
        u = state.add_unit(Unit(state.new_unit_id(me.abbr, UnitType.BAGGAGE), UnitType.BAGGAGE, ctx.player, h))
        new.append(u.id)
        ctx.emit(Ev.RECRUITED, city=cid, unit=u.id, type="baggage", cost=RECRUIT_COST[UnitType.BAGGAGE],
                 aboard=None)
    baggage[cid] = baggage.get(cid, 0) + entry.baggage
    ctx.order_done("recruit", i, city=cid, units=new, cost=cost)


def experience(ctx) -> None:
    state, me = ctx.state, ctx.me
    home = me.home
    reason = board.may_recruit(state, ctx.game_map, home, ctx.player)
    if reason:
        ctx.emit(Ev.EXPERIENCE, city=home, roll=None, result="none", reason=reason)
        return
    roll = ctx.dice.d10("experience roll", city=home)
    if roll < 10:
        ctx.emit(Ev.EXPERIENCE, city=home, roll=roll, result="nothing")
        return
    which = ctx.dice.d6("experience: leader (1-3) or city trait (4-6)", city=home)
    ctx.emit(Ev.EXPERIENCE, city=home, roll=roll, result="leader" if which <= 3 else "trait", which=which)
    if which <= 3:
        h = ctx.game_map.cities[home].hex
        u = new_leader(state, me, h, ctx.tables, ctx.dice)
        ctx.emit(Ev.NEW_LEADER, unit=u.id, name=u.name, hex=h, source="experience")
    else:
        # R-SET-4: re-roll a trait the home city already has, its minor cities' traits included: "its controller's
        # home city has that trait too while they control it" (docs/rules.md, Decision (re-roll))
        trait = roll_trait(ctx.tables, ctx.dice, held_traits(ctx.state, ctx.player),
                           f"experience: new city trait of {home}")
        me.traits.append(trait)
        ctx.emit(Ev.NEW_TRAIT, city=home, trait=trait, private_to=ctx.player)
