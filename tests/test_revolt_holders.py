"""R-PH-DIP-REVOLT: which units hold a revolting city, and what a city gone neutral leaves behind.

Review finding: a city went neutral with its controller's manned Fleets still in port, which later broke
stacking when the city was retaken.
"""
from scenario import TINY, add, events, give, make_state, orders, run_phase


def revolt_at_delos(s, dice):
    give(s, "sparta", "revolt")
    return run_phase("diplomacy", s, "sparta", dice=dice,
                     orders=orders("sparta", cards=[{"card": "revolt", "target": "delos"}]))


def test_R_PH_DIP_REVOLT_a_manned_fleet_in_port_holds_the_city():
    s = make_state()
    s.cities["delos"].controller = "athens"
    f = add(s, "athens", "fleet", "1007")
    add(s, "athens", "rowers", "1007", carried_by=f.id)
    ctx = revolt_at_delos(s, dice=[2])  # 1D3 = 2 rebels; no Army or Rowers ashore to fight them
    assert s.cities["delos"].controller == "athens"
    assert not events(ctx, "neutralised")


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
