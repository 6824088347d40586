"""The order checker after a new player's eleven turns as Sparta, each finding reproduced on the demo campaign: a
city named again in diplomacy (a free second try, R-PH-DIP step 3), the hand-limit hint and standing orders, an
attack from a hex with nowhere to retreat (R-BAT-3), and capturable units left beside enemy Armies (R-UNIT-3)."""
from __future__ import annotations

import pytest

from pbem.checker import check_text
from pbem.ordertypes import Orders
from pbem.storage import Campaign
from demo_campaign import create_demo, edited, ATHENS, said, first
from test_chk3_review import intrigue_and_atrocities


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Campaign:
    return create_demo(tmp_path_factory.mktemp("campaigns") / "demo")


def dip(r) -> list[tuple[str, str, str]]:
    return [f for f in said(r) if f[1].startswith("diplomacy")]


# -- 1. a city named again in diplomacy is a second try that costs nothing --------------------------------------

def test_a_city_named_again_is_a_free_second_try_and_is_not_warned(demo, tmp_path):
    """The review: [miletus, thrace, miletus, thrace, miletus, thrace] gave a warning per repeat with the hint "name
    a city once"; but a target no longer valid is reported failed and uses no roll (R-PH-DIP step 3): naming a city
    again is a fallback that costs nothing.  The Diplomacy phase shows it: Megara won at once, its repeat uses no
    roll, Chalcis gets the last two rolls."""
    from scenario import run_phase, events
    camp = edited(demo, tmp_path, intrigue_and_atrocities(razed=2))  # 3 rolls, none can come
    r = check_text(ATHENS + "cards: [intrigue]\ndiplomacy: [megara, chalcis, megara, chalcis]\n", "o.yaml", camp)
    # no warning: a short note at each second try (it may fail, so the checker says something, but costs nothing)
    assert dip(r) == [
        ("note", "diplomacy[2]", "a second try for Megara (first at diplomacy[0]): rolled for only if the tries "
                                 "before it fail; once one wins it, this target uses no roll (R-PH-DIP)"),
        ("note", "diplomacy[3]", "a second try for Chalcis (first at diplomacy[1]): rolled for only if the tries "
                                 "before it fail; once one wins it, this target uses no roll (R-PH-DIP)")], said(r)
    assert not r.warnings or all("diplomacy" not in f.path for f in r.warnings)
    assert r.to_text().splitlines()[-1].endswith(", 2 notes"), r.to_text()
    # third tries with three rolls: never rolled for (the first two tries use them), one warning for them all
    body = "cards: [intrigue]\ndiplomacy: [megara, chalcis, megara, chalcis, megara, chalcis]\n"
    r = check_text(ATHENS + body, "o.yaml", camp)
    assert [f[:2] for f in dip(r)] == [("note", "diplomacy[2]"), ("note", "diplomacy[3]"),
                                       ("warning", "diplomacy[4]"), ("note", "diplomacy[5]")], said(r)
    [f] = [f for f in r.findings if f.path.startswith("diplomacy") and f.severity == "warning"]
    assert f.message.startswith("Megara named again is a second try, rolled for only if the tries before fail; but "
                                "you have 3 diplomacy rolls this turn (") and f.message.endswith(
        "all used by then: this try is never rolled for (and so is diplomacy[5] (Chalcis))"), f.message
    assert "name a city once" not in (f.hint or "")
    state = camp.load_state()
    ctx = run_phase("diplomacy", state, "athens", dice=[6, 2, 3], game_map=camp.game_map, check=False,
                    orders=Orders.from_dict({"campaign": "demo", "turn": 1, "player": "athens", "cards": ["intrigue"],
                                             "diplomacy": ["megara", "chalcis", "megara", "chalcis", "megara",
                                                           "chalcis"]}))
    rolls = [e["city"] for e in events(ctx, "diplomacy_roll")]
    assert rolls == ["megara", "chalcis", "chalcis"], rolls
    failed = [r["index"] for r in ctx.log.records if r.get("event") == "order_failed"]
    assert failed == [2, 4, 5], ctx.log.records
    assert state.cities["megara"].controller == "athens"


def test_a_target_after_a_city_named_again_may_still_be_beyond_the_rolls(demo, tmp_path):
    """Three rolls and [megara, megara, megara, chalcis]: Chalcis is rolled for only if a Megara roll wins it
    early; the warning says how a target before it may leave a roll over (the repeats get a note)."""
    camp = edited(demo, tmp_path, intrigue_and_atrocities(razed=2))
    r = check_text(ATHENS + "cards: [intrigue]\ndiplomacy: [megara, megara, megara, chalcis]\n", "o.yaml", camp)
    assert [f[:2] for f in dip(r)] == [("note", "diplomacy[1]"), ("note", "diplomacy[2]"),
                                       ("warning", "diplomacy[3]")], said(r)
    f = dip(r)[-1]
    assert "a city named again uses no roll once a roll before has won it" in f[2], f[2]


# -- 2. the hand-limit hint never suggests a card the standing orders use -----------------------------------------

def six_cards_one_standing(s) -> None:
    """Athens first, six cards in hand (8 after the Draw, one over the limit of 7); Strong Position a standing
    defence card saved from an earlier file (in the state, not in this one)."""
    first(s, "athens")
    s.deck.remove("strong_position")
    s.players["athens"].hand.append("strong_position")
    s.players["athens"].standing = {"defence_cards": [{"card": "strong_position", "if_needed": False}]}


def hand_hint(r) -> str:
    [f] = [f for f in r.findings if "over your hand limit" in f.message]
    return f.hint


def test_the_hand_limit_hint_never_suggests_a_card_of_the_standing_orders_kept_from_an_earlier_file(demo, tmp_path):
    """The review: "(hint: to choose, write discard: [reinforce_wings])" named the defence card the player's
    standing orders, saved from an earlier turn, held; docs/rules.md (Draw) promises cards the orders do not use."""
    camp = edited(demo, tmp_path, six_cards_one_standing)
    # every other card is named by this file: nothing is left to suggest
    body = "cards: [treasure, formal_agreement, storms, negotiations, intrigue]\n"
    assert hand_hint(check_text(ATHENS + body, "o.yaml", camp)) == (
        "every card in your hand is named in your orders (your standing orders use strong_position): the draw "
        "decides")
    # one card free: that one, not the standing card
    body = "cards: [treasure, formal_agreement, storms, negotiations]\n"
    assert hand_hint(check_text(ATHENS + body, "o.yaml", camp)) == "to choose, write discard: [intrigue]"
    # the file's own standing orders replace the kept ones (R-STAND-1): a reaction of this file counts too
    body = ("cards: [treasure, formal_agreement, storms, negotiations]\n"
            "standing:\n  reactions: [intrigue]\n  defence_cards: [{card: strong_position}]\n")
    assert hand_hint(check_text(ATHENS + body, "o.yaml", camp)).startswith("every card in your hand is named")


# -- 3. an attack from a hex with nowhere to retreat (R-BAT-3) ------------------------------------------------------

def at_sea_off_aegina(s) -> None:
    """Athens first; a Transport (ATH-T1) with ATH-A1 aboard at sea in 1217, next to the Sandy Coast 1216, whose
    only land neighbour is Aegina (1215, neutral)."""
    from pbem.model import Unit, UnitType
    first(s, "athens")
    t = s.add_unit(Unit(s.new_unit_id("ATH", UnitType.TRANSPORT), UnitType.TRANSPORT, "athens", "1217"))
    s.place(s.units["ATH-A1"], "1217")
    s.units["ATH-A1"].carried_by = t.id


NO_RETREAT = ("ATH-A1 attacks from 1216, which has no hex your units could retreat to (R-BAT-3: one hex, over land, "
              "not into an enemy or neutral city, nor a hex holding enemy units or already full): if this attack is lost, "
              "each unit whose casualty roll says retreat (5 or more) is destroyed instead")
LANDING = 'first_move:\n  - units: [ATH-T1]\n    path: ["1216"]\n    unload: [ATH-A1]\n'


def test_an_attack_from_a_beach_with_no_way_out_is_warned_and_a_retreat_roll_destroys(demo, tmp_path):
    """The review: Armies landed on the beach 1216 attacked Aegina (1215) and lost; "Casualty roll for SPA-A1: 6 (5
    or more retreats): destroyed (no hex to retreat to)".  The checker knew the terrain and said nothing."""
    from scenario import run_phase, events
    camp = edited(demo, tmp_path, at_sea_off_aegina)
    body = LANDING + 'land_battle:\n  - units: [ATH-A1]\n    target: "1215"\n'
    r = check_text(ATHENS + body, "o.yaml", camp)
    assert ("warning", "land_battle[0].units[0]", NO_RETREAT) in said(r), said(r)
    assert not r.errors, said(r)
    # the adjudicator: landed, the attack lost (1 against 10s), the casualty roll a 6: destroyed, not retreated
    state = camp.load_state()
    doc = {"campaign": "demo", "turn": 1, "player": "athens",
           "first_move": [{"units": ["ATH-T1"], "path": ["1216"], "unload": ["ATH-A1"]}],
           "land_battle": [{"units": ["ATH-A1"], "target": "1215"}]}
    run_phase("first_move", state, "athens", game_map=camp.game_map, check=False, orders=Orders.from_dict(doc))
    assert state.units["ATH-A1"].hex == "1216" and state.units["ATH-A1"].carried_by is None
    ctx = run_phase("land_battle", state, "athens", dice=[1, 10, 6, 6], game_map=camp.game_map, check=False,
                    orders=Orders.from_dict(doc))
    [c] = events(ctx, "casualty")
    assert (c["unit"], c["roll"], c["result"], c["reason"]) == ("ATH-A1", 6, "destroyed", "no hex to retreat to"), c


def test_a_hex_whose_way_out_is_an_own_city_is_not_warned_but_units_that_stood_there_already_are(demo, tmp_path):
    """1413's land neighbours are Athens (1313) and 1412: ATH-A1 marched from Athens to 1413 to attack a Spartan
    Army in 1412 may retreat into Athens.  Units the file does not move there are warned too (a new player's
    review, tests/test_newplayer_checker.py: an Army landed in an earlier turn attacked from a beach and lost)."""
    from pbem.model import Unit, UnitType

    def beside(owner_of_athens: str, at: str):
        def change(s) -> None:
            first(s, "athens")
            s.place(s.units["ATH-A1"], at)
            s.add_unit(Unit(s.new_unit_id("SPA", UnitType.ARMY), UnitType.ARMY, "sparta", "1412"))
            s.cities["athens"].controller = owner_of_athens
        return change
    body = 'land_battle:\n  - units: [ATH-A1]\n    target: "1412"\n'
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-A1]\n    path: ["1413"]\n' + body, "o.yaml",
                   edited(demo, tmp_path, beside("athens", "1313")))
    assert not r.errors and not [f for f in r.findings if "retreat to" in f.message], said(r)
    # Athens held by Sparta, ATH-A1 in 1413 since an earlier turn: no way out, warned all the same
    r = check_text(ATHENS + body, "o.yaml", edited(demo, tmp_path / "b", beside("sparta", "1413")))
    assert [f.path for f in r.findings if "retreat to" in f.message] == ["land_battle[0].units[0]"], said(r)
    # the beach of the first test, the Army ashore there already: the same warning
    def ashore(s) -> None:
        at_sea_off_aegina(s)
        s.units["ATH-A1"].carried_by = None
        s.place(s.units["ATH-A1"], "1216")
    r = check_text(ATHENS + 'land_battle:\n  - units: [ATH-A1]\n    target: "1215"\n', "o.yaml",
                   edited(demo, tmp_path / "c", ashore))
    assert ("warning", "land_battle[0].units[0]", NO_RETREAT) in said(r), said(r)


# -- 4. Leaders, Baggage, Transports and unmanned Fleets left alone beside enemy Armies -----------------------------

def transport_off_the_beach(with_army: bool):
    """An Athenian Transport (ATH-T1; ATH-A1 aboard when ``with_army``) at sea in 1509, next to the Sandy Coast
    1510 and to 1409, the beach's land neighbour, where a Spartan Army stands in its sight; Sparta moves after
    Athens (the demo's turn order)."""
    def change(s) -> None:
        from pbem.model import Unit, UnitType
        t = s.add_unit(Unit(s.new_unit_id("ATH", UnitType.TRANSPORT), UnitType.TRANSPORT, "athens", "1509"))
        s.add_unit(Unit(s.new_unit_id("SPA", UnitType.ARMY), UnitType.ARMY, "sparta", "1409"))
        if with_army:
            s.place(s.units["ATH-A1"], "1509")
            s.units["ATH-A1"].carried_by = t.id
    return change


BEACHING = 'first_move:\n  - units: [ATH-T1]\n    path: ["1510"]\n'


def test_an_empty_transport_left_beside_an_enemy_army_is_warned_and_the_army_captures_it(demo, tmp_path):
    """The review: two Transports left on a beach beside enemy Armies were captured; the checker said nothing."""
    from scenario import run_phase, events
    camp = edited(demo, tmp_path, transport_off_the_beach(with_army=False))
    r = check_text(ATHENS + BEACHING, "o.yaml", camp)
    assert ("warning", "first_move[0].path[0]",
            "ATH-T1 ends the turn in 1510 with no Army, Rowers or manned Fleet of yours, next to enemy Armies: sparta "
            "in 1409 (moves after you this turn); an enemy Army, Rowers or manned Fleet that enters 1510 captures it "
            "(R-UNIT-3)") in said(r), said(r)
    # the adjudicator: Athens beaches it, Sparta's move into the beach takes it
    state = camp.load_state()
    run_phase("first_move", state, "athens", game_map=camp.game_map, check=False, orders=Orders.from_dict(
        {"campaign": "demo", "turn": 1, "player": "athens", "first_move": [{"units": ["ATH-T1"], "path": ["1510"]}]}))
    spa = next(u.id for u in state.units_at("1409") if u.owner == "sparta")
    ctx = run_phase("first_move", state, "sparta", game_map=camp.game_map, check=False, orders=Orders.from_dict(
        {"campaign": "demo", "turn": 1, "player": "sparta", "first_move": [{"units": [spa], "path": ["1510"]}]}))
    assert [(e["unit"], e["by"]) for e in events(ctx, "captured")] == [("ATH-T1", "sparta")], events(ctx)
    assert state.units["ATH-T1"].owner == "sparta"
    # an Army with it (aboard or ashore) protects it: nothing to say
    camp = edited(demo, tmp_path / "b", transport_off_the_beach(with_army=True))
    for body in (BEACHING, BEACHING + "    unload: [ATH-A1]\n"):
        r = check_text(ATHENS + body, "o.yaml", camp)
        assert not [f for f in r.findings if "captures" in f.message], said(r)
    # alone there already, no order of this file moving it or anything away: earlier orders left it, no word
    def beached(s) -> None:
        transport_off_the_beach(with_army=False)(s)
        s.place(s.units["ATH-T1"], "1510")
    r = check_text(ATHENS, "o.yaml", edited(demo, tmp_path / "c", beached))
    assert not [f for f in r.findings if "captures" in f.message], said(r)


def test_a_leader_the_moves_leave_alone_beside_an_enemy_army_is_warned_at_the_move(demo, tmp_path):
    """After the file's moves: ATH-A1 goes home to Athens and leaves ATH-L1 alone in 1413, next to a Corinthian
    Army in 1412 (Corinth moves before Athens: again before Athens' next moves).  In a city of yours it is safe."""
    from pbem.model import Unit, UnitType

    def change(s) -> None:
        s.place(s.units["ATH-A1"], "1413")
        s.place(s.units["ATH-L1"], "1413")
        s.add_unit(Unit(s.new_unit_id("COR", UnitType.ARMY), UnitType.ARMY, "corinth", "1412"))
    camp = edited(demo, tmp_path, change)
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-A1]\n    path: ["1313"]\n', "o.yaml", camp)
    [f] = [f for f in r.findings if "captures" in f.message]
    assert (f.severity, f.path) == ("warning", ""), said(r)
    assert f.message.startswith("ATH-L1 ends the turn in 1413") and \
        "corinth in 1412 (moves again before your next moves)" in f.message, f.message
    # the leader moved along: nothing
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-A1, ATH-L1]\n    path: ["1313"]\n', "o.yaml", camp)
    assert not [f for f in r.findings if "captures" in f.message], said(r)
    # the leader moved by itself next to the enemy: said at that move
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-L2]\n    path: ["1413"]\n', "o.yaml",
                   edited(demo, tmp_path / "b", lambda s: s.add_unit(
                       Unit(s.new_unit_id("COR", UnitType.ARMY), UnitType.ARMY, "corinth", "1412"))))
    [f] = [f for f in r.findings if "captures" in f.message]
    assert f.path == "first_move[0].path[0]" and f.message.startswith("ATH-L2 ends the turn in 1413"), said(r)
