"""Where the map's labels go (a moderator's and a player's review): every stack's own hex is marked by a chip
in its owner's colour, its badge sits on it or as near it as it can with a line to the chip, no label hides
another stack's chip or a city's name, no two hex ids run into each other and an id a label must cover is
drawn again in its hex, and a battle's mark sits inside its hex."""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

from pbem import mapsvg
from pbem.gamedata import load_map
from pbem.visibility import view
from scenario import add, make_state
from test_mapsvg import LETTER_TYPES, SVG, front_views

HEX_W = 24.0 * math.sqrt(3)  # from a hex's centre to its neighbour's


def review_state():
    """The review's maps: Athens' home stack (ATH 2A 2R 2F 1B 2L) beside Aegina, a leader and an army next to
    it in 1212, Sparta's army and leader in 1015, the Thebans at Chalcis, a battle at 1212."""
    aegean = load_map()
    s = make_state(["athens", "sparta", "thebes", "corinth"], game_map=aegean)
    stacks = {
        "athens": {"1313": "AARRFFBLL", "1212": "AL", "1214": "A", "1112": "AAALLL"},
        "sparta": {"1015": "AL", "0916": "AAB", "1215": "A"},
        "thebes": {"1310": "AA", "1410": "A", "1213": "AB"},
        "corinth": {"1014": "AARFFBL", "1114": "A"},
    }
    for owner, by_hex in stacks.items():
        for h, letters in by_hex.items():
            for ch in letters:
                add(s, owner, LETTER_TYPES[ch], h)
    s.cities["chalcis"].controller = "thebes"
    s.cities["aegina"].controller, s.cities["aegina"].hostile = "sparta", True
    records = [{"seq": 1, "turn": 1, "player": "sparta", "phase": "land_battle", "event": "battle",
                "target": "1212", "attacker": "sparta", "defender": "athens", "attackers": ["SPA-A1"],
                "defenders": ["ATH-A3"]}]
    return aegean, s, records


def review_views():
    aegean, s, records = review_state()
    return aegean, [view(s, aegean, p, records=records, before=s) for p in ("athens", "sparta", None)]


def all_views():
    aegean, fronts = front_views()
    _, reviews = review_views()
    return aegean, fronts + reviews


def _dist(p, box):
    """From point p to the nearest point of box."""
    return math.hypot(max(box[0] - p[0], 0, p[0] - box[2]), max(box[1] - p[1], 0, p[1] - box[3]))


def test_every_stack_has_a_chip_on_its_own_hex_and_its_badge_on_it_or_a_line_to_it():
    aegean, views = all_views()
    lay = mapsvg.layout_of(aegean)
    for v in views:
        placed, _ = mapsvg.place_labels(aegean, v, v["events"])
        badges = [lab for lab in placed if lab.kind == "badge"]
        for lab in badges:
            cr = aegean.offsets[lab.hex]
            assert mapsvg._in_hex(lay, cr, mapsvg._chip_box(*lab.chip)), lab  # the chip marks the stack's hex
            if lab.leader:  # the line runs from the chip to the badge
                assert lab.leader[:2] == lab.chip
                assert _dist(lab.chip, lab.box) == math.hypot(lab.leader[2] - lab.leader[0],
                                                              lab.leader[3] - lab.leader[1])
            else:  # else the badge covers or touches its chip
                assert _dist(lab.chip, lab.box) <= mapsvg.CHIP_R + 2, lab
        # the chips are drawn, one per stack, in the owner's colour, under the badges
        root = ET.fromstring(mapsvg.map_svg(aegean, v, v["events"]))
        order = [el.get("id") for el in root.iter(SVG + "g")]
        chips = next(el for el in root.iter(SVG + "g") if el.get("id") == "chips")
        drawn = sorted((float(c.get("cx")), float(c.get("cy")), c.get("fill")) for c in chips)
        assert drawn == sorted((round(lab.chip[0], 1), round(lab.chip[1], 1), lab.fill) for lab in badges)
        assert order.index("chips") < order.index("units")


def test_a_badge_stays_next_to_its_hex_never_two_hexes_away():
    """Review: ATH 2A 2R 2F 1B 2L (Athens, 1313) was drawn at 1315 beside Aegina, SPA 1A 1L (1015) at sea in
    1017/1117, ATH 2A (1212) on 1213: lines of one or two hexes."""
    aegean, views = all_views()
    for v in views:
        placed, _ = mapsvg.place_labels(aegean, v, v["events"])
        for lab in placed:
            if lab.kind == "badge":
                assert _dist(lab.chip, lab.box) <= mapsvg.NEAR_REACH, (v["viewer"], lab)
    # Athens' home stack: right above its city's mark; on two lines it is too tall for the room above the mark
    # and would sit mostly in the hex above (as Ionia's did, a player's review), so a short line joins it to
    # its chip (players.md: "Only when its hex has no room does a label sit outside it, joined to the dot")
    placed, _ = mapsvg.place_labels(aegean, views[-1], views[-1]["events"])
    athens = next(lab for lab in placed if lab.kind == "badge" and lab.hex == "1313")
    assert athens.text == "ATH 2A 2R 2F 1B 2L" and athens.leader is not None and athens.leader[:2] == athens.chip
    assert athens.box[3] < athens.chip[1] and athens.box[0] <= athens.chip[0] <= athens.box[2]  # right above it


def test_no_label_covers_another_stack_s_chip_a_city_s_name_or_mark():
    aegean, views = all_views()
    for v in views:
        placed, placer = mapsvg.place_labels(aegean, v, v["events"])
        fixed = [(kind, box) for kind, box in placer.taken if kind in ("name", "city") or kind.startswith("hex ")]
        for lab in placed:
            for kind, box in fixed:
                if kind == f"hex {lab.hex}":
                    continue  # its own chip: a badge sits on it
                assert mapsvg._overlap(lab.box, box) == 0, (v["viewer"], lab, kind)


def _id_boxes(aegean):
    boxes = mapsvg.hex_id_boxes(aegean)
    assert set(boxes) == set(aegean.offsets) - mapsvg.names_with_ids(aegean)  # a city's id after its name
    return boxes


def test_no_two_hex_ids_run_into_each_other_and_every_id_is_in_its_hex():
    """Review: "1410" and "1411" below Chalcis were printed on top of each other (1410's id at its bottom)."""
    aegean = load_map()
    lay = mapsvg.layout_of(aegean)
    boxes = _id_boxes(aegean)
    for h, box in boxes.items():
        assert mapsvg._in_hex(lay, aegean.offsets[h], box), h
    grown = {h: (b[0] - 1.5, b[1] - 1.5, b[2] + 1.5, b[3] + 1.5) for h, b in boxes.items()}
    clashes = [(a, b) for a in grown for b in grown if a < b and mapsvg._overlap(grown[a], grown[b]) > 0]
    assert clashes == []
    # what the static layer draws: 1410 at the top of its hex, well above 1411
    static = mapsvg.static_layer(aegean)
    at = {m.group(3): (float(m.group(1)), float(m.group(2)))
          for m in re.finditer(r'<text x="([\d.]+)" y="([\d.]+)">(\d{4})</text>', static)}
    cx, cy = lay.centre(*aegean.offsets["1410"])
    assert at["1410"][1] < cy and at["1411"][1] - at["1410"][1] > 30


def test_an_id_a_label_must_cover_is_drawn_again_in_its_hex_clear_of_everything():
    """Review: a city's label covered 1410's id and a player misread the Mountain hex 1410 as 1411."""
    aegean, views = all_views()
    lay = mapsvg.layout_of(aegean)
    ids = _id_boxes(aegean)
    redrawn = 0
    for v in views:
        placed, placer = mapsvg.place_labels(aegean, v, v["events"])
        again = {lab.hex: lab for lab in placed if lab.kind == "hexid"}
        for lab in placed:
            if lab.kind == "hexid":
                continue
            for h, box in ids.items():
                if mapsvg.hides(lab.box, box):
                    assert h in again, (v["viewer"], lab, h)  # covered: drawn again
                elif mapsvg._overlap(lab.box, box) > 0:  # at most the edge of a digit
                    assert mapsvg._overlap(lab.box, box) <= 0.12 * (box[2] - box[0]) * (box[3] - box[1])
        for h, lab in again.items():
            redrawn += 1
            assert lab.text == h and mapsvg._in_hex(lay, aegean.offsets[h], lab.box, -6.0)  # 6 px over its edge at most
            for kind, box in placer.taken:
                if box != lab.box and box != ids[h]:  # but itself and its hex's own id under it
                    assert mapsvg._overlap(lab.box, box) == 0, (v["viewer"], h, kind, box)
        root = ET.fromstring(mapsvg.map_svg(aegean, v, v["events"]))
        labels = next(el for el in root.iter(SVG + "g") if el.get("id") == "labels")
        texts = [el.text for el in labels.iter(SVG + "text")]
        assert all(h in texts for h in again)  # on a halo, over the labels' layer
    assert redrawn >= 1


def _burst_points(svg):
    root = ET.fromstring(svg)
    battles = next(el for el in root.iter(SVG + "g") if el.get("id") == "battles")
    out = []
    for path in battles:
        nums = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", path.get("d"))]
        out.append(list(zip(nums[::2], nums[1::2])))
    return out


def test_a_battle_s_mark_is_drawn_inside_its_hex():
    """Review: the battle star for a battle at 1212 sat on the 1113/1212 border."""
    aegean, views = review_views()
    lay = mapsvg.layout_of(aegean)
    cx, cy = lay.centre(*aegean.offsets["1212"])
    for v in views:
        (points,) = _burst_points(mapsvg.map_svg(aegean, v, v["events"]))
        for x, y in points:  # every point of the star, with its stroke, inside 1212
            assert mapsvg._in_hex(lay, aegean.offsets["1212"], (x - 0.6, y - 0.6, x + 0.6, y + 0.6)), (x, y)
        assert min(x for x, _ in points) > cx - 24 + 2


def test_a_battle_in_a_city_is_marked_inside_the_city_s_hex_and_no_battle_mark_covers_a_name():
    aegean, s, records = review_state()
    records = records + [dict(records[0], seq=2, target="1014")]  # Corinth
    lay = mapsvg.layout_of(aegean)
    for p in ("athens", None):
        v = view(s, aegean, p, records=records, before=s)
        stars = _burst_points(mapsvg.map_svg(aegean, v, v["events"]))
        assert len(stars) == 2
        _, placer = mapsvg.place_labels(aegean, v, v["events"])
        names = [box for kind, box in placer.taken if kind == "name"]
        for h, points in zip(("1212", "1014"), stars):
            assert all(mapsvg._in_hex(lay, aegean.offsets[h], (x - 0.6, y - 0.6, x + 0.6, y + 0.6)) for x, y in points)
            xs, ys = [x for x, _ in points], [y for _, y in points]
            assert all(mapsvg._overlap((min(xs), min(ys), max(xs), max(ys)), box) == 0 for box in names), h


def test_a_city_s_tag_sits_beside_its_mark_under_its_badge_clear_of_the_ids_below():
    """A city's tag (who holds it, hostile, razed) goes right of its mark; with the city's badge above the
    mark and the ids of the hexes below beside it, it found no room there and went off with a line (the demo's
    Lemnos, Samos, Rhodes): the ids below and beside a city stand 3 px away from it."""
    aegean = load_map()
    s = make_state(["athens", "sparta"], game_map=aegean)
    minors = [c for c in aegean.cities.values() if c.kind != "city_state"]
    for c in minors:
        s.cities[c.id].controller = "athens"
        add(s, "athens", "army", c.hex)
        add(s, "athens", "army", c.hex)
    v = view(s, aegean, None)
    placed, _ = mapsvg.place_labels(aegean, v)
    tags = [lab for lab in placed if lab.kind == "tag"]
    assert len(tags) == len(minors)
    away = [lab.hex for lab in tags if lab.leader]
    assert len(away) <= 2, away  # the odd one crowded by a neighbour's label
    ids = mapsvg.hex_id_boxes(aegean)
    for lab in tags:
        assert not any(mapsvg.hides(lab.box, box) for box in ids.values()), lab
