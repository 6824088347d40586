"""Questions about the board that several phases ask, answered in one place.

Siege (R-PH-REV, used by revenue, upkeep and recruitment), friendly cities, stacking (R-UNIT-2), enemies,
manned fleets (R-UNIT-3), surrounded units (R-PH-UPK).  Pure functions of state and map.
"""
from __future__ import annotations

from typing import Iterable

from .gamedata import GameMap
from .model import GameState, Unit, UnitType

NEUTRAL_FIGHTERS = (UnitType.PIRATE, UnitType.BARBARIAN)


def is_manned(state: GameState, fleet: Unit) -> bool:
    """R-UNIT-3: a Fleet moves and fights only with a Rowers unit aboard."""
    return fleet.type is UnitType.FLEET and any(
        u.type is UnitType.ROWERS for u in state.units_at(fleet.hex) if u.carried_by == fleet.id)


def is_combat_unit(state: GameState, u: Unit) -> bool:
    """Units that block movement and besiege: Armies, Rowers (on land), manned Fleets, pirates, barbarians."""
    if u.type in (UnitType.ARMY, UnitType.ROWERS):
        return u.carried_by is None or state.units[u.carried_by].type is not UnitType.FLEET
    if u.type is UnitType.FLEET:
        return is_manned(state, u)
    return u.type in NEUTRAL_FIGHTERS


def hostile_to(u: Unit, player: str) -> bool:
    """Is ``u`` an enemy of ``player``?  Neutral pirates and barbarians are everyone's enemy."""
    return u.owner != player


def enemy_combat_units(state: GameState, hex_id: str, player: str) -> list[Unit]:
    return [u for u in state.units_at(hex_id) if hostile_to(u, player) and is_combat_unit(state, u)]


def under_siege(state: GameState, game_map: GameMap, city_id: str) -> bool:
    """R-PH-REV: an enemy Army, Rowers, manned Fleet, pirate or barbarian in or adjacent to the city.

    "Enemy" is anyone but the city's controller; a neutral city is never under siege.
    """
    controller = state.cities[city_id].controller
    if controller is None:
        return False
    at = state._index()
    for x in game_map.around_city[city_id]:
        here = at.get(x)
        if here:
            for u in here.values():
                if u.owner != controller and u.away_until is None and is_combat_unit(state, u):
                    return True
    return False


def friendly_city(state: GameState, game_map: GameMap, city_id: str, player: str) -> bool:
    """R-PH-UPK: controlled by the player, not razed, not under siege."""
    c = state.cities[city_id]
    return c.controller == player and c.razed == 0 and not under_siege(state, game_map, city_id)


def friendly_cities(state: GameState, game_map: GameMap, player: str) -> list[str]:
    """The player's friendly cities (``friendly_city``), in the order ``controlled_cities`` gives."""
    return [c for c in state.controlled_cities(player) if friendly_city(state, game_map, c, player)]


def nearest_city(game_map: GameMap, cities: Iterable[str], hex_id: str) -> str | None:
    """The city of ``cities`` nearest ``hex_id`` in hexes, ties to the lower id; None if there is none."""
    return min(cities, key=lambda c: (game_map.distance(hex_id, game_map.cities[c].hex), c), default=None)


def may_recruit(state: GameState, game_map: GameMap, city_id: str, player: str) -> str | None:
    """R-PH-REC: None if the city may recruit, else the reason it may not."""
    c = state.cities[city_id]
    if c.controller != player:
        return "you do not control it"
    if c.razed:
        return "it is razed"
    if c.hostile:
        return "it is hostile"
    if under_siege(state, game_map, city_id):
        return "it is under siege"
    return None


def stacking_weight(unit: Unit, carrier: Unit | None) -> int:
    """R-UNIT-2: what a unit adds to its owner's stack, carried by ``carrier`` (None: standing by itself).
    Armies, Fleets and Transports count, aboard or not; Rowers count as Armies, except aboard a Fleet (its
    crew counts as nothing); Leaders and Baggage never count."""
    if not unit.type.counts_for_stacking:
        return 0
    if carrier is not None and unit.type is UnitType.ROWERS and carrier.type is UnitType.FLEET:
        return 0
    return unit.value


def stack_size(state: GameState, hex_id: str, player: str | None, leaving: Iterable[str] = ()) -> int:
    """R-UNIT-2: one owner's stack in a hex (``stacking_weight`` of each of their units there), without the
    units ``leaving``."""
    n = 0
    units = state.units
    for u in state.units_at(hex_id):
        if u.owner != player or not u.type.counts_for_stacking or u.id in leaving:
            continue
        n += stacking_weight(u, units.get(u.carried_by) if u.carried_by is not None else None)
    return n


def stack_limit(game_map: GameMap, hex_id: str) -> int:
    limit = game_map.terrain[hex_id].stack
    return 0 if limit is None else limit


def surrounded(state: GameState, game_map: GameMap, hex_id: str, player: str) -> bool:
    """R-PH-UPK: every passable neighbour hex holds enemy units (and there is at least one)."""
    passable = False
    for n in game_map.neighbours[hex_id]:
        if not game_map.passable(n):
            continue
        if not any(hostile_to(u, player) and u.away_until is None for u in state.hex_units(n)):
            return False  # the first open way out answers: most hexes are not surrounded
        passable = True
    return passable


def city_at(state: GameState, game_map: GameMap, hex_id: str) -> str | None:
    c = game_map.city_at.get(hex_id)
    return c.id if c else None


def home_hex(state: GameState, game_map: GameMap, player: str) -> str:
    return game_map.cities[state.players[player].home].hex
