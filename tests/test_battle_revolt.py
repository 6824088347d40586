"""revolt_battle (R-PH-DIP-REVOLT): rebels attack the controller's Armies and Rowers in a revolting city.

Called by the diplomacy phase as ``revolt_battle(ctx, city_id, rebels) -> bool``.  Megara (0506) is a minor
city (+5); the garrison does not defend against rebels.
"""
from __future__ import annotations

from pbem.battle import revolt_battle

from scenario import add, assert_invariants, context, events, give, make_state


def run(s, dice, city="megara", rebels=2, player="sparta"):
    ctx = context(s, player, dice)
    ctx.phase = ctx.log.phase = "diplomacy"
    result = revolt_battle(ctx, city, rebels)
    ctx.log.flush_rolls()
    assert ctx.dice.remaining == 0
    assert_invariants(s)
    return ctx, result


def test_R_PH_DIP_REVOLT_rebels_beat_the_garrison_army():
    s = make_state()
    s.cities["megara"].controller = "athens"
    a = add(s, "athens", "army", "0506")
    ctx, result = run(s, [10, 9, 3, 2])
    [b] = events(ctx, "battle")
    assert b["battle"] == "revolt" and b["attacker"] is None and b["defender"] == "athens"
    assert b["attack"]["total"] == 19 and b["defence"]["total"] == 8
    assert [u["type"] for u in b["defence"]["units"]] == ["army"], "no garrison against rebels"
    assert result is True and a.id not in s.units


def test_R_PH_DIP_REVOLT_defenders_win_rebels_vanish():
    s = make_state()
    s.cities["megara"].controller = "athens"
    a = add(s, "athens", "army", "0506")
    ctx, result = run(s, [2, 3, 1], rebels=2)
    assert result is False and a.hex == "0506"
    assert not events(ctx, "casualty")


def test_R_PH_DIP_REVOLT_defenders_retreat_city_is_lost():
    s = make_state()
    s.cities["megara"].controller = "athens"
    a = add(s, "athens", "army", "0506")
    ctx, result = run(s, [10, 1, 6], rebels=1)
    assert result is True and a.hex != "0506" and a.id in s.units


def test_R_PH_DIP_REVOLT_no_defender_no_dice():
    s = make_state()
    s.cities["megara"].controller = "athens"
    ldr = add(s, "athens", "leader", "0506")
    ctx, result = run(s, [], rebels=3)
    assert result is True and ldr.hex == "0506"


def test_R_PH_DIP_REVOLT_defender_standing_cards_apply():
    s = make_state()
    s.cities["megara"].controller = "athens"
    give(s, "athens", "strong_garrison")
    s.players["athens"].standing = {"defence_cards": ["strong_garrison"]}
    add(s, "athens", "army", "0506")
    ctx, result = run(s, [10, 1, 9], rebels=1)
    assert result is False and "strong_garrison" in s.discard
    [b] = events(ctx, "battle")
    assert b["defence"]["total"] == 1 + 5 + 9


def test_R_PH_DIP_REVOLT_rebels_get_R_BAT_1_hostile_city_bonus():
    """The rebels attack as a land battle: against a hostile city each adds +1 (R-BAT-1).  Rebel 8 +1 = 9 beats
    the Army's 3 +5 (city) = 8; without the hostility counter the same dice tie and the defender holds."""
    s = make_state()
    s.cities["megara"].controller = "athens"
    s.cities["megara"].hostile = True
    a = add(s, "athens", "army", "0506")
    ctx, result = run(s, [8, 3, 1], rebels=1)
    [b] = events(ctx, "battle")
    assert b["attack"]["total"] == 9 and b["defence"]["total"] == 8 and b["won_by"] == "attacker"
    assert b["attack"]["units"][0]["modifiers"] == [{"source": "hostile city", "value": 1}]
    assert result is True and a.id not in s.units

    s = make_state()
    s.cities["megara"].controller = "athens"
    a = add(s, "athens", "army", "0506")
    ctx, result = run(s, [8, 3], rebels=1)
    [b] = events(ctx, "battle")
    assert b["attack"]["total"] == 8 and b["won_by"] == "defender" and result is False
