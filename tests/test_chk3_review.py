"""The order checker after a new player's eight turns (docs/players.md only) and a rules referee's card findings,
each reproduced on the demo campaign: the diplomacy count that adds up and warns while more rolls may come, Armies
and Rowers left where upkeep will not pay them whatever moved them, knock-on and hint-less messages, the hand-limit
hint that never names a card the file plays, and a standing Failure with no target."""
from __future__ import annotations

import pytest

from pbem.checker import check_text
from pbem.model import Effect
from pbem.storage import Campaign
from demo_campaign import create_demo, edited, ATHENS, said, first


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Campaign:
    return create_demo(tmp_path_factory.mktemp("campaigns") / "demo")


# -- 2. diplomacy: a sum that adds up; a target beyond the rolls is a warning while more rolls may come ------------

def intrigue_and_atrocities(razed: int = 0):
    """Athens: Astyochus (Benevolent), Epimenides given Intrigue, Atrocities played on Athens; Athens first in turn
    order, its home city razed ``razed`` times (2: no experience roll this turn, R-PH-REC)."""
    def change(s) -> None:
        first(s, "athens")
        s.units["ATH-L3"].skills.append("intrigue")
        s.effects.append(Effect("diplomacy_rolls", "atrocities", "sparta", "athens", -1, 1, "athens"))
        s.cities["athens"].razed = razed
    return change


SUM = ("1 free +1 Benevolent (Astyochus' skill) +1 Intrigue (Epimenides' skill) +1 Intrigue (card) -1 Atrocities "
       "played against you = 3")
FOUR = "cards: [intrigue]\ndiplomacy: [megara, chalcis, melos, delphi]\n"


def test_a_target_beyond_the_rolls_is_a_warning_while_the_experience_roll_may_add_one(demo, tmp_path):
    """The new player's t2.yaml: 4 rolls he was sure of, 5 targets, an ERROR; but the Recruit phase's experience
    roll comes before the Diplomacy phase and may bring a leader or trait with a roll (R-PH-REC): a warning."""
    r = check_text(ATHENS + FOUR, "o.yaml", edited(demo, tmp_path, intrigue_and_atrocities(razed=1)))
    [f] = [f for f in r.findings if f.path.startswith("diplomacy")]
    assert f.severity == "warning" and f.path == "diplomacy[3]", said(r)
    assert f.message == (f"you have 3 diplomacy rolls this turn as far as the checker knows ({SUM}), used by the "
                         f"targets before this one: this target is rolled for only if you get more rolls (if your "
                         f"home city's experience roll (Recruit phase) brings a leader or a trait that adds one); "
                         f"targets beyond the rolls fail (R-PH-DIP)"), f.message


def test_a_target_beyond_the_rolls_is_an_error_when_no_roll_can_come(demo, tmp_path):
    """Athens razed twice keeps a counter through its Revenue phase: no experience roll, nothing else adds a roll."""
    r = check_text(ATHENS + FOUR, "o.yaml", edited(demo, tmp_path, intrigue_and_atrocities(razed=2)))
    [f] = [f for f in r.findings if f.path.startswith("diplomacy")]
    assert f.severity == "error" and f.path == "diplomacy[3]", said(r)
    assert f.message == (f"you have 3 diplomacy rolls this turn ({SUM}), used by the targets before this one: this "
                         f"target is never rolled for (targets beyond the rolls fail, R-PH-DIP)"), f.message
    # within the rolls: nothing to say
    r = check_text(ATHENS + "cards: [intrigue]\ndiplomacy: [megara, chalcis, melos]\n", "o.yaml",
                   edited(demo, tmp_path / "b", intrigue_and_atrocities(razed=2)))
    assert not [f for f in r.findings if f.path.startswith("diplomacy")], said(r)


# -- 1. every Army and Rowers left where upkeep will not pay them, whatever put them there (R-PH-UPK) --------------

UNFED = ("with no friendly city in or next to it: at your next Upkeep each without Baggage makes an upkeep roll (6 or "
         "more disbands it)")
FAR_BEACH = '["1314", "1414", "1514", "1613", "1713", "1812", "1913", "2013"]'  # 8 points, ends on a beach


def test_rowers_aboard_a_fleet_the_first_move_leaves_on_a_far_beach_are_warned(demo):
    """The new player's t6.yaml: ATH-F2 with ATH-R2 aboard ended its first move on the beach 1815 and nothing was
    said; the Rowers starved two turns later.  Only second moves were looked at."""
    r = check_text(ATHENS + f"first_move:\n  - units: [ATH-F1]\n    path: {FAR_BEACH}\n", "o.yaml", demo)
    assert ("warning", "first_move[0].path[7]", f"ATH-R1 ends the turn in 2013 {UNFED}") in said(r), said(r)
    # brought back next to Athens (1314) by the second move: fed
    r = check_text(ATHENS + f"first_move:\n  - units: [ATH-F1]\n    path: {FAR_BEACH}\n"
                            'second_move:\n  - units: [ATH-F1]\n    path: ["1913", "1812", "1713", "1613", "1514", "1414", '
                            '"1314"]\n',
                   "o.yaml", demo)
    assert not [f for f in r.findings if "Upkeep" in f.message], said(r)


def test_armies_and_rowers_the_orders_move_are_warned_once_per_hex_and_those_not_moved_too(demo, tmp_path):
    """Units no order moves were once left unsaid (said when they were moved there; a stack kept far from home on
    purpose would be said in every file), and a later review found them starving unwarned turns later: they are
    said too, for the file as a whole (tests/test_fogsup_checker.py)."""
    def on_the_beach(s) -> None:
        s.place(s.units["ATH-F1"], "2013")
        s.place(s.units["ATH-R1"], "2013")
    r = check_text(ATHENS, "o.yaml", edited(demo, tmp_path, on_the_beach))
    assert [(f.path, f.message) for f in r.findings if "Upkeep" in f.message] == [
        ("", f"ATH-R1, which no order of this file moves, stays in 2013 {UNFED}")], said(r)
    # one warning per hex, at the last order taking any of them there; the Baggage there counts for all
    r = check_text(ATHENS + 'recruit:\n  - {city: athens, baggage: 1}\n'
                            'first_move:\n  - units: [ATH-A1, ATH-B1]\n    path: ["1212", "1113"]\n'
                            'second_move:\n  - units: [ATH-A2]\n    path: ["1212", "1113"]\n', "o.yaml", demo)
    [w] = [f for f in r.findings if "Upkeep" in f.message]
    assert (w.path, w.message) == ("second_move[0].path[1]", "ATH-A1, ATH-A2 end the turn in 1113 with no friendly "
                                   "city in or next to it and Baggage for 1 only: at your next Upkeep each without "
                                   "Baggage makes an upkeep roll (6 or more disbands it)"), said(r)


# -- 3. messages with their cause or their fix ----------------------------------------------------------------

def test_a_stacking_error_says_the_order_that_would_have_emptied_the_hex_is_skipped(demo, tmp_path):
    """The new player's t6.yaml: the ships leaving 1313 had an error of their own, so an Army entering 1313 found
    it full, and nothing said why."""
    r = check_text(ATHENS + 'recruit:\n  - {city: athens, unit: army}\n'
                            'first_move:\n  - units: [ATH-F1, ATH-F2]\n    path: ["1212"]\n'
                            '  - units: [ATH-A2]\n    path: ["1313"]\n', "o.yaml", edited(demo, tmp_path, lambda s:
                                                                                          s.place(s.units["ATH-A2"],
                                                                                                  "1212")))
    [f] = [f for f in r.findings if "stacking limit" in f.message]
    assert f.path == "first_move[1].path[0]" and f.message.startswith("5 of your Armies"), said(r)
    assert f.hint.startswith("first_move[0], which would move ATH-F1, ATH-F2 out of 1313, has an error: it is "
                             "skipped and they stay in 1313"), f.hint


def out_of_athens(s) -> None:
    s.place(s.units["ATH-A1"], "1212")  # room in Athens for one more


def test_a_recruit_over_the_stacking_limit_says_recruitment_comes_before_the_moves(demo):
    """The new player's t7.yaml: an Army recruited in Thebes, which his first move was emptying."""
    r = check_text(ATHENS + 'recruit:\n  - {city: athens, unit: army}\n'
                            'first_move:\n  - units: [ATH-A1, ATH-A2]\n    path: ["1212"]\n', "o.yaml", demo)
    [f] = [f for f in r.findings if f.path == "recruit[0].unit"]
    assert f.severity == "error" and "the stacking limit there is 4" in f.message, said(r)
    assert f.hint == ("recruitment comes before this turn's moves: ATH-A1, ATH-A2, which first_move[0] moves out, "
                      "are still in Athens then; recruit elsewhere, or next turn"), f.hint


def test_an_unmanned_fleet_says_how_to_man_it_and_a_recruited_fleet_with_no_rowers_is_warned(demo, tmp_path):
    def unmanned(s) -> None:
        out_of_athens(s)
        s.remove_unit("ATH-R1")
    camp = edited(demo, tmp_path, unmanned)
    r = check_text(ATHENS + 'sea_battle:\n  - units: [ATH-F1]\n    target: "1314"\n', "o.yaml", camp)
    [f] = [f for f in r.findings if "unmanned" in f.message]
    assert f.hint == ("man it first: recruit Rowers in Athens, where it is docked (new Rowers go aboard an unmanned "
                      "Fleet there), or move it in first_move with Rowers taken aboard by load:"), f.hint
    # a Fleet recruited with no Rowers to man it (ATH-F3 of the new player's file)
    r = check_text(ATHENS + 'recruit:\n  - {city: athens, unit: fleet}\n', "o.yaml", edited(demo, tmp_path / "b",
                                                                                             out_of_athens))
    [f] = [f for f in r.findings if f.path == "recruit[0].unit"]
    assert (f.severity, f.message) == ("warning", "ATH-F3, the Fleet recruited here, will have no Rowers aboard: an "
                                                  "unmanned Fleet cannot move or fight (R-UNIT-3)"), said(r)
    assert f.hint == ("recruit Rowers in Athens next turn (new Rowers go aboard an unmanned Fleet there), or take "
                      "Rowers aboard with load: in a move"), f.hint
    # Rowers taken aboard in a move man it: nothing to say
    def rowers_ashore(s) -> None:
        out_of_athens(s)
        s.units["ATH-R1"].carried_by = None
    r = check_text(ATHENS + 'recruit:\n  - {city: athens, unit: fleet}\n'
                            'second_move:\n  - {units: [ATH-F3], load: [ATH-R1], path: ["1314", "1313"]}\n', "o.yaml",
                   edited(demo, tmp_path / "c", rowers_ashore))
    assert not [f for f in r.findings if "Rowers aboard" in f.message], said(r)


def test_own_hex_as_the_target_hints_at_what_was_meant(demo, tmp_path):
    """The new player's "ATH-A3 is in 1014 itself", with no hint: he had marched into the hex he meant to attack
    from, or named his own hex for the enemy's next to it."""
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-A1]\n    path: ["1212"]\n'
                            'land_battle:\n  - units: [ATH-A1]\n    target: "1212"\n', "o.yaml", demo)
    [f] = [f for f in r.findings if "itself" in f.message]
    assert f.hint == ("first_move[0] moves ATH-A1 into 1212: end that move next to the hex you attack, and name that "
                      "hex as the target"), f.hint
    camp = edited(demo, tmp_path, lambda s: s.place(s.units["SPA-A1"], "1312"))  # next to 1212 and Athens: in sight
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-A1]\n    path: ["1212"]\n'
                            'land_battle:\n  - units: [ATH-A1]\n    target: "1212"\n', "o.yaml", camp)
    [f] = [f for f in r.findings if "itself" in f.message]
    assert f.hint == ("first_move[0] moves ATH-A1 into 1212: the target is the enemy's hex, next to your units: did "
                      "you mean 1312 (enemy units in your sight next to 1212)?"), f.hint


# -- 4. the hand-limit hint never suggests discarding a card the file names ----------------------------------------

@pytest.fixture(scope="module")
def full_hand(tmp_path_factory):
    from pathlib import Path
    from pbem.campaign import create
    made = create(tmp_path_factory.mktemp("hand") / "c", ["athens", "sparta"], seed="7",
                  map_file=Path(__file__).parent / "fixtures" / "tiny.yaml")
    camp = made.campaign
    st = camp.load_state()
    st.turn_order = ["athens", "sparta"]
    st.players["athens"].hand = ["storms", "spy", "coup", "raids", "truce", "intrigue"]  # 8 after the draw, limit 7
    camp.save_state(st)
    return Campaign.open(camp.root), f"campaign: {st.campaign}\nturn: 1\nplayer: athens\nsecret: {made.secrets['athens']}\n"


def hand_hint(full_hand, body: str) -> str:
    camp, head = full_hand
    [f] = [f for f in check_text(head + body, "o.yaml", camp).findings if "over your hand limit" in f.message]
    return f.hint


def test_the_hand_limit_hint_never_names_a_card_the_file_plays_even_in_an_order_with_an_error(full_hand):
    """The new player was told "write discard: [social_division]" while his file played it (its order had an
    error, so the checker took the card as unused)."""
    assert hand_hint(full_hand, "") == "to choose, write discard: [intrigue]"
    # intrigue in an attack's cards is an error (not a battle card): the file still means to play it
    body = 'land_battle:\n  - units: [ATH-A1]\n    target: "0101"\n    cards: [intrigue]\n'
    assert hand_hint(full_hand, body) == "to choose, write discard: [truce]"
    # every card named: nothing to suggest
    body = "cards: [intrigue, truce, raids, coup, spy, {card: storms, target: \"0101\"}]\n"
    assert hand_hint(full_hand, body) == "every card in your hand is named in your orders: the draw decides"


# -- 5. a standing reaction that needs a target and has none is never played -------------------------------------

def test_failure_in_standing_reactions_without_a_target_says_it_is_never_played(demo, tmp_path):
    """A rules referee: Failure ("Target Leader that lost a battle is discarded") in standing reactions with no
    target stays in force and is never played, silently."""
    r = check_text(ATHENS + "standing:\n  reactions: [failure]\n", "o.yaml", demo)
    [f] = [f for f in r.findings if f.path == "standing.reactions[0]"]
    assert f.severity == "error" and f.message.startswith("Failure needs a target: "), said(r)
    assert f.message.endswith("; in standing reactions without one it is never played"), f.message
    # kept from an earlier file (this one has no standing:): still never played
    def kept(s) -> None:
        s.players["athens"].standing = {"reactions": [{"card": "failure"}]}
    r = check_text(ATHENS, "o.yaml", edited(demo, tmp_path, kept))
    assert said(r) == [("warning", "", "your standing reactions, kept from an earlier file, hold Failure with no "
                                       "target: it is never played")], said(r)
    # with a target, or Hesitation (its target is optional): nothing to say
    def kept_ok(s) -> None:
        s.players["athens"].standing = {"reactions": [{"card": "failure", "target": "Epaminondas"},
                                                      {"card": "hesitation"}]}
    r = check_text(ATHENS, "o.yaml", edited(demo, tmp_path / "b", kept_ok))
    assert not r.findings, said(r)


def test_targets_beyond_the_rolls_for_the_same_reason_are_warned_of_whole_once(demo, tmp_path):
    """A mail review: eight targets beyond the rolls gave eight warnings of some 600 characters, the same words
    each time.  The first is said whole; the next ones that would say the same point to it (R-PH-DIP)."""
    body = "cards: [intrigue]\ndiplomacy: [megara, chalcis, melos, delphi, aegina, argos]\n"
    r = check_text(ATHENS + body, "o.yaml", edited(demo, tmp_path, intrigue_and_atrocities(razed=1)))
    found = [(f.severity, f.path, f.message) for f in r.findings if f.path.startswith("diplomacy")]
    assert [f[:2] for f in found] == [("warning", f"diplomacy[{i}]") for i in (3, 4, 5)], found
    assert found[0][2].startswith(f"you have 3 diplomacy rolls this turn as far as the checker knows ({SUM})")
    for _, _, message in found[1:]:
        assert message == ("the same as diplomacy[3] (see there): this target is rolled for only if what is said "
                           "there comes true"), message
