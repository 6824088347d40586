"""Battle rules no test pinned before a mutation-testing review (R-BAT-3..5, the Long Walls trait), on the
tiny map.  Each test names the mutant it kills in its docstring (``/tmp/mut/mutants.json`` of that review).

Dice order in a battle (pbem.battle): attackers in the order listed, defenders by unit id, a neutral city's
Army, the garrison; cards as played; then casualty rolls; then plunder.

Hexes: 0402/0503/0404/0405 Clear, 0302 Athens (home, +8), 0505 Sparta (home, +8), 0506 Megara (minor, +5).
"""
from __future__ import annotations

import pytest

from scenario import add, events, give, make_state, orders, run_phase


def attack(player, *attacks):
    return orders(player, land_battle=list(attacks))


def battle_event(ctx):
    [b] = events(ctx, "battle")
    return b


# -- R-BAT-5: the tie boundary of if_needed cards --------------------------------------------------------

def test_R_BAT_5_a_tied_defender_keeps_its_if_needed_card():
    """R-BAT-5 (docs/rules.md, Cards in battle): the defender plays its next if_needed card only while its
    total is *below* the attacker's.  A tie already goes to the defender (R-BAT-1), so a tied defender keeps
    Outflank in hand.  Kills BAT1 (defender plays when tied)."""
    s = make_state()
    give(s, "sparta", "outflank")
    s.players["sparta"].standing = {"defence_cards": [{"card": "outflank"}]}  # if_needed is the default there
    a = add(s, "athens", "army", "0402")
    d = add(s, "sparta", "army", "0503")
    ctx = run_phase("land_battle", s, "athens", dice=[6, 6, 5],  # 6 v 6, then the loser's casualty roll 5
                    orders=attack("athens", {"units": [a.id], "target": "0503"}))
    b = battle_event(ctx)
    assert (b["attack_total"], b["defence_total"]) == (6, 6) and b["tie"] and b["won_by"] == "defender"
    assert s.players["sparta"].hand == ["outflank"] and "outflank" not in s.discard
    assert not events(ctx, "card_played")
    assert d.hex == "0503" and a.hex == "0302", "the attacker lost the tie and retreated (casualty roll 5)"


def test_R_BAT_5_a_tied_attacker_plays_its_if_needed_card():
    """R-BAT-5: the attacker plays its next if_needed card while its total is *not above* the defender's; a
    tie loses (R-BAT-1), so a tied attacker plays Outflank (+1D10) and wins.  Kills BAT2 (attacker holds its
    card when tied)."""
    s = make_state()
    give(s, "athens", "outflank")
    a = add(s, "athens", "army", "0402")
    d = add(s, "sparta", "army", "0503")
    ctx = run_phase("land_battle", s, "athens", dice=[6, 6, 3, 1],  # 6 v 6, Outflank 3, casualty roll 1
                    orders=attack("athens", {"units": [a.id], "target": "0503",
                                             "cards": [{"card": "outflank", "if_needed": True}]}))
    b = battle_event(ctx)
    assert (b["attack_total"], b["defence_total"]) == (9, 6) and b["won_by"] == "attacker"
    [played] = events(ctx, "card_played")
    assert played["card"] == "outflank"
    assert s.players["athens"].hand == [] and s.discard == ["outflank"]
    assert d.id not in s.units


# -- R-BAT-2: Long Walls (where: home_city) ---------------------------------------------------------------

def test_R_BAT_2_long_walls_do_not_guard_an_enemy_home_city_their_holder_took():
    """Long Walls ("units defending Home City get +4", docs/rules.md Modifiers: "the home city only") is the
    holder's own home city.  Sparta holds captured Athens: its defenders there get the home city's +8 (it
    stays +8 after capture) but not Sparta's Long Walls.  Athens retakes its home city, not hostile (R-BAT-4
    decision).  Kills BAT7 (Long Walls for any home city)."""
    s = make_state()
    s.players["sparta"].traits = ["long_walls"]
    s.cities["athens"].controller, s.cities["athens"].hostile = "sparta", True
    a1, a2 = add(s, "athens", "army", "0402"), add(s, "athens", "army", "0402")
    d = add(s, "sparta", "army", "0302")
    ctx = run_phase("land_battle", s, "athens", dice=[10, 10, 1, 1, 1],  # attackers, defender, garrison, casualty
                    orders=attack("athens", {"units": [a1.id, a2.id], "target": "0302"}))
    b = battle_event(ctx)
    army, garrison = b["defence"]["units"]
    assert army["result"] == 1 + 8 and garrison["result"] == 1 + 8, "no +4 from Long Walls outside Sparta"
    assert b["attack_total"] == 2 * (10 + 1), "Athens is hostile: +1 each attacker"
    assert b["defence_total"] == 18 and b["won_by"] == "attacker" and d.id not in s.units
    assert s.cities["athens"].controller == "athens" and not s.cities["athens"].hostile


# -- R-BAT-3: retreat never into an enemy or neutral city ---------------------------------------------------

@pytest.mark.parametrize("megara", [None, "athens"], ids=["neutral", "enemy"])
def test_R_BAT_3_retreat_never_enters_an_enemy_or_neutral_city_even_when_preferred(megara):
    """R-BAT-3 (docs/rules.md, Casualties and retreat): a retreat hex "is not an enemy or neutral city"; the
    standing retreat preference is taken only among the qualifying hexes.  Sparta's preference from 0405 names
    Megara (0506), neutral or Athenian: it is passed over and the loser goes to the hex nearest a friendly city,
    Sparta (0505).  Kills BAT4 (retreat into an enemy or neutral city)."""
    s = make_state()
    s.cities["megara"].controller = megara
    s.players["sparta"].standing = {"retreat": {"0405": ["0506"]}}
    a = add(s, "athens", "army", "0404")
    d = add(s, "sparta", "army", "0405")
    ctx = run_phase("land_battle", s, "athens", dice=[10, 1, 5],  # 10 v 1, casualty roll 5: retreat
                    orders=attack("athens", {"units": [a.id], "target": "0405"}))
    assert battle_event(ctx)["won_by"] == "attacker"
    [r] = events(ctx, "retreat")
    assert r["from"] == "0405" and r["to"] == "0505" and d.hex == "0505"
    assert s.cities["megara"].controller == megara


# -- R-BAT-4: plunder caps razed counters; who moves in ------------------------------------------------------

def test_R_BAT_4_plunder_puts_at_most_six_razed_counters_on_a_city():
    """R-BAT-4: plunder gives 3D6 gold and 3 razed counters "at most 6 in all".  Megara already has 5: after
    plunder it has 6, not 8.  Kills BAT10 (no cap)."""
    s = make_state()
    s.cities["megara"].razed = 5
    a1, a2 = add(s, "athens", "army", "0405"), add(s, "athens", "army", "0405")
    # attackers 10, 10; Megara's Army 1 and garrison 1; plunder 3D6 = 1, 1, 1 (no casualty roll: nobody left)
    ctx = run_phase("land_battle", s, "athens", dice=[10, 10, 1, 1, 1, 1, 1],
                    orders=attack("athens", {"units": [a1.id, a2.id], "target": "0506", "plunder": True}))
    assert battle_event(ctx)["won_by"] == "attacker"
    assert s.cities["megara"].controller == "athens" and s.cities["megara"].hostile
    assert s.cities["megara"].razed == 6
    assert s.players["athens"].gold == 10 + 3
    [p] = events(ctx, "plunder")
    assert p["gold"] == 3


def test_R_BAT_4_the_first_army_listed_moves_in_before_rowers_listed_earlier():
    """R-BAT-4 decision (docs/rules.md, Capture and plunder): the unit that moves into a taken city is "the
    first Army of the attack's units list, else its first Rowers".  Rowers listed first, then an Army: the Army
    moves in.  Kills BAT14 (the first Army-or-Rowers listed moves in)."""
    s = make_state()
    r = add(s, "athens", "rowers", "0405")
    a = add(s, "athens", "army", "0405")
    # Rowers 1D6 = 6, Army 10; Megara's Army 1, garrison 1
    ctx = run_phase("land_battle", s, "athens", dice=[6, 10, 1, 1],
                    orders=attack("athens", {"units": [r.id, a.id], "target": "0506"}))
    assert battle_event(ctx)["won_by"] == "attacker"
    [taken] = events(ctx, "city_taken")
    assert taken["unit"] == a.id and a.hex == "0506" and r.hex == "0405"
    assert s.cities["megara"].controller == "athens"


def test_R_BAT_4_rowers_move_in_when_the_attack_has_no_army():
    """R-BAT-4 decision, second half: with no Army in the attack, its first Rowers listed moves in.  Megara is
    Sparta's, empty: only its garrison defends (1D6 + 5)."""
    s = make_state()
    s.cities["megara"].controller = "sparta"
    r1, r2 = add(s, "athens", "rowers", "0405"), add(s, "athens", "rowers", "0405")
    ctx = run_phase("land_battle", s, "athens", dice=[6, 6, 1],  # Rowers 1D6 each, the garrison
                    orders=attack("athens", {"units": [r2.id, r1.id], "target": "0506"}))
    assert battle_event(ctx)["won_by"] == "attacker"
    [taken] = events(ctx, "city_taken")
    assert taken["unit"] == r2.id and r2.hex == "0506" and r1.hex == "0405"
