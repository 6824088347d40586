"""A new player's review of map.png (1366x868), read each turn at 100 %:

1. the hex ids were about 5 px high, grey on the terrain: unreadable without zooming (players.md, First steps,
   tells players to read hex ids off the map).  The ids are now dark grey on a pale halo: they stand out on any
   terrain, in the fog too, and the PNG is drawn at PNG_SCALE 1.25 pixels a unit of the SVG (1.5 made the
   digits 7.7 px high, but cost every report 80 ms: the 12-player, 36-turn demo 86 s against 65 s; at 1.0
   the dark digits blur to a 2.9:1 contrast with their halo);
2. the tail of a unit label covered the id "1415", which was printed nowhere else, though players.md says an id
   a label covers is printed again in its hex: a label's tail (and a tag's or an id line's line) now counts as
   the label;
3. Megara, his city, was under siege in turns 3-4: his report said so, the map had no mark.  A city under siege
   the viewer's report calls so (their own; the moderator: all) has a siege ring round its mark, with a row in
   the legend (R-PH-REV: a city under siege pays no income)."""
from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

from pbem import mapsvg
from pbem.board import under_siege
from pbem.visibility import view
from scenario import TINY, add, make_state
from test_mapsvg import SVG, front_views
from test_mpx_label_homes import attica_state
from test_rep6_legend_marks import rows


def _png_pixels(png: bytes):
    from PIL import Image
    return Image.open(io.BytesIO(png)).convert("RGB")


def _luminance(rgb) -> float:
    def lin(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = rgb
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def _id_pixels(img, game_map, h: str):
    """The pixels of the hex id of ``h`` at the top of its hex, on the PNG (however it is scaled)."""
    lay = mapsvg.layout_of(game_map)
    k = img.width / round(lay.width)
    x0, y0, x1, y1 = mapsvg.hex_id_boxes(game_map)[h]
    return img.crop((int(x0 * k), int(y0 * k), int(x1 * k) + 1, int(y1 * k) + 1))


def test_hex_ids_on_the_png_are_dark_on_a_pale_halo_in_sight_and_in_the_fog():
    s = make_state(["athens", "sparta"])
    add(s, "athens", "army", "0303")
    v = view(s, TINY, "athens")
    mountain, fogged = "0304", "1104"  # Mountains next to an Athenian army (in sight); the sea far east (fog)
    assert TINY.terrain[mountain].id == "mountains" and mountain in v["visible_hexes"]
    assert fogged not in v["visible_hexes"]
    img = _png_pixels(mapsvg.map_png(TINY, v, title="Turn 1"))
    for h in (mountain, fogged):
        crop = _id_pixels(img, TINY, h)
        ink = [(x, y) for y in range(crop.height) for x in range(crop.width) if _luminance(crop.getpixel((x, y))) < 0.1]
        assert ink, h  # dark digits (grey #666 was not)
        rows_with_ink = {y for _, y in ink}
        assert max(rows_with_ink) - min(rows_with_ink) + 1 >= round(4 * mapsvg.PNG_SCALE), h  # dark over the digits
        if h == mountain:  # contrast of the digits against their halo, on the darkest land terrain
            lum = sorted(_luminance(crop.getpixel((x, y))) for y in range(crop.height) for x in range(crop.width))
            background, darkest = lum[len(lum) // 2], lum[0]
            assert (background + 0.05) / (darkest + 0.05) >= 4.5, (background, darkest)
    # the SVG is the same size as before: the PNG has more pixels a unit, the labels' places are unchanged
    lay = mapsvg.layout_of(TINY)
    assert img.width == round(round(lay.width) * mapsvg.PNG_SCALE)


def _cases():
    aegean, views = front_views()
    for v in views:
        yield aegean, v
    aegean, s, records = attica_state()
    for viewer in ("athens", "corinth", None):
        yield aegean, view(s, aegean, viewer, records=records, before=s)


def test_an_id_under_a_labels_tail_or_line_is_printed_again_in_its_hex_clear_of_it():
    """docs/players.md: "where a label covers it, the id is printed again elsewhere in the same hex"."""
    lay = None
    under_tails = clear = 0
    for game_map, v in _cases():
        lay = mapsvg.layout_of(game_map)
        placed, _ = mapsvg.place_labels(game_map, v, v["events"])
        again = {lab.hex: lab for lab in placed if lab.kind == "hexid"}
        shapes = mapsvg._label_shapes(placed)
        assert any(lab.kind == "badge" and lab.leader for lab in placed) or \
            any(lab.kind == "ids" and lab.leader for lab in placed)
        for h, box in mapsvg.hex_id_boxes(game_map).items():
            hidden = max((mapsvg._clipped_area(poly, box) for poly, _ in shapes), default=0.0)
            if hidden > mapsvg.ID_HIDDEN * (box[2] - box[0]) * (box[3] - box[1]):
                under_tails += 1
                assert h in again, (v["viewer"], h)
                lab = again[h]
                assert mapsvg._in_hex(lay, game_map.offsets[h], lab.box, -6.0)  # in its hex (6 px over at most)
                # clear of the tails and lines where its hex has room (in 1013 of Thebes' map, between an id line
                # at its top, its tail and two badges, it has none: then over the tail's narrow part)
                clear += all(mapsvg._clipped_area(poly, lab.box) == 0 for poly, _ in shapes)
        root = ET.fromstring(mapsvg.map_svg(game_map, v, v["events"]))
        labels = next(el for el in root.iter(SVG + "g") if el.get("id") == "labels")
        assert set(again) <= {el.text for el in labels.iter(SVG + "text")}
        order = [el.get("id") for el in root.iter(SVG + "g") if el.get("id")]
        assert all(order.index(g) < order.index("labels") for g in ("leaders", "id-tails", "tails") if g in order)
    assert under_tails >= 5  # these crowded fronts have ids under tails (1013, 1213, 1214, 0914, 0917)
    assert clear >= under_tails - 1


def test_the_clipped_area_of_a_triangle_in_a_box():
    tri = [(0.0, 0.0), (10.0, 0.0), (0.0, 10.0)]
    assert mapsvg._clipped_area(tri, (0, 0, 10, 10)) == 50
    assert mapsvg._clipped_area(tri, (0, 0, 5, 5)) == 25
    assert mapsvg._clipped_area(tri, (6, 6, 9, 9)) == 0


def _siege_marks(svg: str) -> list[tuple[float, float]]:
    """The centres of the siege rings in the cities' layer."""
    cities = next(el for el in ET.fromstring(svg).iter(SVG + "g") if el.get("id") == "cities")
    out = []
    for el in cities:
        if el.tag == SVG + "path" and el.get("stroke") == mapsvg.SIEGE_INK:
            x, y = (float(n) for n in re.match(r"M([-\d.]+),([-\d.]+)", el.get("d")).groups())
            out.append((round(x + mapsvg.SIEGE_R, 1), round(y, 1)))
    return out


def test_a_city_under_siege_has_its_mark_on_the_maps_whose_report_says_so():
    """R-PH-REV: an enemy Army next to Megara (Athens') besieges it.  Athens' report says "under siege" in
    CITIES, so its map marks it; Sparta's report does not (only one's own cities'), nor does its map, though
    Megara is in its sight; the moderator's map marks every city under siege."""
    s = make_state(["athens", "sparta"])
    megara = TINY.cities["megara"]
    s.cities["megara"].controller = "athens"
    add(s, "athens", "army", "0302")
    add(s, "sparta", "army", "0507")  # below Megara (0506), two hexes from Sparta (0505)
    assert under_siege(s, TINY, "megara")
    lay = mapsvg.layout_of(TINY)
    cx, cy = (round(c, 1) for c in lay.centre(*TINY.offsets[megara.hex]))
    athens, sparta, moderator = (view(s, TINY, p) for p in ("athens", "sparta", None))
    assert megara.hex in sparta["visible_hexes"]
    assert _siege_marks(mapsvg.map_svg(TINY, athens)) == [(cx, cy)]
    assert _siege_marks(mapsvg.map_svg(TINY, sparta)) == []
    assert _siege_marks(mapsvg.map_svg(TINY, moderator)) == [(cx, cy)]
    # no enemy next to it: no siege, no mark
    calm = make_state(["athens", "sparta"])
    calm.cities["megara"].controller = "athens"
    add(calm, "athens", "army", "0302")
    assert not under_siege(calm, TINY, "megara") and _siege_marks(mapsvg.map_svg(TINY, view(calm, TINY, None))) == []
    # the legend has a row for it, its sample a siege ring
    legend = rows(mapsvg.map_svg(TINY, athens))
    sample, words = next((sample, words) for sample, words in legend if "siege" in words)
    assert words == "under siege (players: their own)" and "path" in sample
