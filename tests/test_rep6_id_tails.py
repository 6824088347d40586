"""Which stack a line of the viewer's unit ids away from its badge belongs to (a new player's review, 11 turns as
Sparta): "A2-3 L3", the ids of the stack in 0816, sat over the sea hex 0917, and "A3,9 L3" squarely inside 0815
while its units were in 0915, each joined to its badge by a thin dark line: he read them as units in the hex
they covered.  As rep5 did for badges away from their hex (``mapsvg._tail``), an id line away from its badge is
now a bubble edged in its owner's colour, pointing at its badge with a tail in that colour (the "id-tails"
layer: from the bubble's edge to the badge's middle, under the badge).  Ids that touch their badge are drawn as
before, so an uncrowded map is unchanged."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from pbem import mapsvg
from pbem.visibility import view
from scenario import TINY, add, make_state
from test_mapsvg import SVG, front_views
from test_mpx_label_homes import attica_state
from test_rep5_badge_tails import groups, on_edge, wedges


def cases():
    aegean, views = front_views()
    yield aegean, views[0]  # Sparta
    yield aegean, views[1]  # Thebes
    aegean, s, records = attica_state()
    for viewer in ("athens", "corinth"):
        yield aegean, view(s, aegean, viewer, records=records, before=s)


def test_an_id_line_away_from_its_badge_points_at_it_with_a_tail_in_its_owners_colour():
    for aegean, v in cases():
        placed, _ = mapsvg.place_labels(aegean, v, v["events"])
        colour = mapsvg.player_colours(v, aegean)[v["viewer"]]
        away = [lab for lab in placed if lab.kind == "ids" and lab.leader]
        assert away, v["viewer"]
        svg = mapsvg.map_svg(aegean, v, v["events"])
        g = groups(svg)
        tails = wedges(g["id-tails"])
        assert len(tails) == len(away), v["viewer"]
        badges = {lab.hex: lab.box for lab in placed if lab.kind == "badge"}
        for lab in away:
            b = badges[lab.hex]
            middle = ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
            (a, tip, c), fill = next(t for t in tails if abs(t[0][1][0] - middle[0]) + abs(t[0][1][1] - middle[1])
                                     < 0.11 and on_edge(t[0][0], lab.box))
            assert fill == lab.fill == colour  # the viewer's own colour, as their badges
            assert on_edge(a, lab.box) and on_edge(c, lab.box), (v["viewer"], lab)
            assert abs(a[0] - c[0]) + abs(a[1] - c[1]) > 4  # a wedge, not a line
        # each such bubble: a box edged in the owner's colour, where it was placed
        rects = [el for el in g["labels"] if el.tag == SVG + "rect" and el.get("stroke") == colour]
        assert len(rects) == len(away), v["viewer"]
        ordered = [el.get("id") for el in ET.fromstring(svg).iter(SVG + "g") if el.get("id")]
        assert ordered.index("id-tails") < ordered.index("cities") < ordered.index("units") \
            < ordered.index("labels")  # under the cities' marks and the badges, under its own bubble


def test_a_tail_to_a_point_far_to_the_side_of_a_box_leaves_from_that_side():
    # the chip or badge a little above the box's top and far to its left: the base on the left side, not a
    # sliver along the top (an id line beside its badge)
    path = mapsvg._tail((284.0, 680.0), (310.0, 685.0, 355.0, 694.0), "#c03030", "#000000")
    nums = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", path)[:6]]
    (ax, ay), (bx, by) = (nums[0], nums[1]), (nums[4], nums[5])
    assert ax == bx == 310.0 and abs(ay - by) == 2 * mapsvg.TAIL_HALF


def test_an_uncrowded_map_draws_its_ids_as_before():
    s = make_state()
    add(s, "athens", "army", "0403")
    add(s, "sparta", "army", "0404")
    v = view(s, TINY, "athens", records=[], before=s)
    placed, _ = mapsvg.place_labels(TINY, v, v["events"])
    ids = [lab for lab in placed if lab.kind == "ids"]
    assert ids and not any(lab.leader for lab in ids)
    g = groups(mapsvg.map_svg(TINY, v, v["events"]))
    assert "id-tails" not in g
    assert not [el for el in g["labels"] if el.tag == SVG + "rect" and el.get("stroke")]  # a plain halo
