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
from functools import lru_cache
from typing import Any, Iterable

from .gamedata import Tables
from .model import _AWAY_EPOCH, _CITY_EPOCH, _UNIT_EPOCH, GameState, Unit, UnitType

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


class _Index:
    """A trait or skill table's (Source, effect) pairs, arranged for the questions below; built once per table
    (tables never change once loaded).  A skill's Source here has no leader yet."""

    def __init__(self, table: dict[str, Any], what: str) -> None:
        self.table = table
        self.by_kind: dict[str, dict[str, list[Found]]] = {}  # {kind: {trait or skill id: [found, ...]}}
        self.by_entry: dict[str, list[tuple[str, Found]]] = {}  # {trait or skill id: [(kind, found), ...]}
        self.in_stack: dict[str, dict[str, list[Found]]] = {}  # as by_kind, without the scope "all" effects
        for key, entry in table.items():
            src = Source(what, key, entry.name)
            self.by_entry[key] = [(e["kind"], (src, e)) for e in entry.effects]
            for e in entry.effects:
                self.by_kind.setdefault(e["kind"], {}).setdefault(key, []).append((src, e))
                if e.get("scope") != "all":
                    self.in_stack.setdefault(e["kind"], {}).setdefault(key, []).append((src, e))


_INDEXES: dict[tuple[int, str], _Index] = {}  # (id(table), "trait" or "skill") -> its _Index


def _index(table: dict[str, Any], what: str) -> _Index:
    found = _INDEXES.get((id(table), what))
    if found is None or found.table is not table:
        found = _INDEXES[(id(table), what)] = _Index(table, what)
    return found


def _by_kind(table: dict[str, Any], what: str) -> dict[str, dict[str, list[Found]]]:
    """{kind: {trait or skill id: [(its Source, effect), ...]}}.  A skill's Source here has no leader yet."""
    return _index(table, what).by_kind


def trait_effects(state: GameState, tables: Tables, player: str, kind: str) -> list[Found]:
    having = _by_kind(tables.traits, "trait").get(kind)
    found: list[Found] = []
    if having:
        for tid in held_traits(state, player):
            if tid in having:
                found += having[tid]
    return found


def skill_effects(tables: Tables, leaders: Iterable[Unit], kind: str) -> list[Found]:
    return _led(leaders, _by_kind(tables.skills, "skill").get(kind))


def _led(leaders: Iterable[Unit], having: dict[str, list[Found]] | None) -> list[Found]:
    """The effects in ``having`` ({skill id: [(its bare Source, effect), ...]}) of these leaders' skills."""
    found: list[Found] = []
    if having:
        for leader in leaders:
            for sid in leader.skills:
                if sid in having:
                    found += [(_skill_source(sid, bare.name, leader.id), e) for bare, e in having[sid]]
    return found


@lru_cache(maxsize=4096)
def _skill_source(sid: str, name: str, leader: str) -> Source:
    """A leader's skill as a Source (immutable, so one object serves every question about it; making a frozen
    dataclass costs more than looking it up)."""
    return Source("skill", sid, name, leader)


def player_effects(state: GameState, tables: Tables, player: str, kind: str) -> list[Found]:
    """Traits and player-wide skills of ``player`` of one kind (e.g. diplomacy_rolls, income).

    Remembered on the state (a phase asks the same for every move, battle and roll), every kind at once (the
    first question of a turn pays for the others), until what the answer depends on changes: a city's
    controller, a unit's owner, a leader added, removed, sent away or back, a trait gained.  When only cities
    changed hands, the answer is kept if the player's held traits are the same (``_still_holds``).
    ``pbem.invariants`` checks every remembered answer against a fresh one."""
    sig = _signature(state, tables, player)
    hit = state._effects_cache.get(player)
    if hit is None or hit[0] != sig:
        hit = _remember(state, tables, player, sig, hit)
    return list(hit[1].get(kind, ()))


def _signature(state: GameState, tables: Tables, player: str) -> tuple[int, ...]:
    return (_CITY_EPOCH[0], _UNIT_EPOCH[0], _AWAY_EPOCH[0], state._leader_changes, len(state.players[player].traits),
            id(tables))


def _still_holds(state: GameState, player: str, sig: tuple[int, ...], hit: tuple[Any, ...] | None,
                 traits: list[str] | None = None) -> bool:
    """Does ``player``'s remembered entry ``hit`` = (signature, answer, held traits) answer for ``sig``?  Yes if
    nothing changed, or if only cities changed controller (``_CITY_EPOCH``) and the player's held traits
    (``traits``, when the caller has them) are the same (a city changing hands between other players, or one
    without a new trait)."""
    if hit is None:
        return False
    old = hit[0]
    if old == sig:
        return True
    return old[1:] == sig[1:] and hit[2] == (held_traits(state, player) if traits is None else traits)


def _remember(state: GameState, tables: Tables, player: str, sig: tuple[int, ...],
              hit: tuple[Any, ...] | None) -> tuple[Any, ...]:
    """The entry for ``player`` brought up to ``sig``: the remembered answer if it still holds, else a fresh one."""
    traits = held_traits(state, player)
    if _still_holds(state, player, sig, hit, traits):
        found = hit[1]  # type: ignore[index]
    else:
        found = _all_player_effects(state, tables, player, traits)
    hit = state._effects_cache[player] = (sig, found, traits)
    return hit


def _all_player_effects(state: GameState, tables: Tables, player: str,
                        traits: list[str]) -> dict[str, tuple[Found, ...]]:
    """{kind: fresh_player_effects(state, tables, player, kind)} for every kind the player has, in one pass;
    ``traits``: ``held_traits(state, player)``."""
    out: dict[str, list[Found]] = {}
    by_trait = _index(tables.traits, "trait").by_entry
    for tid in traits:
        for kind, f in by_trait.get(tid, ()):
            out.setdefault(kind, []).append(f)
    by_skill = _index(tables.skills, "skill").by_entry
    for leader in leaders_in_play(state, player):
        for sid in leader.skills:
            for kind, (bare, e) in by_skill.get(sid, ()):
                if kind in PLAYER_WIDE:
                    out.setdefault(kind, []).append((_skill_source(sid, bare.name, leader.id), e))
    return {kind: tuple(found) for kind, found in out.items()}


def stale_player_effects(state: GameState, tables: Tables) -> list[tuple[str, str]]:
    """(player, kind) of every remembered answer that would be used but differs from a fresh one."""
    kinds = sorted({*_by_kind(tables.traits, "trait"), *_by_kind(tables.skills, "skill")})
    return [(player, kind) for player, hit in sorted(state._effects_cache.items())
            if player in state.players and _still_holds(state, player, _signature(state, tables, player), hit)
            for kind in kinds if list(hit[1].get(kind, ())) != fresh_player_effects(state, tables, player, kind)]


def fresh_player_effects(state: GameState, tables: Tables, player: str, kind: str) -> list[Found]:
    found = trait_effects(state, tables, player, kind)
    if kind in PLAYER_WIDE:
        found += skill_effects(tables, leaders_in_play(state, player), kind)
    return found


def stack_leaders(state: GameState, units: Iterable[Unit]) -> list[Unit]:
    """The leaders in the hexes of ``units`` that belong to the same owner (a leader leads its stack)."""
    hexes = set()
    owners = set()
    for u in units:
        hexes.add(u.hex)
        owners.add(u.owner)
    return leaders_in(state, hexes, owners)


def leaders_in(state: GameState, hexes: Iterable[str], owners: set[str | None]) -> list[Unit]:
    """The leaders of ``owners`` standing in ``hexes`` (aboard a ship there too), not away from the game (an
    exiled leader keeps its hex): hexes in order, by id within one."""
    leader = UnitType.LEADER
    out: list[Unit] = []
    for h in sorted(hexes):
        found = [u for u in state.hex_units(h) if u.type is leader and u.owner in owners and u.away_until is None]
        if len(found) > 1:
            found.sort(key=lambda u: u.id)  # as units_at lists them
        out += found
    return out


def stack_effects(state: GameState, tables: Tables, units: Iterable[Unit], kind: str) -> list[Found]:
    """Skills of the leaders with these units (scope: stack)."""
    having = _index(tables.skills, "skill").in_stack.get(kind)
    return _led(stack_leaders(state, units), having) if having else []


def led_effects(tables: Tables, leaders: Iterable[Unit], kind: str) -> list[Found]:
    """``stack_effects`` of a stack whose ``stack_leaders`` the caller has already (to ask for several kinds)."""
    return _led(leaders, _index(tables.skills, "skill").in_stack.get(kind))


def unit_matches(effect: dict[str, Any], unit: Unit) -> bool:
    want = effect.get("units", "all")
    if want == "all":
        return True
    if want == "army":
        return unit.type is UnitType.ARMY
    if want == "land":  # an "Army Stack" (Forced March, Marathon): its Armies and Rowers, the units that march
        return unit.type is UnitType.ARMY or unit.type is UnitType.ROWERS
    if want == "fleet":
        return unit.type is UnitType.FLEET
    if want == "ships":
        return unit.type in (UnitType.FLEET, UnitType.TRANSPORT)
    return False


def total_value(found: Iterable[Found]) -> int:
    return sum(int(e.get("value", 0)) for _, e in found)

