"""A card's timing ("when it is played, where it goes in the order file") is worded once for docs/rules.md's card
table and the reports' HAND: ``pbem.textview.card_timing``.  docs/gen_tables.py must give the same words."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from pbem import report
from pbem.textview import card_timing

from scenario import TABLES, TINY, give, make_state

ROOT = Path(__file__).resolve().parent.parent


def gen_tables():
    spec = importlib.util.spec_from_file_location("gen_tables", ROOT / "docs" / "gen_tables.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("card", sorted(TABLES.cards))
def test_the_docs_card_table_and_the_report_word_a_cards_timing_alike(card):
    assert card_timing(TABLES.cards[card]) == gen_tables().card_timing(TABLES.cards[card])


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
