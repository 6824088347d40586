"""The game state: plain dataclasses that round-trip through JSON (R-UNIT-1, R-SET-*).

One ``GameState`` holds everything the rules need between turns.  It is saved as versioned JSON with
sorted keys, so the same game gives byte-identical files.  The map is not stored in the state: the
campaign folder keeps its own copy of the map file and the loaded ``GameMap`` is attached at load time.
"""
from __future__ import annotations

import bisect
import copy
import json
from dataclasses import dataclass, field, fields
from enum import Enum
from functools import lru_cache
from typing import Any, Iterable, Iterator

from .errors import DataError

STATE_VERSION = 1

# Bumped whenever any unit changes owner / any city changes controller: GameState's owner and controller
# indexes are rebuilt when they moved (GameState._by_owner, _by_controller), so no caller has to keep them.
_UNIT_EPOCH = [0]
_CITY_EPOCH = [0]
_AWAY_EPOCH = [0]  # a leader went away or came back (pbem.effects remembers the leaders in play)


class UnitType(str, Enum):
    ARMY = "army"
    ROWERS = "rowers"
    FLEET = "fleet"
    TRANSPORT = "transport"
    BAGGAGE = "baggage"
    LEADER = "leader"
    # Expansion II (neutral, nobody's units; R-PB-1) and revolts (R-PH-DIP-REVOLT)
    PIRATE = "pirate"
    BARBARIAN = "barbarian"

    # Set on each member below (plain attributes: these are asked on every unit in every phase).
    letter: str  # the unit id letter: ATH-A1
    is_ship: bool  # Fleets and Transports
    counts_for_stacking: bool  # R-UNIT-2: Armies, Fleets and Transports (Rowers count as Armies when not aboard)
    needs_upkeep: bool  # Armies and Rowers (R-PH-UPK)


_LETTERS = {UnitType.ARMY: "A", UnitType.ROWERS: "R", UnitType.FLEET: "F", UnitType.TRANSPORT: "T",
            UnitType.BAGGAGE: "B", UnitType.LEADER: "L", UnitType.PIRATE: "P", UnitType.BARBARIAN: "X"}
TYPE_BY_LETTER = {v: k for k, v in _LETTERS.items()}
_TYPE_BY_VALUE = {t.value: t for t in UnitType}  # UnitType(value) is a slow call through the Enum machinery
for _t in UnitType:
    _t.letter = _LETTERS[_t]
    _t.is_ship = _t in (UnitType.FLEET, UnitType.TRANSPORT)
    _t.counts_for_stacking = _t in (UnitType.ARMY, UnitType.ROWERS, UnitType.FLEET, UnitType.TRANSPORT)
    _t.needs_upkeep = _t in (UnitType.ARMY, UnitType.ROWERS)
del _t

# The seed's unit table: recruitment cost and upkeep (R-UNIT-1).
RECRUIT_COST = {UnitType.ARMY: 2, UnitType.ROWERS: 2, UnitType.BAGGAGE: 1, UnitType.TRANSPORT: 2,
                UnitType.FLEET: 4}
UPKEEP_COST = {UnitType.ARMY: 1, UnitType.ROWERS: 1}
HOME_CITY_DEFENCE = 8  # a home city's defence modifier, instead of the City terrain's +5 (R-MAP-2, R-BAT-1)


@dataclass(init=False, eq=False)
class Unit:
    id: str
    type: UnitType
    owner: str | None  # player id; None for neutral units (pirates, barbarians)
    hex: str
    carried_by: str | None = None  # id of the Army, Fleet, Transport (or Leader's stack) carrying it
    starvation: int = 0
    value: int = 1  # block strength (expansion III, R-BLK-1); 1 in the base game
    name: str | None = None  # leaders
    skills: list[str] = field(default_factory=list)  # leaders
    away_until: int | None = None  # leader removed from the game until this game turn (Exiled)

    def __init__(self, id: str, type: UnitType, owner: str | None, hex: str, carried_by: str | None = None,
                 starvation: int = 0, value: int = 1, name: str | None = None, skills: list[str] | None = None,
                 away_until: int | None = None) -> None:
        self.__dict__.update(id=id, type=type, owner=owner, hex=hex, carried_by=carried_by, starvation=starvation,
                             value=value, name=name, skills=[] if skills is None else skills, away_until=away_until)

    def __eq__(self, other: object) -> bool:
        """Field by field, as a dataclass compares, but two different ids answer at once."""
        if other.__class__ is not Unit:
            return NotImplemented
        return self is other or (self.id == other.id and self.__dict__ == other.__dict__)  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "owner":  # GameState's units-by-owner index is rebuilt when an owner changed
            _UNIT_EPOCH[0] += 1
        elif name == "away_until":
            _AWAY_EPOCH[0] += 1
        object.__setattr__(self, name, value)

    def to_dict(self) -> dict[str, Any]:
        d = {"id": self.id, "type": self.type.value, "owner": self.owner, "hex": self.hex}
        if self.carried_by:
            d["carried_by"] = self.carried_by
        if self.starvation:
            d["starvation"] = self.starvation
        if self.value != 1:
            d["value"] = self.value
        if self.type is UnitType.LEADER:
            d["name"] = self.name
            d["skills"] = list(self.skills)
        if self.away_until is not None:
            d["away_until"] = self.away_until
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Unit":
        utype = _TYPE_BY_VALUE.get(d["type"]) or UnitType(d["type"])  # UnitType() raises on an unknown type
        return cls(id=d["id"], type=utype, owner=d.get("owner"), hex=d["hex"],
                   carried_by=d.get("carried_by"), starvation=d.get("starvation", 0), value=d.get("value", 1),
                   name=d.get("name"), skills=list(d.get("skills", [])), away_until=d.get("away_until"))

    @property
    def label(self) -> str:
        return f"{self.id} ({self.name})" if self.name else self.id


def _as_dict(obj: Any) -> dict[str, Any]:
    """``dataclasses.asdict`` for the state's dataclasses, whose fields hold str, int, bool, None or JSON-like
    lists and dicts (copied deeply, as asdict does), without asdict's walk through every value."""
    return {name: copy.deepcopy(v) if isinstance(v, (list, dict)) else v
            for name, v in ((name, getattr(obj, name)) for name in _field_names(obj.__class__))}


@lru_cache(maxsize=None)
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


@dataclass
class City:
    """What changes about a city during a game (its name and hex are on the map)."""

    controller: str | None = None  # player id, None = neutral
    hostile: bool = False
    razed: int = 0
    income: int = 0  # base income: 7 for a home city, 1D6 rolled once for a minor (R-SET-5)
    trait: str | None = None  # a minor city's trait (R-SET-4)
    home_of: str | None = None

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "controller" and "controller" in self.__dict__:
            _CITY_EPOCH[0] += 1
        object.__setattr__(self, name, value)

    def to_dict(self) -> dict[str, Any]:
        return _as_dict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "City":
        return cls(**d)


@dataclass
class Player:
    id: str  # the home city's id, e.g. "athens"
    home: str
    name: str  # the people, e.g. "Athenians"
    abbr: str  # unit id prefix, e.g. "ATH"
    gold: int = 0
    hand: list[str] = field(default_factory=list)
    traits: list[str] = field(default_factory=list)  # the home city's own traits
    turn_roll: int = 0
    nmr_streak: int = 0
    eliminated_turn: int | None = None
    standing: dict[str, Any] = field(default_factory=dict)  # standing orders (R-STAND-1)
    used_once: list[str] = field(default_factory=list)  # one-time trait effects already taken (Silver Mines)

    def to_dict(self) -> dict[str, Any]:
        return _as_dict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Player":
        return cls(**{k: v for k, v in d.items() if k != "seat"})  # seats live in campaign.yaml (older files)


@dataclass
class Effect:
    """A lasting effect of a card or rule, counted in player-turns (e.g. "no income next turn")."""

    kind: str
    source: str  # card or rule id
    player: str | None  # who played it
    target: str | None = None  # player, city, hex or unit id it acts on
    value: int = 0
    until_turn: int = 0  # game turn ...
    until_player: str | None = None  # ... and the end of whose player-turn it lasts through

    def to_dict(self) -> dict[str, Any]:
        return _as_dict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Effect":
        return cls(**d)


@dataclass
class GameState:
    campaign: str
    turn: int  # the game turn about to be played (1..36); 37 once the game is over
    turn_order: list[str]
    players: dict[str, Player]
    cities: dict[str, City]
    units: dict[str, Unit]
    deck: list[str]
    discard: list[str] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    next_id: dict[str, int] = field(default_factory=dict)
    last_turn: int = 36
    finished: bool = False
    winner: str | None = None
    standings: list[dict[str, Any]] = field(default_factory=list)
    version: int = STATE_VERSION
    _at: dict[str, dict[str, Unit]] | None = field(default=None, repr=False, compare=False)
    _leaders: dict[str, Unit] | None = field(default=None, repr=False, compare=False)
    _leader_changes: int = field(default=0, repr=False, compare=False)  # leaders added or removed
    _away: tuple[Any, tuple[Unit, ...]] | None = field(default=None, repr=False, compare=False)
    _effects_cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)  # pbem.effects
    _owned: tuple[Any, dict[str | None, list[Unit]]] | None = field(default=None, repr=False, compare=False)
    _controlled: _Controlled | None = field(default=None, repr=False, compare=False)

    # -- the hex index: change a unit's hex only through place() --------------------------------------
    # {hex: {unit id: unit}}, each hex's units kept in id order (as units_at lists them), so that no question
    # has to sort them; a hex without units has no entry.
    def _index(self) -> dict[str, dict[str, Unit]]:
        if self._at is None:
            at: dict[str, dict[str, Unit]] = {}
            for u in sorted(self.units.values(), key=_unit_id):
                at.setdefault(u.hex, {})[u.id] = u
            self._at = at
        return self._at

    @staticmethod
    def _put(at: dict[str, dict[str, Unit]], hex_id: str, unit: Unit) -> None:
        """Enter ``unit`` in the hex index ``at`` under ``hex_id``, keeping that hex's units in id order."""
        here = at.get(hex_id)
        if here is None:
            at[hex_id] = {unit.id: unit}
        elif not here or unit.id > next(reversed(here)):  # the usual case: a newer unit, or a hex with one unit
            here[unit.id] = unit
        else:
            here[unit.id] = unit
            at[hex_id] = {uid: here[uid] for uid in sorted(here)}

    def _by_owner(self) -> dict[str | None, list[Unit]]:
        """Units by owner, in ``units`` order.  ``add_unit`` and ``remove_unit`` keep it up to date; it is
        rebuilt when any unit changed owner (``_UNIT_EPOCH``) or ``units`` was changed behind their back."""
        key = (_UNIT_EPOCH[0], len(self.units), id(self.units))
        owned = self._owned
        if owned is None or owned[0] != key:
            units: dict[str | None, list[Unit]] = {}
            for u in self.units.values():
                units.setdefault(u.owner, []).append(u)
            owned = self._owned = (key, units)
        return owned[1]

    def _owners_edit(self, unit: Unit, added: bool) -> None:
        owned = self._owned
        if owned is None:
            return
        if owned[0] != (_UNIT_EPOCH[0], len(self.units) + (-1 if added else 1), id(self.units)):
            self._owned = None  # stale anyway: rebuilt when next asked
            return
        mine = owned[1].setdefault(unit.owner, [])
        if added:
            mine.append(unit)
        else:  # by identity: Unit's dataclass == compares every field
            del mine[next(i for i, u in enumerate(mine) if u is unit)]
        self._owned = ((_UNIT_EPOCH[0], len(self.units), id(self.units)), owned[1])

    def _by_controller(self) -> dict[str | None, list[str]]:
        """City ids by controller, in ``cities`` order.  When any city changed controller (``_CITY_EPOCH``),
        the cities whose controller is not the one indexed move from their old controller's list to the new
        one's, and only those players' sorted lists are forgotten; rebuilt whole when ``cities`` itself changed
        (another dict, or cities added or removed)."""
        cities = self.cities
        key = (_CITY_EPOCH[0], len(cities), id(cities))
        found = self._controlled
        if found is not None and found.key == key:
            return found.by
        if found is None or found.key[1:] != key[1:] or not found.update(cities):
            found = self._controlled = _Controlled(cities)
        found.key = key
        return found.by

    def _leader_index(self) -> dict[str, Unit]:
        if self._leaders is None:
            self._leaders = {uid: u for uid, u in self.units.items() if u.type is UnitType.LEADER}
        return self._leaders

    def leaders(self) -> Iterable[Unit]:
        """Every Leader unit, in play or away, in the order of ``units`` (a unit's type never changes)."""
        return self._leader_index().values()

    def away_leaders(self) -> tuple[Unit, ...]:
        """The leaders away from the game (``away_until`` set), in the order of ``units``.  Rebuilt when any
        leader went away or came back (``_AWAY_EPOCH``) or a leader was added or removed (``_leader_changes``)."""
        key = (_AWAY_EPOCH[0], self._leader_changes)
        away = self._away
        if away is None or away[0] != key:
            away = self._away = (key, tuple(u for u in self.leaders() if u.away_until is not None))
        return away[1]

    def place(self, unit: Unit, hex_id: str) -> None:
        """Move ``unit`` (not its cargo) to ``hex_id``, keeping the index."""
        at = self._index()
        here = at.get(unit.hex)
        if here is not None:
            here.pop(unit.id, None)
            if not here:
                del at[unit.hex]
        unit.hex = hex_id
        self._put(at, hex_id, unit)

    def remove_unit(self, unit_id: str) -> Unit:
        unit = self.units.pop(unit_id)
        self._owners_edit(unit, False)
        if unit.type is UnitType.LEADER:
            self._leader_changes += 1
        if self._leaders is not None:
            self._leaders.pop(unit_id, None)
        at = self._index()
        here = at.get(unit.hex)
        if here is not None:
            here.pop(unit_id, None)
            if not here:
                del at[unit.hex]
        return unit

    # -- ids ---------------------------------------------------------------------------------------
    def new_unit_id(self, prefix: str, utype: UnitType) -> str:
        key = f"{prefix}-{utype.letter}"
        n = self.next_id.get(key, 0) + 1
        self.next_id[key] = n
        return f"{key}{n}"

    def add_unit(self, unit: Unit) -> Unit:
        if unit.id in self.units:
            raise ValueError(f"unit id {unit.id} exists")
        self.units[unit.id] = unit
        self._owners_edit(unit, True)
        if self._at is not None:
            self._put(self._at, unit.hex, unit)
        if unit.type is UnitType.LEADER:
            self._leader_changes += 1
            if self._leaders is not None:
                self._leaders[unit.id] = unit
        return unit

    # -- queries -----------------------------------------------------------------------------------
    def units_at(self, hex_id: str) -> list[Unit]:
        """Units on the board in ``hex_id`` (leaders away from the game are not), in id order."""
        here = (self._at or self._index()).get(hex_id)
        if not here:
            return []
        return [u for u in here.values() if u.away_until is None]  # the index keeps them in id order

    def occupied_hexes(self) -> list[str]:
        return sorted(self._index())

    def units_of(self, player: str) -> list[Unit]:
        return list(self._by_owner().get(player, ()))

    def cargo(self, carrier_id: str) -> list[Unit]:
        return [u for u in self.units.values() if u.carried_by == carrier_id]

    def controlled_cities(self, player: str) -> list[str]:
        return list(self._by_controller().get(player, ()))

    def controlled_sorted(self, player: str) -> tuple[str, ...]:
        """The ids of the cities ``player`` controls, sorted."""
        by = self._by_controller()
        done = self._controlled.sorted  # type: ignore[union-attr]
        found = done.get(player)
        if found is None:
            found = done[player] = tuple(sorted(by.get(player, ())))
        return found

    def hex_units(self, hex_id: str):
        """The units in a hex in no particular order (for any()/all() questions; use units_at for order)."""
        here = (self._at or self._index()).get(hex_id)
        return here.values() if here else ()

    def active_players(self) -> list[str]:
        return [p for p in self.turn_order if self.players[p].eliminated_turn is None]

    # -- serialisation -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "campaign": self.campaign,
            "turn": self.turn,
            "last_turn": self.last_turn,
            "turn_order": list(self.turn_order),
            "options": dict(self.options),
            "players": {k: v.to_dict() for k, v in self.players.items()},
            "cities": {k: v.to_dict() for k, v in self.cities.items()},
            "units": {k: v.to_dict() for k, v in self.units.items()},
            "deck": list(self.deck),
            "discard": list(self.discard),
            "effects": [e.to_dict() for e in self.effects],
            "next_id": dict(self.next_id),
            "finished": self.finished,
            "winner": self.winner,
            "standings": list(self.standings),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "GameState":
        if d.get("version") != STATE_VERSION:
            raise DataError(f"state version {d.get('version')!r} is not {STATE_VERSION}; "
                            f"this pbem cannot read it")
        return cls(
            campaign=d["campaign"], turn=d["turn"], last_turn=d.get("last_turn", 36),
            turn_order=list(d["turn_order"]), options=dict(d.get("options", {})),
            players={k: Player.from_dict(v) for k, v in d["players"].items()},
            cities={k: City.from_dict(v) for k, v in d["cities"].items()},
            units={k: Unit.from_dict(v) for k, v in d["units"].items()},
            deck=list(d["deck"]), discard=list(d.get("discard", [])),
            effects=[Effect.from_dict(e) for e in d.get("effects", [])],
            next_id=dict(d.get("next_id", {})), finished=d.get("finished", False), winner=d.get("winner"),
            standings=list(d.get("standings", [])), version=d["version"],
        )

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str) -> "GameState":
        return cls.from_dict(json.loads(text))

    def copy(self) -> "GameState":
        return GameState.from_dict(json.loads(json.dumps(self.to_dict())))


class _Controlled:
    """GameState's index of city ids by controller (``GameState._by_controller``), with what it was built from."""

    def __init__(self, cities: dict[str, City]) -> None:
        self.key: tuple[int, int, int] | None = None  # (_CITY_EPOCH, len(cities), id(cities)) when last in step
        self.by: dict[str | None, list[str]] = {}  # controller -> city ids, in ``cities`` order
        for cid, c in cities.items():
            self.by.setdefault(c.controller, []).append(cid)
        self.sorted: dict[str | None, tuple[str, ...]] = {}  # controller -> the same ids sorted, once asked
        self.controller = {cid: c.controller for cid, c in cities.items()}  # each city's controller as indexed
        self.ids = list(cities)
        self.order = {cid: i for i, cid in enumerate(self.ids)}  # a city's place in ``cities``

    def update(self, cities: dict[str, City]) -> bool:
        """Move the cities whose controller changed; False if ``cities`` holds other city ids than indexed, or
        in another order."""
        if list(cities) != self.ids:
            return False
        was = self.controller
        for cid, c in cities.items():
            new = c.controller
            old = was[cid]
            if new != old:
                mine = self.by[old]
                mine.remove(cid)
                if not mine:
                    del self.by[old]
                bisect.insort(self.by.setdefault(new, []), cid, key=self.order.__getitem__)
                self.sorted.pop(old, None)
                self.sorted.pop(new, None)
                was[cid] = new
        return True


def iter_cards(state: GameState) -> Iterator[tuple[str, str]]:
    """Every card with the pile it is in: ('deck'|'discard'|'hand:<player>', card)."""
    for c in state.deck:
        yield "deck", c
    for c in state.discard:
        yield "discard", c
    for p in state.players.values():
        for c in p.hand:
            yield f"hand:{p.id}", c


def _unit_id(unit: Unit) -> str:
    return unit.id


@lru_cache(maxsize=65536)
def id_order(uid: str) -> tuple[str, str, int]:
    """The sort key of a unit id in a human order: ATH-A2 before ATH-A10."""
    head, _, num = uid.rpartition("-")
    letters = num.rstrip("0123456789")
    digits = num[len(letters):]
    return head, letters, int(digits) if digits else 0


def sorted_ids(ids: Iterable[str]) -> list[str]:
    """Unit ids in a human order: ATH-A2 before ATH-A10."""
    return sorted(ids, key=id_order)
