"""R-TURN-4: a move order that can no longer be carried out is skipped whole, so its ships stay where they
were; at sea (not docked or beached) they then face the navigation roll at the end of the Second Move
(R-PH-SECOND).  A new player's Transport stayed at sea when the Army it was to carry had disbanded, and the
report did not say where it stayed nor that the navigation roll that followed came of it: the failed order's
line says both, in the text and HTML reports, and the navigation line names the hex and the order."""
from __future__ import annotations

import html
import re

from pbem import report
from pbem.dice import ScriptedDice

from scenario import TABLES, TINY, add, make_state, orders, run_turn


def reports(after, before, records, viewer):
    ctx = report.build_context("t", 1, TINY, TABLES, after, before, records, viewer)
    files = report.render_all(report.environment(), ctx, TINY, ("txt", "html"))
    text = " ".join(files["report.txt"].decode().split())  # the wrapped lines joined
    page = html.unescape(re.sub(r"<[^>]+>", "", files["report.html"].decode()))
    return ctx, text, " ".join(page.split())


def transport_whose_army_disbanded(first_roll_navigation: int = 1):
    """Athens' Transport at sea at 0602 with an Army that disbands in Upkeep (1D6 1 + 5 starvation = 6); the
    First Move names both, so it fails and the Transport stays at 0602; navigation roll ``first_roll_...``."""
    s = make_state()
    t = add(s, "athens", "transport", "0602")
    a = add(s, "athens", "army", "0602", carried_by=t.id, starvation=5)
    before = s.copy()
    o = orders("athens", first_move=[{"units": [t.id, a.id], "path": ["0603"]}])
    # upkeep 1, experience 1, navigation roll, then Sparta's dice
    log = run_turn(s, {"athens": o, "sparta": None}, ScriptedDice([1, 1, first_roll_navigation] + [1] * 20))
    return s, before, log.records


def test_R_TURN_4_a_failed_ship_move_says_the_ship_stayed_at_sea_and_its_navigation_roll():
    after, before, records = transport_whose_army_disbanded(1)
    assert [r["hex"] for r in records if r.get("event") == "navigation"] == ["0602"]
    ctx, text, page = reports(after, before, records, "athens")
    [o] = ctx["orders"]
    assert o["stayed"] == ("ATH-T1 stayed where it was, at sea at 0602 Water (Sea); navigation roll there at the "
                           "end of your Second Move: afloat")
    line = ("First move #1: FAILED: ATH-A1 disbanded in your Upkeep (starvation: no friendly city in or next to "
            "its hex) (moving ATH-T1 ATH-A1). ATH-T1 stayed where it was, at sea at 0602 Water (Sea); navigation "
            "roll there at the end of your Second Move: afloat")
    assert line in text
    assert line in page
    nav = "Navigation roll for ATH-T1 at 0602 Water (Sea) (left at sea by your failed First move #1): 1 = 1: afloat"
    assert nav in text and nav in page


def test_R_TURN_4_the_ship_left_at_sea_that_sank_says_so_and_the_moderator_reads_whose_order():
    after, before, records = transport_whose_army_disbanded(6)
    assert "ATH-T1" not in after.units
    _, text, _ = reports(after, before, records, "athens")
    assert "ATH-T1 stayed where it was, at sea at 0602 Water (Sea); navigation roll there at the end of your " \
           "Second Move: sunk" in text
    _, text, _ = reports(after, before, records, None)
    assert "Athenians: First move #1: FAILED" in text
    assert "navigation roll there at the end of Athenians' Second Move: sunk" in text
    assert "(left at sea by Athenians' failed First move #1)" in text


def test_R_TURN_4_a_failed_move_of_a_docked_ship_or_of_a_ship_moved_on_later_says_nothing_of_the_sea():
    """Docked in Athens (0302) there is no navigation roll: nothing to say.  A ship left at sea by a failed
    First Move that sails on in the Second Move: the line says where it stayed, and ties no roll to it."""
    s = make_state()
    docked = add(s, "athens", "transport", "0302")
    at_sea = add(s, "athens", "transport", "0602")
    before = s.copy()
    o = orders("athens",
               first_move=[{"units": [docked.id, "ATH-A9"], "path": ["0402"]},
                           {"units": ["0602", "ATH-A9"], "path": ["0603"]}],
               second_move=[{"units": [at_sea.id], "path": ["0702"]}])
    log = run_turn(s, {"athens": o, "sparta": None}, ScriptedDice([1] * 20))
    ctx, text, _ = reports(s, before, log.records, "athens")
    stayed = [o["stayed"] for o in ctx["orders"]]
    assert stayed == ["", "ATH-T2 stayed where it was, at sea at 0602 Water (Sea)", ""], ctx["orders"]
    assert "Navigation roll for ATH-T2 at 0702 Water (Sea): 1 = 1: afloat" in text
