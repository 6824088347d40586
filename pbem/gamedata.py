"""Maps and the seed's tables, loaded from data files and checked by JSON Schema (R-MAP-3, R-SET-3..6).

Nothing here knows a rule beyond what a table says; the data live in ``pbem/data`` and ``schemas/``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from . import yamlio
from .errors import DataError, MapError
from .hexgrid import Grid
from .resources import folder

DATA = resources.files("pbem.data")
SCHEMAS = folder("schemas")
DEFAULT_MAP = "aegean"


def schema(name: str) -> dict[str, Any]:
    return _schema(name)


@lru_cache(maxsize=None)
def _schema(name: str) -> dict[str, Any]:
    return json.loads(SCHEMAS.joinpath(name).read_text(encoding="utf-8"))


def json_path(path) -> str:
    """('cities', 3, 'hex') -> 'cities[3].hex'"""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def validate(data: Any, schema_name: str, source: str, located: yamlio.Located | None = None,
             error: type[DataError] = DataError, definition: str | None = None) -> None:
    """Raise ``error`` naming the file (and line) and the first bad entry, if ``data`` breaks the schema."""
    sch = schema(schema_name)
    if definition:
        sch = {**sch, "$ref": f"#/$defs/{definition}"}
    validator = jsonschema.Draft202012Validator(sch)
    errors = sorted(validator.iter_errors(data), key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
    if not errors:
        return
    err = errors[0]
    where = source
    if located is not None:
        mark = located.where(tuple(err.absolute_path))
        if mark:
            where = f"{source}:{mark[0]}"
    raise error(f"{where}: {json_path(err.absolute_path)}: {short_message(err)}")


def short_message(err: jsonschema.ValidationError, limit: int = 60) -> str:
    """jsonschema's message with the value at fault cut short: a file given by mistake (``--map /etc/passwd``)
    is named, never dumped into the line."""
    message = err.message
    shown = repr(err.instance)
    if len(shown) > limit and shown in message:
        message = message.replace(shown, shown[:limit] + "...", 1)
    return message[:300]


# -- terrain -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Terrain:
    id: str
    name: str
    char: str
    move_cost: int | None
    stack: int | None
    defense: int | None
    land: bool
    ships: str  # sea | dock | beach | none

    @property
    def passable(self) -> bool:
        return self.move_cost is not None


@lru_cache(maxsize=None)
def terrain_table() -> dict[str, Terrain]:
    raw = yamlio.load_data(DATA.joinpath("tables/terrain.yaml"), "terrain.yaml")
    out = {}
    for row in raw["terrain"]:
        row = {k: v for k, v in row.items() if k != "note"}
        out[row["id"]] = Terrain(**row)
    return out


# -- maps ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class City:
    id: str
    name: str
    hex: str
    kind: str  # city_state | minor
    abbr: str | None = None
    people: str | None = None
    income: int | None = None

    @property
    def is_city_state(self) -> bool:
        return self.kind == "city_state"


@dataclass
class GameMap:
    """A loaded, checked map: terrain per hex, cities, and precomputed neighbours."""

    name: str
    grid: Grid
    terrain: dict[str, Terrain]
    cities: dict[str, City]
    source: str = ""
    neighbours: dict[str, tuple[str, ...]] = field(default_factory=dict)
    city_at: dict[str, City] = field(default_factory=dict)
    coastal: frozenset[str] = frozenset()
    offsets: dict[str, tuple[int, int]] = field(default_factory=dict)
    around_city: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        ids = {}
        for col, row in self.grid:
            ids[(col, row)] = self.grid.id(col, row)
        self.offsets = {h: o for o, h in ids.items()}
        self.neighbours = {ids[o]: tuple(ids[n] for n in self.grid.neighbours(*o)) for o in ids}
        self.city_at = {c.hex: c for c in self.cities.values()}
        self.coastal = frozenset(h for h, t in self.terrain.items()
                                 if t.land and any(not self.terrain[n].land for n in self.neighbours[h]))
        # a city's hex and its neighbours: where a siege is looked for (R-PH-REV)
        self.around_city = {cid: (c.hex, *self.neighbours[c.hex]) for cid, c in self.cities.items()}
        self._by_key: dict[str, City] = {}
        for c in self.cities.values():  # the first city in map order wins, by id or by name
            self._by_key.setdefault(c.id, c)
            self._by_key.setdefault(c.name.lower(), c)

    # terrain questions (R-MAP-2)
    def is_water(self, h: str) -> bool:
        return not self.terrain[h].land

    def is_land(self, h: str) -> bool:
        return self.terrain[h].land

    def passable(self, h: str) -> bool:
        return self.terrain[h].passable

    def ship_may_enter(self, h: str) -> bool:
        """Water, or a coastal City, Sandy Coast or Fishing Village hex."""
        t = self.terrain[h]
        return t.ships == "sea" or (t.ships in ("dock", "beach") and h in self.coastal)

    def ship_may_stop(self, h: str) -> bool:
        """Where ships end their second move without a navigation roll (R-PH-SECOND)."""
        t = self.terrain[h]
        return t.ships in ("dock", "beach") and h in self.coastal

    def on_edge(self, h: str) -> bool:
        return self.grid.on_edge(*self.offsets[h])

    def distance(self, a: str, b: str) -> int:
        from .hexgrid import distance
        return distance(self.offsets[a], self.offsets[b])

    def is_coastal_city(self, city_id: str) -> bool:
        return self.cities[city_id].hex in self.coastal

    def landlocked(self, city_id: str) -> bool:
        return not self.is_coastal_city(city_id)

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours[a]

    def city_states(self) -> list[City]:
        return [c for c in self.cities.values() if c.is_city_state]

    def find_city(self, name: str) -> City | None:
        """By id or by name, case-insensitive."""
        return self._by_key.get(name.strip().lower())


def load_map(path: Path | str | None = None) -> GameMap:
    """Load and check a map file; ``None`` is the default Aegean.  Raises ``MapError`` naming the entry."""
    if path is None:
        return _default_map()
    path = Path(path)
    source = str(path)
    try:
        located = yamlio.load(path, source, max_bytes=4 * 1024 * 1024)
    except yamlio.YamlError as exc:
        raise MapError(str(exc)) from None
    return build_map(located.data, source, located)


@lru_cache(maxsize=None)
def _default_map() -> GameMap:
    source = f"pbem/data/maps/{DEFAULT_MAP}.yaml"
    located = yamlio.load(DATA.joinpath(f"maps/{DEFAULT_MAP}.yaml"), source, max_bytes=4 * 1024 * 1024)
    return build_map(located.data, source, located)


def build_map(data: Any, source: str, located: yamlio.Located | None = None) -> GameMap:
    validate(data, "map.schema.json", source, located, MapError)

    def line_of(*path) -> str:
        mark = located.where(path) if located else None
        return f"{source}:{mark[0]}" if mark else source

    width, height = data["width"], data["height"]
    grid = Grid(width, height)
    by_char = {t.char: t for t in terrain_table().values()}
    rows = data["terrain"].rstrip("\n").split("\n")
    if len(rows) != height:
        raise MapError(f"{line_of('terrain')}: terrain has {len(rows)} rows; height says {height}")
    terrain: dict[str, Terrain] = {}
    for r, line in enumerate(rows, start=1):
        line = line.rstrip()
        if len(line) != width:
            raise MapError(f"{source}: terrain row {r} has {len(line)} hexes; width says {width}")
        for c, ch in enumerate(line, start=1):
            if ch not in by_char:
                known = " ".join(f"{k}={v.id}" for k, v in by_char.items())
                raise MapError(f"{source}: terrain row {r}, column {c}: unknown code {ch!r} (known: {known})")
            terrain[grid.id(c, r)] = by_char[ch]
    cities: dict[str, City] = {}
    names: set[str] = set()
    hexes: dict[str, str] = {}
    for i, entry in enumerate(data["cities"]):
        where = line_of("cities", i)
        cid = entry["id"]
        if cid in cities:
            raise MapError(f"{where}: cities[{i}]: the id {cid!r} is used twice")
        if entry["name"].lower() in names:
            raise MapError(f"{where}: cities[{i}] ({cid}): the name {entry['name']!r} is used twice")
        try:
            grid.parse(entry["hex"])
        except ValueError as exc:
            raise MapError(f"{where}: cities[{i}] ({cid}): {exc}") from None
        if entry["hex"] in hexes:
            raise MapError(f"{where}: cities[{i}] ({cid}): hex {entry['hex']} already holds {hexes[entry['hex']]}")
        if terrain[entry["hex"]].id != "city":
            raise MapError(f"{where}: cities[{i}] ({cid}): hex {entry['hex']} is {terrain[entry['hex']].name}, "
                           f"not a City hex ('C' in the terrain)")
        if entry["kind"] == "city_state" and "abbr" not in entry:
            raise MapError(f"{where}: cities[{i}] ({cid}): a city state needs an abbr (e.g. ATH), used in unit ids")
        if entry["kind"] == "city_state" and "income" in entry:
            raise MapError(f"{where}: cities[{i}] ({cid}): income is fixed at 7 for city states; remove it")
        cities[cid] = City(**entry)
        names.add(entry["name"].lower())
        hexes[entry["hex"]] = cid
    for h, t in terrain.items():
        if t.id == "city" and h not in hexes:
            raise MapError(f"{source}: hex {h} is a City hex but no entry of cities stands on it")
    abbrs = [c.abbr for c in cities.values() if c.abbr]
    dup = {a for a in abbrs if abbrs.count(a) > 1}
    if dup:
        raise MapError(f"{source}: the abbr {sorted(dup)[0]} is used by two cities")
    if len([c for c in cities.values() if c.is_city_state]) < 2:
        raise MapError(f"{source}: a map needs at least 2 city states (kind: city_state)")
    return GameMap(data["name"], grid, terrain, cities, source)


# -- the seed's tables ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Skill:
    id: str
    name: str
    roll: tuple[int, int]
    text: str
    effects: tuple[dict, ...]


@dataclass(frozen=True)
class Trait:
    id: str
    name: str
    roll: int
    text: str
    effects: tuple[dict, ...]


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    text: str
    timing: dict
    target: str
    effects: tuple[dict, ...]


@dataclass(frozen=True)
class Tables:
    terrain: dict[str, Terrain]
    skills: dict[str, Skill]
    traits: dict[str, Trait]
    cards: dict[str, Card]
    missing_traits: tuple[int, ...]
    leader_names: tuple[str, ...]

    def skill_for_roll(self, roll: int) -> Skill:
        for s in self.skills.values():
            if s.roll[0] <= roll <= s.roll[1]:
                return s
        raise DataError(f"skills.yaml: no skill for 1D100 roll {roll}")

    def trait_for_roll(self, roll: int) -> Trait | None:
        """None for a D66 value the table lacks (64: re-roll, R-SET-4)."""
        for t in self.traits.values():
            if t.roll == roll:
                return t
        return None


def _load_table(name: str, key: str) -> list[dict]:
    source = f"pbem/data/tables/{name}"
    located = yamlio.load(DATA.joinpath(f"tables/{name}"), source, max_bytes=4 * 1024 * 1024)
    validate(located.data, "tables.schema.json", source, located)
    return located.data


@lru_cache(maxsize=None)
def tables() -> Tables:
    skills_raw = _load_table("skills.yaml", "skills")
    traits_raw = _load_table("traits.yaml", "traits")
    cards_raw = _load_table("cards.yaml", "cards")
    names = yamlio.load_data(DATA.joinpath("names/leaders.yaml"), "leaders.yaml")["names"]
    skills = {s["id"]: Skill(s["id"], s["name"], tuple(s["roll"]), s["text"], tuple(s.get("effects", ())))
              for s in skills_raw["skills"]}
    traits = {t["id"]: Trait(t["id"], t["name"], t["roll"], t["text"], tuple(t.get("effects", ())))
              for t in traits_raw["traits"]}
    cards = {c["id"]: Card(c["id"], c["name"], c["text"], c.get("timing", {}), c.get("target", "none"),
                           tuple(c.get("effects", ()))) for c in cards_raw["cards"]}
    return Tables(terrain_table(), skills, traits, cards, tuple(traits_raw.get("missing", ())), tuple(names))
