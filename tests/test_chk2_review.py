"""The order checker after a player's review (Sparta, five factions, seed 77), each finding reproduced here on the
demo campaign: ships left at sea, a besieged home city that feeds no one, knock-on errors of a skipped move,
retreat preferences no unit can use, leader targets by name, the hint of a second move into one's own attack,
a kit's anonymous ids as targets, and the redacted views kept on the Game."""
from __future__ import annotations

import pytest

from pbem import checker
from pbem.checker import Game, check_text
from pbem.model import GameState
from pbem.movement import land_ok
from pbem.storage import Campaign
from demo_campaign import create_demo, edited, ATHENS, CORINTH, said, first

AT_SEA_HINT = "end in a coastal City, Sandy Coast or Fishing Village hex (R-PH-SECOND)"


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Campaign:
    return create_demo(tmp_path_factory.mktemp("campaigns") / "demo")


def spartans_at(h: str, *, leader: bool = False):
    def change(s: GameState) -> None:
        s.place(s.units["SPA-A1"], h)
        if leader:
            s.place(s.units["SPA-L1"], h)  # Epaminondas
    return change


# -- 1. every ship the orders leave at sea rolls for navigation (R-PH-SECOND), with the player's modifiers -------

def test_a_ship_left_at_sea_by_the_first_move_is_warned_of_its_navigation_roll(demo):
    r = check_text(ATHENS + 'first_move:\n  - {units: [ATH-F1], path: ["1314"]}\n', "o.yaml", demo)
    assert said(r) == [("warning", "first_move[0].path[0]", "ATH-F1 ends the turn at sea in 1314: it makes a "
                                                           "navigation roll (5-6 sinks it)")], said(r)
    assert r.findings[0].hint == AT_SEA_HINT
    # brought back to port by the second move: nothing to say
    back = check_text(ATHENS + 'first_move:\n  - {units: [ATH-F1], path: ["1314"]}\n'
                               'second_move:\n  - {units: [ATH-F1], path: ["1313"]}\n', "o.yaml", demo)
    assert not back.findings, said(back)
    # a second move that fails (its error skips it) leaves the ship where the first move put it
    stuck = check_text(ATHENS + 'first_move:\n  - {units: [ATH-F1], path: ["1314"]}\n'
                                'second_move:\n  - {units: [ATH-F1], path: ["1312"]}\n', "o.yaml", demo)
    assert ("warning", "first_move[0].path[0]", "ATH-F1 ends the turn at sea in 1314: it makes a navigation roll "
                                                "(5-6 sinks it)") in said(stuck), said(stuck)


def test_ships_at_sea_that_no_order_moves_are_warned_too(demo, tmp_path):
    def out(s: GameState) -> None:
        for uid in ("ATH-F1", "ATH-F2"):
            s.place(s.units[uid], "1314")
            for c in s.cargo(uid):
                s.place(c, "1314")
    r = check_text(ATHENS, "o.yaml", edited(demo, tmp_path, out))
    assert said(r) == [("warning", "", "ATH-F1, ATH-F2 end the turn at sea in 1314: each makes a navigation roll "
                                       "(5-6 sinks it)")], said(r)


def test_the_sinking_numbers_count_the_players_own_navigation_modifiers(demo):
    """Corinth holds Sea Worthy: -1 to its ships' navigation rolls, so only a 6 sinks one."""
    r = check_text(CORINTH + 'second_move:\n  - {units: [COR-F1], path: ["1013"]}\n', "o.yaml", demo)
    assert ("warning", "second_move[0].path[0]", "COR-F1 ends the turn at sea in 1013: it makes a navigation roll "
                                                 "(6 sinks it, counting Sea Worthy (trait) -1)") in said(r), said(r)


# -- 2. a besieged city of the player's feeds no one: say so (R-PH-UPK, the Upkeep phase's own reason) -----------

def test_supply_warning_says_the_own_city_next_to_the_units_is_under_siege(demo, tmp_path):
    camp = edited(demo, tmp_path, spartans_at("1312"))  # next to Athens: under siege
    r = check_text(ATHENS + 'second_move:\n  - {units: [ATH-A1], path: ["1212"]}\n', "o.yaml", camp)
    [w] = [f for f in r.findings if "Upkeep" in f.message and f.path]
    assert w.message == ("ATH-A1 ends the turn in 1212 with no friendly city in or next to it that feeds it (Athens "
                         "is under siege): at your next Upkeep each without Baggage makes an upkeep roll (6 or more "
                         "disbands it)"), w.message
    # the units left in besieged Athens starve as well, no order moving them (tests/test_fogsup_checker.py)
    [stay] = [f for f in r.findings if "Upkeep" in f.message and not f.path]
    assert stay.message.startswith("ATH-A2, ATH-R1, ATH-R2, which no order of this file moves, stay in 1313 with no "
                                   "friendly city in or next to it that feeds it (Athens is under siege)"), stay.message
    # Athens' own garrison is not told to leave it (a code review: it named the nearest other city to walk to)
    assert stay.hint == "break the siege of Athens, or bring Baggage there (R-PH-UPK)", stay.hint
    # not besieged: no warning (1212 is next to Athens)
    r = check_text(ATHENS + 'second_move:\n  - {units: [ATH-A1], path: ["1212"]}\n', "o.yaml", demo)
    assert not r.findings, said(r)


# -- 3. a move's error that comes of an earlier move skipped says so -----------------------------------------------

def test_second_move_error_says_the_first_move_that_would_have_moved_the_unit_is_skipped(demo):
    r = check_text(ATHENS + 'first_move:\n  - {units: [ATH-A1], path: ["1214"]}\n'
                            'second_move:\n  - {units: [ATH-A1], path: ["1113"]}\n', "o.yaml", demo)
    [f] = [f for f in r.errors if f.path == "second_move[0].path[0]"]
    assert f.message == "1113 is not next to 1313"
    assert f.hint == "first_move[0], which would move ATH-A1, has an error: it is skipped and ATH-A1 stays in 1313"
    # without the first move, the hint is the neighbours, as before
    r = check_text(ATHENS + 'second_move:\n  - {units: [ATH-A1], path: ["1113"]}\n', "o.yaml", demo)
    assert r.errors[0].hint.startswith("neighbours of 1313 are"), said(r)


# -- 4. retreat preferences no unit of the player could ever use (R-BAT-3) ---------------------------------------

def test_retreat_into_water_from_an_inland_hex_is_warned_but_not_from_a_port(demo):
    m = demo.game_map
    frm, sea = next((h, n) for h in sorted(m.terrain) if land_ok(m, h) and not m.ship_may_enter(h)
                    for n in m.neighbours[h] if not m.terrain[n].land)
    r = check_text(ATHENS + f'standing:\n  retreat:\n    "{frm}": ["{sea}"]\n', "o.yaml", demo)
    assert said(r) == [("warning", f"standing.retreat.{frm}[0]",
                        f"{sea} is Water (Sea): land units retreat only over land (R-BAT-3), and no ship of yours "
                        f"stands in {frm}, so no unit ever retreats there")], said(r)
    # from Athens (a port), ships beaten there may retreat into the sea
    assert not check_text(ATHENS + 'standing:\n  retreat:\n    "1313": ["1314", "1212"]\n', "o.yaml", demo).findings
    # from the sea, ships may not retreat inland
    water, inland = next((h, n) for h in sorted(m.terrain) if not m.terrain[h].land for n in m.neighbours[h]
                         if land_ok(m, n) and not m.ship_may_enter(n))
    r = check_text(ATHENS + f'standing:\n  retreat:\n    "{water}": ["{inland}"]\n', "o.yaml", demo)
    assert [(s, p) for s, p, _ in said(r)] == [("warning", f"standing.retreat.{water}[0]")], said(r)
    assert "ships retreat only into" in r.findings[0].message


# -- 5. a leader target is asked for by name, as the kit shows enemy leaders ----------------------------------------

def test_failure_without_a_target_asks_for_an_enemy_leaders_name_from_sight(demo, tmp_path):
    camp = edited(demo, tmp_path, spartans_at("1312", leader=True))
    r = check_text(ATHENS + "standing:\n  reactions: [failure]\n", "o.yaml", camp)
    [f] = [f for f in r.errors if "needs a target" in f.message]
    assert f.message == ("Failure needs a target: the name of an enemy leader in sight (e.g. Epaminondas), which it "
                         "removes if that leader's side loses; in standing reactions without one it is never played"), \
        f.message
    r = check_text(ATHENS + "standing:\n  reactions: [failure]\n", "o.yaml", demo)
    [f] = [f for f in r.errors if "needs a target" in f.message]
    assert "the name of an enemy leader in sight (you see none now)" in f.message
    assert " id " not in f.message


# -- 6. a second move into the hex of one's own attack, moving first ------------------------------------------------

def test_second_move_into_own_attack_hex_hint_says_the_attack_must_clear_it(demo, tmp_path):
    def change(s: GameState) -> None:
        spartans_at("1212")(s)
        first(s, "athens")
    camp = edited(demo, tmp_path, change)
    r = check_text(ATHENS + 'land_battle:\n  - {units: [ATH-A1], target: "1212"}\n'
                            'second_move:\n  - {units: [ATH-A2], path: ["1212"]}\n', "o.yaml", camp)
    [f] = [f for f in r.findings if f.path == "second_move[0].path[0]" and "enemy" in f.message]
    assert f.severity == "warning"
    assert f.hint == "your own attack on 1212 at land_battle[0] must clear it first", f.hint


# -- 7. a kit's anonymous id as a target always fails at adjudication ------------------------------------------------

def test_a_kits_anonymous_id_as_a_target_says_to_name_the_hex(demo, tmp_path):
    camp = edited(demo, tmp_path, spartans_at("1212"))
    text = ATHENS + 'cards:\n  - {card: storms, target: "SPA-?1"}\n'
    r = check_text(text, "o.yaml", camp, as_player="athens")
    [f] = [f for f in r.errors if f.path == "cards[0].target"]
    assert f.message == "SPA-?1 is how your kit shows a unit you see, not its id: an order aimed at SPA-?1 always fails"
    assert f.hint == 'name its stack by its hex ("1212")'


# -- 8. the redacted views live on the Game --------------------------------------------------------------------------

def test_seen_by_views_are_kept_on_the_game(demo):
    whole = Game.of(demo)
    view = Game.seen_by(demo, "athens")
    assert whole.views["athens"] is view and Game.seen_by(demo, "athens") is view
    assert not hasattr(checker, "_SEEN")
    # the views take no part in comparing Games
    assert Game(whole.state, whole.game_map, whole.tables, whole.kit_of) == whole


def test_a_leader_targets_examples_never_name_ones_own_leaders(demo):
    """A final review: with no enemy leader in sight, Assassination's missing target suggested Athens' own
    leaders ("e.g. Empedocles, Hagnon, Phoebidas")."""
    state = demo.load_state()
    own = {u.name for u in state.units.values() if u.owner == "athens" and u.name}
    r = check_text(ATHENS + "cards: [{card: assassination}]\n", "o.yaml", demo)
    [f] = [f for f in r.findings if f.path == "cards[0]"]
    assert "needs a target" in f.message and own and not any(n in f.message for n in own), f.message
