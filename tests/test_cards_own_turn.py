"""Cards played in the own player-turn outside battles (pbem.cards), at the start of the Diplomacy phase
(R-PH-DIP for the diplomacy cards; R-TURN-4: a card that cannot be played is skipped whole)."""
from pbem.model import UnitType
from scenario import TINY, add, events, give, make_state, orders, run_phase, watch


def play(s, *uses, player="athens", dice=(), diplomacy=()):
    o = orders(player, cards=[u if isinstance(u, dict) else {"card": u} for u in uses], diplomacy=list(diplomacy))
    return run_phase("diplomacy", s, player, dice=list(dice), orders=o)


# -- the dispatcher -------------------------------------------------------------------------------------

def test_R_TURN_4_a_card_not_in_hand_unknown_or_listed_twice_fails_and_changes_nothing():
    s = make_state()
    give(s, "athens", "contributions")
    ctx = play(s, "coercion", "no_such_card", "contributions", "contributions", dice=[3, 4])
    failed = {f["index"]: f["reason"] for f in events(ctx, "order_failed")}
    assert "not in your hand" in failed[0] and "no card" in failed[1] and "not in your hand" in failed[3]
    assert s.players["athens"].gold == 17 and s.discard == ["contributions"]
    assert [e["index"] for e in events(ctx, "order_done")] == [2]


def test_R_TURN_4_a_card_with_a_wrong_target_stays_in_hand():
    s = make_state()
    s.cities["megara"].controller = "sparta"
    give(s, "athens", "natural_allies", "revolt", "threatened", "spy")
    ctx = play(s, {"card": "natural_allies", "target": "megara"}, {"card": "revolt", "target": "delos"},
               {"card": "threatened", "target": "athens"}, {"card": "spy"})
    reasons = [f["reason"] for f in events(ctx, "order_failed")]
    assert "not a neutral minor city" in reasons[0] and "not a minor city another player controls" in reasons[1]
    assert "not an opponent" in reasons[2] and "needs a target" in reasons[3]
    assert sorted(s.players["athens"].hand) == ["natural_allies", "revolt", "spy", "threatened"]
    assert s.effects == [] and s.discard == []


def test_R_PH_DIP_movement_cards_are_left_to_the_moves_battle_cards_and_reactions_fail():
    s = make_state()
    give(s, "athens", "forced_march", "break_formation", "executions", "hesitation", "failure", "treasure")
    ctx = play(s, "forced_march", "break_formation", "executions", "hesitation", "failure", "treasure")
    failed = {f["index"]: f["reason"] for f in events(ctx, "order_failed")}
    assert sorted(failed) == [1, 2, 3, 4], "R-TURN-4: never played from this list, so reported"
    assert "battle card" in failed[1] and "standing defence_cards" in failed[1]
    assert "other players' turns" in failed[2] and "standing reactions" in failed[3]
    assert "cards of your attack" in failed[4]
    assert len(s.players["athens"].hand) == 6 and not events(ctx, "card_played")


def test_R_PH_DIP_any_phase_cards_are_played_at_the_start_of_the_diplomacy_phase_only():
    s = make_state(gold=0)
    give(s, "athens", "contributions")
    o = orders("athens", cards=[{"card": "contributions"}])
    for phase in ("draw", "revenue", "upkeep", "recruit"):
        run_phase(phase, s, "athens", dice=[1] if phase == "recruit" else [], orders=o)
    assert "contributions" in s.players["athens"].hand
    ctx = run_phase("diplomacy", s, "athens", dice=[2, 3], orders=o)
    assert "contributions" in s.discard and s.players["athens"].gold == 7 + 5
    kinds = [r["event"] for r in events(ctx)]
    assert kinds[:2] == ["card_played", "gold"]


def test_R_PH_DIP_cards_are_played_before_the_rolls_in_the_order_listed():
    s = make_state()
    give(s, "athens", "natural_allies", "coercion")
    ctx = play(s, {"card": "natural_allies", "target": "megara"}, "coercion", dice=[6, 6],
               diplomacy=["megara", "delos", "troy"])
    # Megara is Athenian before the rolls: no target; 2 rolls for Delos and Troy
    assert s.cities["megara"].controller == "athens"
    assert s.cities["delos"].controller == "athens" and s.cities["troy"].controller == "athens"
    assert events(ctx, "order_failed")[0]["section"] == "diplomacy"


# -- one function per effect kind -----------------------------------------------------------------------

def test_R_PH_DIP_card_gold_contributions_2d6_ransom_prisoners_1d6():
    s = make_state(gold=0)
    give(s, "athens", "contributions", "ransom_prisoners")
    ctx = play(s, "contributions", "ransom_prisoners", dice=[6, 5, 4])
    assert s.players["athens"].gold == 15
    assert [(g["who"], g["amount"]) for g in events(ctx, "gold")] == [("athens", 11), ("athens", 4)]


def test_R_PH_DIP_card_gold_internal_jealousies_the_opponent_loses_2d6_but_not_below_zero():
    s = make_state()
    s.players["sparta"].gold = 5
    give(s, "athens", "internal_jealousies")
    ctx = play(s, {"card": "internal_jealousies", "target": "sparta"}, dice=[4, 3])
    assert s.players["sparta"].gold == 0 and s.players["athens"].gold == 10
    assert events(ctx, "gold")[0]["amount"] == -5 and events(ctx, "gold")[0]["rolled"] == 7


def test_R_PH_DIP_card_control_city_natural_allies_takes_a_neutral_minor_city():
    s = make_state()
    give(s, "athens", "natural_allies")
    ctx = play(s, {"card": "natural_allies", "target": "Delos"})
    assert s.cities["delos"].controller == "athens" and not s.cities["delos"].hostile
    assert events(ctx, "card_played")[0]["target"] == "delos"
    assert events(ctx, "control")[0]["cause"] == "natural_allies"


def test_R_PH_DIP_REVOLT_card_revolt_exact_tribute_makes_an_enemy_minor_city_revolt():
    s = make_state()
    s.cities["megara"].controller = "sparta"
    give(s, "athens", "exact_tribute")
    ctx = play(s, {"card": "exact_tribute", "target": "megara"}, dice=[2])
    assert s.cities["megara"].controller is None
    assert events(ctx, "revolt")[0]["cause"] == "exact_tribute" and events(ctx, "neutralised")


def test_R_PH_REV_card_income_block_raids_on_a_neutral_city_lasts_until_the_players_own_next_turn():
    s = make_state()
    give(s, "athens", "raids")
    play(s, {"card": "raids", "target": "delos"})
    [e] = s.effects
    assert (e.kind, e.target, e.until_turn, e.until_player) == ("income_block", "delos", 2, "athens")


def test_R_PH_DIP_card_cannot_move_or_attack_and_truce_become_lasting_effects():
    s = make_state(players=("athens", "sparta", "troy"))
    give(s, "sparta", "political_rivalry", "social_division", "truce")
    ctx = play(s, {"card": "political_rivalry", "target": "athens"}, {"card": "social_division", "target": "troy"},
               "truce", player="sparta")
    got = [(e.kind, e.player, e.target, e.until_turn, e.until_player) for e in s.effects]
    assert got == [("cannot_move_or_attack", "sparta", "athens", 2, "athens"),
                   ("cannot_move_or_attack", "sparta", "troy", 1, "troy"),
                   ("truce", "sparta", None, 2, "sparta")]
    assert len(events(ctx, "effect_starts")) == 3


def test_R_PH_DIP_card_draw_cards_grand_strategy_draws_1d6_refilling_the_deck_if_needed():
    s = make_state()
    give(s, "athens", "grand_strategy")
    s.discard = s.deck[2:]
    s.deck = s.deck[:2]
    ctx = play(s, "grand_strategy", dice=[4])
    assert len(s.players["athens"].hand) == 4
    assert events(ctx, "reshuffle") and events(ctx, "draw")[0]["private_to"] == "athens"
    # played first, so the reshuffled discard pile holds Grand Strategy itself
    assert s.discard == [] and "grand_strategy" in s.deck


def test_R_PH_DIP_card_draw_cards_the_hand_may_exceed_the_limit_until_the_next_draw_phase():
    s = make_state()
    give(s, "athens", "grand_strategy", "spy", "coup", "truce", "raids", "plague")
    play(s, "grand_strategy", dice=[6])
    assert len(s.players["athens"].hand) == 11


def test_R_PH_DIP_card_look_at_hand_spy_is_seen_by_the_spy_only():
    s = make_state()
    give(s, "athens", "spy")
    give(s, "sparta", "coup", "truce")
    ctx = play(s, {"card": "spy", "target": "sparta"})
    [ev] = events(ctx, "hand_seen")
    assert ev["hand"] == ["coup", "truce"] and ev["of"] == "sparta" and ev["private_to"] == "athens"


def test_R_PH_DIP_card_leader_removed_assassination_kills_exiled_sends_away_for_2d6_turns():
    s = make_state()
    s.turn = 3
    army = add(s, "sparta", "army", "0404")
    victim = add(s, "sparta", "leader", "0404", carried_by=army.id)
    exile = add(s, "sparta", "leader", "0404")
    add(s, "athens", "leader", "0403")  # in the card player's sight: a card's target must be (docs/rules.md, Decision (fog, card targets))
    give(s, "athens", "assassination", "exiled")
    # another player's leaders by name: their ids are not the card player's to know (Decision (fog, card targets))
    ctx = play(s, {"card": "assassination", "target": victim.name}, {"card": "exiled", "target": exile.name},
               dice=[2, 5])
    assert victim.id not in s.units
    assert exile.away_until == 3 + 7 and exile.carried_by is None
    assert [e["until"] for e in events(ctx, "leader_removed")] == [None, 10]


def test_R_SET_3_card_election_discards_an_own_leader_and_gains_a_new_one_at_home():
    s = make_state()
    old = add(s, "athens", "leader", "0404")
    give(s, "athens", "election")
    # new leader: the 1st free name, 1D6 4 (two skills), 1D100 10 (Oratory), 1D100 90 (Resolve)
    ctx = play(s, {"card": "election", "target": old.id}, dice=[1, 4, 10, 90])
    assert old.id not in s.units
    new = s.units[events(ctx, "new_leader")[0]["unit"]]
    assert new.hex == "0302" and new.skills == ["oratory", "resolve"] and new.owner == "athens"


def test_R_PH_DIP_card_election_without_a_city_fails_whole():
    s = make_state()
    s.cities["athens"].controller = "sparta"
    old = add(s, "athens", "leader", "0404")
    give(s, "athens", "election")
    ctx = play(s, {"card": "election", "target": old.id})
    assert old.id in s.units and "election" in s.players["athens"].hand
    assert "no city" in events(ctx, "order_failed")[0]["reason"]


def test_R_PH_DIP_card_election_needs_an_own_leader():
    s = make_state()
    theirs = add(s, "sparta", "leader", "0404")
    give(s, "athens", "election")
    ctx = play(s, {"card": "election", "target": theirs.id})
    assert "one of your leaders" in events(ctx, "order_failed")[0]["reason"]


def test_R_PH_REV_card_razed_counters_coup_puts_1d6_on_the_opponents_home_city_at_most_6_in_all():
    s = make_state()
    s.cities["sparta"].razed = 3
    give(s, "athens", "coup")
    ctx = play(s, {"card": "coup", "target": "sparta"}, dice=[5])
    assert s.cities["sparta"].razed == 6
    ev = events(ctx, "razed_added")[0]
    assert (ev["rolled"], ev["added"]) == (5, 3)


def test_R_PH_UPK_card_upkeep_roll_plague_every_army_and_rowers_in_the_city_rolls_at_plus_2():
    s = make_state()
    a = add(s, "sparta", "army", "0505")
    r = add(s, "sparta", "rowers", "0505")
    add(s, "sparta", "leader", "0505")
    give(s, "athens", "plague")
    ctx = play(s, {"card": "plague", "target": "sparta"}, dice=[4, 3])
    assert a.id not in s.units and r.starvation == 1
    assert [e["total"] for e in events(ctx, "disbanded") + events(ctx, "starvation")] == [6, 5]


def test_R_PH_UPK_card_upkeep_roll_desertions_every_army_and_rowers_of_the_stack_rolls():
    s = make_state()
    a1 = add(s, "sparta", "army", "0404", starvation=1)
    a2 = add(s, "sparta", "army", "0404")
    add(s, "athens", "army", "0405")
    give(s, "athens", "desertions")
    play(s, {"card": "desertions", "target": "0404"}, dice=[5, 5])  # their stack by its hex
    assert a1.id not in s.units and a2.starvation == 1


def test_R_PH_UPK_card_starvation_counter_on_every_unit_in_a_besieged_city():
    s = make_state()
    add(s, "athens", "army", "0504")  # next to Sparta: under siege
    a = add(s, "sparta", "army", "0505")
    watch(s, "athens", "sparta")  # the city and all around it in sight: a card aimed at a besieged city needs it
    give(s, "athens", "starvation")
    play(s, {"card": "starvation", "target": "sparta"})
    assert a.starvation == 1
    s2 = make_state()
    add(s2, "athens", "leader", "0504")  # sees Sparta, besieges nothing (a card's target must be in sight)
    watch(s2, "athens", "sparta")
    give(s2, "athens", "starvation")
    ctx = play(s2, {"card": "starvation", "target": "sparta"})
    assert "is not under siege now: no enemy Army, Rowers, manned Fleet, pirate or barbarian is in or next to it" \
        in events(ctx, "order_failed")[0]["reason"]
    s3 = make_state()  # a neutral city is never under siege (R-PH-REV), whoever stands next to it
    add(s3, "athens", "army", sorted(TINY.neighbours[TINY.cities["megara"].hex])[0])
    watch(s3, "athens", "megara")
    give(s3, "athens", "starvation")
    ctx = play(s3, {"card": "starvation", "target": "megara"})
    assert events(ctx, "order_failed")[0]["reason"].endswith(
        "Megara is neutral: a neutral city is never under siege (R-PH-REV)")


def test_R_PH_DIP_card_remove_baggage_short_supplies_removes_1d6_baggage_of_the_stack():
    s = make_state()
    bags = [add(s, "sparta", "baggage", "0404") for _ in range(4)]
    add(s, "sparta", "army", "0404")
    add(s, "athens", "leader", "0403")  # in the card player's sight: a card's target must be (docs/rules.md, Decision (fog, card targets))
    give(s, "athens", "short_supplies")
    play(s, {"card": "short_supplies", "target": "0404"}, dice=[3])
    assert [b.id in s.units for b in bags] == [False, False, False, True]


def test_R_PH_SECOND_card_navigation_roll_storms_sinks_ships_on_5_6_with_all_aboard():
    s = make_state()
    s.players["sparta"].traits = ["sea_worthy"]
    f1 = add(s, "athens", "fleet", "0807")
    r1 = add(s, "athens", "rowers", "0807", carried_by=f1.id)
    f2 = add(s, "sparta", "fleet", "0807")
    t = add(s, "sparta", "transport", "0807")
    give(s, "athens", "storms")
    ctx = play(s, {"card": "storms", "target": "0807"}, dice=[5, 5, 6])
    assert f1.id not in s.units and r1.id not in s.units  # 5: sunk with its Rowers
    assert f2.id in s.units  # 5 - 1 (Sea Worthy) = 4
    assert t.id not in s.units
    assert [n["total"] for n in events(ctx, "navigation")] == [5, 4, 5]
    assert events(ctx, "sunk")[0]["lost"] == [r1.id]
    assert not [u for u in s.units.values() if u.type is UnitType.FLEET and u.owner == "athens"]
