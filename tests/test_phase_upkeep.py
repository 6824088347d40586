"""Upkeep phase (R-PH-UPK): payment, baggage, the upkeep roll (table rows are in tests/cases/phases_1_5)."""
from scenario import add, events, make_state, orders, run_phase


def test_R_PH_UPK_each_army_and_rowers_in_or_next_to_a_friendly_city_is_paid_one_gold():
    s = make_state(gold=10)
    a1 = add(s, "athens", "army", "0302", starvation=2)
    a2 = add(s, "athens", "army", "0402")  # next to Athens
    fleet = add(s, "athens", "fleet", "0301")
    rowers = add(s, "athens", "rowers", "0301", carried_by=fleet.id)  # aboard, at sea next to Athens
    add(s, "athens", "transport", "0302"), add(s, "athens", "baggage", "0302"), add(s, "athens", "leader", "0302")
    ctx = run_phase("upkeep", s, "athens")
    assert s.players["athens"].gold == 7  # ships, baggage and leaders need no upkeep
    assert [e["unit"] for e in events(ctx, "upkeep_paid")] == [a1.id, a2.id, rowers.id]
    assert a1.starvation == 0  # payment clears starvation counters
    assert events(ctx, "upkeep_paid")[0]["starvation_cleared"] == 2


def test_R_PH_UPK_rowers_aboard_a_fleet_far_at_sea_need_upkeep_too():
    s = make_state()
    fleet = add(s, "athens", "fleet", "0807")
    rowers = add(s, "athens", "rowers", "0807", carried_by=fleet.id)
    ctx = run_phase("upkeep", s, "athens", dice=[2])
    assert rowers.starvation == 1 and s.players["athens"].gold == 10
    assert events(ctx, "starvation")[0]["reason"] == "no friendly city in or next to its hex"


def test_R_PH_UPK_priority_of_the_order_then_by_id_when_gold_runs_short():
    s = make_state(gold=1)
    a1 = add(s, "athens", "army", "0302")
    a2 = add(s, "athens", "army", "0302")
    a3 = add(s, "athens", "army", "0302")
    o = orders("athens", upkeep=[a3.id, "SPA-A9"])
    ctx = run_phase("upkeep", s, "athens", dice=[1, 1], orders=o)
    assert [e["unit"] for e in events(ctx, "upkeep_paid")] == [a3.id]
    assert [e["unit"] for e in events(ctx, "starvation")] == [a1.id, a2.id]
    assert all(e["reason"] == "not enough gold" for e in events(ctx, "starvation"))
    [f] = events(ctx, "order_failed")
    assert f["section"] == "upkeep" and f["index"] == 1


def test_R_PH_UPK_standing_priority_applies_without_an_order_list():
    s = make_state(gold=1)
    add(s, "athens", "army", "0302")
    a2 = add(s, "athens", "army", "0302")
    s.players["athens"].standing = {"upkeep": [a2.id]}
    ctx = run_phase("upkeep", s, "athens", dice=[1])
    assert [e["unit"] for e in events(ctx, "upkeep_paid")] == [a2.id]


def test_R_PH_UPK_by_id_in_human_order():
    s = make_state(gold=1)
    units = [add(s, "athens", "army", "0302") for _ in range(3)]
    s.units["ATH-A10"] = s.units.pop(units[0].id)  # ATH-A10 sorts after ATH-A2
    s.units["ATH-A10"].id = "ATH-A10"
    s._at = None
    ctx = run_phase("upkeep", s, "athens", dice=[1, 1])
    assert events(ctx, "upkeep_paid")[0]["unit"] == "ATH-A2"


def test_R_PH_UPK_an_unpaid_unit_uses_a_baggage_of_its_stack_which_is_discarded():
    s = make_state(gold=0)
    army = add(s, "athens", "army", "0404", starvation=1)
    loose = add(s, "athens", "baggage", "0404")
    carried = add(s, "athens", "baggage", "0404", carried_by=army.id)
    add(s, "sparta", "baggage", "0404")  # not of its stack
    ctx = run_phase("upkeep", s, "athens")
    [ev] = events(ctx, "baggage_used")
    assert ev["baggage"] == carried.id and carried.id not in s.units and loose.id in s.units
    assert army.starvation == 0


def test_R_PH_UPK_baggage_aboard_the_same_carrier_is_used_before_loose_baggage():
    s = make_state(gold=0)
    transport = add(s, "athens", "transport", "0807")
    army = add(s, "athens", "army", "0807", carried_by=transport.id)
    other = add(s, "athens", "baggage", "0807")
    aboard = add(s, "athens", "baggage", "0807", carried_by=transport.id)
    run_phase("upkeep", s, "athens")
    assert aboard.id not in s.units and other.id in s.units and army.id in s.units


def test_R_PH_UPK_a_razed_city_provides_no_upkeep():
    s = make_state()
    s.cities["athens"].razed = 1
    add(s, "athens", "army", "0302")
    ctx = run_phase("upkeep", s, "athens", dice=[3])
    assert s.players["athens"].gold == 10 and events(ctx, "starvation")


def test_R_PH_UPK_a_city_under_siege_provides_no_upkeep():
    s = make_state()
    s.cities["megara"].controller = "athens"
    a = add(s, "athens", "army", "0606")  # next to Megara only
    run_phase("upkeep", s, "athens")
    assert s.players["athens"].gold == 9 and a.starvation == 0
    add(s, "sparta", "army", "0507")  # next to Megara: under siege
    ctx = run_phase("upkeep", s, "athens", dice=[3])
    assert s.players["athens"].gold == 9 and a.starvation == 1
    assert events(ctx, "starvation")[0]["reason"] == "no friendly city in or next to its hex (Megara is under siege)"


def test_R_PH_UPK_a_completely_surrounded_unit_is_not_paid_but_uses_baggage():
    s = make_state()
    a = add(s, "athens", "army", "0402", starvation=1)
    bag = add(s, "athens", "baggage", "0402")
    for h in ("0401", "0502", "0503", "0403", "0303", "0302"):  # Spartan leaders all round: no siege
        add(s, "sparta", "leader", h)
    ctx = run_phase("upkeep", s, "athens")
    assert s.players["athens"].gold == 10
    [ev] = events(ctx, "baggage_used")
    assert ev["reason"] == "completely surrounded" and bag.id not in s.units and a.starvation == 0


def test_R_PH_UPK_a_disbanded_army_leaves_what_it_carried_in_the_hex():
    s = make_state()
    army = add(s, "athens", "army", "0404", starvation=2)
    leader = add(s, "athens", "leader", "0404", carried_by=army.id)
    ctx = run_phase("upkeep", s, "athens", dice=[4])
    assert army.id not in s.units and events(ctx, "disbanded")[0]["total"] == 6
    assert leader.carried_by is None and leader.hex == "0404"


def test_R_PH_UPK_an_army_disbanding_aboard_a_transport_leaves_what_it_carried_to_the_transport():
    s = make_state(gold=0)
    t = add(s, "athens", "transport", "0807")
    army = add(s, "athens", "army", "0807", carried_by=t.id, starvation=5)
    ldr = add(s, "athens", "leader", "0807", carried_by=army.id)
    run_phase("upkeep", s, "athens", dice=[1])
    assert army.id not in s.units and ldr.carried_by == t.id and ldr.hex == "0807"


def test_R_PH_UPK_a_razed_city_provides_no_upkeep_and_the_report_says_so():
    s = make_state()
    s.cities["megara"].controller = "athens"
    s.cities["megara"].razed = 1
    a = add(s, "athens", "army", "0606")  # next to Megara only
    ctx = run_phase("upkeep", s, "athens", dice=[3])
    assert s.players["athens"].gold == 10 and a.starvation == 1
    assert events(ctx, "starvation")[0]["reason"] == "no friendly city in or next to its hex (Megara is razed)"


def test_R_PH_UPK_the_upkeep_roll_names_each_modifier_for_the_report():
    """The STARVATION record lists what was added to the die (starvation counters, Farms -1) and the report says
    them: a player reads why the total is what it is."""
    from pbem import report
    s = make_state(gold=0)
    a = add(s, "athens", "army", "0502", starvation=2)  # Farms, not next to Athens: unpaid
    ctx = run_phase("upkeep", s, "athens", dice=[2])
    [ev] = events(ctx, "starvation")
    assert ev["modifiers"] == [{"source": "starvation counters", "value": 2},
                               {"source": "terrain (Farms)", "value": -1}]
    assert ev["total"] == 3 and a.starvation == 3
    nm = report.Namer(ctx.game_map, ctx.tables, {"athens": {"name": "Athenians", "home": "athens"}})
    text = report.describe(ev, nm, "athens")
    assert "upkeep roll 2 +2 starvation counters, -1 terrain (Farms) = 3 (under 6)" in text, text
