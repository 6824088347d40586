"""Cards named in an attack order, at the wrong timing (R-BAT-5, R-TURN-4): the order is refused whole.

Found by tests/test_checker_agrees_orders.py: the checker said Treasure in a sea attack is an error (its
timing is the Land Battle phase), while the Sea Battle phase accepted the card and fought the battle.
"""
from __future__ import annotations

from scenario import add, events, give, make_state, orders, run_phase


def test_R_BAT_5_treasure_in_a_sea_attack_refuses_the_attack_and_stays_in_hand():
    s = make_state()
    f = add(s, "athens", "fleet", "0401")
    add(s, "athens", "rowers", "0401", carried_by=f.id)
    ef = add(s, "sparta", "fleet", "0501")
    add(s, "sparta", "rowers", "0501", carried_by=ef.id)
    give(s, "athens", "treasure")
    ctx = run_phase("sea_battle", s, "athens",
                    orders=orders("athens", sea_battle=[{"units": [f.id], "target": "0501", "cards": ["treasure"]}]))
    [failed] = events(ctx, "order_failed")
    assert "land battle phase only" in failed["reason"]
    assert not events(ctx, "battle") and "treasure" in s.players["athens"].hand
