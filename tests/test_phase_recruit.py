"""Recruit phase (R-PH-REC, R-UNIT-2, R-TURN-4, R-TURN-5); experience table rows are in tests/cases/phases_1_5."""
from pbem.phases import recruit as recruit_phase
from scenario import add, context, events, make_state, orders, run_phase


def rec(*entries, player="athens"):
    return orders(player, recruit=list(entries))


def test_R_PH_REC_recruits_a_unit_and_baggage_in_the_city_paying_the_costs():
    s = make_state(gold=10)
    ctx = run_phase("recruit", s, "athens", dice=[1], orders=rec({"city": "athens", "unit": "fleet", "baggage": 3}))
    assert s.players["athens"].gold == 10 - 4 - 3
    new = [e["unit"] for e in events(ctx, "recruited")]
    assert new == ["ATH-F1", "ATH-B1", "ATH-B2", "ATH-B3"]
    assert all(s.units[u].hex == "0302" and s.units[u].owner == "athens" for u in new)
    assert events(ctx, "order_done")[0]["cost"] == 7


def test_R_PH_REC_costs_army_rowers_transport_2_fleet_4_baggage_1():
    for unit, cost in (("army", 2), ("rowers", 2), ("transport", 2), ("fleet", 4)):
        s = make_state(gold=10)
        run_phase("recruit", s, "athens", dice=[1], orders=rec({"city": "athens", "unit": unit}))
        assert s.players["athens"].gold == 10 - cost, unit


def test_R_PH_REC_one_unit_per_city_per_turn_baggage_up_to_six_over_all_entries():
    s = make_state(gold=30)
    s.cities["megara"].controller = "athens"
    o = rec({"city": "athens", "unit": "army", "baggage": 4}, {"city": "athens", "unit": "rowers"},
            {"city": "athens", "baggage": 3}, {"city": "athens", "baggage": 2}, {"city": "megara", "unit": "army"})
    ctx = run_phase("recruit", s, "athens", dice=[1], orders=o)
    failed = {e["index"]: e["reason"] for e in events(ctx, "order_failed")}
    assert set(failed) == {1, 2}
    assert "recruited its 1 unit" in failed[1] and "at most 6 Baggage" in failed[2]
    assert [e["index"] for e in events(ctx, "order_done")] == [0, 3, 4]
    assert s.players["athens"].gold == 30 - 2 - 4 - 2 - 2


def test_R_PH_REC_fleets_and_transports_only_in_coastal_cities():
    s = make_state(gold=10, players=("sparta", "athens"))
    ctx = run_phase("recruit", s, "sparta", dice=[1], orders=rec({"city": "sparta", "unit": "transport"},
                                                                  player="sparta"))
    assert "not on the coast" in events(ctx, "order_failed")[0]["reason"] and s.players["sparta"].gold == 10


def test_R_PH_REC_not_enough_gold_fails_the_whole_entry():
    s = make_state(gold=5)
    ctx = run_phase("recruit", s, "athens", dice=[1], orders=rec({"city": "athens", "unit": "fleet", "baggage": 2}))
    assert s.players["athens"].gold == 5 and not events(ctx, "recruited")
    assert "costs 6 gold and you have 5" in events(ctx, "order_failed")[0]["reason"]


def test_R_PH_REC_razed_besieged_hostile_or_foreign_cities_do_not_recruit():
    s = make_state(gold=20)
    s.cities["megara"].controller = "athens"
    s.cities["megara"].hostile = True
    s.cities["delos"].controller = "athens"
    s.cities["delos"].razed = 2
    add(s, "sparta", "army", "0904")  # next to Troy (Athenian here)
    s.cities["troy"].controller = "athens"
    o = rec({"city": "megara", "unit": "army"}, {"city": "delos", "baggage": 1}, {"city": "troy", "unit": "army"},
            {"city": "sparta", "unit": "army"})
    ctx = run_phase("recruit", s, "athens", dice=[1], orders=o)
    reasons = [e["reason"] for e in events(ctx, "order_failed")]
    assert [r.split(": ")[1] for r in reasons] == ["it is hostile", "it is razed", "it is under siege",
                                                  "you do not control it"]
    assert s.players["athens"].gold == 20


def test_R_PH_REC_a_new_army_must_fit_the_stacking_limit():
    s = make_state(gold=10)
    for _ in range(4):
        add(s, "athens", "army", "0302")
    ctx = run_phase("recruit", s, "athens", dice=[1], orders=rec({"city": "athens", "unit": "army", "baggage": 1}))
    assert "stacking limit of 4" in events(ctx, "order_failed")[0]["reason"]
    assert s.players["athens"].gold == 10  # nothing of the entry is carried out


def test_R_PH_REC_new_rowers_board_an_unmanned_fleet_in_the_city_and_do_not_count_for_stacking():
    s = make_state(gold=10)
    for _ in range(2):
        add(s, "athens", "army", "0302")
    manned = add(s, "athens", "fleet", "0302")
    add(s, "athens", "rowers", "0302", carried_by=manned.id)
    empty = add(s, "athens", "fleet", "0302")
    ctx = run_phase("recruit", s, "athens", dice=[1], orders=rec({"city": "athens", "unit": "rowers"}))
    [ev] = events(ctx, "recruited")
    assert ev["aboard"] == empty.id and s.units[ev["unit"]].carried_by == empty.id


def test_R_PH_REC_new_rowers_without_an_unmanned_fleet_stand_in_the_city_and_must_fit():
    s = make_state(gold=10)
    for _ in range(3):
        add(s, "athens", "army", "0302")
    ctx = run_phase("recruit", s, "athens", dice=[1], orders=rec({"city": "athens", "unit": "rowers"}))
    [ev] = events(ctx, "recruited")
    assert ev["aboard"] is None and s.units[ev["unit"]].carried_by is None
    s2 = make_state(gold=10)
    for _ in range(4):
        add(s2, "athens", "army", "0302")
    ctx = run_phase("recruit", s2, "athens", dice=[1], orders=rec({"city": "athens", "unit": "rowers"}))
    assert "stacking limit" in events(ctx, "order_failed")[0]["reason"]


def test_R_PH_REC_organization_lets_the_friendly_city_nearest_the_leader_recruit_one_more_unit():
    s = make_state(gold=20)
    s.cities["megara"].controller = "athens"
    add(s, "athens", "leader", "0606", skills=["organization"])  # next to Megara
    o = rec({"city": "megara", "unit": "army"}, {"city": "megara", "unit": "army"},
            {"city": "athens", "unit": "army"}, {"city": "athens", "unit": "army"})
    ctx = run_phase("recruit", s, "athens", dice=[1], orders=o)
    assert [e["index"] for e in events(ctx, "order_done")] == [0, 1, 2]
    assert "recruited its 1 unit" in events(ctx, "order_failed")[0]["reason"]
    s = make_state(gold=20)
    s.cities["megara"].controller = "athens"
    add(s, "athens", "leader", "0606", skills=["organization"])
    ctx = run_phase("recruit", s, "athens", dice=[1], orders=rec(*[{"city": "megara", "unit": "army"}] * 3))
    assert "Megara has recruited its 2 units" in events(ctx, "order_failed")[0]["reason"]


def test_R_PH_REC_organization_ties_go_to_the_lower_city_id_and_besieged_cities_are_not_friendly():
    s = make_state(gold=20, players=("sparta", "athens"))
    s.cities["megara"].controller = "sparta"
    leader = add(s, "sparta", "leader", "0405", skills=["organization"])  # next to both Sparta and Megara
    ctx = context(s, "sparta")
    extra = recruit_phase.extra_recruits
    assert extra(ctx.state, ctx.game_map, ctx.tables, ctx.player) == {"megara": 1}  # megara < sparta
    add(s, "athens", "army", "0507")  # besieges Megara
    assert extra(ctx.state, ctx.game_map, ctx.tables, ctx.player) == {"sparta": 1}
    leader.away_until = 9  # a leader away from play helps nobody
    assert extra(ctx.state, ctx.game_map, ctx.tables, ctx.player) == {}


def test_R_PH_REC_experience_roll_not_made_when_the_home_city_may_not_recruit():
    for change in ({"razed": 1}, {"hostile": True}, {"controller": "sparta"}):
        s = make_state()
        for k, v in change.items():
            setattr(s.cities["athens"], k, v)
        ctx = run_phase("recruit", s, "athens")  # no die scripted: none may be rolled
        [ev] = events(ctx, "experience")
        assert ev["roll"] is None and ev["reason"]
    s = make_state()
    add(s, "sparta", "army", "0402")
    ctx = run_phase("recruit", s, "athens")
    assert events(ctx, "experience")[0]["reason"] == "it is under siege"


def test_R_PH_REC_a_player_without_orders_recruits_nothing_and_makes_no_experience_roll():
    s = make_state()
    ctx = context(s, "athens")
    ctx.nmr.add("athens")
    recruit_phase.resolve(ctx)
    assert ctx.dice.used == 0 and not events(ctx)


def test_R_PH_REC_unknown_city_and_unit_type_fail():
    s = make_state()
    o = rec({"city": "atlantis", "unit": "army"}, {"city": "athens", "unit": "leader"}, {"city": "athens"})
    ctx = run_phase("recruit", s, "athens", dice=[1], orders=o)
    reasons = [e["reason"] for e in events(ctx, "order_failed")]
    assert "not a city" in reasons[0] and "cannot be recruited" in reasons[1] and reasons[2] == "nothing to recruit"
