"""A card's timing ("when it is played, where it goes in the order file") is worded once for docs/rules.md's card
table and the reports' HAND: ``pbem.textview.card_timing`` (docs/gen_tables.py imports it)."""
from __future__ import annotations

from pbem import report

from scenario import TABLES, TINY, give, make_state


def test_the_hand_says_when_each_card_is_played_and_where_it_goes():
    s = make_state()
    give(s, "athens", "revolt", "executions", "break_formation", "forced_march")
    ctx = report.build_context("t", 1, TINY, TABLES, s, s.copy(), [], "athens")
    when = {c["name"]: c["when"] for c in ctx["hand"]}
    assert when["Revolt"] == "your Diplomacy phase (`cards`, target: a minor city another player controls)"
    assert when["Executions"] == "reaction, other players' turns: a revolt in your city (standing `executions`)"
    assert when["Break Formation"] == "battle, either side (the attack's `cards`, or standing `defence_cards`)"
    assert when["Forced March"].startswith("your move phases (the move's `cards`")
    text = " ".join(report.environment().get_template("report.txt.j2").render(**ctx).split())
    assert ("Revolt: Target enemy controlled minor city revolts. when: your Diplomacy phase (`cards`, target: a "
            "minor city another player controls)") in text
