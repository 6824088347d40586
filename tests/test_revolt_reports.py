"""A revolt a player stirs up, in that player's report: their order stays in ORDERS and says how the revolt
ended (docs/rules.md, Revolts, "Decision (reports)"), while the battle itself stays the defender's.

Found in review: a diplomacy roll that started a revolt vanished from its player's ORDERS (its ORDER_DONE record
closes the revolt's battle zone, which the player did not fight), and nothing said whether the city held."""
from __future__ import annotations

from pbem import report
from pbem.visibility import events_for

from scenario import TABLES, TINY, add, give, make_state, orders, run_phase

PLAYERS = ("athens", "sparta", "troy")


def stir(dice, card=None, executions=False, defenders=2):
    """Athens, far from Megara (a minor city Sparta holds with Armies), rolls diplomacy on it or plays a
    revolt card on it; Troy looks on from afar."""
    s = make_state(players=PLAYERS, gold=10)
    s.cities["megara"].controller = "sparta"
    units = [add(s, "sparta", "army", "0506") for _ in range(defenders)]
    add(s, "athens", "army", "0302")
    add(s, "troy", "army", "0302")
    if executions:
        give(s, "sparta", "executions")
    if card:
        give(s, "athens", card)
        o = orders("athens", cards=[{"card": card, "target": "megara"}])
    else:
        o = orders("athens", diplomacy=["megara"])
    before = s.copy()
    ctx = run_phase("diplomacy", s, "athens", dice=dice, orders=o)
    return s, before, ctx.log.records, units


def context(before, after, records, viewer):
    return report.build_context("t", 1, TINY, TABLES, after, before, records, viewer)


def text_report(ctx):
    """The text report with its lines joined (wrapped lines read as one)."""
    return " ".join(report.environment().get_template("report.txt.j2").render(**ctx).split())


def test_a_diplomacy_roll_that_starts_a_revolt_stays_in_orders_and_says_the_revolt_was_put_down():
    # diplomacy 6: revolt; 1D3 = 1 rebel; rebel 1D10 = 2; defenders 1D10 = 9 and 8: the revolt fails
    after, before, records, defenders = stir([6, 1, 2, 9, 8])
    seen = events_for(records, "athens", game_map=TINY, states=[before, after])
    assert [r for r in seen if r.get("event") == "order_done" and r.get("section") == "diplomacy"]
    ctx = context(before, after, records, "athens")
    [o] = ctx["orders"]
    assert (o["section"], o["number"], o["ok"]) == ("Diplomacy", 1, True)
    assert o["detail"] == ("the diplomacy roll on Megara succeeded; Megara revolted against the Spartans (1 rebel); "
                           "it was put down and the Spartans still hold Megara")
    text = text_report(ctx)
    assert "Diplomacy #1: done" in text
    assert "Megara revolts against the Spartans (stirred up by your diplomacy roll): 1 rebel; it was put" in text
    # still none of the defenders' ids, dice or traits
    assert not any(u.id in text for u in defenders) and "defence roll" not in text and not ctx["battles"]


def test_a_revolt_that_turns_the_city_neutral_is_told_to_its_instigator():
    # diplomacy 6; 3 rebels roll 10s against the one Army's 1; its casualty roll 1: destroyed; Megara neutral
    after, before, records, _ = stir([6, 3, 10, 10, 10, 1, 1], defenders=1)
    assert after.cities["megara"].controller is None
    [o] = context(before, after, records, "athens")["orders"]
    assert o["detail"].endswith("Megara revolted against the Spartans (3 rebels); Megara went neutral")
    text = text_report(context(before, after, records, "athens"))
    assert "Megara becomes neutral" in text


def test_a_revolt_card_stays_in_orders_with_its_revolt():
    # Revolt card: 1D3 = 2 rebels, 1D10 = 1 and 2 against 9 and 8: put down
    after, before, records, _ = stir([2, 1, 2, 9, 8], card="revolt")
    [o] = context(before, after, records, "athens")["orders"]
    assert (o["section"], o["ok"]) == ("Cards", True)
    # the card's target is named (player review: "played Formal Agreement" did not say on what)
    assert o["detail"] == ("played Revolt on Megara; Megara revolted against the Spartans (2 rebels); it was put down "
                           "and the Spartans still hold Megara")
    text = text_report(context(before, after, records, "athens"))
    assert "(stirred up by your Revolt card): 2 rebels" in text


def test_a_revolt_negated_by_executions_reads_as_negated_for_everyone():
    after, before, records, _ = stir([6], executions=True)
    [o] = context(before, after, records, "athens")["orders"]
    assert o["detail"].endswith("the revolt of Megara against the Spartans was negated before it began")
    for viewer in PLAYERS:
        text = text_report(context(before, after, records, viewer))
        assert "Spartans played Executions on Megara" in text or "You played Executions on Megara" in text
        assert "A revolt of Megara against" in text and "was negated before it began" in text, viewer
        assert "Megara revolts" not in text, viewer
