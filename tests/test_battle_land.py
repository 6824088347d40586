"""Land Battle (R-PH-LAND, R-BAT-1..5) on the tiny map.

Dice order in a battle (pbem.battle): attackers in the order listed, defenders by unit id, a neutral city's
Army, the garrison; leaders' battle-total dice (attacker, defender); cards as played; then casualty rolls.

Hexes: 0402/0503/0404/0405/0504 Clear, 0403 Forest (+3), 0505 Sparta (home, +8), 0506 Megara (minor, +5),
0202 Sandy Coast, 0203 Clear (0304 Mountains, water to the west), 1006 Sandy Coast next to Delos (1007).
"""
from __future__ import annotations

import pytest

from pbem.model import Effect

from scenario import add, battle_event, events, give, land_attacks, make_state, run_phase


def failed(ctx):
    return events(ctx, "order_failed")


# -- R-BAT-1: rolls, totals, ties ----------------------------------------------------------------------

def test_R_BAT_1_attack_combining_two_hexes():
    s = make_state()
    a1, a2 = add(s, "athens", "army", "0402"), add(s, "athens", "army", "0503")
    d = add(s, "sparta", "army", "0403")
    ctx = run_phase("land_battle", s, "athens", dice=[7, 6, 8, 3],
                    orders=land_attacks("athens", {"units": [a1.id, a2.id], "target": "0403"}))
    b = battle_event(ctx)
    assert b["attack"]["total"] == 13 and b["attack"]["hexes"] == ["0402", "0503"]
    assert b["defence"]["units"][0]["modifiers"] == [{"source": "terrain (Forest)", "value": 3}]
    assert b["defence"]["total"] == 11 and b["won_by"] == "attacker" and b["winner"] == "athens"
    assert b["attackers"] == [a1.id, a2.id] and b["defenders"] == [d.id]
    assert (b["attack_total"], b["defence_total"]) == (13, 11)
    assert d.id not in s.units
    [c] = events(ctx, "casualty")
    assert c["roll"] == 3 and c["result"] == "destroyed"
    assert a1.hex == "0402" and a2.hex == "0503", "attackers do not move into a hex that is not a city"


def test_R_BAT_1_tie_goes_to_defender():
    s = make_state()
    a = add(s, "athens", "army", "0402")
    d = add(s, "sparta", "army", "0503")
    ctx = run_phase("land_battle", s, "athens", dice=[7, 7, 5],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0503"}))
    b = battle_event(ctx)
    assert b["tie"] and b["won_by"] == "defender" and b["winner"] == "sparta"
    assert d.hex == "0503"
    assert a.hex == "0302", "casualty 5: the loser retreats, to the hex nearest a friendly city (Athens)"
    [r] = events(ctx, "retreat")
    assert r["from"] == "0402" and r["to"] == "0302"


def test_R_BAT_1_rowers_on_land_roll_1d6():
    s = make_state()
    r = add(s, "athens", "rowers", "0402")
    add(s, "sparta", "army", "0503")
    ctx = run_phase("land_battle", s, "athens", dice=[6, 1, 1],
                    orders=land_attacks("athens", {"units": [r.id], "target": "0503"}))
    b = battle_event(ctx)
    assert b["attack"]["units"][0]["die"] == "1D6" and b["won_by"] == "attacker"


def test_R_BAT_1_hostile_city_gives_each_attacker_plus_one():
    s = make_state()
    s.cities["megara"].controller = "sparta"
    s.cities["megara"].hostile = True
    a = add(s, "athens", "army", "0405")
    ctx = run_phase("land_battle", s, "athens", dice=[6, 1],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0506"}))
    b = battle_event(ctx)
    assert {"source": "hostile city", "value": 1} in b["attack"]["units"][0]["modifiers"]
    assert b["attack"]["total"] == 7 and b["defence"]["total"] == 6  # garrison 1D6 1 + 5
    assert s.cities["megara"].controller == "athens"


# -- R-BAT-2: traits, skills, one mechanism ---------------------------------------------------------

def test_R_BAT_2_traits_and_skills_add_up():
    s = make_state()
    s.players["athens"].traits = ["bronze_panoply", "chariots"]
    s.players["sparta"].traits = ["courage"]
    a = add(s, "athens", "army", "0402")
    add(s, "athens", "leader", "0402", skills=["general", "heroism"])
    d = add(s, "sparta", "army", "0503")
    add(s, "sparta", "leader", "0503", skills=["courage", "strategist"])
    ctx = run_phase("land_battle", s, "athens", dice=[5, 6, 3, 1],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0503"}))
    b = battle_event(ctx)
    att = b["attack"]["units"][0]
    assert sorted(m["value"] for m in att["modifiers"]) == [1, 1, 2]  # Bronze Panoply, Chariots, General
    assert att["result"] == 9
    assert b["attack"]["bonuses"][0]["rolls"] == [3] and b["attack"]["total"] == 12  # Heroism +1D6
    dfd = b["defence"]["units"][0]
    assert sorted(m["value"] for m in dfd["modifiers"]) == [1, 1, 2]  # Courage trait, Strategist, Courage skill
    assert b["defence"]["total"] == 10 and b["won_by"] == "attacker"
    assert d.id not in s.units


def test_R_BAT_2_leader_skill_only_for_its_own_stack():
    s = make_state()
    a1, a2 = add(s, "athens", "army", "0402"), add(s, "athens", "army", "0503")
    add(s, "athens", "leader", "0402", skills=["general"])
    add(s, "sparta", "army", "0403")
    ctx = run_phase("land_battle", s, "athens", dice=[5, 5, 1, 1],
                    orders=land_attacks("athens", {"units": [a1.id, a2.id], "target": "0403"}))
    rows = {r["unit"]: r for r in battle_event(ctx)["attack"]["units"]}
    assert rows[a1.id]["result"] == 7 and rows[a2.id]["result"] == 5


def test_R_BAT_2_attack_only_modifiers_do_not_help_defence():
    s = make_state()
    s.players["sparta"].traits = ["militaristic", "chariots"]
    a = add(s, "athens", "army", "0402")
    add(s, "sparta", "army", "0503")
    ctx = run_phase("land_battle", s, "athens", dice=[5, 5, 5],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0503"}))
    assert battle_event(ctx)["defence"]["units"][0]["modifiers"] == []


def test_R_BAT_2_siegecraft_vs_fortifications_at_a_city():
    s = make_state()
    s.cities["megara"].controller = "sparta"
    s.players["athens"].traits = ["siegecraft"]
    s.players["sparta"].traits = ["fortifications"]
    a = add(s, "athens", "army", "0405")
    add(s, "athens", "leader", "0405", skills=["siegecraft"])
    add(s, "sparta", "army", "0506")
    ctx = run_phase("land_battle", s, "athens", dice=[4, 3, 2, 6],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0506"}))
    b = battle_event(ctx)
    assert b["attack"]["total"] == 8  # 4 + 2 (trait) + 2 (skill)
    army, garrison = b["defence"]["units"]
    assert army["result"] == 10  # 3 + 5 city + 2 Fortifications
    assert garrison["type"] == "garrison" and garrison["die"] == "1D6" and garrison["result"] == 7
    assert b["won_by"] == "defender"
    r = events(ctx, "retreat")
    assert [e["unit"] for e in r][0] == a.id and a.hex == r[0]["to"] != "0405"
    assert r[1]["unit"] == "ATH-L1" and r[1]["to"] == a.hex, "the leader follows its stack"


def test_R_BAT_2_long_walls_only_in_the_home_city():
    s = make_state()
    s.players["sparta"].traits = ["long_walls"]
    a = add(s, "athens", "army", "0404")
    add(s, "sparta", "army", "0505")
    ctx = run_phase("land_battle", s, "athens", dice=[10, 1, 1, 6],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0505"}))
    army, garrison = battle_event(ctx)["defence"]["units"]
    assert army["result"] == 1 + 8 + 4 and garrison["result"] == 1 + 8, "the garrison is not a unit"
    s2 = make_state()
    s2.players["sparta"].traits = ["long_walls"]
    a = add(s2, "athens", "army", "0402")
    add(s2, "sparta", "army", "0503")
    ctx = run_phase("land_battle", s2, "athens", dice=[5, 5, 5],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0503"}))
    assert battle_event(ctx)["defence"]["units"][0]["modifiers"] == []


# -- R-BAT-3: casualties and retreat ----------------------------------------------------------------

def test_R_BAT_3_retreat_with_no_legal_hex_destroys():
    s = make_state()
    a = add(s, "athens", "army", "0202")
    add(s, "athens", "army", "0303")
    add(s, "athens", "army", "0204")
    d = add(s, "sparta", "army", "0203")  # mountains and water behind it, Athenians all around
    ctx = run_phase("land_battle", s, "athens", dice=[9, 2, 6],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0203"}))
    assert d.id not in s.units
    [c] = events(ctx, "casualty")
    assert c["roll"] == 6 and c["result"] == "destroyed" and c["reason"] == "no hex to retreat to"


def test_R_BAT_3_retreat_follows_standing_preference():
    s = make_state()
    s.players["sparta"].standing = {"retreat": {"0404": ["0305", "0405"]}}
    a = add(s, "athens", "army", "0403")
    add(s, "athens", "army", "0305")
    d = add(s, "sparta", "army", "0404")
    run_phase("land_battle", s, "athens", dice=[9, 2, 5], orders=land_attacks("athens", {"units": [a.id], "target": "0404"}))
    assert d.hex == "0405", "0305 holds an enemy; the next preference is taken"


def test_R_BAT_3_retreat_default_nearest_friendly_city():
    s = make_state()
    a = add(s, "athens", "army", "0403")
    d = add(s, "sparta", "army", "0404")
    run_phase("land_battle", s, "athens", dice=[9, 2, 5], orders=land_attacks("athens", {"units": [a.id], "target": "0404"}))
    assert d.hex == "0505"


def test_R_BAT_3_retreat_respects_stacking():
    s = make_state()
    a = add(s, "athens", "army", "0403")
    for _ in range(4):
        add(s, "sparta", "army", "0505")
    d = add(s, "sparta", "army", "0404")
    s.players["sparta"].standing = {"retreat": {"0404": ["0505"]}}
    run_phase("land_battle", s, "athens", dice=[9, 2, 5], orders=land_attacks("athens", {"units": [a.id], "target": "0404"}))
    assert d.hex != "0505" and d.hex in ("0405", "0504", "0305")


def test_R_BAT_3_cavalry_makes_opponent_casualty_rolls_worse():
    s = make_state()
    s.players["athens"].traits = ["cavalry"]
    a = add(s, "athens", "army", "0402")
    d = add(s, "sparta", "army", "0503")
    ctx = run_phase("land_battle", s, "athens", dice=[9, 2, 5],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0503"}))
    [c] = events(ctx, "casualty")
    assert c["total"] == 4 and c["result"] == "destroyed" and d.id not in s.units


def test_R_BAT_3_withdrawal_card_helps_the_loser():
    s = make_state()
    give(s, "sparta", "withdrawal")
    s.players["sparta"].standing = {"defence_cards": ["withdrawal"]}
    a = add(s, "athens", "army", "0402")
    d = add(s, "sparta", "army", "0503")
    ctx = run_phase("land_battle", s, "athens", dice=[9, 2, 4],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0503"}))
    [c] = events(ctx, "casualty")
    assert c["total"] == 5 and c["result"] == "retreat" and d.id in s.units
    assert "withdrawal" in s.discard


def test_R_BAT_3_leaders_follow_the_retreat():
    s = make_state()
    a = add(s, "athens", "army", "0403")
    add(s, "sparta", "army", "0404")
    ldr = add(s, "sparta", "leader", "0404")
    run_phase("land_battle", s, "athens", dice=[9, 2, 5], orders=land_attacks("athens", {"units": [a.id], "target": "0404"}))
    assert ldr.hex == "0505"


def test_R_BAT_3_losing_attackers_roll_too():
    s = make_state()
    a1, a2 = add(s, "athens", "army", "0402"), add(s, "athens", "army", "0503")
    add(s, "sparta", "army", "0403")
    ctx = run_phase("land_battle", s, "athens", dice=[1, 1, 10, 2, 6],
                    orders=land_attacks("athens", {"units": [a1.id, a2.id], "target": "0403"}))
    assert a1.id not in s.units
    assert a2.hex != "0503"
    assert [c["result"] for c in events(ctx, "casualty")] == ["destroyed", "retreat"]


# -- R-BAT-4: cities -------------------------------------------------------------------------------

def test_R_BAT_4_neutral_city_taken_plundered_and_destroyed():
    s = make_state()
    a1, a2 = add(s, "athens", "army", "0405"), add(s, "athens", "army", "0507")
    bag = add(s, "athens", "baggage", "0405", carried_by=a1.id)
    gold = s.players["athens"].gold
    ctx = run_phase("land_battle", s, "athens", dice=[10, 9, 3, 2, 4, 5, 6],
                    orders=land_attacks("athens", {"units": [a1.id, a2.id], "target": "0506", "plunder": True,
                                             "destroy": True}))
    b = battle_event(ctx)
    kinds = [u["type"] for u in b["defence"]["units"]]
    assert kinds == ["neutral_army", "garrison"]
    assert b["defence"]["total"] == (3 + 5) + (2 + 5) and b["attack"]["total"] == 19
    city = s.cities["megara"]
    assert city.controller == "athens" and city.hostile and city.razed == 6
    assert a1.hex == "0506" and bag.hex == "0506" and a2.hex == "0507"
    assert s.players["athens"].gold == gold + 15
    assert [e["event"] for e in events(ctx) if e["event"] in ("city_taken", "plunder", "destroyed")] == \
        ["city_taken", "plunder", "destroyed"]


def test_R_BAT_4_plunder_without_destroy_three_razed():
    s = make_state()
    a1, a2 = add(s, "athens", "army", "0405"), add(s, "athens", "army", "0507")
    run_phase("land_battle", s, "athens", dice=[10, 10, 1, 1, 1, 1, 1],
              orders=land_attacks("athens", {"units": [a1.id, a2.id], "target": "0506", "plunder": True}))
    assert s.cities["megara"].razed == 3 and s.cities["megara"].controller == "athens"


def test_R_BAT_4_neutral_city_holds_one_army():
    s = make_state()
    a = add(s, "athens", "army", "0405")
    ctx = run_phase("land_battle", s, "athens", dice=[10, 5, 1, 1],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0506"}))
    assert battle_event(ctx)["won_by"] == "defender"  # 10 vs (5+5)+(1+5)
    assert s.cities["megara"].controller is None and a.id not in s.units


def test_R_BAT_4_home_city_captured_and_leader_ransomed_elsewhere():
    s = make_state()
    s.cities["megara"].controller = "sparta"
    attackers = [add(s, "athens", "army", h) for h in ("0404", "0405", "0504")]
    d = add(s, "sparta", "army", "0505")
    ldr = add(s, "sparta", "leader", "0505")
    ctx = run_phase("land_battle", s, "athens", dice=[10, 10, 10, 5, 6, 2, 4],
                    orders=land_attacks("athens", {"units": [u.id for u in attackers], "target": "0505"}))
    b = battle_event(ctx)
    assert b["defence"]["units"][0]["modifiers"] == [{"source": "home city defence", "value": 8}]
    assert b["defence"]["total"] == 13 + 14
    assert d.id not in s.units
    assert s.cities["sparta"].controller == "athens" and s.cities["sparta"].hostile
    assert attackers[0].hex == "0505"
    [fate] = events(ctx, "leader_fate")
    assert fate["fate"] == "ransomed" and fate["paid"] == 4
    assert ldr.hex == "0506", "Sparta is lost: the leader goes to Megara"
    assert s.players["athens"].gold == 14 and s.players["sparta"].gold == 6


def test_R_BAT_4_enemy_fleet_in_port_defends_and_once_beaten_the_city_falls():
    """R-PH-LAND (beached and docked ships defend): the manned Fleet in port rolls 1D10 with no city defence
    beside the garrison; beaten, it makes its casualty roll (sunk), and with no enemy combat unit left the city
    is taken.  (Before, the Fleet did not defend and kept the city: "not taken".)"""
    s = make_state()
    s.cities["delos"].controller = "sparta"
    a = add(s, "athens", "army", "1006")
    f = add(s, "sparta", "fleet", "1007")
    add(s, "sparta", "rowers", "1007", carried_by=f.id)
    ctx = run_phase("land_battle", s, "athens", dice=[10, 1, 1, 3],
                    orders=land_attacks("athens", {"units": [a.id], "target": "1007"}))
    b = battle_event(ctx)
    assert b["won_by"] == "attacker" and b["defenders"] == [f.id] and b["defence_total"] == 1 + (1 + 5)
    assert f.id not in s.units
    assert s.cities["delos"].controller == "athens" and a.hex == "1007"
    assert events(ctx, "order_done")[0]["note"] is None


def test_R_BAT_4_undefended_transport_in_a_beaten_city_shares_the_fate_of_its_side():
    """An empty Transport in the city rolls no die but shares the defenders' fate (casualty roll 6: it retreats
    to sea) rather than being captured by the Army moving in."""
    s = make_state()
    s.cities["delos"].controller = "sparta"
    a = add(s, "athens", "army", "1006")
    t = add(s, "sparta", "transport", "1007")
    ctx = run_phase("land_battle", s, "athens", dice=[10, 1, 6],
                    orders=land_attacks("athens", {"units": [a.id], "target": "1007"}))
    assert battle_event(ctx)["defenders"] == [t.id]
    assert s.cities["delos"].controller == "athens" and t.owner == "sparta" and t.hex != "1007"


def test_R_BAT_4_treasure_card_pays_on_capture():
    s = make_state()
    give(s, "athens", "treasure")
    a1, a2 = add(s, "athens", "army", "0405"), add(s, "athens", "army", "0507")
    ctx = run_phase("land_battle", s, "athens", dice=[10, 10, 1, 1, 7],
                    orders=land_attacks("athens", {"units": [a1.id, a2.id], "target": "0506", "cards": ["treasure"]}))
    assert s.players["athens"].gold == 17 and "treasure" in s.discard
    assert events(ctx, "gold")[0]["amount"] == 7


def test_R_BAT_4_treasure_stays_in_hand_without_capture():
    s = make_state()
    give(s, "athens", "treasure")
    a = add(s, "athens", "army", "0405")
    run_phase("land_battle", s, "athens", dice=[1, 5, 5, 6],
              orders=land_attacks("athens", {"units": [a.id], "target": "0506", "cards": ["treasure"]}))
    assert "treasure" in s.players["athens"].hand


# -- R-BAT-5: cards ----------------------------------------------------------------------------------

def test_R_BAT_5_cards_in_order_and_if_needed_alternately():
    s = make_state()
    give(s, "athens", "surprise_attack", "elite_units")
    give(s, "sparta", "narrow_defile", "tactical_ruse")
    s.players["sparta"].standing = {"defence_cards": [{"card": "narrow_defile", "if_needed": True},
                                                      {"card": "tactical_ruse", "if_needed": False}]}
    a = add(s, "athens", "army", "0402")
    add(s, "sparta", "army", "0503")
    ctx = run_phase("land_battle", s, "athens", dice=[5, 5, 3, 4, 1, 1, 6, 2, 4, 1],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0503",
                                             "cards": ["surprise_attack", {"card": "elite_units", "if_needed": True}]}))
    b = battle_event(ctx)
    assert [c["card"] for c in b["cards"]] == ["surprise_attack", "tactical_ruse", "narrow_defile", "elite_units"]
    assert b["attack"]["total"] == 5 + 7 + 4 and b["defence"]["total"] == 5 + 2 + 8
    assert b["won_by"] == "attacker"
    assert [e["card"] for e in events(ctx, "card_played")] == [c["card"] for c in b["cards"]]
    assert set(s.discard) == {"surprise_attack", "elite_units", "narrow_defile", "tactical_ruse"}


def test_R_BAT_5_if_needed_card_kept_while_winning():
    s = make_state()
    give(s, "athens", "elite_units")
    a = add(s, "athens", "army", "0402")
    add(s, "sparta", "army", "0503")
    ctx = run_phase("land_battle", s, "athens", dice=[9, 2, 1],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0503",
                                             "cards": [{"card": "elite_units", "if_needed": True}]}))
    assert battle_event(ctx)["cards"] == [] and "elite_units" in s.players["athens"].hand


def test_R_BAT_5_opponent_total_card_and_roll_modifier_card():
    s = make_state()
    give(s, "athens", "pitched_battle")
    give(s, "sparta", "allies_leave")
    s.players["sparta"].standing = {"defence_cards": [{"card": "allies_leave", "if_needed": False}]}
    a1, a2 = add(s, "athens", "army", "0402"), add(s, "athens", "army", "0504")
    add(s, "sparta", "army", "0503")
    ctx = run_phase("land_battle", s, "athens", dice=[5, 5, 9, 3, 1],
                    orders=land_attacks("athens", {"units": [a1.id, a2.id], "target": "0503",
                                             "cards": ["pitched_battle"]}))
    b = battle_event(ctx)
    assert b["attack"]["total"] == (5 + 2) * 2 - 3 and b["attack"]["bonuses"][0]["value"] == -3
    assert b["defence"]["total"] == 9 and b["won_by"] == "attacker"


def test_R_BAT_5_defence_card_for_another_hex_stays_in_hand():
    s = make_state()
    give(s, "sparta", "tactical_ruse")
    s.players["sparta"].standing = {"defence_cards": [{"card": "tactical_ruse", "hex": "0505", "if_needed": False}]}
    a = add(s, "athens", "army", "0402")
    add(s, "sparta", "army", "0503")
    run_phase("land_battle", s, "athens", dice=[9, 2, 1], orders=land_attacks("athens", {"units": [a.id], "target": "0503"}))
    assert "tactical_ruse" in s.players["sparta"].hand


def test_R_BAT_5_card_not_in_hand_fails_the_attack_before_any_die():
    s = make_state()
    a = add(s, "athens", "army", "0402")
    add(s, "sparta", "army", "0503")
    ctx = run_phase("land_battle", s, "athens", dice=[],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0503", "cards": ["outflank"]}))
    assert "not in your hand" in failed(ctx)[0]["reason"] and not events(ctx, "battle")


def test_R_BAT_5_sea_card_does_not_fit_a_land_battle():
    s = make_state()
    give(s, "athens", "boarding_actions")
    a = add(s, "athens", "army", "0402")
    add(s, "sparta", "army", "0503")
    ctx = run_phase("land_battle", s, "athens", dice=[],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0503", "cards": ["boarding_actions"]}))
    assert "does nothing in this battle" in failed(ctx)[0]["reason"]


def test_R_BAT_5_failure_card_removes_losing_leader():
    s = make_state()
    give(s, "athens", "failure")
    a = add(s, "athens", "army", "0402")
    add(s, "sparta", "army", "0503")
    ldr = add(s, "sparta", "leader", "0503")
    ctx = run_phase("land_battle", s, "athens", dice=[9, 2, 1],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0503",
                                             "cards": [{"card": "failure", "target": ldr.id}]}))
    assert ldr.id not in s.units and "failure" in s.discard
    assert events(ctx, "leader_fate")[0]["fate"] == "removed"


# -- who may attack ---------------------------------------------------------------------------------

def test_R_PH_LAND_attacker_must_be_adjacent():
    s = make_state()
    a = add(s, "athens", "army", "0302")
    add(s, "sparta", "army", "0503")
    ctx = run_phase("land_battle", s, "athens", orders=land_attacks("athens", {"units": [a.id], "target": "0503"}))
    assert "not next to 0503" in failed(ctx)[0]["reason"]


def test_R_PH_LAND_each_unit_attacks_once_per_phase():
    s = make_state()
    a = add(s, "athens", "army", "0402")
    add(s, "sparta", "army", "0503")
    ctx = run_phase("land_battle", s, "athens", dice=[1, 9, 6],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0503"},
                                  {"units": [a.id], "target": "0503"}))
    assert len(events(ctx, "battle")) == 1
    assert "already attacked" in failed(ctx)[0]["reason"]


def test_R_PH_LAND_no_attack_on_undefended_baggage():
    s = make_state()
    a = add(s, "athens", "army", "0402")
    add(s, "sparta", "baggage", "0503")
    ctx = run_phase("land_battle", s, "athens", orders=land_attacks("athens", {"units": [a.id], "target": "0503"}))
    assert "move in to capture" in failed(ctx)[0]["reason"]


def test_R_PH_LAND_truce_blocks_all_attacks():
    s = make_state()
    s.effects.append(Effect(kind="truce", source="truce", player="sparta", until_turn=2, until_player="sparta"))
    a = add(s, "athens", "army", "0402")
    add(s, "sparta", "army", "0503")
    ctx = run_phase("land_battle", s, "athens", orders=land_attacks("athens", {"units": [a.id], "target": "0503"}))
    assert "Truce" in failed(ctx)[0]["reason"]


def test_R_PH_LAND_political_rivalry_blocks_attacks():
    s = make_state()
    s.effects.append(Effect(kind="cannot_move_or_attack", source="social_division", player="sparta",
                            target="athens", until_turn=1, until_player="athens"))
    a = add(s, "athens", "army", "0402")
    add(s, "sparta", "army", "0503")
    ctx = run_phase("land_battle", s, "athens", orders=land_attacks("athens", {"units": [a.id], "target": "0503"}))
    assert "Social Division" in failed(ctx)[0]["reason"]


def test_R_PH_LAND_hesitation_reaction_cancels_attack_and_later_ones_from_that_stack():
    s = make_state()
    give(s, "sparta", "hesitation")
    s.players["sparta"].standing = {"reactions": ["hesitation"]}
    a1, a2 = add(s, "athens", "army", "0402"), add(s, "athens", "army", "0402")
    add(s, "sparta", "army", "0503")
    add(s, "sparta", "army", "0403")
    ctx = run_phase("land_battle", s, "athens", dice=[],
                    orders=land_attacks("athens", {"units": [a1.id], "target": "0503"},
                                  {"units": [a2.id], "target": "0403"}))
    reasons = [f["reason"] for f in failed(ctx)]
    assert "Hesitation" in reasons[0] and "may not attack this turn" in reasons[1]
    assert "hesitation" in s.discard and not events(ctx, "battle")


@pytest.mark.parametrize("named", ["leader", "idle army"])
def test_R_STAND_1_hesitation_aimed_at_any_unit_of_the_attacking_stack_fires(named):
    """Hesitation's target is the stack, named by one of its units: a leader with it, or an Army of the stack
    that this attack does not list, names it as well as the attacking Army does."""
    s = make_state()
    give(s, "sparta", "hesitation")
    a1, idle = add(s, "athens", "army", "0402"), add(s, "athens", "army", "0402")
    leader = add(s, "athens", "leader", "0402")
    s.players["sparta"].standing = {"reactions": [{"card": "hesitation",
                                                   "target": leader.id if named == "leader" else idle.id}]}
    add(s, "sparta", "army", "0503")
    ctx = run_phase("land_battle", s, "athens", orders=land_attacks("athens", {"units": [a1.id], "target": "0503"}))
    assert "Hesitation" in failed(ctx)[0]["reason"] and "hesitation" in s.discard and not events(ctx, "battle")


def test_R_BAT_3_retreat_heads_for_a_friendly_city_not_a_razed_one():
    """R-BAT-3 "nearest a friendly city", friendly as R-PH-UPK says: controlled, not razed, not under siege.
    0406's free neighbours 0405 and 0506 are both one hex from Sparta; razed Megara (0506) draws no retreat."""
    s = make_state()
    s.cities["megara"].controller = "sparta"
    s.cities["megara"].razed = 3
    d = add(s, "sparta", "army", "0406")
    a = add(s, "athens", "army", "0306")
    ctx = run_phase("land_battle", s, "athens", dice=[10, 1, 5],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0406"}))
    [r] = events(ctx, "retreat")
    assert d.hex == "0405" and r["to"] == "0405"


def test_R_BAT_3_retreat_with_no_friendly_city_heads_for_the_nearest_own_city():
    s = make_state()
    s.cities["sparta"].razed = 2  # Sparta and Megara are both razed: neither is friendly
    s.cities["megara"].controller = "sparta"
    s.cities["megara"].razed = 3
    d = add(s, "sparta", "army", "0406")
    a = add(s, "athens", "army", "0306")
    run_phase("land_battle", s, "athens", dice=[10, 1, 5], orders=land_attacks("athens", {"units": [a.id], "target": "0406"}))
    assert d.hex == "0506", "the nearest of Sparta's own cities (Megara, next door) when none is friendly"


def test_R_TURN_4_an_attack_on_a_city_won_earlier_in_the_turn_says_it_is_yours():
    """Found in a played game: diplomacy won the city, and the attack on it then failed with 'there are no enemy
    Armies or Rowers ... (move in to capture undefended units)', which read as a mistake of the order."""
    s = make_state()
    s.cities["megara"].controller = "athens"  # won by this turn's diplomacy
    a = add(s, "athens", "army", "0507")
    ctx = run_phase("land_battle", s, "athens", orders=land_attacks("athens", {"units": [a.id], "target": "0506"}))
    assert failed(ctx)[0]["reason"] == "Megara in 0506 is yours now (taken earlier this turn), and no enemy Army " \
                                       "or Rowers is there"
