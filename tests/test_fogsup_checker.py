"""The order checker's supply heads-up covers the Armies and Rowers no order of the file moves (a review: an Army
left on a beach or in enemy land by an earlier turn's orders starved at the next Upkeep with no word, as only the
units the file moves or carries were looked at).  The reason is the Upkeep phase's own
(``phases.upkeep.supply_problem``), asked against the state the file's moves leave."""
from __future__ import annotations

import pytest

from pbem.checker import check_text
from pbem.storage import Campaign
from demo_campaign import ATHENS, create_demo, edited, said

UNFED = ("with no friendly city in or next to it: at your next Upkeep each without Baggage makes an upkeep roll (6 or "
         "more disbands it)")


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Campaign:
    return create_demo(tmp_path_factory.mktemp("campaigns") / "demo")


def left_out(s) -> None:
    """Athens (1313): ATH-A2 left in 1113 (open land two hexes off, no city near), ATH-F1 with ATH-R1 aboard left
    on the beach 2013, by an earlier turn's orders."""
    s.place(s.units["ATH-A2"], "1113")
    s.place(s.units["ATH-F1"], "2013")
    s.place(s.units["ATH-R1"], "2013")


def upkeep_findings(r):
    return [f for f in r.findings if "Upkeep" in f.message]


def test_units_no_order_moves_left_out_of_supply_are_warned_with_what_would_feed_them(demo, tmp_path):
    r = check_text(ATHENS, "o.yaml", edited(demo, tmp_path, left_out))
    found = {(f.severity, f.path, f.message, f.hint) for f in upkeep_findings(r)}
    hint = ("move it in or next to a city of yours that is neither besieged nor razed (the nearest: Athens, in "
            "1313{}), or bring Baggage there (R-PH-UPK)")
    assert found == {
        ("warning", "", f"ATH-A2, which no order of this file moves, stays in 1113 {UNFED}", hint.format("")),
        # on an island's beach: no march reaches Athens (a code review: the nearest was by straight distance)
        ("warning", "", f"ATH-R1, which no order of this file moves, stays in 2013 {UNFED}",
         hint.format(", over the sea")),
    }, said(r)
    assert not [f for f in r.findings if f.severity == "error"], said(r)  # warnings only: the file is usable


def test_units_in_supply_or_fed_by_baggage_or_moved_home_are_not_warned(demo, tmp_path):
    # the demo as set up: everything in Athens
    assert not upkeep_findings(check_text(ATHENS, "o.yaml", demo)), said(check_text(ATHENS, "o.yaml", demo))

    # next to Athens (1212), or with Baggage for each where no city feeds them: at this turn's Upkeep and at the
    # next (ATH-A2 eats one now: the checker counted it for the next Upkeep too, a new player's review)
    def fed(s) -> None:
        s.place(s.units["ATH-A1"], "1212")
        s.place(s.units["ATH-A2"], "1113")
        from pbem.model import Unit, UnitType
        for _ in range(2):
            s.add_unit(Unit(s.new_unit_id("ATH", UnitType.BAGGAGE), UnitType.BAGGAGE, "athens", "1113"))
    r = check_text(ATHENS, "o.yaml", edited(demo, tmp_path / "fed", fed))
    assert not upkeep_findings(r), said(r)

    # left out by an earlier turn, brought back by this file's move: nothing to say
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-A2]\n    path: ["1212"]\n', "o.yaml",
                   edited(demo, tmp_path / "back", lambda s: s.place(s.units["ATH-A2"], "1113")))
    assert not upkeep_findings(r), said(r)


def test_a_moved_unit_joining_one_left_there_is_one_warning_at_the_move_counting_the_baggage_for_both(demo, tmp_path):
    """One Baggage in 1113 fed ATH-A2, left there (a second it eats at this turn's Upkeep); ATH-A1 marching in
    makes two mouths for the one left."""
    def one_bag(s) -> None:
        from pbem.model import Unit, UnitType
        s.place(s.units["ATH-A2"], "1113")
        for _ in range(2):
            s.add_unit(Unit(s.new_unit_id("ATH", UnitType.BAGGAGE), UnitType.BAGGAGE, "athens", "1113"))
    camp = edited(demo, tmp_path, one_bag)
    assert not upkeep_findings(check_text(ATHENS, "o.yaml", camp))
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-A1]\n    path: ["1212", "1113"]\n', "o.yaml", camp)
    [w] = upkeep_findings(r)
    assert (w.path, w.message) == ("first_move[0].path[1]", "ATH-A1 ends the turn in 1113, where ATH-A2 already "
                                   "stands, with no friendly city in or next to it and Baggage for 1 only: at your "
                                   "next Upkeep each without Baggage makes an upkeep roll (6 or more disbands it)"), \
        said(r)


def test_the_city_named_to_walk_to_is_the_nearest_a_march_reaches_not_an_island_across_the_water(demo, tmp_path):
    """A code review: by straight distance Aegina (1215, an island) is nearer to 0914 than Athens (1313), but no
    march reaches it: the hint names Athens."""
    def setup(s):
        s.cities["aegina"].controller = "athens"
        s.place(s.units["ATH-A2"], "0914")
    r = check_text(ATHENS, "o.yaml", edited(demo, tmp_path, setup))
    [f] = upkeep_findings(r)
    assert f.message.startswith("ATH-A2, which no order of this file moves, stays in 0914"), said(r)
    assert "(the nearest: Athens, in 1313)" in f.hint, f.hint


def test_a_razed_citys_own_garrison_is_told_to_bring_baggage_or_go_next_to_another_city(demo, tmp_path):
    def setup(s):
        s.cities["megara"].controller = "athens"
        s.cities["megara"].razed = 1
        s.place(s.units["ATH-A2"], "1112")
    r = check_text(ATHENS, "o.yaml", edited(demo, tmp_path, setup))
    [f] = upkeep_findings(r)
    assert f.message.startswith("ATH-A2, which no order of this file moves, stays in 1112"), said(r)
    assert f.hint == ("Megara is razed and feeds no one until its razed counters are gone; move it next to another "
                      "city of yours, or bring Baggage there (R-PH-UPK)"), f.hint


@pytest.mark.parametrize("controller, fed", [(None, True), ("sparta", False)])
def test_a_diplomacy_roll_may_feed_units_only_through_a_neutral_city(demo, tmp_path, controller, fed):
    """A new player's review: "unless your diplomacy roll at diplomacy[0] wins Lemnos for you" was said of a city
    another player held, which a 6 only makes revolt (R-PH-DIP): neutral at best, feeding no one."""
    def setup(s):
        s.cities["megara"].controller = controller
        s.cities["megara"].hostile = False
        s.place(s.units["ATH-A2"], "1111")  # next to Megara, three hexes from Athens
    r = check_text(ATHENS + "diplomacy: [megara]\n", "o.yaml", edited(demo, tmp_path, setup))
    [f] = upkeep_findings(r)
    assert f.message.startswith("ATH-A2, which no order of this file moves, stays in 1111"), said(r)
    assert ("unless your diplomacy roll at diplomacy[0] wins Megara for you" in f.message) is fed, f.message


def test_an_order_naming_a_unit_that_may_disband_in_this_turns_upkeep_is_warned(demo, tmp_path):
    """A new player's review: ATH-A3 (one starvation counter, no Baggage, on a beach) disbanded in the Upkeep
    phase, before the moves, and the attack naming it failed whole, ATH-A4 with it: the checker had said nothing.
    R-PH-UPK (Upkeep before the moves), R-TURN-4 (an order is done whole or not at all)."""
    def setup(s):
        for uid in ("ATH-A1", "ATH-A2"):
            s.place(s.units[uid], "1113")
        s.units["ATH-A2"].starvation = 1
    both = ATHENS + 'first_move:\n  - {units: [ATH-A1, ATH-A2], path: ["1212"]}\n'
    r = check_text(both, "o.yaml", edited(demo, tmp_path / "a", setup))
    [w] = [f for f in r.findings if "this turn's Upkeep" in f.message]
    assert w.path == "first_move[0]" and w.severity == "warning", said(r)
    assert w.message == ("ATH-A1, ATH-A2 stand out of supply without Baggage for each, so at this turn's Upkeep, "
                         "before your moves, each makes an upkeep roll (ATH-A1 in 1113: a 6 disbands it; ATH-A2 in "
                         "1113: 5-6 disbands it): if one disbands, this order fails whole, the units with it "
                         "included"), w.message
    # a unit alone in its order: its loss takes nothing else with it, so nothing more is said
    alone = ATHENS + 'first_move:\n  - {units: [ATH-A1], path: ["1212"]}\n  - {units: [ATH-A2], path: ["1212"]}\n'
    r = check_text(alone, "o.yaml", edited(demo, tmp_path / "b", setup))
    assert not [f for f in r.findings if "this turn's Upkeep" in f.message], said(r)

    def next_to_athens(s):  # in supply: paid, no roll
        setup(s)
        for uid in ("ATH-A1", "ATH-A2"):
            s.place(s.units[uid], "1212")
    r = check_text(ATHENS + 'first_move:\n  - {units: [ATH-A1, ATH-A2], path: ["1313"]}\n', "o.yaml",
                   edited(demo, tmp_path / "c", next_to_athens))
    assert not [f for f in r.findings if "this turn's Upkeep" in f.message], said(r)


def test_baggage_eaten_at_this_turns_upkeep_feeds_no_one_at_the_next(demo, tmp_path):
    """A new player's review: ATH-A4 sat out of supply with a Baggage, ate it at this turn's Upkeep, and starved at
    the next one: the checker had counted that Baggage for the next Upkeep and said nothing."""
    from pbem.model import Unit, UnitType

    def setup(s):
        s.place(s.units["ATH-A2"], "1113")
        s.add_unit(Unit(s.new_unit_id("ATH", UnitType.BAGGAGE), UnitType.BAGGAGE, "athens", "1113"))
    r = check_text(ATHENS, "o.yaml", edited(demo, tmp_path, setup))
    [f] = upkeep_findings(r)
    assert f.message.startswith(f"ATH-A2, which no order of this file moves, stays in 1113 {UNFED[:40]}"), said(r)
