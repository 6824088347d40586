"""The order checker after a new player's ten turns as Athens, each finding reproduced on the demo campaign: the
supply warning for units whose move has an error (it said no order moves them), a stacking error that follows
from an earlier order's error, the unit id suggested for an unknown one, a card both played and discarded, and
ships a partial move may leave at sea."""
from __future__ import annotations

import pytest

from pbem.checker import check_text
from pbem.storage import Campaign
from demo_campaign import create_demo, edited, ATHENS, said, first


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Campaign:
    return create_demo(tmp_path_factory.mktemp("campaigns") / "demo")


def upkeep_warnings(r) -> list[tuple[str, str]]:
    return [(f.path, f.message) for f in r.findings if "Upkeep" in f.message]


# -- 1. units left unfed whose move has an error are not "moved by no order" ---------------------------------------

UNFED = ("with no friendly city in or next to it: at your next Upkeep each without Baggage makes an upkeep roll (6 or "
         "more disbands it)")


def far_beach(s) -> None:
    """ATH-A1 and ATH-F1 (ATH-R1 aboard) on the Sandy Coast 2013, far from any city of Athens."""
    for uid in ("ATH-A1", "ATH-F1", "ATH-R1"):
        s.place(s.units[uid], "2013")


def test_units_whose_move_has_an_error_are_said_to_stay_because_of_it(demo, tmp_path):
    """The review: "ATH-A1, which no order of this file moves, stays in ..." was said of an Army whose move order
    had an error (skipped whole, R-TURN-4): the words named no order, and the player looked for a missing one."""
    camp = edited(demo, tmp_path, far_beach)
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-A1]\n    path: ["1313"]\n', "o.yaml", camp)
    assert ("error", "first_move[0].path[0]") in [f[:2] for f in said(r)], said(r)
    assert upkeep_warnings(r) == [("", "ATH-A1, ATH-R1 stay in 2013 (first_move[0], which would move ATH-A1, has an "
                                       f"error and is skipped: see there; no order of this file moves ATH-R1) {UNFED}")]
    [w] = [f for f in r.findings if "Upkeep" in f.message]
    assert w.hint.startswith("mend the error of first_move[0] first; or move them"), w.hint
    # the Rowers go with their Fleet: a Fleet's move with an error keeps them there too
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-A1]\n    path: ["1313"]\n'
                            '  - units: [ATH-F1]\n    path: ["1313"]\n', "o.yaml", camp)
    assert upkeep_warnings(r) == [("", "ATH-A1, ATH-R1 stay in 2013 (first_move[0], which would move ATH-A1, has an "
                                       "error and is skipped: see there; first_move[1], which would move ATH-R1, has "
                                       f"an error and is skipped: see there) {UNFED}")], said(r)
    # no order at all: the words as before
    r = check_text(ATHENS, "o.yaml", camp)
    assert upkeep_warnings(r) == [("", f"ATH-A1, ATH-R1, which no order of this file moves, stay in 2013 {UNFED}")]


def test_units_a_skipped_order_would_have_taken_along_are_said_where_others_end(demo, tmp_path):
    """Units moved into the hex and units that stay there because their own move is skipped: one warning, at the
    move, saying why the others are still there."""
    def change(s) -> None:
        far_beach(s)
        s.place(s.units["ATH-F2"], "1913")  # at sea next to 2013, ATH-R2 aboard
        s.place(s.units["ATH-R2"], "1913")
    camp = edited(demo, tmp_path, change)
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-F2]\n    path: ["2013"]\n'
                            '  - units: [ATH-F1]\n    path: ["1313"]\n', "o.yaml", camp)
    assert upkeep_warnings(r) == [("first_move[0].path[0]",
                                   "ATH-R2 ends the turn in 2013, where ATH-A1, ATH-R1 already stand (no order of "
                                   "this file moves ATH-A1; first_move[1], which would move ATH-R1, has an error and "
                                   f"is skipped: see there), {UNFED}")], said(r)


# -- 2. a stacking error that comes of an earlier order's error says so in its message ----------------------------

def test_a_stacking_error_caused_by_a_skipped_order_says_so_in_its_message(demo, tmp_path):
    """The review: the stacking error named the skipped order only in its hint, and the player mended the stacking
    error (split the stack) instead of the order above whose error kept the ships in Athens (1313)."""
    camp = edited(demo, tmp_path, lambda s: s.place(s.units["ATH-A2"], "1212"))
    r = check_text(ATHENS + 'recruit:\n  - {city: athens, unit: army}\n'
                            'first_move:\n  - units: [ATH-F1, ATH-F2]\n    path: ["1212"]\n'
                            '  - units: [ATH-A2]\n    path: ["1313"]\n', "o.yaml", camp)
    [f] = [f for f in r.findings if "stacking limit" in f.message]
    assert (f.severity, f.path, f.message) == (
        "error", "first_move[1].path[0]", "5 of your Armies, Fleets and Transports would stand in 1313 (Cities); the "
        "stacking limit there is 4, only because first_move[0] above has an error and is skipped, so ATH-F1, ATH-F2 "
        "stay there: mend that error first"), said(r)
    # over the limit even if that order went: no "only because" (the hint still names it)
    def crowded(s) -> None:
        from pbem.model import Unit, UnitType
        s.place(s.units["ATH-A2"], "1212")
        s.add_unit(Unit(s.new_unit_id("ATH", UnitType.ARMY), UnitType.ARMY, "athens", "1212"))
    r = check_text(ATHENS + 'recruit:\n  - {city: athens, unit: army}\n'
                            'first_move:\n  - units: [ATH-F1]\n    path: ["1212"]\n'
                            '  - units: ["1212"]\n    path: ["1313"]\n', "o.yaml", edited(demo, tmp_path / "b", crowded))
    [f] = [f for f in r.findings if "stacking limit" in f.message and f.path.startswith("first_move")]
    assert "only because" not in f.message and f.hint.startswith("first_move[0], which would move ATH-F1"), said(r)


# -- 3. the unit suggested for an unknown id stands with the order's stack, or is said to be elsewhere -----------

def test_an_unknown_leader_id_suggests_a_leader_of_the_stack_the_order_moves(demo, tmp_path):
    """The review: 'ATH-L4 is not one of your units (hint: did you mean ATH-L3?)' for a move of ATH-A2 in 1212,
    where ATH-L2 stood; ATH-L3 was in Athens (1313)."""
    def change(s) -> None:
        s.place(s.units["ATH-A2"], "1212")
        s.place(s.units["ATH-L2"], "1212")
    camp = edited(demo, tmp_path, change)
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-A2, ATH-L4]\n    path: ["1113"]\n', "o.yaml", camp)
    [f] = [f for f in r.findings if f.path == "first_move[0].units[1]"]
    assert (f.message, f.hint) == ("ATH-L4 is not one of your units", "did you mean ATH-L2 (Astyochus)?"), said(r)
    # a hex id names the stack too
    r = check_text(ATHENS + 'first_move:\n  - units: ["1212", ATH-L4]\n    path: ["1113"]\n', "o.yaml", camp)
    [f] = [f for f in r.findings if f.path == "first_move[0].units[1]"]
    assert f.hint == "did you mean ATH-L2 (Astyochus)?", said(r)
    # no leader there: the nearest id, and where it is
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-A2]\n    path: ["1113"]\n'
                            'second_move:\n  - units: [ATH-A2, ATH-L4]\n    path: ["1112"]\n', "o.yaml", camp)
    [f] = [f for f in r.findings if f.path == "second_move[0].units[1]"]
    assert f.hint in ("did you mean ATH-L2 (Astyochus)? it is in 1212, not with this order's units in 1113",
                      "did you mean ATH-L3 (Epimenides)? it is in 1313, not with this order's units in 1113"), said(r)


def test_an_unknown_id_in_load_suggests_a_unit_of_the_start_hex(demo, tmp_path):
    def change(s) -> None:
        s.place(s.units["ATH-L3"], "1212")
    camp = edited(demo, tmp_path, change)
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-F1]\n    load: [ATH-L4]\n    path: ["1314"]\n', "o.yaml",
                   camp)
    [f] = [f for f in r.findings if f.path == "first_move[0].load[0]"]
    assert f.hint in ("did you mean ATH-L1 (Conon)?", "did you mean ATH-L2 (Astyochus)?"), said(r)


# -- 4. a card both played and listed under discard: -------------------------------------------------------------

def six_cards(s) -> None:
    """Athens first, six cards in hand (the demo's five and Strong Position, a defence card): 8 after the Draw,
    one over the limit of 7."""
    first(s, "athens")
    s.deck.remove("strong_position")
    s.players["athens"].hand.append("strong_position")


def test_a_standing_defence_card_the_discard_list_throws_away_is_warned(demo, tmp_path):
    """The review: standing.defence_cards held Strong Position and discard: listed it too; the Draw phase discarded
    it (over the hand limit, the discard list goes first, R-PH-DRAW) and the checker said nothing."""
    camp = edited(demo, tmp_path, six_cards)
    body = 'discard: [strong_position]\nstanding:\n  defence_cards:\n    - {card: strong_position}\n'
    r = check_text(ATHENS + body, "o.yaml", camp)
    [f] = [f for f in r.findings if f.path.startswith("standing.defence_cards")]
    assert (f.severity, f.path, f.message) == (
        "warning", "standing.defence_cards[0].card", "Strong Position is discarded in your Draw phase, the first of "
        "your turn: you will hold 8 cards, over your hand limit of 7, and discard[0] lists it; from then on it is not "
        "in your hand to play, and you play first this turn: it is never played"), said(r)
    assert f.hint == "take strong_position out of discard[0]"
    # not over the limit: the discard list discards nothing, nothing to say
    r = check_text(ATHENS + body, "o.yaml", demo)
    assert not [f for f in r.findings if f.path.startswith("standing.defence_cards")], said(r)
    # another card listed first fills the one place: Strong Position stays
    r = check_text(ATHENS + body.replace("[strong_position]", "[storms, strong_position]"), "o.yaml", camp)
    assert not [f for f in r.findings if f.path.startswith("standing.defence_cards")], said(r)


def test_an_own_turn_card_the_discard_list_throws_away_is_an_error_and_the_adjudicator_agrees(demo, tmp_path):
    """Intrigue in cards: and discard: — the Draw phase, first of the player-turn, discards it, and its play fails
    (not in hand).  Athens moves first: an error; later in turn order a warning (the hand may shrink before)."""
    from pbem.ordertypes import Orders
    from scenario import run_phase
    camp = edited(demo, tmp_path, six_cards)
    body = 'discard: [intrigue]\ncards: [intrigue]\n'
    r = check_text(ATHENS + body, "o.yaml", camp)
    [f] = [f for f in r.findings if f.path == "cards[0]"]
    assert (f.severity, f.message) == ("error", "Intrigue is discarded in your Draw phase, the first of your turn: "
                                                "you will hold 8 cards, over your hand limit of 7, and discard[0] "
                                                "lists it; so it is not played"), said(r)
    state = camp.load_state()
    run_phase("draw", state, "athens", orders=Orders.from_dict({"campaign": "demo", "turn": 1, "player": "athens",
                                                                "discard": ["intrigue"], "cards": ["intrigue"]}),
              game_map=camp.game_map, check=False)
    assert "intrigue" not in state.players["athens"].hand and len(state.players["athens"].hand) == 7
    # second in turn order: a warning
    def later(s) -> None:
        six_cards(s)
        s.turn_order = [s.turn_order[1], "athens"] + s.turn_order[2:]
    r = check_text(ATHENS + body, "o.yaml", edited(demo, tmp_path / "b", later))
    [f] = [f for f in r.findings if f.path == "cards[0]"]
    assert f.severity == "warning" and f.message.endswith("discard[0] lists it (unless your hand is smaller by "
                                                          "then); so it is not played"), said(r)


# -- 5. partial: true on a ship move that may leave the ships at sea ----------------------------------------------

def spartan_fleet_in_sight(s, at: str = "1515") -> None:
    """ATH-F2 (ATH-R2 aboard) at sea in 1414 sees a manned Spartan Fleet in 1515."""
    from pbem.model import Unit, UnitType
    s.place(s.units["ATH-F2"], "1414")
    s.place(s.units["ATH-R2"], "1414")
    f = s.add_unit(Unit(s.new_unit_id("SPA", UnitType.FLEET), UnitType.FLEET, "sparta", at))
    s.add_unit(Unit(s.new_unit_id("SPA", UnitType.ROWERS), UnitType.ROWERS, "sparta", at, carried_by=f.id))


def test_a_partial_ship_move_stopped_at_sea_says_the_ships_stay_at_sea(demo, tmp_path):
    """The review: a Second Move with partial: true whose way the player could see blocked stopped at sea, and the
    ships made the navigation roll; the stop was said, not that it was at sea, and the navigation warning pointed
    at the path's last hex, which the ships never reach."""
    camp = edited(demo, tmp_path, lambda s: (first(s, "athens"), spartan_fleet_in_sight(s)))
    body = 'second_move:\n  - units: [ATH-F1]\n    path: ["1314", "1414", "1515", "1516"]\n    partial: true\n'
    r = check_text(ATHENS + body, "o.yaml", camp)
    [stop] = [f for f in r.findings if f.path == "second_move[0].path[2]"]
    assert stop.severity == "warning" and stop.hint == (
        "with partial: true the move stops at 1414, at sea: ships that end the turn at sea make a navigation roll "
        "(R-PH-SECOND)"), said(r)
    assert ("warning", "second_move[0].path[1]", "ATH-F1 ends the turn at sea in 1414: it makes a navigation roll "
                                                 "(5-6 sinks it)") in said(r), said(r)
    # in the First Move the Second may take them on
    r = check_text(ATHENS + body.replace("second_move", "first_move"), "o.yaml", camp)
    [stop] = [f for f in r.findings if f.path == "first_move[0].path[2]"]
    assert stop.hint.endswith("(R-PH-SECOND), unless your second_move takes them on"), said(r)


def test_a_partial_ship_move_over_the_stacking_limit_stops_where_it_fits_at_sea(demo, tmp_path):
    """partial: true and a full last hex: the adjudicator stops the ships at the last hex of the path where they fit
    (``pbem.phases.move``), here at sea; the checker had them at the full hex, in port, and said nothing of the sea.
    """
    def full_beach(s) -> None:
        from pbem.model import Unit, UnitType
        first(s, "athens")
        for _ in range(4):
            s.add_unit(Unit(s.new_unit_id("ATH", UnitType.ARMY), UnitType.ARMY, "athens", "1415"))
    camp = edited(demo, tmp_path, full_beach)
    body = 'second_move:\n  - units: [ATH-F1]\n    path: ["1314", "1414", "1415"]\n    partial: true\n'
    r = check_text(ATHENS + body, "o.yaml", camp)
    [f] = [f for f in r.findings if "stacking limit" in f.message]
    assert (f.severity, f.path) == ("warning", "second_move[0].path[2]"), said(r)
    assert f.hint.startswith("with partial: true the move stops at 1414, the last hex of the path where it fits, at "
                             "sea: ships that end the turn at sea make a navigation roll (R-PH-SECOND); "), f.hint
    assert ("warning", "second_move[0].path[1]", "ATH-F1 ends the turn at sea in 1414: it makes a navigation roll "
                                                 "(5-6 sinks it)") in said(r), said(r)
    # the adjudicator agrees: the Fleet stops in 1414 and makes the navigation roll (a 1 here: it floats)
    from pbem.ordertypes import Orders
    from scenario import run_phase
    state = camp.load_state()
    run_phase("second_move", state, "athens", dice=[1], game_map=camp.game_map, check=False, orders=Orders.from_dict(
        {"campaign": "demo", "turn": 1, "player": "athens",
         "second_move": [{"units": ["ATH-F1"], "path": ["1314", "1414", "1415"], "partial": True}]}))
    assert state.units["ATH-F1"].hex == "1414"
    # no hex of the path fits: the adjudicator fails the order ("the stack cannot move at all")
    r = check_text(ATHENS + 'second_move:\n  - units: [ATH-F1]\n    path: ["1314"]\n    partial: true\n', "o.yaml",
                   edited(demo, tmp_path / "b", lambda s: (first(s, "athens"), full_sea(s))))
    [f] = [f for f in r.findings if "stacking limit" in f.message]
    assert f.severity == "error" and "there is none: the order fails" in f.hint, said(r)


def full_sea(s) -> None:
    """Four Athenian Fleets at sea in 1314, its stacking limit (4)."""
    from pbem.model import Unit, UnitType
    for _ in range(4):
        s.add_unit(Unit(s.new_unit_id("ATH", UnitType.FLEET), UnitType.FLEET, "athens", "1314"))
