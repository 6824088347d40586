"""Movement on the board (R-PH-MOVE, R-UNIT-2..4): allowances, carrying, paths, capture, leader fates.

The move phases (``pbem.phases.move``) and the battles (``pbem.battle``) share what is here:

- ``allowance`` — movement points per unit type plus movement effects (traits, the stack's leaders, cards);
- carrying — who may carry whom (``can_carry``), cargo that moves and dies with its carrier;
- ``check_path`` — the hexes a group may enter, in order, and why it stops;
- ``capture_hex`` — enemy Leaders, Baggage, Transports and unmanned Fleets taken by a unit entering their hex
  (R-UNIT-3), with captured leaders ransomed or executed by the captor's standing order (R-UNIT-4);
- lasting effects in force (``effect_in_force``) and playing a card from the hand (``play_card``).

Pure functions of the state, the map and the injected dice.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from . import effects as fx
from .board import hostile_to, is_combat_unit, stack_limit, stack_size, stacking_weight, under_siege
from .events import Ev
from .gamedata import GameMap, Tables
from .model import Effect, GameState, Unit, UnitType

if TYPE_CHECKING:
    from .adjudicator import TurnContext

A, R, F, T, B, L = (UnitType.ARMY, UnitType.ROWERS, UnitType.FLEET, UnitType.TRANSPORT, UnitType.BAGGAGE,
                    UnitType.LEADER)

# R-PH-MOVE: movement points per move phase, before bonuses.  Leaders: 6 alone; with others the group moves
# at the pace of its slowest member.  Baggage never moves by itself.
BASE_MP = {A: 4, R: 4, L: 6, F: 10, T: 8}

# Carrying (R-PH-MOVE): an Army carries 4 Baggage; a Fleet 1 Rowers and 2 Baggage; a Transport 1 Army or
# 1 Rowers, or 8 Baggage; Fleets and Transports carry any number of Leaders.
ARMY_BAGGAGE, FLEET_BAGGAGE, TRANSPORT_BAGGAGE = 4, 2, 8


# -- lasting effects and cards ------------------------------------------------------------------------

def effect_in_force(state: GameState, e: Effect, player_now: str | None) -> bool:
    """An effect lasts through the end of ``until_player``'s player-turn in game turn ``until_turn`` (the same
    clock ``cards.expire_effects`` removes it by); ``until_turn == 0`` means no end recorded (in force)."""
    from .cards import when
    if not e.until_turn:
        return True
    if player_now is None and state.turn == e.until_turn:
        return True
    return when(state, state.turn, player_now) <= when(state, e.until_turn, e.until_player)


def effects_in_force(state: GameState, kind: str, player_now: str | None) -> list[Effect]:
    return [e for e in state.effects if e.kind == kind and effect_in_force(state, e, player_now)]


def cannot_move_or_attack(state: GameState, player: str) -> Effect | None:
    """Political Rivalry, Social Division: the target player's units may not move or attack."""
    for e in effects_in_force(state, "cannot_move_or_attack", player):
        if e.target == player:
            return e
    return None


def play_card(ctx: "TurnContext", player: str, card: str, **data: Any) -> None:
    """A played card leaves the hand for the discard pile; the report says so (Ev.CARD_PLAYED)."""
    from .cards import discard_from_hand
    discard_from_hand(ctx.state, player, card)
    ctx.emit(Ev.CARD_PLAYED, by=player, card=card, **data)


def card_effects(ctx: "TurnContext", card: str, kind: str) -> list[dict[str, Any]]:
    c = ctx.tables.cards.get(card)
    return [e for e in c.effects if e["kind"] == kind] if c else []


def roll_spec(ctx: "TurnContext", spec: str, purpose: str, **context: Any) -> list[int]:
    return ctx.dice.roll_spec(spec, purpose, **context)


# -- carrying -------------------------------------------------------------------------------------------

def cargo_tree(state: GameState, unit: Unit) -> list[Unit]:
    """Every unit carried by ``unit``, directly or through another carrier (a Transport's Army's Baggage)."""
    out: list[Unit] = []
    todo = [unit.id]
    here = state.units_at(unit.hex)
    while todo:
        cid = todo.pop()
        for u in here:
            if u.carried_by == cid and u not in out:
                out.append(u)
                todo.append(u.id)
    return out


def place_with_cargo(state: GameState, unit: Unit, hex_id: str) -> None:
    for u in [unit, *cargo_tree(state, unit)]:
        state.place(u, hex_id)


def can_carry(carrier: Unit, unit: Unit, aboard: Iterable[Unit]) -> bool:
    """May ``carrier`` take ``unit`` on top of ``aboard`` (what it carries now)?"""
    kinds = [u.type for u in aboard]
    if unit.type is L:
        return carrier.type in (F, T)  # on land a leader simply moves with its stack
    if carrier.type is A:
        return unit.type is B and kinds.count(B) < ARMY_BAGGAGE
    if carrier.type is F:
        if unit.type is R:
            return R not in kinds
        return unit.type is B and kinds.count(B) < FLEET_BAGGAGE
    if carrier.type is T:
        if unit.type in (A, R):
            return A not in kinds and R not in kinds and B not in kinds
        return unit.type is B and A not in kinds and R not in kinds and kinds.count(B) < TRANSPORT_BAGGAGE
    return False


def destroy_unit(ctx: "TurnContext", unit: Unit, cause: str) -> list[str]:
    """Remove a unit and everything it carries (R-BAT-3: a ship takes what is aboard with it)."""
    gone = []
    for u in [unit, *cargo_tree(ctx.state, unit)]:
        if u.id in ctx.state.units:
            ctx.state.remove_unit(u.id)
            gone.append(u.id)
    return gone


# -- what became of a unit this turn ---------------------------------------------------------------------

PHASE_TITLES = {"draw": "Draw", "revenue": "Revenue", "upkeep": "Upkeep", "recruit": "Recruit",
                "diplomacy": "Diplomacy", "first_move": "First Move", "sea_battle": "Sea Battle",
                "land_battle": "Land Battle", "second_move": "Second Move"}


def _people(state: GameState, pid: str | None) -> str:
    p = state.players.get(pid) if pid else None
    return f"the {p.name}" if p else "the rebels"


def _of(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _when(state: GameState, rec: dict[str, Any], viewer: str, actor: str | None = None) -> str:
    """When a record of the log happened, as ``viewer`` reads it: "in your Upkeep", "in their First Move"
    (``actor``'s own player-turn), "in the Corinthians' Land Battle", "at the end of the turn"."""
    pid, title = rec.get("player"), PHASE_TITLES.get(rec.get("phase") or "", "")
    if pid is None or not title:
        return "at the end of the turn"
    if pid == viewer:
        return f"in your {title}"
    if actor is not None and pid == actor:
        return f"in their {title}"
    name = state.players[pid].name if pid in state.players else pid
    return f"in the {_of(name)} {title}"


def _cause(tables: Tables | None, cause: Any) -> str:
    if tables is not None and cause in tables.cards:
        return tables.cards[cause].name
    return str(cause).replace("_", " ")


# The kinds of record that can tell what became of a unit, as the log writes them (``Ev.X.value`` is slow to
# read once per record of the log).
_FATE_KINDS = tuple(k.value for k in (Ev.DISBANDED, Ev.BAGGAGE_USED, Ev.CASUALTY, Ev.SUNK, Ev.DESTROYED,
                                      Ev.CAPTURED, Ev.LEADER_FATE, Ev.LEADER_REMOVED))
_DISBANDED, _BAGGAGE_USED, _CASUALTY, _SUNK, _DESTROYED, _CAPTURED, _LEADER_FATE, _LEADER_REMOVED = _FATE_KINDS


def unit_fate(state: GameState, records: Iterable[dict[str, Any]], uid: str, viewer: str,
              tables: Tables | None = None) -> str | None:
    """What this turn's log says became of ``viewer``'s unit ``uid`` that is gone or no longer theirs, in
    words for a failed order: "SPA-A3 disbanded in your Upkeep (starvation: ...)", "SPA-T1 captured by the
    Athenians in their First Move", "SPA-F2 sunk at 1014 (navigation roll) in your Second Move".  None if the
    log does not say (or the unit was never ``viewer``'s: nothing is told about other players' units)."""
    me = state.players.get(viewer)
    if me is None or uid.split("-")[0] != me.abbr:
        return None
    if not isinstance(records, (list, tuple)):
        records = list(records)
    for i in range(len(records) - 1, -1, -1):  # the latest word on the unit
        r = records[i]
        kind = r.get("event")
        if kind not in _FATE_KINDS:  # dice rolls, and events that tell no unit's fate
            continue
        lost = r.get("lost") or []
        with_ = f" with {r.get('unit')}" if r.get("unit") != uid else ""
        if kind == _DISBANDED and r.get("unit") == uid:
            cause = r.get("cause")
            why = f"starvation: {r['reason']}" if cause == "upkeep" and r.get("reason") else \
                "starvation" if cause == "upkeep" else _cause(tables, cause)
            return f"{uid} disbanded {_when(state, r, viewer)} ({why})"
        if kind == _BAGGAGE_USED and r.get("baggage") == uid:
            return f"{uid} was used up to feed {r.get('unit')} {_when(state, r, viewer)}"
        if kind == _CASUALTY and r.get("result") == "destroyed" and (r.get("unit") == uid or uid in lost):
            # the casualty's hex is where the unit stood (an attacker's is next to the battle): the battle is
            # named by the hex it was fought for, as the report's BATTLES section names it
            target = next((b.get("target") for b in reversed(records[:i]) if b.get("event") == "battle"), None)
            where = f"in the battle at {r.get('hex')}" if target in (None, r.get("hex")) else \
                f"at {r.get('hex')} in the battle for {target}"
            return f"{uid} was destroyed{with_} {where} {_when(state, r, viewer)}"
        if kind == _SUNK and (r.get("unit") == uid or uid in lost):
            how = f"by {_cause(tables, r['cause'])}" if r.get("cause") else f"at {r.get('hex')} (navigation roll)"
            return f"{uid} was sunk{with_} {how} {_when(state, r, viewer)}"
        if kind == _DESTROYED and (r.get("unit") == uid or uid in lost):
            return f"{uid} was destroyed{with_} ({_cause(tables, r.get('cause'))}) {_when(state, r, viewer)}"
        if kind == _CAPTURED and r.get("unit") == uid and r.get("owner") == viewer:
            by = r.get("by")
            return f"{uid} was captured by {_people(state, by)} {_when(state, r, viewer, by)}"
        if kind == _CAPTURED and uid in (r.get("units") or []):
            return f"{uid} was seized by the rebels at {r.get('hex')} {_when(state, r, viewer)}"
        if kind == _LEADER_FATE and r.get("leader") == uid and r.get("fate") in ("executed", "removed"):
            by = r.get("captor")
            if r.get("fate") == "removed":
                return f"{uid} was removed by {_of(_people(state, by))} {r.get('reason')} {_when(state, r, viewer, by)}"
            return f"{uid} was captured and executed by {_people(state, by)} {_when(state, r, viewer, by)}"
        if kind == _LEADER_REMOVED and r.get("unit") == uid and r.get("until") is None:
            return f"{uid} was removed by {_cause(tables, r.get('source'))} {_when(state, r, viewer)}"
    return None


def fate_teller(ctx: "TurnContext"):
    """``unit_fate`` for the player whose turn it is, from the log so far: for orders that name a lost unit."""
    return lambda uid: unit_fate(ctx.state, ctx.log.records, uid, ctx.player, ctx.tables)


# -- terrain and entry ----------------------------------------------------------------------------------

def foreign_city(state: GameState, game_map: GameMap, hex_id: str, player: str) -> str | None:
    """The id of an enemy or neutral city in ``hex_id`` (R-PH-MOVE: may not be entered), else None."""
    city = game_map.city_at.get(hex_id)
    if city is not None and state.cities[city.id].controller != player:
        return city.id
    return None


def land_ok(game_map: GameMap, h: str) -> bool:
    return game_map.is_land(h) and game_map.passable(h)


def may_stand(game_map: GameMap, unit: Unit, h: str) -> bool:
    """Terrain a unit may enter by itself: ships where ships may go, the rest on passable land."""
    return game_map.ship_may_enter(h) if unit.type.is_ship else land_ok(game_map, h)


def counts_with_cargo(state: GameState, unit: Unit) -> int:
    """What a unit standing by itself adds to its owner's stack together with everything it carries (a Transport
    and its Army; R-UNIT-2)."""
    units = state.units
    return stacking_weight(unit, None) + sum(stacking_weight(u, units.get(u.carried_by))
                                             for u in cargo_tree(state, unit))


def nearest_city_distance(game_map: GameMap, cities: Iterable[str], hex_id: str) -> int:
    """Hexes from ``hex_id`` to the nearest of ``cities`` (city ids); a large number when there is none."""
    return min((game_map.distance(hex_id, game_map.cities[c].hex) for c in cities), default=10 ** 6)


# -- allowance (R-PH-MOVE) ------------------------------------------------------------------------------

@dataclass
class Allowance:
    points: int
    per_unit: dict[str, int] = field(default_factory=dict)
    bonuses: dict[str, list[str]] = field(default_factory=dict)  # unit -> sources of its bonuses


def aid_of_city(state: GameState, game_map: GameMap, player: str, hex_id: str) -> bool:
    """Relieving Force: the stack ends in or next to a friendly city that is under siege."""
    for h in (hex_id, *game_map.neighbours[hex_id]):
        city = game_map.city_at.get(h)
        if city and state.cities[city.id].controller == player and under_siege(state, game_map, city.id):
            return True
    return False


def allowance(ctx: "TurnContext", movers: list[Unit], group: set[str],
              cards: Iterable[tuple[str, dict[str, Any]]] = (),
              earlier: Mapping[str, list[tuple[str, dict[str, Any]]]] | None = None) -> Allowance:
    """``movement_allowance`` in the turn being adjudicated."""
    return movement_allowance(ctx.state, ctx.tables, movers, group, cards, earlier)


def movement_allowance(state: GameState, tables: Tables, movers: list[Unit], group: set[str],
                       cards: Iterable[tuple[str, dict[str, Any]]] = (),
                       earlier: Mapping[str, list[tuple[str, dict[str, Any]]]] | None = None) -> Allowance:
    """The group's movement points: the smallest of its movers' allowances, each base + movement effects.

    Movement effects: the player's traits (Athletic, Seamanship), the skills of leaders moving in the group
    (Logistics; a leader left behind gives nothing), the cards played for this move (Forced March,
    Marathon, Relieving Force) and, by unit id in ``earlier``, the cards played for that unit's First Move
    whose +2 lasts the turn (Forced March, Marathon: "this turn"), each where ``units`` matches the unit.
    Leaders move 6 alone (R-PH-MOVE); with any other mover they go at its pace, so only a group of leaders
    alone is held to a leader's allowance.  The order checker asks the same.
    """
    cards = list(cards)
    per_unit: dict[str, int] = {}
    bonuses: dict[str, list[str]] = {}
    of_player: dict[str | None, list[fx.Found]] = {}
    of_stack: dict[tuple[str, str | None], list[fx.Found]] = {}
    units = state.units
    # only the leaders moving in the group give their skills: with none, no stack's skills are looked up
    leaders_move = any((u := units.get(x)) is not None and u.type is L for x in group)
    for m in movers:
        points = BASE_MP[m.type]
        found: list[str] = []  # "source +value", for the report
        mine = of_player.get(m.owner)
        if mine is None:
            mine = of_player[m.owner] = fx.player_effects(state, tables, m.owner, "movement")
        for src, e in mine:
            if fx.unit_matches(e, m):
                points += e["value"]
                found.append(f"{src.label()} {e['value']:+d}")
        if leaders_move:
            if (m.hex, m.owner) not in of_stack:  # the skills of the leaders in the mover's hex
                of_stack[(m.hex, m.owner)] = fx.stack_effects(state, tables, [m], "movement")
            for src, e in of_stack[(m.hex, m.owner)]:
                if src.unit in group and fx.unit_matches(e, m):
                    points += e["value"]
                    found.append(f"{src.label()} {e['value']:+d}")
        for card, e in cards:
            if fx.unit_matches(e, m):
                points += e["value"]
                found.append(f"{tables.cards[card].name} (card) {e['value']:+d}")
        for card, e in (earlier.get(m.id, ()) if earlier else ()):
            points += e["value"]
            found.append(f"{tables.cards[card].name} (card, played in the First Move) {e['value']:+d}")
        per_unit[m.id] = points
        bonuses[m.id] = found
    pace = [per_unit[m.id] for m in movers if m.type is not L] or per_unit.values()
    return Allowance(min(pace, default=0), per_unit, bonuses)


# -- paths ----------------------------------------------------------------------------------------------

@dataclass
class PathCheck:
    reached: list[tuple[str, int]]  # (hex, points spent so far) for each hex legally entered, in order
    reason: str | None = None  # why the group stopped before the end of the path (None: it got there)


@dataclass(frozen=True)
class StepProblem:
    """Why a group may not enter a hex.  ``kind``: off_map, not_adjacent, ship_terrain, land_terrain, points,
    foreign_city (``city``), enemy_units, no_captor.  ``reason``: the adjudicator's words for it."""
    kind: str
    reason: str
    city: str | None = None


def step_problems(state: GameState, game_map: GameMap, player: str, prev: str, h: str, sea: bool, spent: int,
                  points: int, captures: bool) -> list[StepProblem]:
    """Every rule entering ``h`` from ``prev`` breaks (R-PH-MOVE), in the order ``check_path`` asks them;
    ``spent``: the points spent before.  The order checker reports them all; a move stops at the first."""
    t = game_map.terrain.get(h)
    if t is None:
        return [StepProblem("off_map", f"{h} is not a hex of the map")]
    out: list[StepProblem] = []
    if h not in game_map.neighbours[prev]:
        out.append(StepProblem("not_adjacent", f"{h} is not next to {prev}"))
    if sea:
        if not game_map.ship_may_enter(h):
            out.append(StepProblem("ship_terrain", f"ships may not enter {h} ({t.name})"))
    elif not land_ok(game_map, h):
        out.append(StepProblem("land_terrain", f"land units may not enter {h} ({t.name})"))
    cost = t.move_cost or 0
    if spent + cost > points:
        out.append(StepProblem("points", f"not enough movement points to enter {h} ({spent} of {points} spent, "
                                         f"{t.name} costs {cost})"))
    city = foreign_city(state, game_map, h, player)
    if city:
        who = state.cities[city].controller
        out.append(StepProblem("foreign_city", f"{h} is {'the neutral' if who is None else who + ' controlled'} "
                                               f"city {game_map.cities[city].name}; units may not enter it", city))
        return out
    here = state.hex_units(h)
    if not here:  # the usual case: nobody there
        return out
    enemies = [u for u in here if hostile_to(u, player) and u.away_until is None]
    if any(is_combat_unit(state, u) for u in enemies):
        out.append(StepProblem("enemy_units", f"{h} holds enemy Armies, Rowers or manned Fleets"))
    elif not captures and enemies:
        out.append(StepProblem("no_captor", f"{h} holds enemy units and the group has no Army, Rowers or manned "
                                            f"Fleet to capture them"))
    return out


def check_path(state: GameState, game_map: GameMap, player: str, start: str, path: Iterable[str], sea: bool,
               points: int, captures: bool) -> PathCheck:
    """Walk ``path`` from ``start`` as far as the rules let the group go (stacking is checked by the caller).

    ``sea``: the group is ships (with their cargo); else land units.  ``captures``: the group holds an Army,
    Rowers or a manned Fleet, so it may enter a hex holding only capturable enemy units (R-UNIT-3).
    """
    reached: list[tuple[str, int]] = []
    spent, prev = 0, start
    terrain = game_map.terrain
    for h in path:
        problems = step_problems(state, game_map, player, prev, h, sea, spent, points, captures)
        if problems:
            return PathCheck(reached, problems[0].reason)
        spent += terrain[h].move_cost or 0
        reached.append((h, spent))
        prev = h
    return PathCheck(reached)


# -- capture (R-UNIT-3, R-UNIT-4) -----------------------------------------------------------------------

def capturable_here(state: GameState, hex_id: str, player: str) -> list[Unit]:
    """Enemy units standing (not aboard) in ``hex_id`` that a capturing unit entering it takes."""
    if not any(u.owner != player for u in state.hex_units(hex_id)):
        return []  # the usual case, without sorting the hex
    return [u for u in state.units_at(hex_id) if hostile_to(u, player) and u.owner is not None
            and u.carried_by is None]


def capture_hex(ctx: "TurnContext", hex_id: str, captor: str, how: str) -> list[str]:
    """``captor``'s capturing unit has entered ``hex_id``: take every enemy unit there (none may be a combat
    unit; the caller has checked).  Baggage, Transports and Fleets change owner (a Fleet unmanned); what they
    carry is taken with them; leaders are ransomed or executed (R-UNIT-4).  A captured ship that would put
    the captor's stack over the limit is scuttled.  Returns the ids taken."""
    state = ctx.state
    taken: list[str] = []
    for top in capturable_here(state, hex_id, captor):
        if top.id not in state.units:
            continue
        for u in [top, *cargo_tree(state, top)]:
            if u.id not in state.units:
                continue
            old = u.owner
            if u.type is L:
                u.carried_by = None
                leader_captured(ctx, u, captor, hex_id)
                continue
            u.owner = captor
            taken.append(u.id)
            ctx.emit(Ev.CAPTURED, unit=u.id, type=u.type.value, hex=hex_id, by=captor, owner=old, how=how)
        if top.id in state.units and top.type.is_ship and \
                stack_size(state, hex_id, captor) > stack_limit(ctx.game_map, hex_id):
            gone = destroy_unit(ctx, top, "scuttled")
            ctx.emit(Ev.DESTROYED, unit=top.id, hex=hex_id, cause="scuttled: no room in the captor's stack",
                     lost=gone)
    return taken


def leader_home(state: GameState, game_map: GameMap, player: str, near: str) -> str | None:
    """Where a ransomed leader goes: the home city if the owner controls it, else the owner's controlled city
    nearest ``near`` (ties by city id); None if the owner controls no city."""
    home = state.players[player].home
    if state.cities[home].controller == player:
        return game_map.cities[home].hex
    cities = sorted(state.controlled_cities(player),
                    key=lambda c: (game_map.distance(near, game_map.cities[c].hex), c))
    return game_map.cities[cities[0]].hex if cities else None


def leader_captured(ctx: "TurnContext", leader: Unit, captor: str, hex_id: str) -> None:
    """R-UNIT-4: by the captor's standing order, ransom (default) or execute.  Ransom: the owner pays the
    captor 1D6 gold (all they have, if less) and the leader returns to the owner's home city."""
    state = ctx.state
    owner = leader.owner
    fate = ctx.standing(captor).captured_leaders
    dest = leader_home(state, ctx.game_map, owner, hex_id) if fate == "ransom" else None
    if fate == "ransom" and dest is not None:
        asked = ctx.dice.d6("ransom", leader=leader.id)
        paid = min(asked, state.players[owner].gold)
        state.players[owner].gold -= paid
        state.players[captor].gold += paid
        state.place(leader, dest)
        ctx.emit(Ev.LEADER_FATE, leader=leader.id, name=leader.name, owner=owner, captor=captor, hex=hex_id,
                 fate="ransomed", asked=asked, paid=paid, returns_to=dest)
    else:
        state.remove_unit(leader.id)
        ctx.emit(Ev.LEADER_FATE, leader=leader.id, name=leader.name, owner=owner, captor=captor, hex=hex_id,
                 fate="executed", reason=None if fate == "execute" else "the owner controls no city to ransom to")


