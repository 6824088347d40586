"""The game state: plain dataclasses that round-trip through JSON (R-UNIT-1, R-SET-*).

One ``GameState`` holds everything the rules need between turns.  It is saved as versioned JSON with
sorted keys, so the same game gives byte-identical files.  The map is not stored in the state: the
campaign folder keeps its own copy of the map file and the loaded ``GameMap`` is attached at load time.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any, Iterable, Iterator

from .errors import DataError

STATE_VERSION = 1


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

    @property
    def letter(self) -> str:
        return _LETTERS[self]

    @property
    def is_ship(self) -> bool:
        return self in (UnitType.FLEET, UnitType.TRANSPORT)

    @property
    def counts_for_stacking(self) -> bool:
        """R-UNIT-2: Armies, Fleets and Transports (Rowers count as Armies when not aboard a ship)."""
        return self in (UnitType.ARMY, UnitType.ROWERS, UnitType.FLEET, UnitType.TRANSPORT)

    @property
    def needs_upkeep(self) -> bool:
        return self in (UnitType.ARMY, UnitType.ROWERS)


_LETTERS = {UnitType.ARMY: "A", UnitType.ROWERS: "R", UnitType.FLEET: "F", UnitType.TRANSPORT: "T",
            UnitType.BAGGAGE: "B", UnitType.LEADER: "L", UnitType.PIRATE: "P", UnitType.BARBARIAN: "X"}
TYPE_BY_LETTER = {v: k for k, v in _LETTERS.items()}

# The seed's unit table: recruitment cost and upkeep (R-UNIT-1).
RECRUIT_COST = {UnitType.ARMY: 2, UnitType.ROWERS: 2, UnitType.BAGGAGE: 1, UnitType.TRANSPORT: 2,
                UnitType.FLEET: 4}
UPKEEP_COST = {UnitType.ARMY: 1, UnitType.ROWERS: 1}


@dataclass
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
        return cls(id=d["id"], type=UnitType(d["type"]), owner=d.get("owner"), hex=d["hex"],
                   carried_by=d.get("carried_by"), starvation=d.get("starvation", 0), value=d.get("value", 1),
                   name=d.get("name"), skills=list(d.get("skills", [])), away_until=d.get("away_until"))

    @property
    def label(self) -> str:
        return f"{self.id} ({self.name})" if self.name else self.id


@dataclass
class City:
    """What changes about a city during a game (its name and hex are on the map)."""

    controller: str | None = None  # player id, None = neutral
    hostile: bool = False
    razed: int = 0
    income: int = 0  # base income: 7 for a home city, 1D6 rolled once for a minor (R-SET-5)
    trait: str | None = None  # a minor city's trait (R-SET-4)
    home_of: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

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
        return asdict(self)

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
        return asdict(self)

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

    # -- the hex index: change a unit's hex only through place() --------------------------------------
    def _index(self) -> dict[str, dict[str, Unit]]:
        if self._at is None:
            at: dict[str, dict[str, Unit]] = {}
            for u in self.units.values():
                at.setdefault(u.hex, {})[u.id] = u
            self._at = at
        return self._at

    def place(self, unit: Unit, hex_id: str) -> None:
        """Move ``unit`` (not its cargo) to ``hex_id``, keeping the index."""
        at = self._index()
        here = at.get(unit.hex)
        if here is not None:
            here.pop(unit.id, None)
            if not here:
                del at[unit.hex]
        unit.hex = hex_id
        at.setdefault(hex_id, {})[unit.id] = unit

    def remove_unit(self, unit_id: str) -> Unit:
        unit = self.units.pop(unit_id)
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
        if self._at is not None:
            self._at.setdefault(unit.hex, {})[unit.id] = unit
        return unit

    # -- queries -----------------------------------------------------------------------------------
    def units_at(self, hex_id: str) -> list[Unit]:
        """Units on the board in ``hex_id`` (leaders away from the game are not), in id order."""
        here = self._index().get(hex_id)
        if not here:
            return []
        return [here[k] for k in sorted(here) if here[k].away_until is None]

    def occupied_hexes(self) -> list[str]:
        return sorted(self._index())

    def units_of(self, player: str) -> list[Unit]:
        return [u for u in self.units.values() if u.owner == player]

    def cargo(self, carrier_id: str) -> list[Unit]:
        return [u for u in self.units.values() if u.carried_by == carrier_id]

    def controlled_cities(self, player: str) -> list[str]:
        return [cid for cid, c in self.cities.items() if c.controller == player]

    def hex_units(self, hex_id: str):
        """The units in a hex in no particular order (for any()/all() questions; use units_at for order)."""
        here = self._index().get(hex_id)
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


def iter_cards(state: GameState) -> Iterator[tuple[str, str]]:
    """Every card with the pile it is in: ('deck'|'discard'|'hand:<player>', card)."""
    for c in state.deck:
        yield "deck", c
    for c in state.discard:
        yield "discard", c
    for p in state.players.values():
        for c in p.hand:
            yield f"hand:{p.id}", c


def sorted_ids(ids: Iterable[str]) -> list[str]:
    """Unit ids in a human order: ATH-A2 before ATH-A10."""
    def key(uid: str):
        head, _, num = uid.rpartition("-")
        letters = num.rstrip("0123456789")
        digits = num[len(letters):]
        return head, letters, int(digits) if digits else 0
    return sorted(ids, key=key)
