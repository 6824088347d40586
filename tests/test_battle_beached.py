"""Land attacks on ships beached or docked in a land hex (R-PH-LAND, R-BAT-1, R-BAT-3, R-BAT-4), and the
order checker on them, on the tiny map with scripted dice.

The seed's Land Battle: "Ships in coastal spaces are considered to be beached. They may be attacked this turn."
and "Beached Ships do not get terrain defense modifiers."  The defenders of a land hex are the defender's
Armies and Rowers on land (with terrain or city defence) and their ships there: a manned Fleet rolls 1D10, a
Transport with an Army 1D6, with no modifier for the hex; other ships roll nothing and share the side's fate.

Dice order: attackers as listed, defenders by unit id (SPA-A* < SPA-F* < SPA-R* < SPA-T*), the garrison;
leaders' battle-total dice; cards; the loser's casualty rolls, by unit id.

Hexes: 0202 Sandy Coast (sea 0201/0102/0103; 0203 Clear, 0303 Hills; Athens 0302); Delos 1007, a coastal
minor city (City +5) whose one land neighbour is 1006 Sandy Coast, the rest sea.
"""
from __future__ import annotations

import shutil

import pytest

from pbem.board import under_siege
from pbem.checker import check_text
from pbem.model import Unit, UnitType
from pbem.storage import Campaign

from demo_campaign import create_demo
from scenario import TINY, add, battle_event, events, give, land_attacks, make_state, orders, run_phase


def failed(ctx):
    return [f["reason"] for f in events(ctx, "order_failed")]


def fleet(s, owner, h):
    """A manned Fleet (Rowers aboard)."""
    f = add(s, owner, "fleet", h)
    add(s, owner, "rowers", h, carried_by=f.id)
    return f


def transport(s, owner, h, cargo="army"):
    t = add(s, owner, "transport", h)
    if cargo:
        add(s, owner, cargo, h, carried_by=t.id)
    return t


def rows(b, role="defence"):
    return {r["unit"]: r for r in b[role]["units"]}


# -- R-PH-LAND: the auditor's case: a beached fleet besieging Athens ------------------------------------

def test_R_PH_LAND_R_BAT_3_beached_fleet_and_transport_beaten_one_sunk_with_crew_one_retreats_with_army():
    s = make_state()
    f = fleet(s, "sparta", "0202")
    t = transport(s, "sparta", "0202")
    a = add(s, "athens", "army", "0203")
    assert under_siege(s, TINY, "athens")
    # ATH-A1 9; SPA-F1 3 (1D10), SPA-T1 2 (1D6); casualties: F1 1 (destroyed), T1 6 (retreat)
    ctx = run_phase("land_battle", s, "athens", dice=[9, 3, 2, 1, 6],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0202"}))
    b = battle_event(ctx)
    assert b["defenders"] == [f.id, t.id]
    d = rows(b)
    assert (d[f.id]["die"], d[f.id]["modifiers"], d[t.id]["die"], d[t.id]["modifiers"]) == ("1D10", [], "1D6", [])
    assert (b["attack_total"], b["defence_total"], b["won_by"]) == (9, 5, "attacker")
    c1, c2 = events(ctx, "casualty")
    assert (c1["unit"], c1["result"], sorted(c1["lost"])) == (f.id, "destroyed", ["SPA-F1", "SPA-R1"])
    assert (c2["unit"], c2["result"]) == (t.id, "retreat") and TINY.is_water(c2["to"])
    assert f.id not in s.units and "SPA-R1" not in s.units
    assert t.hex == c2["to"] and s.units["SPA-A1"].hex == t.hex and s.units["SPA-A1"].carried_by == t.id
    assert a.hex == "0203", "no city: the attacker stays where it is"
    assert not under_siege(s, TINY, "athens")


def test_R_PH_LAND_R_BAT_3_attack_on_beached_fleet_lost_attackers_roll_casualties():
    s = make_state()
    f = fleet(s, "sparta", "0202")
    a1, a2 = add(s, "athens", "army", "0203"), add(s, "athens", "army", "0303")
    # 2 + 3 = 5 against 8: Athens loses; ATH-A1 1 (destroyed), ATH-A2 5 (retreats)
    ctx = run_phase("land_battle", s, "athens", dice=[2, 3, 8, 1, 5],
                    orders=land_attacks("athens", {"units": [a1.id, a2.id], "target": "0202"}))
    b = battle_event(ctx)
    assert (b["attack_total"], b["defence_total"], b["won_by"]) == (5, 8, "defender")
    assert [(c["unit"], c["result"]) for c in events(ctx, "casualty")] == [(a1.id, "destroyed"), (a2.id, "retreat")]
    assert f.hex == "0202" and a2.hex != "0303"


def test_R_BAT_1_beached_transport_with_army_rolls_1d6_and_an_unmanned_fleet_shares_its_fate():
    s = make_state()
    empty = add(s, "sparta", "fleet", "0202")  # SPA-F1, no Rowers: no die
    t = transport(s, "sparta", "0202")  # SPA-T1 with SPA-A1 aboard
    a = add(s, "athens", "army", "0203")
    ctx = run_phase("land_battle", s, "athens", dice=[4, 6, 2],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0202"}))
    b = battle_event(ctx)
    assert b["defenders"] == [empty.id, t.id], "every ship of the defender is in the battle"
    assert [(r["unit"], r["die"], r["modifiers"]) for r in b["defence"]["units"]] == [(t.id, "1D6", [])]
    assert (b["attack_total"], b["defence_total"]) == (4, 6) and b["won_by"] == "defender"
    assert [c["unit"] for c in events(ctx, "casualty")] == [a.id]
    # the other way round: Athens wins, and the unmanned Fleet rolls its casualty roll too
    s = make_state()
    empty = add(s, "sparta", "fleet", "0202")
    t = transport(s, "sparta", "0202")
    a = add(s, "athens", "army", "0203")
    ctx = run_phase("land_battle", s, "athens", dice=[7, 6, 4, 2],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0202"}))
    assert [(c["unit"], c["result"]) for c in events(ctx, "casualty")] == [(empty.id, "destroyed"),
                                                                            (t.id, "destroyed")]
    assert not s.units_at("0202") and "SPA-A1" not in s.units


def test_R_BAT_1_army_and_beached_fleet_on_sandy_coast_both_defend():
    s = make_state()
    d = add(s, "sparta", "army", "0202")
    f = fleet(s, "sparta", "0202")
    a1, a2 = add(s, "athens", "army", "0203"), add(s, "athens", "army", "0303")
    ctx = run_phase("land_battle", s, "athens", dice=[9, 8, 4, 5, 1, 2],
                    orders=land_attacks("athens", {"units": [a1.id, a2.id], "target": "0202"}))
    b = battle_event(ctx)
    assert [(r["unit"], r["die"], r["roll"]) for r in b["defence"]["units"]] == [(d.id, "1D10", 4), (f.id, "1D10", 5)]
    assert (b["attack_total"], b["defence_total"], b["won_by"]) == (17, 9, "attacker")
    assert [c["unit"] for c in events(ctx, "casualty")] == [d.id, f.id]
    assert d.id not in s.units and f.id not in s.units


def test_R_BAT_1_in_a_city_the_army_and_garrison_get_city_defence_a_docked_fleet_none():
    s = make_state()
    s.cities["delos"].controller = "sparta"
    d = add(s, "sparta", "army", "1007")
    f = fleet(s, "sparta", "1007")
    a = add(s, "athens", "army", "1006")
    ctx = run_phase("land_battle", s, "athens", dice=[10, 2, 3, 1, 1],
                    orders=land_attacks("athens", {"units": [a.id], "target": "1007"}))
    b = battle_event(ctx)
    got = [(r["unit"], r["type"], r["modifiers"]) for r in b["defence"]["units"]]
    assert got == [(d.id, "army", [{"source": "city defence", "value": 5}]), (f.id, "fleet", []),
                   ("garrison of Delos", "garrison", [{"source": "city defence", "value": 5}])]
    assert (b["attack_total"], b["defence_total"], b["won_by"]) == (10, 16, "defender")


# -- R-BAT-4: a city held by a docked fleet --------------------------------------------------------------

def test_R_BAT_4_docked_fleet_and_garrison_defend_beaten_both_ships_gone_city_taken():
    s = make_state()
    s.cities["delos"].controller = "sparta"
    f = fleet(s, "sparta", "1007")
    t = transport(s, "sparta", "1007")
    a1, a2 = add(s, "athens", "army", "1006"), add(s, "athens", "army", "1006")
    # ATH 8 + 7 = 15; SPA-F1 3, SPA-T1 2, garrison 1 + 5: 11; casualties F1 2 (destroyed), T1 4 (destroyed)
    ctx = run_phase("land_battle", s, "athens", dice=[8, 7, 3, 2, 1, 2, 4],
                    orders=land_attacks("athens", {"units": [a1.id, a2.id], "target": "1007"}))
    b = battle_event(ctx)
    assert [r["unit"] for r in b["defence"]["units"]] == [f.id, t.id, "garrison of Delos"]
    assert (b["attack_total"], b["defence_total"], b["won_by"]) == (15, 11, "attacker")
    assert f.id not in s.units and t.id not in s.units and "SPA-A1" not in s.units
    assert s.cities["delos"].controller == "athens" and s.cities["delos"].hostile
    assert a1.hex == "1007" and a2.hex == "1006"
    [done] = events(ctx, "order_done")
    assert done["city_taken"] and done["note"] is None


def test_R_BAT_4_docked_fleet_that_retreats_leaves_the_city_and_the_city_falls():
    s = make_state()
    s.cities["delos"].controller = "sparta"
    f = fleet(s, "sparta", "1007")
    a = add(s, "athens", "army", "1006")
    ctx = run_phase("land_battle", s, "athens", dice=[9, 2, 1, 6],
                    orders=land_attacks("athens", {"units": [a.id], "target": "1007"}))
    [c] = events(ctx, "casualty")
    assert (c["unit"], c["result"]) == (f.id, "retreat")
    assert TINY.is_water(f.hex) and s.units["SPA-R1"].hex == f.hex
    assert s.cities["delos"].controller == "athens" and a.hex == "1007"


def test_R_BAT_4_attack_on_a_city_with_a_docked_fleet_lost_the_city_and_fleet_stay():
    s = make_state()
    s.cities["delos"].controller = "sparta"
    f = fleet(s, "sparta", "1007")
    a = add(s, "athens", "army", "1006")
    # 7 against SPA-F1 3 + garrison 1 + 5 = 9
    ctx = run_phase("land_battle", s, "athens", dice=[7, 3, 1, 2],
                    orders=land_attacks("athens", {"units": [a.id], "target": "1007"}))
    b = battle_event(ctx)
    assert (b["attack_total"], b["defence_total"], b["won_by"]) == (7, 9, "defender")
    assert s.cities["delos"].controller == "sparta" and f.hex == "1007" and a.id not in s.units


# -- R-BAT-3: leaders do not follow a ship into the sea ----------------------------------------------------

def test_R_BAT_3_leader_on_land_does_not_follow_a_ship_retreating_to_sea():
    s = make_state()
    f = fleet(s, "sparta", "0202")
    ldr = add(s, "sparta", "leader", "0202")
    a = add(s, "athens", "army", "0203")
    ctx = run_phase("land_battle", s, "athens", dice=[9, 2, 6],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0202"}))
    [c] = events(ctx, "casualty")
    assert c["result"] == "retreat" and TINY.is_water(f.hex)
    assert ldr.hex == "0202", "a leader on land never goes into the Water by itself"
    assert [r["unit"] for r in events(ctx, "retreat")] == [f.id]


def test_R_BAT_3_leader_on_land_follows_the_land_unit_not_the_ship_that_retreated_first():
    s = make_state()
    f = fleet(s, "sparta", "0202")  # SPA-F1 (crew SPA-R1)
    r = add(s, "sparta", "rowers", "0202")  # SPA-R2 on land, rolls after SPA-F1
    ldr = add(s, "sparta", "leader", "0202")
    aboard = add(s, "sparta", "leader", "0202", carried_by=f.id)
    a1, a2 = add(s, "athens", "army", "0203"), add(s, "athens", "army", "0302")  # 0303 (Hills) is left free
    # ATH 9 + 9; SPA-F1 1, SPA-R2 1; casualties F1 6 (to sea), R2 5 (to land)
    ctx = run_phase("land_battle", s, "athens", dice=[9, 9, 1, 1, 6, 5],
                    orders=land_attacks("athens", {"units": [a1.id, a2.id], "target": "0202"}))
    assert [(c["unit"], c["result"]) for c in events(ctx, "casualty")] == [(f.id, "retreat"), (r.id, "retreat")]
    assert TINY.is_water(f.hex) and r.hex == "0303"
    assert ldr.hex == r.hex, "the leader on land follows the Rowers that went by land"
    assert aboard.hex == f.hex and aboard.carried_by == f.id, "the leader aboard goes with its ship"


# -- R-PH-LAND: what may be attacked -----------------------------------------------------------------

def test_R_PH_LAND_attack_on_a_hex_with_only_an_unmanned_fleet_is_refused():
    s = make_state()
    add(s, "sparta", "fleet", "0202")
    add(s, "sparta", "transport", "0202")
    a = add(s, "athens", "army", "0203")
    ctx = run_phase("land_battle", s, "athens", orders=land_attacks("athens", {"units": [a.id], "target": "0202"}))
    [why] = failed(ctx)
    assert why == "there are no enemy Armies, Rowers or manned ships in 0202 (move in to capture undefended units)"
    assert not events(ctx, "battle")


def test_R_PH_LAND_transport_with_rowers_aboard_blocks_entry_so_it_may_be_attacked_and_rolls_nothing():
    """Decision: Rowers aboard a Transport block entry (R-PH-MOVE), so a land attack may be made on it; the
    Transport rolls no die (only an Army aboard gives it 1D6) and shares the fate of its side."""
    s = make_state()
    t = transport(s, "sparta", "0202", cargo="rowers")
    a = add(s, "athens", "army", "0203")
    ctx = run_phase("land_battle", s, "athens", dice=[1, 3],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0202"}))
    b = battle_event(ctx)
    assert b["defenders"] == [t.id] and b["defence"]["units"] == [] and b["won_by"] == "attacker"
    assert t.id not in s.units and "SPA-R1" not in s.units


# -- cards: Attack Beached Ships (vs: ships) -------------------------------------------------------------

def test_R_BAT_5_attack_beached_ships_adds_2d10_in_a_land_attack_on_beached_ships():
    s = make_state()
    give(s, "athens", "attack_beached_ships")
    fleet(s, "sparta", "0202")
    a = add(s, "athens", "army", "0203")
    # ATH 2; SPA-F1 8; the card 4 + 5; casualty 1
    ctx = run_phase("land_battle", s, "athens", dice=[2, 8, 4, 5, 1],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0202", "cards": ["attack_beached_ships"]}))
    b = battle_event(ctx)
    [bonus] = b["attack"]["bonuses"]
    assert (bonus["source"], bonus["rolls"], bonus["value"]) == ("Attack Beached Ships (card)", [4, 5], 9)
    assert (b["attack_total"], b["defence_total"], b["won_by"]) == (11, 8, "attacker")
    assert "attack_beached_ships" in s.discard


def test_R_BAT_5_attack_beached_ships_counts_against_a_city_with_a_docked_fleet():
    s = make_state()
    s.cities["delos"].controller = "sparta"
    give(s, "athens", "attack_beached_ships")
    fleet(s, "sparta", "1007")
    a = add(s, "athens", "army", "1006")
    ctx = run_phase("land_battle", s, "athens", dice=[2, 3, 2, 6, 6, 1],
                    orders=land_attacks("athens", {"units": [a.id], "target": "1007", "cards": ["attack_beached_ships"]}))
    b = battle_event(ctx)
    assert (b["attack_total"], b["defence_total"], b["won_by"]) == (14, 10, "attacker")
    assert s.cities["delos"].controller == "athens"


def test_R_BAT_5_attack_beached_ships_refused_in_a_land_attack_without_ships():
    s = make_state()
    give(s, "athens", "attack_beached_ships")
    add(s, "sparta", "army", "0202")
    a = add(s, "athens", "army", "0203")
    ctx = run_phase("land_battle", s, "athens",
                    orders=land_attacks("athens", {"units": [a.id], "target": "0202", "cards": ["attack_beached_ships"]}))
    assert failed(ctx) == ["Attack Beached Ships does nothing in this battle"]
    assert not events(ctx, "battle") and "attack_beached_ships" in s.players["athens"].hand


def test_R_BAT_5_a_sea_only_card_stays_sea_only_against_beached_ships():
    """``battle: sea`` keeps its arena: a land battle against beached ships is a land battle.  Narrow Channel
    (+2D10 defence, sea battles) is not played by the defender of a beach against an Army."""
    s = make_state()
    give(s, "sparta", "narrow_channel")
    s.players["sparta"].standing = {"defence_cards": [{"card": "narrow_channel", "if_needed": False}]}
    fleet(s, "sparta", "0202")
    a = add(s, "athens", "army", "0203")
    ctx = run_phase("land_battle", s, "athens", dice=[9, 2, 1],
                    orders=land_attacks("athens", {"units": [a.id], "target": "0202"}))
    assert battle_event(ctx)["cards"] == [] and "narrow_channel" in s.players["sparta"].hand


# -- R-PH-DIP-REVOLT: unchanged, ships do not fight rebels -------------------------------------------------

def test_R_PH_DIP_REVOLT_a_docked_fleet_fights_rebels_beside_the_army():
    """Rebels fight the controller's units in the city as a land battle, so a docked Fleet defends beside the
    Army (1D10, no city modifier; the Army 1D10 + 5) and, beaten, makes its casualty roll."""
    from pbem.battle import revolt_battle
    from scenario import context
    s = make_state()
    s.cities["delos"].controller = "sparta"
    d = add(s, "sparta", "army", "1007")
    f = fleet(s, "sparta", "1007")
    ctx = context(s, "athens", dice=[10, 2, 1, 1, 2])  # a rebel 10; Army 2 + 5, Fleet 1: 8; casualties 1, 2
    assert revolt_battle(ctx, "delos", 1) is True  # nothing of Sparta's holds Delos any more
    b = events(ctx, "battle")[0]
    assert b["defenders"] == [d.id, f.id] and (b["attack_total"], b["defence_total"]) == (10, 8)
    assert [u["modifiers"] for u in b["defence"]["units"]] == [[{"source": "city defence", "value": 5}], []]
    assert d.id not in s.units and f.id not in s.units


# -- the order checker (pbem check) agrees ---------------------------------------------------------------

ATHENS = "campaign: demo\nturn: 1\nplayer: athens\nsecret: b6bf-5bc2-a03d-344d\n"


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Campaign:
    return create_demo(tmp_path_factory.mktemp("campaigns") / "demo")


def beach_next_to_land(camp: Campaign) -> tuple[str, str]:
    """(a beach or fishing village hex, a land hex next to it where ships cannot go), both empty, not cities,
    nearest Athens."""
    s, gm = camp.load_state(), camp.game_map
    home, used = gm.cities["athens"].hex, {u.hex for u in s.units.values()}
    return min((gm.distance(home, b), b, n) for b in gm.terrain if gm.terrain[b].land and gm.ship_may_enter(b)
               and b not in gm.city_at and b not in used for n in gm.neighbours[b]
               if gm.terrain[n].land and gm.passable(n) and not gm.ship_may_enter(n) and n not in used)[1:]


def placed(demo: Campaign, tmp_path, enemy: list[str], hand=()) -> tuple[Campaign, str, str]:
    """A copy of the demo with an Athenian Army (ATH-A9) next to a beach holding Spartan units ``enemy``
    ("fleet": manned, "empty_fleet", "army").  Two Baggage feed the Army there, out of supply, at this turn's
    Upkeep and the next: the checker's supply warning, said of units no order moves too
    (tests/test_fogsup_checker.py), is not at issue."""
    root = tmp_path / "demo"
    shutil.copytree(demo.root, root)
    camp = Campaign.open(root)
    beach, land = beach_next_to_land(camp)
    s = camp.load_state()
    s.add_unit(Unit("ATH-A9", UnitType.ARMY, "athens", land))
    for _ in range(2):
        s.add_unit(Unit(s.new_unit_id("ATH", UnitType.BAGGAGE), UnitType.BAGGAGE, "athens", land))
    for i, kind in enumerate(enemy, 1):
        if kind == "army":
            s.add_unit(Unit(f"SPA-A{90 + i}", UnitType.ARMY, "sparta", beach))
        else:
            s.add_unit(Unit(f"SPA-F{90 + i}", UnitType.FLEET, "sparta", beach))
            if kind == "fleet":
                s.add_unit(Unit(f"SPA-R{90 + i}", UnitType.ROWERS, "sparta", beach, carried_by=f"SPA-F{90 + i}"))
    for k, c in enumerate(hand):  # swapped with a card of the hand, wherever it was (the hand stays its size)
        mine = s.players["athens"].hand
        for pile in (s.deck, s.discard, *(p.hand for pid, p in s.players.items() if pid != "athens")):
            if c in pile:
                pile[pile.index(c)] = mine[k]
                break
        mine[k] = c
    for prefix in ("ATH-A", "SPA-A", "SPA-F", "SPA-R"):  # ids given by hand: a snapshot's next_id must cover them
        s.next_id[prefix] = max([s.next_id.get(prefix, 0)] + [int(u[len(prefix):]) for u in s.units
                                                               if u.startswith(prefix)])
    camp.save_state(s)
    return Campaign.open(root), beach, land


NO_WAY_OUT = "which has no hex your units could retreat to"  # the hill's only land neighbour is the beach attacked


def checked(camp: Campaign, beach: str, cards: str = "") -> list[tuple[str, str]]:
    """The findings but the warning that the hill has no retreat hex (R-BAT-3, tests/test_newplayer_checker.py)."""
    r = check_text(ATHENS + f'land_battle:\n  - units: [ATH-A9]\n    target: "{beach}"\n{cards}', "o.yaml", camp)
    return [(f.severity, f.message) for f in r.findings if NO_WAY_OUT not in f.message]


def test_R_PH_LAND_checker_accepts_a_land_attack_on_beached_ships(demo, tmp_path):
    camp, beach, _ = placed(demo, tmp_path, ["fleet"])
    assert checked(camp, beach) == []


def test_R_PH_LAND_checker_keeps_its_hint_where_only_an_unmanned_fleet_is(demo, tmp_path):
    camp, beach, _ = placed(demo, tmp_path, ["empty_fleet"])
    r = check_text(ATHENS + f'land_battle:\n  - units: [ATH-A9]\n    target: "{beach}"\n', "o.yaml", camp)
    [f] = [f for f in r.findings if NO_WAY_OUT not in f.message]
    assert f.message == f"there are no enemy Armies, Rowers or manned ships in {beach} now, so the attack would fail"
    assert f.hint == "enter the hex in a move to capture undefended units"


def test_R_BAT_5_checker_on_attack_beached_ships_in_a_land_attack(demo, tmp_path):
    card = "    cards: [attack_beached_ships]\n"
    camp, beach, _ = placed(demo, tmp_path / "ships", ["fleet"], hand=["attack_beached_ships"])
    assert checked(camp, beach, card) == []
    camp, beach, _ = placed(demo, tmp_path / "army", ["army"], hand=["attack_beached_ships"])
    [(severity, message)] = checked(camp, beach, card)
    assert severity == "warning"  # Athens is not first in turn order: ships may be beached there before its turn
    assert message == (f"Attack Beached Ships does nothing in this battle (it counts only against ships, and there "
                       f"are no enemy ships in {beach} now), so the attack would fail")


# -- found by a rules review of the change ----------------------------------------------------------------

def test_R_UNIT_3_a_beaten_unmanned_fleet_cannot_retreat_and_is_destroyed():
    """R-UNIT-3: a Fleet moves only with Rowers aboard; R-BAT-3: "if this move is not possible the unit is
    destroyed".  A casualty roll of 6 sent an unmanned Fleet out to sea, where it could not move and sank."""
    s = make_state()
    add(s, "sparta", "army", "0202")
    empty = add(s, "sparta", "fleet", "0202")
    a1, a2 = add(s, "athens", "army", "0203"), add(s, "athens", "army", "0303")
    ctx = run_phase("land_battle", s, "athens", dice=[9, 9, 1, 2, 6],  # 18 against 1; casualties 2 and 6
                    orders=land_attacks("athens", {"units": [a1.id, a2.id], "target": "0202"}))
    cas = {c["unit"]: c for c in events(ctx, "casualty")}
    assert cas[empty.id]["total"] == 6 and cas[empty.id]["result"] == "destroyed"
    assert cas[empty.id]["reason"] == "an unmanned Fleet cannot move"
    assert empty.id not in s.units and not events(ctx, "retreat")


def test_R_BAT_3_a_leader_left_with_only_an_unmanned_fleet_follows_his_army():
    """Leaders follow a retreat when no combat unit of their side is left in the hex; an unmanned Fleet is none
    (R-UNIT-3), so the leader went with nobody and waited to be captured beside it."""
    s = make_state()
    a = add(s, "athens", "army", "0202")
    ldr = add(s, "athens", "leader", "0202")
    add(s, "athens", "fleet", "0202")  # unmanned
    add(s, "sparta", "army", "0203")
    run_phase("land_battle", s, "athens", dice=[1, 9, 6],  # 1 against 9: beaten; the Army's casualty roll 6
              orders=land_attacks("athens", {"units": [a.id], "target": "0203"}))
    assert a.hex != "0202" and ldr.hex == a.hex


def test_R_PH_DIP_REVOLT_a_leader_aboard_a_ship_the_rebels_seize_goes_home():
    """docs/rules.md: when a city goes neutral "the former controller's leaders there go to his nearest
    controlled city"; one aboard an empty Transport (which holds no city) was lost with the ship."""
    s = make_state()
    s.cities["delos"].controller = "athens"
    t = add(s, "athens", "transport", "1007")
    aboard = add(s, "athens", "leader", "1007", carried_by=t.id)
    ashore = add(s, "athens", "leader", "1007")
    give(s, "sparta", "revolt")
    ctx = run_phase("diplomacy", s, "sparta", dice=[1],
                    orders=orders("sparta", cards=[{"card": "revolt", "target": "delos"}]))
    home = TINY.cities["athens"].hex
    assert s.cities["delos"].controller is None and t.id not in s.units
    assert (aboard.hex, aboard.carried_by, ashore.hex) == (home, None, home)
    assert sorted(r["unit"] for r in events(ctx, "leader_returns")) == sorted([aboard.id, ashore.id])


def test_R_PH_LAND_the_checker_lets_a_land_attack_follow_the_players_own_sea_battle(demo, tmp_path):
    """The player's own Sea Battle may drive enemy ships onto a beach next to it, where his Land Battle may
    attack them (the adjudicator does): for the first player in turn order the checker called that land
    attack an error ("no enemy ... now"), and intake refused the file.  Now a warning."""
    root = tmp_path / "demo"
    shutil.copytree(demo.root, root)
    camp = Campaign.open(root)
    s, gm = camp.load_state(), camp.game_map
    used, home = {u.hex for u in s.units.values()}, gm.cities["athens"].hex
    _, beach, land, w, w2 = min(
        (gm.distance(home, b), b, n, w, w2) for b in gm.terrain
        if gm.terrain[b].land and gm.ship_may_enter(b) and b not in gm.city_at and b not in used
        for n in gm.neighbours[b] if gm.terrain[n].land and gm.passable(n) and not gm.ship_may_enter(n)
        and n not in used
        for w in gm.neighbours[b] if gm.is_water(w) and w not in used
        for w2 in gm.neighbours[w] if gm.is_water(w2) and w2 not in used and w2 != b)
    s.add_unit(Unit("ATH-A9", UnitType.ARMY, "athens", land))
    s.add_unit(Unit(s.new_unit_id("ATH", UnitType.BAGGAGE), UnitType.BAGGAGE, "athens", land))
    s.add_unit(Unit("ATH-F9", UnitType.FLEET, "athens", w2))
    s.add_unit(Unit("ATH-R9", UnitType.ROWERS, "athens", w2, carried_by="ATH-F9"))
    s.add_unit(Unit("SPA-F9", UnitType.FLEET, "sparta", w))
    s.add_unit(Unit("SPA-R9", UnitType.ROWERS, "sparta", w, carried_by="SPA-F9"))
    for prefix in ("ATH-A", "ATH-F", "ATH-R", "SPA-F", "SPA-R"):
        s.next_id[prefix] = max([s.next_id.get(prefix, 0)] + [int(u[len(prefix):]) for u in s.units
                                                               if u.startswith(prefix)])
    s.turn_order = ["athens"] + [p for p in s.turn_order if p != "athens"]  # first: nobody moves before
    camp.save_state(s)
    land_only = ATHENS + f'land_battle:\n  - units: [ATH-A9]\n    target: "{beach}"\n'
    both = ATHENS + f'sea_battle:\n  - units: [ATH-F9]\n    target: "{w}"\n' + land_only[len(ATHENS):]
    camp = Campaign.open(root)
    alone = [(f.severity, f.message) for f in check_text(land_only, "o.yaml", camp).findings]
    assert [sev for sev, m in alone if "no enemy Armies, Rowers or manned ships" in m] == ["error"]
    after = [(f.severity, f.message) for f in check_text(both, "o.yaml", camp).findings]
    assert [sev for sev, m in after if "no enemy Armies, Rowers or manned ships" in m] == ["warning"]
    assert not [m for sev, m in after if sev == "error"]
