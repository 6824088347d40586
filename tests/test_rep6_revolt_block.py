"""A revolt's battle block no longer ends with the result of the order that started it.  A new player (as
Sparta) read "The Cretans' order Cards: done: played Install Governments" at the end of a revolt he fought:
it said nothing the block had not said (the card played, "stirred up by the Cretans' Install Governments
card") and read like a line of another player's orders.  The instigator's ORDERS keep the order whole, and a
battle an attack order fought keeps its order's line."""
from __future__ import annotations

from pbem import report
from scenario import TABLES, TINY, add, make_state, orders, run_phase
from test_revolt_reports import context, stir, text_report


def battle_lines(ctx):
    [b] = ctx["battles"]
    return [line["text"] for line in b["lines"]]


def test_a_revolt_block_says_what_started_it_once_and_not_as_an_order_result():
    cases = (("revolt", [2, 1, 2, 9, 8], "Revolt card"),
             ("install_governments", [2, 1, 2, 9, 8], "Install Governments card"),
             (None, [6, 1, 2, 9, 8], "diplomacy roll"))
    for card, dice, cause in cases:
        after, before, records, _ = stir(dice, card=card)
        assert [r for r in records if r.get("event") == "order_done"]  # the zone's last record, as logged
        for viewer in ("sparta", None):
            ctx = context(before, after, records, viewer)
            lines = battle_lines(ctx)
            assert not [t for t in lines if " order " in t], (card, viewer, lines)
            assert any(f"(stirred up by the Athenians' {cause})" in t for t in lines), (card, viewer, lines)
            assert "The Athenians' order" not in text_report(ctx)
        # the instigator still reads his order, with the revolt it started
        [o] = context(before, after, records, "athens")["orders"]
        assert o["ok"] and "Megara revolted against the Spartans" in o["detail"]


def test_an_attack_keeps_its_order_line_in_its_battle_block():
    s = make_state(gold=10)
    a1, a2 = add(s, "athens", "army", "0405"), add(s, "athens", "army", "0507")
    before = s.copy()
    o = orders("athens", land_battle=[{"units": [a1.id, a2.id], "target": "0506"}])
    ctx = run_phase("land_battle", s, "athens", dice=[10, 10, 1, 1], orders=o)
    lines = battle_lines(report.build_context("t", 1, TINY, TABLES, s, before, ctx.log.records, "athens"))
    assert any(t.startswith("Your order Land battle #1: fought") for t in lines), lines
