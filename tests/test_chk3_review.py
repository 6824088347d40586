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


def test_armies_and_rowers_the_orders_move_are_warned_once_per_hex_and_those_not_moved_are_not(demo, tmp_path):
    """Units no order moves were said when they were moved there; a stack kept far from home on purpose would
    be said in every file."""
    def on_the_beach(s) -> None:
        s.place(s.units["ATH-F1"], "2013")
        s.place(s.units["ATH-R1"], "2013")
    r = check_text(ATHENS, "o.yaml", edited(demo, tmp_path, on_the_beach))
    assert not [f for f in r.findings if "Upkeep" in f.message], said(r)
    # one warning per hex, at the last order taking any of them there; the Baggage there counts for all
    r = check_text(ATHENS + 'recruit:\n  - {city: athens, baggage: 1}\n'
                            'first_move:\n  - units: [ATH-A1, ATH-B1]\n    path: ["1212", "1113"]\n'
                            'second_move:\n  - units: [ATH-A2]\n    path: ["1212", "1113"]\n', "o.yaml", demo)
    [w] = [f for f in r.findings if "Upkeep" in f.message]
    assert (w.path, w.message) == ("second_move[0].path[1]", "ATH-A1, ATH-A2 end the turn in 1113 with no friendly "
                                   "city in or next to it and Baggage for 1 only: at your next Upkeep each without "
                                   "Baggage makes an upkeep roll (6 or more disbands it)"), said(r)
