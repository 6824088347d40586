"""Where effects come from: city traits, leader skills and cards in play, as data (effect dicts).

The effect kinds are the closed set documented at the top of ``pbem/data/tables/cards.yaml``.  Phases ask
this module "which effects of kind K act for player P (or for this stack)?" and add them up; no phase
names a trait, skill or card.

- Traits act for every unit of their holder.  A player holds their home city's traits and the trait of
  every minor city they control (R-SET-4); a trait held twice counts once.
- Skills act for the stack their leader is in (R-BAT-2), except the player-wide kinds below, which act
  while the leader is in play (not away, not captured).
- Cards in play are ``state.effects`` entries (lasting effects with their end counted in player-turns).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from .gamedata import Tables
from .model import GameState, Unit, UnitType

PLAYER_WIDE = frozenset({"diplomacy_rolls", "hand_size", "income", "victory_cities", "extra_recruit"})


@dataclass(frozen=True)
class Source:
    kind: str  # trait | skill | card
    id: str
    name: str
    unit: str | None = None  # the leader, for a skill

    def label(self) -> str:
        return f"{self.name} ({self.kind}{', ' + self.unit if self.unit else ''})"


Found = tuple[Source, dict[str, Any]]


def held_traits(state: GameState, player: str) -> list[str]:
    """Home city traits, then the traits of controlled minor cities (R-SET-4), each once."""
    out = list(state.players[player].traits)
    cities = state.cities
    for cid in state.controlled_sorted(player):
        trait = cities[cid].trait
        if trait and trait not in out:
            out.append(trait)
    return out


def leaders_in_play(state: GameState, player: str) -> list[Unit]:
    leader = UnitType.LEADER
    return [u for u in state.units_of(player) if u.type is leader and u.away_until is None]


# id(trait or skill) -> (it, {kind: its effects of that kind}): the tables never change once loaded
_BY_KIND: dict[int, tuple[Any, dict[str, list[dict[str, Any]]]]] = {}


def _by_kind(entry: Any) -> dict[str, list[dict[str, Any]]]:
    found = _BY_KIND.get(id(entry))
    if found is None or found[0] is not entry:
        by: dict[str, list[dict[str, Any]]] = {}
        for e in entry.effects:
            by.setdefault(e["kind"], []).append(e)
        found = _BY_KIND[id(entry)] = (entry, by)
    return found[1]


def trait_effects(state: GameState, tables: Tables, player: str, kind: str) -> list[Found]:
    traits = tables.traits
    found: list[Found] = []
    for tid in held_traits(state, player):
        t = traits[tid]
        for e in _by_kind(t).get(kind, ()):
            found.append((Source("trait", tid, t.name), e))
    return found


def skill_effects(tables: Tables, leaders: Iterable[Unit], kind: str) -> list[Found]:
    skills = tables.skills
    found: list[Found] = []
    for leader in leaders:
        for sid in leader.skills:
            s = skills[sid]
            for e in _by_kind(s).get(kind, ()):
                found.append((Source("skill", sid, s.name, leader.id), e))
    return found


def player_effects(state: GameState, tables: Tables, player: str, kind: str) -> list[Found]:
    """Traits and player-wide skills of ``player`` of one kind (e.g. diplomacy_rolls, income)."""
    found = trait_effects(state, tables, player, kind)
    if kind in PLAYER_WIDE:
        found += skill_effects(tables, leaders_in_play(state, player), kind)
    return found


def stack_leaders(state: GameState, units: Iterable[Unit]) -> list[Unit]:
    """The leaders in the hexes of ``units`` that belong to the same owner (a leader leads its stack)."""
    units = list(units)
    hexes = {u.hex for u in units}
    owners = {u.owner for u in units}
    out = []
    for h in sorted(hexes):
        out += [u for u in state.units_at(h) if u.type is UnitType.LEADER and u.owner in owners]
    return out


def stack_effects(state: GameState, tables: Tables, units: Iterable[Unit], kind: str) -> list[Found]:
    """Skills of the leaders with these units (scope: stack)."""
    return [f for f in skill_effects(tables, stack_leaders(state, units), kind) if f[1].get("scope") != "all"]


def unit_matches(effect: dict[str, Any], unit: Unit) -> bool:
    want = effect.get("units", "all")
    if want == "all":
        return True
    if want == "army":
        return unit.type is UnitType.ARMY
    if want == "fleet":
        return unit.type is UnitType.FLEET
    if want == "ships":
        return unit.type in (UnitType.FLEET, UnitType.TRANSPORT)
    return False


def total_value(found: Iterable[Found]) -> int:
    return sum(int(e.get("value", 0)) for _, e in found)

