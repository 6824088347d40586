"""A label sits in its hex or reaches but a little over its edge; else it is joined by a line (a player's
review, 9 turns as Ionia).  Ionia's badge "1A 2R 2F 1T 2L" sat mostly in the sea hex 2510 above the city with
no line, and its id line "A9 R1-2 F1-2 T4 L3,5" ran on across 2610 into 2710.  docs/players.md: a label "sits
inside that hex ...; a label that reaches a little over the hex's edge still covers its own dot.  Only when its
hex has no room does a label sit outside it, joined to the dot by a dark line."  The viewer's unit-id line
follows the same rule: touching its badge only inside the stack's hex (or a little over it), else with a line."""
from __future__ import annotations

import math

from pbem import mapsvg
from pbem.gamedata import load_map
from pbem.visibility import view
from scenario import add, make_state
from test_mapsvg import LETTER_TYPES
from test_mpx_label_homes import every_view


def ionia_state():
    """The review's turn 5: Ionia's home stack (1A 2R 2F 1T 2L) in its city 2511 by the sea, 2T 1L at 2513."""
    aegean = load_map()
    s = make_state(["ionia", "athens", "sparta", "macedonia"], game_map=aegean)
    for h, letters in {"2511": "ARRFFTLL", "2513": "TTL", "2615": "ABBL"}.items():
        for ch in letters:
            add(s, "ionia", LETTER_TYPES[ch], h)
    return aegean, s


def _centre(aegean, h):
    return mapsvg.layout_of(aegean).centre(*aegean.offsets[h])


def _length(leader):
    return math.hypot(leader[2] - leader[0], leader[3] - leader[1])


def test_ionia_s_home_stack_is_joined_to_its_city_by_a_line_and_so_are_its_ids():
    aegean, s = ionia_state()
    for viewer in ("ionia", None):
        v = view(s, aegean, viewer, records=[], before=s)
        placed, _ = mapsvg.place_labels(aegean, v, v["events"])
        badge = next(lab for lab in placed if lab.kind == "badge" and lab.hex == "2511")
        # no room above the city's mark for two lines: away, joined to its chip by a line one can see
        assert mapsvg._reaches_out(badge.box, _centre(aegean, "2511")), (viewer, badge)
        assert badge.leader and badge.leader[:2] == badge.chip and _length(badge.leader) >= 9, (viewer, badge)
        if viewer == "ionia":
            ids = next(lab for lab in placed if lab.kind == "ids" and lab.hex == "2511")
            assert ids.text == "A1 R1-2 F1-2 T1 L1-2"
            assert ids.leader is not None and _length(ids.leader) >= 9, ids  # far over 2610: with a line


def test_a_label_without_a_line_reaches_no_more_than_a_little_over_its_hex_s_edge():
    aegean, views = every_view()
    a, s = ionia_state()
    views += [view(s, a, p, records=[], before=s) for p in ("ionia", None)]
    lines = {"badge": 0, "ids": 0}
    for v in views:
        placed, _ = mapsvg.place_labels(aegean, v, v["events"])
        for lab in placed:
            if lab.kind not in lines:
                continue
            if lab.leader is not None and _length(lab.leader) >= 9:
                lines[lab.kind] += 1
                continue
            assert not mapsvg._reaches_out(lab.box, _centre(aegean, lab.hex)), (v["viewer"], lab)
    assert lines["badge"] and lines["ids"]  # the crowded fronts need some of each


def test_reaching_a_little_over_is_at_most_reach_eps_px_over_the_hex_s_edge():
    cx, cy = 100.0, 100.0
    inner = mapsvg.HEX * math.sqrt(3) / 2
    assert not mapsvg._reaches_out((cx - 15, cy - inner - 7, cx + 15, cy - 8), (cx, cy))  # 7 px over the top
    assert mapsvg._reaches_out((cx - 15, cy - inner - 9, cx + 15, cy - 8), (cx, cy))  # 9 px over it
    assert mapsvg._reaches_out((cx + 10, cy - 50, cx + 100, cy - 41), (cx, cy))  # in hexes further away


def test_a_crowded_city_s_id_is_drawn_again_off_its_stack_s_badge():
    """Halicarnassus' id, at the top of its hex (its name leaves no room after it), is covered by the badge of a
    stack in the city; drawn again where no place in the hex is free, it went over the badge ("2A 2417 2B" in
    the README's picture): a city's tag or name may take it, a stack's label not."""
    aegean = load_map()
    s = make_state(["sparta", "athens", "troy", "doria"], game_map=aegean)
    s.cities["halicarnassus"].controller = "sparta"
    for ch in "AABB":
        add(s, "sparta", LETTER_TYPES[ch], "2417")
    for ch in "AABB":
        add(s, "troy", LETTER_TYPES[ch], "2517")
    for viewer in ("sparta", None):
        v = view(s, aegean, viewer, records=[], before=s)
        placed, _ = mapsvg.place_labels(aegean, v, v["events"])
        [moved] = [lab for lab in placed if lab.kind == "hexid" and lab.hex == "2417"] or [None]
        if moved is None:
            continue  # its id was not covered in this view
        for lab in placed:
            if lab.kind in ("badge", "ids"):
                assert mapsvg._overlap(moved.box, lab.box) == 0, (viewer, lab)
