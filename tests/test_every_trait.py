"""Every one of the 35 city traits does what its line of the seed says: one ``test_trait[<id>]`` per trait
(docs/rules.md, "Cards, leader skills and city traits", points at each).

Each row is checked twice: the trait of the player's home city, and the trait of a minor city the player
controls ("as long as a player controls that city, his home city also gets that trait", R-SET-4).  Expected
numbers are written from the seed's text.  The battle-roll traits use the one-unit-a-side battles of
``test_battle_modifiers.fight``.
"""
from __future__ import annotations

from typing import Callable

import pytest

from effect_scenarios import fight, hold_trait
from scenario import TABLES, add, events, make_state, orders, run_phase
from test_battle_modifiers import FIXED, fight as modifier_fight

ROWS: dict[str, Callable[[str, str], None]] = {}
VIA = ("home", "minor")


def row(*traits: str):
    def deco(fn):
        for t in traits:
            assert t not in ROWS, t
            ROWS[t] = fn
        return fn
    return deco


@pytest.mark.parametrize("trait", sorted(TABLES.traits))
def test_trait(trait):
    for via in VIA:
        ROWS[trait](trait, via)


def test_every_trait_has_its_row_and_no_row_is_left_over():
    assert sorted(ROWS) == sorted(TABLES.traits) and len(ROWS) == 35


# -- battle rolls (R-BAT-2) ------------------------------------------------------------------------------------

FLEETS = [("att", "sea", 1), ("def", "sea", 1), ("att", "land", 0)]
ARMIES = [("att", "land", 1), ("def", "land", 1), ("def", "city", 1), ("att", "sea", 0)]
# trait: [(the holder's side, situation, modifier on its unit's roll)]; the other side gets nothing.
ROLL_MODIFIERS = {
    **{t: FLEETS for t in ("greek_fire", "shipbuilding", "triremes", "rowers", "naval_tactics", "ram_and_prong")},
    **{t: ARMIES for t in ("bronze_panoply", "hoplites", "peltasts", "phalanx", "discipline", "archers", "training",
                           "professional_army")},
    "chariots": [("att", "land", 1), ("att", "city", 1), ("def", "land", 0), ("att", "sea", 0)],
    "militaristic": [("att", "land", 1), ("att", "sea", 1), ("def", "land", 0)],
    "courage": [("def", "land", 1), ("def", "sea", 1), ("att", "land", 0)],
    "siegecraft": [("att", "city", 2), ("att", "home", 2), ("att", "land", 0), ("def", "city", 0)],
    "fortifications": [("def", "city", 2), ("def", "home", 2), ("def", "land", 0), ("att", "city", 0)],
    "long_walls": [("def", "home", 4), ("def", "city", 0), ("def", "land", 0)],
}


def check_roll_modifier(trait: str, via: str) -> None:
    for holder, situation, value in ROLL_MODIFIERS[trait]:
        b = modifier_fight(holder, "trait", trait, situation, via=via)
        mine = (b["attack"] if holder == "att" else b["defence"])["units"][0]
        other = (b["defence"] if holder == "att" else b["attack"])["units"][0]
        got = [m for m in mine["modifiers"] if not m["source"].startswith(FIXED)]
        assert sum(m["value"] for m in got) == value, (trait, via, holder, situation, got)
        assert all(TABLES.traits[trait].name in m["source"] for m in got)
        assert not [m for m in other["modifiers"] if not m["source"].startswith(FIXED)]


for _trait in ROLL_MODIFIERS:
    ROWS[_trait] = check_roll_modifier


@row("cavalry")
def cavalry(trait, via):
    # Athens holds it and wins: Sparta's casualty roll 5 - 1 = 4, destroyed
    f = fight("land", dice=[9, 2, 5], prepare=lambda s: hold_trait(s, "athens", trait, via))
    [c] = f.casualties()
    assert (c["owner"], c["total"], c["result"]) == ("sparta", 4, "destroyed")
    # Sparta holds it and wins at sea: Athens' casualty roll 5 - 1 = 4
    f = fight("sea", dice=[2, 9, 5], prepare=lambda s: hold_trait(s, "sparta", trait, via))
    [c] = f.casualties()
    assert (c["owner"], c["total"], c["result"]) == ("athens", 4, "destroyed")
    # the holder's own casualty rolls are not changed
    f = fight("land", dice=[2, 9, 5], prepare=lambda s: hold_trait(s, "athens", trait, via))
    assert f.casualties()[0]["total"] == 5


# -- upkeep, movement, navigation ------------------------------------------------------------------------------

@row("stoicism")
def stoicism(trait, via):
    s = make_state(gold=0)
    hold_trait(s, "athens", trait, via)
    a1, a2 = add(s, "athens", "army", "0503"), add(s, "athens", "army", "0403")
    ctx = run_phase("upkeep", s, "athens", dice=[6, 5])
    assert a1.starvation == 1 and a2.starvation == 1 and a1.id in s.units, "6 - 1 = 5: no unit disbands"
    assert [e["total"] for e in events(ctx, "starvation")] == [5, 4]


def allowances(s, units, path):
    ctx = run_phase("first_move", s, "athens",
                    orders=orders("athens", first_move=[{"units": [u.id for u in units], "path": path}]))
    moved = events(ctx, "moved")
    return moved[0]["allowances"] if moved else None


@row("seamanship")
def seamanship(trait, via):
    s = make_state()
    hold_trait(s, "athens", trait, via)
    f = add(s, "athens", "fleet", "0302")
    add(s, "athens", "rowers", "0302", carried_by=f.id)
    t = add(s, "athens", "transport", "0302")
    assert allowances(s, [f, t], ["0401"]) == {f.id: 11, t.id: 9}
    a = add(s, "athens", "army", "0302")
    assert allowances(s, [a], ["0402"]) == {a.id: 4}


@row("athletic")
def athletic(trait, via):
    s = make_state()
    hold_trait(s, "athens", trait, via)
    a, r = add(s, "athens", "army", "0302"), add(s, "athens", "rowers", "0302")
    assert allowances(s, [a], ["0402", "0503", "0504", "0404", "0405"]) == {a.id: 5}
    assert allowances(s, [r], ["0402"]) == {r.id: 4}, "Armies only: Rowers on land get nothing"


@row("sea_worthy")
def sea_worthy(trait, via):
    s = make_state()
    hold_trait(s, "athens", trait, via)
    f = add(s, "athens", "fleet", "0401")
    add(s, "athens", "rowers", "0401", carried_by=f.id)
    t = add(s, "athens", "transport", "0501")
    ctx = run_phase("second_move", s, "athens", dice=[5, 6])
    nav = {n["unit"]: (n["total"], n["sunk"]) for n in events(ctx, "navigation")}
    assert nav == {f.id: (4, False), t.id: (5, True)}, "Fleet 5 - 1 = 4 is safe; Transport 6 - 1 = 5 sinks"


# -- income and diplomacy (R-PH-REV, R-PH-DIP) -----------------------------------------------------------------

@row("slavery", "trade", "mining", "wine", "olive_oil", "pottery")
def home_income(trait, via):
    s = make_state(gold=0)
    s.cities["megara"].controller = "athens"
    hold_trait(s, "athens", trait, via)
    ctx = run_phase("revenue", s, "athens")
    income = {e["city"]: e["amount"] for e in events(ctx, "income")}
    assert income["athens"] == 8 and income["megara"] == 3, "the home city only"
    if via == "minor":  # a minor city's trait is held only while the player controls it
        s.cities["delos"].controller = None
        ctx = run_phase("revenue", s, "athens")
        assert {e["city"]: e["amount"] for e in events(ctx, "income")}["athens"] == 7


@row("high_culture", "code_of_laws", "democracy")
def one_more_diplomacy_roll(trait, via):
    s = make_state()
    hold_trait(s, "athens", trait, via)
    dip = orders("athens", diplomacy=["megara", "troy", "sparta"])
    for _turn in (1, 2):  # every turn
        ctx = run_phase("diplomacy", s, "athens", dice=[1, 1], orders=dip)
        assert [r["of"] for r in events(ctx, "diplomacy_roll")] == [2, 2]


@row("silver_mines")
def silver_mines(trait, via):
    s = make_state(gold=0)
    hold_trait(s, "athens", trait, via)
    ctx = run_phase("revenue", s, "athens", dice=[4, 5, 6])  # 3D10 = 15, once
    [g] = events(ctx, "gold")
    assert g["amount"] == 15 and g["source"] == trait
    gold = s.players["athens"].gold
    ctx = run_phase("revenue", s, "athens")
    assert not events(ctx, "gold") and s.players["athens"].gold - gold == 7 + (2 if via == "minor" else 0)
