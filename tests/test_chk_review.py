"""The order checker after a player's, a moderator's and a red-teamer's fresh-eyes reviews: each finding here
was reproduced against the demo campaign first (see the commit messages)."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.checker import check_text, main
from pbem.model import GameState
from demo_campaign import create_demo, edited, ATHENS, said
from pbem.storage import Campaign



@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Campaign:
    return create_demo(tmp_path_factory.mktemp("campaigns") / "demo")


# -- 1. new Rowers go aboard an unmanned Fleet in the city (R-PH-REC, Decision (new Rowers)) ----------------

def test_new_rowers_man_the_unmanned_fleet_in_the_city_so_it_may_move(demo, tmp_path):
    def unmanned(s: GameState):
        s.remove_unit("ATH-R1")  # ATH-F1, docked in Athens, has no Rowers now
    camp = edited(demo, tmp_path, unmanned)
    move = 'second_move:\n  - units: [ATH-F1]\n    path: ["1314"]\n'
    alone = check_text(ATHENS + move, "o.yaml", camp)
    assert [f.message for f in alone.errors] == [
        "ATH-F1 has no Rowers aboard: an unmanned Fleet cannot move (R-UNIT-3)"]
    r = check_text(ATHENS + "recruit:\n  - {city: athens, unit: rowers}\n" + move, "o.yaml", camp)
    assert not r.errors, said(r)
    # the Fleet takes its new Rowers along: they are moved already
    r = check_text(ATHENS + "recruit:\n  - {city: athens, unit: rowers}\n" + move +
                   "  - units: [ATH-R3]\n    path: [\"1312\"]\n", "o.yaml", camp)
    assert ("error", "second_move[1].units[0]", "ATH-R3 already moves in second_move[0]: a unit takes part in "
                                                 "one move order per phase") in said(r), said(r)
    assert ("warning", "second_move[1].units[0]", "ATH-R3 does not exist yet: it is the id the rowers recruited in "
                                                   "Athens (aboard ATH-F1) will get") in said(r), said(r)


def test_a_second_rowers_recruit_does_not_board_the_fleet_the_first_one_manned(demo, tmp_path):
    """Only one Rowers unit goes aboard a Fleet: with Organization a city may recruit two, and the second stands
    in the city (counting for stacking), as ``pbem.phases.recruit.unmanned_fleet`` finds no unmanned Fleet then."""
    from pbem.checker import Game, RuleCheck
    from pbem.orders import build
    from pbem import yamlio

    def unmanned(s: GameState):
        s.remove_unit("ATH-R1")
        s.units["ATH-L1"].skills = ["organization"]  # Athens, nearest, recruits 2 units
        for uid in ("ATH-A1", "ATH-A2"):
            s.place(s.units[uid], "1312")
    camp = edited(demo, tmp_path, unmanned)
    text = ATHENS + "recruit:\n  - {city: athens, unit: rowers}\n  - {city: athens, unit: rowers}\n"
    assert not check_text(text, "o.yaml", camp).findings
    check = RuleCheck(build(yamlio.parse(text, "o.yaml"), text), Game.of(camp), "o.yaml")
    check.run()
    assert check.sim.units["ATH-R3"].carried_by == "ATH-F1"
    assert check.sim.units["ATH-R4"].carried_by is None


def test_rowers_recruited_aboard_do_not_count_for_the_stacking_of_the_next_entry(demo, tmp_path):
    """Athens holds 4 of 4 (ATH-A1, A2, F1, F2): the first Rowers go aboard the unmanned ATH-F1, the second would
    stand in the city, the fifth of its stack (the Recruit phase refuses it so)."""
    def unmanned(s: GameState):
        s.remove_unit("ATH-R1")
        s.units["ATH-L1"].skills = ["organization"]
    camp = edited(demo, tmp_path, unmanned)
    r = check_text(ATHENS + "recruit:\n  - {city: athens, unit: rowers}\n  - {city: athens, unit: rowers}\n",
                   "o.yaml", camp)
    assert said(r) == [("error", "recruit[1].unit", "Athens would hold 5 of your Armies, Fleets and Transports; "
                                                     "the stacking limit there is 4")], said(r)


# -- 4. without a campaign, the format alone is checked, and the output says so ------------------------------

def test_without_a_campaign_the_output_says_only_the_format_was_checked(tmp_path):
    f = tmp_path / "orders.yaml"
    f.write_text(ATHENS + 'first_move:\n  - {units: [ATH-A9], path: ["1214"]}\n')
    text, code = main(f, None, "text")
    assert code == 0
    assert text == (f"{f}: OK: the file's format is right (not checked against a campaign: add --campaign "
                    f"KIT_FOLDER to check the orders against the game)\n"), text
    f.write_text(ATHENS + "cards: [intrigu]\n")
    text, code = main(f, None, "text")
    assert code == 1 and text.endswith(f"{f}: 1 error, 0 warnings (the format only: not checked against a "
                                       f"campaign)\n"), text


# -- 5. last turn's file stops after the header ---------------------------------------------------------------

def test_a_file_for_a_turn_that_is_over_stops_after_the_header(demo, tmp_path):
    """Last turn's orders checked against this turn's state only say things about a game they were not
    written for (a moderator review): the header's error is all."""
    camp = edited(demo, tmp_path, lambda s: setattr(s, "turn", 2))
    body = "recruit:\n  - {city: melos, unit: army}\ndiplomacy: [athens]\n"
    r = check_text(ATHENS + body, "o.yaml", camp)
    assert [(f.severity, f.path, f.message) for f in r.findings] == [
        ("error", "turn", "turn 1 is over; the campaign is at turn 2")], said(r)
    # a file for this turn is checked through, as before
    r = check_text(ATHENS.replace("turn: 1", "turn: 2") + body, "o.yaml", camp)
    assert {f.path for f in r.errors} == {"recruit[0].city", "diplomacy[0]"}, said(r)


# -- 6. the hint of a city that may not recruit lists the cities that may ------------------------------------

def test_may_not_recruit_hint_lists_only_cities_that_may_recruit(demo, tmp_path):
    def hostile_megara(s: GameState):
        s.cities["megara"].controller = "athens"
        s.cities["megara"].hostile = True
        s.cities["chalcis"].controller = "athens"
    camp = edited(demo, tmp_path, hostile_megara)
    r = check_text(ATHENS + "recruit:\n  - {city: megara, unit: army}\n", "o.yaml", camp)
    [f] = r.findings
    assert f.message == "Megara may not recruit: it is hostile"
    assert f.hint == "cities of yours that may recruit now: athens, chalcis", f.hint


# -- 7. an enemy leader named by the id a battle report showed -----------------------------------------------

def test_an_enemy_leader_named_by_id_is_told_to_be_named_by_name(demo, tmp_path):
    def spartan_in_sight(s: GameState):
        s.place(s.units["SPA-L1"], "1212")
        s.place(s.units["SPA-A1"], "1212")
    camp = edited(demo, tmp_path, spartan_in_sight)
    from pbem.playerkit import write_kit
    kit = Campaign.open(write_kit(camp, "athens"))
    r = check_text(ATHENS + "cards:\n  - {card: assassination, target: SPA-L1}\n", "o.yaml", kit)
    [f] = [f for f in r.findings if f.path == "cards[0].target"]
    # (a final review made another player's unit id an error: which leader bears which id is not Athens' to know)
    assert f.severity == "error" and f.message == "SPA-L1 is another player's unit id: a card names another player's stack by its hex and their leader by name, never by a unit id (their ids are not yours to know)", f.message
    assert f.hint == "leaders in sight: Epaminondas", f.hint


# -- 8. plunder razes too --------------------------------------------------------------------------------------

def test_the_template_says_plunder_razes_the_city(demo):
    text = (Path(__file__).resolve().parent.parent / "orders" / "template.yaml").read_text(encoding="utf-8")
    assert "plunder: true takes 3D6 gold from a captured city and puts 3 razed counters on it" in text
    assert "destroy: true plunders it and razes it to 6 counters" in text
