"""Which hex a badge away from its hex belongs to (a new player's review, 10 turns as Athens): Athens' stack
label "1A 2R 2F 1T 2B 5L" sat in 1312 above Athens with a short thin dark line to its dot, and Megara's "4A"
near 1012; he read them as stacks in those hexes.  A badge that does not touch its stack's chip now points at
it like a speech bubble: a wedge in its owner's colour (``mapsvg._tail``) from its edge to the chip's centre,
in place of the thin line.  A badge in its hex or on its chip has none, so an uncrowded map is unchanged."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from pbem import mapsvg
from pbem.visibility import view
from scenario import TINY, add, make_state
from test_mapsvg import SVG
from test_mpx_label_homes import attica_state

NUM = re.compile(r"-?\d+(?:\.\d+)?")


def groups(svg: str) -> dict[str, ET.Element]:
    return {el.get("id"): el for el in ET.fromstring(svg).iter(SVG + "g") if el.get("id")}


def wedges(group: ET.Element) -> list[tuple[list[tuple[float, float]], str]]:
    """Each tail drawn: its three corners (base, tip, base) and its fill."""
    out = []
    for el in group.iter(SVG + "path"):
        nums = [float(x) for x in NUM.findall(el.get("d"))]
        out.append(([(nums[0], nums[1]), (nums[2], nums[3]), (nums[4], nums[5])], el.get("fill")))
    return out


def on_edge(p, box, eps=0.06):  # eps: drawn to a tenth of a px
    x, y = p
    inside = box[0] - eps <= x <= box[2] + eps and box[1] - eps <= y <= box[3] + eps
    return inside and min(abs(x - box[0]), abs(x - box[2]), abs(y - box[1]), abs(y - box[3])) <= eps


def test_a_badge_away_from_its_hex_points_at_its_chip_with_a_tail_in_its_owners_colour():
    aegean, s, records = attica_state()
    for viewer in ("athens", "corinth", None):
        v = view(s, aegean, viewer, records=records, before=s)
        placed, _ = mapsvg.place_labels(aegean, v, v["events"])
        away = [lab for lab in placed if lab.kind == "badge" and lab.leader]
        assert away, viewer
        if viewer != "corinth":  # Athens' home stack: above its hex, as reviewed
            assert any(lab.hex == "1313" for lab in away), viewer
        svg = mapsvg.map_svg(aegean, v, v["events"])
        g = groups(svg)
        tails = wedges(g["tails"])
        assert len(tails) == len(away), viewer
        for lab in away:
            # its tip on its chip's centre (as drawn: to a tenth of a px)
            (a, tip, b), fill = next(t for t in tails if abs(t[0][1][0] - lab.chip[0]) + abs(t[0][1][1] - lab.chip[1])
                                     < 0.11)
            assert fill == lab.fill  # the owner's colour, as the badge and the chip
            assert on_edge(a, lab.box) and on_edge(b, lab.box), (viewer, lab)  # its base on the badge's edge
            assert abs(a[0] - b[0]) + abs(a[1] - b[1]) > 4  # a wedge, not a line
        ordered = [el.get("id") for el in ET.fromstring(svg).iter(SVG + "g") if el.get("id")]
        assert ordered.index("tails") < ordered.index("chips") < ordered.index("units")  # tip under the chip


def test_the_leader_lines_layer_holds_no_badges_line():
    aegean, s, records = attica_state()
    v = view(s, aegean, "athens", records=records, before=s)
    placed, _ = mapsvg.place_labels(aegean, v, v["events"])
    svg = mapsvg.map_svg(aegean, v, v["events"])
    g = groups(svg)
    d = " ".join(p.get("d") for p in g["leaders"].iter(SVG + "path")) if "leaders" in g else ""
    for lab in placed:
        if lab.leader:
            start = f"M{mapsvg._f(lab.leader[0])},{mapsvg._f(lab.leader[1])}"
            assert (start in d) == (lab.kind != "badge"), lab


def test_an_uncrowded_map_has_no_tails():
    s = make_state()
    add(s, "athens", "army", "0403")
    add(s, "sparta", "army", "0404")
    v = view(s, TINY, "athens", records=[], before=s)
    placed, _ = mapsvg.place_labels(TINY, v, v["events"])
    assert [lab.kind for lab in placed if lab.kind == "badge"] == ["badge", "badge"]
    assert not any(lab.leader for lab in placed)
    assert "tails" not in groups(mapsvg.map_svg(TINY, v, v["events"]))
