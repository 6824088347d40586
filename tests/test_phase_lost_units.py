"""An order naming a unit lost earlier in the same turn says what became of it (R-TURN-4: "the player's report
says which order failed and why"), from this turn's log: disbanded in Upkeep, destroyed in a battle, sunk,
captured, used up as Baggage.  One message for moves and attacks alike (``pbem.battle.expand_units`` with
``pbem.movement.fate_teller``)."""
from __future__ import annotations

from pbem.dice import ScriptedDice
from pbem.movement import unit_fate

from scenario import TABLES, add, events, make_state, orders, run_phase, run_turn


def failed(log, section=None):
    return [e for e in events(log, "order_failed") if section is None or e["section"] == section]


def test_R_TURN_4_a_unit_disbanded_in_upkeep_moves_and_attacks_no_more():
    s = make_state()
    a = add(s, "athens", "army", "0404", starvation=5)  # no friendly city near: 1D6 1 + 5 = 6 disbands
    add(s, "sparta", "army", "0504")
    o = orders("athens", first_move=[{"units": [a.id], "path": ["0405"]}],
               land_battle=[{"units": [a.id], "target": "0504"}])
    log = run_turn(s, {"athens": o, "sparta": None}, ScriptedDice([1] * 20))
    assert a.id not in s.units and events(log, "disbanded")
    why = "ATH-A1 disbanded in your Upkeep (starvation: no friendly city in or next to its hex)"
    assert [e["reason"] for e in failed(log, "first_move")] == [why]
    assert [e["reason"] for e in failed(log, "land_battle")] == [why]


def test_R_TURN_4_a_unit_lost_in_an_earlier_players_battle():
    """Sparta (first) attacks and destroys Athens' Army; Athens' own orders then name it."""
    s = make_state(("sparta", "athens"))
    a = add(s, "athens", "army", "0403")
    b = add(s, "sparta", "army", "0504")
    o_sp = orders("sparta", land_battle=[{"units": [b.id], "target": "0403"}])
    o_at = orders("athens", first_move=[{"units": ["ATH-A1"], "path": ["0404"]}])
    # Sparta: experience 1D10 1, attack 1D10 9, defence 1D10 1 (+3 Forest), casualty 1D6 1 (destroyed)
    log = run_turn(s, {"sparta": o_sp, "athens": o_at}, ScriptedDice([1, 9, 1, 1] + [1] * 20))
    assert a.id not in s.units
    [f] = failed(log, "first_move")
    assert f["reason"] == "ATH-A1 was destroyed in the battle at 0403 in the Spartans' Land Battle", f


def test_R_TURN_4_a_captured_transport_says_by_whom():
    """Athens' empty Transport is captured by Sparta's Army in Sparta's First Move; Athens then orders it."""
    s = make_state(("sparta", "athens"))
    t = add(s, "athens", "transport", "0405")
    b = add(s, "sparta", "army", "0505")
    o_sp = orders("sparta", first_move=[{"units": [b.id], "path": ["0405"]}])
    o_at = orders("athens", first_move=[{"units": [t.id], "path": ["0404"]}])
    log = run_turn(s, {"sparta": o_sp, "athens": o_at}, ScriptedDice([1] * 20))
    assert s.units[t.id].owner == "sparta", events(log, "captured")
    [f] = failed(log, "first_move")
    assert f["reason"] == "ATH-T1 was captured by the Spartans in their First Move", f


def test_R_TURN_4_fates_from_the_log_words():
    s = make_state()
    rec = {"player": "athens", "phase": "second_move"}
    sunk = [{**rec, "event": "sunk", "unit": "ATH-F1", "hex": "0201", "lost": ["ATH-F1", "ATH-R1"]}]
    assert unit_fate(s, sunk, "ATH-F1", "athens") == "ATH-F1 was sunk at 0201 (navigation roll) in your Second Move"
    assert unit_fate(s, sunk, "ATH-R1", "athens") == \
        "ATH-R1 was sunk with ATH-F1 at 0201 (navigation roll) in your Second Move"
    storms = [{"player": "sparta", "phase": "diplomacy", "event": "sunk", "unit": "ATH-T1", "lost": [],
               "cause": "storms"}]
    assert unit_fate(s, storms, "ATH-T1", "athens", TABLES) == "ATH-T1 was sunk by Storms in the Spartans' Diplomacy"
    used = [{"player": "athens", "phase": "upkeep", "event": "baggage_used", "unit": "ATH-A1", "baggage": "ATH-B1"}]
    assert unit_fate(s, used, "ATH-B1", "athens") == "ATH-B1 was used up to feed ATH-A1 in your Upkeep"
    assert unit_fate(s, sunk, "ATH-A9", "athens") is None, "nothing in the log: the old message"
    assert unit_fate(s, sunk, "ATH-F1", "sparta") is None, "nothing is told of another player's units"


def test_R_TURN_4_a_unit_never_there_keeps_the_plain_message():
    s = make_state()
    ctx = run_phase("first_move", s, "athens", orders=orders("athens", first_move=[{"units": ["ATH-A7"],
                                                                                     "path": ["0405"]}]))
    assert failed(ctx)[0]["reason"] == "no unit ATH-A7 (destroyed or never existed)"


def test_R_TURN_4_upkeep_priority_names_a_unit_lost_earlier_in_the_turn():
    s = make_state(("sparta", "athens"))
    a = add(s, "athens", "army", "0403")
    b = add(s, "sparta", "army", "0504")
    o_sp = orders("sparta", land_battle=[{"units": [b.id], "target": "0403"}])
    o_at = orders("athens", upkeep=["ATH-A1"])
    log = run_turn(s, {"sparta": o_sp, "athens": o_at}, ScriptedDice([1, 9, 1, 1] + [1] * 20))
    assert a.id not in s.units
    [f] = failed(log, "upkeep")
    assert f["reason"] == "ATH-A1 was destroyed in the battle at 0403 in the Spartans' Land Battle", f


def test_R_TURN_4_an_attacker_lost_is_named_at_its_hex_in_the_battle_for_the_target():
    """A player's review: "SPA-F3 was destroyed in the battle at 1013" while BATTLES said "Battle at 1014": the
    casualty's hex is where the attacker stood; the message names the battle by the hex it was fought for."""
    s = make_state()
    a = add(s, "athens", "army", "0403")
    add(s, "sparta", "army", "0504")
    o = orders("athens", land_battle=[{"units": [a.id], "target": "0504"}],
               second_move=[{"units": [a.id], "path": ["0404"]}])
    # upkeep 1D6 1 (out of supply, kept), experience 1D10 1, attack 1D10 1, defence 1D10 9, casualty 1D6 1:
    # the attacker is destroyed
    log = run_turn(s, {"athens": o, "sparta": None}, ScriptedDice([1, 1, 1, 9, 1] + [1] * 20))
    assert a.id not in s.units
    [f] = failed(log, "second_move")
    assert f["reason"] == "ATH-A1 was destroyed at 0403 in the battle for 0504 in your Land Battle", f
