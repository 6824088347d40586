"""Report wording found in a player's review (finding 5): a raw player id in a failure's reason, a card's
target missing from ORDERS, an income bonus without its source, D66 re-rolls not said as such."""
from pbem import report
from pbem.report import Namer, describe
from scenario import TABLES, TINY, add, give, make_state, orders, run_phase


def _namer(state):
    return Namer(TINY, TABLES, {p: {"name": state.players[p].name} for p in state.players})


def _context(before, after, records, viewer):
    return report.build_context("t", 1, TINY, TABLES, after, before, records, viewer)


def _event_items(ctx):
    return [item for block in ctx["events"] for item in block["items"]]


def test_a_reason_names_the_player_who_played_the_card_not_their_id():
    s = make_state()
    rec = {"event": "order_failed", "player": "sparta", "phase": "sea_battle", "section": "sea_battle", "index": 0,
           "reason": "the attack is cancelled: athens played Hesitation"}
    assert describe(rec, _namer(s), "sparta") == \
        "Your order Sea battle #1: FAILED: the attack is cancelled: Athenians played Hesitation (the attack)"
    assert "cancelled: you played Hesitation" in describe(rec, _namer(s), "athens")


def test_orders_say_on_what_a_card_was_played():
    s = make_state(players=("athens", "sparta", "troy"))
    give(s, "athens", "defiance")
    add(s, "athens", "army", "0302")
    before = s.copy()
    ctx = run_phase("diplomacy", s, "athens", orders=orders("athens", cards=[
        {"card": "defiance", "target": "sparta"}]))
    [o] = _context(before, s, ctx.log.records, "athens")["orders"]
    assert o["detail"] == "played Defiance on the Spartans"


def test_an_income_bonus_names_the_trait_giving_it():
    s = make_state()
    s.players["athens"].traits = ["slavery"]
    add(s, "athens", "army", "0302")
    before = s.copy()
    ctx = run_phase("revenue", s, "athens")
    [inc] = [r for r in ctx.log.records if r.get("event") == "income"]
    assert inc["bonus"] == 1
    texts = [i["text"] for i in _event_items(_context(before, s, ctx.log.records, "athens"))]
    assert "Income from Athens: 8 gold (7 + 1 from Slavery trait)" in texts


def test_an_experience_trait_roll_says_which_d66_were_rolled_again_and_why():
    s = make_state()
    s.players["athens"].traits = ["stoicism"]  # D66 11
    add(s, "athens", "army", "0302")
    before = s.copy()
    # experience 1D10 = 10; 1D6 = 5: a trait; D66 11 (Stoicism, held), 64 (no trait), 12 (Greek Fire)
    ctx = run_phase("recruit", s, "athens", dice=[10, 5, 1, 1, 6, 4, 1, 2], orders=orders("athens"))
    assert s.players["athens"].traits == ["stoicism", "greek_fire"]
    dice = [d for i in _event_items(_context(before, s, ctx.log.records, "athens")) for d in i["dice"] if "D66" in d]
    assert len(dice) == 3
    assert dice[0].endswith("(Stoicism: already held, rolled again)")
    assert dice[1].endswith("(no trait for this number: rolled again)")
    assert "rolled again" not in dice[2]


def test_the_diplomacy_section_says_how_many_rolls_were_had_and_left_unused():
    s = make_state(players=("athens", "sparta", "troy"))
    give(s, "athens", "bribes")  # one more diplomacy roll: 2 in all
    add(s, "athens", "army", "0302")
    before = s.copy()
    ctx = run_phase("diplomacy", s, "athens", dice=[2], orders=orders("athens", cards=["bribes"],
                                                                      diplomacy=["delos"]))
    rep = _context(before, s, ctx.log.records, "athens")
    assert rep["diplomacy_summary"] == ["You had 2 diplomacy rolls this turn: 1 made, 1 unused"]
    text = report.environment().get_template("report.txt.j2").render(**rep)
    assert "You had 2 diplomacy rolls this turn: 1 made, 1 unused" in text
    assert _context(before, s, ctx.log.records, "troy")["diplomacy_summary"] == []  # Athens' business
