"""First and Second Move (R-PH-MOVE, R-PH-SECOND, R-UNIT-2..4, R-TURN-4).

Each move order moves one stack (all its units start in one hex) along a path of adjacent hexes:

1. the units: listed ids, or a hex id for all the player's units there not aboard a ship; cargo goes along;
2. boarding: ``load`` (and listed land units in a move of ships) go aboard the moving ships, only where the
   ships are docked or beached; listed Baggage in a land move is picked up by the stack's Armies;
3. the allowance: each mover's points (Armies and Rowers 4, Leaders 6, manned Fleets 10, Transports 8) plus
   movement effects; the stack moves at the pace of its slowest mover (cargo does not count);
4. the path: terrain (land units on passable land, ships where ships may go), no enemy or neutral city, no
   hex with enemy combat units; entering a hex with only capturable enemy units captures them;
5. stacking at the end of the move; ``partial: true`` stops at the last hex reached where the stack fits;
6. ``unload`` puts cargo off in the last hex (docked or beached); a unit that lands moves no further.

A unit takes part in one move order per phase.  An order that cannot be carried out is skipped whole and the
report says why (R-TURN-4).  The Second Move ends with the navigation roll for every Fleet and Transport of the
player not in a City, Sandy Coast or Fishing Village hex: 1D6 + navigation modifiers, 5-6 sinks it with all
aboard.  A player under "cannot move or attack" (Political Rivalry, Social Division) moves nothing.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from .. import battle as bt
from ..board import stack_limit, stack_size, stacking_weight
from ..effects import unit_matches
from ..events import Ev
from ..gamedata import GameMap
from ..model import GameState, Unit, UnitType
from ..movement import (aid_of_city, allowance, can_carry, cannot_move_or_attack, capturable_here, capture_hex,
                        check_path, destroy_unit, fate_teller, play_card)
from ..ordertypes import CardUse, Move

if TYPE_CHECKING:
    from ..adjudicator import TurnContext

A, R, F, T, B, L = (UnitType.ARMY, UnitType.ROWERS, UnitType.FLEET, UnitType.TRANSPORT, UnitType.BAGGAGE,
                    UnitType.LEADER)
BOARD_ORDER = {R: 0, A: 1, B: 2, L: 3}
MOVABLE = (A, R, F, T, B, L)  # the player's own kinds of unit (not pirates, barbarians)
LAND_MOVERS = (A, R, L)  # on land, whose movement points count (Baggage is carried)
CAPTORS = (A, R)  # with manned Fleets: who captures (R-UNIT-3)


def resolve_first(ctx: "TurnContext") -> None:
    _moves(ctx, "first_move", ctx.my_orders.first_move)


def resolve_second(ctx: "TurnContext") -> None:
    _moves(ctx, "second_move", ctx.my_orders.second_move)
    used = ctx.scratch.get("move_cards_used", set())
    for i, cu in enumerate(ctx.my_orders.cards):  # R-TURN-4: every movement card no move played is reported
        if i in used or not _is_movement_card(ctx, cu.card):
            continue
        if cu.card not in ctx.me.hand:
            ctx.order_failed("cards", i, f"card {ctx.tables.cards[cu.card].name} is not in your hand", card=cu.card)
        else:
            ctx.order_failed("cards", i, f"no move of the stack {cu.target or '(no target named)'} this turn",
                             card=cu.card)
    navigation(ctx)


def _is_movement_card(ctx: "TurnContext", card: str) -> bool:
    c = ctx.tables.cards.get(card)
    return c is not None and any(e["kind"] == "movement" for e in c.effects)


def _moves(ctx: "TurnContext", section: str, moves: tuple[Move, ...]) -> None:
    if not moves:
        return
    blocked = cannot_move_or_attack(ctx.state, ctx.player)
    if blocked:
        name = ctx.tables.cards[blocked.source].name if blocked.source in ctx.tables.cards else blocked.source
        for mv in moves:
            ctx.order_failed(section, mv.index, f"{name}: your units may not move or attack this turn",
                             units=list(mv.units))
        return
    phase = _Phase(ctx, section)
    for mv in moves:
        failure = _move(ctx, phase, mv)
        if failure:
            ctx.order_failed(section, mv.index, failure, units=list(mv.units))


class _Phase:
    """What every move order of one player's move phase asks, found once for the phase."""

    def __init__(self, ctx: "TurnContext", section: str) -> None:
        scratch = ctx.scratch
        self.section = section
        self.moved: set[str] = scratch.setdefault(f"moved:{section}", set())  # units that moved this phase
        self.landed: set[str] = scratch.setdefault(f"landed:{section}", set())  # units that went ashore
        self.cards_used: set[int] = scratch.setdefault("move_cards_used", set())  # indexes in the cards orders
        self.fate = fate_teller(ctx)
        self.cards = ctx.my_orders.cards  # a move plays the movement cards aimed at its stack


@dataclass
class Stack:
    """What one move order takes along (steps 1 and 2), before its path: found by ``gather``."""
    units: list[Unit]  # as listed (a hex id: the player's units there not aboard a ship)
    start: str
    here: dict[str, Unit]  # the units in the start hex, by id
    carrier: dict[str, str | None]  # who carries whom once the boarding is done (start-hex units)
    ships: list[Unit]
    sea: bool
    to_board: list[Unit]
    set_down: list[str]  # Baggage an Army boarding a Transport leaves in the start hex
    group: set[str]  # everyone who moves: listed, boarding and their cargo
    members: list[Unit]
    fleets: list[Unit]
    movers: list[Unit]  # whose movement points count
    unload: list[str]

    @property
    def captures(self) -> bool:
        """R-UNIT-3: the group holds an Army, Rowers or a (manned: ``gather`` saw to it) Fleet."""
        return bool(self.fleets) or any(self.here[x].type in CAPTORS for x in self.group)


@dataclass(frozen=True)
class Refusal:
    """Why ``gather`` refuses a move order: ``reason`` in the adjudicator's words; ``kind`` and the ``unit``
    (and the ``field`` of the order naming it: units, load, unload) let the order checker say it its way."""
    reason: str
    kind: str
    unit: str | None = None
    field: str = "units"


def not_aboard_ship(state: GameState, u: Unit) -> bool:
    """What a hex id in a move's ``units`` names: the player's units there not aboard a ship (what a ship
    carries goes with it; Baggage carried by an Army is named with the Army)."""
    return u.carried_by is None or not state.units[u.carried_by].type.is_ship


def gather(state: GameState, gm: GameMap, me: str, mv: Move, moved: set[str] | dict[str, Any],
           landed: set[str] | dict[str, Any], fate: Callable[[str], str | None] | None = None) -> Stack | Refusal:
    """Steps 1 and 2 of a move order: its units, boarding, carrying, who moves and what may be unloaded.
    ``moved``, ``landed``: the units that moved, or went ashore, in an earlier order of the phase.  Changes
    nothing.  The order checker runs it on the state as the orders before will leave it.  ``fate``
    (``movement.fate_teller``): what became of a unit of the player's that is gone or taken this turn."""
    # 1. the units
    units, err = bt.expand_units(state, me, mv.units, lambda u: not_aboard_ship(state, u), fate)
    if err:
        return Refusal(err, "expand")
    if not units:
        return Refusal("no units to move", "no_units")
    start = units[0].hex
    for u in units:
        if u.hex != start:
            return Refusal(f"{u.id} is in {u.hex}, not in {start}: a move order moves one stack", "two_hexes", u.id)
        if u.type not in MOVABLE:
            return Refusal(f"{u.id} is not yours to move", "not_movable", u.id)
        if u.id in landed:
            return Refusal(f"{u.id} landed this phase and may not move further", "landed", u.id)
        if u.id in moved:
            return Refusal(f"{u.id} has already moved this phase", "moved", u.id)
    here = {u.id: u for u in state.units_at(start)}
    carrier: dict[str, str | None] = {uid: u.carried_by for uid, u in here.items()}
    listed = [u.id for u in units]
    ships = [u for u in units if u.type.is_ship]
    ship_ids = {s.id for s in ships}
    sea = bool(ships)

    # 2. boarding
    to_board: list[Unit] = []
    for x in mv.load:
        u = state.units.get(x)
        if u is None or u.owner != me:
            return Refusal((fate(x) if fate else None) or f"no unit {x} of yours to take aboard", "load_unknown", x,
                           "load")
        if u.hex != start:
            return Refusal(f"{x} is in {u.hex}, not in {start} where the move starts", "load_elsewhere", x, "load")
        if u.type.is_ship:
            return Refusal(f"{x} is a ship; ships do not go aboard", "load_ship", x, "load")
        if x in landed:
            return Refusal(f"{x} landed this phase and may not move further", "landed", x, "load")
        if u not in to_board:
            to_board.append(u)
    for u in units:
        if u.type.is_ship:
            continue
        c = carrier[u.id]
        aboard_ship = c is not None and here[c].type.is_ship
        if sea:
            if c in ship_ids:
                continue
            if aboard_ship:
                return Refusal(f"{u.id} is aboard {c}, which does not move with this order", "aboard_other",
                               u.id)
            if u not in to_board:
                to_board.append(u)
        else:
            if aboard_ship:
                return Refusal(f"{u.id} is aboard {c}; unload it first", "aboard", u.id)
            if u.type is B and (c is None or c not in listed) and u not in to_board:
                to_board.append(u)
    for u in to_board:
        c = carrier[u.id]
        if c is not None and here[c].type.is_ship and c not in ship_ids:
            return Refusal(f"{u.id} is aboard {c}, which does not move with this order", "aboard_other", u.id,
                           "units" if u.id in listed else "load")
        if not sea and u.type is not B:
            return Refusal(f"{u.id} can go aboard only a ship; this move has none", "no_ship", u.id,
                           "units" if u.id in listed else "load")
    if sea and to_board and not gm.ship_may_stop(start):
        return Refusal(f"units go aboard only where the ships are docked or beached; {start} is "
                       f"{gm.terrain[start].name}", "board_at_sea", to_board[0].id,
                       "units" if to_board[0].id in listed else "load")
    set_down: list[str] = []
    fleets = [s for s in ships if s.type is F]

    def aboard(cid: str) -> list[Unit]:
        return [here[x] for x, c in carrier.items() if c == cid]

    if to_board:
        armies = [u for u in units if u.type is A]
        transports = [s for s in ships if s.type is T]
    for u in sorted(to_board, key=lambda u: BOARD_ORDER.get(u.type, 9)):
        if sea:
            if u.type is A:
                for b in aboard(u.id):  # an Army aboard a Transport carries no Baggage: it is set down
                    carrier[b.id] = None
                    set_down.append(b.id)
            candidates = {R: fleets + transports, A: transports, B: fleets + transports, L: ships}.get(u.type, [])
        else:
            candidates = armies
        carrier[u.id] = None
        for c in candidates:
            if can_carry(c, u, aboard(c.id)):
                carrier[u.id] = c.id
                if u.id in set_down:
                    set_down.remove(u.id)
                break
        else:
            return Refusal(f"no room for {u.id} " + ("aboard the moving ships" if sea else "with the moving Armies "
                                                     "(an Army carries 4 Baggage; Baggage does not move by itself)"),
                           "no_room_sea" if sea else "no_room_land", u.id, "units" if u.id in listed else "load")
    group = set(listed)
    if to_board:
        group.update(u.id for u in to_board)
    cargo: dict[str, list[str]] = {}  # who carries whom once the boarding is done, by carrier
    for x, c in carrier.items():
        if c is not None:
            cargo.setdefault(c, []).append(x)
    if cargo:  # and everything the group carries, directly or through another carrier
        todo = list(group)
        while todo:
            for x in cargo.get(todo.pop(), ()):
                if x not in group:
                    group.add(x)
                    todo.append(x)
    if not group.isdisjoint(moved):  # cargo and boarders too: one move order a unit a phase
        first = min(x for x in group if x in moved)
        return Refusal(f"{first} has already moved this phase", "moved", first, "units" if first in listed else "load")
    members = [here[x] for x in sorted(group)]
    for f in fleets:
        if not any(here[x].type is R for x in cargo.get(f.id, ())):
            return Refusal(f"{f.id} has no Rowers aboard; a Fleet moves only manned (R-UNIT-3)", "unmanned", f.id)
    movers = ships if sea else [u for u in units if u.type in LAND_MOVERS]
    if not movers:
        return Refusal("Baggage does not move by itself; an Army or a ship must carry it", "no_movers")

    # unloading (checked now, done at the end)
    unload: list[str] = []
    for x in mv.unload:
        if x not in state.units:  # disbanded, captured or lost since the orders were written
            return Refusal((fate(x) if fate else None) or f"no unit {x} to unload (destroyed or never existed)",
                           "unload_not_carried", x, "unload")
        if x not in group or carrier.get(x) not in group:
            return Refusal(f"{x} is not carried by this move, so it cannot be unloaded", "unload_not_carried", x,
                           "unload")
        if not sea and here[x].type is not B:
            return Refusal(f"{x} is not aboard a ship", "unload_not_aboard", x, "unload")
        unload.append(x)
    return Stack(units, start, here, carrier, ships, sea, to_board, set_down, group, members, fleets, movers, unload)


def stack_at(state: GameState, gm: GameMap, me: str, g: Stack, h: str) -> int:
    """R-UNIT-2: the player's stack in ``h`` if the group ended its move there (what it unloads there standing
    on its own, ships it captures there counting)."""
    n = stack_size(state, h, me, leaving=g.group)
    carrier, unload = g.carrier, g.unload
    put_off = bool(unload) and (not g.sea or gm.ship_may_stop(h))  # the cargo unloaded stands on its own in h
    for u in g.members:
        c = carrier[u.id]
        n += stacking_weight(u, None if c is None or (put_off and u.id in unload) else g.here[c])
    if g.captures and h != g.start:
        n += sum(stacking_weight(u, None) for u in capturable_here(state, h, me) if u.type.is_ship)
    return n


def move(ctx: "TurnContext", section: str, mv: Move) -> str | None:
    """Carry out one move order; returns why it failed (nothing changed), or None."""
    return _move(ctx, _Phase(ctx, section), mv)


def _move(ctx: "TurnContext", phase: _Phase, mv: Move) -> str | None:
    """``move``, with what the phase's orders share found once (``_Phase``)."""
    state, gm, me, section = ctx.state, ctx.game_map, ctx.player, phase.section
    moved, landed, used = phase.moved, phase.landed, phase.cards_used
    g = gather(state, gm, me, mv, moved, landed, phase.fate)
    if isinstance(g, Refusal):
        return g.reason
    start, group, members = g.start, g.group, g.members
    movers, unload, to_board, set_down, sea = g.movers, g.unload, g.to_board, g.set_down, g.sea

    # 3. the allowance, with the move's cards
    path = mv.path
    planned_end = path[-1] if path else start
    cards: list[tuple[CardUse, int | None]] = [(cu, None) for cu in mv.cards]
    for i, cu in enumerate(phase.cards):
        if i not in used and (cu.target in group or cu.target == start) and _is_movement_card(ctx, cu.card):
            cards.append((cu, i))
    card_fx: list[tuple[str, dict[str, Any]]] = []
    hand = Counter(ctx.me.hand) if cards else None
    for cu, _ in cards:
        c = ctx.tables.cards.get(cu.card)
        if c is None:
            return f"unknown card {cu.card}"
        if hand[cu.card] <= 0:
            return f"card {c.name} is not in your hand"
        hand[cu.card] -= 1
        found = [e for e in c.effects if e["kind"] == "movement"]
        if not found:
            return f"{c.name} is not a movement card"
        for e in found:
            if e.get("condition") == "aid_of_city" and not aid_of_city(state, gm, me, planned_end):
                return f"{c.name}: the stack does not end its move in or next to a friendly city under siege"
            if not any(unit_matches(e, m) for m in movers):  # as a battle card that can do nothing (card_fits)
                return f"{c.name} gives its points to marching Armies and Rowers, and none moves in this move"
            card_fx.append((cu.card, e))
    # "+2 Movement points this turn" (Forced March, Marathon): played in the First Move, it lasts into the same
    # units' Second Move (each move phase has its own allowance, R-PH-MOVE)
    lasting = ctx.scratch.setdefault("movement_this_turn", {})
    allow = allowance(ctx, movers, group, card_fx, lasting)

    # 4. the path; 5. stacking at the end
    captures = g.captures
    pc = check_path(state, gm, me, start, path, sea, allow.points, captures)

    def fits(h: str) -> bool:
        return stack_at(state, gm, me, g, h) <= stack_limit(gm, h)

    k = len(path)
    end = path[-1] if path else start
    if pc.reason is not None or not fits(end):
        if not mv.partial:
            return pc.reason or (f"the stack would be over the stacking limit in {end} "
                                 f"({gm.terrain[end].name}, limit {stack_limit(gm, end)})")
        k = len(pc.reached)
        while k > 0 and not fits(pc.reached[k - 1][0]):
            k -= 1
        if k == 0:
            return "the stack cannot move at all: " + (pc.reason or f"over the stacking limit in {path[0]}")
    end = path[k - 1] if k else start
    do_unload = bool(unload) and (not sea or gm.ship_may_stop(end))
    if unload and not do_unload and not mv.partial:
        return f"cargo is put off only where the ships are docked or beached; {end} is {gm.terrain[end].name}"

    # carry it out
    played = []
    for cu, i in cards:
        play_card(ctx, me, cu.card, move=section, index=mv.index, units=sorted(group))
        played.append(cu.card)
        if i is not None:
            used.add(i)
    if section == "first_move":
        for card, e in card_fx:
            if e.get("duration") == "this_turn":
                for m in movers:
                    if unit_matches(e, m):
                        lasting.setdefault(m.id, []).append((card, e))
    if to_board:  # the boarding changed who carries these (and what an Army boarding a Transport set down)
        carrier, here = g.carrier, g.here
        for x in (*(u.id for u in to_board), *set_down):
            if here[x].carried_by != carrier[x]:
                here[x].carried_by = carrier[x]
    captured: list[str] = []
    if captures:
        for h, _ in pc.reached[:k]:  # the stack stands in each hex where it captures (the captor's stack counts)
            if capturable_here(state, h, me):
                for u in members:
                    state.place(u, h)
                captured += capture_hex(ctx, h, me, "move")
    if k:
        for u in members:
            state.place(u, end)
    unloaded = []
    if do_unload:
        for x in unload:
            state.units[x].carried_by = None
            landed.add(x)
            unloaded.append(x)
    moved |= group
    ctx.emit(Ev.MOVED, section=section, index=mv.index, units=sorted(group), movers=[m.id for m in movers],
             **{"from": start}, to=end, path=list(path[:k]), points=pc.reached[k - 1][1] if k else 0,
             allowance=allow.points, allowances=allow.per_unit, bonuses={u: b for u, b in allow.bonuses.items() if b},
             loaded=[u.id for u in to_board], set_down=set_down, unloaded=unloaded,
             unload_skipped=[] if do_unload else list(unload), captured=captured, cards=played,
             stopped=None if k == len(path) else (pc.reason or "stacking limit"))
    ctx.order_done(section, mv.index, to=end)
    return None


# -- R-PH-SECOND: the navigation roll --------------------------------------------------------------------

def navigation(ctx: "TurnContext") -> None:
    """Every Fleet and Transport of the player not docked or beached: 1D6 + navigation modifiers (Sea Worthy
    -1); 5 or more sinks it with all aboard."""
    state, gm = ctx.state, ctx.game_map
    ships = [u for u in state.units_of(ctx.player) if u.type.is_ship and u.carried_by is None
             and u.away_until is None and not gm.ship_may_stop(u.hex)]
    for u in sorted(ships, key=lambda s: s.id):
        if u.id not in state.units:
            continue
        roll = ctx.dice.d6("navigation roll", unit=u.id)
        mods = bt.roll_modifiers(ctx, bt.Situation(ctx.player, [u]), u, ("navigation",))
        total = roll + sum(v for _, v in mods)
        sunk = total >= 5
        ctx.emit(Ev.NAVIGATION, unit=u.id, hex=u.hex, roll=roll,
                 modifiers=[{"source": s, "value": v} for s, v in mods], total=total, sunk=sunk)
        if sunk:
            where = u.hex
            gone = destroy_unit(ctx, u, "sunk")
            ctx.emit(Ev.SUNK, unit=u.id, hex=where, lost=gone)

