"""A rules referee's findings on cards, skills and traits, with the lead's decisions (docs/rules.md):

- R-SET-4: a home city's new trait is re-rolled if the home city has it, its own or, kept: a controlled minor
  city's ("its controller's home city has that trait too while they control it"; the referee's reading that it
  should not be was not taken: tests/test_turn_structure.py);
- Starvation (docs/rules.md, Decision (fog, card targets)): a player who besieges the city themselves may play
  it with the city itself in sight; a siege only an unseen enemy makes still needs every hex around in sight;
- Hesitation (R-PH-LAND reactions): named for one stack of a combined attack, it cancels the attack but bars
  only that stack;
- R-PH-DRAW: two Statecraft leaders give a hand limit of 9 (each leader's +1 adds).
"""
from __future__ import annotations

from pbem import board
from pbem.visibility import sight
from scenario import TINY, add, events, give, make_state, orders, run_phase

FOG = "its target is not in your sight (a card's target must be in your sight when it is played)"


# -- R-SET-4: the experience roll's new trait ----------------------------------------------------------------

def test_R_SET_4_experience_trait_the_home_city_has_is_rerolled():
    """R-SET-4: a trait the home city itself has is rolled again (D66 14 Slavery, held; then 34 Cavalry)."""
    s = make_state()
    s.players["athens"].traits = ["slavery"]
    ctx = run_phase("recruit", s, "athens", dice=[10, 4, 1, 4, 3, 4], check=False)
    [new] = events(ctx, "new_trait")
    assert new["trait"] == "cavalry" and s.players["athens"].traits == ["slavery", "cavalry"]


# -- Starvation: the besieger's own siege (docs/rules.md, Decision (fog, card targets)) -----------------------

def test_starvation_playable_by_the_besieger_on_the_city_it_besieges():
    """Seed card: "Starvation  Put a starvation counter on all units in target besieged city."  Athens' Army
    next to Megara is what puts Megara under siege (R-PH-REV); three hexes around Megara are out of Athens'
    sight, but the siege is known from Athens' own Army, so the card is played: it tells nothing unseen."""
    s = make_state()
    s.cities["megara"].controller = "sparta"
    add(s, "athens", "army", "0405")  # next to Megara (0506): it is under siege, by this Army
    defender = add(s, "sparta", "army", "0506")
    assert board.under_siege(s, TINY, "megara")
    assert not all(h in sight(s, TINY, "athens") for h in TINY.around_city["megara"])
    give(s, "athens", "starvation")
    o = orders("athens", cards=[{"card": "starvation", "target": "megara"}])
    ctx = run_phase("diplomacy", s, "athens", orders=o)
    assert not events(ctx, "order_failed"), [f["reason"] for f in events(ctx, "order_failed")]
    assert defender.starvation == 1 and "starvation" in s.discard


def test_starvation_still_refused_where_only_an_unseen_enemy_besieges_the_city():
    """The same city seen from the same hex, but Athens' unit there besieges nothing (a leader, a Baggage: not
    combat units, R-PH-REV), and the siege is a Trojan Army's out of Athens' sight: the card fails with the one
    reason of the fog and stays in hand, as if nobody stood there."""
    for watcher in ("leader", "baggage"):
        s = make_state(players=("athens", "sparta", "troy"))
        s.cities["megara"].controller = "sparta"
        add(s, "athens", watcher, "0405")
        add(s, "troy", "army", "0606")  # next to Megara, out of Athens' sight
        assert board.under_siege(s, TINY, "megara") and "0606" not in sight(s, TINY, "athens")
        give(s, "athens", "starvation")
        o = orders("athens", cards=[{"card": "starvation", "target": "megara"}])
        ctx = run_phase("diplomacy", s, "athens", orders=o)
        [failed] = events(ctx, "order_failed")
        assert failed["reason"] == f"Starvation cannot be played: {FOG}", (watcher, failed["reason"])
        assert "starvation" in s.players["athens"].hand


# -- Hesitation on one stack of a combined attack (R-PH-LAND reactions) ---------------------------------------

def test_hesitation_named_for_one_stack_does_not_bar_the_other_stack():
    """Seed card: "Hesitation  Target stack may not attack this turn."  Sparta's standing Hesitation names the
    stack in 0402.  Athens' combined attack from 0402 and 0403 on 0503 includes that stack and is cancelled;
    the stack in 0403 is not the card's target, so its own attack on 0504 goes ahead.  The target stack stays
    barred: a later attack of another Army of 0402 fails."""
    s = make_state()
    a1 = add(s, "athens", "army", "0402")
    a2 = add(s, "athens", "army", "0403")
    a3 = add(s, "athens", "army", "0402")
    add(s, "sparta", "army", "0503")
    add(s, "sparta", "army", "0504")
    give(s, "sparta", "hesitation")
    s.players["sparta"].standing = {"reactions": [{"card": "hesitation", "target": "0402"}]}
    o = orders("athens", land_battle=[{"units": [a1.id, a2.id], "target": "0503"},
                                      {"units": [a2.id], "target": "0504"},
                                      {"units": [a3.id], "target": "0503"}])
    # the second attack: Athens 9, Sparta 2, Sparta's casualty roll 1
    ctx = run_phase("land_battle", s, "athens", dice=[9, 2, 1], orders=o, check=False)
    assert "hesitation" in s.discard
    fought = [(b["target"], b["attackers"]) for b in events(ctx, "battle")]
    assert fought == [("0504", [a2.id])], [f["reason"] for f in events(ctx, "order_failed")]
    reasons = [f["reason"] for f in events(ctx, "order_failed")]
    assert len(reasons) == 2 and "the attack is cancelled: sparta played Hesitation" in reasons[0]
    assert "the stack in 0402 may not attack this turn" in reasons[1]
    assert [e["target"] for e in events(ctx, "effect_starts")] == ["0402"]


# -- R-PH-DRAW: Statecraft of two leaders ------------------------------------------------------------------

def test_R_PH_DRAW_two_statecraft_leaders_give_a_hand_limit_of_9():
    """docs/rules.md, Decision (Statecraft, R-PH-DRAW): "Maximum hand size +1" is each leader's; two add, as the
    diplomacy skills do.  R-PH-DRAW's "(8 with Statecraft)" is the one-leader case."""
    s = make_state(deal=7)
    add(s, "athens", "leader", "0302", skills=["statecraft"])
    add(s, "athens", "leader", "0302", skills=["statecraft"])
    ctx = run_phase("draw", s, "athens")
    assert len(s.players["athens"].hand) == 9
    assert [(d["hand_limit"], len(d["cards"])) for d in events(ctx, "discard")] == []
