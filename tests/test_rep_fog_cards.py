"""Card effects on other players' units as a third player sees them (player review, finding 1 and 2): what a
card did to units out of sight stays hidden; the card itself is public, its target named as far as the
viewer may know it."""
from pbem.report import Namer, describe
from pbem.visibility import events_for
from scenario import TABLES, TINY, add, give, make_state, orders, run_phase


WATCH = {"0707": "0706", "0303": "0403"}  # a hex next to each target, for the card player's leader


def _namer(state):
    players = {p: {"name": state.players[p].name} for p in state.players}
    return Namer(TINY, TABLES, players)


def _short_supplies(hex_id: str, dice=(3,)):
    """Troy plays Short Supplies on a Spartan stack of an Army and 4 Baggage at ``hex_id``; Athens looks on
    from Athens (0302)."""
    s = make_state(players=("athens", "sparta", "troy"), gold=10)
    add(s, "athens", "army", "0302")
    add(s, "sparta", "army", hex_id)
    baggage = [add(s, "sparta", "baggage", hex_id) for _ in range(4)]
    add(s, "troy", "army", "0903")
    add(s, "troy", "leader", WATCH[hex_id])  # in the card player's sight: a card's target must be (docs/rules.md, Decision (fog, card targets))
    give(s, "troy", "short_supplies")
    before = s.copy()
    ctx = run_phase("diplomacy", s, "troy", dice=list(dice), orders=orders("troy", cards=[
        {"card": "short_supplies", "target": hex_id}]))
    assert [r for r in ctx.log.records if r.get("event") == "destroyed"]  # the card did remove Baggage
    return s, before, ctx, baggage


def test_baggage_a_card_removes_out_of_sight_is_not_news_to_an_onlooker():
    s, before, ctx, baggage = _short_supplies("0707")
    seen = events_for(ctx.log.records, "athens", game_map=TINY, states=[before, s])
    assert not [r for r in seen if r.get("event") == "destroyed"]  # it said "Units destroyed" four times
    assert not [r for r in seen if isinstance(r.get("roll"), dict)]  # nor the die
    played = [r for r in seen if r.get("event") == "card_played"]
    assert played and "target" not in played[0] and played[0]["target_hidden"]
    assert describe(played[0], _namer(s), "athens") == "Trojans played Short supplies on a stack out of your sight"
    # the stack's owner sees what they lost, with the die
    theirs = events_for(ctx.log.records, "sparta", game_map=TINY, states=[before, s])
    assert len([r for r in theirs if r.get("event") == "destroyed"]) == 3
    assert [r for r in theirs if isinstance(r.get("roll"), dict)]


def test_baggage_a_card_removes_in_sight_is_seen_as_counts():
    s, before, ctx, baggage = _short_supplies("0303")  # next to Athens
    seen = events_for(ctx.log.records, "athens", game_map=TINY, states=[before, s])
    lost = [r for r in seen if r.get("event") == "destroyed"]
    assert len(lost) == 3 and all(r["redacted"] and r["unit_counts"] == {"baggage": 1} for r in lost)
    assert not any(b.id in repr(seen) for b in baggage)
    played = [r for r in seen if r.get("event") == "card_played"]
    assert describe(played[0], _namer(s), "athens").startswith("Trojans played Short supplies on 0303")


def test_desertions_out_of_sight_shows_no_upkeep_roll_and_in_sight_shows_the_losses():
    for hex_id, visible in (("0707", False), ("0303", True)):
        s = make_state(players=("athens", "sparta", "troy"), gold=10)
        add(s, "athens", "army", "0302")
        army = add(s, "sparta", "army", hex_id)
        add(s, "troy", "leader", WATCH[hex_id])  # in the card player's sight: a card's target must be (docs/rules.md, Decision (fog, card targets))
        give(s, "troy", "desertions")
        before = s.copy()
        ctx = run_phase("diplomacy", s, "troy", dice=[6], orders=orders("troy", cards=[
            {"card": "desertions", "target": hex_id}]))  # their stack by its hex (Decision (fog, card targets))
        assert [r for r in ctx.log.records if r.get("event") == "disbanded"]
        seen = events_for(ctx.log.records, "athens", game_map=TINY, states=[before, s])
        gone = [r for r in seen if r.get("event") == "disbanded"]
        assert bool(gone) is visible
        assert army.id not in repr(seen)
        played = [r for r in seen if r.get("event") == "card_played"]
        text = describe(played[0], _namer(s), "athens")
        assert text == ("Trojans played Desertions on 0303 Hills" if visible
                        else "Trojans played Desertions on a stack out of your sight")


def test_a_leader_killed_out_of_sight_is_one_of_their_leaders_and_one_in_sight_is_named():
    for hex_id, visible in (("0707", False), ("0303", True)):
        s = make_state(players=("athens", "sparta", "troy"), gold=10)
        add(s, "athens", "army", "0302")
        leader = add(s, "sparta", "leader", hex_id, name="Brasidas")
        add(s, "troy", "leader", WATCH[hex_id])  # in the card player's sight: a card's target must be (docs/rules.md, Decision (fog, card targets))
        give(s, "troy", "assassination")
        before = s.copy()
        ctx = run_phase("diplomacy", s, "troy", orders=orders("troy", cards=[
            {"card": "assassination", "target": "Brasidas"}]))
        seen = events_for(ctx.log.records, "athens", game_map=TINY, states=[before, s])
        played = [r for r in seen if r.get("event") == "card_played"]
        assert leader.id not in repr(seen)
        text = describe(played[0], _namer(s), "athens")
        assert text == ("Trojans played Assassination on Brasidas, a leader of the Spartans" if visible
                        else "Trojans played Assassination on one of the Spartans' leaders")
        # the owner knows which of theirs it was
        theirs = events_for(ctx.log.records, "sparta", game_map=TINY, states=[before, s])
        assert [r for r in theirs if r.get("event") == "leader_removed"]


def _far_revolt(dice, defenders=2, card=None):
    """Athens stirs up Megara (0506), a minor city Sparta holds, far from Troy (0903): Troy looks on."""
    s = make_state(players=("athens", "sparta", "troy"), gold=10)
    s.cities["megara"].controller = "sparta"
    for _ in range(defenders):
        add(s, "sparta", "army", "0506")
    add(s, "athens", "army", "0302")
    add(s, "troy", "army", "0903")
    if card:
        give(s, "athens", card)
        o = orders("athens", cards=[{"card": card, "target": "megara"}])
    else:
        o = orders("athens", diplomacy=["megara"])
    before = s.copy()
    ctx = run_phase("diplomacy", s, "athens", dice=dice, orders=o)
    assert "0506" not in __import__("pbem.visibility").visibility.sight(s, TINY, "troy")
    return s, before, ctx.log.records


def test_a_revolt_put_down_out_of_sight_is_not_told_it_would_say_units_held_the_city():
    # diplomacy 6: revolt; 1D3 = 1 rebel; rebel 1D10 = 2; defenders 1D10 = 9 and 8: put down
    s, before, records = _far_revolt([6, 1, 2, 9, 8])
    seen = events_for(records, "troy", game_map=TINY, states=[before, s])
    assert not [r for r in seen if r.get("event") in ("revolt", "battle", "casualty")]
    # a Revolt card is public (the card line), the revolt put down is still not told
    s, before, records = _far_revolt([2, 1, 2, 9, 8], card="revolt")
    seen = events_for(records, "troy", game_map=TINY, states=[before, s])
    assert [r for r in seen if r.get("event") == "card_played" and r.get("target") == "megara"]
    assert not [r for r in seen if r.get("event") == "revolt"]
    # its instigator and its defender are told how it ended
    for who in ("athens", "sparta"):
        assert [r for r in events_for(records, who, game_map=TINY, states=[before, s]) if r.get("event") == "revolt"]


def test_a_revolt_out_of_sight_that_turns_the_city_neutral_is_told():
    # diplomacy 6; 3 rebels roll 10s against the one Army's 1; its casualty roll 1: destroyed; Megara neutral
    s, before, records = _far_revolt([6, 3, 10, 10, 10, 1, 1], defenders=1)
    assert s.cities["megara"].controller is None
    seen = events_for(records, "troy", game_map=TINY, states=[before, s])
    assert [r for r in seen if r.get("event") == "revolt"] and [r for r in seen if r.get("event") == "neutralised"]
    assert not [r for r in seen if r.get("event") in ("battle", "casualty")]


def test_a_card_on_ones_own_leader_names_it_with_its_id():
    s = make_state(players=("athens", "sparta", "troy"), gold=10)
    add(s, "athens", "army", "0302")
    leader = add(s, "sparta", "leader", "0707", name="Brasidas")
    add(s, "troy", "leader", WATCH["0707"])  # in the card player's sight: a card's target must be (docs/rules.md, Decision (fog, card targets))
    give(s, "troy", "exiled")
    before = s.copy()
    ctx = run_phase("diplomacy", s, "troy", dice=[3, 4], orders=orders("troy", cards=[
        {"card": "exiled", "target": "Brasidas"}]))
    theirs = events_for(ctx.log.records, "sparta", game_map=TINY, states=[before, s])
    played = [r for r in theirs if r.get("event") == "card_played"]
    nm = _namer(s)
    nm.leaders[leader.id] = ("sparta", "Brasidas")  # as build_context gives it: names are public
    assert describe(played[0], nm, "sparta") == f"Trojans played Exiled on Brasidas ({leader.id}), your leader"
    assert describe(played[0], nm, None) == \
        f"Trojans played Exiled on Brasidas ({leader.id}), a leader of the Spartans"


def test_the_kit_does_not_tell_which_of_their_armies_carries_which_baggage():
    """A player's review: the kit's state gave enemy Baggage `carried_by: ATH-?3`, while the report shows only
    counts by hex.  A ship's cargo stays aboard (it tells whether a Fleet is manned, as the report does)."""
    from pbem.visibility import redact
    from scenario import TINY, add, make_state
    s = make_state()
    a = add(s, "sparta", "army", "0403")
    b = add(s, "sparta", "baggage", "0403")
    b.carried_by = a.id
    f = add(s, "sparta", "fleet", "0201")
    r = add(s, "sparta", "rowers", "0201")
    r.carried_by = f.id
    add(s, "athens", "army", "0404")
    add(s, "athens", "fleet", "0202")
    kit = redact(s, TINY, "athens")
    theirs = {u.type.value: u for u in kit.units.values() if u.owner == "sparta"}
    assert set(theirs) == {"army", "baggage", "fleet", "rowers"}, theirs
    assert theirs["baggage"].carried_by is None and theirs["baggage"].hex == "0403"
    assert theirs["rowers"].carried_by == theirs["fleet"].id
