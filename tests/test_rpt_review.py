"""A new player's and a moderator's reviews of the reports (report.py, verify.py, the report templates)."""
from __future__ import annotations

from pbem import report, visibility

from scenario import TABLES, TINY, add, give, make_state, orders, run_phase

PLAYERS = ("athens", "sparta", "troy")


def context(before, after, records, viewer, turn=1):
    return report.build_context("t", turn, TINY, TABLES, after, before, records, viewer)


def text_report(ctx):
    """The text report with its lines joined (wrapped lines read as one)."""
    return " ".join(report.environment().get_template("report.txt.j2").render(**ctx).split())


def html_report(ctx):
    return " ".join(report.environment().get_template("report.html.j2").render(**ctx, map_svg="", css="").split())


# -- 1. a revolt in a city no unit of its controller holds: no battle ----------------------------------------

def unheld_revolt():
    """Sparta holds Megara with a Baggage only (it does not hold a city); Athens plays Revolt on it: 2 rebels."""
    s = make_state(players=PLAYERS, gold=10)
    s.cities["megara"].controller = "sparta"
    add(s, "sparta", "baggage", "0506")
    add(s, "athens", "army", "0302")
    give(s, "athens", "revolt")
    before = s.copy()
    ctx = run_phase("diplomacy", s, "athens", dice=[2],
                    orders=orders("athens", cards=[{"card": "revolt", "target": "megara"}]))
    assert s.cities["megara"].controller is None
    return before, s, ctx.log.records


def test_a_revolt_nobody_fought_is_not_told_as_a_battle():
    # a new player's review: "rebels total 0; defenders total 0; the rebels won", then "Attack (neutral):
    # total 0 / Defence (you): total 0 / Won by the attacker", for a city that rose with no one to fight
    before, after, records = unheld_revolt()
    for viewer, whose, against in (("sparta", "your", "you"), (None, "the Spartans'", "the Spartans")):
        ctx = context(before, after, records, viewer)
        [b] = ctx["battles"]
        assert b["title"] == (f"Revolt at 0506 Megara: 2 rebels rose against {against}; none of {whose} units held "
                              "the city (only Armies, Rowers, manned Fleets and loaded Transports do), so there was "
                              "no battle: Megara went neutral")
        for text in (text_report(ctx), html_report(ctx)):
            for fight in ("total 0", "Won by", "won", "Attack (", "Defence (", "no unit of the controller"):
                assert fight not in text, (viewer, fight)
            assert "Megara becomes neutral" in text and "seized by the rebels at 0506 Megara" in text
            assert "BATTLES" not in text and ">Battles<" not in text
        assert "REVOLTS Revolt at 0506 Megara" in text_report(ctx)
        assert "<h2>Revolts</h2>" in html_report(ctx)


def test_a_revolt_that_was_fought_keeps_its_battle():
    s = make_state(players=PLAYERS, gold=10)
    s.cities["megara"].controller = "sparta"
    add(s, "sparta", "army", "0506")
    add(s, "athens", "army", "0302")
    give(s, "athens", "revolt")
    before = s.copy()
    # 1 rebel rolls 2, the Army 9: put down
    ctx = run_phase("diplomacy", s, "athens", dice=[1, 2, 9],
                    orders=orders("athens", cards=[{"card": "revolt", "target": "megara"}]))
    text = text_report(context(before, s, ctx.log.records, "sparta"))
    assert "BATTLES Revolt at 0506 Megara: 1 rebel rose against you" in text
    assert "Won by you" in text and "so there was no battle" not in text


# -- 2. a draw from a list is no die: said as a player reads it ------------------------------------------------

def test_a_new_leaders_name_is_said_as_drawn_from_the_list_not_as_a_pick_die():
    # a new player's review: "die pick 103 of 180: leader name" under "New leader Lysicles (ATH-L4)"
    s = make_state(players=PLAYERS)
    add(s, "athens", "army", "0302")
    before = s.copy()
    # experience 1D10 10, 1D6 3: a leader; the 3rd free name; 1D6 1: one skill; 1D100 10: Oratory
    ctx = run_phase("recruit", s, "athens", dice=[10, 3, 3, 1, 10], orders=orders("athens"))
    records = list(ctx.log.records)
    # scripted dice log no pick; a game's Dice.choice logs it before the leader's skill dice, as here
    at = next(i for i, r in enumerate(records) if r.get("event") == "experience") + 1
    records.insert(at, {**records[at], "roll": {"die": "pick1of180", "result": 103, "purpose": "leader name"}})
    rep = context(before, s, records, "athens")
    for text in (text_report(rep), html_report(rep)):
        assert "the name, drawn from the list of 180 (103rd)" in text
        assert "pick 3" not in text and "die the name" not in text and "leader name" not in text
    assert "die 1D100 = 10: leader skill" in text_report(rep)


def test_ordinals_and_shuffles():
    from pbem.report import describe_roll, die_line, ordinal
    nm = report.Namer(TINY, TABLES, {"athens": {"name": "Athenians"}})
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 103, 111)] == \
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "103rd", "111th"]
    shuffle = describe_roll({"roll": {"die": "shuffle", "result": 49,
                                      "purpose": "reshuffle the discard pile into the deck"}}, nm)
    assert die_line(shuffle) == "reshuffle the discard pile into the deck: 49 cards, in a random order"
    assert die_line(describe_roll({"roll": {"die": "1D6", "result": 4, "purpose": "upkeep roll"}}, nm)) == \
        "die 1D6 = 4: upkeep roll"


# -- 3. a card given if_needed that the battle did not need -------------------------------------------------

def test_an_if_needed_card_a_real_battle_did_not_need_is_recorded_and_told_to_its_holder_alone():
    """The adjudicator writes ``cards_unplayed`` (battle.fight): Elite Units given if_needed, the attack won
    without it (dice 9 against 2), so it stays in hand, and the holder's report says so; the defender's does not."""
    s = make_state(players=PLAYERS)
    a = add(s, "athens", "army", "0404")
    add(s, "sparta", "army", "0405")
    give(s, "athens", "elite_units")
    before = s.copy()
    ctx = run_phase("land_battle", s, "athens", dice=[9, 2, 1], orders=orders("athens", land_battle=[
        {"units": [a.id], "target": "0405", "cards": [{"card": "elite_units", "if_needed": True}]}]))
    [b] = [r for r in ctx.log.records if r.get("event") == "battle"]
    assert b["won_by"] == "attacker" and "elite_units" in s.players["athens"].hand
    assert b["cards_unplayed"] == [{"by": "athens", "side": "attack", "card": "elite_units", "if_needed": True,
                                    "why": "not needed"}]
    line = "Elite Units (if needed): not needed, still in your hand"
    assert line in text_report(context(before, s, ctx.log.records, "athens"))
    theirs = text_report(context(before, s, ctx.log.records, "sparta"))
    assert "Battle at 0405" in theirs and "Elite Units" not in theirs
    # nor the records the defender's kit holds: the attacker's hand is not theirs to know
    [seen] = [r for r in visibility.events_for(ctx.log.records, "sparta", TINY, [before, s])
              if r.get("event") == "battle"]
    assert "cards_unplayed" not in seen and seen["won_by"] == "attacker"


def test_an_if_needed_card_the_battle_did_not_need_is_told_to_its_holder_alone():
    # a new player's review: Elite Units given if_needed at Megara, not needed, mentioned nowhere.  The BATTLE
    # record carries ``cards_unplayed`` (battle.fight, the test above); here it is given by hand, to see the
    # moderator's wording too.
    s = make_state(players=PLAYERS)
    add(s, "athens", "army", "0506")
    add(s, "sparta", "army", "0505")
    give(s, "athens", "elite_units")
    before = s.copy()
    battle = {"event": "battle", "seq": 3, "turn": 1, "player": "athens", "phase": "land_battle", "battle": "land",
              "attacker": "athens", "defender": "sparta", "target": "0505", "attackers": ["ATH-A1"],
              "defenders": ["SPA-A1"], "attack_total": 9, "defence_total": 2, "winner": "athens",
              "won_by": "attacker", "tie": False, "cards": [],
              "attack": {"player": "athens", "units": [], "bonuses": [], "total": 9, "hexes": ["0506"]},
              "defence": {"player": "sparta", "units": [], "bonuses": [], "total": 2, "hexes": ["0505"]},
              "cards_unplayed": [{"by": "athens", "side": "attack", "card": "elite_units", "if_needed": True,
                                  "why": "not needed"}]}
    records = [battle]
    mine = context(before, s, records, "athens")
    [b] = mine["battles"]
    assert "Elite Units (if needed): not needed, still in your hand" in [x["text"] for x in b["lines"]]
    assert "Elite Units (if needed): not needed, still in your hand" in text_report(mine)
    assert "Elite Units (if needed): not needed, still in your hand" in html_report(mine)
    # the defender saw the battle whole, but not the attacker's hand
    theirs = text_report(context(before, s, records, "sparta"))
    assert "Battle at 0505" in theirs and "Elite Units" not in theirs and "unplayed" not in theirs
    assert "Athenians' Elite Units (if needed): not needed, still in their hand" in \
        text_report(context(before, s, records, None))
