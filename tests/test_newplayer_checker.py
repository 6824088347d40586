"""The order checker after a new player's six turns as Athens, each gap reproduced on the demo campaign: an attack
from a beach with no retreat hex by units landed in an earlier turn (R-BAT-3), a casualty card marked if_needed
(R-BAT-5), a Second Move naming attackers with other units (R-BAT-3, R-TURN-4), an attack position wrong only
because a move above has an error (R-TURN-4), Natural Allies after Exact Tribute on the same city
(R-PH-DIP-REVOLT), and the supply warning of a Second Move that needs the capture of the city it ends in (R-BAT-4,
R-PH-UPK)."""
from __future__ import annotations

import pytest

from pbem.checker import check_text
from pbem.model import Unit, UnitType
from pbem.ordertypes import Orders
from pbem.storage import Campaign
from demo_campaign import create_demo, edited, ATHENS, said, first


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Campaign:
    return create_demo(tmp_path_factory.mktemp("campaigns") / "demo")


def doc(**sections) -> Orders:
    return Orders.from_dict({"campaign": "demo", "turn": 1, "player": "athens", **sections})


def found(r, text: str) -> list[tuple[str, str, str]]:
    return [f for f in said(r) if text in f[2]]


# -- 1. an attack from a hex with no retreat hex, however the attackers got there (R-BAT-3) ------------------------

NO_WAY_OUT = ("ATH-A1 attacks from 1415, which has no hex your units could retreat to (R-BAT-3: one hex, over land, "
              "not into an enemy or neutral city, nor a hex holding enemy units or already full): if this attack is "
              "lost, each unit whose casualty roll says retreat (5 or more) is destroyed instead")


def landed_at_melos(s) -> None:
    """Athens first; ATH-A1 with a Baggage ashore on 1415 (Sandy Coast), landed there in an earlier turn: its only
    land neighbour is the neutral city Melos (1416)."""
    first(s, "athens")
    s.place(s.units["ATH-A1"], "1415")
    s.add_unit(Unit(s.new_unit_id("ATH", UnitType.BAGGAGE), UnitType.BAGGAGE, "athens", "1415"))


def test_R_BAT_3_an_attack_from_a_beach_reached_in_an_earlier_turn_is_warned_and_a_retreat_roll_destroys(
        demo, tmp_path):
    """The review: turn 5 landed ATH-A5 with Baggage on 1415; turn 6 attacked Melos from there with no word, lost,
    and the casualty roll's "retreats" was "destroyed (no hex to retreat to)".  The checker warned only when the
    file's own First Move took the attackers there."""
    from scenario import run_phase, events
    camp = edited(demo, tmp_path, landed_at_melos)
    body = 'land_battle:\n  - units: [ATH-A1]\n    target: "1416"\n'
    r = check_text(ATHENS + body, "o.yaml", camp)
    assert ("warning", "land_battle[0].units[0]", NO_WAY_OUT) in said(r), said(r)
    assert not r.errors, said(r)
    # the adjudicator: the attack lost (1 against Melos' Army 10 and garrison), the casualty roll a 6: destroyed
    state = camp.load_state()
    ctx = run_phase("land_battle", state, "athens", dice=[1, 10, 6, 6], game_map=camp.game_map, check=False,
                    orders=doc(land_battle=[{"units": ["ATH-A1"], "target": "1416"}]))
    [c] = events(ctx, "casualty")
    assert (c["unit"], c["roll"], c["result"], c["reason"]) == ("ATH-A1", 6, "destroyed", "no hex to retreat to"), c


def test_R_BAT_3_a_retreat_hex_full_to_its_stacking_limit_is_no_way_out(demo, tmp_path):
    """The checker asks the adjudicator's own ``retreat_hex``: ATH-A1 in 1413 (Hills) attacks a Spartan Army in
    1412; its only other land neighbour is Athens, full (ATH-A2, two Fleets and a new Army: 4 of 4), so a retreat
    roll destroys it (the checker counted an own city as a way out, full or not)."""
    from scenario import run_phase, events

    def change(s) -> None:
        first(s, "athens")
        s.place(s.units["ATH-A1"], "1413")
        s.add_unit(Unit(s.new_unit_id("ATH", UnitType.ARMY), UnitType.ARMY, "athens", "1313"))
        s.add_unit(Unit(s.new_unit_id("SPA", UnitType.ARMY), UnitType.ARMY, "sparta", "1412"))
    camp = edited(demo, tmp_path, change)
    r = check_text(ATHENS + 'land_battle:\n  - units: [ATH-A1]\n    target: "1412"\n', "o.yaml", camp)
    assert [f for f in found(r, "no hex your units could retreat to")] == [
        ("warning", "land_battle[0].units[0]", NO_WAY_OUT.replace("1415", "1413"))], said(r)
    state = camp.load_state()
    ctx = run_phase("land_battle", state, "athens", dice=[1, 10, 6], game_map=camp.game_map, check=False,
                    orders=doc(land_battle=[{"units": ["ATH-A1"], "target": "1412"}]))
    [c] = events(ctx, "casualty")
    assert (c["unit"], c["result"], c["reason"]) == ("ATH-A1", "destroyed", "no hex to retreat to"), c
    # one Army fewer in Athens: room to retreat there, no warning
    camp = edited(demo, tmp_path / "room", lambda s: (change(s), s.remove_unit("ATH-A2")))
    r = check_text(ATHENS + 'land_battle:\n  - units: [ATH-A1]\n    target: "1412"\n', "o.yaml", camp)
    assert not found(r, "retreat to"), said(r)


def holding(s, *cards: str) -> None:
    """Athens holds ``cards``, each swapped with a card of its hand wherever it was (the hand keeps its size)."""
    mine = s.players["athens"].hand
    for k, c in enumerate(cards):
        if c in mine:
            continue
        for pile in (s.deck, s.discard, *(p.hand for pid, p in s.players.items() if pid != "athens")):
            if c in pile:
                pile[pile.index(c)] = mine[k]
                break
        mine[k] = c


# -- 2. a card that counts only when its side wins, marked if_needed (R-BAT-5) --------------------------------------

WASTED = ("Cavalry Pursuit changes only the other side's casualty rolls, made only if your side wins; with if_needed: "
          "true it is played only while your side is not winning, and is used up for nothing unless a card played "
          "after it turns the battle (R-BAT-5)")


def in_the_field(s) -> None:
    """Athens first; ATH-A1 in 1413 (Hills) next to a Spartan Army in 1412 (Athens, next to both, has room)."""
    first(s, "athens")
    s.place(s.units["ATH-A1"], "1413")
    s.add_unit(Unit(s.new_unit_id("SPA", UnitType.ARMY), UnitType.ARMY, "sparta", "1412"))


def test_R_BAT_5_a_casualty_card_of_the_winner_marked_if_needed_is_warned_and_is_wasted(demo, tmp_path):
    """The review: Cavalry Pursuit (the opponent's casualty rolls -1) in an attack with if_needed: true was played
    when the attack was behind, the attack lost, and the defence rolled no casualties: the card was gone for
    nothing.  Which cards: every card whose effects all act on the other side's casualty rolls (the card table)."""
    from scenario import run_phase, events
    camp = edited(demo, tmp_path, lambda s: (in_the_field(s), holding(s, "cavalry_pursuit", "block_escape")))
    attack = 'land_battle:\n  - units: [ATH-A1]\n    target: "1412"\n    cards: [{card: cavalry_pursuit, if_needed: true}]\n'
    r = check_text(ATHENS + attack, "o.yaml", camp)
    assert found(r, "casualty rolls, made only") == [("warning", "land_battle[0].cards[0].if_needed", WASTED)], said(r)
    assert not r.errors, said(r)
    r = check_text(ATHENS + attack.replace("true", "false"), "o.yaml", camp)
    assert not found(r, "casualty rolls, made only"), said(r)
    # standing defence cards: if_needed is true by default there (docs/rules.md: "should say if_needed: false")
    standing = "standing:\n  defence_cards:\n    - block_escape\n    - {card: cavalry_pursuit, if_needed: false}\n"
    r = check_text(ATHENS + standing, "o.yaml", camp)
    assert found(r, "casualty rolls, made only") == [
        ("warning", "standing.defence_cards[0]",
         "Block Escape changes only the other side's casualty rolls, made only if your side wins; in defence_cards "
         "if_needed is true unless you write if_needed: false, so it is played only while your side is not winning, "
         "and is used up for nothing unless a card played after it turns the battle (R-BAT-5)")], said(r)
    # a card for your own casualty rolls (Withdrawal: +1) is what if_needed is for: no word
    camp2 = edited(demo, tmp_path / "w", lambda s: (in_the_field(s), holding(s, "withdrawal")))
    r = check_text(ATHENS + attack.replace("cavalry_pursuit", "withdrawal"), "o.yaml", camp2)
    assert not found(r, "casualty rolls, made only") and not r.errors, said(r)
    # the adjudicator: the attack behind, the card played, the attack lost: the defence rolls no casualty
    state = camp.load_state()
    ctx = run_phase("land_battle", state, "athens", dice=[1, 10, 6], game_map=camp.game_map, check=False,
                    orders=doc(land_battle=[{"units": ["ATH-A1"], "target": "1412",
                                             "cards": [{"card": "cavalry_pursuit", "if_needed": True}]}]))
    [b] = events(ctx, "battle")
    assert b["won_by"] == "defender" and [c["card"] for c in b["cards"]] == ["cavalry_pursuit"], b
    assert [c["unit"] for c in events(ctx, "casualty")] == ["ATH-A1"]
    assert "cavalry_pursuit" not in state.players["athens"].hand


# -- 4. a finding that comes only of an earlier error says so (R-TURN-4) ----------------------------------------------

def test_R_TURN_4_an_attack_position_wrong_only_because_a_move_above_has_a_format_error_says_so(demo, tmp_path):
    """The review, turn 1: `path: [1212]` (unquoted) gave an error in first_move[0]; then "ATH-A1 is in 1313, not
    next to the target 1112" without "only because first_move[0] above has an error" (docs/players.md promises it):
    a move with an error in its format is left out of the orders, and the checker forgot it named ATH-A1."""
    camp = edited(demo, tmp_path, lambda s: first(s, "athens"))
    attack = 'land_battle:\n  - units: [ATH-A1]\n    target: "1112"\n'
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-A1]\n    path: [1212]\n' + attack, "o.yaml", camp)
    assert [(f.severity, f.path, f.message, f.hint) for f in r.findings] == [
        ("error", "first_move[0].path[0]", "1212 is a number: hex ids must be in quotes", 'write "1212"'),
        ("error", "land_battle[0].units[0]", "ATH-A1 is in 1313, not next to the target 1112, only because "
                                             "first_move[0] above has an error and is skipped, so ATH-A1 stays there: "
                                             "mend that error first", "first_move[0]'s path ends in 1212, next to 1112")]
    # mended, no finding: the move takes ATH-A1 next to Megara
    assert not check_text(ATHENS + 'first_move:\n  - units: [ATH-A1]\n    path: ["1212"]\n' + attack, "o.yaml",
                          camp).findings
    # a skipped move that would not have taken it next to the target either: the hint names the move, no "only"
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-A1]\n    path: [1413]\n' + attack, "o.yaml", camp)
    [f] = [f for f in r.findings if f.path == "land_battle[0].units[0]"]
    assert (f.message, f.hint) == ("ATH-A1 is in 1313, not next to the target 1112", "first_move[0], which would "
                                   "move it, has an error: it is skipped and ATH-A1 stays in 1313")


# -- 5. Natural Allies on a city an Exact Tribute before it makes revolt (R-PH-DIP-REVOLT) --------------------------

REVOLT_FIRST = ("Chalcis is controlled by the Thebans, not neutral, now: Natural Allies wins it only if Exact Tribute "
                "at cards[0] makes it revolt and it goes neutral first")


def chalcis_theban(s) -> None:
    """Athens first, holding Exact Tribute and Natural Allies; Chalcis (1310) the Thebans'; ATH-A1 in 1409 beside it."""
    first(s, "athens")
    s.cities["chalcis"].controller = "thebes"
    holding(s, "exact_tribute", "natural_allies")
    s.place(s.units["ATH-A1"], "1409")


def test_R_PH_DIP_REVOLT_natural_allies_after_exact_tribute_on_the_same_city_says_it_may_be_neutral_by_then(
        demo, tmp_path):
    """The review: `cards: [exact_tribute on Chalcis, natural_allies on Chalcis]` got "cards[1].target: Chalcis is
    controlled by the Thebans, not neutral" with no hint that the revolt before it may make it neutral.  Exact
    Tribute's revolt is resolved when it is played, before the next card, and may fail (Executions, the rebels'
    1D3 beaten): a warning with "only if", not an error."""
    from scenario import run_phase, events
    camp = edited(demo, tmp_path, chalcis_theban)
    cards = "cards: [{card: exact_tribute, target: chalcis}, {card: natural_allies, target: chalcis}]\n"
    r = check_text(ATHENS + cards, "o.yaml", camp)
    assert [f for f in said(r) if f[1].startswith("cards")] == [("warning", "cards[1].target", REVOLT_FIRST)], said(r)
    assert not r.errors, said(r)
    # the other way round: Natural Allies is played first, on a city that is the Thebans' (an error: Athens is first)
    r = check_text(ATHENS + "cards: [{card: natural_allies, target: chalcis}, {card: exact_tribute, target: chalcis}]\n",
                   "o.yaml", camp)
    assert [f for f in said(r) if f[1].startswith("cards")] == [
        ("error", "cards[0].target", "Chalcis is controlled by the Thebans, not neutral")], said(r)
    # a move into Chalcis after both: entered only if the cards win it, said so (an error without them)
    move = 'first_move:\n  - units: [ATH-A1]\n    path: ["1310"]\n'
    r = check_text(ATHENS + cards + move, "o.yaml", camp)
    assert ("warning", "first_move[0].path[0]", "1310 is Chalcis, a city of the Thebans now: your units may enter it only "
            "if Natural Allies at cards[1] wins it (after Exact Tribute at cards[0] makes it revolt and go neutral)"
            ) in said(r) and not r.errors, said(r)
    # the adjudicator: Chalcis holds no Theban unit, so the revolt turns it neutral, and Natural Allies wins it
    state = camp.load_state()
    ctx = run_phase("diplomacy", state, "athens", dice=[1], game_map=camp.game_map, check=False,
                    orders=doc(cards=[{"card": "exact_tribute", "target": "chalcis"},
                                      {"card": "natural_allies", "target": "chalcis"}]))
    assert [e["city"] for e in events(ctx, "neutralised")] == ["chalcis"], ctx.log.records
    assert state.cities["chalcis"].controller == "athens"


# -- 6. the supply warning of a Second Move that is made only if the city it ends in is taken (R-BAT-4, R-PH-UPK) ----

def two_at_melos(s) -> None:
    """As ``landed_at_melos``, with ATH-A2 ashore on 1415 too."""
    landed_at_melos(s)
    s.place(s.units["ATH-A2"], "1415")


def test_R_PH_UPK_a_second_move_into_the_city_the_attack_takes_is_not_told_it_ends_unfed(demo, tmp_path):
    """The review: a Second Move into Melos got both "your units may enter it only if the attack ... captures it"
    and "ATH-R2 ends the turn in 1416 with no friendly city in or next to it, unless your attack ... wins Melos":
    the move is made only if Melos is taken, and then Melos feeds them.  Plundered, it is razed and feeds no one:
    the supply warning stays, without an "unless" that cannot come true either."""
    camp = edited(demo, tmp_path, two_at_melos)
    body = ('land_battle:\n  - units: [ATH-A1]\n    target: "1416"\n'
            'second_move:\n  - units: [ATH-A2]\n    path: ["1416"]\n')
    r = check_text(ATHENS + body, "o.yaml", camp)
    assert [f for f in said(r) if f[1].startswith("second_move")] == [
        ("warning", "second_move[0].path[0]", "1416 is Melos, a neutral city now: your units may enter it only if the "
                                              "attack at land_battle[0] captures it")], said(r)
    assert not r.errors, said(r)
    # the attack plunders Melos (3 razed counters): the city taken feeds no one
    r = check_text(ATHENS + body.replace('"1416"\n', '"1416"\n    plunder: true\n', 1), "o.yaml", camp)
    assert ("warning", "second_move[0].path[0]", "ATH-A2 ends the turn in 1416 with no friendly city in or next to "
            "it: at your next Upkeep each without Baggage makes an upkeep roll (6 or more disbands it)") in said(r), said(r)
    assert not [f for f in said(r) if "wins Melos" in f[2]], said(r)
    # partial: true: not taken, the move stops short of Melos, so ATH-A2 is fed only if the attack wins it
    r = check_text(ATHENS + body + "    partial: true\n", "o.yaml", camp)
    assert [f[2] for f in said(r) if f[1].startswith("second_move") and "Upkeep" in f[2]] == [
        "ATH-A2 ends the turn in 1416 with no friendly city in or next to it, unless your attack at land_battle[0] "
        "wins Melos for you: at your next Upkeep each without Baggage makes an upkeep roll (6 or more disbands it)"], \
        said(r)


# -- 3. a Second Move naming attackers with other units (R-BAT-3, R-TURN-4) ------------------------------------------

ATTACKER_NAMED = ("ATH-A1 attacks in land_battle[0]: if that attack is lost, it makes a casualty roll (1-4 destroyed, "
                  "5 or more retreats), and this order names it: if it is destroyed or retreats, the order fails whole, "
                  "ATH-L1 included (R-TURN-4)")


def beside_megara(s) -> None:
    """Athens first; ATH-A1 and ATH-L1 in 1212 (beside Athens), a Spartan Army in 1113, next to 1212 only."""
    first(s, "athens")
    s.place(s.units["ATH-A1"], "1212")
    s.place(s.units["ATH-L1"], "1212")
    s.add_unit(Unit(s.new_unit_id("SPA", UnitType.ARMY), UnitType.ARMY, "sparta", "1113"))


def test_R_TURN_4_a_second_move_naming_an_attacker_with_a_leader_is_warned_and_fails_whole_when_it_is_destroyed(
        demo, tmp_path):
    """The review: `second_move: [{units: [ATH-A4, ATH-L1], ...}]` after ATH-A4 attacked: the attack lost, ATH-A4
    was destroyed, and the move failed whole ("ATH-A4 was destroyed ... (moving ATH-A4 ATH-L1)"), stranding the
    leader.  The checker warns of the same risk at the Upkeep; now here too."""
    from scenario import run_phase
    camp = edited(demo, tmp_path, beside_megara)
    attack = 'land_battle:\n  - units: [ATH-A1]\n    target: "1113"\n'
    r = check_text(ATHENS + attack + 'second_move:\n  - units: [ATH-A1, ATH-L1]\n    path: ["1313"]\n', "o.yaml", camp)
    assert [(f.severity, f.path, f.message, f.hint) for f in r.findings] == [
        ("warning", "second_move[0]", ATTACKER_NAMED, 'give ATH-L1 an order of its own, or name the stack by its hex '
                                                      '("1212"): a hex id moves the units there when the move is made')]
    # the stack by its hex, or the attacker alone, or the leader alone: nothing else is at stake
    for units in ('["1212"]', "[ATH-A1]", "[ATH-L1]"):
        r = check_text(ATHENS + attack + f'second_move:\n  - units: {units}\n    path: ["1313"]\n', "o.yaml", camp)
        assert not found(r, "attacks in") and not r.errors, (units, said(r))
    # the adjudicator: the attack lost, ATH-A1's casualty roll a 1: destroyed, and the move fails whole
    state = camp.load_state()
    orders = doc(land_battle=[{"units": ["ATH-A1"], "target": "1113"}],
                 second_move=[{"units": ["ATH-A1", "ATH-L1"], "path": ["1313"]}])
    run_phase("land_battle", state, "athens", dice=[1, 10, 1], game_map=camp.game_map, check=False, orders=orders)
    assert "ATH-A1" not in state.units
    ctx = run_phase("second_move", state, "athens", game_map=camp.game_map, check=False, orders=orders)
    [failed] = [x for x in ctx.log.records if x.get("event") == "order_failed"]
    assert failed["section"] == "second_move" and "ATH-A1" in failed["reason"], failed
    assert state.units["ATH-L1"].hex == "1212"
