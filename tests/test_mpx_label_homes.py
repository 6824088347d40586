"""Which hex a label belongs to, at a glance (a new player's review): his 2 Armies and a leader at 1111 (Farms)
were labelled over the sea hex 1211 while Megara's "1A" sat inside 1111; the stack at 1114 was drawn over
the water hex 1214 beside Corinth's label.  Every stack's badge now sits in its own hex (smaller, or on two
or three lines, if it must), else on its own chip reaching at most a sliver into any next hex with a stack or
a city of its own, else away with a line from its chip; no two labels overlap.  A city's tag shows its holder
in their colour, "!" (hostile) in red and its razed counters as "razed N" (an "R1" read as a unit of
Rowers)."""
from __future__ import annotations

import math
import random
import xml.etree.ElementTree as ET

from pbem import mapsvg
from pbem.gamedata import load_map
from pbem.visibility import view
from scenario import add, make_state
from test_map_labels import all_views
from test_mapsvg import LETTER_TYPES, SVG

LABELS = ("badge", "ids", "tag")


def attica_state():
    """The review's turn 3: Athens' 2 Armies and a leader at 1111 (Farms), an Army in Megara (1112) next to
    it, more of his stacks around Athens and Corinth's and Thebes' next to them."""
    aegean = load_map()
    s = make_state(["athens", "corinth", "thebes", "sparta"], game_map=aegean)
    stacks = {
        "athens": {"1111": "AAL", "1112": "A", "1313": "ARFLLL", "1114": "AABBL", "1212": "AL", "1310": "RFT"},
        "corinth": {"1014": "AARFFBL", "1113": "AB"},
        "thebes": {"1010": "AABLL", "1011": "A"},
        "sparta": {"1015": "AL"},
    }
    for owner, by_hex in stacks.items():
        for h, letters in by_hex.items():
            for ch in letters:
                add(s, owner, LETTER_TYPES[ch], h)
    s.cities["megara"].controller = "athens"
    s.cities["chalcis"].controller = "athens"
    s.cities["athens"].razed = 1
    s.cities["corinth"].hostile = True
    records = [{"seq": 1, "turn": 3, "player": "corinth", "phase": "land_battle", "event": "battle",
                "target": "1114", "attacker": "corinth", "defender": "athens", "attackers": ["COR-A1"],
                "defenders": ["ATH-A6"]}]
    return aegean, s, records


def crowded_state(seed: int):
    """Stacks of four players on most land hexes of Attica, Boeotia and the Peloponnese (columns 4-14, rows
    9-19), of random sizes: no room to spare anywhere."""
    rng = random.Random(seed)
    aegean = load_map()
    players = ["athens", "sparta", "corinth", "thebes"]
    s = make_state(players, game_map=aegean)
    for h in sorted(aegean.offsets):
        col, row = aegean.offsets[h]
        if 4 <= col <= 14 and 9 <= row <= 19 and aegean.terrain[h].id != "water" and rng.random() < 0.6:
            owner = rng.choice(players)
            for ch in rng.choice(["A", "AL", "AAB", "AABBL", "AARRFFBL", "AL", "AAAABBBBLL"]):
                add(s, owner, LETTER_TYPES[ch], h)
    for cid in ("megara", "corinth", "argos"):
        s.cities[cid].controller, s.cities[cid].hostile, s.cities[cid].razed = "sparta", True, 2
    return aegean, s, []


def views_of(aegean, s, records, players):
    return [view(s, aegean, p, records=records, before=s) for p in players]


def every_view():
    aegean, views = all_views()
    a, s, records = attica_state()
    views += views_of(a, s, records, ("athens", "corinth", None))
    for seed in (1, 2, 3):
        a, s, records = crowded_state(seed)
        views += views_of(a, s, records, ("athens", "sparta", None))
    return aegean, views


def _centre_of(box):
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _in(lay, aegean, h, point):
    x, y = point
    return mapsvg._in_hex(lay, aegean.offsets[h], (x, y, x, y))


def _dist(p, box):
    return math.hypot(max(box[0] - p[0], 0, p[0] - box[2]), max(box[1] - p[1], 0, p[1] - box[3]))


def test_every_badge_is_in_its_own_hex_or_on_its_chip_or_joined_to_it_by_a_line():
    aegean, views = every_view()
    lay = mapsvg.layout_of(aegean)
    away = at_home = on_chip = 0
    for v in views:
        placed, _ = mapsvg.place_labels(aegean, v, v["events"])
        stacks = mapsvg._stacks(aegean, v)
        busy = set(stacks) | set(aegean.city_at)
        for lab in placed:
            if lab.kind != "badge":
                continue
            if mapsvg._in_hex(lay, aegean.offsets[lab.hex], lab.box):  # wholly in its hex
                at_home += 1
                continue
            if lab.leader and math.hypot(lab.leader[2] - lab.leader[0], lab.leader[3] - lab.leader[1]) >= 9:
                away += 1  # a line to it from its chip, long enough to see
                assert lab.leader[:2] == lab.chip and _dist(lab.chip, lab.box) >= 9, (v["viewer"], lab)
                continue
            # else on its own chip (covering it or a sliver of it), its middle in its hex or over its chip ...
            on_chip += 1
            assert _dist(lab.chip, lab.box) <= mapsvg.CHIP_R, (v["viewer"], lab)
            # ... reaching a little over its hex's edge at most (test_mpx2_label_reach) ...
            assert not mapsvg._reaches_out(lab.box, lay.centre(*aegean.offsets[lab.hex])), (v["viewer"], lab)
            covers = lab.box[0] <= lab.chip[0] <= lab.box[2] and lab.box[1] <= lab.chip[1] <= lab.box[3]
            assert covers or _in(lay, aegean, lab.hex, _centre_of(lab.box)), (v["viewer"], lab)
            # ... and no further than a sliver into a next hex with a stack or a city of its own
            for n in aegean.neighbours[lab.hex]:
                if n in busy and n in aegean.offsets:
                    assert not mapsvg._box_hits_hex(lab.box, lay.centre(*aegean.offsets[n])), (v["viewer"], lab, n)
    # most badges sit in their hex (wholly, or on their chip a little over its edge), few need a line; on these
    # fronts, crowded on purpose, a badge that would sit mostly over a next hex has one (a player's review)
    assert at_home + on_chip > 3 * away and at_home > away


def test_no_two_labels_overlap_and_each_stays_near_what_it_labels():
    aegean, views = every_view()
    for v in views:
        placed, placer = mapsvg.place_labels(aegean, v, v["events"])
        labels = [lab for lab in placed if lab.kind in LABELS]
        for i, a in enumerate(labels):
            for b in labels[i + 1:]:
                assert mapsvg._overlap(a.box, b.box) == 0, (v["viewer"], a, b)
        badges = {}
        for lab in placed:
            if lab.kind == "badge":
                badges.setdefault(lab.hex, []).append(lab.box)
        for lab in labels:
            if lab.kind == "ids" and not lab.leader:  # the viewer's ids touch their badge
                assert min(_dist(_centre_of(b), lab.box) - (b[3] - b[1]) / 2 for b in badges[lab.hex]) <= 2 \
                    or any(mapsvg._overlap((b[0] - 2, b[1] - 2, b[2] + 2, b[3] + 2), lab.box) > 0
                           for b in badges[lab.hex]), (v["viewer"], lab)
            if lab.kind == "tag" and not lab.leader:  # a city's tag touches its mark (the ring around it)
                cx, cy = mapsvg.layout_of(aegean).centre(*aegean.offsets[lab.hex])
                assert _dist((cx, cy), lab.box) <= 11.6 + 14, (v["viewer"], lab)


def test_the_review_s_stacks_at_1111_and_megara_are_each_labelled_in_their_own_hex():
    aegean, s, records = attica_state()
    lay = mapsvg.layout_of(aegean)
    for v in views_of(aegean, s, records, ("athens", None)):
        placed, _ = mapsvg.place_labels(aegean, v, v["events"])
        badge = {lab.hex: lab for lab in placed if lab.kind == "badge"}
        for h in ("1111", "1112", "1114", "1212"):
            lab = badge[h]
            if h == "1114" and lab.leader:  # too wide for its crowded hex (it sat half over the sea, no line):
                assert lab.leader[:2] == lab.chip, (v["viewer"], lab)  # joined to its chip (test_mpx2_label_reach)
                continue
            assert not lab.leader and _in(lay, aegean, h, _centre_of(lab.box)), (v["viewer"], lab)
            for other in ("1111", "1112", "1211", "1214", "1113"):  # not over the sea, nor over its neighbour
                if other != h:
                    assert not _in(lay, aegean, other, _centre_of(lab.box)), (v["viewer"], lab, other)
        if v["viewer"] == "athens":  # his own 2A 1L: wholly in 1111
            assert mapsvg._in_hex(lay, aegean.offsets["1111"], badge["1111"].box)


def test_a_badge_too_wide_for_its_hex_goes_on_more_lines_or_in_the_smaller_font_first():
    assert mapsvg.badge_forms("2A 2B 1L")[0] == (("2A 2B 1L",), mapsvg.BADGE_SIZE)
    forms = mapsvg.badge_forms("ATH 2A 2R 2F 1B 2L")
    assert forms[0] == (("ATH 2A 2R", "2F 1B 2L"), mapsvg.BADGE_SIZE)  # as before: two lines
    assert (("ATH 2A", "2R 2F", "1B 2L"), mapsvg.BADGE_SMALL) in forms
    assert all(" ".join(lines) == "ATH 2A 2R 2F 1B 2L" for lines, _ in forms)
    # drawn as placed: each line of a badge in its font size, inside its box
    aegean, s, records = attica_state()
    v = view(s, aegean, "athens", records=records, before=s)
    placed, _ = mapsvg.place_labels(aegean, v, v["events"])
    root = ET.fromstring(mapsvg.map_svg(aegean, v, v["events"]))
    units = next(el for el in root.iter(SVG + "g") if el.get("id") == "units")
    texts = [(el.text, float(el.get("font-size")), float(el.get("x")), float(el.get("y")))
             for el in units.iter(SVG + "text")]
    for lab in (lab for lab in placed if lab.kind == "badge"):
        for line in lab.lines:
            x, y = next((x, y) for t, size, x, y in texts if t == line and size == lab.size
                        and lab.box[0] < x < lab.box[2] and lab.box[1] < y < lab.box[3])
            assert abs(x - (lab.box[0] + lab.box[2]) / 2) < 0.06


def _label_texts(svg):
    """The texts of the labels' layer, in order: (text, fill)."""
    root = ET.fromstring(svg)
    labels = next(el for el in root.iter(SVG + "g") if el.get("id") == "labels")
    return [(el.text, el.get("fill")) for el in labels.iter(SVG + "text")]


def _has_run(texts, run):
    return any(texts[i:i + len(run)] == run for i in range(len(texts)))


def test_a_city_s_tag_shows_its_holder_in_their_colour_hostile_in_red_and_razed_as_a_word():
    aegean, s, records = attica_state()
    s.cities["megara"].hostile = True
    s.cities["megara"].razed = 2
    v = view(s, aegean, "athens", records=records, before=s)
    colours = mapsvg.player_colours(v, aegean)
    placed, _ = mapsvg.place_labels(aegean, v, v["events"])
    tags = {lab.hex: lab for lab in placed if lab.kind == "tag"}
    assert tags["1112"].text == "ATH ! razed 2"
    assert tags["1313"].text == "razed 1"  # Athens' own home city: no holder, its razed counter
    svg = mapsvg.map_svg(aegean, v, v["events"])
    assert _has_run(_label_texts(svg), [("ATH", mapsvg._ink(colours["athens"])), ("!", mapsvg.HOSTILE_INK),
                                        ("razed 2", mapsvg.RAZED_INK)])
    assert colours["athens"] != colours["corinth"] and mapsvg._ink(colours["athens"]) != mapsvg.HOSTILE_INK
    # another player's holding in their colour: Corinth's, in the Corinthian's report
    s.cities["megara"].controller = "corinth"
    v = view(s, aegean, "corinth", records=records, before=s)
    assert _has_run(_label_texts(mapsvg.map_svg(aegean, v, v["events"])), [("COR", mapsvg._ink(colours["corinth"])),
                                                                          ("!", mapsvg.HOSTILE_INK)])
    # nothing on the map reads like a razed city's old "R1"/"R2"; the legend says what the tag means
    for lab in placed:
        if lab.kind == "tag":
            assert not any(part[0] == "R" and part[1:].isdigit() for part in lab.text.split()), lab
    assert "SPA holds it, ! hostile, razed 2 counters" in mapsvg.static_layer(aegean)
