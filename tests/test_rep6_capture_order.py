"""A capture made by a move comes after that move's line in the EVENTS (R-UNIT-3: taken by moving in).  The
log writes the capture while the move goes on and the "moved" record at its end (``movement.capture_hex``);
a new player (turn 8 as Sparta) read "Your SPA-T1 (transport) captured ... by moving in" BEFORE
"Corinthians: 2 armies moved from 1215 to 1216", the move that took it.  The owner, the captor and the
moderator read the move first, then what it took (a captured leader's ransom die and fate as well)."""
from __future__ import annotations

from pbem import report
from scenario import TABLES, TINY, add, make_state, orders, run_phase


def event_lines(after, before, records, viewer):
    ctx = report.build_context("t", 1, TINY, TABLES, after, before, records, viewer)
    return [(i["text"], i["dice"]) for b in ctx["events"] for i in b["items"]]


def index(lines, *words):
    found = [i for i, (text, _) in enumerate(lines) if all(w in text for w in words)]
    assert found, (words, lines)
    return found[0]


def test_R_UNIT_3_a_baggage_captured_by_a_move_is_listed_after_the_move_that_took_it():
    s = make_state(gold=10)
    add(s, "sparta", "army", "0505")
    add(s, "athens", "army", "0302")
    bag = add(s, "athens", "baggage", "0504")
    before = s.copy()
    ctx = run_phase("first_move", s, "sparta", orders=orders("sparta", first_move=[
        {"units": ["0505"], "path": ["0504"]}]))
    kinds = [r.get("event") for r in ctx.log.records if r.get("event") in ("captured", "moved")]
    assert kinds == ["captured", "moved"]  # as logged: the capture first
    for viewer in ("athens", "sparta", None):
        lines = event_lines(s, before, ctx.log.records, viewer)
        moved, taken = index(lines, "moved"), index(lines, bag.id, "captured", "by moving in")
        assert moved < taken, (viewer, lines)


def test_R_UNIT_4_a_leader_captured_by_a_move_is_ransomed_after_the_move_with_its_die():
    s = make_state(gold=10)
    add(s, "sparta", "army", "0505")
    add(s, "athens", "army", "0302")
    add(s, "athens", "leader", "0504", name="Pericles", skills=["strategist"])
    before = s.copy()
    ctx = run_phase("first_move", s, "sparta", dice=[4], orders=orders("sparta", first_move=[
        {"units": ["0505"], "path": ["0504"]}]))
    for viewer in ("athens", "sparta", None):
        lines = event_lines(s, before, ctx.log.records, viewer)
        moved, fate = index(lines, "moved"), index(lines, "Pericles")
        assert moved < fate, (viewer, lines)
        assert any("ransom" in d for d in lines[fate][1]), (viewer, lines)  # its die with it


def test_a_move_that_captures_nothing_keeps_the_events_as_logged():
    s = make_state(gold=10)
    add(s, "sparta", "army", "0505")
    add(s, "athens", "army", "0302")
    before = s.copy()
    ctx = run_phase("first_move", s, "sparta", orders=orders("sparta", first_move=[
        {"units": ["0505"], "path": ["0504"]}]))
    events = [r for r in ctx.log.records if "event" in r]
    assert report.captures_after_their_moves(ctx.log.records, events) == events
