"""The report's STANDING ORDERS section (the player's standing orders in force, in plain words) and the HAND's
timings (when each card is played and where it goes in the order file)."""
from __future__ import annotations

from pbem import report

from scenario import TABLES, TINY, add, give, make_state


def context(state, viewer):
    return report.build_context("t", 1, TINY, TABLES, state, state.copy(), [], viewer)


def text(ctx, name="report.txt.j2"):
    return " ".join(report.environment().get_template(name).render(
        **ctx, map_svg="", css="").split())


def test_standing_orders_in_force_are_listed_in_plain_words_and_stay_until_replaced():
    s = make_state()
    give(s, "athens", "strong_garrison")
    a1 = add(s, "athens", "army", "0302")
    s.players["athens"].standing = {
        "defence_cards": [{"card": "strong_garrison", "hex": "0302", "if_needed": True},
                          {"card": "narrow_channel", "if_needed": False}],
        "executions": False, "reactions": [{"card": "hesitation"}],
        "retreat": {"0302": ["0303", "0403"]}, "captured_leaders": "execute", "discard": ["storms"],
        "upkeep": [a1.id]}
    s.players["sparta"].standing = {"defence_cards": [{"card": "military_blunder", "if_needed": True}]}
    ctx = context(s, "athens")
    lines = {o["label"]: o["text"] for o in ctx["standing"]}
    assert lines["Defence cards"] == ("when you are attacked, in this order: Strong Garrison, in battles at 0302 "
                                      "Athens, only while your side is behind; Narrow Channel (not in your hand "
                                      "now), anywhere, always")
    assert lines["Revolts in your cities (`executions`)"].startswith("off")
    assert lines["Reactions"] == "Hesitation (not in your hand now)"
    assert lines["Retreats"].startswith("from 0302 Athens to 0303 Hills, then 0403 Forest")
    assert lines["Captured enemy leaders"] == "executed"
    assert lines["Discard first"].startswith("Storms")
    assert lines["Upkeep paid first for"].startswith(a1.id)
    out = text(ctx)
    assert "STANDING ORDERS (in force in other players' turns)" in out
    assert "until an order file of yours has a `standing:` section, which replaces them all" in out
    assert "Military Blunder" not in out  # another player's standing orders are theirs alone
    html = text(ctx, "report.html.j2")
    assert "<h2>Standing orders</h2>" in html and "Narrow Channel (not in your hand now)" in html


def test_no_standing_orders_read_as_the_defaults():
    ctx = context(make_state(), "sparta")
    lines = {o["label"]: o["text"] for o in ctx["standing"]}
    assert lines["Defence cards"] == "none" and lines["Reactions"] == "none"
    assert lines["Revolts in your cities (`executions`)"].startswith("on (the default)")
    assert lines["Captured enemy leaders"] == "ransomed (the default)"
    assert lines["Retreats"] == "to the nearest friendly city (no preferences given)"
    assert "standing" not in context(make_state(), None)  # the moderator's report has none of its own


def test_a_trait_held_twice_is_listed_twice_and_the_second_says_it_counts_once():
    """docs/rules.md (decision under R-SET-4): a trait held twice, at home and in a controlled minor city, counts
    once; the report's TRAITS said nothing, so a player counted it twice (found in a late-game review)."""
    s = make_state()
    s.players["athens"].traits = ["wine", "democracy"]
    s.cities["megara"].controller = "athens"
    s.cities["megara"].trait = "wine"
    s.cities["delos"].controller = "athens"
    s.cities["delos"].trait = "olive_oil"
    ctx = context(s, "athens")
    where = [(t["name"], t["where"]) for t in ctx["traits"]]
    assert where == [("Wine", "Athens"), ("Democracy", "Athens"), ("Olive Oil", "Delos"),
                     ("Wine", "Megara; also held at Athens: counts once")]
    assert "Wine (Megara; also held at Athens: counts once):" in text(ctx)


def test_the_same_event_line_again_is_said_once_and_counted():
    """A player's review: "Naxos: 1 baggage recruited" six times over in EVENTS; now once, "(6 times)"."""
    s = make_state()
    add(s, "athens", "army", "0504")  # next to Sparta: Athens sees its recruits
    recs = [{"seq": i, "turn": 1, "player": "sparta", "phase": "recruit", "event": "recruited", "type": "baggage",
             "unit": f"SPA-B{i}", "city": "sparta"} for i in range(1, 7)]
    ctx = report.build_context("t", 1, TINY, TABLES, s, s.copy(), recs, None)
    [block] = ctx["events"]
    assert [i["text"] for i in block["items"]] == ["Sparta: baggage SPA-B1 recruited"] + [
        f"Sparta: baggage SPA-B{i} recruited" for i in range(2, 7)]  # the moderator: each unit by id
    seen = report.build_context("t", 1, TINY, TABLES, s, s.copy(), recs, "athens")
    texts = [i["text"] for b in seen["events"] for i in b["items"]]
    assert texts.count("Sparta: 1 baggage recruited (6 times)") == 1 and len(texts) == 1, texts
