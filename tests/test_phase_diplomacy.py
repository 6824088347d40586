"""Diplomacy phase (R-PH-DIP, R-PH-DIP-REVOLT); roll table rows are in tests/cases/phases_1_5.

The revolt tests with defenders in the city run the real battle of ``pbem.battle.revolt_battle``
(R-BAT-1, R-BAT-3): ``test_R_PH_DIP_REVOLT_defenders_*``.
"""
import sys
import types

from pbem.dice import ScriptedDice
from pbem.phases import diplomacy
from scenario import add, assert_invariants, context, events, give, make_state, orders, run_phase


def dip(*targets, player="athens", cards=()):
    return orders(player, diplomacy=list(targets), cards=list(cards))


class ThenConstant(ScriptedDice):
    """Scripted dice, then every further die shows ``then`` (``"max"``: its highest face)."""

    def __init__(self, values, then):
        super().__init__(values)
        self.then = then

    def _draw(self, sides, purpose):
        if self.used >= len(self.values):
            return sides if self.then == "max" else min(self.then, sides)
        return super()._draw(sides, purpose)


def run_with(state, player, dice, o):
    ctx = context(state, player, orders=o)
    ctx.dice = ctx.log.dice = dice
    ctx.phase = ctx.log.phase = "diplomacy"
    diplomacy.resolve(ctx)
    ctx.log.flush_rolls()
    assert_invariants(state)
    return ctx


def test_R_PH_DIP_one_free_roll_extra_targets_fail():
    s = make_state()
    ctx = run_phase("diplomacy", s, "athens", dice=[6], orders=dip("megara", "delos"))
    assert s.cities["megara"].controller == "athens" and s.cities["delos"].controller is None
    [f] = events(ctx, "order_failed")
    assert f["index"] == 1 and "no diplomacy roll left (1 this turn: 1 free)" in f["reason"]


def test_R_PH_DIP_unused_rolls_are_not_made():
    s = make_state()
    s.players["athens"].traits = ["democracy"]
    ctx = run_phase("diplomacy", s, "athens", dice=[1], orders=dip("megara"))  # 2 rolls, 1 target: 1 die
    assert len(events(ctx, "diplomacy_roll")) == 1


def test_R_PH_DIP_extra_rolls_from_traits_of_home_and_minor_cities_leader_skills_and_cards():
    s = make_state()
    s.players["athens"].traits = ["democracy"]
    s.cities["troy"].controller = "athens"
    s.cities["troy"].trait = "code_of_laws"
    add(s, "athens", "leader", "0404", skills=["oratory", "judgment"])
    add(s, "athens", "leader", "0404", skills=["intrigue"], away_until=9)  # away: no roll
    give(s, "athens", "bribes")
    o = dip("megara", "delos", "megara", "delos", "megara", "delos", "megara",
            cards=[{"card": "bribes"}])
    ctx = run_phase("diplomacy", s, "athens", dice=[1] * 6, orders=o)  # 1 + 2 traits + 2 skills + 1 card
    rolls = events(ctx, "diplomacy_roll")
    assert len(rolls) == 6 and rolls[0]["of"] == 6
    assert [f["index"] for f in events(ctx, "order_failed")] == [6]
    assert "bribes" in s.discard and "bribes" not in s.players["athens"].hand
    assert events(ctx, "card_played")[0]["card"] == "bribes"


def test_R_PH_DIP_a_target_that_is_no_target_fails_and_uses_no_roll():
    s = make_state()
    s.cities["megara"].controller = "athens"  # own, not hostile
    o = dip("sparta", "megara", "atlantis", "athens", "delos")
    ctx = run_phase("diplomacy", s, "athens", dice=[6], orders=o)
    reasons = [f["reason"] for f in events(ctx, "order_failed")]
    assert "home city" in reasons[0] and "not hostile" in reasons[1] and "not a city" in reasons[2]
    assert "home city" in reasons[3]
    assert s.cities["delos"].controller == "athens"


def test_R_PH_DIP_a_home_city_is_never_a_target_even_a_captured_hostile_one():
    s = make_state()
    s.cities["sparta"].controller = "athens"
    s.cities["sparta"].hostile = True
    ctx = run_phase("diplomacy", s, "athens", orders=dip("sparta"))
    assert "home city" in events(ctx, "order_failed")[0]["reason"] and s.cities["sparta"].hostile


def test_R_PH_DIP_one_less_roll_cards_act_at_the_targets_next_diplomacy_phase_and_are_used_up():
    s = make_state()  # order: athens, sparta
    give(s, "athens", "threatened", "defiance")
    o = dip(cards=[{"card": "threatened", "target": "sparta"}, {"card": "defiance", "target": "sparta"}])
    run_phase("diplomacy", s, "athens", orders=o)
    assert [(e.kind, e.target, e.value, e.until_turn, e.until_player) for e in s.effects] == \
        [("diplomacy_rolls", "sparta", -1, 1, "sparta")] * 2
    s.players["sparta"].traits = ["democracy"]  # 1 + 1 - 2 = 0 rolls
    ctx = run_phase("diplomacy", s, "sparta", orders=dip("megara", player="sparta"))
    assert ("no diplomacy roll left (0 this turn: 1 free, +1 from traits and leaders, -2 from cards played against "
            "you)") in events(ctx, "order_failed")[0]["reason"]
    assert s.effects == [] and len(events(ctx, "effect_ends")) == 2
    ctx = run_phase("diplomacy", s, "sparta", dice=[1], orders=dip("megara", player="sparta"))
    assert len(events(ctx, "diplomacy_roll")) == 1  # used up: the next phase has its rolls back


def test_R_PH_DIP_rolls_never_below_zero():
    s = make_state(players=("sparta", "athens"))
    give(s, "athens", "threatened", "defiance")
    run_phase("diplomacy", s, "athens", orders=dip(cards=[{"card": "threatened", "target": "sparta"},
                                                          {"card": "defiance", "target": "sparta"}]))
    assert [e.until_turn for e in s.effects] == [2, 2]  # Sparta's next diplomacy phase is next turn
    s.players["sparta"].traits = ["high_culture"]
    ctx = run_phase("diplomacy", s, "sparta", orders=dip(player="sparta"))
    assert s.effects == [] and not events(ctx, "diplomacy_roll")


def test_R_PH_DIP_REVOLT_executions_in_the_controllers_hand_negates_the_revolt():
    s = make_state()
    s.cities["megara"].controller = "sparta"
    give(s, "sparta", "executions")
    ctx = run_phase("diplomacy", s, "athens", dice=[6], orders=dip("megara"))
    assert s.cities["megara"].controller == "sparta"
    assert "executions" in s.discard and s.players["sparta"].hand == []
    played = events(ctx, "card_played")[0]
    assert played["card"] == "executions" and played["by"] == "sparta" and played["target"] == "megara"
    assert events(ctx, "revolt")[0]["negated"] is True and not events(ctx, "neutralised")


def test_R_PH_DIP_REVOLT_standing_order_executions_false_keeps_the_card():
    s = make_state()
    s.cities["megara"].controller = "sparta"
    give(s, "sparta", "executions")
    s.players["sparta"].standing = {"executions": False}
    run_phase("diplomacy", s, "athens", dice=[6, 1], orders=dip("megara"))
    assert s.cities["megara"].controller is None and s.players["sparta"].hand == ["executions"]


def test_R_PH_DIP_REVOLT_calls_the_revolt_battle_when_the_controller_has_units_there(monkeypatch):
    """The contract with pbem.battle: revolt_battle(ctx, city, rebels) -> True if the city is lost (it decides
    which units hold the city, and rolls no die when none does); the city then goes neutral.  A city with no
    unit of its controller at all goes neutral with no battle."""
    calls = []

    def fake(result):
        def revolt_battle(ctx, city_id, rebels):
            calls.append((city_id, rebels))
            if result:  # the city is lost: its defenders are gone, as the real battle leaves it
                h = ctx.game_map.cities[city_id].hex
                for u in [u for u in ctx.state.units_at(h) if u.owner == ctx.state.cities[city_id].controller]:
                    ctx.state.remove_unit(u.id)
            return result
        return types.SimpleNamespace(revolt_battle=revolt_battle)

    for result, controller in ((False, "sparta"), (True, None)):
        s = make_state()
        s.cities["megara"].controller = "sparta"
        add(s, "sparta", "army", "0506")
        monkeypatch.setitem(sys.modules, "pbem.battle", fake(result))
        calls.clear()
        run_phase("diplomacy", s, "athens", dice=[6, 2], orders=dip("megara"))
        assert calls == [("megara", 2)] and s.cities["megara"].controller == controller
    s = make_state()
    s.cities["megara"].controller = "sparta"
    calls.clear()
    run_phase("diplomacy", s, "athens", dice=[6, 2], orders=dip("megara"))  # no unit there: no battle at all
    assert calls == [] and s.cities["megara"].controller is None


def test_R_PH_DIP_REVOLT_defenders_who_win_keep_the_city():
    s = make_state()
    s.cities["megara"].controller = "sparta"
    army = add(s, "sparta", "army", "0506")
    # diplomacy 6, 1D3 = 1 rebel; then every die 1: the rebel's 1 against the Army's 1 + 5 (city)
    ctx = run_with(s, "athens", ThenConstant([6, 1], 1), dip("megara"))
    assert s.cities["megara"].controller == "sparta" and army.id in s.units
    assert events(ctx, "battle") and not events(ctx, "neutralised")


def test_R_PH_DIP_REVOLT_defenders_who_lose_leave_the_city_neutral():
    s = make_state()
    s.cities["megara"].controller = "sparta"
    s.cities["megara"].hostile = True
    army = add(s, "sparta", "army", "0506")
    # diplomacy 6, 1D3 = 3 rebels; then every die its highest: 30 against 10 + 5; the Army's casualty roll 6
    ctx = run_with(s, "athens", ThenConstant([6, 3], "max"), dip("megara"))
    assert s.cities["megara"].controller is None and not s.cities["megara"].hostile
    assert army.id not in s.units or s.units[army.id].hex != "0506"
    assert events(ctx, "neutralised")[0]["was"] == "sparta"


def test_R_PH_DIP_REVOLT_a_leader_alone_does_not_hold_the_city():
    s = make_state()
    s.cities["megara"].controller = "sparta"
    add(s, "sparta", "leader", "0506")
    ctx = run_phase("diplomacy", s, "athens", dice=[6, 2], orders=dip("megara"))
    assert s.cities["megara"].controller is None and events(ctx, "neutralised")


def test_R_PH_DIP_the_roll_names_its_modifier_for_the_report():
    """+1 on a hostile city is the only modifier of the diplomacy roll; the event names it, as upkeep rolls do."""
    s = make_state()
    s.cities["megara"].controller = "sparta"
    s.cities["megara"].hostile = True
    ctx = run_phase("diplomacy", s, "athens", dice=[2], orders=dip("megara"))
    [r] = events(ctx, "diplomacy_roll")
    assert r["modifiers"] == [{"source": "hostile city", "value": 1}] and r["total"] == 3
    s.cities["megara"].hostile = False
    ctx = run_phase("diplomacy", s, "athens", dice=[2], orders=dip("megara"))
    [r] = events(ctx, "diplomacy_roll")
    assert r["modifiers"] == [] and r["total"] == 2
