"""A card's gold die is worded by whether the card gives or takes gold (the sign of its gold effect in
cards.yaml).  A new player (11 turns as Sparta) read ``You: -7 gold (Internal Jealousies)`` followed by
``die 1D6 = 6: Internal Jealousies: gold for the Spartans`` as gold gained: the die now reads "gold the
Spartans lose", and the cards that give gold "gold the ... gain" (Treasure: "gold gained for taking ...")."""
from __future__ import annotations

import html
import re

from pbem import report
from scenario import TABLES, TINY, add, give, make_state, orders, run_phase


def texts(after, before, records, viewer):
    ctx = report.build_context("t", 1, TINY, TABLES, after, before, records, viewer)
    files = report.render_all(report.environment(), ctx, TINY, ("txt", "html"))
    text = " ".join(files["report.txt"].decode().split())
    page = html.unescape(re.sub(r"<[^>]+>", "", files["report.html"].decode()))
    return text, " ".join(page.split())


def test_R_PH_DIP_internal_jealousies_dice_read_as_gold_lost_for_victim_player_and_moderator():
    s = make_state(gold=10)
    give(s, "athens", "internal_jealousies")
    add(s, "athens", "army", "0302")
    add(s, "sparta", "army", "0707")
    before = s.copy()
    ctx = run_phase("diplomacy", s, "athens", dice=[3, 4], orders=orders("athens", cards=[
        {"card": "internal_jealousies", "target": "sparta"}]))
    assert s.players["sparta"].gold == 3
    for viewer in ("sparta", "athens", None):
        for text in texts(s, before, ctx.log.records, viewer):
            assert "die 1D6 = 3: Internal Jealousies: gold the Spartans lose" in text, viewer
            assert "die 1D6 = 4: Internal Jealousies: gold the Spartans lose" in text, viewer
            assert "gold for the Spartans" not in text, viewer


def test_R_PH_DIP_gold_cards_that_give_gold_read_as_gold_gained():
    s = make_state(gold=10)
    give(s, "athens", "contributions", "ransom_prisoners")
    add(s, "athens", "army", "0302")
    before = s.copy()
    ctx = run_phase("diplomacy", s, "athens", dice=[3, 4, 5], orders=orders("athens", cards=[
        {"card": "contributions"}, {"card": "ransom_prisoners"}]))
    assert s.players["athens"].gold == 22
    for viewer in ("athens", None):
        for text in texts(s, before, ctx.log.records, viewer):
            assert "die 1D6 = 3: Contributions: gold the Athenians gain" in text, viewer
            assert "die 1D6 = 5: Ransom Prisoners: gold the Athenians gain" in text, viewer


def test_R_BAT_5_treasure_die_reads_as_gold_gained_for_the_city_taken():
    # as tests/test_every_card.py: Athens takes neutral Megara with two Armies, 1D10 = 7 gold
    s = make_state(gold=0)
    give(s, "athens", "treasure")
    a1, a2 = add(s, "athens", "army", "0405"), add(s, "athens", "army", "0507")
    before = s.copy()
    o = orders("athens", land_battle=[{"units": [a1.id, a2.id], "target": "0506", "cards": ["treasure"]}])
    ctx = run_phase("land_battle", s, "athens", dice=[10, 10, 1, 1, 7], orders=o)
    assert s.players["athens"].gold == 7
    for viewer in ("athens", None):
        for text in texts(s, before, ctx.log.records, viewer):
            assert "die 1D10 = 7: Treasure: gold gained for taking Megara" in text, viewer
