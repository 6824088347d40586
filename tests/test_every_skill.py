"""Every one of the 25 leader skills does what its line of the seed says: one ``test_skill[<id>]`` per skill
(docs/rules.md, "Cards, leader skills and city traits", points at each).

A skill acts for the stack its leader is in (R-BAT-2), or player-wide while the leader is in play (diplomacy
rolls, hand size, income, victory, recruitment).  Expected numbers are written from the seed's text.  The
battle-roll skills use the one-unit-a-side battles of ``test_battle_modifiers.fight``.
"""
from __future__ import annotations

from typing import Callable

import pytest

from effect_scenarios import fight
from scenario import TABLES, add, context, events, give, make_state, orders, run_phase
from test_battle_modifiers import FIXED, fight as modifier_fight

ROWS: dict[str, Callable[[str], None]] = {}


def row(*skills: str):
    def deco(fn):
        for k in skills:
            assert k not in ROWS, k
            ROWS[k] = fn
        return fn
    return deco


@pytest.mark.parametrize("skill", sorted(TABLES.skills))
def test_skill(skill):
    ROWS[skill](skill)


def test_every_skill_has_its_row_and_no_row_is_left_over():
    assert sorted(ROWS) == sorted(TABLES.skills) and len(ROWS) == 25


# -- battle rolls (R-BAT-2) ------------------------------------------------------------------------------------

# skill: [(the leader's side, situation, modifier on its unit's roll)]; the other side gets nothing.
ROLL_MODIFIERS = {
    "strategist": [("att", "land", 1), ("def", "sea", 1), ("def", "city", 1)],
    "leadership": [("att", "land", 1), ("def", "sea", 1), ("att", "sea", 1)],
    "charisma": [("att", "land", 1), ("def", "sea", 1), ("def", "land", 1)],
    "resolve": [("att", "land", 1), ("def", "sea", 1), ("att", "city", 1)],
    "courage": [("def", "land", 2), ("def", "sea", 2), ("att", "land", 0)],
    "adventurous": [("att", "sea", 1), ("att", "land", 1), ("def", "land", 0)],
    "admiral": [("att", "sea", 2), ("def", "sea", 2), ("att", "land", 0)],
    "general": [("def", "land", 2), ("att", "city", 2), ("def", "sea", 0)],
    "siegecraft": [("att", "city", 2), ("def", "city", 2), ("def", "home", 2), ("att", "land", 0),
                   ("att", "sea", 0)],
}


def check_roll_modifier(skill: str) -> None:
    for holder, situation, value in ROLL_MODIFIERS[skill]:
        b = modifier_fight(holder, "skill", skill, situation)
        mine = (b["attack"] if holder == "att" else b["defence"])["units"][0]
        other = (b["defence"] if holder == "att" else b["attack"])["units"][0]
        got = [m for m in mine["modifiers"] if not m["source"].startswith(FIXED)]
        assert sum(m["value"] for m in got) == value, (skill, holder, situation, got)
        assert all(TABLES.skills[skill].name in m["source"] for m in got)
        assert not [m for m in other["modifiers"] if not m["source"].startswith(FIXED)]


for _skill in ROLL_MODIFIERS:
    ROWS[_skill] = check_roll_modifier


@row("heroism", "brilliance")
def battle_total_1d6(skill):
    label = f"{TABLES.skills[skill].name} (skill, "
    f = fight("land", dice=[5, 5, 4, 1], att_skills=[skill])  # the leader's 1D6 = 4
    assert f.total("att") == 5 + 4 and f.total("def") == 5
    [bonus] = f.side("att")["bonuses"]
    assert bonus["source"].startswith(label) and bonus["rolls"] == [4] and bonus["value"] == 4
    f = fight("sea", dice=[9, 2, 6, 1], def_skills=[skill])
    assert f.total("def") == 2 + 6 and f.total("att") == 9
    # a leader that is not in the battle's hexes adds nothing
    f = fight("land", dice=[5, 5, 1], prepare=lambda s: add(s, "athens", "leader", "0302", skills=[skill]))
    assert f.total("att") == 5 and f.side("att")["bonuses"] == []


# -- diplomacy (R-PH-DIP) --------------------------------------------------------------------------------------

@row("oratory", "judgment", "ambitious", "honorable", "politician", "intellectual", "intrigue", "benevolent",
     "diplomacy")
def one_more_diplomacy_roll(skill):
    s = make_state()
    leader = add(s, "athens", "leader", "0606", skills=[skill])  # anywhere on the board
    dip = orders("athens", diplomacy=["megara", "delos", "troy"])
    for _turn in (1, 2):  # every turn
        ctx = run_phase("diplomacy", s, "athens", dice=[1, 1], orders=dip)
        assert [r["of"] for r in events(ctx, "diplomacy_roll")] == [2, 2], "1 free + 1 for the leader"
    leader.away_until = 5  # exiled: away from play, no roll
    ctx = run_phase("diplomacy", s, "athens", dice=[1], orders=dip)
    assert [r["of"] for r in events(ctx, "diplomacy_roll")] == [1]


# -- player-wide: recruiting, hand, income, victory -----------------------------------------------------------

@row("organization")
def organization(skill):
    recruit = orders("athens", recruit=[{"city": "megara", "unit": "army"}, {"city": "megara", "unit": "army"},
                                        {"city": "athens", "unit": "army"}, {"city": "athens", "unit": "army"}])
    for with_leader in (True, False):
        s = make_state(gold=20)
        s.cities["megara"].controller = "athens"
        if with_leader:
            add(s, "athens", "leader", "0606", skills=[skill])  # Megara (0506) is the friendly city nearest
        ctx = run_phase("recruit", s, "athens", dice=[1], orders=recruit)
        done = [e["index"] for e in events(ctx, "order_done")]
        assert done == ([0, 1, 2] if with_leader else [0, 2]), "Megara: one more unit; Athens: one"


@row("logistics")
def logistics(skill):
    s = make_state(gold=0)  # no upkeep paid: every Army rolls
    add(s, "athens", "leader", "0503", skills=[skill])
    led, alone = add(s, "athens", "army", "0503"), add(s, "athens", "army", "0403")
    ctx = run_phase("upkeep", s, "athens", dice=[6, 6])
    assert led.starvation == 1 and alone.id not in s.units, "6 - 1 = 5 with the leader; 6 without"
    assert [e["total"] for e in events(ctx, "starvation")] == [5]
    # +1 movement point for the stack it moves with
    s = make_state()
    ldr = add(s, "athens", "leader", "0302", skills=[skill])
    a = add(s, "athens", "army", "0302")
    path = ["0402", "0503", "0504", "0404", "0405"]
    ctx = run_phase("first_move", s, "athens", orders=orders("athens", first_move=[{"units": [a.id], "path": path}]))
    assert a.hex == "0302" and events(ctx, "order_failed")
    ctx = run_phase("first_move", s, "athens",
                    orders=orders("athens", first_move=[{"units": [a.id, ldr.id], "path": path}]))
    assert a.hex == ldr.hex == "0405" and events(ctx, "moved")[0]["allowances"][a.id] == 5


@row("statecraft")
def statecraft(skill):
    for with_leader, limit in ((True, 8), (False, 7)):
        s = make_state()
        give(s, "athens", *s.deck[-7:])  # 7 + 2 drawn = 9
        if with_leader:
            add(s, "athens", "leader", "0302", skills=[skill])
        ctx = run_phase("draw", s, "athens")
        assert len(s.players["athens"].hand) == limit
        assert [(d["hand_limit"], len(d["cards"])) for d in events(ctx, "discard")] == [(limit, 9 - limit)]


@row("economics")
def economics(skill):
    s = make_state(gold=0)
    s.cities["megara"].controller = "athens"
    add(s, "athens", "leader", "0606", skills=[skill])
    ctx = run_phase("revenue", s, "athens")
    assert [(e["city"], e["amount"]) for e in events(ctx, "income")] == [("athens", 8), ("megara", 3)]


@row("historian")
def historian(skill):
    from pbem.phases import endturn
    s = make_state()
    s.last_turn = s.turn = 36
    s.cities["megara"].controller = "athens"
    add(s, "sparta", "leader", "0505", skills=[skill])
    s.players["sparta"].gold = 11
    ctx = context(s, "athens")
    ctx.player = ""
    endturn.resolve(ctx)
    rows = {r["player"]: r for r in s.standings}
    assert (rows["sparta"]["cities"], rows["sparta"]["victory_cities"], rows["sparta"]["score"]) == (1, 1, 2)
    assert s.winner == "sparta", "2 cities against 2: the tie goes to Sparta's gold"
