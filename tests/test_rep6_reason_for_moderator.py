"""A failed order's reason is written for the order's owner (``movement.unit_fate``: "ATH-A1 disbanded in your
Upkeep"; "not in your hand"); the moderator read "Athenians: First move #1: FAILED: ATH-A1 disbanded in your
Upkeep".  Anyone but the owner now reads it of the owner: "in the Athenians' Upkeep"; the owner still reads
"your"."""
from __future__ import annotations

from pbem import report
from scenario import TABLES, TINY, give, make_state, orders, run_phase
from test_rep5_left_at_sea import reports, transport_whose_army_disbanded


def test_R_TURN_4_the_moderator_reads_a_disbanded_units_failure_in_the_owners_upkeep():
    after, before, records = transport_whose_army_disbanded(1)
    ctx, text, page = reports(after, before, records, None)
    [o] = ctx["orders"]
    assert o["reason"].startswith("ATH-A1 disbanded in the Athenians' Upkeep (starvation"), o["reason"]
    for shown in (text, page):
        assert "Athenians: First move #1: FAILED: ATH-A1 disbanded in the Athenians' Upkeep" in shown
        assert "your Upkeep" not in shown
    ctx, text, page = reports(after, before, records, "athens")
    assert "FAILED: ATH-A1 disbanded in your Upkeep" in text and "FAILED: ATH-A1 disbanded in your Upkeep" in page


def test_R_TURN_4_a_card_not_in_hand_reads_of_its_player_for_the_moderator():
    s = make_state()
    give(s, "athens", "contributions")
    before = s.copy()
    ctx = run_phase("diplomacy", s, "athens", orders=orders("athens", cards=[{"card": "coercion"}]))
    [fail] = [r for r in ctx.log.records if r.get("event") == "order_failed"]
    assert "your hand" in fail["reason"]
    mod = report.build_context("t", 1, TINY, TABLES, s, before, ctx.log.records, None)
    [o] = mod["orders"]
    assert "the Athenians' hand" in o["reason"] and "your" not in o["reason"], o["reason"]
    own = report.build_context("t", 1, TINY, TABLES, s, before, ctx.log.records, "athens")
    assert "your hand" in own["orders"][0]["reason"]


def test_for_others_words_you_and_your_of_the_owner():
    assert report.for_others("it costs 3 gold and you have 1", "the Athenians") == \
        "it costs 3 gold and the Athenians have 1"
    assert report.for_others("unknown unit; did you mean ATH-A1?", "the Athenians") == \
        "unknown unit; did they mean ATH-A1?"
    assert report.for_others("a revolt in your city", "Macedon") == "a revolt in Macedon's city"
    assert report.for_others("SPA-T1 captured by the Youths", "the Athenians") == "SPA-T1 captured by the Youths"
