"""Hex geometry (R-MAP-1..3): flat-topped hexes in "odd-q" offset columns, with axial maths.

A hex is addressed on the map by its column and row (1-based), printed as a readable id: ``"0712"`` is
column 7, row 12 (two digits each; three each on maps wider or taller than 99).  Even-numbered columns sit
half a hex lower than odd ones, as on most printed hex-and-counter maps.  Distances and neighbours are computed
in axial coordinates.  Pure functions only: no terrain knowledge lives here.
"""
from __future__ import annotations

from typing import Iterator

Offset = tuple[int, int]  # (col, row), 1-based
Axial = tuple[int, int]  # (q, r)

# Axial directions, clockwise from north: N, NE, SE, S, SW, NW (flat-topped hexes).
AXIAL_DIRECTIONS: tuple[Axial, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def offset_to_axial(col: int, row: int) -> Axial:
    """Offset (1-based, even columns shifted down) to axial."""
    c, r = col - 1, row - 1
    return c, r - (c - (c & 1)) // 2


def axial_to_offset(q: int, r: int) -> Offset:
    return q + 1, r + (q - (q & 1)) // 2 + 1


def neighbours(col: int, row: int) -> list[Offset]:
    """The six neighbours of a hex, clockwise from north; they may lie off the map."""
    q, r = offset_to_axial(col, row)
    return [axial_to_offset(q + dq, r + dr) for dq, dr in AXIAL_DIRECTIONS]


def distance(a: Offset, b: Offset) -> int:
    aq, ar = offset_to_axial(*a)
    bq, br = offset_to_axial(*b)
    dq, dr = aq - bq, ar - br
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def id_digits(cols: int, rows: int) -> int:
    return 2 if max(cols, rows) <= 99 else 3


def hex_id(col: int, row: int, digits: int = 2) -> str:
    return f"{col:0{digits}d}{row:0{digits}d}"


def parse_hex_id(text: str, digits: int = 2) -> Offset:
    """``"0712"`` -> (7, 12).  Raises ValueError on anything else."""
    if not isinstance(text, str) or len(text) != 2 * digits or not text.isdigit():
        raise ValueError(f"not a hex id: {text!r} (write {2 * digits} digits, column then row, e.g. "
                         f"{hex_id(7, 12, digits)!r})")
    return int(text[:digits]), int(text[digits:])


class Grid:
    """A rectangle of ``cols`` x ``rows`` hexes: bounds, neighbours on the map, the map edge."""

    def __init__(self, cols: int, rows: int):
        if cols < 1 or rows < 1:
            raise ValueError("a grid needs at least one column and one row")
        self.cols, self.rows = cols, rows
        self.digits = id_digits(cols, rows)

    def contains(self, col: int, row: int) -> bool:
        return 1 <= col <= self.cols and 1 <= row <= self.rows

    def neighbours(self, col: int, row: int) -> list[Offset]:
        return [h for h in neighbours(col, row) if self.contains(*h)]

    def on_edge(self, col: int, row: int) -> bool:
        """R-MAP-3: the map edge is the outer ring of the grid."""
        return col in (1, self.cols) or row in (1, self.rows)

    def id(self, col: int, row: int) -> str:
        return hex_id(col, row, self.digits)

    def parse(self, text: str) -> Offset:
        col, row = parse_hex_id(text, self.digits)
        if not self.contains(col, row):
            raise ValueError(f"hex {text} is off the map ({self.cols} columns x {self.rows} rows)")
        return col, row

    def __iter__(self) -> Iterator[Offset]:
        for row in range(1, self.rows + 1):
            for col in range(1, self.cols + 1):
                yield col, row

    def centre(self, col: int, row: int, size: float) -> tuple[float, float]:
        """Pixel centre of a flat-topped hex of circumradius ``size`` (for drawing)."""
        x = size * 1.5 * (col - 1) + size
        y = size * (3 ** 0.5) * ((row - 1) + (0.5 if (col - 1) & 1 else 0.0)) + size * (3 ** 0.5) / 2
        return x, y
