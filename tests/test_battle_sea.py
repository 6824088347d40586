"""Sea Battle (R-PH-SEA, R-BAT-1..5) on the tiny map.

Hexes: 0401/0501/0201/0102/0103/0907/0906 Water, 0302 Athens (dock), 0202 Sandy Coast (beach),
1007 Delos (minor city, dock), 1006 Sandy Coast.
"""
from __future__ import annotations

from scenario import add, events, give, make_state, orders, run_phase


def sea(player, *attacks):
    return orders(player, sea_battle=list(attacks))


def manned(s, owner, hex_id, **kw):
    f = add(s, owner, "fleet", hex_id, **kw)
    r = add(s, owner, "rowers", hex_id, carried_by=f.id)
    return f, r


def battle_event(ctx):
    [b] = events(ctx, "battle")
    return b


def test_R_PH_SEA_fleets_fight_and_loser_sinks_with_its_rowers():
    s = make_state()
    f, _ = manned(s, "athens", "0401")
    ef, er = manned(s, "sparta", "0501")
    ctx = run_phase("sea_battle", s, "athens", dice=[8, 3, 2], orders=sea("athens", {"units": [f.id], "target": "0501"}))
    b = battle_event(ctx)
    assert b["battle"] == "sea" and b["won_by"] == "attacker"
    assert ef.id not in s.units and er.id not in s.units
    [c] = events(ctx, "casualty")
    assert set(c["lost"]) == {ef.id, er.id}


def test_R_PH_SEA_beached_fleet_attacked_gets_no_city_defence():
    s = make_state()
    s.cities["delos"].controller = "sparta"
    f, _ = manned(s, "athens", "0907")
    ef, _ = manned(s, "sparta", "1007")  # docked in Delos: beached for the sea battle
    ctx = run_phase("sea_battle", s, "athens", dice=[7, 6, 1],
                    orders=sea("athens", {"units": [f.id], "target": "1007"}))
    b = battle_event(ctx)
    assert b["defence"]["units"][0]["modifiers"] == [] and b["defence"]["total"] == 6
    assert [u["type"] for u in b["defence"]["units"]] == ["fleet"], "the city's garrison does not defend ships"
    assert b["won_by"] == "attacker" and ef.id not in s.units


def test_R_PH_SEA_beached_fleet_on_sandy_coast_retreats_to_sea():
    s = make_state()
    f, _ = manned(s, "athens", "0201")
    ef, er = manned(s, "sparta", "0202")
    army = add(s, "sparta", "army", "0202")
    ctx = run_phase("sea_battle", s, "athens", dice=[9, 2, 5],
                    orders=sea("athens", {"units": [f.id], "target": "0202"}))
    b = battle_event(ctx)
    assert [u["unit"] for u in b["defence"]["units"]] == [ef.id], "land units are not in a sea battle"
    assert ef.hex == er.hex == "0103", "to the water hex nearest Sparta"
    assert army.hex == "0202"


def test_R_PH_SEA_transport_with_army_rolls_1d6_empty_transport_does_not_roll():
    s = make_state()
    t = add(s, "athens", "transport", "0401")
    add(s, "athens", "army", "0401", carried_by=t.id)
    et = add(s, "sparta", "transport", "0501")
    add(s, "sparta", "rowers", "0501", carried_by=et.id)  # it rolls nothing, but its Rowers block the hex
    ctx = run_phase("sea_battle", s, "athens", dice=[1, 3], orders=sea("athens", {"units": [t.id], "target": "0501"}))
    b = battle_event(ctx)
    assert b["attack"]["units"][0]["die"] == "1D6"
    assert b["defence"]["units"] == [] and b["defence"]["total"] == 0
    assert b["won_by"] == "attacker" and et.id not in s.units


def test_R_PH_SEA_ships_that_neither_fight_nor_block_are_captured_by_moving_in_not_attacked():
    """As on land (docs/rules.md, land battle Decision): an unmanned Fleet or a Transport without an Army or
    Rowers is taken by moving in (R-UNIT-3), or with the city it is docked in; a sea attack on it alone is
    refused (a rules referee: it was fought against a total of 0 at sea and refused on land)."""
    s = make_state()
    f, _ = manned(s, "athens", "0401")
    add(s, "sparta", "fleet", "0501"), add(s, "sparta", "transport", "0501")
    s.cities["delos"].controller = "sparta"
    add(s, "sparta", "transport", "1007")
    f2, _ = manned(s, "athens", "0907")
    ctx = run_phase("sea_battle", s, "athens", orders=sea("athens", {"units": [f.id], "target": "0501"},
                                                             {"units": [f2.id], "target": "1007"}))
    assert not events(ctx, "battle") and not [r for r in ctx.log.records if "roll" in r]
    reasons = [e["reason"] for e in events(ctx, "order_failed")]
    assert reasons == ["no enemy ship in 0501 fights or blocks the way (only unmanned Fleets and Transports without "
                       "an Army or Rowers): move in to capture them",
                       "no enemy ship in 1007 fights or blocks the way (only unmanned Fleets and Transports without "
                       "an Army or Rowers): they are taken with the city they are docked in"]


def test_R_PH_SEA_unmanned_fleet_and_empty_transport_cannot_attack():
    s = make_state()
    f = add(s, "athens", "fleet", "0401")
    t = add(s, "athens", "transport", "0401")
    manned(s, "sparta", "0501")
    ctx = run_phase("sea_battle", s, "athens",
                    orders=sea("athens", {"units": [f.id], "target": "0501"}, {"units": [t.id], "target": "0501"}))
    assert [("cannot attack" in e["reason"]) for e in events(ctx, "order_failed")] == [True, True]


def test_R_PH_SEA_losing_attacker_retreats_to_free_water():
    s = make_state()
    f, _ = manned(s, "athens", "0401")
    manned(s, "sparta", "0501")
    s.players["athens"].standing = {"retreat": {"0401": "0301"}}
    ctx = run_phase("sea_battle", s, "athens", dice=[2, 9, 6], orders=sea("athens", {"units": [f.id], "target": "0501"}))
    assert battle_event(ctx)["won_by"] == "defender" and f.hex == "0301"


def test_R_PH_SEA_fleet_traits_admiral_and_boarding_actions():
    s = make_state()
    s.players["athens"].traits = ["greek_fire", "bronze_panoply"]
    give(s, "athens", "boarding_actions")
    f, _ = manned(s, "athens", "0401")
    add(s, "athens", "leader", "0401", carried_by=f.id, skills=["admiral", "general"])
    manned(s, "sparta", "0501")
    ctx = run_phase("sea_battle", s, "athens", dice=[1, 8, 1],
                    orders=sea("athens", {"units": [f.id], "target": "0501", "cards": ["boarding_actions"]}))
    row = battle_event(ctx)["attack"]["units"][0]
    assert row["result"] == 1 + 1 + 2 + 3, "Greek Fire, Admiral, Boarding Actions; no Army bonuses on a Fleet"
    assert battle_event(ctx)["won_by"] == "defender"


def test_R_PH_SEA_attack_beached_ships_card_and_narrow_channel():
    s = make_state()
    give(s, "athens", "attack_beached_ships")
    give(s, "sparta", "narrow_channel")
    s.players["sparta"].standing = {"defence_cards": ["narrow_channel"]}
    f, _ = manned(s, "athens", "0201")
    manned(s, "sparta", "0202")
    ctx = run_phase("sea_battle", s, "athens", dice=[5, 5, 2, 2, 3, 3, 5],
                    orders=sea("athens", {"units": [f.id], "target": "0202", "cards": ["attack_beached_ships"]}))
    b = battle_event(ctx)
    assert b["attack"]["total"] == 9 and b["defence"]["total"] == 11
    assert b["won_by"] == "defender"


def test_R_PH_SEA_combined_attack_from_two_sea_hexes():
    s = make_state()
    f1, _ = manned(s, "athens", "0401")
    f2, _ = manned(s, "athens", "0601")
    ef, _ = manned(s, "sparta", "0501")
    ctx = run_phase("sea_battle", s, "athens", dice=[4, 4, 7, 1],
                    orders=sea("athens", {"units": [f1.id, f2.id], "target": "0501"}))
    assert battle_event(ctx)["attack"]["total"] == 8 and ef.id not in s.units


def test_R_PH_SEA_no_enemy_ships_no_battle():
    s = make_state()
    f, _ = manned(s, "athens", "0201")
    add(s, "sparta", "army", "0202")
    ctx = run_phase("sea_battle", s, "athens", orders=sea("athens", {"units": [f.id], "target": "0202"}))
    assert "no enemy ships" in events(ctx, "order_failed")[0]["reason"]
