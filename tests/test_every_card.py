"""Every one of the 88 cards does what its line of the seed says, at the right moment, in batch play: one
``test_card[<id>]`` per card (docs/rules.md, "Cards, leader skills and city traits", points at each).

The expected numbers are written here from the seed's text and the scripted dice, not read from the card data,
so a wrong data row fails its test.  Battle cards are played by the attacker in the attack order and by the
defender from standing ``defence_cards`` (R-BAT-5, R-STAND-1), and refused where they do nothing.  Durations
("this turn", "next turn", "2D6 turns", Truce) are checked over whole game turns in batch (R-TURN-3).

``test_card_in_orders[<id>]`` (at the end) checks every card against the order checker: accepted at its
timing, from the own-turn sections and from standing orders where that applies, and refused with a message
at a wrong timing and with a wrong target.  ``test_checker_gap`` lists what the checker does not say yet.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from pbem.model import UnitType

from effect_scenarios import card_label, fight, of, turns
from scenario import TABLES, add, events, give, make_state, orders, run_phase, watch

ROWS: dict[str, Callable[[str], None]] = {}


def row(*cards: str):
    def deco(fn):
        for c in cards:
            assert c not in ROWS, c
            ROWS[c] = fn
        return fn
    return deco


@pytest.mark.parametrize("card", sorted(TABLES.cards))
def test_card(card):
    ROWS[card](card)


def test_every_card_has_its_row_and_no_row_is_left_over():
    assert sorted(ROWS) == sorted(TABLES.cards) and len(ROWS) == 88


def played(s, card: str, by: str) -> None:
    """The card left ``by``'s hand for the discard pile."""
    assert card in s.discard and card not in s.players[by].hand


def play(s, *uses, player="athens", dice=(), diplomacy=()):
    """Own-turn cards of ``orders.cards`` (played at the start of the Diplomacy phase)."""
    o = orders(player, cards=[u if isinstance(u, dict) else {"card": u} for u in uses], diplomacy=list(diplomacy))
    return run_phase("diplomacy", s, player, dice=list(dice), orders=o)


# -- battle totals (R-BAT-5): the card's dice added to or taken from a total, once -------------------------

# Dice of a battle with one unit a side (see effect_scenarios): before the cards, and the loser's casualty roll.
# "att": Athens plays the card in the attack order; "def": Sparta plays it from standing defence_cards
# (land: anywhere, if_needed; sea: for the hex, if_needed; city: for the hex, not if_needed, as Sparta leads).
BASE_DICE = {("att", "land"): [5, 5], ("def", "land"): [9, 2], ("att", "sea"): [5, 5], ("def", "sea"): [9, 2],
             ("att", "city"): [5, 5, 3], ("def", "city"): [9, 2, 1]}
DEFENCE_ENTRY = {"land": lambda c: c, "sea": lambda c: {"card": c, "hex": "0501"},
                 "city": lambda c: {"card": c, "hex": "0506", "if_needed": False}}

# card: [(who plays, situation, the card's scripted dice, change to (attack total, defence total))];
# a change of None: the card is refused there (it does nothing, or is not that side's card).
BATTLE_TOTALS = {
    "break_formation": [("att", "land", [7], (7, 0)), ("def", "sea", [7], (0, 7))],
    "savage_fighting": [("att", "sea", [4], (4, 0)), ("def", "land", [6], (0, 6))],
    "determined_resistance": [("def", "land", [8], (0, 8)), ("def", "city", [3], (0, 3)), ("att", "land", [], None)],
    "allies_leave": [("att", "land", [6], (0, -6)), ("def", "sea", [6], (-6, 0))],
    "disorganization": [("att", "sea", [9], (0, -9)), ("def", "land", [2], (-2, 0))],
    "strong_garrison": [("def", "city", [9], (0, 9)), ("def", "land", [], None), ("att", "city", [], None)],
    "night_raid": [("att", "land", [10], (10, 0)), ("att", "sea", [3], (3, 0)), ("def", "land", [], None)],
    "narrow_channel": [("def", "sea", [4, 6], (0, 10)), ("def", "land", [], None)],
    "narrow_defile": [("def", "land", [5, 5], (0, 10)), ("def", "sea", [], None)],
    "reconnaissance": [("att", "land", [3], (3, 0)), ("def", "land", [3], (0, 3))],
    "elite_units": [("att", "city", [6], (6, 0)), ("def", "sea", [1], (0, 1))],
    "outflank": [("att", "sea", [2], (2, 0)), ("def", "city", [10], (0, 10))],
    "reinforce_wings": [("def", "land", [3, 4], (0, 7)), ("def", "sea", [], None)],
    "treachery": [("att", "land", [8], (8, 0)), ("def", "land", [8], (0, 8))],
    "attack_beached_ships": [("att", "sea", [6, 7], (13, 0)), ("att", "land", [], None)],
    "surprise_attack": [("att", "land", [2, 3], (5, 0)), ("att", "city", [10, 10], (20, 0)),
                        ("def", "land", [], None)],
    "tactical_ruse": [("def", "land", [2, 3], (0, 5)), ("def", "sea", [6, 6], (0, 12)), ("att", "land", [], None)],
    "military_blunder": [("att", "land", [8, 9], (0, -17)), ("def", "sea", [1, 2], (-3, 0))],
    "right_flank_drift": [("att", "land", [5], (5, 0)), ("def", "land", [4], (0, 4)), ("att", "sea", [], None)],
    "sapping": [("att", "city", [7], (7, 0)), ("att", "land", [], None)],
    "siege_works": [("att", "city", [4], (4, 0)), ("att", "land", [], None)],
    "siege_artillery": [("att", "city", [4], (4, 0)), ("def", "city", [2], (0, 2)), ("att", "land", [], None)],
}


def battle_with(card: str | None, who: str, where: str, card_dice: list[int]):
    cards = {"attack_cards": [card]} if who == "att" and card else \
        {"defence_cards": [DEFENCE_ENTRY[where](card)]} if card else {}
    return fight(where, dice=BASE_DICE[who, where] + card_dice + [1], **cards)


def check_battle_total(card: str) -> None:
    for who, where, card_dice, change in BATTLE_TOTALS[card]:
        player = "athens" if who == "att" else "sparta"
        if change is None:
            if who == "att":  # the attack order fails before any die; the card stays in hand
                f = fight(where, dice=[], attack_cards=[card])
                assert f.battle is None and f.failed(), (card, where)
            else:  # the standing card is not played and stays in hand
                f = fight(where, dice=BASE_DICE[who, where] + [1], defence_cards=[DEFENCE_ENTRY[where](card)])
                assert f.battle["cards"] == []
            assert card in f.state.players[player].hand, (card, who, where)
            continue
        base = battle_with(None, who, where, [])
        f = battle_with(card, who, where, card_dice)
        got = (f.total("att") - base.total("att"), f.total("def") - base.total("def"))
        assert got == change, (card, who, where, got)
        [bonus] = f.bonuses("att" if change[0] else "def", card_label(card))
        assert bonus["rolls"] == card_dice and bonus["value"] == sum(change)
        [log] = f.battle["cards"]
        assert (log["card"], log["by"]) == (card, player)
        played(f.state, card, player)


for _card in BATTLE_TOTALS:
    ROWS[_card] = check_battle_total


# -- roll modifiers on battle rolls (R-BAT-2, R-BAT-5) -------------------------------------------------------

# card: [(who plays, situation, the player's units there, the card's modifier on each unit's roll, or None:
# refused there)].  The other side has one unit.  Athens wins every one of these battles.
ROLL_MODIFIERS = {
    "superior_numbers": [("att", "land", ("army", "rowers"), {"army": 2, "rowers": 2}),
                         ("def", "sea", ("fleet", "transport"), {"fleet": 2, "transport": 2})],
    "pitched_battle": [("att", "sea", ("fleet", "transport"), {"fleet": 2, "transport": 2}),
                       ("def", "land", ("army", "rowers"), {"army": 2, "rowers": 2})],
    "boarding_actions": [("att", "sea", ("fleet", "transport"), {"fleet": 3, "transport": 0}),
                         ("def", "sea", ("fleet", "transport"), {"fleet": 3, "transport": 0}),
                         ("att", "land", ("army",), None)],
    "strong_position": [("def", "land", ("army", "rowers"), {"army": 3, "rowers": 0}),
                        ("def", "sea", ("fleet",), None), ("att", "land", ("army",), None)],
    "diekplus_circle": [("def", "sea", ("fleet", "transport"), {"fleet": 3, "transport": 0}),
                        ("def", "land", ("army",), None), ("att", "sea", ("fleet",), None)],
}


def check_roll_modifier(card: str) -> None:
    for who, where, units, expect in ROLL_MODIFIERS[card]:
        player = "athens" if who == "att" else "sparta"
        if who == "att":
            kw = {"attackers": units, "attack_cards": [card]}
            dice = [5] * len(units) + [1] + [1]  # Athens' rolls, Sparta's one roll, Sparta's casualty roll
        else:
            kw = {"defenders": units, "defence_cards": [DEFENCE_ENTRY[where](card)]}
            dice = [9] + [1] * len(units) + [1] * len(units)
        if expect is None:
            f = fight(where, dice=[] if who == "att" else dice, **kw)
            assert (f.battle is None and f.failed()) if who == "att" else f.battle["cards"] == []
            assert card in f.state.players[player].hand, (card, who, where)
            continue
        base = fight(where, dice=dice, **{k: v for k, v in kw.items() if not k.endswith("cards")})
        f = fight(where, dice=dice, **kw)
        assert f.modifiers(who, card_label(card)) == expect, (card, who, where)
        assert f.total(who) - base.total(who) == sum(expect.values())
        assert f.total("def" if who == "att" else "att") == base.total("def" if who == "att" else "att")
        played(f.state, card, player)


for _card in ROLL_MODIFIERS:
    ROWS[_card] = check_roll_modifier


# -- casualty roll modifiers (R-BAT-3) -----------------------------------------------------------------------

# card: the change to the casualty rolls: +1 the player's own units' (played by the side that loses: a 4
# becomes 5, a retreat), -1 the opponent's (played by the side that wins: a 5 becomes 4, destroyed).
CASUALTY = {"withdrawal": 1, "delaying_action": 1, "escape": 1, "skirmish": 1, "block_escape": -1,
            "cavalry_pursuit": -1}


def check_casualty(card: str) -> None:
    change = CASUALTY[card]
    die = 4 if change > 0 else 5
    # the attacker plays it (land): it loses with +1, or wins with -1 on the defender's roll
    f = fight("land", dice=([2, 9] if change > 0 else [9, 2]) + [die], attack_cards=[card])
    [c] = f.casualties()
    assert c["owner"] == ("athens" if change > 0 else "sparta")
    assert c["modifiers"] == [{"source": card_label(card), "value": change}] and c["total"] == die + change
    assert c["result"] == ("retreat" if change > 0 else "destroyed")
    played(f.state, card, "athens")
    # the defender plays it from standing orders (sea): if_needed while losing (+1); at once to win (-1)
    entry = {"card": card} if change > 0 else {"card": card, "if_needed": False}
    f = fight("sea", dice=([9, 2] if change > 0 else [2, 9]) + [die], attackers=("fleet",), defenders=("fleet",),
              defence_cards=[entry])
    [c] = f.casualties()
    assert c["owner"] == ("sparta" if change > 0 else "athens")
    assert c["modifiers"] == [{"source": card_label(card), "value": change}] and c["total"] == die + change
    assert c["result"] == ("retreat" if change > 0 else "destroyed")
    played(f.state, card, "sparta")


for _card in CASUALTY:
    ROWS[_card] = check_casualty


# -- diplomacy rolls (R-PH-DIP) ------------------------------------------------------------------------------

@row("coercion", "intrigue", "political_ties", "racial_ties", "colonial_ties", "bribes", "artful_diplomacy",
     "ideological_ties", "intervene", "promise_of_clemency", "liberators", "negotiations")
def one_more_roll(card):
    s = make_state()
    give(s, "athens", card)
    ctx = play(s, card, dice=[1, 1], diplomacy=["megara", "delos", "troy"])
    rolls = events(ctx, "diplomacy_roll")
    assert [r["of"] for r in rolls] == [2, 2], "1 free + 1 for the card"
    assert "no diplomacy roll left (2 this turn: 1 free, +1 from cards you played)" in events(ctx, "order_failed")[0]["reason"]
    played(s, card, "athens")
    # "this turn": the next Diplomacy phase has 1 roll again
    ctx = run_phase("diplomacy", s, "athens", dice=[1], orders=orders("athens", diplomacy=["megara", "delos"]))
    assert [r["of"] for r in events(ctx, "diplomacy_roll")] == [1]


@row("threatened", "defiance", "atrocities", "brutality", "massacre", "enslavement", "suspicious", "disaffected")
def one_less_roll(card):
    s = make_state()  # turn order: athens, sparta
    give(s, "athens", card)
    t1, t2 = turns(s, [{"athens": {"cards": [{"card": card, "target": "sparta"}]},
                        "sparta": {"diplomacy": ["megara"]}},
                       {"athens": {}, "sparta": {"diplomacy": ["megara"]}}],
                   dice=[1, 1, 1, 1, 3])  # the experience rolls; Sparta's one roll in turn 2
    [start] = of(t1, "effect_starts", "athens")
    assert (start["effect"], start["by"], start["target"], start["value"]) == ("diplomacy_rolls", "athens", "sparta",
                                                                                -1)
    assert (start["until_turn"], start["until_player"]) == (1, "sparta"), "Sparta's next Diplomacy phase: turn 1"
    assert not of(t1, "diplomacy_roll", "sparta")
    assert "no diplomacy roll left (0 this turn: 1 free, -1 from cards played against you)" in of(t1, "order_failed", "sparta")[0]["reason"]
    [end] = of(t1, "effect_ends", "sparta")
    assert end["why"] == "used at this Diplomacy phase" and end["until_player"] == "sparta"
    assert [r["of"] for r in of(t2, "diplomacy_roll", "sparta")] == [1]
    played(s, card, "athens")


# -- cities: control, revolt, income (R-PH-DIP, R-PH-DIP-REVOLT, R-PH-REV) -----------------------------------

@row("natural_allies", "formal_agreement", "for_the_common_defense", "alliance", "ambassador")
def control_city(card):
    s = make_state()
    give(s, "athens", card)
    ctx = play(s, {"card": card, "target": "megara"})
    assert s.cities["megara"].controller == "athens" and not s.cities["megara"].hostile
    assert events(ctx, "control")[0]["cause"] == card and not events(ctx, "diplomacy_roll")
    played(s, card, "athens")
    s = make_state()  # a city another player controls is no neutral city: refused, the card stays in hand
    s.cities["megara"].controller = "sparta"
    give(s, "athens", card)
    ctx = play(s, {"card": card, "target": "megara"})
    assert "not a neutral minor city" in events(ctx, "order_failed")[0]["reason"]
    assert s.cities["megara"].controller == "sparta" and card in s.players["athens"].hand


@row("revolt", "exact_tribute", "install_governments", "install_garrisons")
def city_revolts(card):
    s = make_state()
    s.cities["megara"].controller = "sparta"
    army = add(s, "sparta", "army", "0506")
    give(s, "athens", card)
    # 1D3 = 2 rebels, 10 + 10 against the Army's 1 + 5 (city; no garrison against rebels); its casualty roll 1
    ctx = play(s, {"card": card, "target": "megara"}, dice=[2, 10, 10, 1, 1])
    [r] = events(ctx, "revolt")
    assert (r["cause"], r["rebels"], r["negated"]) == (card, 2, False)
    [b] = events(ctx, "battle")
    assert (b["battle"], b["attack_total"], b["defence_total"]) == ("revolt", 20, 6)
    assert army.id not in s.units and s.cities["megara"].controller is None
    played(s, card, "athens")


@row("economic_blockade")
def economic_blockade(card):
    # Sparta (second) blocks Athens' home city: Athens' next player-turn is in game turn 2
    s = make_state()
    give(s, "sparta", card)
    t1, t2, t3 = turns(s, [{"athens": {}, "sparta": {"cards": [{"card": card, "target": "athens"}]}},
                           {"athens": {}, "sparta": {}}, {"athens": {}, "sparta": {}}], dice=[1] * 6)
    assert [e["amount"] for e in of(t1, "income", "athens")] == [7]
    [start] = of(t1, "effect_starts")
    assert (start["effect"], start["target"], start["until_turn"], start["until_player"]) == \
        ("income_block", "athens", 2, "athens")
    assert not of(t2, "income", "athens")
    assert "Economic Blockade blocks its income" in of(t2, "no_income", "athens")[0]["reason"]
    assert of(t2, "effect_ends", "athens")[0]["why"] == "used at this Revenue phase"
    assert [e["amount"] for e in of(t3, "income", "athens")] == [7]
    played(s, card, "sparta")


@row("raids")
def raids(card):
    # Athens (first) raids Megara, a Spartan city: Sparta's next player-turn is later in game turn 1
    s = make_state()
    s.cities["megara"].controller = "sparta"
    give(s, "athens", card)
    t1, t2 = turns(s, [{"athens": {"cards": [{"card": card, "target": "megara"}]}, "sparta": {}},
                       {"athens": {}, "sparta": {}}], dice=[1] * 4)
    [start] = of(t1, "effect_starts")
    assert (start["target"], start["until_turn"], start["until_player"]) == ("megara", 1, "sparta")
    assert [(e["city"], e["amount"]) for e in of(t1, "income", "sparta")] == [("sparta", 7)]
    assert of(t1, "no_income", "sparta")[0]["city"] == "megara"
    assert [(e["city"], e["amount"]) for e in of(t2, "income", "sparta")] == [("sparta", 7), ("megara", 3)]
    played(s, card, "athens")


# -- gold, cards, hands ----------------------------------------------------------------------------------------

@row("contributions", "ransom_prisoners")
def gain_gold(card):
    dice = {"contributions": [3, 4], "ransom_prisoners": [5]}[card]  # 2D6, 1D6
    s = make_state(gold=10)
    give(s, "athens", card)
    ctx = play(s, card, dice=dice)
    assert s.players["athens"].gold == 10 + sum(dice)
    assert [(g["who"], g["amount"]) for g in events(ctx, "gold")] == [("athens", sum(dice))]
    played(s, card, "athens")


@row("internal_jealousies")
def internal_jealousies(card):
    s = make_state(gold=10)
    give(s, "athens", card)
    play(s, {"card": card, "target": "sparta"}, dice=[3, 4])  # 2D6 = 7
    assert s.players["sparta"].gold == 3 and s.players["athens"].gold == 10
    played(s, card, "athens")


@row("treasure")
def treasure(card):
    # Athens takes neutral Megara (its Army 1 + 5, garrison 1 + 5) with two Armies (10 + 10): 1D10 = 7 gold
    for where in ("attack", "cards"):
        s = make_state(gold=0)
        give(s, "athens", card)
        a1, a2 = add(s, "athens", "army", "0405"), add(s, "athens", "army", "0507")
        attack = {"units": [a1.id, a2.id], "target": "0506", "cards": [card] if where == "attack" else []}
        o = orders("athens", land_battle=[attack], cards=[card] if where == "cards" else [])
        ctx = run_phase("land_battle", s, "athens", dice=[10, 10, 1, 1, 7], orders=o)
        assert s.cities["megara"].controller == "athens"
        assert s.players["athens"].gold == 7 and events(ctx, "gold")[0]["source"] == card
        if where == "cards":
            assert [(d["section"], d["index"]) for d in events(ctx, "order_done")][-1] == ("cards", 0)
        played(s, card, "athens")
    # no capture: not played, and the report says so for the cards list
    for where in ("attack", "cards"):
        s = make_state(gold=0)
        give(s, "athens", card)
        a = add(s, "athens", "army", "0405")
        attack = {"units": [a.id], "target": "0506", "cards": [card] if where == "attack" else []}
        ctx = run_phase("land_battle", s, "athens", dice=[1, 1, 1, 1],
                        orders=orders("athens", land_battle=[attack], cards=[card] if where == "cards" else []))
        assert card in s.players["athens"].hand and s.players["athens"].gold == 0
        if where == "cards":
            assert "you captured none this turn" in events(ctx, "order_failed")[-1]["reason"]


@row("grand_strategy")
def grand_strategy(card):
    s = make_state()
    give(s, "athens", card, "spy")
    ctx = play(s, card, dice=[3])  # 1D6 = 3
    [d] = events(ctx, "draw")
    assert d["count"] == 3 and sorted(s.players["athens"].hand) == sorted(["spy"] + d["cards"])
    assert d["private_to"] == "athens", "the cards drawn are shown to their player only"
    played(s, card, "athens")


@row("spy")
def spy(card):
    s = make_state()
    give(s, "athens", card)
    give(s, "sparta", "coup", "truce", "raids")
    ctx = play(s, {"card": card, "target": "sparta"})
    [seen] = events(ctx, "hand_seen")
    assert seen["hand"] == ["coup", "truce", "raids"] and seen["of"] == "sparta"
    assert seen["private_to"] == "athens", "only the spy's own report shows the hand"
    assert s.players["sparta"].hand == ["coup", "truce", "raids"]
    played(s, card, "athens")


# -- leaders ---------------------------------------------------------------------------------------------------

@row("assassination")
def assassination(card):
    s = make_state()
    victim = add(s, "sparta", "leader", "0505", skills=["historian"])
    add(s, "athens", "leader", "0504")  # in the card player's sight: a card's target must be (docs/rules.md, Decision (fog, card targets))
    give(s, "athens", card)
    ctx = play(s, {"card": card, "target": victim.name})  # another's leader by name (Decision (fog, card targets))
    assert victim.id not in s.units and events(ctx, "leader_removed")[0]["until"] is None
    played(s, card, "athens")


@row("exiled")
def exiled(card):
    """2D6 turns counted in the leader's owner's player-turns: Sparta (second) exiles an Athenian leader in
    turn 1 for 2 turns; Athens' next two player-turns (turns 2 and 3) are without it; it is back at the start of
    Athens' turn 4, at home."""
    s = make_state()
    leader = add(s, "athens", "leader", "0402", skills=["oratory"])
    add(s, "sparta", "leader", "0403")  # in the card player's sight: a card's target must be (docs/rules.md, Decision (fog, card targets))
    give(s, "sparta", card)
    dip = {"diplomacy": ["megara", "delos"]}  # the leader's Oratory: 2 rolls while it is in play
    logs = turns(s, [{"athens": {}, "sparta": {"cards": [{"card": card, "target": leader.name}]}},
                     {"athens": dip, "sparta": {}}, {"athens": {}, "sparta": {}}],
                 dice=[1, 1, 1, 1] + [1, 1, 1] + [1, 1])  # experience rolls; 2D6 = 2; Athens' one roll
    assert [r["of"] for r in of(logs[1], "diplomacy_roll", "athens")] == [1], "away: no Oratory"
    [removed] = of(logs[0], "leader_removed")
    assert (removed["until"], removed["until_player"], removed["turns"]) == (4, "athens", 2)
    [start] = of(logs[0], "effect_starts")
    assert (start["effect"], start["target"], start["until_turn"], start["until_player"]) == \
        ("leader_removed", leader.id, 3, "athens"), "its last player-turn away: Athens' in turn 3"
    assert leader.away_until == 4 and not of(logs[2], "leader_returns")
    [end] = of(logs[2], "effect_ends", "sparta")  # Athens' turn 3 is over
    assert (end["target"], end["why"]) == (leader.id, "expired")
    t4 = turns(s, [{"athens": dip, "sparta": {}}], dice=[1, 1, 1, 1])[0]
    [back] = of(t4, "leader_returns", "athens")
    assert [r["of"] for r in of(t4, "diplomacy_roll", "athens")] == [2, 2]
    assert back["unit"] == leader.id and leader.away_until is None and leader.hex == "0302"
    played(s, card, "sparta")


@row("election")
def election(card):
    s = make_state()
    old = add(s, "athens", "leader", "0404")
    give(s, "athens", card)
    # the new leader: the first free name, 1D6 = 1 (one skill), 1D100 = 86 (Statecraft)
    ctx = play(s, {"card": card, "target": old.id}, dice=[1, 1, 86])
    assert old.id not in s.units
    [new] = events(ctx, "new_leader")
    leader = s.units[new["unit"]]
    assert leader.owner == "athens" and leader.hex == "0302" and leader.skills == ["statecraft"]
    played(s, card, "athens")


@row("failure")
def failure(card):
    # named in the attack: the winning attacker removes a leader of the beaten defenders
    f = fight("land", dice=[9, 2, 1], attack_cards=[{"card": card, "target": "SPA-L1"}],
              prepare=lambda s: add(s, "sparta", "leader", "0503"))
    assert "SPA-L1" not in f.state.units
    assert events(f.ctx, "leader_fate")[0]["fate"] == "removed"
    played(f.state, card, "athens")
    # from standing reactions: the winning defender removes a leader of the beaten attackers
    f = fight("land", dice=[2, 9, 1], reactions=[{"card": card, "target": "ATH-L1"}],
              prepare=lambda s: add(s, "athens", "leader", "0402"))
    assert "ATH-L1" not in f.state.units
    played(f.state, card, "sparta")
    # a leader whose side won is not discarded: the card stays in hand
    f = fight("land", dice=[9, 2, 1], reactions=[{"card": card, "target": "ATH-L1"}],
              prepare=lambda s: add(s, "athens", "leader", "0402"))
    assert "ATH-L1" in f.state.units and card in f.state.players["sparta"].hand
    # nor a leader that was not in the battle
    f = fight("land", dice=[9, 2, 1], attack_cards=[{"card": card, "target": "SPA-L1"}],
              prepare=lambda s: add(s, "sparta", "leader", "0505"))
    assert "SPA-L1" in f.state.units and card in f.state.players["athens"].hand


# -- moves and attacks: who may not ----------------------------------------------------------------------------

@row("political_rivalry", "social_division")
def cannot_move_or_attack(card):
    """Played by Athens (first) on Sparta: Sparta's next player-turn (later in turn 1) moves and attacks nothing;
    Sparta's turn 2 is free.  Played by Sparta on Athens: Athens' turn 2 is blocked, turn 3 free."""
    s = make_state()
    army = add(s, "sparta", "army", "0504")
    give(s, "athens", card)
    blocked = {"first_move": [{"units": [army.id], "path": ["0503"]}],
               "land_battle": [{"units": [army.id], "target": "0403"}]}
    t1, t2 = turns(s, [{"athens": {"cards": [{"card": card, "target": "sparta"}]}, "sparta": blocked},
                       {"athens": {}, "sparta": {"first_move": [{"units": [army.id], "path": ["0503"]}]}}],
                   dice=[1] * 4)
    [start] = of(t1, "effect_starts")
    assert (start["target"], start["until_turn"], start["until_player"]) == ("sparta", 1, "sparta")
    fails = of(t1, "order_failed", "sparta")
    assert [f["section"] for f in fails] == ["first_move", "land_battle"]
    assert all(f"{TABLES.cards[card].name}: your units may not move or attack" in f["reason"] for f in fails)
    assert of(t2, "effect_ends", "athens")[0]["why"] == "expired"
    assert army.hex == "0503" and of(t2, "moved", "sparta")
    played(s, card, "athens")
    # the other way round: Sparta plays after Athens' turn 1, so it is Athens' turn 2 that is blocked
    s = make_state()
    a = add(s, "athens", "army", "0302")
    give(s, "sparta", card)
    there = {"first_move": [{"units": [a.id], "path": ["0402"]}]}
    back = {"first_move": [{"units": [a.id], "path": ["0302"]}]}
    t1, t2, t3 = turns(s, [{"athens": there, "sparta": {"cards": [{"card": card, "target": "athens"}]}},
                           {"athens": back, "sparta": {}}, {"athens": back, "sparta": {}}], dice=[1] * 6)
    assert of(t1, "moved", "athens") and not of(t2, "moved", "athens") and of(t3, "moved", "athens")
    assert of(t1, "effect_starts")[0]["until_turn"] == 2 and a.hex == "0302"


@row("truce")
def truce(card):
    """Athens plays Truce in turn 1: no one attacks until the end of Athens' turn 2 (Athens' own attacks
    included); Sparta attacks again in its turn 2."""
    s = make_state()
    a = add(s, "athens", "army", "0403")  # Forest, +3 in defence
    for _ in range(3):
        add(s, "athens", "baggage", "0403", carried_by=a.id)  # its upkeep, far from Athens
    sp = add(s, "sparta", "army", "0504")
    give(s, "athens", card)
    athens_attacks = {"land_battle": [{"units": [a.id], "target": "0504"}]}
    sparta_attacks = {"land_battle": [{"units": [sp.id], "target": "0403"}]}
    t1, t2 = turns(s, [{"athens": {"cards": [card], **athens_attacks}, "sparta": sparta_attacks},
                       {"athens": athens_attacks, "sparta": sparta_attacks}],
                   dice=[1, 1, 1, 1] + [1, 9, 1])  # turn 2: Sparta's attack 1, Athens' defence 9 + 3, casualty 1
    [start] = of(t1, "effect_starts")
    assert (start["effect"], start["until_turn"], start["until_player"]) == ("truce", 2, "athens")
    for log, player in ((t1, "athens"), (t1, "sparta"), (t2, "athens")):
        assert "Truce (played by athens): no one may attack" in of(log, "order_failed", player)[0]["reason"]
    assert of(t2, "effect_ends", "sparta")[0]["why"] == "expired"
    [b] = of(t2, "battle", "sparta")
    assert b["attacker"] == "sparta" and sp.id not in s.units
    played(s, card, "athens")


@row("hesitation")
def hesitation(card):
    """A reaction from standing orders: the target stack's attack is cancelled and it may not attack again this
    player-turn; the effect ends with the attacker's player-turn."""
    f = fight("land", dice=[], reactions=[{"card": card, "target": "0402"}])
    assert f.battle is None and "the attack is cancelled: sparta played Hesitation" in f.failed()[0]
    [start] = events(f.ctx, "effect_starts")
    assert (start["effect"], start["by"], start["target"], start["until_turn"], start["until_player"]) == \
        ("cannot_attack", "sparta", "0402", 1, "athens")
    played(f.state, card, "sparta")
    # aimed at another stack: not played, the attack goes on
    f = fight("land", dice=[9, 2, 1], reactions=[{"card": card, "target": "0404"}])
    assert f.battle is not None and card in f.state.players["sparta"].hand
    # in batch, from the standing orders of Sparta's file: the other Army of the stack may not attack either;
    # the effect ends as the next player-turn starts
    s = make_state()
    a1, a2 = add(s, "athens", "army", "0402"), add(s, "athens", "army", "0402")
    add(s, "sparta", "army", "0503")
    give(s, "sparta", card)
    [t1] = turns(s, [{"athens": {"land_battle": [{"units": [a1.id], "target": "0503"},
                                                 {"units": [a2.id], "target": "0503"}]},
                      "sparta": {"standing": {"reactions": [card]}}}],
                 dice=[1, 1, 1])  # the experience rolls; the upkeep roll of Sparta's Army, far from its cities
    reasons = [f["reason"] for f in of(t1, "order_failed", "athens")]
    assert "Hesitation" in reasons[0] and "the stack in 0402 may not attack this turn" in reasons[1]
    assert not of(t1, "battle") and of(t1, "effect_ends", "sparta")[0]["effect"] == "cannot_attack"


@row("executions")
def executions(card):
    """A reaction from standing orders (executions: true): the revolt Athens' card raises in Sparta's city
    does not happen."""
    s = make_state()
    s.cities["megara"].controller = "sparta"
    give(s, "athens", "install_garrisons")
    give(s, "sparta", card)
    [t1] = turns(s, [{"athens": {"cards": [{"card": "install_garrisons", "target": "megara"}]},
                      "sparta": {"standing": {"executions": True}}}], dice=[1, 1])
    [r] = of(t1, "revolt")
    assert r["negated"] is True and r["rebels"] == 0 and s.cities["megara"].controller == "sparta"
    assert [(c["card"], c["by"]) for c in of(t1, "card_played")] == [("install_garrisons", "athens"),
                                                                    (card, "sparta")]
    played(s, card, "sparta")


# -- movement (R-PH-MOVE) -----------------------------------------------------------------------------------------

PATH6 = ["0402", "0503", "0504", "0404", "0405", "0306"]  # six Clear hexes from Athens


@row("forced_march", "marathon")
def army_stack_plus_two(card):
    s = make_state()
    a = add(s, "athens", "army", "0302")
    ctx = run_phase("first_move", s, "athens", orders=orders("athens", first_move=[{"units": [a.id], "path": PATH6}]))
    assert a.hex == "0302" and "not enough movement points" in events(ctx, "order_failed")[0]["reason"]
    give(s, "athens", card)
    ctx = run_phase("first_move", s, "athens",
                    orders=orders("athens", first_move=[{"units": [a.id], "path": PATH6, "cards": [card]}]))
    assert a.hex == "0306" and events(ctx, "moved")[0]["allowance"] == 4 + 2
    played(s, card, "athens")
    # an "Army Stack" is the marching stack: its Rowers get the +2 too (they march as Armies do, R-PH-MOVE),
    # so a stack with Rowers moves 6 as well (a rules referee: the card said nothing of "Armies only")
    s = make_state()
    give(s, "athens", card)
    a, r = add(s, "athens", "army", "0302"), add(s, "athens", "rowers", "0302")
    ctx = run_phase("first_move", s, "athens",
                    orders=orders("athens", first_move=[{"units": [a.id, r.id], "path": PATH6, "cards": [card]}]))
    assert a.hex == r.hex == "0306" and events(ctx, "moved")[0]["allowances"] == {a.id: 6, r.id: 6}
    played(s, card, "athens")


@row("relieving_force")
def relieving_force(card):
    s = make_state()
    s.cities["megara"].controller = "athens"
    add(s, "sparta", "army", "0507")  # next to Megara: Megara is under siege
    give(s, "athens", card)
    a, r = add(s, "athens", "army", "0302"), add(s, "athens", "rowers", "0302")
    path = PATH6[:5]  # ends in 0405, next to Megara: 5 points
    ctx = run_phase("first_move", s, "athens",
                    orders=orders("athens", first_move=[{"units": [a.id, r.id], "path": path, "cards": [card]}]))
    assert a.hex == r.hex == "0405"
    assert events(ctx, "moved")[0]["allowances"] == {a.id: 6, r.id: 6}
    played(s, card, "athens")
    # not in aid of a city under siege: refused, the card stays in hand
    s = make_state()
    s.cities["megara"].controller = "athens"
    give(s, "athens", card)
    a = add(s, "athens", "army", "0302")
    ctx = run_phase("first_move", s, "athens",
                    orders=orders("athens", first_move=[{"units": [a.id], "path": path, "cards": [card]}]))
    assert a.hex == "0302" and "under siege" in events(ctx, "order_failed")[0]["reason"]


# -- upkeep and the board -----------------------------------------------------------------------------------------

@row("plague")
def plague(card):
    s = make_state()
    a, r = add(s, "sparta", "army", "0505"), add(s, "sparta", "rowers", "0505", starvation=1)
    give(s, "athens", card)
    # upkeep rolls at +2: the Army 3 + 2 = 5 (a starvation counter); the Rowers 3 + 1 + 2 = 6 (disbands)
    ctx = play(s, {"card": card, "target": "sparta"}, dice=[3, 3])
    assert a.starvation == 1 and r.id not in s.units
    assert [e["total"] for e in events(ctx, "starvation") + events(ctx, "disbanded")] == [5, 6]
    played(s, card, "athens")


@row("desertions")
def desertions(card):
    s = make_state()
    a1, a2 = add(s, "sparta", "army", "0404"), add(s, "sparta", "army", "0404")
    other = add(s, "sparta", "army", "0503")
    add(s, "athens", "leader", "0403")  # in the card player's sight: a card's target must be (docs/rules.md, Decision (fog, card targets))
    give(s, "athens", card)
    ctx = play(s, {"card": card, "target": "0404"}, dice=[5, 6])  # their stack by hex; upkeep rolls, no modifier
    assert a1.starvation == 1 and a2.id not in s.units and other.starvation == 0
    assert len(events(ctx, "starvation") + events(ctx, "disbanded")) == 2
    played(s, card, "athens")


@row("starvation")
def starvation(card):
    s = make_state()
    add(s, "athens", "army", "0504")  # next to Sparta: it is under siege
    a, r = add(s, "sparta", "army", "0505"), add(s, "sparta", "rowers", "0505", starvation=2)
    ldr = add(s, "sparta", "leader", "0505")
    watch(s, "athens", "sparta")  # the city and all around it in sight (Decision (fog, card targets))
    give(s, "athens", card)
    play(s, {"card": card, "target": "sparta"})
    assert (a.starvation, r.starvation, ldr.starvation) == (1, 3, 0)
    played(s, card, "athens")


@row("short_supplies")
def short_supplies(card):
    s = make_state()
    army = add(s, "sparta", "army", "0404")
    bags = [add(s, "sparta", "baggage", "0404", carried_by=army.id) for _ in range(3)]
    bags += [add(s, "sparta", "baggage", "0404") for _ in range(2)]
    add(s, "athens", "leader", "0403")  # in the card player's sight: a card's target must be (docs/rules.md, Decision (fog, card targets))
    give(s, "athens", card)
    play(s, {"card": card, "target": "0404"}, dice=[4])  # 1D6 = 4 of the 5
    assert sum(b.id in s.units for b in bags) == 1
    played(s, card, "athens")


@row("storms")
def storms(card):
    s = make_state()
    f = add(s, "sparta", "fleet", "0501")
    add(s, "sparta", "rowers", "0501", carried_by=f.id)
    t = add(s, "sparta", "transport", "0501")
    a = add(s, "sparta", "army", "0501", carried_by=t.id)
    add(s, "athens", "transport", "0401")  # in the card player's sight: a card's target must be (docs/rules.md, Decision (fog, card targets))
    give(s, "athens", card)
    ctx = play(s, {"card": card, "target": "0501"}, dice=[4, 5])  # navigation rolls: 4 safe, 5 sinks
    assert f.id in s.units and t.id not in s.units and a.id not in s.units
    assert [(n["unit"], n["sunk"]) for n in events(ctx, "navigation")] == [(f.id, False), (t.id, True)]
    played(s, card, "athens")


@row("coup")
def coup(card):
    s = make_state()
    give(s, "athens", card)
    ctx = play(s, {"card": card, "target": "sparta"}, dice=[4])  # 1D6 = 4
    assert s.cities["sparta"].razed == 4 and events(ctx, "razed_added")[0]["city"] == "sparta"
    played(s, card, "athens")
    ctx = run_phase("revenue", s, "sparta")
    assert events(ctx, "no_income")[0]["reason"] == "it is razed" and s.cities["sparta"].razed == 3


# -- the order checker: every card at its timing, from the own turn and from standing orders -------------------

TINY_MAP = Path(__file__).parent / "fixtures" / "tiny.yaml"


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    """A 2-player campaign on the tiny map, Athens first in turn order with every card in hand:
    ATH-A1 in 0404 next to SPA-A1 in 0504 (Clear); ATH-A2 in 0405 next to Megara (0506, Spartan, SPA-A2 in it,
    so Megara is under siege); ATH-F1 (manned) in 0401 next to SPA-F1 (manned) in 0501; ATH-A3 in Athens,
    which SPA-A3 in 0303 besieges; Troy and Delos neutral."""
    from pbem.campaign import create
    from pbem.model import Unit as U
    from pbem.storage import Campaign
    made = create(tmp_path_factory.mktemp("cards") / "c", ["athens", "sparta"], seed="7", map_file=TINY_MAP)
    camp = made.campaign
    st = camp.load_state()
    st.turn_order = ["athens", "sparta"]
    for p in st.players.values():
        p.hand = []
    st.deck, st.discard = [], []
    st.players["athens"].hand = sorted(TABLES.cards)

    def to(uid, h):
        for u in [st.units[uid], *st.cargo(uid)]:
            st.place(u, h)

    def new(owner, t, h, carried_by=None):
        t = UnitType(t)
        return st.add_unit(U(st.new_unit_id(st.players[owner].abbr, t), t, owner, h, carried_by=carried_by)).id

    to("ATH-A1", "0404")
    to("SPA-A1", "0504")
    to("ATH-A2", "0405")
    st.cities["megara"].controller = "sparta"
    to("SPA-A2", "0506")
    to("ATH-F1", "0401")
    assert new("sparta", "fleet", "0501") == "SPA-F1"
    new("sparta", "rowers", "0501", "SPA-F1")
    to("SPA-A3", "0303")
    assert new("athens", "army", "0302") == "ATH-A3"
    st.units["SPA-L1"].name = "Brasidas"  # named as cards name others' leaders (their ids are not Athens' to know)
    watch(st, "athens", "megara")  # Megara and all around it in sight: a card aimed at a besieged city needs it
    camp.save_state(st)
    head = f"campaign: {st.campaign}\nturn: 1\nplayer: athens\nsecret: {made.secrets['athens']}\n"
    return Campaign.open(camp.root), head


def check(campaign, body: str) -> list[tuple[str, str, str]]:
    """The findings, but the Draw phase's discard warning (Athens holds all 88 cards here, far over the hand
    limit: tests/test_checker_hand.py checks that warning) and the navigation roll of ATH-F1, which the
    fixture puts at sea in 0401 and no order here moves (tests/test_chk2_review.py checks that warning)."""
    from pbem.checker import check_text
    camp, head = campaign
    return [(f.severity, f.path, f.message) for f in check_text(head + body, "o.yaml", camp).findings
            if "over your hand limit" not in f.message
            and not f.message.startswith("ATH-F1 ends the turn at sea in 0401")]


ATTACKS = {"land": 'land_battle: [{{units: [ATH-A1], target: "0504", cards: [{c}]}}]\n',
           "city": 'land_battle: [{{units: [ATH-A2], target: "0506", cards: [{c}]}}]\n',
           "sea": 'sea_battle: [{{units: [ATH-F1], target: "0501", cards: [{c}]}}]\n'}
GOOD_TARGET = {"player": "sparta", "neutral_city": "troy", "enemy_city": "megara", "enemy_minor_city": "megara",
               "besieged_city": "megara", "city": "megara", "hex": '"0501"', "stack": '"0504"', "leader": "Brasidas",
               "own_leader": "ATH-L1"}
# a wrong target for each kind, and what the checker says
BAD_TARGET = {"player": ("athens", "names yourself; it needs an opponent"),
              "neutral_city": ("athens", "you control Athens"),
              "enemy_city": ("athens", "you control Athens"),
              "enemy_minor_city": ("sparta", "Sparta is a home city"),
              # (Troy, out of Athens' sight, is only out of sight now: a warning, docs/rules.md, fog, card targets)
              "besieged_city": ("atlantis", "'atlantis' is not a city of this map"),
              "city": ("atlantis", "'atlantis' is not a city of this map"),
              "hex": ('"9999"', "'9999' is not a hex of this map"),
              "stack": ("ATH-A99", "ATH-A99 is not one of your units"),
              "leader": ("nobody", "'nobody' is not a leader's name or id"),
              "own_leader": ("SPA-L1", "'SPA-L1' is not one of your leaders")}


def arena(card) -> str:
    """The battle where an attack card counts: at sea (sea battles, against ships, Fleets), for a city, else land."""
    es = card.effects
    if any(e.get("battle") == "sea" or e.get("vs") == "ships" or e.get("units") == "fleet" for e in es):
        return "sea"
    return "city" if any(e.get("vs") == "city" for e in es) else "land"


def places(card) -> tuple[list[str], list[tuple[str, str, str]]]:
    """(order file bodies that play the card at its timing, [(body, path of the error, what it says)] that play it
    at a wrong timing or with a wrong target).  "What it says" may be a tuple: the checker's message now, and the
    clearer one of the change CHECKER_GAPS asks for."""
    c, t = card.id, card.timing
    phase, turn, role, trigger = t["phase"], t["turn"], t["role"], t["trigger"]
    ok: list[str] = []
    bad: list[tuple[str, str, str]] = []
    attack_ok = turn in ("own", "any") and role in ("attack", "any")
    defence_ok = turn in ("other", "any") and role in ("defense", "any")
    if trigger == "revolt":
        ok.append("standing: {executions: true}\n")
        bad += [(f"cards: [{c}]\n", "cards[0]", "is played against a revolt in another player's turn"),
                (f"standing: {{reactions: [{c}]}}\n", "standing.reactions[0]", "is played by standing.executions"),
                (f"standing: {{defence_cards: [{c}]}}\n", "standing.defence_cards[0]",
                 "is not a defence card: it is played by standing.executions")]
    elif trigger == "attack":
        ok += [f"standing: {{reactions: [{c}]}}\n", f'standing: {{reactions: [{{card: {c}, target: "0404"}}]}}\n']
        bad += [(f"cards: [{c}]\n", "cards[0]", "is played in other players' turns"),
                (f"standing: {{defence_cards: [{c}]}}\n", "standing.defence_cards[0]", "is not a defence card"),
                (ATTACKS["land"].format(c=c), "land_battle[0].cards[0]",
                 ("is a defender's card", "is played when an attack on you is declared")),
                (f"standing: {{reactions: [{{card: {c}, target: nonsense}}]}}\n", "standing.reactions[0].target",
                 "'nonsense' is not a hex or unit id")]
    elif trigger == "battle_lost":
        ok += [ATTACKS["land"].format(c=f"{{card: {c}, target: SPA-L1}}"),
               f"standing: {{reactions: [{{card: {c}, target: SPA-L1}}]}}\n"]
        bad += [(f"standing: {{defence_cards: [{c}]}}\n", "standing.defence_cards[0]", "is not a defence card"),
                (f"cards: [{{card: {c}, target: SPA-L1}}]\n", "cards[0].card",
                 ("is played in other players' turns", "is played right after a battle your side wins")),
                (ATTACKS["land"].format(c=c), "land_battle[0].cards[0]", "needs a target"),
                (f"standing: {{reactions: [{{card: {c}, target: nobody}}]}}\n", "standing.reactions[0].target",
                 "'nobody' is not a leader's name or id")]
    elif trigger == "city_captured":
        ok += [ATTACKS["city"].format(c=c), f"cards: [{c}]\n" + ATTACKS["city"].replace(", cards: [{c}]", "").format()]
        bad += [(f"standing: {{defence_cards: [{c}]}}\n", "standing.defence_cards[0]", "is not a defence card"),
                (ATTACKS["sea"].format(c=c), "sea_battle[0].cards[0]", "is played in the land battle phase only"),
                (f"standing: {{reactions: [{c}]}}\n", "standing.reactions[0]", "is not played in other players' turns")]
    elif phase == "move":
        move = 'first_move: [{{units: [ATH-A3], path: ["0402"]{cards}}}]\n'
        ok += [move.format(cards=f", cards: [{c}]"),
               f"cards: [{{card: {c}, target: ATH-A3}}]\n" + move.format(cards="")]
        bad += [(ATTACKS["land"].format(c=c), "land_battle[0].cards[0]", "is a movement card"),
                (f"standing: {{defence_cards: [{c}]}}\n", "standing.defence_cards[0]", "is not a defence card"),
                (f"cards: [{c}]\n", "cards[0]", "is a movement card: name a unit of the stack it speeds up"),
                (f"cards: [{{card: {c}, target: ATH-A99}}]\n", "cards[0].target", "ATH-A99 is not one of your units")]
    elif phase == "battle":
        where = arena(card)
        bad.append((f"cards: [{c}]\n", "cards[0]", "is a battle card, not played on its own"))
        if attack_ok:
            ok.append(ATTACKS[where].format(c=c))
            if where != "land":  # an attack where it does nothing
                other = "city" if where == "sea" and any(e.get("vs") == "ships" for e in card.effects) else "land"
                other = "land" if where == "city" else other
                section = "sea_battle" if other == "sea" else "land_battle"
                bad.append((ATTACKS[other].format(c=c), f"{section}[0].cards[0]", "does nothing in this battle"))
            elif any(e.get("battle") == "land" for e in card.effects):
                bad.append((ATTACKS["sea"].format(c=c), "sea_battle[0].cards[0]", "counts in land battles only"))
        else:
            bad.append((ATTACKS[where].format(c=c), f"{'sea' if where == 'sea' else 'land'}_battle[0].cards[0]",
                        "is a defender's card"))
        if defence_ok:
            hex_id = {"land": "0504", "city": "0506", "sea": "0501"}[where]  # a hex where Sparta may defend
            ok += [f"standing: {{defence_cards: [{c}]}}\n",
                   f'standing: {{defence_cards: [{{card: {c}, hex: "{hex_id}", if_needed: false}}]}}\n']
        else:
            bad.append((f"standing: {{defence_cards: [{c}]}}\n", "standing.defence_cards[0]",
                        "is an attacker's card, not a defence card"))
    else:  # own-turn cards: the Diplomacy phase or any phase
        target = "" if card.target == "none" else f", target: {GOOD_TARGET[card.target]}"
        ok.append(f"cards: [{{card: {c}{target}}}]\n")
        bad += [(ATTACKS["land"].format(c=c), "land_battle[0].cards[0]", "is not a battle card"),
                (f"standing: {{defence_cards: [{c}]}}\n", "standing.defence_cards[0]", "is not a defence card"),
                (f"standing: {{reactions: [{c}]}}\n", "standing.reactions[0]", "is not played in other players' turns")]
        if card.target != "none":
            raw, says = BAD_TARGET[card.target]
            bad += [(f"cards: [{{card: {c}, target: {raw}}}]\n", "cards[0].target", says),
                    (f"cards: [{c}]\n", "cards[0]", "needs a target")]
    return ok, bad


@pytest.mark.parametrize("card", sorted(TABLES.cards))
def test_card_in_orders(card, campaign):
    """The checker accepts the card at its timing (own-turn sections, standing orders) and refuses it, with a
    message at the card, at a wrong timing and with a wrong target."""
    ok, bad = places(TABLES.cards[card])
    assert ok and bad
    for body in ok:
        # (a movement card's move may leave its Army unfed: the checker's supply heads-up is not about the card; a
        # card that counts only if its side wins, standing with the default if_needed: true, is warned of, as
        # tests/test_newplayer_checker.py checks)
        assert [f for f in check(campaign, body) if "at your next Upkeep" not in f[2]
                and "is used up for nothing" not in f[2]] == [], body
    for body, path, says in bad:
        got = check(campaign, body)
        says = (says,) if isinstance(says, str) else says
        assert any(sev == "error" and p == path and any(x in msg for x in says) for sev, p, msg in got), (body, got)


# Cards at a wrong timing or with a wrong target that the checker must refuse with a clear message.
CHECKER_GAPS = [
    ("hesitation-in-an-attack-hints-reactions",
     'land_battle: [{units: [ATH-A1], target: "0504", cards: [hesitation]}]\n', "land_battle[0].cards[0]",
     "standing.reactions"),
    ("executions-in-an-attack-hints-executions",
     'land_battle: [{units: [ATH-A1], target: "0504", cards: [executions]}]\n', "land_battle[0].cards[0]",
     "standing.executions"),
    ("failure-in-cards-says-name-it-in-the-attack",
     "cards: [{card: failure, target: SPA-L1}]\n", "cards[0].card", "cards of your attack"),
    ("failure-on-an-own-leader-in-an-attack",
     'land_battle: [{units: [ATH-A1], target: "0504", cards: [{card: failure, target: ATH-L1}]}]\n',
     "land_battle[0].cards[0].target", "an enemy leader"),
    ("failure-on-an-own-leader-in-reactions",
     "standing: {reactions: [{card: failure, target: ATH-L2}]}\n", "standing.reactions[0].target",
     "an enemy leader"),
    ("hesitation-aimed-at-an-own-unit",
     "standing: {reactions: [{card: hesitation, target: ATH-A1}]}\n", "standing.reactions[0].target",
     "an enemy stack"),
    ("sea-defence-card-for-a-land-hex",
     'standing: {defence_cards: [{card: narrow_channel, hex: "0504"}]}\n', "standing.defence_cards[0].hex",
     "never counts"),
    ("land-defence-card-for-a-water-hex",
     'standing: {defence_cards: [{card: narrow_defile, hex: "0501"}]}\n', "standing.defence_cards[0].hex",
     "never counts"),
    ("city-defence-card-for-a-hex-without-a-city",
     'standing: {defence_cards: [{card: strong_garrison, hex: "0504"}]}\n', "standing.defence_cards[0].hex",
     "never counts"),
]


@pytest.mark.parametrize("body,path,says", [c[1:] for c in CHECKER_GAPS], ids=[c[0] for c in CHECKER_GAPS])
def test_checker_refuses_a_misplaced_card(body, path, says, campaign):
    from pbem.checker import check_text
    camp, head = campaign
    got = [(f.severity, f.path, f.message + " " + (f.hint or "")) for f in
           check_text(head + body, "o.yaml", camp).findings]
    assert any(sev == "error" and p == path and says in text for sev, p, text in got), got
