"""The map as SVG: a pure function of the map, one player's view (``visibility.view``) and the events they saw.

``map_svg(game_map, view, events)`` returns an SVG string: terrain colours with a black-and-white symbol per
terrain (plain strokes, no ``<pattern>``), coasts, the hex grid, cities with their controller's colour and
hostile/razed marks, the viewer's units with their ids, the other units they can see (counts), the fog as one
merged grey overlay, hatched, over the hexes they cannot see, arrows for this turn's moves and markers for its battles, and a
legend.  No rules logic lives here.

Crowded fronts stay readable: every stack has a chip (a dot in its owner's colour) on its own hex, and
``place_labels`` puts the stacks' badges, the cities' controller tags and the viewer's unit ids one by one
where they overlap nothing placed before (city names and marks, battle marks, other labels, hex ids, other
stacks' chips): a badge wholly inside its own hex (on two or three lines or in a smaller font if it must),
else on its chip reaching at most a little (REACH_EPS px) over its hex's edge (a reader takes a label for
the hex it sits in: a new player's 1111 label drawn over the sea hex 1211, Megara's inside 1111; Ionia's
two-line badge mostly over the sea hex 2510), covering a hex id there rather than going further (the id is
drawn again at a free place in its hex), else away, pointing at its chip with a tail in its owner's colour
like a speech bubble (``_place_badge``, ``_tail``: a new player read Athens' badge, drawn above it with a
thin line, as a stack in 1312); the viewer's unit ids touch their badge where they stay in the stack's hex
(or a little over it), else they sit in a bubble edged in their owner's colour that points at their badge
with a tail in that colour (a new player read "A3,9 L3", drawn in 0815 with a thin line, as units there).  Greedy and in a fixed order: the
same view gives the same map, byte for byte.  A city's tag: its holder in their colour, "!" (hostile)
in red, "razed N" (``_city_mark_parts``).

Speed (CairoSVG spends its time per element, and per letter of text): every hex of one terrain is one
``<path>``; no ``<use>``, ``<symbol>``, masks, filters or patterns.  The map is drawn in three layers
(``layers``), in this order:

* the static layer (terrain, coasts, grid, city names, the terrain legend and the map marks' legend) never
  changes in a campaign: built once per map and kept (``_static_layer``, keyed by the map's contents);
* the turn's layer (the title, the players with their cities) is the same on every report of a turn;
* the viewer's layers (fog, cities, moves, units, battles, labels, who they are) are one report's own.

The legend sits right of the map, where nothing else is drawn, so moving parts of it into the shared layers
changes no pixel.  For PNG output (``MapLayers.image``, ``map_png``) the static layer is rendered once to a
raster, the turn's layer once per turn on a copy of it (``_base_image``; ``warm`` builds both before the
reports are rendered in forked processes), and CairoSVG draws only the viewer's layers on a copy of that:
pixel-identical to drawing the whole SVG, and about 10 ms a map of the Aegean against 70 ms for the
``raster_base`` SVG and 120 ms all vectors, on one core (``bench/bench_render.py`` measures the ways).  The
PNG has PNG_SCALE (1.25) pixels a unit of the SVG (1708x1085 for the Aegean; a new player could not read its
5 px hex ids at 100 %): the SVG's places are the same, the PDF's map page the same size (at 120 dpi).  At 1.5
the ids were larger still, but every report took 80 ms more (the 12-player, 36-turn demo 86 s against 65 s);
1.25 costs about 30 ms a report (``bench/bench_render.py``).
``png_bytes`` writes the PNG itself, in 256 colours (unfiltered rows, zlib level 3): a third of the time
of cairo's PNG writer, and files under half the size of full colour.
The ``raster_base`` SVG (the static layer as an embedded PNG ``<image>``) is kept for callers that want one
SVG document to rasterise.
"""
from __future__ import annotations

import base64
import io
import math
import struct
import sys
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, islice
from typing import Any, Iterable
from xml.sax.saxutils import escape

from .gamedata import GameMap, terrain_table
from .hexgrid import Grid, neighbours as offset_neighbours
from .model import HOME_CITY_DEFENCE, id_order

HEX = 24.0  # circumradius in px
SQ3 = math.sqrt(3.0)
MARGIN = 8.0
LEGEND_W = 250.0
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

# Terrain fill colours, and the dark stroke colour of each terrain's symbol.
TERRAIN_FILL = {
    "water": "#b7d7ee", "clear": "#f2ecd2", "farms": "#dfe9ae", "fishing_village": "#d4e6cf",
    "mountains": "#9c8a76", "mountain_pass": "#c9b69b", "forest": "#9cc48f", "swamp": "#b5c9ae",
    "hills": "#e2cd98", "city": "#efe3c2", "sandy_coast": "#f5e7ad", "rocky_coast": "#c6bfb2",
}
SYMBOL_STROKE = {
    "mountains": "#3f3226", "mountain_pass": "#5a4634", "forest": "#2f5a2a", "swamp": "#3d5a48",
    "hills": "#6b5530", "farms": "#5d6b22", "fishing_village": "#2d4f6b", "sandy_coast": "#8a7430",
    "rocky_coast": "#4d463c",
}

# Each terrain's black-and-white symbol, as path commands in units of the hex radius around its centre.
# Only M, L and Q commands (absolute, relative to the centre), so one scaling function draws them all.
_DOT = 0.001
SYMBOLS: dict[str, list[tuple]] = {
    "mountains": [("M", -0.62, 0.3), ("L", -0.28, -0.32), ("L", 0.06, 0.3), ("M", -0.08, 0.3), ("L", 0.24, -0.12),
                  ("L", 0.56, 0.3)],
    "mountain_pass": [("M", -0.5, 0.32), ("L", -0.22, -0.22), ("L", -0.06, 0.08), ("M", 0.06, 0.08),
                      ("L", 0.22, -0.22), ("L", 0.5, 0.32), ("M", 0.0, -0.4), ("L", 0.0, 0.42)],
    "hills": [("M", -0.6, 0.22), ("Q", -0.32, -0.32, -0.04, 0.22), ("M", 0.04, 0.22), ("Q", 0.32, -0.32, 0.6, 0.22)],
    "forest": [("M", -0.32, 0.36), ("L", -0.32, 0.1), ("M", -0.52, 0.12), ("L", -0.32, -0.3), ("L", -0.12, 0.12),
               ("L", -0.52, 0.12), ("M", 0.26, 0.36), ("L", 0.26, 0.02), ("M", 0.04, 0.04), ("L", 0.26, -0.42),
               ("L", 0.48, 0.04), ("L", 0.04, 0.04)],
    "swamp": [("M", -0.56, 0.12), ("L", -0.12, 0.12), ("M", 0.1, 0.12), ("L", 0.54, 0.12), ("M", -0.3, 0.36),
              ("L", 0.3, 0.36), ("M", -0.34, 0.12), ("L", -0.42, -0.16), ("M", -0.34, 0.12), ("L", -0.26, -0.18),
              ("M", 0.32, 0.12), ("L", 0.24, -0.16), ("M", 0.32, 0.12), ("L", 0.4, -0.18)],
    "farms": [("M", -0.42, -0.26), ("L", 0.42, -0.26), ("L", 0.42, 0.3), ("L", -0.42, 0.3), ("L", -0.42, -0.26),
              ("M", -0.42, 0.02), ("L", 0.42, 0.02), ("M", 0.0, -0.26), ("L", 0.0, 0.3)],
    "fishing_village": [("M", -0.46, 0.06), ("L", 0.46, 0.06), ("L", 0.28, 0.3), ("L", -0.28, 0.3), ("L", -0.46, 0.06),
                        ("M", -0.02, 0.06), ("L", -0.02, -0.42), ("L", 0.3, -0.04), ("L", -0.02, -0.04)],
    "sandy_coast": [(c, x, y) for x, y in ((-0.4, -0.1), (-0.1, 0.2), (0.2, -0.15), (0.45, 0.18), (-0.3, 0.38),
                                             (0.05, -0.38), (0.15, 0.42), (-0.5, 0.15))
                    for c, x, y in (("M", x, y), ("L", x + _DOT, y))],
    "rocky_coast": [("M", -0.52, 0.3), ("L", -0.4, 0.02), ("L", -0.2, -0.04), ("L", -0.1, 0.3), ("M", 0.04, 0.3),
                    ("L", 0.14, -0.12), ("L", 0.36, -0.2), ("L", 0.5, 0.3), ("M", -0.3, -0.2), ("L", -0.14, -0.4),
                    ("L", 0.02, -0.22)],
}
SYMBOL_WIDTH = {"sandy_coast": 2.6}

# One colour per city state, in the order of the twelve of the default map; other maps cycle through them.
PALETTE = ["#1f5fbf", "#c0392b", "#7d3c98", "#138d75", "#e67e22", "#1e7a3c", "#b7950b", "#7b4a2a", "#d35d9b",
           "#1b2f6b", "#17a2b8", "#3a3a3a"]
NEUTRAL_UNITS = "#111111"

# Label sizes (px) and places: a city's name below its centre (static layer), controller tags, unit ids; the
# battle mark's radius.
NAME_DY, NAME_SIZE, TAG_SIZE, IDS_SIZE, BURST_R = 18.0, 9.5, 9.0, 8.5, 7.5
BADGE_LINE = 11.0  # the second line of a badge below the first
CHIP_R = 3.6  # the radius of a stack's chip: the dot in its owner's colour on the stack's own hex
CHIP_GAP = 8.5  # between the chips of two stacks in one hex
# The battle mark, wholly inside its hex (it sat on the hex's left corner, where three hexes meet, and read as
# a battle in the next hex): left of a city's mark (no city is next to another, so no other name is there),
# low in any other hex (clear of the names of the cities above it, which reach into its upper half).
BURST_CITY, BURST_LOW = (-12.5, 0.0), (0.0, 11.0)


def _burst_at(game_map: GameMap, lay: Layout, h: str) -> tuple[float, float]:
    cx, cy = lay.centre(*game_map.offsets[h])
    dx, dy = BURST_CITY if h in game_map.city_at else BURST_LOW
    return cx + dx, cy + dy

# The fog: a grey veil and dark diagonal hatching over every hex out of sight, one look on land and sea alike,
# the terrain's colours, symbols and hex ids still readable under it.  Plain paths (no ``<pattern>``): the veil
# is the merged outline of the fogged hexes, the hatching one path of lines clipped to them (``hatch``).  The
# legend's swatch is the same over a Water and a Clear half.
FOG_VEIL, FOG_VEIL_OPACITY = "#777777", 0.4
FOG_HATCH, FOG_HATCH_OPACITY, FOG_HATCH_WIDTH, FOG_HATCH_GAP = "#303030", 0.5, 1.0, 10.0


def _clip_interval(poly: list[tuple[float, float]], c: float) -> tuple[float, float] | None:
    """The x-interval of the line x + y = c inside the convex polygon ``poly``, or None."""
    xs = []
    for (px, py), (qx, qy) in zip(poly, poly[1:] + poly[:1]):
        fp, fq = px + py - c, qx + qy - c
        if fp == 0:
            xs.append(px)
        if (fp < 0 < fq) or (fq < 0 < fp):
            t = fp / (fp - fq)
            xs.append(px + t * (qx - px))
    if len(xs) < 2 or max(xs) - min(xs) < 1e-6:
        return None
    return min(xs), max(xs)


def hatch(polys: Iterable[list[tuple[float, float]]], gap: float = FOG_HATCH_GAP) -> str:
    """Path data of diagonal lines (x + y constant, ``gap`` px apart) inside the union of the convex ``polys``:
    the lines of one family across the whole map, so they run on from hex to hex; each run is one segment."""
    step = gap * math.sqrt(2)
    runs: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for poly in polys:
        sums = [x + y for x, y in poly]
        for k in range(math.ceil(min(sums) / step), math.floor(max(sums) / step) + 1):
            iv = _clip_interval(poly, k * step)
            if iv is not None:
                runs[k].append(iv)
    out = []
    for k in sorted(runs):
        c = k * step
        merged: list[list[float]] = []
        for a, b in sorted(runs[k]):
            if merged and a <= merged[-1][1] + 0.01:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b])
        out += [f"M{_f(a)},{_f(c - a)}L{_f(b)},{_f(c - b)}" for a, b in merged]
    return "".join(out)


def fog_paths(veil_d: str, polys: Iterable[list[tuple[float, float]]], vid: str | None = None) -> str:
    """The fog over ``veil_d`` (the outline of the fogged area; ``polys``, its convex pieces, for the hatching)."""
    ids = (f' id="{vid}"', f' id="{vid}-hatch"') if vid else ("", "")
    return (f'<path{ids[0]} fill="{FOG_VEIL}" fill-opacity="{FOG_VEIL_OPACITY}" d="{veil_d}"/>'
            f'<path{ids[1]} fill="none" stroke="{FOG_HATCH}" stroke-opacity="{FOG_HATCH_OPACITY}" '
            f'stroke-width="{_f(FOG_HATCH_WIDTH)}" d="{hatch(polys)}"/>')


# -- geometry -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Layout:
    cols: int
    rows: int
    size: float = HEX

    @property
    def map_w(self) -> float:
        return self.size * (1.5 * (self.cols - 1) + 2)

    @property
    def map_h(self) -> float:
        return self.size * SQ3 * (self.rows + 0.5)

    @property
    def width(self) -> float:
        return MARGIN * 3 + self.map_w + LEGEND_W

    @property
    def height(self) -> float:
        return max(MARGIN * 2 + self.map_h, 700.0)

    def centre(self, col: int, row: int) -> tuple[float, float]:
        x, y = Grid(self.cols, self.rows).centre(col, row, self.size)
        return x + MARGIN, y + MARGIN

    def corners(self, col: int, row: int) -> list[tuple[float, float]]:
        cx, cy = self.centre(col, row)
        return [(cx + self.size * math.cos(math.radians(60 * i)), cy + self.size * math.sin(math.radians(60 * i)))
                for i in range(6)]


def _f(v: float) -> str:
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


def _hex_subpath(corners: list[tuple[float, float]]) -> str:
    return "M" + "L".join(f"{_f(x)},{_f(y)}" for x, y in corners) + "Z"


def _symbol_path(cmds: list[tuple], cx: float, cy: float, k: float) -> str:
    out = []
    for c in cmds:
        if c[0] == "Q":
            out.append(f"Q{_f(cx + c[1] * k)},{_f(cy + c[2] * k)} {_f(cx + c[3] * k)},{_f(cy + c[4] * k)}")
        else:
            out.append(f"{c[0]}{_f(cx + c[1] * k)},{_f(cy + c[2] * k)}")
    return "".join(out)


# Corner pairs of the edge shared with each neighbour, in hexgrid's direction order N, NE, SE, S, SW, NW
# (corner i is at 60*i degrees, y down: 0 east, 1 lower right, ... 5 upper right).
_EDGE_CORNERS = ((4, 5), (5, 0), (0, 1), (1, 2), (2, 3), (3, 4))


def outline(lay: Layout, cells: Iterable[tuple[int, int]]) -> str:
    """One path for a set of hexes: only the edges on the border of the set, chained into closed loops.

    Every hex's edges run clockwise, so the loops around holes run the other way and the default
    (non-zero) fill leaves the holes open.  Far fewer points than one sub-path per hex.
    """
    cells = set(cells)
    half_w, half_h = lay.size / 2, lay.size * SQ3 / 2
    known = _cell_edges(lay)
    nxt: dict[tuple[int, int], tuple[int, int]] = {}
    for cr in cells:
        for n, a, b in known.get(cr) or _edges_of(lay, cr):
            if n not in cells:
                nxt[a] = b
    loops = []
    while nxt:
        start, cur = nxt.popitem()
        pts = [start]
        while cur != start:
            pts.append(cur)
            cur = nxt.pop(cur)
        loops.append("M" + "L".join(f"{_f(MARGIN + x * half_w)},{_f(MARGIN + y * half_h)}" for x, y in pts) + "Z")
    return "".join(sorted(loops))


def _edges_of(lay: Layout, cr: tuple[int, int]) -> list[tuple[tuple[int, int], tuple[int, int], tuple[int, int]]]:
    """A hex's six edges: (the neighbour across it, its start and end corner) with the corners as integer
    keys in half-radius steps (so that the corners two hexes share are equal)."""
    half_w, half_h = lay.size / 2, lay.size * SQ3 / 2
    keys = [(round((x - MARGIN) / half_w), round((y - MARGIN) / half_h)) for x, y in lay.corners(*cr)]
    return [(n, keys[_EDGE_CORNERS[d][0]], keys[_EDGE_CORNERS[d][1]])
            for d, n in enumerate(offset_neighbours(*cr))]


@lru_cache(maxsize=8)
def _cell_edges(lay: Layout) -> dict[tuple[int, int], list]:
    """``_edges_of`` for every hex of the layout's grid, computed once (the fog's outline is drawn per map)."""
    return {cr: _edges_of(lay, cr) for cr in Grid(lay.cols, lay.rows)}


def layout_of(game_map: GameMap) -> Layout:
    return Layout(game_map.grid.cols, game_map.grid.rows)


def _static_key(game_map: GameMap) -> tuple:
    """What the static layer depends on: the grid, every hex's terrain and the cities' names and hexes
    (hashable, unlike GameMap, and equal for two loads of the same map file)."""
    codes = "".join(game_map.terrain[game_map.grid.id(c, r)].char for c, r in game_map.grid)
    cities = tuple(sorted((c.hex, c.name) for c in game_map.cities.values()))
    return game_map.grid.cols, game_map.grid.rows, codes, cities


# -- the static layer: terrain, coasts, grid, city names, terrain legend --------------------------------

def static_layer(game_map: GameMap) -> str:
    return _static_layer(*_static_key(game_map))


@lru_cache(maxsize=8)
def _static_layer(cols: int, rows: int, codes: str, cities: tuple) -> str:
    lay = Layout(cols, rows)
    grid = Grid(cols, rows)
    by_char = {t.char: t for t in terrain_table().values()}
    cells = list(grid)
    terrain = {cr: by_char[codes[i]].id for i, cr in enumerate(cells)}
    by_terrain: dict[str, list[tuple[int, int]]] = defaultdict(list)
    symbols: dict[str, list[str]] = defaultdict(list)
    edges: list[str] = []
    coast: list[str] = []
    for cr in cells:
        corners = lay.corners(*cr)
        t = terrain[cr]
        by_terrain[t].append(cr)
        if t in SYMBOLS:
            cx, cy = lay.centre(*cr)
            symbols[t].append(_symbol_path(SYMBOLS[t], cx, cy, lay.size * 0.72))
        for d, n in enumerate(offset_neighbours(*cr)):
            a, b = _EDGE_CORNERS[d]
            seg = f"M{_f(corners[a][0])},{_f(corners[a][1])}L{_f(corners[b][0])},{_f(corners[b][1])}"
            inside = grid.contains(*n)
            if d < 3 or not inside:  # each shared edge once
                edges.append(seg)
            if inside and t != "water" and terrain[n] == "water":
                coast.append(seg)
    out = ['<g id="terrain">']
    out.append(f'<rect x="0" y="0" width="{_f(round(lay.width))}" height="{_f(round(lay.height))}" fill="#ffffff"/>')
    for t in TERRAIN_FILL:
        if by_terrain.get(t):
            out.append(f'<path fill="{TERRAIN_FILL[t]}" d="{outline(lay, by_terrain[t])}"/>')
    out.append(f'<path fill="none" stroke="#6f6a5f" stroke-opacity="0.4" stroke-width="0.6" d="{"".join(edges)}"/>')
    for t, parts in symbols.items():
        w = SYMBOL_WIDTH.get(t, 1.1)
        out.append(f'<path fill="none" stroke="{SYMBOL_STROKE[t]}" stroke-width="{w}" stroke-linecap="round" '
                   f'stroke-linejoin="round" d="{"".join(parts)}"/>')
    if coast:
        out.append(f'<path fill="none" stroke="#1d3b57" stroke-width="2" stroke-linecap="round" d="{"".join(coast)}"/>')
    out.append("</g>")
    names = []
    city_hexes = set()
    with_id = _names_with_ids(cols, rows, cities)
    for hex_id, name in cities:
        cx, cy = lay.centre(*grid.parse(hex_id))
        city_hexes.add(hex_id)
        names.append(_city_name(cx, cy, name, hex_id if hex_id in with_id else None))
    ids, halos = [], []
    city_cells = {grid.parse(h) for h in city_hexes}
    for cr in cells:
        hex_id = grid.id(*cr)
        if hex_id not in with_id:  # a city's id is drawn after its name where it fits, else at the top as any other
            x, y = _hex_id_place(lay, *cr, _id_shift(city_cells, *cr))
            x0, y0, x1, y1 = _id_box_at(x, y, hex_id)
            halos.append(f"M{_f(x0 - ID_PAD)},{_f(y0)}H{_f(x1 + ID_PAD)}V{_f(y1)}H{_f(x0 - ID_PAD)}Z")
            ids.append(f'<text x="{_f(x)}" y="{_f(y)}">{hex_id}</text>')
    out.append(f'<path id="hex-id-halos" fill="{HEXID_HALO}" fill-opacity="{HEXID_HALO_OPACITY}" '
               f'd="{"".join(halos)}"/>')
    out.append(f'<g id="hex-ids" font-family="{FONT}" font-size="{_f(HEXID_SIZE)}" text-anchor="middle" '
               f'fill="{HEXID_FILL}">' + "".join(ids) + "</g>")
    out.append(f'<g id="city-names" font-family="{FONT}">' + "".join(names) + "</g>")
    out.append(_terrain_legend(lay, codes, by_char))
    out.append(_marks_legend(lay, _legend_height(len({by_char[c].id for c in codes}))))
    return "\n".join(out)


def _terrain_legend(lay: Layout, codes: str, by_char) -> str:
    x0 = MARGIN * 2 + lay.map_w
    y = MARGIN + 78
    present = {by_char[c].id for c in codes}
    rows = [t for t in terrain_table().values() if t.id in present]
    syms, labels = [], []
    k = 11.0
    out = [f'<g id="terrain-legend" font-family="{FONT}" font-size="11" fill="#222">',
           f'<text x="{_f(x0)}" y="{_f(y)}" font-weight="bold" font-size="12">Terrain</text>']
    y += 8
    for t in rows:
        cy = y + 11
        cx = x0 + 12
        corners = [(cx + k * math.cos(math.radians(60 * i)), cy + k * math.sin(math.radians(60 * i))) for i in range(6)]
        out.append(f'<path fill="{TERRAIN_FILL[t.id]}" stroke="#6f6a5f" stroke-width="0.8" '
                   f'd="{_hex_subpath(corners)}"/>')
        if t.id in SYMBOLS:
            syms.append((t.id, _symbol_path(SYMBOLS[t.id], cx, cy, k * 0.8)))
        note = _terrain_note(t)
        labels.append(f'<text x="{_f(x0 + 30)}" y="{_f(cy + 4)}">{escape(t.name)}'
                      f'<tspan fill="#555" font-size="9">{escape(note)}</tspan></text>')
        y += 23
    for tid, d in syms:
        width = SYMBOL_WIDTH.get(tid, 1.1) * 0.8
        out.append(f'<path fill="none" stroke="{SYMBOL_STROKE[tid]}" stroke-width="{width:.2f}" '
                   f'stroke-linecap="round" stroke-linejoin="round" d="{d}"/>')
    out += labels
    out.append("</g>")
    return "\n".join(out)




def _terrain_note(t) -> str:
    if not t.passable:
        return "  impassable"
    bits = [f"move {t.move_cost}"]
    if t.defense and t.id == "city":
        bits.append(f"def {t.defense:+d} (home {HOME_CITY_DEFENCE:+d})")
    elif t.defense:
        bits.append(f"def {t.defense:+d}")
    if t.stack:
        bits.append(f"stack {t.stack}")
    return "  " + ", ".join(bits)


def legend_height(game_map: GameMap) -> float:
    return _legend_height(len({t.id for t in game_map.terrain.values()}))


def _legend_height(n_terrains: int) -> float:
    """The terrain legend's height: the map marks start below it."""
    return 86 + 23 * n_terrains


# -- raster base: the static layer rendered once ------------------------------------------------------

def static_png(game_map: GameMap) -> bytes:
    return _static_png(*_static_key(game_map))


@lru_cache(maxsize=8)
def _static_png(cols: int, rows: int, codes: str, cities: tuple) -> bytes:
    lay = Layout(cols, rows)
    return svg_to_png(_document(lay, _static_layer(cols, rows, codes, cities), []))


@lru_cache(maxsize=8)
def _static_image_tag(cols: int, rows: int, codes: str, cities: tuple) -> str:
    lay = Layout(cols, rows)
    data = base64.b64encode(_static_png(cols, rows, codes, cities)).decode("ascii")
    return (f'<image x="0" y="0" width="{_f(round(lay.width))}" height="{_f(round(lay.height))}" '
            f'xlink:href="data:image/png;base64,{data}"/>')


# -- label sizes and placement ----------------------------------------------------------------------------

# Advance widths of DejaVu Sans and DejaVu Sans Bold (the first font of FONT) in thousandths of an em, for the
# printable ASCII characters 32..126: the labels' boxes are measured with them.  Other characters count 0.7 em.
_ADVANCE = {
    False: (
        318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636,
        636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632,
        575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685,
        611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579,
        278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838),
    True: (
        348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696,
        696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683,
        683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771,
        724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665,
        343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838),
}


def text_width(s: str, size: float, bold: bool = False) -> float:
    """The width of a line of text in DejaVu Sans (Bold) at ``size`` px."""
    adv = _ADVANCE[bold]
    return size * sum(adv[o - 32] if 32 <= (o := ord(ch)) < 127 else 700 for ch in s) / 1000


Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def _text_box(x: float, y: float, s: str, size: float, weight: str = "normal", anchor: str = "middle") -> Box:
    """The box of a label's pale halo (``_text``): its text's width and 2 px either side, from the ascenders
    to the descenders."""
    w = text_width(s, size, weight == "bold") + 4
    x0 = x - w / 2 if anchor == "middle" else x - 2 if anchor == "start" else x - w + 2
    return x0, y - size * 0.82, x0 + w, y + size * 0.26


# Hex ids, printed on every hex (they are public, fog or not), small and grey: centred at the top of the hex,
# above the place of a stack's badge, on every hex alike (an id at the bottom of its hex sat on the id of the
# hex below: "1410" over "1411"), moved 3 px away from a city above it beside it (``_id_shift``); a city's hex
# has it after the city's name (the city's badge sits at the top of its hex), or at its top where it does not
# fit there (``_names_with_ids``).  They are in the static layer, and the placer takes their boxes before any
# label; an id a label must cover all the same is drawn again at a free place in its hex (``_moved_ids``).
HEXID_SIZE = 7.0
HEXID_FILL = "#333333"
HEXID_HALO, HEXID_HALO_OPACITY = "#ffffff", 0.55  # under each id at the top of its hex
ID_PAD = 1.0  # the halo, this much wider than the id's digits (its box) each side
HEXID_LEGEND = ("Hex ids: the small grey numbers in each hex;",
                "column then row, 0101 top left; even columns lower")
DIGIT_H = 0.73  # the height of DejaVu Sans's digits, in em


ID_SHIFT = 3.0  # the id of a hex below and beside a city, this far away from the city (its tag's room)


def _id_shift(cities: set[tuple[int, int]], col: int, row: int) -> float:
    """How far a hex's id moves sideways: away from a city above it to the left (right of its mark goes its
    controller's tag) or to the right (its tag's other place), so the tag beside the mark clears the id."""
    n, ne, se, s, sw, nw = offset_neighbours(col, row)
    return ID_SHIFT * ((nw in cities) - (ne in cities))


def _hex_id_place(lay: Layout, col: int, row: int, shift: float = 0.0) -> tuple[float, float]:
    """The hex id's anchor (middle of its baseline): just under the hex's top edge (``shift`` px sideways)."""
    cx, cy = lay.centre(col, row)
    half = lay.size * SQ3 / 2
    return cx + shift, cy - half + 0.7 + DIGIT_H * HEXID_SIZE


def _id_box_at(x: float, y: float, hex_id: str) -> Box:
    """The box of a hex id with the middle of its baseline at (x, y)."""
    w = text_width(hex_id, HEXID_SIZE)
    return x - w / 2, y - DIGIT_H * HEXID_SIZE - 0.4, x + w / 2, y + 0.4


def _hex_id_box(lay: Layout, col: int, row: int, hex_id: str, shift: float = 0.0) -> Box:
    return _id_box_at(*_hex_id_place(lay, col, row, shift), hex_id)


@lru_cache(maxsize=8)
def _id_boxes(cols: int, rows: int, codes: str, cities: tuple) -> dict[str, Box]:
    """The box of every hex id the static layer draws at the top of its hex (all but those of the cities whose
    id follows their name), by hex."""
    lay, grid = Layout(cols, rows), Grid(cols, rows)
    city_cells = {grid.parse(h) for h, _ in cities}
    after_name = _names_with_ids(cols, rows, cities)
    return {grid.id(*cr): _hex_id_box(lay, *cr, grid.id(*cr), _id_shift(city_cells, *cr)) for cr in grid
            if grid.id(*cr) not in after_name}


def hex_id_boxes(game_map: GameMap) -> dict[str, Box]:
    return _id_boxes(*_static_key(game_map))


ID_CLEAR = 4.0  # a hex id drawn again keeps this far from the other ids
ID_HIDDEN = 0.12  # a label over more than this share of a hex id's box hides it (less: the edge of a digit)


def hides(box: Box, id_box: Box) -> bool:
    """Whether a label's ``box`` hides the hex id in ``id_box`` (more than a sliver of it)."""
    return _overlap(box, id_box) > ID_HIDDEN * (id_box[2] - id_box[0]) * (id_box[3] - id_box[1])


def _moved_id_box(x: float, y: float, hex_id: str) -> Box:
    """The pale halo of a hex id drawn again (``_moved_ids``), the middle of its baseline at (x, y): 1 px
    either side of the digits."""
    w = text_width(hex_id, HEXID_SIZE) + 2
    return x - w / 2, y - HEXID_SIZE * 0.82, x + w / 2, y + HEXID_SIZE * 0.26


@lru_cache(maxsize=4)
def _id_spots(size: float) -> tuple[tuple[float, float], ...]:
    """Where a hex id covered by a label may be drawn again: offsets of its baseline's middle from the hex's
    centre, on a grid of 2 px, nearest its usual place (the top) first: those with the id's halo inside the
    hex (a margin of 1 px), then those where it runs over the hex's edge by 6 px at most."""
    lay = Layout(3, 3, size)
    cx, cy = lay.centre(1, 1)
    top = _hex_id_place(lay, 1, 1)[1] - cy
    out = []
    for i in range(-12, 13):
        for j in range(-12, 13):
            dx, dy = 2.0 * i, 2.0 * j
            box = _moved_id_box(cx + dx, cy + dy, "0000")
            for tier, pad in enumerate((1.0, -6.0)):
                if _in_hex(lay, (1, 1), box, pad):
                    out.append((tier, math.hypot(dx, dy - top), abs(dx), dx, dy))
                    break
    out.sort()
    return tuple((dx, dy) for *_, dx, dy in out)


def _city_name_box(cx: float, cy: float, name: str, hex_id: str | None) -> Box:
    """The halo of a city's name (centred below its mark, as before) and its hex id after it (if any)."""
    x0, y0, x1, y1 = _text_box(cx, cy + NAME_DY, name, NAME_SIZE, "bold")
    return x0, y0, x1 + (text_width(" " + hex_id, HEXID_SIZE) if hex_id else 0), y1


@lru_cache(maxsize=8)
def _names_with_ids(cols: int, rows: int, cities: tuple) -> frozenset[str]:
    """The cities (by hex) whose id fits after their name: not where it would run into another city's name.
    Elsewhere the name stands alone and the id is at the top of the city's hex, as on any other hex (it was left
    out, and a player found no "2417" for Halicarnassus anywhere on his maps).  ``cities``: (hex, name) pairs,
    as ``_static_key`` gives them."""
    lay, grid = Layout(cols, rows), Grid(cols, rows)
    plain = []
    for h, name in cities:
        cx, cy = lay.centre(*grid.parse(h))
        plain.append((h, name, cx, cy, _city_name_box(cx, cy, name, None)))
    plain.sort(key=lambda c: c[3])
    out = set()
    for i, (h, name, cx, cy, _) in enumerate(plain):
        box = _city_name_box(cx, cy, name, h)
        near = [b for k, _, _, y, b in plain[max(0, i - 40):i + 40] if k != h and abs(y - cy) < 2 * NAME_SIZE]
        if not any(_overlap(box, b) > 0 for b in near):
            out.add(h)
    return frozenset(out)


def names_with_ids(game_map: GameMap) -> frozenset[str]:
    cols, rows, _, cities = _static_key(game_map)
    return _names_with_ids(cols, rows, cities)


def _city_name(cx: float, cy: float, name: str, hex_id: str | None) -> str:
    """A city's name in bold and its hex id (if given), small and grey, after it, on one pale halo."""
    x0, y0, x1, y1 = _city_name_box(cx, cy, name, hex_id)
    y = cy + NAME_DY
    return (f'<rect x="{_f(x0)}" y="{_f(y0)}" width="{_f(x1 - x0)}" height="{_f(y1 - y0)}" rx="2" '
            f'fill="#ffffff" fill-opacity="0.72"/>'
            f'<text x="{_f(cx)}" y="{_f(y)}" font-size="{_f(NAME_SIZE)}" text-anchor="middle" font-weight="bold" '
            f'fill="#111">{escape(name)}</text>'
            + (f'<text x="{_f(x1 - 2)}" y="{_f(y)}" font-size="{_f(HEXID_SIZE)}" text-anchor="end" '
               f'fill="{HEXID_FILL}">{hex_id}</text>' if hex_id else ""))


BADGE_SPLIT = 66.0  # a badge wider than this (most of a hex) goes on two lines
BADGE_SIZE, BADGE_SMALL = 10.0, 8.5  # a badge's font size; the smaller one, for a crowded hex


def _badge_lines(label: str) -> list[str]:
    """A stack's badge, on one line or, when that is too wide and has four parts or more, two."""
    parts = label.split(" ")
    if len(parts) < 4 or text_width(label, 10, True) + 6 <= BADGE_SPLIT:
        return [label]
    k = (len(parts) + 1) // 2
    return [" ".join(parts[:k]), " ".join(parts[k:])]


@lru_cache(maxsize=4096)
def _split(label: str, n: int, size: float) -> tuple[str, ...]:
    """``label``'s parts on ``n`` lines, in order, the widest line as narrow as it can be (the first of equals)."""
    parts = label.split(" ")
    best: tuple[float, tuple[str, ...]] | None = None

    def walk(start: int, left: int, lines: tuple[str, ...]) -> None:
        nonlocal best
        if left == 1:
            done = lines + (" ".join(parts[start:]),)
            w = max(text_width(line, size, True) for line in done)
            if best is None or w < best[0]:
                best = (w, done)
            return
        for end in range(start + 1, len(parts) - left + 2):
            walk(end, left - 1, lines + (" ".join(parts[start:end]),))

    walk(0, n, ())
    assert best is not None
    return best[1]


@lru_cache(maxsize=4096)
def badge_forms(label: str) -> tuple[tuple[tuple[str, ...], float], ...]:
    """The forms a stack's badge may take, (lines, font size), the first preferred: as ``_badge_lines`` gives
    it, then on two or three lines, then in the smaller font on one, two or three lines (a form that fits in
    its own hex is worth more than a bigger one in the next hex)."""
    n_parts = len(label.split(" "))
    first = tuple(_badge_lines(label))
    out = [(first, BADGE_SIZE)]
    for size in (BADGE_SIZE, BADGE_SMALL):
        for n in (1, 2, 3):
            if n <= n_parts:
                form = (_split(label, n, size), size)
                if form not in out:
                    out.append(form)
    return tuple(out)


def _form_size(lines: tuple[str, ...] | list[str], size: float = BADGE_SIZE) -> tuple[float, float]:
    """A badge's width and height: 0.3 em either side of its widest line; 1.3 em a line and 1.1 em more for
    each further line (13 px and 11 px in the usual font)."""
    return (max(text_width(line, size, True) for line in lines) + 0.6 * size,
            1.3 * size + 1.1 * size * (len(lines) - 1))


def _badge_size(label: str) -> tuple[float, float]:
    return _form_size(_badge_lines(label))


def _badge_box(x: float, y: float, label: str) -> Box:
    """The box of ``_unit_box(x, y, label, ...)``: ``y`` is the middle of its first line."""
    w, h = _badge_size(label)
    return x - w / 2, y - 7, x + w / 2, y - 7 + h


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


class Placer:
    """Greedy, deterministic label placement.  Each label, in the order they come, takes the first of its
    candidate boxes that keeps GAP px from every box taken before it (marks, names, labels) and stays inside
    the bounds; failing that, the candidate that overlaps least, an overlap weighed by what it covers
    (``WEIGHTS``).  Boxes are kept in buckets of CELL px, so a test looks at a few neighbours only."""

    CELL = 48.0
    GAP = 1.0
    # Covering a bit of a hex id costs less than covering a mark or a label: a badge on two lines, taller
    # than the gaps the ids of two staggered columns leave, may need to (it never does when a free place is
    # found), and the id is then drawn again elsewhere in its hex.  Covering a city's name or another stack's
    # chip (where its units are) costs most: a label goes anywhere else first.
    ID_WEIGHT = 0.02
    ON_IDS = 24  # of the near places that cover only hex ids, the nearest so many are weighed
    WEIGHTS = {"hexid": ID_WEIGHT, "name": 50.0, "chip": 50.0, "city": 10.0, "battle": 10.0}

    def __init__(self, bounds: Box):
        self.bounds = bounds
        self.taken: list[tuple[str, Box]] = []  # (kind, box), in the order taken
        self._buckets: dict[tuple[int, int], list[int]] = defaultdict(list)

    def _cells(self, box: Box):
        c = self.CELL
        for i in range(int(box[0] // c), int(box[2] // c) + 1):
            for j in range(int(box[1] // c), int(box[3] // c) + 1):
                yield i, j

    def cost(self, box: Box, skip: str = "") -> float:
        """How much ``box`` (grown by GAP/2 each side) overlaps the boxes taken (but those of kind ``skip``),
        plus ten times its area outside the bounds: 0 when it is free."""
        g = self.GAP / 2
        grown = (box[0] - g, box[1] - g, box[2] + g, box[3] + g)
        area = (grown[2] - grown[0]) * (grown[3] - grown[1])
        cost = 10 * (area - _overlap(grown, self.bounds))
        seen: set[int] = set()
        for cell in self._cells(grown):
            for k in self._buckets.get(cell, ()):
                if k not in seen:
                    seen.add(k)
                    kind = self.taken[k][0]
                    if kind != skip:
                        weight = self.WEIGHTS["chip"] if kind.startswith("hex ") else self.WEIGHTS.get(kind, 1.0)
                        cost += _overlap(grown, self.taken[k][1]) * weight
        return cost

    def free(self, box: Box, skip: str = "", but: str = "") -> bool:
        """Whether ``cost(box, skip)`` is 0, looking no further than the first overlap (``but``: a kind of
        box it may overlap all the same)."""
        g = self.GAP / 2
        x0, y0, x1, y1 = box[0] - g, box[1] - g, box[2] + g, box[3] + g
        b = self.bounds
        if x0 < b[0] or y0 < b[1] or x1 > b[2] or y1 > b[3]:
            return False
        taken, buckets, c = self.taken, self._buckets, self.CELL
        for i in range(int(x0 // c), int(x1 // c) + 1):
            for j in range(int(y0 // c), int(y1 // c) + 1):
                for k in buckets.get((i, j), ()):
                    kind, t = taken[k]
                    if x0 < t[2] and t[0] < x1 and y0 < t[3] and t[1] < y1 and kind != skip and kind != but \
                            and (kind != "hexid" or hides(box, t)):  # the edge of a digit is no matter
                        return False
        return True

    def take(self, box: Box, kind: str) -> None:
        k = len(self.taken)
        self.taken.append((kind, box))
        for cell in self._cells(box):
            self._buckets[cell].append(k)

    def near(self, box: Box) -> list[tuple[str, Box]]:
        """The boxes taken (kind, box) in the cells ``box`` touches (some a little further)."""
        ks = sorted({k for cell in self._cells(box) for k in self._buckets.get(cell, ())})
        return [self.taken[k] for k in ks]

    def overlapping(self, box: Box, kind: str) -> list[Box]:
        """The boxes of ``kind`` taken before that ``box`` overlaps."""
        out = []
        for cell in self._cells(box):
            for k in self._buckets.get(cell, ()):
                kind_k, other = self.taken[k]
                if kind_k == kind and _overlap(box, other) > 0 and other not in out:
                    out.append(other)
        return out

    def hits(self, box: Box, kind: str, but: Box | None = None) -> bool:
        """Whether ``box`` overlaps a box of ``kind`` taken before (but the box ``but``)."""
        for cell in self._cells(box):
            for k in self._buckets.get(cell, ()):
                kind_k, other = self.taken[k]
                if kind_k == kind and other != but and _overlap(box, other) > 0:
                    return True
        return False

    def place(self, candidates: Iterable[tuple[Box, bool]], kind: str, skip: str = "",
              near: int = 0) -> tuple[Box, bool]:
        """Take the first free candidate (else the least overlapping, the first of equals); returns it with
        its flag (the caller's: whether it needs a leader line).  With ``near``, the first ``near``
        candidates come first even where they cover a hex id (the least of ids of them; the id is drawn
        again elsewhere), before the others further out."""
        candidates = list(candidates)
        best = next((cand for cand in candidates[:near] if self.free(cand[0], skip)), None)
        if best is None and near:
            on_ids = list(islice((cand for cand in candidates[:near] if self.free(cand[0], skip, but="hexid")),
                                 self.ON_IDS))
            best = min(on_ids, key=lambda cand: self.cost(cand[0], skip), default=None)
        if best is None:
            best = next((cand for cand in candidates[near:] if self.free(cand[0], skip)), None)
        if best is None:
            best_cost = math.inf
            for box, flag in candidates:
                c = self.cost(box, skip)
                if c < best_cost:
                    best, best_cost = (box, flag), c
        assert best is not None
        self.take(best[0], kind)
        return best


# The places tried around an anchor (a box: a badge, a city's mark, a point), ring after ring at a growing
# gap: above, below, above and below flush left and right, right, left, and right and left a line higher and
# lower.  The first ring touches the anchor; the later ones need a leader line back to it.
_RINGS = (1.0, 10.0, 20.0, 31.0, 43.0, 56.0, 70.0, 86.0, 104.0, 124.0)


def _around(anchor: Box, w: float, h: float, gaps: Iterable[float], order: str = "NS") -> list[Box]:
    x0, y0, x1, y1 = anchor
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    out = []
    for g in gaps:
        above, below = y0 - g - h / 2, y1 + g + h / 2
        right, left = x1 + g + w / 2, x0 - g - w / 2
        flush_l, flush_r = x0 + w / 2, x1 - w / 2  # the label's left (right) edge on the anchor's
        vertical = [(mx, above), (mx, below), (flush_l, above), (flush_r, above), (flush_l, below),
                    (flush_r, below)]
        sideways = [(right, my), (left, my), (right, my - h), (left, my - h), (right, my + h), (left, my + h)]
        for cx, cy in (vertical + sideways if order == "NS" else sideways + vertical):
            out.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
    return out


def _crosses(p: tuple[float, float], q: tuple[float, float], box: Box, pad: float = 0.0) -> bool:
    """Whether the segment from p to q runs through ``box`` grown by ``pad`` (Liang-Barsky clipping)."""
    t0, t1 = 0.0, 1.0
    for s, d, lo, hi in ((p[0], q[0] - p[0], box[0] - pad, box[2] + pad), (p[1], q[1] - p[1], box[1] - pad,
                                                                           box[3] + pad)):
        if d == 0:
            if not lo <= s <= hi:
                return False
            continue
        a, b = sorted(((lo - s) / d, (hi - s) / d))
        t0, t1 = max(t0, a), min(t1, b)
        if t0 > t1:
            return False
    return True


def _leader(anchor: tuple[float, float], box: Box, touch: float = 4.0) -> tuple[float, float, float, float] | None:
    """A line from ``anchor`` to the nearest point of ``box`` (None when they are within ``touch`` px)."""
    ax, ay = anchor
    px, py = min(max(ax, box[0]), box[2]), min(max(ay, box[1]), box[3])
    if math.hypot(px - ax, py - ay) < touch:
        return None
    return ax, ay, px, py


def _chips(game_map: GameMap, stacks: dict[str, list], lay: Layout) -> dict[str, list[tuple[float, float]]]:
    """Each stack's chip, by hex, in the order of its stacks: on the hex's centre (several side by side), or
    in a city just above the city's mark (where the stack's badge sits when it has room)."""
    out = {}
    for h, hs in stacks.items():
        cx, cy = lay.centre(*game_map.offsets[h])
        if h in game_map.city_at:
            cy -= 7.9 + CHIP_R
        out[h] = [(cx + (i - (len(hs) - 1) / 2) * CHIP_GAP, cy) for i in range(len(hs))]
    return out


def _chip_box(x: float, y: float) -> Box:
    return x - CHIP_R, y - CHIP_R, x + CHIP_R, y + CHIP_R


def _in_hex(lay: Layout, cr: tuple[int, int], box: Box, pad: float = 0.0) -> bool:
    """Whether ``box`` lies inside the hex ``cr`` (shrunk by ``pad`` px)."""
    cx, cy = lay.centre(*cr)
    half = lay.size * SQ3 / 2 - pad
    return cy - half <= box[1] and box[3] <= cy + half and all(
        abs(x - cx) <= lay.size - pad * 2 / SQ3 - abs(y - cy) / SQ3 for x in (box[0], box[2]) for y in (box[1], box[3]))


@dataclass(frozen=True)
class Label:
    """One placed label: ``kind`` is "badge" (a stack's counts), "ids" (the viewer's unit ids of a stack) or
    "tag" (a city's controller and marks); ``hex`` the hex it belongs to; ``box`` where it went; ``leader``
    the line back to its hex or badge, if it had to move away."""

    kind: str
    hex: str
    text: str
    box: Box
    leader: tuple[float, float, float, float] | None = None
    fill: str = ""
    outline: str = ""
    chip: tuple[float, float] | None = None  # a badge's: the dot on its hex
    lines: tuple[str, ...] = ()  # a badge's lines
    size: float = BADGE_SIZE  # a badge's font size
    parts: tuple[tuple[str, str], ...] = ()  # a tag's parts: (text, colour)


NEAR_REACH = 24.0  # how far from its chip a badge with a line may sit (the rings' first two gaps)
HOME_PAD = 0.5  # a badge "in its hex" keeps this far inside the hex's edges
HOME_STEP = 3.0  # the grid of the places tried for a badge in its hex, in px
SPILL = 4.0  # a badge reaching into an empty next hex is no more than this wider than its hex
ON_IDS_EACH = 12  # of each form's places wholly in its hex, the nearest so many may cover hex ids
REACH_EPS = 8.0  # a label reaching less than this (px) over its hex's edge, into a next hex, is "a little" over


def _fits(size: float, w: float, h: float, want: tuple[float, float], dx: float, dy: float,
          chip: tuple[float, float] | None, floor: float) -> bool:
    """Whether a w x h badge centred (dx, dy) from its hex's centre is a place of ``_home_offsets``."""
    inner = size * SQ3 / 2

    def inside(x: float, y: float, pad: float) -> bool:  # the point (x, y) from the centre, in the hex
        return abs(y) <= inner - pad and abs(x) <= size - pad * 2 / SQ3 - abs(y) / SQ3

    if chip is None:
        return dy + h / 2 <= floor and all(inside(dx + sx * w / 2, dy + sy * h / 2, HOME_PAD)
                                           for sx in (-1, 1) for sy in (-1, 1))
    gx, gy = max(abs(dx - chip[0]) - w / 2, 0.0), max(abs(dy - chip[1]) - h / 2, 0.0)
    return math.hypot(gx, gy) <= CHIP_R - 1 and math.hypot(dx - want[0], dy - want[1]) <= NEAR_REACH and (
        (gx == 0 and gy == 0) or inside(dx, dy, 0.0))


def _nearest_first(want: tuple[float, float], places: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    """``places`` nearest ``want`` first (above before below, left before right)."""
    return [(dx, dy) for *_, dx, dy in sorted((round(math.hypot(dx - want[0], dy - want[1]), 3), dy > want[1],
                                               dx > want[0], dx, dy) for dx, dy in places)]


@lru_cache(maxsize=4096)
def _home_offsets(size: float, w: float, h: float, want: tuple[float, float], chip: tuple[float, float] | None = None,
                  floor: float = math.inf) -> tuple[tuple[float, float], ...]:
    """Offsets from a hex's centre of the centre of a w x h badge, on a grid of HOME_STEP px through ``want``
    (its preferred centre), nearest ``want`` first: without ``chip``, every place where the badge lies wholly
    inside the hex (HOME_PAD px in) with its bottom no lower than ``floor`` (above a city's mark); with it
    (the offset of the stack's chip), every place where it covers the chip (its centre, or but a sliver of
    it with its own centre inside the hex), no further than NEAR_REACH px from ``want`` (``_fits``)."""
    inner = size * SQ3 / 2
    step = HOME_STEP
    if chip is None:  # the box's centre can only be this far from the hex's centre
        lo_x, hi_x, lo_y, hi_y = -(size - w / 2), size - w / 2, -(inner - h / 2), min(inner - h / 2, floor - h / 2)
    else:
        lo_x, hi_x = chip[0] - w / 2 - CHIP_R, chip[0] + w / 2 + CHIP_R
        lo_y, hi_y = chip[1] - h / 2 - CHIP_R, chip[1] + h / 2 + CHIP_R
    places = [(want[0] + i * step, want[1] + j * step)
              for i in range(math.ceil((lo_x - want[0]) / step), math.floor((hi_x - want[0]) / step) + 1)
              for j in range(math.ceil((lo_y - want[1]) / step), math.floor((hi_y - want[1]) / step) + 1)]
    return tuple(_nearest_first(want, (p for p in places if _fits(size, w, h, want, *p, chip, floor))))


def _snapped(size: float, w: float, h: float, want: tuple[float, float], chip: tuple[float, float] | None,
             floor: float, edges: tuple[list[float], list[float]]) -> tuple[tuple[float, float], ...]:
    """``_home_offsets``'s places, and the places that fit in the gaps its grid steps over: the badge just
    beside each edge of the boxes near (``edges``: their x and y edges, from the hex's centre), in line with
    ``want`` (or the chip), nearest first."""
    g = Placer.GAP / 2 + 0.01
    xs, ys = edges
    lines_x = {want[0]} | ({chip[0]} if chip else set())
    lines_y = {want[1]} | ({chip[1]} if chip else set())
    extra = [(x, y + g + h / 2) for y in ys for x in lines_x] + [(x, y - g - h / 2) for y in ys for x in lines_x] + \
        [(x + g + w / 2, y) for x in xs for y in lines_y] + [(x - g - w / 2, y) for x in xs for y in lines_y]
    extra = [p for p in extra if _fits(size, w, h, want, *p, chip, floor)]
    grid = _home_offsets(size, w, h, want, chip, floor)
    return tuple(_nearest_first(want, set(grid) | set(extra))) if extra else grid


def _outside(box: Box, centre: tuple[float, float], size: float = HEX) -> float:
    """About how much of ``box`` (px²) lies outside the hex around ``centre`` (sampled on a 6 x 4 grid)."""
    x0, y0, x1, y1 = box
    hx, hy = centre
    inner = size * SQ3 / 2
    out = 0
    for i in range(6):
        for j in range(4):
            dx, dy = abs(x0 + (i + 0.5) * (x1 - x0) / 6 - hx), abs(y0 + (j + 0.5) * (y1 - y0) / 4 - hy)
            out += dy > inner or dx > size - dy / SQ3
    return out / 24 * (x1 - x0) * (y1 - y0)


def _box_hits_hex(box: Box, centre: tuple[float, float], size: float = HEX, eps: float = REACH_EPS) -> bool:
    """Whether ``box`` reaches more than ``eps`` px into the (flat-topped) hex around ``centre``: their
    projections overlap on the box's axes and on the normals of the hex's slanted edges."""
    x0, y0, x1, y1 = box
    hx, hy = centre
    inner = size * SQ3 / 2
    if min(x1, hx + size) - max(x0, hx - size) <= eps or min(y1, hy + inner) - max(y0, hy - inner) <= eps:
        return False
    mx, my, hw, hh = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
    for a, b in ((SQ3 / 2, 0.5), (SQ3 / 2, -0.5)):
        d = abs((mx - hx) * a + (my - hy) * b)
        if hw * a + hh * abs(b) + inner - d <= eps:
            return False
    return True


def _reaches_out(box: Box, centre: tuple[float, float], size: float = HEX) -> bool:
    """Whether ``box`` reaches more than a little (REACH_EPS px) over the edges of the hex around ``centre``,
    whatever lies beyond them (players.md: "a label that reaches a little over the hex's edge")."""
    cx, cy = centre
    inner, wide = size * SQ3 / 2 + REACH_EPS, size + REACH_EPS * 2 / SQ3
    return not all(abs(y - cy) <= inner and abs(x - cx) <= wide - abs(y - cy) / SQ3
                   for x in (box[0], box[2]) for y in (box[1], box[3]))


def _place_badge(placer: Placer, lay: Layout, centre: tuple[float, float], want: tuple[float, float],
                 bottom: bool, chip: tuple[float, float], text: str, own: str, others: list[tuple[float, float]],
                 floor: float = math.inf) -> tuple[Box, tuple[tuple[str, ...], float], bool]:
    """Where a stack's badge goes, in which form (``badge_forms``), and whether it is away from its hex (then
    it has a line to its chip).  ``want``: its preferred centre (from the hex's centre ``centre``), or with
    ``bottom`` the middle of its bottom edge (on a city's mark, on the badge below it); ``own``:
    the placer's kind of its hex's chips (it may cover them); ``others``: the centres of the next hexes with
    a stack or a city of their own; ``floor``: how low its bottom may be in its hex (above a city's mark).

    In this order: (1) wholly inside its hex, in its first form, else in a smaller one (two or three lines,
    the smaller font), nearest its preferred place first; else (2) on its chip, reaching no more than
    REACH_EPS px over its hex's edge (into any next hex, empty or not: ``_reaches_out``), on one or two lines
    little wider than the hex, the form that reaches least out of its hex;
    else (3) one of those places where it covers only hex ids (drawn again elsewhere in their hex); else (4)
    away from its hex, 10 px from its chip or more (as near as it can, covering a hex id rather than going
    further than NEAR_REACH), with a line to it, over no other stack's or city's hex first.  Places are
    tried on a grid of HOME_STEP px and in the gaps beside what lies near (``_snapped``)."""
    cx, cy = centre
    forms = badge_forms(text)
    at_chip = (round(chip[0] - cx, 1), round(chip[1] - cy, 1))
    # each form with its size and its preferred centre (its bottom at ``want``'s when it sits on something)
    sized = [(form, w, h, (want[0], round(2 * (want[1] - h / 2 if bottom else want[1])) / 2))
             for form in forms for w, h in [_form_size(*form)]]

    def box_at(w: float, h: float, dx: float, dy: float) -> Box:
        return cx + dx - w / 2, cy + dy - h / 2, cx + dx + w / 2, cy + dy + h / 2

    def clear(box: Box) -> bool:
        return not any(_box_hits_hex(box, o, lay.size) for o in others)

    def little(box: Box) -> bool:  # over its hex's edge a little at most: into no next hex, busy or not
        return not _reaches_out(box, centre, lay.size)

    for form, w, h, at in sized:  # (1) wholly in its hex
        for dx, dy in _home_offsets(lay.size, w, h, at, None, floor):
            box = box_at(w, h, dx, dy)
            if placer.free(box, own):
                return box, form, False
    # the edges of what lies near, from the hex's centre: a badge may fit in a gap narrower than the grid
    reach = (cx - 2 * lay.size, cy - 2 * lay.size, cx + 2 * lay.size, cy + 2 * lay.size)
    near = [b for kind, b in placer.near(reach) if kind != own]
    edges = (sorted({round(x - cx, 2) for b in near for x in (b[0], b[2]) if abs(x - cx) < lay.size}),
             sorted({round(y - cy, 2) for b in near for y in (b[1], b[3]) if abs(y - cy) < lay.size}))
    for form, w, h, at in sized:  # (1) again, in those gaps
        grid = set(_home_offsets(lay.size, w, h, at, None, floor))
        for dx, dy in _snapped(lay.size, w, h, at, None, floor, edges):
            if (dx, dy) not in grid:
                box = box_at(w, h, dx, dy)
                if placer.free(box, own):
                    return box, form, False
    # (2) on its chip, a little over its hex's edge at most: the form least out of its hex
    spill = [(f, w, h, at) for f, w, h, at in sized if w <= 2 * lay.size + SPILL and len(f[0]) <= 2] or sized[-1:]
    best = None
    for form, w, h, at in spill:
        for dx, dy in _snapped(lay.size, w, h, at, at_chip, math.inf, edges):
            box = box_at(w, h, dx, dy)
            if little(box) and placer.free(box, own):
                out = _outside(box, centre, lay.size)
                if best is None or out < best[0]:
                    best = (out, box, form)
                break
    if best is not None:
        return best[1], best[2], False
    # (3) covering hex ids only (they are drawn again in their hex): the least of them, of the nearest places
    home = ((box_at(w, h, dx, dy), f) for f, w, h, at in sized
            for dx, dy in _home_offsets(lay.size, w, h, at, None, floor)[:ON_IDS_EACH])
    on_chip = ((box_at(w, h, dx, dy), f) for f, w, h, at in spill
               for dx, dy in _snapped(lay.size, w, h, at, at_chip, math.inf, edges))
    on_ids = list(islice(((b, f) for b, f in chain(home, on_chip)
                          if little(b) and placer.free(b, own, but="hexid")), Placer.ON_IDS))
    if on_ids:
        box, form = min(on_ids, key=lambda bf: placer.cost(bf[0], own))
        return box, form, False
    # (4) away, with a line from its chip, as near as it can: over no other stack's or city's hex first; near
    # its hex over hex ids (drawn again) rather than further out; in its first form, else its smallest
    small = min(sized, key=lambda s: s[1] * s[2])
    for gap in _RINGS[1:]:
        for form, w, h, _ in (sized[0], small):
            ring = _around(_chip_box(*chip), w, h, (gap,))
            box = next((b for b in ring if clear(b) and placer.free(b, own)), None) or \
                next((b for b in ring if placer.free(b, own)), None)
            if box is None and gap <= NEAR_REACH:
                on_ids = [b for b in ring if placer.free(b, own, but="hexid")]
                box = min(on_ids, key=lambda b: placer.cost(b, own), default=None)
            if box is not None:
                return box, form, True
    form, w, h, _ = sized[0]
    return min(_around(_chip_box(*chip), w, h, _RINGS[1:]), key=lambda b: placer.cost(b, own)), form, True


def _marker_box(cx: float, cy: float, home: bool, hostile: bool) -> Box:
    """A city's mark: its square or disc, or the hostile ring around it (the siege ring is not counted: the
    labels' places are the same with it or without it, and they may cover a little of it)."""
    r = 11.6 if hostile else 7.9 if home else 6.8
    return cx - r, cy - r, cx + r, cy + r


def _city_box(view: dict[str, Any], cid: str, cx: float, cy: float) -> Box:
    """``_marker_box`` of the city ``cid`` as the view shows it."""
    c = view["cities"].get(cid, {})
    return _marker_box(cx, cy, bool(c.get("home_of")), bool(c.get("hostile")))


# A city under siege the viewer may know of (``view["besieged"]``: their own cities, as their report's CITIES
# says "under siege"; the moderator's map: every one) has a dark ring with short spikes round its mark, under
# the labels (a new player found Megara under siege in his report and nowhere on the map).  No spike points
# down, into the city's name.
SIEGE_R, SIEGE_TICK, SIEGE_INK = 9.6, 2.4, "#222222"


def _siege_mark(cx: float, cy: float, r: float = SIEGE_R, t: float = SIEGE_TICK) -> str:
    """The siege ring (radius ``r``, spikes ``t`` long) round a city's mark at (cx, cy), on a white casing (it
    reads on any terrain)."""
    d = [f"M{_f(cx - r)},{_f(cy)}A{_f(r)},{_f(r)} 0 1 0 {_f(cx + r)},{_f(cy)}A{_f(r)},{_f(r)} 0 1 0 {_f(cx - r)},{_f(cy)}"]
    for i in (0, 3, 4, 5, 6, 7):  # not 1 and 2: down, into the name
        a = math.radians(22.5 + 45 * i)
        d.append(f"M{_f(cx + r * math.cos(a))},{_f(cy + r * math.sin(a))}"
                 f"L{_f(cx + (r + t) * math.cos(a))},{_f(cy + (r + t) * math.sin(a))}")
    d_s = "".join(d)
    return (f'<path fill="none" stroke="#ffffff" stroke-width="3.4" d="{d_s}"/>'
            f'<path fill="none" stroke="{SIEGE_INK}" stroke-width="1.6" stroke-linecap="round" d="{d_s}"/>')


HOSTILE_INK, RAZED_INK = "#b00000", "#3a2a1a"  # the tag's "!" (hostile) and "razed N"


def _ink(colour: str) -> str:
    """A player's colour a fifth darker: their tag's letters, legible on the tag's pale halo over any terrain."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{int(v * 0.8):02x}" for v in (r, g, b))


def _city_mark_parts(view: dict[str, Any], c: dict[str, Any],
                     colours: dict[str, str] | None = None) -> tuple[tuple[str, str], ...]:
    """A city's tag as (text, colour) parts: who holds it (if not its home player), in their colour; "!" in red
    if it is hostile; "razed N" (its razed counters) in dark brown: a word no unit id looks like (an "R2" read
    as a unit of Rowers)."""
    parts = []
    controller = c["controller"]
    if controller and controller != c.get("home_of"):
        parts.append((view["players"][controller]["abbr"], _ink((colours or {}).get(controller, NEUTRAL_UNITS))))
    if c.get("hostile"):
        parts.append(("!", HOSTILE_INK))
    if c.get("razed"):
        parts.append((f"razed {c['razed']}", RAZED_INK))
    return tuple(parts)


def _city_marks(view: dict[str, Any], c: dict[str, Any]) -> str:
    return " ".join(text for text, _ in _city_mark_parts(view, c))


def _stacks(game_map: GameMap, view: dict[str, Any]) -> dict[str, list[tuple[str | None, dict[str, int], list[str]]]]:
    """The stacks in sight by hex: (owner, counts by type, the unit ids: the viewer's own only)."""
    stacks: dict[str, list[tuple[str | None, dict[str, int], list[str]]]] = defaultdict(list)
    by_hex_owner: dict[tuple[str, str | None], list[dict]] = defaultdict(list)
    for u in view.get("units", ()):
        if u.get("away_until"):
            continue
        by_hex_owner[(u["hex"], u["owner"])].append(u)
    for (h, owner), us in sorted(by_hex_owner.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        stacks[h].append((owner, dict(Counter(u["type"] for u in us)), [u["id"] for u in us]))
    for e in view.get("others", ()):
        stacks[e["hex"]].append((e["owner"], e["counts"], []))
    return {h: stacks[h] for h in sorted(stacks) if h in game_map.offsets}


def _battle_hexes(game_map: GameMap, events: Iterable[dict[str, Any]]) -> list[str]:
    return [e["target"] for e in events if e.get("event") == "battle" and e.get("target") in game_map.offsets]


def place_labels(game_map: GameMap, view: dict[str, Any], events: Iterable[dict[str, Any]] = (),
                 lay: Layout | None = None, colours: dict[str, str] | None = None) -> tuple[list[Label], Placer]:
    """Where the map's labels go, and the placer with every box taken (marks and names too).

    First the fixed marks are taken: the city names (the static layer's), the hex ids, the cities' marks,
    the battle marks and every stack's chip (``_chips``: no other hex's label may hide it).  Then every
    stack's badge, the cities' hexes first (their mark and name leave the least room), then the widest: in
    its hex, else on its chip a little over its edge, else away (``_place_badge``; preferred: on the hex's
    centre, above the city's mark in a city); a badge that does not touch its chip has a line to it
    (Label.leader); a hex's further stacks go above the first.  Then the cities' controller tags, right of
    the mark (over a hex id, drawn again, rather than further), else around it with a line.  Then the
    viewer's unit ids, above their badge, else beside or below it (where they stay in the stack's hex or a
    little over its edge), else further out with a line to the badge.  Last the hex ids a label covers, drawn
    again at a free place in their hex (``_moved_ids``).
    Badges go first because the stack's place is the map's main news; long id lines last because they can
    go anywhere a line can point from.
    """
    lay = lay or layout_of(game_map)
    colours = colours or player_colours(view, game_map)
    players = view["players"]
    viewer = view.get("viewer")
    placer = Placer((MARGIN / 2, MARGIN / 2, MARGIN * 1.5 + lay.map_w, MARGIN * 1.5 + lay.map_h))

    def centre(h: str) -> tuple[float, float]:
        return lay.centre(*game_map.offsets[h])

    key = _static_key(game_map)
    with_id = _names_with_ids(key[0], key[1], key[3])
    for city in sorted(game_map.cities.values(), key=lambda c: c.hex):
        cx, cy = centre(city.hex)
        placer.take(_city_name_box(cx, cy, city.name, city.hex if city.hex in with_id else None), "name")
    for box in _id_boxes(*key).values():  # every other hex's id, at its top (static layer)
        placer.take(box, "hexid")
    for cid in sorted(view["cities"]):
        placer.take(_city_box(view, cid, *centre(game_map.cities[cid].hex)), "city")
    for h in _battle_hexes(game_map, events):
        bx, by = _burst_at(game_map, lay, h)
        placer.take((bx - BURST_R, by - BURST_R, bx + BURST_R, by + BURST_R), "battle")

    labels: list[Label] = []
    id_lines: list[tuple[str, str, Box]] = []
    stacks = _stacks(game_map, view)
    chips = _chips(game_map, stacks, lay)
    for h in stacks:  # no other hex's label may hide a stack's chip (where its units are, its line's end)
        for x, y in chips[h]:
            placer.take(_chip_box(x, y), f"hex {h}")

    def badge_text(owner: str | None, counts: dict[str, int]) -> str:
        if viewer is not None and owner == viewer:
            return _counts_label(counts)
        # others' stacks: the owner's abbreviation first, for black and white prints
        return f"{players[owner]['abbr'] if owner in players else 'NEU'} {_counts_label(counts)}"

    # cities' stacks first (the mark and the name leave them the least room), then the widest first
    busy = set(stacks) | set(game_map.city_at)  # the hexes a badge may not reach into without a line
    for h in sorted(stacks, key=lambda h: (h not in game_map.city_at,
                                           -max(_badge_size(badge_text(o, c))[0] for o, c, _ in stacks[h]), h)):
        cx, cy = centre(h)
        others = [centre(n) for n in game_map.neighbours[h] if n in busy and n in game_map.offsets]
        floor = math.inf  # in a city, its badges go above its mark
        if h in game_map.city_at:
            floor = _city_box(view, game_map.city_at[h].id, 0.0, 0.0)[1] - Placer.GAP
        top = None  # the top of the hex's last badge (and of the room for its ids): the next goes above
        for (owner, counts, ids), chip in zip(stacks[h], chips[h]):
            fill = colours.get(owner, NEUTRAL_UNITS) if owner else NEUTRAL_UNITS
            mine = viewer is not None and owner == viewer
            text = badge_text(owner, counts)
            if top is not None:  # a further stack of the hex: above the one before
                want, bottom = (0.0, top - 1 - cy), True
            elif h in game_map.city_at:  # the first in a city: on its mark
                want, bottom = (0.0, floor), True
            else:  # on the hex's centre; a little low with the viewer's ids (room for them above it)
                want, bottom = (0.0, 4.0 if mine and ids else 0.0), False
            box, form, away = _place_badge(placer, lay, (cx, cy), want, bottom, chip, text, f"hex {h}", others,
                                           floor)
            placer.take(box, "badge")
            labels.append(Label("badge", h, text, box, _leader(chip, box, 0.0 if away else CHIP_R + 2), fill,
                                "#000000" if mine or viewer is None else "#ffffff", chip, *form))
            top = box[1]
            if mine and ids:
                id_lines.append((h, compact_ids(ids, players.get(owner, {}).get("abbr")), box, fill))
                top -= IDS_SIZE * 1.08 + 1  # room for the ids above it

    for cid in sorted(view["cities"]):
        c = view["cities"][cid]
        parts = _city_mark_parts(view, c, colours)
        text = " ".join(t for t, _ in parts)
        if not text:
            continue
        h = game_map.cities[cid].hex
        cx, cy = centre(h)
        x0, y0, x1, y1 = _text_box(0, 0, text, TAG_SIZE, "bold")
        mark = _city_box(view, cid, cx, cy)
        cands = _around(mark, x1 - x0, y1 - y0, _RINGS, order="EW")
        # beside the mark but slid up or down a little (clear of a badge above it or a hex id), still touching
        slid = [(bx0 + dx, by0 + dy, bx1 + dx, by1 + dy) for bx0, by0, bx1, by1 in cands[:2]
                for dy in (-2.5, 2.5, -3, 3, -6, 6) for dx in (0, 4, 8, 12)]
        cands = cands[:12] + slid + cands[12:]
        # beside the mark even over a hex id (drawn again elsewhere in its hex) before further out with a line
        box, away = placer.place(((b, i >= 12 + len(slid)) for i, b in enumerate(cands)), "tag",
                                 near=12 + len(slid))
        labels.append(Label("tag", h, text, box, _leader((cx, cy), box) if away else None, parts=parts))

    for h, text, badge, fill in id_lines:
        x0, y0, x1, y1 = _text_box(0, 0, text, IDS_SIZE)
        cands = _around(badge, x1 - x0, y1 - y0, _RINGS)
        # touching its badge (no line) only where it stays in the stack's hex, or but a little over its edge;
        # else further out, joined to the badge by a line (an id line ran from Ionia over the sea hex 2610 into
        # 2710 with none; beside a badge that is itself away from its hex it would run on over further hexes)
        touching = [b for b in cands[:12] if not _reaches_out(b, centre(h), lay.size)]
        cands = touching + cands[12:]
        box, away = placer.place(((b, i >= len(touching)) for i, b in enumerate(cands)), "ids")
        bx, by = (badge[0] + badge[2]) / 2, (badge[1] + badge[3]) / 2
        labels.append(Label("ids", h, text, box, _leader((bx, by), box) if away else None, fill))
    labels += _moved_ids(game_map, key, lay, placer, labels)
    return labels, placer


def _clipped_area(poly: list[tuple[float, float]], box: Box) -> float:
    """The area of the convex polygon ``poly`` inside ``box`` (the polygon clipped to each side in turn)."""
    pts = list(poly)
    for axis, lim, sign in ((0, box[0], 1), (0, box[2], -1), (1, box[1], 1), (1, box[3], -1)):
        out = []
        for i, p in enumerate(pts):
            q = pts[(i + 1) % len(pts)]
            p_in, q_in = sign * (p[axis] - lim) >= 0, sign * (q[axis] - lim) >= 0
            if p_in:
                out.append(p)
            if p_in != q_in:
                t = (lim - p[axis]) / (q[axis] - p[axis])
                out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
        pts = out
        if len(pts) < 3:
            return 0.0
    return abs(sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(pts, pts[1:] + pts[:1]))) / 2


LEADER_W = 3.6  # a leader line's width, with its pale casing


def _label_shapes(labels: Iterable[Label]) -> list[tuple[list[tuple[float, float]], Box]]:
    """What a label draws outside its box, as convex polygons (with their bounding boxes): the tail of a badge
    away from its hex or of an id line away from its badge (``_tail``), and the line of a tag or an id line
    away from its mark or badge."""
    polys = []
    for lab in labels:
        if lab.kind == "badge" and lab.leader and lab.chip:
            polys.append(_tail_points(lab.chip, lab.box))
        elif lab.kind == "ids" and lab.leader and lab.fill:
            polys.append(_tail_points(lab.leader[:2], lab.box))
        if lab.leader and lab.kind != "badge":
            x0, y0, x1, y1 = lab.leader
            n = math.hypot(x1 - x0, y1 - y0)
            if n > 0:
                nx, ny = -(y1 - y0) / n * LEADER_W / 2, (x1 - x0) / n * LEADER_W / 2
                polys.append([(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)])
    return [(p, (min(x for x, _ in p), min(y for _, y in p), max(x for x, _ in p), max(y for _, y in p)))
            for p in polys]


def _moved_ids(game_map: GameMap, key: tuple, lay: Layout, placer: Placer, labels: list[Label]) -> list[Label]:
    """The hex ids a label had to cover, drawn again at a free place in their hex (``_id_spots``) on a halo,
    so every hex's id stays readable (the id the label covers is under it).  A label's tail or line counts as
    the label (a new player found 1415 under a tail and nowhere else), and the ids are drawn again clear of
    them."""
    out = []
    ids = _id_boxes(*key)
    by_box = {box: h for h, box in ids.items()}
    covered = set()
    for lab in labels:
        covered |= {by_box[box] for box in placer.overlapping(lab.box, "hexid")
                    if box in by_box and hides(lab.box, box)}
    shapes = _label_shapes(labels)
    for poly, bbox in shapes:
        covered |= {by_box[box] for box in placer.overlapping(bbox, "hexid") if box in by_box
                    and _clipped_area(poly, box) > ID_HIDDEN * (box[2] - box[0]) * (box[3] - box[1])}

    def on_shape(b: Box) -> bool:
        return any(_overlap(b, bbox) > 0 and _clipped_area(poly, b) > 0 for poly, bbox in shapes)
    for h in sorted(covered):
        idb, cr = ids[h], game_map.offsets[h]
        cx, cy = lay.centre(*cr)
        spots = [_moved_id_box(cx + dx, cy + dy, h) for dx, dy in _id_spots(lay.size)]
        # clear of everything, and of the other ids and the cities' names by 4 px more (an id close to another
        # or after a name reads as that hex's: "Megara 1112 1212")
        def near(b: Box, kind: str) -> bool:
            return placer.hits((b[0] - ID_CLEAR, b[1] - ID_CLEAR, b[2] + ID_CLEAR, b[3] + ID_CLEAR), kind, idb)

        free = [b for b in spots if placer.free(b, but="hexid") and not near(b, "hexid") and not on_shape(b)]
        halo = next((b for b in free if not near(b, "name")), free[0] if free else None)
        if halo is None:  # the least covering place, never by another id, over a stack's label last (Halicarnassus'
            # id, at the top of its crowded hex, was drawn over the "2A 2B" badge there): over a city's tag or mark
            # first, which the holder's colour says again
            halo = min(spots, key=lambda b: placer.cost(b) + 1000 * near(b, "hexid") + 1000 * on_shape(b)
                       + 2000 * (placer.hits(b, "badge") or placer.hits(b, "ids")) + 300 * placer.hits(b, "name"))
        placer.take(halo, "hexid")
        out.append(Label("hexid", h, h, halo))
    return out


# -- the dynamic layers ---------------------------------------------------------------------------------

def player_colours(view: dict[str, Any], game_map: GameMap) -> dict[str, str]:
    """A colour per player, fixed by their home city's place among the map's city states."""
    states = [c.id for c in game_map.city_states()]
    out = {}
    for pid, p in view["players"].items():
        i = states.index(p["home"]) if p["home"] in states else len(out)
        out[pid] = PALETTE[i % len(PALETTE)]
    return out


def _text(x: float, y: float, s: str, size: float = 10, weight: str = "normal", fill: str = "#111",
          anchor: str = "middle", halo: bool = True) -> str:
    """A label; with ``halo`` a pale box goes under it so it reads on any terrain (one rectangle is far
    cheaper for CairoSVG than a second, stroked text)."""
    body = escape(s)
    out = ""
    if halo:
        x0, y0, x1, y1 = _text_box(x, y, s, size, weight, anchor)
        out = (f'<rect x="{_f(x0)}" y="{_f(y0)}" width="{_f(x1 - x0)}" height="{_f(y1 - y0)}" rx="2" '
               f'fill="#ffffff" fill-opacity="0.72"/>')
    return out + (f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(size)}" text-anchor="{anchor}" '
                  f'font-weight="{weight}" fill="{fill}">{body}</text>')


def _tag(x: float, y: float, parts: tuple[tuple[str, str], ...]) -> str:
    """A city's tag (``_city_mark_parts``), centred at x on the baseline y, on one halo: each part its own text
    in its colour, placed by the font's widths (CairoSVG misplaces coloured ``<tspan>``s in centred text)."""
    text = " ".join(t for t, _ in parts)
    x0, y0, x1, y1 = _text_box(x, y, text, TAG_SIZE, "bold")
    out = [f'<rect x="{_f(x0)}" y="{_f(y0)}" width="{_f(x1 - x0)}" height="{_f(y1 - y0)}" rx="2" '
           f'fill="#ffffff" fill-opacity="0.72"/>']
    at = x0 + 2
    for t, ink in parts:
        out.append(f'<text x="{_f(at)}" y="{_f(y)}" font-size="{_f(TAG_SIZE)}" text-anchor="start" '
                   f'font-weight="bold" fill="{ink}">{escape(t)}</text>')
        at += text_width(t + " ", TAG_SIZE, True)
    return "".join(out)


def _counts_label(counts: dict[str, int]) -> str:
    order = ["army", "rowers", "fleet", "transport", "baggage", "leader", "pirate", "barbarian"]
    letters = {"army": "A", "rowers": "R", "fleet": "F", "transport": "T", "baggage": "B", "leader": "L",
               "pirate": "P", "barbarian": "X"}
    return " ".join(f"{counts[t]}{letters[t]}" for t in order if counts.get(t))


def compact_ids(ids: Iterable[str], own: str | None = None) -> str:
    """["ATH-A1", "ATH-A2", "ATH-A3", "ATH-F1"] -> "A1-3 F1": the owner's prefix ``own`` dropped (None: every
    unit's), runs joined.  A unit taken from another player keeps its id and its prefix: "A1 ARC-T2"."""
    by_letter: dict[str, list[int]] = defaultdict(list)
    odd: list[str] = []
    foreign: list[str] = []
    for uid in ids:
        prefix, dash, tail = uid.rpartition("-")
        if own is not None and dash and prefix != own:
            foreign.append(uid)
            continue
        letters = tail.rstrip("0123456789")
        digits = tail[len(letters):]
        if letters and digits:
            by_letter[letters].append(int(digits))
        else:
            odd.append(tail)
    parts = []
    for letter in sorted(by_letter, key=lambda s: "ARFTBLPX".find(s) if s in "ARFTBLPX" else 99):
        nums = sorted(set(by_letter[letter]))
        runs: list[str] = []
        start = prev = nums[0]
        for n in nums[1:] + [None]:
            if n is not None and n == prev + 1:
                prev = n
                continue
            runs.append(f"{start}" if start == prev else f"{start}-{prev}")
            if n is not None:
                start = prev = n
        parts.append(letter + ",".join(runs))
    return " ".join(parts + odd + sorted(foreign, key=id_order))


def _arrow(points: list[tuple[float, float]], colour: str, dashed: bool) -> str:
    d = "M" + "L".join(f"{_f(x)},{_f(y)}" for x, y in points)
    (x1, y1), (x2, y2) = points[-2], points[-1]
    ang = math.atan2(y2 - y1, x2 - x1)
    tip = (x2 - 6 * math.cos(ang), y2 - 6 * math.sin(ang))
    left = (tip[0] - 9 * math.cos(ang - 0.45), tip[1] - 9 * math.sin(ang - 0.45))
    right = (tip[0] - 9 * math.cos(ang + 0.45), tip[1] - 9 * math.sin(ang + 0.45))
    head = f"M{_f(tip[0])},{_f(tip[1])}L{_f(left[0])},{_f(left[1])}L{_f(right[0])},{_f(right[1])}Z"
    dash = ' stroke-dasharray="6,4"' if dashed else ""
    return (f'<path fill="none" stroke="#ffffff" stroke-width="5" stroke-linejoin="round" stroke-linecap="round" '
            f'd="{d}"/><path fill="none" stroke="{colour}" stroke-width="2.4" stroke-linejoin="round"{dash} d="{d}"/>'
            f'<path fill="{colour}" stroke="#ffffff" stroke-width="1" d="{head}"/>')


def _burst(cx: float, cy: float, r: float) -> str:
    pts = []
    for i in range(16):
        rr = r if i % 2 == 0 else r * 0.5
        a = math.radians(i * 22.5 - 90)
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return ('<path fill="#e8322b" stroke="#000000" stroke-width="1.2" stroke-linejoin="round" d="M'
            + "L".join(f"{_f(x)},{_f(y)}" for x, y in pts) + 'Z"/>')


TAIL_HALF = 4.5  # half the width of a badge's tail where it leaves the badge


def _tail(chip: tuple[float, float], box: Box, fill: str, outline: str) -> str:
    """A badge away from its hex points at its chip like a speech bubble: a wedge in its owner's colour from the
    badge's edge nearest the chip (``_leader``'s end) to the chip's centre.  (A new player read Athens' badge,
    drawn in the hex above with a thin dark line to its dot, as a stack in that hex.)"""
    (ax, ay), (cx, cy), (bx, by) = _tail_points(chip, box)
    return (f'<path d="M{_f(ax)},{_f(ay)}L{_f(cx)},{_f(cy)}L{_f(bx)},{_f(by)}Z" fill="{fill}" stroke="{outline}" '
            f'stroke-width="1" stroke-linejoin="round"/>')


def _tail_points(chip: tuple[float, float], box: Box) -> list[tuple[float, float]]:
    """``_tail``'s wedge: one end of its base on the box's edge, its tip on ``chip``, the other end."""
    cx, cy = chip
    x0, y0, x1, y1 = box
    px, py = min(max(cx, x0), x1), min(max(cy, y0), y1)
    # off its left or right side (or off a corner, further out sideways than up or down): the base runs up and
    # down that side (on the top or bottom edge the wedge to a point far to the side is a flat sliver: an id
    # line's tail to its badge beside it read as a line)
    if px in (x0, x1) and (y0 < py < y1 or abs(cx - px) > abs(cy - py)):
        h = min(TAIL_HALF, (y1 - y0) / 2)
        py = min(max(py, y0 + h), y1 - h)
        base = ((px, py - h), (px, py + h))
    else:  # above or below it (or off a corner): the base runs along its top or bottom
        h = min(TAIL_HALF, (x1 - x0) / 2)
        px = min(max(px, x0 + h), x1 - h)
        base = ((px - h, py), (px + h, py))
    return [base[0], (cx, cy), base[1]]


def _chip(x: float, y: float, fill: str) -> str:
    """A stack's chip: a dot in its owner's colour, ringed in black, on the stack's own hex."""
    return f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(CHIP_R)}" fill="{fill}" stroke="#000000" stroke-width="1.2"/>'


def _unit_box(x: float, y: float, label: str, fill: str, outline: str = "#000000") -> str:
    """A stack's badge (``_badge_lines``) with the middle of its first line at (x, y)."""
    return _badge_svg(_badge_box(x, y, label), tuple(_badge_lines(label)), BADGE_SIZE, fill, outline)


def _badge_svg(box: Box, lines: tuple[str, ...], size: float, fill: str, outline: str = "#000000") -> str:
    """A stack's badge in ``box``: its lines (``badge_forms``) in white on its owner's colour."""
    x0, y0, x1, y1 = box
    out = [f'<rect x="{_f(x0)}" y="{_f(y0)}" width="{_f(x1 - x0)}" height="{_f(y1 - y0)}" rx="2" fill="{fill}" '
           f'stroke="{outline}" stroke-width="1"/>']
    for i, line in enumerate(lines):
        out.append(f'<text x="{_f((x0 + x1) / 2)}" y="{_f(y0 + 1.05 * size + 1.1 * size * i)}" '
                   f'font-size="{_f(size)}" font-weight="bold" text-anchor="middle" fill="#ffffff">'
                   f'{escape(line)}</text>')
    return "".join(out)


def _dynamic(game_map: GameMap, view: dict[str, Any], events: Iterable[dict[str, Any]], lay: Layout,
             colours: dict[str, str]) -> list[str]:
    """The viewer's layers: fog, cities, moves, units, battles, labels and their part of the legend."""
    viewer = view.get("viewer")
    events = list(events)
    out: list[str] = []

    def centre(h: str) -> tuple[float, float]:
        return lay.centre(*game_map.offsets[h])

    # fog: one path over every hex the viewer cannot see
    visible = set(view.get("visible_hexes", ()))
    fogged = [game_map.offsets[h] for h in game_map.terrain if h not in visible]
    if fogged:
        out.append(fog_paths(outline(lay, fogged), [lay.corners(*cr) for cr in fogged], "fog"))

    # the labels' places (place_labels); lines back to the stack's chip or the badge for those moved away
    placed, _ = place_labels(game_map, view, events, lay, colours)
    leaders = [lab.leader for lab in placed if lab.leader and lab.kind != "badge"]  # a badge's: its tail
    if leaders:
        d = "".join(f"M{_f(x0)},{_f(y0)}L{_f(x1)},{_f(y1)}" for x0, y0, x1, y1 in leaders)
        out.append(f'<g id="leaders"><path fill="none" stroke="#ffffff" stroke-opacity="0.85" stroke-width="3.6" '
                   f'd="{d}"/><path fill="none" stroke="#111111" stroke-width="1.5" d="{d}"/></g>')
    # the viewer's unit ids away from their badge point at it as a badge away from its hex points at its dot:
    # a tail in the owner's colour over their line, from the ids' box to the badge's middle (under the badge).
    # A new player read "A3,9 L3", drawn in 0815 with a thin line to its badge in 0915, as units in 0815.  Under
    # the cities, the moves and the badges: an id line may sit a hex or more away, its tail over other hexes.
    id_tails = [_tail(lab.leader[:2], lab.box, lab.fill, "#000000") for lab in placed
                if lab.kind == "ids" and lab.leader and lab.fill]
    if id_tails:
        out.append('<g id="id-tails">' + "".join(id_tails) + "</g>")

    # cities: marker filled with the controller's colour; the tag (placed with the labels) carries the marks
    markers = []
    for cid in sorted(view["cities"]):
        c = view["cities"][cid]
        city = game_map.cities[cid]
        cx, cy = centre(city.hex)
        fill = colours.get(c["controller"], "#ffffff") if c["controller"] else "#ffffff"
        if c.get("home_of"):
            markers.append(f'<rect x="{_f(cx - 7)}" y="{_f(cy - 7)}" width="14" height="14" fill="{fill}" '
                           f'stroke="#000000" stroke-width="1.6"/>')
        else:
            markers.append(f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="6" fill="{fill}" stroke="#000000" '
                           f'stroke-width="1.4"/>')
        if cid in view.get("besieged", ()):
            markers.append(_siege_mark(cx, cy))
        if c.get("hostile"):
            markers.append(f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="10.5" fill="none" stroke="#d01010" '
                           f'stroke-width="2" stroke-dasharray="3,2"/>')
    out.append('<g id="cities">' + "".join(markers) + "</g>")

    # this turn's moves and battles the viewer saw
    arrows: list[str] = []
    lines: list[list[tuple[float, float]]] = []
    for e in events:
        if e.get("event") != "moved":
            continue
        path = [h for h in ([e["from"]] if e.get("from") else []) + list(e.get("path", ())) if h in game_map.offsets]
        mover = e.get("owner", e.get("player"))
        # a redacted path keeps only the hexes the viewer saw: draw each unbroken run of neighbours
        runs: list[list[str]] = []
        for h in path:
            if runs and (runs[-1][-1] == h or h in game_map.neighbours[runs[-1][-1]]):
                if runs[-1][-1] != h:
                    runs[-1].append(h)
            else:
                runs.append([h])
        for run in runs:
            if len(run) >= 2:
                lines.append([centre(h) for h in run])
                arrows.append(_arrow(lines[-1], colours.get(mover, NEUTRAL_UNITS),
                                     dashed=viewer is not None and mover != viewer))
    if arrows:
        out.append('<g id="moves">' + "".join(arrows) + "</g>")
    # the names of the cities in sight an arrow runs across, again over the arrows
    names = []
    with_id = names_with_ids(game_map)
    for city in sorted(game_map.cities.values(), key=lambda c: c.hex) if lines else ():
        cx, cy = centre(city.hex)
        shown = city.hex if city.hex in with_id else None
        box = _city_name_box(cx, cy, city.name, shown)
        if (city.hex in visible or not fogged) and any(
                _crosses(p, q, box, 2.5) for pts in lines for p, q in zip(pts, pts[1:])):
            names.append(_city_name(cx, cy, city.name, shown))
    if names:
        out.append(f'<g id="names-over-moves" font-family="{FONT}">' + "".join(names) + "</g>")

    # over the moves: the tail of each badge away from its hex, then every stack's chip on its own hex, in its
    # owner's colour (its badge covers it when it sits on it; it covers its tail's tip)
    tails = [_tail(lab.chip, lab.box, lab.fill, lab.outline) for lab in placed
             if lab.kind == "badge" and lab.leader and lab.chip]
    if tails:
        out.append('<g id="tails">' + "".join(tails) + "</g>")
    out.append('<g id="chips">' + "".join(_chip(*lab.chip, lab.fill) for lab in placed if lab.kind == "badge")
               + "</g>")

    boxes, labels, moved_ids = [], [], []
    for lab in placed:
        x0, y0, x1, y1 = lab.box
        if lab.kind == "badge":
            boxes.append(_badge_svg(lab.box, lab.lines, lab.size, lab.fill, lab.outline))
        elif lab.kind == "hexid":  # on a halo 1 px wider than the digits (the id's hex is narrow)
            moved_ids.append(f'<rect x="{_f(x0)}" y="{_f(y0)}" width="{_f(x1 - x0)}" height="{_f(y1 - y0)}" '
                             f'rx="1.5" fill="#ffffff" fill-opacity="0.85"/>'
                             + _text((x0 + x1) / 2, y0 + HEXID_SIZE * 0.82, lab.text, size=HEXID_SIZE,
                                     fill=HEXID_FILL, halo=False))
        elif lab.kind == "tag":
            labels.append(_tag((x0 + x1) / 2, y0 + TAG_SIZE * 0.82, lab.parts))
        elif lab.leader and lab.fill:  # ids away from their badge: a bubble edged in the owner's colour (its tail:
            # "id-tails"), so it does not read as a label of the hex it sits in
            labels.append(f'<rect x="{_f(x0)}" y="{_f(y0)}" width="{_f(x1 - x0)}" height="{_f(y1 - y0)}" rx="2" '
                          f'fill="#ffffff" fill-opacity="0.92" stroke="{lab.fill}" stroke-width="1.5"/>'
                          + _text((x0 + x1) / 2, y0 + IDS_SIZE * 0.82, lab.text, size=IDS_SIZE, fill="#000000",
                                  halo=False))
        else:
            labels.append(_text((x0 + x1) / 2, y0 + IDS_SIZE * 0.82, lab.text, size=IDS_SIZE, fill="#000000"))
    out.append('<g id="units">' + "".join(boxes) + "</g>")

    bursts = [_burst(*_burst_at(game_map, lay, h), BURST_R) for h in _battle_hexes(game_map, events)]
    if bursts:
        out.append('<g id="battles">' + "".join(bursts) + "</g>")

    out.append(f'<g id="labels" font-family="{FONT}">' + "".join(labels + moved_ids) + "</g>")
    out.append(_viewer_legend(game_map, view, colours, lay))
    return out


# The legend, right of the map, in three parts: what every map of the campaign shows (the static layer),
# what every report of a turn shows (the turn's layer) and what only one viewer's map shows.

def _legend_x(lay: Layout) -> float:
    return MARGIN * 2 + lay.map_w


def _marks_y(legend_h: float) -> tuple[float, float, float]:
    """The "Map marks" heading, its first row, and the "Players (cities)" heading (rows MARK_ROW_H apart)."""
    y = MARGIN + legend_h + 10
    return y, y + 16, y + 16 + MARK_ROW_H * MARK_ROWS + 6


MARK_ROWS = 13
MARK_ROW_H = 18  # 20 until the hostile ring had its own row, 19 until the siege ring had: twelve players' rows
# still end above the map's foot
UNIT_MARK_ROW = 5  # the sample unit box, in the viewer's colour


def _marks_legend(lay: Layout, legend_h: float) -> str:
    """The static part of the legend: the hex id note, the map marks, the players' heading."""
    x0 = _legend_x(lay)
    heading_y, y, players_y = _marks_y(legend_h)
    out = [f'<g id="marks-legend" font-family="{FONT}" font-size="11" fill="#222">',
           f'<text x="{_f(x0)}" y="{_f(MARGIN + 51)}" font-size="9" fill="#555">{escape(HEXID_LEGEND[0])}</text>',
           f'<text x="{_f(x0)}" y="{_f(MARGIN + 62)}" font-size="9" fill="#555">{escape(HEXID_LEGEND[1])}</text>',
           f'<text x="{_f(x0)}" y="{_f(heading_y)}" font-weight="bold" font-size="12">Map marks</text>']
    items = [
        (lambda y: f'<rect x="{_f(x0 + 5)}" y="{_f(y - 7)}" width="14" height="14" fill="#ffffff" stroke="#000" '
                   f'stroke-width="1.6"/>', "home city (controller's colour)"),
        (lambda y: f'<circle cx="{_f(x0 + 12)}" cy="{_f(y)}" r="6" fill="#ffffff" stroke="#000" stroke-width="1.4"/>',
         "minor city; white: neutral"),
        # each mark by itself (a new player took the dashed ring drawn beside the tag's words for all of them)
        (lambda y: f'<circle cx="{_f(x0 + 12)}" cy="{_f(y)}" r="9" fill="none" stroke="#d01010" stroke-width="2" '
                   f'stroke-dasharray="3,2"/>', "hostile city (its tag shows ! too)"),
        (lambda y: _text(x0 + 13, y + 3, "SPA !", size=8, weight="bold", fill="#555555"),  # a city's tag
         "SPA holds it, ! hostile, razed 2 counters"),
        # smaller than on the map: the rows are 18 px apart
        (lambda y: f'<circle cx="{_f(x0 + 12)}" cy="{_f(y)}" r="4" fill="#ffffff" stroke="#000" stroke-width="1.2"/>'
                   + _siege_mark(x0 + 12, y, 6.6, 2.0), "under siege (players: their own)"),
        (lambda y: "", "units: A army, R rowers, F fleet,"),  # the sample box: _viewer_legend
        (lambda y: "", "T transport, B baggage, L leader,"),
        (lambda y: "", "P pirate, X barbarian (black);"),
        (lambda y: "", "others' units: owner first (SPA 2A)"),
        (lambda y: _tail((x0 + 5, y + 4), (x0 + 9, y - 7, x0 + 24, y + 1), "#777777", "#000000")
                   + _chip(x0 + 5, y + 4, "#777777")
                   + f'<rect x="{_f(x0 + 9)}" y="{_f(y - 7)}" width="15" height="8" rx="2" fill="#777777" '
                     f'stroke="#000000" stroke-width="1"/>',
         "dot on the units' hex, line to their label"),  # the line: a tail where the label is away
        (lambda y: f'<path fill="{TERRAIN_FILL["water"]}" d="M{_f(x0 + 3)},{_f(y - 7)}h9v14h-9Z"/>'
                   f'<path fill="{TERRAIN_FILL["clear"]}" d="M{_f(x0 + 12)},{_f(y - 7)}h9v14h-9Z"/>'
                   + fog_paths(f"M{_f(x0 + 3)},{_f(y - 7)}h18v14h-18Z",
                               [[(x0 + 3, y - 7), (x0 + 21, y - 7), (x0 + 21, y + 7), (x0 + 3, y + 7)]])
                   + f'<path fill="none" stroke="#6f6a5f" stroke-width="0.8" d="M{_f(x0 + 3)},{_f(y - 7)}h18v14h-18Z"/>',
         "fog: out of sight (sea and land)"),
        (lambda y: _arrow([(x0 + 2, y), (x0 + 24, y)], "#333333", False), "move this turn (dashed: others')"),
        (lambda y: _burst(x0 + 12, y, 8), "battle this turn"),
    ]
    assert len(items) == MARK_ROWS
    for sym, label in items:
        mark = sym(y)
        if mark:
            out.append(mark)
        out.append(f'<text x="{_f(x0 + 30)}" y="{_f(y + 4)}">{escape(label)}</text>')
        y += MARK_ROW_H
    out.append(f'<text x="{_f(x0)}" y="{_f(players_y)}" font-weight="bold" font-size="12">Players (cities)</text>')
    out.append("</g>")
    return "\n".join(out)


def _turn_legend(game_map: GameMap, view: dict[str, Any], colours: dict[str, str], lay: Layout,
                 title: str | None) -> str:
    """The part of the legend every report of a turn shares: the title and the players with their cities
    (public: ``visibility.public``)."""
    x0 = _legend_x(lay)
    players = view["players"]
    out = [f'<g id="legend-turn" font-family="{FONT}" font-size="11" fill="#222">']
    heading = title or f"{view['campaign']}"
    out.append(f'<text x="{_f(x0)}" y="{_f(MARGIN + 16)}" font-size="15" font-weight="bold">{escape(heading)}</text>')
    y = _marks_y(legend_height(game_map))[2] + 16
    for pid in view["turn_order"]:
        p = players[pid]
        out.append(f'<rect x="{_f(x0 + 5)}" y="{_f(y - 7)}" width="14" height="14" fill="{colours[pid]}" '
                   f'stroke="#000" stroke-width="1"/>')
        out.append(f'<text x="{_f(x0 + 30)}" y="{_f(y + 4)}">{escape(p["abbr"])} {escape(p["name"])} '
                   f'({p["cities"]})</text>')
        y += 19
    out.append("</g>")
    return "\n".join(out)


def _viewer_legend(game_map: GameMap, view: dict[str, Any], colours: dict[str, str], lay: Layout) -> str:
    """The viewer's part of the legend: who they are, the sample unit box in their colour."""
    x0 = _legend_x(lay)
    viewer = view.get("viewer")
    who = view["players"][viewer]["name"] if viewer else "Moderator (no fog)"
    mine = colours.get(viewer, PALETTE[0]) if viewer else PALETTE[0]
    y = _marks_y(legend_height(game_map))[1] + MARK_ROW_H * UNIT_MARK_ROW
    return (f'<g id="legend" font-family="{FONT}" font-size="11" fill="#222">\n'
            f'<text x="{_f(x0)}" y="{_f(MARGIN + 36)}" font-size="13">{escape(who)}</text>\n'
            + _unit_box(x0 + 12, y, "2A", mine) + "\n</g>")


def _document(lay: Layout, base: str, dynamic: list[str]) -> str:
    w, h = round(lay.width), round(lay.height)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT}">\n'
            + base + "\n" + "\n".join(dynamic) + "\n</svg>\n")


@dataclass
class MapLayers:
    """One viewer's map as its three layers of SVG: the static layer (the same for every map of the campaign;
    ``key`` names it), the turn's layer (the same for every report of a turn) and the viewer's own layers."""

    lay: Layout
    key: tuple
    turn: str
    viewer: list[str]

    def svg(self, raster_base: bool = False) -> str:
        base = _static_image_tag(*self.key) if raster_base else _static_layer(*self.key)
        return _document(self.lay, base, [self.turn] + self.viewer)

    def image(self):
        """The map as an opaque cairo RGB24 image surface: a copy of the cached raster of the static and the
        turn's layers, the viewer's layers drawn on it by CairoSVG.  The same pixels as ``svg()`` drawn
        whole, in a tenth of the time."""
        return _draw_on(_base_image(self.key, self.turn), _document(self.lay, "", self.viewer))


def layers(game_map: GameMap, view: dict[str, Any], events: Iterable[dict[str, Any]] = (),
           title: str | None = None) -> MapLayers:
    lay = layout_of(game_map)
    colours = player_colours(view, game_map)
    return MapLayers(lay, _static_key(game_map), _turn_legend(game_map, view, colours, lay, title),
                     _dynamic(game_map, view, events, lay, colours))


def map_svg(game_map: GameMap, view: dict[str, Any], events: Iterable[dict[str, Any]] = (),
            title: str | None = None, raster_base: bool = False) -> str:
    """The map as one SVG document.  ``events`` are the records the viewer may know (``events_for``).

    With ``raster_base`` the static layer is a cached PNG ``<image>`` (faster to rasterise; for PNG/PDF).
    """
    return layers(game_map, view, events, title).svg(raster_base)


def svg_to_png(svg: str, scale: float | None = None) -> bytes:
    """The SVG as a PNG, PNG_SCALE (``scale``) pixels a unit, as the map's PNG."""
    import cairosvg
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=PNG_SCALE if scale is None else scale)


def map_png(game_map: GameMap, view: dict[str, Any], events: Iterable[dict[str, Any]] = (),
            title: str | None = None) -> bytes:
    return png_bytes(layers(game_map, view, events, title).image())


def warm_static(game_map: GameMap, raster: bool = True) -> None:
    """Build the cached static layer (and its raster), which every map of every turn shares: done once in a
    process that forks report writers for turn after turn (`pbem demo`), which then inherit it."""
    static_layer(game_map)
    if raster:
        _static_image(*_static_key(game_map))


def warm(game_map: GameMap, public_view: dict[str, Any], title: str | None = None, raster: bool = True) -> None:
    """Build the cached layers every map of a turn shares (``public_view``: ``visibility.public`` of the
    state): done once before the reports are rendered in forked processes, which then inherit them."""
    warm_static(game_map, raster)
    if raster:
        lay = layout_of(game_map)
        _base_image(_static_key(game_map),
                    _turn_legend(game_map, public_view, player_colours(public_view, game_map), lay, title))


# -- raster output --------------------------------------------------------------------------------------

@lru_cache(maxsize=8)
def _static_image(cols: int, rows: int, codes: str, cities: tuple):
    import cairocffi
    return cairocffi.ImageSurface.create_from_png(io.BytesIO(_static_png(cols, rows, codes, cities)))


@lru_cache(maxsize=4)
def _base_image(key: tuple, turn_layer: str):
    """The static raster with the turn's layer drawn on it (kept for the turn's other reports)."""
    return _draw_on(_static_image(*key), _document(Layout(key[0], key[1]), "", [turn_layer]))


def _draw_on(base, svg: str):
    """A new RGB24 surface: a copy of ``base`` with the SVG document (of the same size) drawn on it."""
    from cairosvg.parser import Tree
    return _on_base_class()(Tree(bytestring=svg.encode("utf-8")), base).cairo


@lru_cache(maxsize=1)
def _on_base_class():
    import cairocffi
    from cairosvg.surface import PNGSurface

    class OnBase(PNGSurface):
        """CairoSVG drawing onto a copy of an opaque image instead of a blank surface."""

        def __init__(self, tree, base):
            self._base = base
            super().__init__(tree, None, 96, scale=PNG_SCALE)
            self.cairo.flush()

        def _create_surface(self, width, height):
            w, h = self._base.get_width(), self._base.get_height()
            if (int(round(width)), int(round(height))) != (w, h):
                raise ValueError(f"a {width}x{height} map drawn on a {w}x{h} base")
            surface = cairocffi.ImageSurface(cairocffi.FORMAT_RGB24, w, h)
            cr = cairocffi.Context(surface)
            # white under the base: at PNG_SCALE 1.25 the map's last column of pixels is half drawn (1366 x 1.25
            # = 1707.5), and on the surface's black it came out grey, a line down the map's right edge
            cr.set_source_rgb(1, 1, 1)
            cr.paint()
            cr.set_source_surface(self._base, 0, 0)
            cr.paint()
            return surface, w, h

    return OnBase


PNG_SCALE = 1.25  # pixels of the map PNG a unit of the SVG (the module's docstring says why not more)
PNG_LEVEL = 3  # zlib level of the map PNG
PNG_COLOURS = 256  # the map PNG's palette


def png_bytes(image) -> bytes:
    """An opaque cairo image surface (RGB24, or ARGB32 with no transparency) as a PNG of 256 colours.

    The map's flat colours, its text's edges and the fog's hatching fit a palette of 256 (Pillow's fast
    octree, no dithering: no colour moves by more than a few levels, none visibly): 8 bits a pixel instead
    of 24, so the file is under half the size of the full-colour one (about 250 KB against 600 KB for the
    Aegean at 1366x868; about 365 KB at PNG_SCALE 1.25) for the same time.  Every row unfiltered, deflated at
    level 3: a third of the time of cairo's or
    Pillow's PNG writer (which try a filter per row).
    """
    from PIL import Image  # a dependency of CairoSVG
    image.flush()
    w, h = image.get_width(), image.get_height()
    # cairo's pixels are native-endian 32-bit words 0xAARRGGBB
    order = "BGRX" if sys.byteorder == "little" else "XRGB"
    rgb = Image.frombuffer("RGB", (w, h), image.get_data(), "raw", order, image.get_stride(), 1)
    indexed = rgb.quantize(PNG_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    palette = bytes(indexed.getpalette()[:3 * PNG_COLOURS])
    pixels = indexed.tobytes()
    raw = b"".join(b"\x00" + pixels[i * w:(i + 1) * w] for i in range(h))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0))
            + chunk(b"PLTE", palette) + chunk(b"IDAT", zlib.compress(raw, PNG_LEVEL)) + chunk(b"IEND", b""))
