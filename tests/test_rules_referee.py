"""Two rules referees read the seed and RULINGS against what pbem did (2026-11-23); each finding, as a scenario on
the tiny map (hexes: 0302 Athens, 0505 Sparta, 0506 Megara; a row of Clear hexes from 0402 to 0306)."""
from __future__ import annotations

from scenario import TABLES, TINY, add, assert_invariants, context, events, give, make_state, orders, run_phase
from pbem.phases import PHASES

PATH7 = ["0402", "0503", "0504", "0404", "0405", "0306", "0307"]  # seven Clear hexes (1 point each) from Athens
BACK6 = ["0405", "0404", "0504", "0503", "0402", "0302"]  # from 0306 back into Athens: 5 + 2 (a City) = 7 points


def both_moves(s, **sections):
    """The First and the Second Move of Athens in one player-turn (one context, as the adjudicator runs them)."""
    ctx = context(s, "athens", orders=orders("athens", **sections))
    for name in ("first_move", "second_move"):
        ctx.phase = ctx.log.phase = name
        next(p for p in PHASES if p.name == name).resolve(ctx)
    ctx.log.flush_rolls()
    assert_invariants(s)
    return ctx


def test_R_PH_MOVE_forced_march_lasts_into_the_second_move_of_the_same_units():
    """Forced March / Marathon: "Army Stack gets +2 Movement points this turn", and each move phase has a full
    allowance (R-PH-MOVE): played in the First Move, the +2 holds for the same units' Second Move."""
    for card in ("forced_march", "marathon"):
        s = make_state()
        give(s, "athens", card)
        a, b = add(s, "athens", "army", "0302"), add(s, "athens", "army", "0302")
        ctx = both_moves(s, first_move=[{"units": [a.id], "path": PATH7[:6], "cards": [card]}],
                         second_move=[{"units": [a.id], "path": BACK6[:5]}, {"units": [b.id], "path": PATH7[:6]}])
        assert a.hex == "0402", "there and 5 hexes back: 6 points in each move, the card played in the First Move"
        first, second = events(ctx, "moved")
        assert first["allowance"] == second["allowance"] == 6 and second["bonuses"][a.id] == [
            f"{'Forced March' if card == 'forced_march' else 'Marathon'} (card, played in the First Move) +2"]
        assert b.hex == "0302", "an Army the card was not played for has its 4"
        assert "not enough movement points" in events(ctx, "order_failed")[0]["reason"]


def test_R_PH_MOVE_a_forced_march_played_in_the_second_move_is_for_that_move():
    s = make_state()
    give(s, "athens", "forced_march")
    a = add(s, "athens", "army", "0302")
    ctx = run_phase("second_move", s, "athens", dice=[], orders=orders("athens", second_move=[
        {"units": [a.id], "path": PATH7[:6], "cards": ["forced_march"]}]))
    assert a.hex == "0306" and events(ctx, "moved")[0]["allowance"] == 6


def test_R_PH_MOVE_relieving_force_is_for_the_one_move():
    """Relieving Force says "if in aid of a city", not "this turn": its +2 is checked and given per move."""
    s = make_state()
    s.cities["megara"].controller = "athens"
    add(s, "sparta", "army", "0507")  # Megara (0506) under siege
    give(s, "athens", "relieving_force")
    a = add(s, "athens", "army", "0302")
    ctx = both_moves(s, first_move=[{"units": [a.id], "path": PATH7[:5], "cards": ["relieving_force"]}],
                     second_move=[{"units": [a.id], "path": BACK6[1:]}])  # 4 + 2 (Athens, a City) points
    assert events(ctx, "moved")[0]["allowance"] == 6, "5 hexes to 0405, next to besieged Megara"
    assert a.hex == "0405" and "not enough movement points" in events(ctx, "order_failed")[0]["reason"]


def test_R_PH_MOVE_a_leader_with_armies_moves_at_their_pace():
    """"Leaders alone 6" (R-PH-MOVE): a leader marching with Armies does not hold them to 6 (Athletic and Forced
    March give the Army 7; a rules referee found the leader's 6 stopped the whole stack)."""
    for with_leader in (False, True):
        s = make_state()
        s.players["athens"].traits = ["athletic"]
        give(s, "athens", "forced_march")
        a = add(s, "athens", "army", "0302")
        units = [a.id]
        if with_leader:
            units.append(add(s, "athens", "leader", "0302").id)
        ctx = run_phase("first_move", s, "athens", orders=orders("athens", first_move=[
            {"units": units, "path": PATH7, "cards": ["forced_march"]}]))
        assert a.hex == "0307", events(ctx, "order_failed")
        assert events(ctx, "moved")[0]["allowance"] == 7
    s = make_state()
    lone = add(s, "athens", "leader", "0302")
    ctx = run_phase("first_move", s, "athens", orders=orders("athens", first_move=[
        {"units": [lone.id], "path": PATH7}]))
    assert lone.hex == "0302" and "(6 of 6 spent" in events(ctx, "order_failed")[0]["reason"], "alone: 6"


def test_R_PH_REC_organization_skips_a_hostile_city_that_may_not_recruit():
    """Organization: "Nearest friendly city may recruit 1 extra unit"; a hostile city may not recruit at all
    (R-PH-REC), so the bonus goes to the nearest city that may, as for a razed or besieged one."""
    s = make_state(gold=20)
    s.cities["megara"].controller = "athens"
    s.cities["megara"].hostile = True
    add(s, "athens", "leader", "0606", skills=["organization"])  # Megara (0506) is nearest, Athens next
    ctx = run_phase("recruit", s, "athens", dice=[1], orders=orders("athens", recruit=[
        {"city": "athens", "unit": "army"}, {"city": "athens", "unit": "army"}]))
    assert [e["index"] for e in events(ctx, "order_done")] == [0, 1], events(ctx, "order_failed")


def test_R_PH_DIP_coup_fails_when_the_opponent_does_not_hold_their_home_city():
    """Coup: "Opponents Home city gets 1D6 Razed Counters."  Decision: only while the opponent holds it; on a home
    city the card's player (or a third) has taken, it fails and stays in hand (a rules referee: Athens razed the
    Sparta it held)."""
    s = make_state()
    s.cities["sparta"].controller, s.cities["sparta"].hostile = "athens", True
    give(s, "athens", "coup")
    ctx = run_phase("diplomacy", s, "athens", orders=orders("athens", cards=[{"card": "coup", "target": "sparta"}]))
    assert s.cities["sparta"].razed == 0 and "coup" in s.players["athens"].hand
    assert events(ctx, "order_failed")[0]["reason"] == (
        "Coup cannot be played: the Spartans do not hold their home city Sparta")


# -- the order checker agrees (on the demo campaign: the Aegean map; 0703..1104 are Clear and Farms hexes) -------

import pytest  # noqa: E402

from pbem.checker import check_text  # noqa: E402
from demo_campaign import ATHENS, create_demo, edited, first, said  # noqa: E402

NORTH = ["0802", "0902", "1001", "1002", "1102", "1103", "1104"]  # from 0703, seven hexes of 1 point each


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return create_demo(tmp_path_factory.mktemp("campaigns") / "demo")


def errors(report):
    return [x for x in said(report) if x[0] == "error"]


def north(cards=(), traits=(), leader=False):
    """Athens first in turn order, ATH-A1 and ATH-A2 (and ATH-L1) moved to 0703, with these cards in hand and
    traits."""
    def change(s):
        first(s, "athens")
        s.units["ATH-A1"].hex = s.units["ATH-A2"].hex = "0703"
        if leader:
            s.units["ATH-L1"].hex = "0703"
        s.players["athens"].hand += list(cards)
        s.players["athens"].traits = list(traits)
    return change


def test_R_PH_MOVE_the_checker_carries_forced_march_into_the_second_move(demo, tmp_path):
    """ATH-A1 goes 6 hexes with Forced March and 6 back; ATH-A2, which the card was not played for, has its 4."""
    text = ATHENS + (f"first_move:\n  - {{units: [ATH-A1], path: {NORTH[:6]}, cards: [forced_march]}}\n"
                     f"second_move:\n  - {{units: [ATH-A1], path: {['1102', '1002', '1001', '0902', '0802', '0703']}}}\n"
                     f"  - {{units: [ATH-A2], path: {NORTH[:6]}}}\n")
    r = check_text(text, "o.yaml", edited(demo, tmp_path, north(cards=["forced_march"])))
    assert [x[1] for x in errors(r)] == ["second_move[1].path[4]"], said(r)


def test_R_PH_MOVE_the_checker_lets_a_leader_go_at_the_armys_pace(demo, tmp_path):
    text = ATHENS + f"first_move:\n  - {{units: [ATH-A1, ATH-L1], path: {NORTH}, cards: [forced_march]}}\n"
    camp = edited(demo, tmp_path, north(cards=["forced_march"], traits=["athletic"], leader=True))
    assert not errors(check_text(text, "o.yaml", camp)), said(check_text(text, "o.yaml", camp))


def test_R_PH_DIP_the_checker_warns_of_a_coup_on_a_home_city_its_people_do_not_hold(demo, tmp_path):
    def change(s):
        first(s, "athens")
        s.cities["sparta"].controller, s.cities["sparta"].hostile = "athens", True
        s.players["athens"].hand.append("coup")
    r = check_text(ATHENS + "cards: [{card: coup, target: sparta}]\n", "o.yaml", edited(demo, tmp_path, change))
    assert ("error", "cards[0].target", "the Spartans do not hold their home city Sparta now (you hold it), so Coup "
            "would fail and stay in your hand") in said(r)


def test_R_PH_SEA_the_checker_refuses_a_sea_attack_on_ships_that_neither_fight_nor_block(demo, tmp_path):
    def with_ships(manned):
        def change(s):
            first(s, "athens")
            f = s.units["ATH-F1"]
            f.hex = "1314"
            for u in s.units.values():
                if u.carried_by == f.id:
                    u.hex = "1314"
            from pbem.model import Unit, UnitType
            s.units["SPA-F9"] = Unit("SPA-F9", UnitType.FLEET, "sparta", "1315")
            s.next_id["SPA-F"] = s.next_id["SPA-R"] = 9
            if manned:
                s.units["SPA-R9"] = Unit("SPA-R9", UnitType.ROWERS, "sparta", "1315", carried_by="SPA-F9")
        return change
    text = ATHENS + "sea_battle:\n  - {units: [ATH-F1], target: \"1315\"}\n"
    r = check_text(text, "o.yaml", edited(demo, tmp_path, with_ships(False)))
    assert [(x[0], x[1]) for x in said(r) if "fights or blocks" in x[2]] == [("error", "sea_battle[0].target")], said(r)
    r = check_text(text, "o.yaml", edited(demo, tmp_path / "b", with_ships(True)))
    assert not [x for x in said(r) if x[1].startswith("sea_battle")], said(r)


def test_R_PH_REV_the_checker_counts_a_captured_home_city_in_full(demo, tmp_path):
    """Athens razed (no income), Megara at 2 and captured Sparta at 7 (not halved): 9 gold pays an Army and 6
    Baggage in Megara (8); with Sparta halved (4) the checker said it could not be paid."""
    def change(s):
        first(s, "athens")
        s.players["athens"].gold = 0
        s.cities["athens"].razed = 3
        s.cities["megara"].controller, s.cities["megara"].income = "athens", 2
        s.cities["sparta"].controller, s.cities["sparta"].hostile = "athens", True
    r = check_text(ATHENS + "recruit:\n  - {city: megara, unit: army, baggage: 6}\n", "o.yaml",
                   edited(demo, tmp_path, change))
    assert not [x for x in said(r) if "this costs" in x[2] and x[0] == "error"], said(r)


def test_R_PH_MOVE_a_movement_card_with_no_marching_army_or_rowers_fails_the_move_and_stays_in_hand():
    """A referee: Forced March played for a lone leader (or a ship carrying an Army) was discarded for nothing.
    As a battle card that can do nothing in its battle, the order fails whole (R-TURN-4) and the card stays."""
    s = make_state()
    give(s, "athens", "forced_march")
    lone = add(s, "athens", "leader", "0302")
    ctx = run_phase("first_move", s, "athens", orders=orders("athens", first_move=[
        {"units": [lone.id], "path": PATH7[:2], "cards": ["forced_march"]}]))
    assert lone.hex == "0302" and "forced_march" in s.players["athens"].hand
    assert events(ctx, "order_failed")[0]["reason"] == ("Forced March gives its points to marching Armies and "
                                                        "Rowers, and none moves in this move")


def test_R_PH_MOVE_the_checker_refuses_a_movement_card_no_mover_takes(demo, tmp_path):
    text = ATHENS + f"first_move:\n  - {{units: [ATH-L1], path: {NORTH[:2]}, cards: [forced_march]}}\n"
    r = check_text(text, "o.yaml", edited(demo, tmp_path, north(cards=["forced_march"], leader=True)))
    assert [(x[1], x[2]) for x in errors(r)] == [("first_move[0].cards[0]", "Forced March gives its points to "
                                                  "marching Armies and Rowers, and none moves in this move, so "
                                                  "the move fails")], said(r)


def test_R_PH_SEA_ships_beside_their_owners_army_ashore_are_taken_by_a_land_attack():
    """A referee: the hint "move in to capture them" could not be followed where the owner's Army stands in the
    beach hex (no unit may enter it): a land attack there takes the ships along."""
    from test_battle_sea import manned, sea
    s = make_state()
    f, _ = manned(s, "athens", "0201")
    add(s, "sparta", "transport", "0202"), add(s, "sparta", "army", "0202")
    ctx = run_phase("sea_battle", s, "athens", orders=sea("athens", {"units": [f.id], "target": "0202"}))
    assert events(ctx, "order_failed")[0]["reason"].endswith(
        "units ashore bar the way in: attack the hex by land (a land battle takes the ships along)")


def test_the_end_of_another_players_card_on_a_third_players_stack_is_not_told():
    """A player's review: Athens' Hesitation on a Spartan stack ended in the Trojans' Draw phase, and the Trojans'
    report said "No longer in force (expired): Hesitation (played by the Athenians): the stack in 1113 Hills may
    not attack", a hex far out of their sight.  It is Athens' business (who played it), not the Trojans'."""
    from pbem.model import Effect
    from pbem.visibility import events_for
    s = make_state(players=("athens", "sparta", "troy"))
    add(s, "sparta", "army", "0505")
    add(s, "troy", "army", "0903")
    s.effects.append(Effect("cannot_attack", "hesitation", "athens", "0505", 0, 1, "athens"))
    before = s.copy()
    ctx = run_phase("draw", s, "troy")
    assert [e["target"] for e in events(ctx, "effect_ends")] == ["0505"] and not s.effects
    told = {p: [r for r in events_for(ctx.log.records, p, None, [before, s]) if r.get("event") == "effect_ends"]
            for p in ("athens", "troy")}
    assert told["troy"] == [] and len(told["athens"]) == 1


def test_a_report_counts_the_units_aboard_others_ships_as_the_kit_holds_them():
    """A red-teamer: the kit kept which of another player's units are aboard their ships (a Fleet's crew, a
    Transport's Army) while the report gave counts only, and the checker's sea-attack answer ("neither fight nor
    block") then told it.  Seen at the table, it is told in the report too: the kit holds nothing more."""
    from pbem import report
    from pbem.visibility import redact, view
    s = make_state()
    add(s, "athens", "fleet", "0401")
    f = add(s, "sparta", "fleet", "0501")
    add(s, "sparta", "rowers", "0501", carried_by=f.id)
    add(s, "sparta", "transport", "0501")
    v = view(s, TINY, "athens")
    [o] = [o for o in v["others"] if o["hex"] == "0501"]
    assert o["counts"] == {"fleet": 1, "rowers": 1, "transport": 1} and o["aboard"] == {"rowers": 1}
    assert view(redact(s, TINY, "athens"), TINY, "athens")["others"] == v["others"]
    ctx = report.build_context("t", 1, TINY, TABLES, s, s, [], "athens")
    [shown] = [x for x in ctx["others"] if x["hex"] == "0501"]
    assert shown["counts"] == "1 rowers, 1 fleet, 1 transport (aboard ships: 1 rowers)"


def test_the_kit_names_an_exiled_enemy_leader_as_it_names_his_unit():
    """A red-teamer: the effect of one's own Exiled kept the real id of the enemy leader (COR-L2) in the kit,
    where his unit is renamed (SPA-?1): the effect now names him the same way."""
    from pbem.model import Effect
    from pbem.visibility import redact
    s = make_state()
    add(s, "athens", "army", "0504")
    leader = add(s, "sparta", "leader", "0505")
    s.effects.append(Effect("leader_removed", "exiled", "athens", leader.id, 0, 3, "sparta"))
    kit = redact(s, TINY, "athens")
    [e] = kit.effects
    assert e.target != leader.id and e.target in kit.units and kit.units[e.target].type.value == "leader"
    leader.away_until = 3  # exiled: out of play, so out of the kit; the effect names no id of his
    [e] = redact(s, TINY, "athens").effects
    assert e.target == "SPA-?"
