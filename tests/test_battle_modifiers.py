"""R-BAT-2: every battle trait and skill of the seed, through the one modifier mechanism, in the situations where
it acts and where it must not.  One unit a side; the holder is the attacker (Athens) or the defender (Sparta).

Situations: ``land`` (0402 attacks 0503, Clear), ``city`` (0405 attacks Megara, a Spartan minor city),
``home`` (0404 attacks Sparta, the home city), ``sea`` (Fleet 0401 attacks Fleet 0501).
"""
from __future__ import annotations

import pytest

from scenario import add, events, make_state, orders, run_phase

FIXED = ("terrain", "city defence", "home city defence", "hostile city")

SETUPS = {
    # attacker hex, defender hex, phase, dice (attacker, defender, [garrison], casualty)
    "land": ("0402", "0503", "land_battle", [5, 5, 1]),
    "city": ("0405", "0506", "land_battle", [5, 5, 5, 1]),
    "home": ("0404", "0505", "land_battle", [5, 5, 5, 1]),
    "sea": ("0401", "0501", "sea_battle", [5, 5, 1]),
}

# (holder, trait or skill, id, situation, modifier on the holder's unit roll)
CASES = [
    *[("att", "trait", t, "sea", 1) for t in ("greek_fire", "shipbuilding", "triremes", "rowers", "naval_tactics",
                                             "ram_and_prong")],
    *[("def", "trait", t, "sea", 1) for t in ("greek_fire", "triremes")],
    *[("att", "trait", t, "land", 1) for t in ("bronze_panoply", "hoplites", "peltasts", "phalanx", "discipline",
                                              "archers", "training", "professional_army")],
    *[("def", "trait", t, "land", 1) for t in ("hoplites", "professional_army")],
    ("att", "trait", "greek_fire", "land", 0), ("att", "trait", "hoplites", "sea", 0),
    ("att", "trait", "chariots", "land", 1), ("def", "trait", "chariots", "land", 0),
    ("att", "trait", "militaristic", "sea", 1), ("def", "trait", "militaristic", "land", 0),
    ("def", "trait", "courage", "land", 1), ("att", "trait", "courage", "land", 0),
    ("att", "trait", "siegecraft", "city", 2), ("att", "trait", "siegecraft", "land", 0),
    ("def", "trait", "siegecraft", "city", 0),
    ("def", "trait", "fortifications", "city", 2), ("def", "trait", "fortifications", "land", 0),
    ("def", "trait", "long_walls", "home", 4), ("def", "trait", "long_walls", "city", 0),
    *[("att", "skill", k, "land", 1) for k in ("strategist", "leadership", "charisma", "resolve")],
    *[("def", "skill", k, "sea", 1) for k in ("strategist", "leadership", "charisma", "resolve")],
    ("def", "skill", "courage", "land", 2), ("att", "skill", "courage", "land", 0),
    ("att", "skill", "adventurous", "sea", 1), ("def", "skill", "adventurous", "land", 0),
    ("att", "skill", "admiral", "sea", 2), ("att", "skill", "admiral", "land", 0),
    ("def", "skill", "general", "land", 2), ("def", "skill", "general", "sea", 0),
    ("att", "skill", "siegecraft", "city", 2), ("def", "skill", "siegecraft", "city", 2),
    ("att", "skill", "siegecraft", "land", 0),
]


def fight(holder: str, kind: str, ident: str, situation: str, via: str = "home"):
    """One battle; the holder has the trait (from its home city, or with ``via="minor"`` as the trait of Delos,
    a minor city it controls, R-SET-4) or a leader with the skill in its stack.  Returns the battle event."""
    s = make_state()
    s.cities["megara"].controller = "sparta"
    att_hex, def_hex, phase, dice = SETUPS[situation]
    who = "athens" if holder == "att" else "sparta"
    if situation == "sea":
        units = []
        for owner, h in (("athens", att_hex), ("sparta", def_hex)):
            f = add(s, owner, "fleet", h)
            add(s, owner, "rowers", h, carried_by=f.id)
            units.append(f)
        if kind == "skill":
            ship = units[0 if holder == "att" else 1]
            add(s, who, "leader", ship.hex, carried_by=ship.id, skills=[ident])
    else:
        units = [add(s, "athens", "army", att_hex), add(s, "sparta", "army", def_hex)]
        if kind == "skill":
            add(s, who, "leader", att_hex if holder == "att" else def_hex, skills=[ident])
    if kind == "trait" and via == "home":
        s.players[who].traits = [ident]
    elif kind == "trait":
        s.cities["delos"].controller, s.cities["delos"].trait = who, ident
    ctx = run_phase(phase, s, "athens", dice=dice,
                    orders=orders("athens", **{phase: [{"units": [units[0].id], "target": def_hex}]}))
    [b] = events(ctx, "battle")
    return b


@pytest.mark.parametrize("holder,kind,ident,situation,value", CASES,
                         ids=[f"{h}-{k}-{i}-{s}" for h, k, i, s, _ in CASES])
def test_R_BAT_2_trait_or_skill_modifier(holder, kind, ident, situation, value):
    b = fight(holder, kind, ident, situation)
    row = (b["attack"] if holder == "att" else b["defence"])["units"][0]
    other = (b["defence"] if holder == "att" else b["attack"])["units"][0]
    mods = [m for m in row["modifiers"] if not m["source"].startswith(FIXED)]
    assert sum(m["value"] for m in mods) == value, row["modifiers"]
    assert [m for m in other["modifiers"] if not m["source"].startswith(FIXED)] == [], "nothing for the other side"


@pytest.mark.parametrize("skill", ["heroism", "brilliance"])
def test_R_BAT_2_battle_total_skills_add_1d6(skill):
    s = make_state()
    a = add(s, "athens", "army", "0402")
    add(s, "sparta", "army", "0503")
    add(s, "sparta", "leader", "0503", skills=[skill])
    ctx = run_phase("land_battle", s, "athens", dice=[9, 5, 4, 1],
                    orders=orders("athens", land_battle=[{"units": [a.id], "target": "0503"}]))
    [b] = events(ctx, "battle")
    assert b["defence"]["bonuses"] == [{"source": b["defence"]["bonuses"][0]["source"], "dice": "1D6", "rolls": [4],
                                        "value": 4}]
    assert b["defence_total"] == 9 and b["won_by"] == "defender", "9 against 5 + 4: a tie"


# -- R-BAT-2: the leaders of a side are those in its battle hexes ------------------------------------------
# (docs/rules.md, Modifiers: the defender's are those in the target hex, so a city defended by its garrison
# alone is led by the leader standing in it)

def test_R_BAT_2_heroism_of_a_leader_in_a_city_defended_by_its_garrison_alone():
    s = make_state()
    s.cities["megara"].controller = "sparta"
    add(s, "sparta", "leader", "0506", skills=["heroism"])
    a = add(s, "athens", "army", "0405")
    # ATH 10; garrison 3 + 5; Heroism 1D6 = 4: 12 > 10
    ctx = run_phase("land_battle", s, "athens", dice=[10, 3, 4, 2],
                    orders=orders("athens", land_battle=[{"units": [a.id], "target": "0506"}]))
    [b] = events(ctx, "battle")
    [bonus] = b["defence"]["bonuses"]
    assert (bonus["source"], bonus["rolls"]) == ("Heroism (skill, SPA-L1)", [4])
    assert (b["attack_total"], b["defence_total"], b["won_by"]) == (10, 12, "defender")
    assert s.cities["megara"].controller == "sparta"


def test_R_BAT_2_an_exiled_leader_left_in_the_city_leads_nothing():
    """Exile takes a leader out of the game though it keeps its hex: a side's leaders are those in its battle
    hexes and in play (one lookup, effects.leaders_in, for a stack's and a battle hex's leaders)."""
    s = make_state()
    s.cities["megara"].controller = "sparta"
    add(s, "sparta", "leader", "0506", skills=["heroism"], away_until=3)
    a = add(s, "athens", "army", "0405")
    ctx = run_phase("land_battle", s, "athens", dice=[10, 3],  # ATH 10; garrison 3 + 5; no Heroism die
                    orders=orders("athens", land_battle=[{"units": [a.id], "target": "0506"}]))
    [b] = events(ctx, "battle")
    assert b["defence"]["bonuses"] == [] and (b["defence_total"], b["won_by"]) == (8, "attacker")


def test_R_BAT_2_a_leaders_roll_modifier_does_not_act_on_the_garrison():
    s = make_state()
    s.cities["megara"].controller = "sparta"
    add(s, "sparta", "leader", "0506", skills=["courage"])
    a = add(s, "athens", "army", "0405")
    ctx = run_phase("land_battle", s, "athens", dice=[10, 3, 2],
                    orders=orders("athens", land_battle=[{"units": [a.id], "target": "0506"}]))
    [b] = events(ctx, "battle")
    assert b["defence"]["units"][0]["modifiers"] == [{"source": "city defence", "value": 5}]
    assert b["defence_total"] == 8 and s.cities["megara"].controller == "athens"
