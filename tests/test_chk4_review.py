"""The order checker after a player's nine turns as Ionia, each finding reproduced on the demo campaign: a diplomacy
roll and a land attack on the same city in one file (the roll comes first and may win or neutralise the city), and
an Army still aboard its ship when it should attack (the hint names the move that left it aboard and how to put it
ashore; a hex id in a ship move's units takes the Armies and Rowers there aboard, and is warned)."""
from __future__ import annotations

import pytest

from pbem.checker import check_text
from pbem.model import Unit, UnitType
from pbem.storage import Campaign
from demo_campaign import create_demo, edited, ATHENS, said, first


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Campaign:
    return create_demo(tmp_path_factory.mktemp("campaigns") / "demo")


# -- 1. a diplomacy roll and a land attack on the same city ------------------------------------------------------

ON_MEGARA = ('first_move:\n  - units: [ATH-A1, ATH-A2]\n    path: ["1212"]\n'
             'land_battle:\n  - units: [ATH-A1, ATH-A2]\n    target: "1112"\n')


def on_target(r) -> list[tuple[str, str, str]]:
    return [f for f in said(r) if f[1] == "land_battle[0].target"]


def test_an_attack_on_a_neutral_city_the_diplomacy_roll_may_win_first_is_warned(demo, tmp_path):
    """ionia-t3.yaml: diplomacy [..., miletus] and a land_battle on Miletus (2515); the roll came up 6 and the
    attack failed ("Miletus in 2515 is yours now") with no word from the checker."""
    r = check_text(ATHENS + "diplomacy: [megara]\n" + ON_MEGARA, "o.yaml", edited(demo, tmp_path, lambda s: first(
        s, "athens")))
    assert on_target(r) == [("warning", "land_battle[0].target",
                             "diplomacy[0] rolls for Megara in the Diplomacy phase, before the battles: if that roll "
                             "succeeds (a 6 on one die: 1 chance in 6), Megara is yours and this attack on it fails (a "
                             "city of yours is no target)")], said(r)
    [f] = [f for f in r.findings if f.path == "land_battle[0].target"]
    assert f.hint == "keep both only if you mean to attack Megara in case the roll fails"
    # no roll on Megara: nothing to say
    r = check_text(ATHENS + "diplomacy: [chalcis]\n" + ON_MEGARA, "o.yaml", edited(demo, tmp_path / "b", lambda s: first(
        s, "athens")))
    assert on_target(r) == [], said(r)


def test_an_attack_on_an_enemy_city_the_diplomacy_roll_may_make_revolt_says_it_may_go_neutral(demo, tmp_path):
    """A roll on a city another player holds makes it revolt (R-PH-DIP-REVOLT): it may go neutral before the
    attack, which then fights the neutral city's defenders; a hostile city's +1 makes it 2 chances in 6."""
    def theban(s) -> None:
        first(s, "athens")
        s.cities["megara"].controller = "thebes"
        s.cities["megara"].hostile = True
    r = check_text(ATHENS + "diplomacy: [megara]\n" + ON_MEGARA, "o.yaml", edited(demo, tmp_path, theban))
    assert on_target(r) == [("warning", "land_battle[0].target",
                             "diplomacy[0] rolls for Megara in the Diplomacy phase, before the battles: if that roll "
                             "succeeds (5 or 6 on one die, +1 as the city is hostile: 2 chances in 6), Megara revolts: "
                             "it goes neutral before this attack if the rebels beat the Thebans' units there (or none "
                             "are there), and this attack then fights the neutral city's own defenders instead "
                             "(R-PH-DIP-REVOLT)")], said(r)


def test_a_diplomacy_target_never_rolled_for_gives_the_attack_no_warning(demo, tmp_path):
    """Athens first, razed twice (no experience roll): 1 roll, used by Chalcis; Megara is never rolled for (an
    error at the diplomacy entry), so the attack on it is not warned about the roll."""
    def change(s) -> None:
        first(s, "athens")
        s.cities["athens"].razed = 2
        s.units["ATH-L1"].skills, s.units["ATH-L2"].skills, s.units["ATH-L3"].skills = [], [], []
    r = check_text(ATHENS + "diplomacy: [chalcis, megara]\n" + ON_MEGARA, "o.yaml", edited(demo, tmp_path, change))
    assert [f[:2] for f in said(r) if f[1].startswith("diplomacy")] == [("error", "diplomacy[1]")], said(r)
    assert on_target(r) == [], said(r)


# -- 2. an Army still aboard its ship at attack time -------------------------------------------------------------

def transport(aboard: bool = False):
    """Athens first; ATH-T1, a Transport, docked in Athens (1313) with ATH-A1 ashore (or ``aboard`` it), ATH-F1
    (ATH-R1 aboard) there too; ATH-A2 and ATH-F2 out of the city (stacking); a Spartan Army in the Farms 1213, next
    to Athens and to the sea 1314."""
    def change(s) -> None:
        first(s, "athens")
        s.add_unit(Unit("ATH-T1", UnitType.TRANSPORT, "athens", "1313", None))
        s.next_id["ATH-T"] = 1
        s.units["ATH-A2"].hex = "1412"
        s.units["ATH-F2"].hex = s.units["ATH-R2"].hex = "1314"
        s.units["SPA-A1"].hex = "1213"
        if aboard:
            s.units["ATH-A1"].carried_by = "ATH-T1"
    return change


ATTACK = 'land_battle:\n  - units: [ATH-A1]\n    target: "1213"\n'
ABOARD = "ATH-A1 is aboard ATH-T1: only Armies and Rowers on land attack in a land battle"


def attacker(r):
    [f] = [f for f in r.findings if f.path == "land_battle[0].units[0]"]
    assert (f.severity, f.message) == ("error", ABOARD), said(r)
    return f.hint


def test_an_army_a_move_left_aboard_in_port_is_told_to_unload_in_that_move(demo, tmp_path):
    """The hint said "ships attack in sea_battle": the wrong way round.  It names the move that carried it and
    the unload: to add."""
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-T1, ATH-A1]\n    path: ["1314", "1313"]\n' + ATTACK,
                   "o.yaml", edited(demo, tmp_path, transport()))
    assert attacker(r) == ("first_move[0] carries it aboard ATH-T1: add unload: [ATH-A1] to first_move[0] to put it "
                           "ashore in 1313")
    # with the unload: it attacks
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-T1, ATH-A1]\n    path: ["1314", "1313"]\n'
                            '    unload: [ATH-A1]\n' + ATTACK, "o.yaml", edited(demo, tmp_path / "b", transport()))
    assert not [f for f in r.findings if f.path.startswith("land_battle")], said(r)


def test_an_army_a_move_left_aboard_at_sea_is_told_where_it_may_go_ashore(demo, tmp_path):
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-T1, ATH-A1]\n    path: ["1314"]\n' + ATTACK, "o.yaml",
                   edited(demo, tmp_path, transport()))
    assert attacker(r) == ("first_move[0] leaves it aboard in 1314 (Water (Sea)), and units go ashore only where the "
                           "ship is docked or beached (a coastal City, Sandy Coast or Fishing Village hex): end that "
                           "move in one and add unload: [ATH-A1]")


def test_an_army_aboard_from_before_the_turn_is_told_to_unload_in_a_first_move(demo, tmp_path):
    r = check_text(ATHENS + ATTACK, "o.yaml", edited(demo, tmp_path, transport(aboard=True)))
    assert attacker(r) == ("put it ashore first: a first_move {units: [ATH-T1], unload: [ATH-A1]} lands it in 1313")


def test_a_hex_id_in_a_ship_move_that_takes_an_army_aboard_is_warned_and_named_in_the_attack_hint(demo, tmp_path):
    """units: ["1313"] names every unit of Athens' there not aboard a ship: ATH-A1 goes aboard the departing
    Transport, which the player may not mean; the attack's hint says that is how it came aboard."""
    r = check_text(ATHENS + 'first_move:\n  - units: ["1313"]\n    path: ["1314"]\n' + ATTACK, "o.yaml",
                   edited(demo, tmp_path, transport()))
    assert ("warning", "first_move[0].units[0]",
            '"1313" in units moves every unit of yours in 1313: ATH-A1 goes aboard the moving ships and sails with '
            'them') in said(r), said(r)
    [w] = [f for f in r.findings if f.path == "first_move[0].units[0]"]
    assert w.hint == ("to leave it ashore, list the ships by id (units: [ATH-F1, ATH-T1]); to take it along, name it "
                      "in load: [ATH-A1]")
    assert attacker(r) == ('first_move[0] names the hex "1313" in units, which takes every Army and Rowers of yours '
                           'there aboard the departing ships, ATH-A1 too: list the ships by id in first_move[0] to '
                           'leave it ashore')
    # named in load: meant, no warning (the Rowers already aboard ATH-F1 were never in question)
    r = check_text(ATHENS + 'first_move:\n  - units: ["1313"]\n    path: ["1314"]\n    load: [ATH-A1]\n', "o.yaml",
                   edited(demo, tmp_path / "b", transport()))
    assert not [f for f in r.findings if f.path.startswith("first_move[0].units")], said(r)
    # the ships by id: ATH-A1 stays ashore and attacks
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-F1, ATH-T1]\n    path: ["1314"]\n' + ATTACK, "o.yaml",
                   edited(demo, tmp_path / "c", transport()))
    assert not [f for f in r.findings if f.path.startswith(("first_move[0].units", "land_battle"))], said(r)


def test_an_army_aboard_named_in_a_sea_battle_is_told_to_name_its_transport(demo, tmp_path):
    """An engineer's note: the hint said "Armies and Rowers attack in land_battle", where naming its Transport
    (which fights at sea with its Army aboard) is what the player meant."""
    r = check_text(ATHENS + 'sea_battle:\n  - units: [ATH-A1]\n    target: "1314"\n', "o.yaml",
                   edited(demo, tmp_path, transport(aboard=True)))
    [f] = [f for f in r.findings if f.path == "sea_battle[0].units[0]"]
    assert f.severity == "error" and f.hint == ("name its ship ATH-T1 instead: a Transport with an Army aboard "
                                                "fights at sea"), said(r)
