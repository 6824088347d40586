"""Own-turn rules no test pinned before a mutation-testing review: diplomacy cards and revolts (R-PH-DIP,
R-PH-DIP-REVOLT), revenue (R-PH-REV, R-SET-4), upkeep (R-PH-UPK), sieges by pirates and barbarians (R-PB-3),
and the order checker's view of them.  Each test names the mutant it kills in its docstring
(``/tmp/mut/mutants.json`` of that review).

Tiny map: Athens 0302 (coastal; 0201 Water and 0402 Clear next to it), Sparta 0505, Troy 0903, Megara 0506
(minor, income 3 here), Delos 1007 (minor, coastal).  0303 Hills is next to Athens; of its neighbours 0304 is
Mountains (impassable).
"""
from __future__ import annotations


import pytest

from pbem.checker import check_text
from pbem.model import GameState
from pbem.storage import Campaign

from demo_campaign import create_demo, edited
from scenario import TABLES, add, events, give, make_state, orders, run_phase

REVOLT_CARDS = sorted(c.id for c in TABLES.cards.values() if c.target == "enemy_minor_city")


def test_the_revolt_cards_are_the_four_of_the_rules():
    """docs/rules.md, Cards in your own turn: Revolt, Exact Tribute, Install Governments, Install Garrisons
    take "a minor city another player controls"; the tests below run over every such card of the table."""
    assert REVOLT_CARDS == ["exact_tribute", "install_garrisons", "install_governments", "revolt"]


# -- R-PH-DIP: a home city is never a target ------------------------------------------------------------------

@pytest.mark.parametrize("card", REVOLT_CARDS)
@pytest.mark.parametrize("home, holder", [("sparta", "sparta"), ("sparta", "troy"), ("athens", "sparta")],
                         ids=["enemy-home", "enemy-home-held-by-a-third", "own-home-held-by-the-enemy"])
def test_R_PH_DIP_a_revolt_card_never_targets_a_home_city(card, home, holder):
    """R-PH-DIP: "a home city is never a target" (docs/rules.md Phase 5: "not even a captured, hostile one";
    Cards in your own turn: these cards take a minor city another player controls).  Athens plays the card on
    an enemy-held home city -- Sparta's own, Sparta's held by Troy, Athens' own held by Sparta: the order fails,
    the card stays in hand, no revolt (R-TURN-4).  Kills CRD3 (revolt cards accepted on an enemy home city)."""
    s = make_state(("athens", "sparta", "troy"))
    give(s, "athens", card)
    s.cities[home].controller, s.cities[home].hostile = holder, holder != home
    hex_ = {"sparta": "0505", "athens": "0302"}[home]
    add(s, holder, "army", hex_)
    ctx = run_phase("diplomacy", s, "athens", orders=orders("athens", cards=[{"card": card, "target": home}]))
    [f] = events(ctx, "order_failed")
    assert f["card"] == card and f["reason"].endswith("is not a minor city another player controls")
    assert s.players["athens"].hand == [card] and card not in s.discard
    assert not events(ctx, "revolt") and not events(ctx, "card_played")
    assert s.cities[home].controller == holder


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Campaign:
    return create_demo(tmp_path_factory.mktemp("campaigns") / "demo")


ATHENS = "campaign: demo\nturn: 1\nplayer: athens\nsecret: b6bf-5bc2-a03d-344d\n"


@pytest.mark.parametrize("card", REVOLT_CARDS)
def test_R_PH_DIP_the_checker_flags_a_revolt_card_on_a_home_city(demo, tmp_path, card):
    """The order checker reads the card's target as the adjudicator does: a home city is an error (R-PH-DIP);
    an enemy-controlled minor city is fine."""
    name = TABLES.cards[card].name

    def hand(state: GameState):  # the card in Athens' hand instead of its first card (the hand size stays)
        h = state.players["athens"].hand
        if card not in h:
            [pile] = [p for p in (state.deck, state.discard, *(q.hand for q in state.players.values())) if card in p]
            pile[pile.index(card)], h[0] = h[0], card
        state.cities["megara"].controller = "sparta"
    camp = edited(demo, tmp_path, hand)
    r = check_text(ATHENS + f"cards:\n  - {{card: {card}, target: sparta}}\n", "o.yaml", camp)
    assert [(f.severity, f.message) for f in r.findings] == [
        ("error", f"Sparta is a home city; {name} needs a minor city")]
    ok = check_text(ATHENS + f"cards:\n  - {{card: {card}, target: megara}}\n", "o.yaml", camp)
    assert ok.findings == []


# -- R-PH-DIP-REVOLT: who holds a revolting city --------------------------------------------------------------

@pytest.mark.parametrize("aboard", ["army", "rowers", None])
def test_R_PH_DIP_REVOLT_a_transport_in_port_holds_the_city_only_with_an_army_or_rowers_aboard(aboard):
    """docs/rules.md R-PH-DIP-REVOLT, Decision: the units that hold a city include a Transport with an Army or
    Rowers aboard, and the rebels fight the controller's units there as a land battle, docked ships included.
    Delos is Sparta's, its only Spartan unit a Transport in port; Athens' diplomacy roll 6 makes it revolt
    (1D3 = 2 rebels, rolling 1 + 1).  With an Army aboard the Transport rolls 1D6 = 4 and wins: Sparta keeps
    Delos.  With Rowers aboard it holds the city but rolls nothing: the rebels win, its casualty roll 5 sends it
    out to sea with its Rowers, and Delos goes neutral.  An empty Transport does not hold the city: no battle,
    Delos goes neutral and the rebels seize the ship.  Kills DIP4 (a loaded Transport in port does not hold the
    city)."""
    s = make_state()
    s.cities["delos"].controller = "sparta"
    t = add(s, "sparta", "transport", "1007")
    cargo = add(s, "sparta", aboard, "1007", carried_by=t.id) if aboard else None
    dice = {"army": [6, 2, 1, 1, 4], "rowers": [6, 2, 1, 1, 5], None: [6, 2]}[aboard]
    ctx = run_phase("diplomacy", s, "athens", dice=dice, orders=orders("athens", diplomacy=["delos"]))
    [r] = events(ctx, "revolt")
    assert r["city"] == "delos" and r["rebels"] == 2 and not r["negated"]
    [b] = events(ctx, "battle")
    if aboard == "army":
        assert (b["attack_total"], b["defence_total"], b["won_by"]) == (2, 4, "defender")
        assert s.cities["delos"].controller == "sparta" and not events(ctx, "neutralised")
        assert t.id in s.units and cargo.id in s.units and cargo.carried_by == t.id
    elif aboard == "rowers":
        assert (b["attack_total"], b["defence_total"], b["won_by"]) == (2, 0, "attacker")
        assert t.hex != "1007" and cargo.carried_by == t.id and cargo.hex == t.hex  # out to sea, Rowers aboard
        assert s.cities["delos"].controller is None and events(ctx, "neutralised")
    else:
        assert b["defenders"] == [] and b["note"] == "no unit of the controller holds the city"
        assert s.cities["delos"].controller is None and t.id not in s.units
        [n] = events(ctx, "neutralised")
        assert n["city"] == "delos" and n["was"] == "sparta"


# -- R-SET-4 / R-PH-REV: a trait held twice counts once -----------------------------------------------------

def test_R_SET_4_a_trait_held_twice_counts_once_for_income():
    """R-SET-4 (docs/rules.md): a minor city's controller holds its trait "(a trait held twice counts once)".
    Athens has Trade at home and controls Megara (Trade, income 3): the home city gives 7 + 1, not 7 + 2
    (R-PH-REV: +1 per income trait the player holds).  Kills FX1 (a trait held twice counts twice)."""
    s = make_state(gold=0)
    s.players["athens"].traits = ["trade"]
    s.cities["megara"].controller, s.cities["megara"].trait, s.cities["megara"].income = "athens", "trade", 3
    ctx = run_phase("revenue", s, "athens")
    home, megara = events(ctx, "income")
    assert (home["city"], home["base"], home["bonus"], home["amount"]) == ("athens", 7, 1, 8)
    assert (megara["city"], megara["amount"]) == ("megara", 3)
    assert s.players["athens"].gold == 11


# -- R-PH-UPK: completely surrounded ----------------------------------------------------------------------------

def test_R_PH_UPK_an_impassable_neighbour_is_no_way_out():
    """R-PH-UPK: a unit is "completely surrounded" when every *passable* neighbour hex holds enemy units; a
    Mountains hex is impassable, so it is no way out.  An Athenian Army at 0303 (next to Athens) with enemy
    units in its five passable neighbours and the Mountains at 0304 is surrounded: it is not paid and uses its
    stack's Baggage (docs/rules.md Phase 3, 1-2).  Spartan Leaders besiege nothing, so Athens stays friendly.
    Kills BRD2 (an impassable neighbour counts as a way out)."""
    s = make_state()
    a = add(s, "athens", "army", "0303", starvation=1)
    bag = add(s, "athens", "baggage", "0303")
    for h in ("0302", "0402", "0403", "0203", "0202"):
        add(s, "sparta", "leader", h)
    ctx = run_phase("upkeep", s, "athens")
    [ev] = events(ctx, "baggage_used")
    assert ev["reason"] == "completely surrounded" and ev["unit"] == a.id
    assert bag.id not in s.units and a.starvation == 0 and s.players["athens"].gold == 10
    assert not events(ctx, "upkeep_paid")


# -- the order checker's income estimate ------------------------------------------------------------------------

def test_R_PH_REV_the_checker_rounds_a_hostile_citys_half_income_up(demo, tmp_path):
    """R-PH-REV: "hostile minor cities give half, rounded up" -- the checker's estimate of the gold a Recruit
    order can count on follows it.  Athens (demo, no gold, no income bonus) holds hostile Megara (income 1):
    at most 7 + 1 income, not 7 + 0 (as tests/test_checker.py words it).  Kills CHK4 (the checker rounds the
    hostile half down)."""
    def poor(state: GameState):
        state.players["athens"].gold = 0
        for uid in ("ATH-F1", "ATH-F2"):  # the Fleets leave Athens, so that it recruits no matter what
            state.place(state.units[uid], "1314")
            for c in state.cargo(uid):
                state.place(c, "1314")
        state.cities["megara"].controller, state.cities["megara"].hostile = "athens", True
    camp = edited(demo, tmp_path, poor)
    assert camp.load_state().cities["megara"].income == 1
    r = check_text(ATHENS + "recruit:\n  - {city: athens, unit: fleet, baggage: 6}\n", "o.yaml", camp)
    gold = [f for f in r.errors if "gold" in f.message]
    assert gold and "you have 0 and at most 8 income" in gold[0].message
