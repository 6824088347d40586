"""R-PH-DIP-REVOLT: which units hold a revolting city, and what a city gone neutral leaves behind.

Review finding: a city went neutral with its controller's manned Fleets still in port, which later broke
stacking when the city was retaken.
"""
from scenario import TINY, add, events, give, make_state, orders, run_phase


def revolt_at_delos(s, dice):
    give(s, "sparta", "revolt")
    return run_phase("diplomacy", s, "sparta", dice=dice,
                     orders=orders("sparta", cards=[{"card": "revolt", "target": "delos"}]))


def test_R_PH_DIP_REVOLT_a_manned_fleet_in_port_fights_the_rebels_and_holds_the_city_if_it_wins():
    """Decision (R-PH-DIP-REVOLT with R-PH-LAND): the rebels fight the controller's units in the city as a land
    battle, ships docked there included (1D10 for a manned Fleet, no city modifier); a manned Fleet that wins
    holds the city.  Before beached ships could be fought on land, a docked Fleet held a city unfought."""
    s = make_state()
    s.cities["delos"].controller = "athens"
    f = add(s, "athens", "fleet", "1007")
    add(s, "athens", "rowers", "1007", carried_by=f.id)
    ctx = revolt_at_delos(s, dice=[2, 3, 3, 7])  # 1D3 = 2 rebels roll 3 + 3; the Fleet 7 (no modifier)
    [b] = events(ctx, "battle")
    assert (b["battle"], b["attack_total"], b["defence_total"], b["won_by"]) == ("revolt", 6, 7, "defender")
    assert [u["modifiers"] for u in b["defence"]["units"]] == [[]]
    assert s.cities["delos"].controller == "athens" and f.id in s.units
    assert not events(ctx, "neutralised")


def test_R_PH_DIP_REVOLT_a_docked_fleet_beaten_by_the_rebels_sinks_and_the_city_goes_neutral():
    s = make_state()
    s.cities["delos"].controller = "athens"
    f = add(s, "athens", "fleet", "1007")
    r = add(s, "athens", "rowers", "1007", carried_by=f.id)
    ctx = revolt_at_delos(s, dice=[2, 6, 5, 4, 3])  # rebels 6 + 5 against 4; casualty roll 3: destroyed
    [b] = events(ctx, "battle")
    assert b["won_by"] == "attacker"
    assert f.id not in s.units and r.id not in s.units  # the Fleet sinks with its Rowers
    assert s.cities["delos"].controller is None and events(ctx, "neutralised")


def test_R_PH_DIP_REVOLT_a_city_gone_neutral_keeps_no_players_units():
    s = make_state()
    s.cities["delos"].controller = "athens"
    leader = add(s, "athens", "leader", "1007")
    bag = add(s, "athens", "baggage", "1007")
    empty = add(s, "athens", "fleet", "1007")  # unmanned
    ctx = revolt_at_delos(s, dice=[1])
    assert s.cities["delos"].controller is None and events(ctx, "neutralised")
    assert s.units[leader.id].hex == TINY.cities["athens"].hex  # back to his home city
    assert bag.id not in s.units and empty.id not in s.units  # seized by the rebels
    assert not [u for u in s.units_at("1007") if u.owner is not None]


def test_R_BAT_4_a_player_retaking_his_own_home_city_finds_it_not_hostile():
    s = make_state(gold=10)
    s.cities["athens"].controller = "sparta"
    s.cities["athens"].hostile = True
    add(s, "athens", "army", "0402")
    run_phase("land_battle", s, "athens", dice=[10, 1],
              orders=orders("athens", land_battle=[{"units": ["ATH-A1"], "target": "0302"}]))
    assert s.cities["athens"].controller == "athens" and s.cities["athens"].hostile is False
    # and a captured enemy home city is hostile as usual
    s.cities["sparta"].controller, s.cities["sparta"].hostile = "sparta", False
    add(s, "athens", "army", "0504")
    run_phase("land_battle", s, "athens", dice=[10, 1],
              orders=orders("athens", land_battle=[{"units": ["ATH-A2"], "target": "0505"}]))
    assert s.cities["sparta"].controller == "athens" and s.cities["sparta"].hostile is True
