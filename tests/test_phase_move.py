"""First and Second Move (R-PH-MOVE, R-PH-SECOND, R-UNIT-2..4, R-TURN-4) on the tiny map.

Tiny map, the hexes used here (column+row):
    0302 Athens (City, coastal)   0402 Clear   0503 Clear   0504 Clear   0404 Clear   0405 Clear
    0303 Hills   0403 Forest (stack 2)   0304 Mountains   0505 Sparta (landlocked)   0506 Megara (neutral)
    0201/0301/0401/0501/0601 Water   0202 Sandy Coast   0803 Fishing Village   0903 Troy
"""
from __future__ import annotations

from pbem.model import Effect

from scenario import add, events, give, make_state, orders, run_phase


def moved(ctx):
    return events(ctx, "moved")


def failed(ctx):
    return events(ctx, "order_failed")


def move_orders(player, *moves, section="first_move", **extra):
    return orders(player, **{section: list(moves)}, **extra)


# -- allowance and terrain --------------------------------------------------------------------------

def test_R_PH_MOVE_army_moves_four_clear_hexes():
    s = make_state()
    a = add(s, "athens", "army", "0302")
    ctx = run_phase("first_move", s, "athens",
                    orders=move_orders("athens", {"units": [a.id], "path": ["0402", "0503", "0504", "0404"]}))
    assert a.hex == "0404"
    [m] = moved(ctx)
    assert m["points"] == 4 and m["allowance"] == 4 and m["path"] == ["0402", "0503", "0504", "0404"]


def test_R_PH_MOVE_terrain_costs_forest_and_hills_two():
    s = make_state()
    a = add(s, "athens", "army", "0302")
    ctx = run_phase("first_move", s, "athens",
                    orders=move_orders("athens", {"units": [a.id], "path": ["0303", "0403", "0404"]}))
    assert a.hex == "0302", "hills 2 + forest 2 leave no point for the clear hex"
    [f] = failed(ctx)
    assert "not enough movement points to enter 0404" in f["reason"]


def test_R_PH_MOVE_mountains_impassable():
    s = make_state()
    a = add(s, "athens", "army", "0303")
    ctx = run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [a.id], "path": ["0304"]}))
    assert a.hex == "0303"
    assert "may not enter 0304 (Mountainous)" in failed(ctx)[0]["reason"]


def test_R_PH_MOVE_land_units_stay_off_the_water():
    s = make_state()
    a = add(s, "athens", "army", "0302")
    ctx = run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [a.id], "path": ["0401"]}))
    assert a.hex == "0302" and "land units may not enter 0401" in failed(ctx)[0]["reason"]


def test_R_PH_MOVE_path_must_be_adjacent():
    s = make_state()
    a = add(s, "athens", "army", "0302")
    ctx = run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [a.id], "path": ["0503"]}))
    assert a.hex == "0302" and "0503 is not next to 0302" in failed(ctx)[0]["reason"]


def test_R_PH_MOVE_leader_alone_moves_six():
    s = make_state()
    ldr = add(s, "athens", "leader", "0302")
    path = ["0402", "0503", "0504", "0404", "0405", "0306"]
    run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [ldr.id], "path": path}))
    assert ldr.hex == "0306"


def test_R_PH_MOVE_group_moves_at_pace_of_slowest():
    s = make_state()
    ldr = add(s, "athens", "leader", "0302")
    a = add(s, "athens", "army", "0302")
    path = ["0402", "0503", "0504", "0404", "0405"]
    ctx = run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [ldr.id, a.id], "path": path}))
    assert ldr.hex == a.hex == "0302"
    assert "not enough movement points" in failed(ctx)[0]["reason"]


def test_R_PH_MOVE_hex_id_names_the_whole_stack():
    s = make_state()
    a1, a2 = add(s, "athens", "army", "0302"), add(s, "athens", "army", "0302")
    run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": ["0302"], "path": ["0402"]}))
    assert a1.hex == a2.hex == "0402"


def test_R_PH_MOVE_one_stack_per_order():
    s = make_state()
    a1, a2 = add(s, "athens", "army", "0302"), add(s, "athens", "army", "0402")
    ctx = run_phase("first_move", s, "athens",
                    orders=move_orders("athens", {"units": [a1.id, a2.id], "path": ["0503"]}))
    assert a1.hex == "0302" and "moves one stack" in failed(ctx)[0]["reason"]


def test_R_PH_MOVE_unit_moves_once_per_phase_but_again_in_second_move():
    s = make_state()
    a = add(s, "athens", "army", "0302")
    o = orders("athens", first_move=[{"units": [a.id], "path": ["0402"]}, {"units": [a.id], "path": ["0503"]}],
               second_move=[{"units": [a.id], "path": ["0503", "0504"]}])
    ctx = run_phase("first_move", s, "athens", orders=o)
    assert a.hex == "0402" and "already moved this phase" in failed(ctx)[0]["reason"]
    run_phase("second_move", s, "athens", orders=o)
    assert a.hex == "0504"


# -- movement bonuses ------------------------------------------------------------------------------

def test_R_PH_MOVE_athletic_trait_gives_armies_a_point():
    s = make_state()
    s.players["athens"].traits = ["athletic"]
    a = add(s, "athens", "army", "0302")
    path = ["0402", "0503", "0504", "0404", "0405"]
    ctx = run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [a.id], "path": path}))
    assert a.hex == "0405"
    assert moved(ctx)[0]["allowance"] == 5


def test_R_PH_MOVE_logistics_leader_only_for_the_stack_it_moves_with():
    s = make_state()
    ldr = add(s, "athens", "leader", "0302", skills=["logistics"])
    a = add(s, "athens", "army", "0302")
    path = ["0402", "0503", "0504", "0404", "0405"]
    ctx = run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [a.id], "path": path}))
    assert a.hex == "0302", "the leader stays behind: no bonus"
    assert failed(ctx)
    run_phase("second_move", s, "athens", orders=move_orders("athens", {"units": [a.id, ldr.id], "path": path},
                                                             section="second_move"))
    assert a.hex == ldr.hex == "0405"


def test_R_PH_MOVE_forced_march_card_played_and_discarded():
    s = make_state()
    give(s, "athens", "forced_march")
    a = add(s, "athens", "army", "0302")
    path = ["0402", "0503", "0504", "0404", "0405", "0306"]
    ctx = run_phase("first_move", s, "athens",
                    orders=move_orders("athens", {"units": [a.id], "path": path, "cards": ["forced_march"]}))
    assert a.hex == "0306"
    assert "forced_march" not in s.players["athens"].hand and "forced_march" in s.discard
    [c] = events(ctx, "card_played")
    assert c["card"] == "forced_march" and c["by"] == "athens"


def test_R_PH_MOVE_marathon_from_the_orders_cards_section():
    s = make_state()
    give(s, "athens", "marathon")
    a = add(s, "athens", "army", "0302")
    path = ["0402", "0503", "0504", "0404", "0405", "0306"]
    o = orders("athens", cards=[{"card": "marathon", "target": a.id}], first_move=[{"units": [a.id], "path": path}])
    run_phase("first_move", s, "athens", orders=o)
    assert a.hex == "0306" and "marathon" in s.discard


def test_R_PH_MOVE_movement_card_not_in_hand_fails_the_order():
    s = make_state()
    a = add(s, "athens", "army", "0302")
    ctx = run_phase("first_move", s, "athens",
                    orders=move_orders("athens", {"units": [a.id], "path": ["0402"], "cards": ["marathon"]}))
    assert a.hex == "0302" and "not in your hand" in failed(ctx)[0]["reason"]


def test_R_PH_MOVE_relieving_force_only_in_aid_of_a_besieged_city():
    s = make_state()
    give(s, "athens", "relieving_force")
    s.cities["megara"].controller = "athens"
    a = add(s, "athens", "army", "0302")
    path = ["0402", "0503", "0504", "0404", "0405"]  # 0405 is next to Megara (0506)
    o = move_orders("athens", {"units": [a.id], "path": path, "cards": ["relieving_force"]})
    ctx = run_phase("first_move", s, "athens", orders=o)
    assert a.hex == "0302" and "under siege" in failed(ctx)[0]["reason"]
    assert "relieving_force" in s.players["athens"].hand
    add(s, "sparta", "army", "0507")  # next to Megara: it is under siege
    run_phase("second_move", s, "athens", orders=move_orders("athens", {"units": [a.id], "path": path,
                                                                        "cards": ["relieving_force"]},
                                                             section="second_move"))
    assert a.hex == "0405" and "relieving_force" in s.discard


# -- enemies, cities, stacking ---------------------------------------------------------------------

def test_R_PH_MOVE_blocked_path_fails_whole_order():
    s = make_state()
    a = add(s, "athens", "army", "0302")
    add(s, "sparta", "army", "0503")
    ctx = run_phase("first_move", s, "athens",
                    orders=move_orders("athens", {"units": [a.id], "path": ["0402", "0503", "0504"]}))
    assert a.hex == "0302", "R-TURN-4: never half-applied"
    [f] = failed(ctx)
    assert f["section"] == "first_move" and f["index"] == 0 and "enemy Armies" in f["reason"]


def test_R_PH_MOVE_blocked_path_with_partial_goes_as_far_as_it_can():
    s = make_state()
    a = add(s, "athens", "army", "0302")
    add(s, "sparta", "army", "0503")
    ctx = run_phase("first_move", s, "athens",
                    orders=move_orders("athens", {"units": [a.id], "path": ["0402", "0503", "0504"],
                                                  "partial": True}))
    assert a.hex == "0402"
    assert "enemy" in moved(ctx)[0]["stopped"]


def test_R_PH_MOVE_no_entry_into_neutral_or_enemy_city():
    s = make_state()
    a = add(s, "athens", "army", "0405")
    ctx = run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [a.id], "path": ["0506"]}))
    assert a.hex == "0405" and "neutral city Megara" in failed(ctx)[0]["reason"]
    ctx = run_phase("second_move", s, "athens",
                    orders=move_orders("athens", {"units": [a.id], "path": ["0505"]}, section="second_move"))
    assert a.hex == "0405" and "sparta controlled city Sparta" in failed(ctx)[0]["reason"]


def test_R_PH_MOVE_own_city_may_be_entered():
    s = make_state()
    s.cities["megara"].controller = "athens"
    a = add(s, "athens", "army", "0405")
    run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [a.id], "path": ["0506"]}))
    assert a.hex == "0506"


def test_R_PH_MOVE_stack_limit_reached_mid_path():
    """Forest (0403) holds 2: with two Athenian Armies there, a third may pass through but not stop."""
    s = make_state()
    add(s, "athens", "army", "0403")
    add(s, "athens", "army", "0403")
    a = add(s, "athens", "army", "0402")
    ctx = run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [a.id], "path": ["0403"]}))
    assert a.hex == "0402" and "over the stacking limit in 0403" in failed(ctx)[0]["reason"]
    run_phase("second_move", s, "athens",
              orders=move_orders("athens", {"units": [a.id], "path": ["0403", "0504"]}, section="second_move"))
    assert a.hex == "0504", "stacking counts only at the end of the move"


def test_R_PH_MOVE_partial_stops_at_last_hex_where_stack_fits():
    s = make_state()
    add(s, "athens", "army", "0403")
    add(s, "athens", "army", "0403")
    a = add(s, "athens", "army", "0302")
    ctx = run_phase("first_move", s, "athens",
                    orders=move_orders("athens", {"units": [a.id], "path": ["0402", "0403"], "partial": True}))
    assert a.hex == "0402"
    assert moved(ctx)[0]["stopped"] == "stacking limit"


# -- capture (R-UNIT-3, R-UNIT-4) ------------------------------------------------------------------

def test_R_UNIT_3_army_captures_baggage_and_transport():
    s = make_state()
    a = add(s, "athens", "army", "0302")
    b = add(s, "sparta", "baggage", "0202")
    t = add(s, "sparta", "transport", "0202")
    tb = add(s, "sparta", "baggage", "0202", carried_by=t.id)
    ctx = run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [a.id], "path": ["0202"]}))
    assert a.hex == "0202"
    assert b.owner == t.owner == tb.owner == "athens"
    assert {e["unit"] for e in events(ctx, "captured")} == {b.id, t.id, tb.id}


def test_R_UNIT_3_leader_alone_cannot_capture_or_enter():
    s = make_state()
    ldr = add(s, "athens", "leader", "0302")
    add(s, "sparta", "baggage", "0402")
    ctx = run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [ldr.id], "path": ["0402"]}))
    assert ldr.hex == "0302" and "to capture them" in failed(ctx)[0]["reason"]


def test_R_UNIT_4_captured_leader_ransomed():
    s = make_state()
    s.players["sparta"].gold = 3
    a = add(s, "athens", "army", "0302")
    ldr = add(s, "sparta", "leader", "0402")
    ctx = run_phase("first_move", s, "athens", dice=[5],
                    orders=move_orders("athens", {"units": [a.id], "path": ["0402"]}))
    assert ldr.owner == "sparta" and ldr.hex == "0505", "back to the home city"
    assert s.players["sparta"].gold == 0 and s.players["athens"].gold == 13, "asked 5, paid all 3 they had"
    [f] = events(ctx, "leader_fate")
    assert f["fate"] == "ransomed" and f["asked"] == 5 and f["paid"] == 3


def test_R_UNIT_4_captured_leader_executed_by_standing_order():
    s = make_state()
    s.players["athens"].standing = {"captured_leaders": "execute"}
    a = add(s, "athens", "army", "0302")
    ldr = add(s, "sparta", "leader", "0402")
    run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [a.id], "path": ["0402"]}))
    assert ldr.id not in s.units


def test_R_UNIT_3_manned_fleet_captures_unmanned_fleet():
    s = make_state()
    f = add(s, "athens", "fleet", "0302")
    add(s, "athens", "rowers", "0302", carried_by=f.id)
    enemy = add(s, "sparta", "fleet", "0401")
    run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [f.id], "path": ["0401"]}))
    assert enemy.owner == "athens" and f.hex == "0401"


# -- ships and carrying ----------------------------------------------------------------------------

def test_R_PH_MOVE_manned_fleet_sails_with_its_rowers():
    s = make_state()
    f = add(s, "athens", "fleet", "0302")
    r = add(s, "athens", "rowers", "0302", carried_by=f.id)
    path = ["0401", "0501", "0601", "0702", "0802", "0803"]
    run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [f.id], "path": path}))
    assert f.hex == r.hex == "0803" and r.carried_by == f.id


def test_R_UNIT_3_unmanned_fleet_does_not_move():
    s = make_state()
    f = add(s, "athens", "fleet", "0302")
    ctx = run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [f.id], "path": ["0401"]}))
    assert f.hex == "0302" and "no Rowers aboard" in failed(ctx)[0]["reason"]


def test_R_PH_MOVE_rowers_loaded_in_port_man_the_fleet():
    s = make_state()
    f = add(s, "athens", "fleet", "0302")
    r = add(s, "athens", "rowers", "0302")
    run_phase("first_move", s, "athens",
              orders=move_orders("athens", {"units": [f.id], "load": [r.id], "path": ["0401"]}))
    assert f.hex == r.hex == "0401" and r.carried_by == f.id


def test_R_PH_MOVE_ships_do_not_enter_land_or_rocky_coast():
    s = make_state()
    f = add(s, "athens", "fleet", "0302")
    add(s, "athens", "rowers", "0302", carried_by=f.id)
    ctx = run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [f.id], "path": ["0402"]}))
    assert f.hex == "0302" and "ships may not enter 0402" in failed(ctx)[0]["reason"]


def test_R_PH_MOVE_transport_lands_army_which_moves_no_further():
    s = make_state()
    t = add(s, "athens", "transport", "0302")
    a = add(s, "athens", "army", "0302")
    o = orders("athens", first_move=[{"units": [t.id], "load": [a.id], "path": ["0201", "0202"], "unload": [a.id]},
                                     {"units": [a.id], "path": ["0203"]}])
    ctx = run_phase("first_move", s, "athens", orders=o)
    assert t.hex == a.hex == "0202" and a.carried_by is None
    assert "landed this phase" in failed(ctx)[0]["reason"]
    run_phase("second_move", s, "athens", orders=move_orders("athens", {"units": [a.id], "path": ["0203"]},
                                                             section="second_move"))
    assert a.hex == "0203"


def test_R_PH_MOVE_unload_only_where_docked_or_beached():
    s = make_state()
    t = add(s, "athens", "transport", "0302")
    a = add(s, "athens", "army", "0302", carried_by=t.id)
    ctx = run_phase("first_move", s, "athens",
                    orders=move_orders("athens", {"units": [t.id], "path": ["0401"], "unload": [a.id]}))
    assert t.hex == "0302" and "docked or beached" in failed(ctx)[0]["reason"]


def test_R_PH_MOVE_R_TURN_4_unloading_a_unit_lost_since_the_orders_were_written_says_so():
    s = make_state()
    t = add(s, "athens", "transport", "0302")
    a = add(s, "athens", "army", "0302", carried_by=t.id)
    s.remove_unit(a.id)  # disbanded at Upkeep, say
    ctx = run_phase("first_move", s, "athens",
                    orders=move_orders("athens", {"units": [t.id], "path": ["0401"], "unload": [a.id]}))
    assert t.hex == "0302"
    assert failed(ctx)[0]["reason"] == f"no unit {a.id} to unload (destroyed or never existed)"


def test_R_PH_MOVE_transport_carries_one_army():
    s = make_state()
    t = add(s, "athens", "transport", "0302")
    a1, a2 = add(s, "athens", "army", "0302"), add(s, "athens", "army", "0302")
    ctx = run_phase("first_move", s, "athens",
                    orders=move_orders("athens", {"units": [t.id], "load": [a1.id, a2.id], "path": ["0401"]}))
    assert t.hex == "0302" and "no room for" in failed(ctx)[0]["reason"]


def test_R_PH_MOVE_army_carries_baggage_baggage_never_alone():
    s = make_state()
    a = add(s, "athens", "army", "0302")
    bags = [add(s, "athens", "baggage", "0302") for _ in range(5)]
    ctx = run_phase("first_move", s, "athens",
                    orders=move_orders("athens", {"units": [a.id] + [b.id for b in bags], "path": ["0402"]}))
    assert a.hex == "0302" and "no room for" in failed(ctx)[0]["reason"], "an Army carries 4 Baggage"
    run_phase("second_move", s, "athens",
              orders=move_orders("athens", {"units": [a.id] + [b.id for b in bags[:4]], "path": ["0402"]},
                                 {"units": [bags[4].id], "path": ["0402"]}, section="second_move"))
    assert all(b.hex == "0402" and b.carried_by == a.id for b in bags[:4])
    assert bags[4].hex == "0302"


def test_R_PH_MOVE_army_boarding_transport_sets_its_baggage_down():
    s = make_state()
    t = add(s, "athens", "transport", "0302")
    a = add(s, "athens", "army", "0302")
    b = add(s, "athens", "baggage", "0302", carried_by=a.id)
    ctx = run_phase("first_move", s, "athens",
                    orders=move_orders("athens", {"units": [t.id], "load": [a.id], "path": ["0401"]}))
    assert a.hex == "0401" and a.carried_by == t.id
    assert b.hex == "0302" and b.carried_by is None
    assert moved(ctx)[0]["set_down"] == [b.id]


def test_R_UNIT_2_docked_ships_count_for_stacking():
    s = make_state()
    for _ in range(3):
        add(s, "athens", "army", "0302")
    f = add(s, "athens", "fleet", "0401")
    add(s, "athens", "rowers", "0401", carried_by=f.id)
    f2 = add(s, "athens", "fleet", "0401")
    add(s, "athens", "rowers", "0401", carried_by=f2.id)
    ctx = run_phase("first_move", s, "athens",
                    orders=move_orders("athens", {"units": [f.id, f2.id], "path": ["0302"]}))
    assert f.hex == "0401" and "stacking limit in 0302" in failed(ctx)[0]["reason"]


def test_R_UNIT_2_an_army_aboard_a_transport_counts_a_fleets_rowers_do_not():
    """R-UNIT-2: Armies, Fleets and Transports count, aboard or not; only Rowers aboard a Fleet count as nothing.
    In 0401 (Water, limit 4): two Transports with an Army each already make 4, so a third, empty, Transport
    may not join them; four manned Fleets (Rowers aboard) make 4 and fit."""
    s = make_state()
    for _ in range(2):
        t = add(s, "athens", "transport", "0401")
        add(s, "athens", "army", "0401", carried_by=t.id)
    third = add(s, "athens", "transport", "0302")
    ctx = run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [third.id], "path": ["0401"]}))
    assert third.hex == "0302" and "stacking limit in 0401" in failed(ctx)[0]["reason"]

    s = make_state()
    for _ in range(3):
        f = add(s, "athens", "fleet", "0401")
        add(s, "athens", "rowers", "0401", carried_by=f.id)
    fourth = add(s, "athens", "fleet", "0302")
    add(s, "athens", "rowers", "0302", carried_by=fourth.id)
    ctx = run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [fourth.id], "path": ["0401"]}))
    assert fourth.hex == "0401" and not failed(ctx)


# -- who may move ----------------------------------------------------------------------------------

def test_R_PH_MOVE_cannot_move_or_attack_effect_stops_all_moves():
    s = make_state()
    s.effects.append(Effect(kind="cannot_move_or_attack", source="political_rivalry", player="sparta",
                            target="athens", until_turn=1, until_player="athens"))
    a = add(s, "athens", "army", "0302")
    ctx = run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [a.id], "path": ["0402"]}))
    assert a.hex == "0302" and "Political Rivalry" in failed(ctx)[0]["reason"]


def test_R_PH_MOVE_effect_past_its_end_no_longer_stops_moves():
    s = make_state()
    s.turn = 2
    s.effects.append(Effect(kind="cannot_move_or_attack", source="political_rivalry", player="sparta",
                            target="athens", until_turn=1, until_player="athens"))
    a = add(s, "athens", "army", "0302")
    run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [a.id], "path": ["0402"]}))
    assert a.hex == "0402"


def test_R_PH_MOVE_cannot_move_enemy_units():
    s = make_state()
    a = add(s, "sparta", "army", "0402")
    ctx = run_phase("first_move", s, "athens", orders=move_orders("athens", {"units": [a.id], "path": ["0503"]}))
    assert a.hex == "0402" and "not your unit" in failed(ctx)[0]["reason"]


# -- navigation (R-PH-SECOND) ----------------------------------------------------------------------

def test_R_PH_SECOND_sunk_transport_takes_its_army_with_it():
    s = make_state()
    t = add(s, "athens", "transport", "0302")
    a = add(s, "athens", "army", "0302", carried_by=t.id)
    ctx = run_phase("second_move", s, "athens", dice=[5],
                    orders=move_orders("athens", {"units": [t.id], "path": ["0401"]}, section="second_move"))
    assert t.id not in s.units and a.id not in s.units
    [sunk] = events(ctx, "sunk")
    assert sunk["unit"] == t.id and set(sunk["lost"]) == {t.id, a.id}


def test_R_PH_SECOND_sunk_fleet_takes_rowers_leader_and_baggage():
    s = make_state()
    f = add(s, "athens", "fleet", "0401")
    r = add(s, "athens", "rowers", "0401", carried_by=f.id)
    ldr = add(s, "athens", "leader", "0401", carried_by=f.id)
    b = add(s, "athens", "baggage", "0401", carried_by=f.id)
    run_phase("second_move", s, "athens", dice=[6])
    assert not {f.id, r.id, ldr.id, b.id} & set(s.units)


def test_R_PH_SECOND_ships_docked_or_beached_roll_nothing_and_four_is_safe():
    s = make_state()
    add(s, "athens", "fleet", "0302")  # docked in Athens
    add(s, "athens", "transport", "0202")  # beached
    t = add(s, "athens", "transport", "0401")  # at sea
    ctx = run_phase("second_move", s, "athens", dice=[4])
    assert t.id in s.units
    [nav] = events(ctx, "navigation")
    assert nav["unit"] == t.id and nav["total"] == 4 and nav["sunk"] is False


def test_R_PH_SECOND_sea_worthy_takes_one_off_the_roll():
    s = make_state()
    s.players["athens"].traits = ["sea_worthy"]
    t = add(s, "athens", "transport", "0401")
    ctx = run_phase("second_move", s, "athens", dice=[5])
    assert t.id in s.units
    [nav] = events(ctx, "navigation")
    assert nav["total"] == 4 and nav["modifiers"][0]["value"] == -1


def test_R_PH_SECOND_no_navigation_roll_after_first_move():
    s = make_state()
    t = add(s, "athens", "transport", "0401")
    run_phase("first_move", s, "athens", dice=[])
    assert t.id in s.units


def test_R_PH_MOVE_movement_card_in_orders_cards_names_the_stack_by_hex():
    s = make_state()
    give(s, "athens", "forced_march")
    a = add(s, "athens", "army", "0302")
    path = ["0402", "0503", "0504", "0404", "0405", "0306"]
    o = orders("athens", cards=[{"card": "forced_march", "target": "0302"}],
               first_move=[{"units": [a.id], "path": path}])
    run_phase("first_move", s, "athens", orders=o)
    assert a.hex == "0306"


def test_R_PH_MOVE_unused_movement_card_in_orders_cards_is_reported_and_kept():
    s = make_state()
    give(s, "athens", "forced_march")
    a = add(s, "athens", "army", "0302")
    o = orders("athens", cards=[{"card": "forced_march", "target": a.id}])
    ctx = run_phase("second_move", s, "athens", orders=o)
    [f] = failed(ctx)
    assert f["section"] == "cards" and "no move of the stack" in f["reason"]
    assert "forced_march" in s.players["athens"].hand


def test_R_TURN_4_a_movement_card_not_in_hand_and_played_by_no_move_is_reported():
    s = make_state()
    a = add(s, "athens", "army", "0302")
    o = orders("athens", cards=[{"card": "forced_march", "target": a.id}])
    ctx = run_phase("second_move", s, "athens", orders=o)
    [f] = failed(ctx)
    assert f["section"] == "cards" and f["index"] == 0 and f["reason"] == "card Forced March is not in your hand"


def test_R_PH_MOVE_a_unit_that_marched_may_not_also_sail_aboard_in_the_same_phase():
    """Review finding: `load` once let an Army march and then board a moving ship in one phase."""
    s = make_state()
    add(s, "athens", "army", "0503")
    add(s, "athens", "transport", "0302")
    o = orders("athens", first_move=[
        {"units": ["ATH-A1"], "path": ["0402", "0302"]},
        {"units": ["ATH-T1"], "load": ["ATH-A1"], "path": ["0301", "0201", "0101", "0102", "0103", "0104"]}])
    ctx = run_phase("first_move", s, "athens", orders=o)
    failed = [r for r in ctx.log.records if r.get("event") == "order_failed"]
    assert failed and "already moved" in failed[0]["reason"]
    assert s.units["ATH-A1"].hex == "0302" and s.units["ATH-T1"].hex == "0302"


def test_R_PH_MOVE_a_move_stopped_by_an_enemy_out_of_sight_names_the_hex_not_the_enemy():
    """docs/rules.md (Movement, Entry; decision): the owner learns which hex stopped the move, as at the table by
    bumping into it, never whose units are there or how many."""
    from pbem.gamedata import tables
    from pbem.visibility import sight
    from pbem import report
    from scenario import TINY
    s = make_state()
    a = add(s, "athens", "army", "0302")
    b = add(s, "sparta", "army", "0504")
    assert "0504" not in sight(s, TINY, "athens")
    ctx = run_phase("first_move", s, "athens",
                    orders=move_orders("athens", {"units": [a.id], "path": ["0402", "0503", "0504"]}))
    assert a.hex == "0302"
    [f] = failed(ctx)
    nm = report.Namer(TINY, tables(), {p: {"name": s.players[p].name} for p in s.turn_order})
    text = report.describe(f, nm, "athens")
    assert "0504 holds enemy Armies, Rowers or manned Fleets" in text, text
    assert b.id not in text and "Spartan" not in text and "1 army" not in text
