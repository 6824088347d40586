"""Hex geometry (R-MAP-1..3): offsets, axial maths, neighbours, distance, the map edge, ids."""
import pytest

from pbem.hexgrid import Grid, axial_to_offset, distance, hex_id, neighbours, offset_to_axial, parse_hex_id


def test_offset_axial_round_trip_over_a_whole_grid():
    for col, row in Grid(30, 20):
        assert axial_to_offset(*offset_to_axial(col, row)) == (col, row)


def test_neighbours_of_odd_and_even_columns():
    # odd column 3: neighbours at rows r-1 and r on the sides; even column 2 sits half a hex lower
    assert sorted(neighbours(3, 5)) == sorted([(3, 4), (4, 4), (4, 5), (3, 6), (2, 5), (2, 4)])
    assert sorted(neighbours(2, 5)) == sorted([(2, 4), (3, 5), (3, 6), (2, 6), (1, 6), (1, 5)])


def test_neighbourhood_is_symmetric_and_at_distance_one():
    g = Grid(12, 9)
    for h in g:
        assert len(neighbours(*h)) == 6
        for n in g.neighbours(*h):
            assert h in g.neighbours(*n)
            assert distance(h, n) == 1


def test_distance():
    assert distance((1, 1), (1, 1)) == 0
    assert distance((1, 1), (1, 5)) == 4
    assert distance((1, 1), (5, 1)) == 4  # zig-zag along a row of flat-topped hexes
    assert distance((1, 1), (5, 3)) == 4
    assert distance((1, 1), (5, 4)) == 5
    assert distance((2, 2), (8, 6)) == distance((8, 6), (2, 2))


def test_map_edge_is_the_outer_ring():
    g = Grid(30, 20)
    edge = [h for h in g if g.on_edge(*h)]
    assert len(edge) == 2 * 30 + 2 * 20 - 4
    assert not g.on_edge(2, 2) and g.on_edge(1, 7) and g.on_edge(30, 20) and g.on_edge(15, 1)


def test_neighbours_on_the_map_are_clipped():
    g = Grid(30, 20)
    assert len(g.neighbours(1, 1)) < 6
    assert all(g.contains(*h) for h in g.neighbours(1, 1))


def test_hex_ids_round_trip_and_refuse_nonsense():
    assert hex_id(7, 12) == "0712"
    assert parse_hex_id("0712") == (7, 12)
    g = Grid(30, 20)
    assert g.parse(g.id(30, 20)) == (30, 20)
    for bad in ("712", "07-12", "abcd", "", None):
        with pytest.raises(ValueError):
            parse_hex_id(bad)
    with pytest.raises(ValueError, match="off the map"):
        g.parse("3120")


def test_wide_maps_use_three_digit_ids():
    g = Grid(120, 80)
    assert g.id(101, 7) == "101007"
    assert g.parse("101007") == (101, 7)
