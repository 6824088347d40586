"""The default map, pbem/data/maps/aegean.yaml (R-MAP-1..3, R-SET-1, R-SET-2).

These tests read the map with ``yaml.safe_load`` and use only pbem.hexgrid for geometry, so they check the data
file on its own: its shape, its cities, and that it is a playable loose Aegean (no two home cities adjacent, two
landlocked city states, every city reachable by land or sea, passes between mountains, beaches on islands).
"""
from __future__ import annotations

import json
from collections import Counter, deque
from itertools import combinations
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from pbem.hexgrid import Grid, distance

ROOT = Path(__file__).resolve().parents[1]
MAP_PATH = ROOT / "pbem" / "data" / "maps" / "aegean.yaml"
TERRAIN_PATH = ROOT / "pbem" / "data" / "tables" / "terrain.yaml"
SCHEMA_PATH = ROOT / "schemas" / "map.schema.json"

WATER, MOUNTAINS, PASS, CITY, SANDY, VILLAGE, ROCKY, SWAMP, FARMS = "~", "M", "p", "C", "S", "v", "r", "s", "f"
SHIPS_MAY_ENTER = {CITY, SANDY, VILLAGE}  # R-MAP-2: besides Water, ships enter coastal City, Sandy Coast, Fishing Village

# R-SET-1 and the seed's list: id -> (name, abbr, people).  The seed's "Thebians" and "Tracians" are spelt as
# players spell them (docs/rules.md, R-SET-1).
CITY_STATES = {
    "athens": ("Athens", "ATH", "Athenians"),
    "sparta": ("Sparta", "SPA", "Spartans"),
    "troy": ("Troy", "TRO", "Trojans"),
    "archea": ("Archea", "ARC", "Archeans"),
    "ionia": ("Ionia", "ION", "Ionians"),
    "thebes": ("Thebes", "THE", "Thebans"),
    "corinth": ("Corinth", "COR", "Corinthians"),
    "thrace": ("Thrace", "THR", "Thracians"),
    "crete": ("Crete", "CRE", "Cretans"),
    "doria": ("Doria", "DOR", "Dorians"),
    "amazonia": ("Amazonia", "AMA", "Amazonians"),
    "macedonia": ("Macedonia", "MAC", "Macedonians"),
}
LANDLOCKED = {"thebes", "sparta"}

# Greek (and Greek-colonised) cities that existed about 430 BC; a minor city's name must be one of these,
# which catches typos and anachronisms (no Alexandria, no Thessalonica, no Constantinople).
CITIES_OF_430_BC = {
    "Abdera", "Abydos", "Aegina", "Amphipolis", "Argos", "Byzantium", "Chalcis", "Chios", "Corcyra", "Cyzicus",
    "Delos", "Delphi", "Elis", "Ephesus", "Eretria", "Gortyn", "Halicarnassus", "Knossos", "Larissa", "Lemnos",
    "Megara", "Melos", "Methone", "Miletus", "Mytilene", "Naxos", "Olympia", "Olynthus", "Paros", "Pherae",
    "Phocaea", "Potidaea", "Pylos", "Rhodes", "Samos", "Sardis", "Sestos", "Smyrna", "Thasos", "Thera",
}


# --- a small reader, independent of pbem.gamedata -------------------------------------------------------------

class MapData:
    def __init__(self, raw: dict):
        self.raw = raw
        self.width, self.height = raw["width"], raw["height"]
        self.rows = raw["terrain"].splitlines()
        self.grid = Grid(self.width, self.height)
        self.cities = raw["cities"]

    def t(self, hx) -> str:
        col, row = hx
        return self.rows[row - 1][col - 1]

    def hexes(self, codes) -> list:
        return [h for h in self.grid if self.t(h) in codes]

    def nbs(self, hx) -> list:
        return self.grid.neighbours(*hx)

    def nb_codes(self, hx) -> list[str]:
        return [self.t(n) for n in self.nbs(hx)]

    def coastal(self, hx) -> bool:
        """R-MAP-2: a coastal land hex touches a Water hex."""
        return WATER in self.nb_codes(hx)

    def hex_of(self, city: dict):
        return self.grid.parse(city["hex"])

    def city_states(self) -> dict:
        return {c["id"]: self.hex_of(c) for c in self.cities if c["kind"] == "city_state"}

    def minors(self) -> dict:
        return {c["id"]: self.hex_of(c) for c in self.cities if c["kind"] == "minor"}

    def passable_land(self, hx) -> bool:
        return self.t(hx) not in (WATER, MOUNTAINS)

    def linked(self, a, b) -> bool:
        """One step of the movement graph: land to land (neither Water nor Mountains), sea to sea, and sea to or
        from a hex ships may enter (City, Sandy Coast, Fishing Village)."""
        ta, tb = self.t(a), self.t(b)
        if MOUNTAINS in (ta, tb):
            return False
        if ta != WATER and tb != WATER:
            return True
        if ta == WATER and tb == WATER:
            return True
        return (ta if tb == WATER else tb) in SHIPS_MAY_ENTER

    def reachable(self, start, step=None) -> set:
        step = step or self.linked
        seen, todo = {start}, deque([start])
        while todo:
            h = todo.popleft()
            for n in self.nbs(h):
                if n not in seen and step(h, n):
                    seen.add(n)
                    todo.append(n)
        return seen

    def components(self, members: set, step) -> list[set]:
        left, out = set(members), []
        while left:
            comp = self.reachable(next(iter(left)), lambda a, b: b in members and step(a, b))
            out.append(comp)
            left -= comp
        return out


def load_map(path: Path = MAP_PATH) -> MapData:
    with open(path, encoding="utf-8") as f:
        return MapData(yaml.safe_load(f))


@pytest.fixture(scope="module")
def m() -> MapData:
    return load_map()


@pytest.fixture(scope="module")
def codes() -> set[str]:
    with open(TERRAIN_PATH, encoding="utf-8") as f:
        return {row["char"] for row in yaml.safe_load(f)["terrain"]}


# --- format ---------------------------------------------------------------------------------------------------

def test_map_file_matches_the_map_schema(m):
    with open(SCHEMA_PATH, encoding="utf-8") as f:
        schema = json.load(f)
    errors = sorted(Draft202012Validator(schema).iter_errors(m.raw), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]


def test_map_is_30_by_20_with_one_terrain_line_per_row_of_known_codes(m, codes):
    assert (m.width, m.height) == (30, 20)
    assert m.raw["name"] == "Aegean, 430 BC"
    assert len(m.rows) == m.height
    for i, line in enumerate(m.rows, 1):
        assert len(line) == m.width, f"row {i} has {len(line)} characters"
        unknown = set(line) - codes
        assert not unknown, f"row {i}: unknown terrain codes {unknown}"


def test_every_terrain_type_is_used_several_times_and_water_dominates(m, codes):
    assert len(codes) == 12
    count = Counter("".join(m.rows))
    assert set(count) == codes
    assert all(count[c] >= 3 for c in codes), count
    assert count.most_common(1)[0][0] == WATER
    assert count[WATER] >= 0.45 * m.width * m.height, count


# --- cities ---------------------------------------------------------------------------------------------------

def test_every_city_hex_has_exactly_one_city_and_every_city_stands_on_one(m):
    hexes = [m.hex_of(c) for c in m.cities]
    assert len(hexes) == len(set(hexes)), "two cities on one hex"
    assert set(hexes) == set(m.hexes(CITY))


def test_city_ids_and_names_are_unique_slugs(m):
    ids = [c["id"] for c in m.cities]
    names = [c["name"] for c in m.cities]
    assert len(ids) == len(set(ids))
    assert len(names) == len(set(names))
    for c in m.cities:
        assert c["id"].isascii() and c["id"].isidentifier() and c["id"] == c["id"].lower(), c["id"]
        assert c["id"] == c["name"].lower().replace(" ", "_"), c


def test_the_twelve_city_states_of_the_seed(m):
    states = {c["id"]: (c["name"], c.get("abbr"), c.get("people")) for c in m.cities if c["kind"] == "city_state"}
    assert states == CITY_STATES
    assert len({abbr for _, abbr, _ in states.values()}) == 12


def test_minor_cities_are_cities_of_430_bc_with_rolled_incomes(m):
    minors = [c for c in m.cities if c["kind"] == "minor"]
    assert len(minors) >= 14
    assert {c["kind"] for c in m.cities} == {"city_state", "minor"}
    for c in minors:
        assert c["name"] in CITIES_OF_430_BC, c["name"]
        assert "abbr" not in c and "people" not in c, c
        assert "income" not in c, "this map leaves minor incomes to the set-up roll (R-SET-5)"
    # the examples R-MAP-1 names are all on the map
    names = {c["name"] for c in minors}
    assert {"Megara", "Argos", "Chalcis", "Miletus", "Rhodes", "Naxos", "Samos", "Mytilene", "Delphi", "Pylos",
            "Aegina"} <= names


def test_no_two_city_states_are_adjacent_so_twelve_can_play(m):
    # R-SET-1: home cities may not be adjacent; the map keeps them at least 3 hexes apart.
    for (a, ha), (b, hb) in combinations(m.city_states().items(), 2):
        assert distance(ha, hb) >= 3, f"{a} and {b} are {distance(ha, hb)} hexes apart"


def test_no_two_cities_of_any_kind_are_adjacent(m):
    for a, b in combinations(m.cities, 2):
        assert distance(m.hex_of(a), m.hex_of(b)) >= 2, (a["id"], b["id"])


def test_every_city_state_has_minor_cities_within_reach(m):
    minors = m.minors()
    for cid, h in m.city_states().items():
        near = [mid for mid, mh in minors.items() if distance(h, mh) <= 6]
        assert len(near) >= 2, f"{cid} has only {near} within 6 hexes"


def test_city_states_sit_in_their_part_of_the_aegean(m):
    cs = m.city_states()
    west = {"athens", "sparta", "thebes", "corinth", "archea"}
    east = {"troy", "ionia", "doria", "amazonia"}
    assert all(cs[c][0] <= 14 for c in west)
    assert all(cs[c][0] >= 22 for c in east)
    assert all(cs[c][1] <= 5 for c in ("macedonia", "thrace"))
    assert cs["macedonia"][0] < cs["thrace"][0]
    assert cs["crete"][1] >= 17
    assert cs["sparta"][1] > cs["corinth"][1] > cs["thebes"][1]  # Peloponnese south of the Isthmus
    assert cs["troy"][1] < cs["ionia"][1] < cs["doria"][1]


# --- coasts ---------------------------------------------------------------------------------------------------

def test_exactly_thebes_and_sparta_are_landlocked(m):
    # R-SET-2: a landlocked home city starts with 4 Armies instead of Armies, Rowers and Fleets.
    landlocked = {cid for cid, h in m.city_states().items() if not m.coastal(h)}
    assert landlocked == LANDLOCKED


def test_most_cities_are_ports(m):
    coastal = [c["id"] for c in m.cities if m.coastal(m.hex_of(c))]
    assert len(coastal) >= 20


def test_beaches_fishing_villages_and_rocky_coasts_touch_the_sea(m):
    for h in m.hexes({SANDY, VILLAGE, ROCKY}):
        assert m.coastal(h), f"{m.t(h)} at {m.grid.id(*h)} has no Water neighbour"


def test_swamps_lie_at_river_mouths_on_the_coast(m):
    for h in m.hexes({SWAMP}):
        assert m.coastal(h), f"swamp {m.grid.id(*h)} is inland"


def test_city_states_can_march_out_and_put_to_sea(m):
    for cid, h in m.city_states().items():
        land = [n for n in m.nbs(h) if m.passable_land(n)]
        assert len(land) >= 2, f"{cid}: only {len(land)} passable land neighbours"
        if cid not in LANDLOCKED:
            assert m.coastal(h), cid


def test_every_city_state_has_farmland_nearby(m):
    for cid, h in m.city_states().items():
        assert any(m.t(x) == FARMS for x in m.grid if 0 < distance(h, x) <= 2), cid


# --- the map edge (R-MAP-3) -----------------------------------------------------------------------------------

def test_the_edge_is_mostly_sea_with_some_land_for_barbarians(m):
    ring = [h for h in m.grid if m.grid.on_edge(*h)]
    water = [h for h in ring if m.t(h) == WATER]
    entry = [h for h in ring if m.passable_land(h)]
    mountains = [h for h in ring if m.t(h) == MOUNTAINS]
    assert len(water) > len(ring) / 2
    assert len(entry) >= 6
    assert len(mountains) < len(entry) / 4


# --- movement -------------------------------------------------------------------------------------------------

def test_every_city_and_passable_hex_is_reachable_by_land_or_sea_from_every_city_state(m):
    passable = {h for h in m.grid if m.t(h) != MOUNTAINS}
    cities = {m.hex_of(c) for c in m.cities}
    for cid, h in m.city_states().items():
        reached = m.reachable(h)
        assert cities <= reached, (cid, sorted(m.grid.id(*x) for x in cities - reached))
        missing = passable - reached
        assert not missing, (cid, sorted(m.grid.id(*x) for x in missing))


def test_the_sea_is_one_body_of_water(m):
    seas = m.components(set(m.hexes({WATER})), lambda a, b: True)
    assert len(seas) == 1, [len(s) for s in seas]


def test_every_land_mass_has_a_harbour(m):
    land = {h for h in m.grid if m.passable_land(h)}
    for mass in m.components(land, lambda a, b: True):
        harbours = [h for h in mass if m.t(h) in SHIPS_MAY_ENTER and m.coastal(h)]
        assert harbours, sorted(m.grid.id(*h) for h in mass)


def test_mountain_passes_cross_mountains(m):
    passes = m.hexes({PASS})
    assert len(passes) >= 3
    for h in passes:
        nb = m.nb_codes(h)
        assert nb.count(MOUNTAINS) >= 2, f"pass {m.grid.id(*h)} is not between mountains"
        assert sum(1 for n in m.nbs(h) if m.passable_land(n)) >= 2, f"pass {m.grid.id(*h)} leads nowhere"


def test_a_collection_of_islands_one_with_a_beach(m):
    land = {h for h in m.grid if m.t(h) != WATER}
    masses = m.components(land, lambda a, b: True)
    islands = [s for s in masses if len(s) <= 12 and not any(m.grid.on_edge(*h) for h in s)]
    assert len(islands) >= 8
    assert any(any(m.t(h) == SANDY for h in s) for s in islands)
    assert sum(1 for s in islands if any(m.t(h) == CITY for h in s)) >= 6



def _invaded(m: MapData) -> set:
    """The cities an invader coming by sea can take one by one (R-PH-MOVE, R-PH-LAND, R-BAT-4): its Armies land
    where a ship may end a move (Sandy Coast, Fishing Village; never a foreign city), march over passable land
    but never into a city they do not hold, and attack a city from a hex next to it; a city taken opens its hex."""
    cities = {m.hex_of(c) for c in m.cities}
    taken: set = set()
    while True:
        open_land = {h for h in m.grid if m.passable_land(h) and (h not in cities or h in taken)}
        beaches = {h for h in open_land if m.t(h) in (SANDY, VILLAGE) and m.coastal(h)}
        reached: set = set()
        for b in beaches - reached:
            reached |= m.reachable(b, lambda a, n: n in open_land)
        more = {c for c in cities - taken if any(n in reached for n in m.nbs(c))}
        if not more:
            return taken
        taken |= more


def test_every_city_can_be_invaded_from_the_sea(m):
    """No city is out of reach of an army that lands from the sea: an island city with no beach could be won
    only by diplomacy, and a land mass without one (Ionia's, Doria's) could never be attacked at all."""
    cities = {m.hex_of(c): c["id"] for c in m.cities}
    missing = sorted(cid for h, cid in cities.items() if h not in _invaded(m))
    assert not missing, missing


def test_an_island_city_with_no_beach_cannot_be_invaded(m):
    aegina = m.grid.parse("1215")
    assert m.t((12, 16)) == SANDY  # Aegina's beach
    assert aegina not in _invaded(_edited(m, {(12, 16): WATER}))


# --- the checks themselves catch broken maps ------------------------------------------------------------------

def _edited(m: MapData, changes: dict) -> MapData:
    rows = [list(r) for r in m.rows]
    for (col, row), code in changes.items():
        rows[row - 1][col - 1] = code
    return MapData({**m.raw, "terrain": "\n".join("".join(r) for r in rows) + "\n"})


def test_reachability_finds_an_island_ships_cannot_land_on(m):
    athens = m.city_states()["athens"]
    rocky_islet = _edited(m, {(16, 14): ROCKY})  # open sea in the Cyclades
    assert m.t((16, 14)) == WATER
    assert (16, 14) not in rocky_islet.reachable(athens)
    assert (16, 14) in _edited(m, {(16, 14): SANDY}).reachable(athens)


def test_mountains_block_and_passes_let_through(m):
    # Thermopylae (0909) joins Thessaly to Thebes; walling it up cuts the Thessalian plain off from Boeotia by land.
    thessaly, thebes = (8, 8), m.city_states()["thebes"]
    by_land = lambda mp: mp.reachable(thebes, lambda a, b: mp.passable_land(a) and mp.passable_land(b))
    assert thessaly in by_land(m)
    walled = _edited(m, {(9, 9): MOUNTAINS, (6, 8): MOUNTAINS, (8, 6): MOUNTAINS})
    assert thessaly not in by_land(walled)
