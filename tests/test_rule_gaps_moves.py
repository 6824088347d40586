"""Movement rules no test pinned before a mutation-testing review (R-PH-MOVE, R-UNIT-2..4), on the tiny map.
Each test names the mutant it kills in its docstring (``/tmp/mut/mutants.json`` of that review).

Hexes: 0302 Athens (City, coastal, stack 4), 0202 Sandy Coast (stack 4, ships may beach), 0203 Clear
(stack 5), 0201/0301 Water, 0402/0503/0504/0404/0405 Clear (cost 1 each).
"""
from __future__ import annotations

import pytest

from scenario import add, events, make_state, orders, run_phase


def first_move(player, *moves):
    return orders(player, first_move=list(moves))


def failed(ctx):
    return events(ctx, "order_failed")


# -- carrying (R-UNIT-1, R-PH-MOVE) -------------------------------------------------------------------------

def test_R_PH_MOVE_a_transport_with_baggage_aboard_has_no_room_for_an_army():
    """R-UNIT-1 / docs/rules.md Carrying: a Transport carries "1 Army or 1 Rowers, or up to 8 Baggage" -- not
    both.  A Transport in Athens with one Baggage aboard cannot load an Army: the order fails whole (R-TURN-4).
    Kills MOV3 (a Transport with Baggage may also take an Army)."""
    s = make_state()
    t = add(s, "athens", "transport", "0302")
    bag = add(s, "athens", "baggage", "0302", carried_by=t.id)
    a = add(s, "athens", "army", "0302")
    ctx = run_phase("first_move", s, "athens", orders=first_move("athens", {"units": [t.id], "load": [a.id],
                                                                              "path": ["0201"]}))
    [f] = failed(ctx)
    assert f["reason"] == f"no room for {a.id} aboard the moving ships"
    assert t.hex == "0302" and a.hex == "0302" and a.carried_by is None and bag.carried_by == t.id
    assert not events(ctx, "moved")


def test_R_PH_MOVE_no_boarding_at_sea():
    """R-PH-MOVE: units "embark and disembark in a hex where the ship is docked or beached" (docs/rules.md
    Carrying: ``load`` needs the ships docked or beached).  At sea (0201, Water) a Transport's Rowers may not
    change over to man an empty Fleet; on the beach at 0202 they may.  Kills MOV11 (boarding at sea)."""
    s = make_state()
    f = add(s, "athens", "fleet", "0201")
    t = add(s, "athens", "transport", "0201")
    r = add(s, "athens", "rowers", "0201", carried_by=t.id)
    ctx = run_phase("first_move", s, "athens", orders=first_move("athens", {"units": [f.id, t.id], "load": [r.id],
                                                                              "path": ["0301"]}))
    [fail] = failed(ctx)
    assert fail["reason"] == "units go aboard only where the ships are docked or beached; 0201 is Water (Sea)"
    assert f.hex == t.hex == "0201" and r.carried_by == t.id

    s = make_state()  # the same on a beach
    f = add(s, "athens", "fleet", "0202")
    t = add(s, "athens", "transport", "0202")
    r = add(s, "athens", "rowers", "0202", carried_by=t.id)
    ctx = run_phase("first_move", s, "athens", orders=first_move("athens", {"units": [f.id, t.id], "load": [r.id],
                                                                              "path": ["0201"]}))
    assert not failed(ctx) and r.carried_by == f.id and f.hex == t.hex == r.hex == "0201"


# -- allowance (R-PH-MOVE) ----------------------------------------------------------------------------------

def test_R_PH_MOVE_logistics_counts_only_for_a_leader_moving_with_the_stack():
    """docs/rules.md Movement 2: Logistics gives +1 to the stack the leader moves with -- "Decision: a leader
    left behind in the start hex gives nothing".  An Army moving with a plain leader, its Logistics leader
    staying in Athens, has 4 points: five Clear hexes fail.  With the Logistics leader along, it has 5.
    Kills MOV7 (Logistics of a leader left behind still adds +1)."""
    path = ["0402", "0503", "0504", "0404", "0405"]
    s = make_state()
    logi = add(s, "athens", "leader", "0302", skills=["logistics"])
    plain = add(s, "athens", "leader", "0302")
    a = add(s, "athens", "army", "0302")
    ctx = run_phase("first_move", s, "athens", orders=first_move("athens", {"units": [a.id, plain.id],
                                                                              "path": path}))
    [f] = failed(ctx)
    assert "not enough movement points" in f["reason"]
    assert a.hex == plain.hex == logi.hex == "0302"

    s = make_state()
    logi = add(s, "athens", "leader", "0302", skills=["logistics"])
    a = add(s, "athens", "army", "0302")
    ctx = run_phase("first_move", s, "athens", orders=first_move("athens", {"units": [a.id, logi.id],
                                                                              "path": path}))
    [m] = events(ctx, "moved")
    assert m["allowance"] == 5 and a.hex == logi.hex == "0405"


# -- capture and stacking (R-UNIT-2, R-UNIT-3, R-UNIT-4) -------------------------------------------------------

@pytest.mark.parametrize("armies, taken", [(3, True), (4, False)])
def test_R_UNIT_2_ships_captured_at_the_end_hex_count_for_stacking(armies, taken):
    """docs/rules.md Movement 5: stacking at the end of the move counts "the captured ships there included".
    Athenian Armies end their move on the beach 0202 (limit 4), where a lone Spartan Transport lies: 3 Armies
    capture it (3 + 1 = 4); 4 Armies would be 5, so their order fails whole and nothing is captured.
    Kills MOV13 (captured ships at the end hex not counted)."""
    s = make_state()
    arm = [add(s, "athens", "army", "0302") for _ in range(armies)]
    t = add(s, "sparta", "transport", "0202")
    ctx = run_phase("first_move", s, "athens", orders=first_move("athens", {"units": [u.id for u in arm],
                                                                              "path": ["0202"]}))
    if taken:
        assert not failed(ctx) and all(u.hex == "0202" for u in arm)
        assert s.units[t.id].owner == "athens"
    else:
        [f] = failed(ctx)
        assert f["reason"] == "the stack would be over the stacking limit in 0202 (Sandy Coast, limit 4)"
        assert all(u.hex == "0302" for u in arm) and s.units[t.id].owner == "sparta"
        assert not events(ctx, "captured")


@pytest.mark.parametrize("armies, scuttled", [(3, False), (4, True)])
def test_R_UNIT_4_a_captured_ship_over_the_captors_stacking_limit_is_scuttled(armies, scuttled):
    """docs/rules.md Capture: "a captured ship that would put the captor over the stacking limit in that hex is
    scuttled"; the stack stands in each hex where it captures (pbem/phases/move.py), so a stack passing through
    counts.  Athenian Armies pass the beach 0202 (limit 4), taking an unmanned Spartan Fleet, and go on to
    0203: with 3 Armies the Fleet (3 + 1 = 4) is kept, Athenian, on the beach; with 4 (5 > 4) it is scuttled.
    Kills MOV6 (a captured ship one over the limit is kept)."""
    s = make_state()
    arm = [add(s, "athens", "army", "0302") for _ in range(armies)]
    f = add(s, "sparta", "fleet", "0202")
    ctx = run_phase("first_move", s, "athens", orders=first_move("athens", {"units": [u.id for u in arm],
                                                                              "path": ["0202", "0203"]}))
    assert not failed(ctx) and all(u.hex == "0203" for u in arm)
    [c] = events(ctx, "captured")
    assert c["unit"] == f.id and c["by"] == "athens" and c["owner"] == "sparta"
    if scuttled:
        assert f.id not in s.units
        [d] = events(ctx, "destroyed")
        assert d["unit"] == f.id and d["cause"] == "scuttled: no room in the captor's stack"
    else:
        assert s.units[f.id].owner == "athens" and f.hex == "0202" and not events(ctx, "destroyed")
