"""Fog of war regressions found in review: each scenario once showed a player something they may not know."""
from pbem.visibility import events_for
from scenario import TINY, add, give, make_state, orders, run_phase


def test_a_captured_home_city_does_not_show_its_owner_the_captors_treasury():
    s = make_state(gold=10)
    s.cities["athens"].controller = "sparta"  # Athens' home city, held by Sparta
    add(s, "athens", "army", "0507")
    add(s, "sparta", "army", "0302")
    before = s.copy()
    ctx = run_phase("revenue", s, "sparta")
    seen = events_for(ctx.log.records, "athens", game_map=TINY, states=[before, s])
    assert not [r for r in seen if r.get("event") == "income"]
    assert not any("gold" in r for r in seen)


def test_units_captured_from_a_player_do_not_reveal_the_captors_moves_to_him():
    s = make_state(gold=10)
    add(s, "athens", "army", "0302")
    sa = add(s, "sparta", "army", "0707")
    b = add(s, "athens", "baggage", "0707", carried_by=sa.id)
    b.owner = "sparta"  # captured earlier: still called ATH-B1
    before = s.copy()
    ctx = run_phase("first_move", s, "sparta", orders=orders("sparta", first_move=[
        {"units": ["0707"], "path": ["0706", "0705"]}]))
    assert [r for r in ctx.log.records if r.get("event") == "moved"]
    seen = events_for(ctx.log.records, "athens", game_map=TINY, states=[before, s])
    assert not [r for r in seen if r.get("event") == "moved"]


def test_a_gold_record_shows_a_treasury_total_to_its_owner_only():
    s = make_state(gold=10)
    s.players["athens"].gold = 50
    give(s, "sparta", "internal_jealousies")
    add(s, "athens", "army", "0302")
    add(s, "sparta", "army", "0505")
    before = s.copy()
    ctx = run_phase("diplomacy", s, "sparta", dice=[3, 4], orders=orders("sparta", cards=[
        {"card": "internal_jealousies", "target": "athens"}]))
    spy = [r for r in events_for(ctx.log.records, "sparta", game_map=TINY, states=[before, s])
           if r.get("event") == "gold"]
    victim = [r for r in events_for(ctx.log.records, "athens", game_map=TINY, states=[before, s])
              if r.get("event") == "gold"]
    assert spy and "gold" not in spy[0] and spy[0]["amount"] == -7
    assert victim and victim[0]["gold"] == 43


def test_a_card_played_out_of_sight_shows_the_card_but_not_the_stack_or_the_hex():
    s = make_state(players=("athens", "sparta", "troy"), gold=10)
    add(s, "athens", "army", "0302")
    for _ in range(2):
        add(s, "sparta", "army", "0707")
    add(s, "sparta", "leader", "0707", name="Brasidas", skills=["heroism"])
    give(s, "sparta", "forced_march")
    before = s.copy()
    ctx = run_phase("first_move", s, "sparta", orders=orders("sparta", first_move=[
        {"units": ["0707"], "path": ["0706", "0705"], "cards": ["forced_march"]}]))
    played = [r for r in events_for(ctx.log.records, "athens", game_map=TINY, states=[before, s])
              if r.get("event") == "card_played"]
    assert played and played[0]["card"] == "forced_march"
    assert not any(k.startswith("units") or k in ("hex", "path") for k in played[0])


def _revolt_in_a_far_city(dice):
    """Athens rolls diplomacy at Megara, a minor city Sparta holds with two Armies, far out of Athens' sight."""
    s = make_state(gold=10)
    s.cities["megara"].controller = "sparta"
    s.players["sparta"].traits = ["professional_army"]
    defenders = [add(s, "sparta", "army", "0506"), add(s, "sparta", "army", "0506")]
    add(s, "athens", "army", "0302")
    before = s.copy()
    ctx = run_phase("diplomacy", s, "athens", dice=dice, orders=orders("athens", diplomacy=["megara"]))
    return s, before, ctx, defenders


def test_a_revolt_a_player_stirs_up_does_not_show_him_the_defenders_ids_traits_or_dice():
    # diplomacy 6: revolt; 1D3 = 1 rebel; rebel 1D10 = 2; defenders 1D10 = 9 and 8: the revolt fails
    s, before, ctx, defenders = _revolt_in_a_far_city([6, 1, 2, 9, 8])
    assert [r for r in ctx.log.records if r.get("event") == "battle"]
    seen = events_for(ctx.log.records, "athens", game_map=TINY, states=[before, s])
    text = repr(seen)
    assert not any(u.id in text for u in defenders)  # other players' unit ids stay hidden
    assert "Professional Army" not in text and "professional_army" not in text  # and their traits
    assert not [r for r in seen if isinstance(r.get("roll"), dict) and r["roll"].get("purpose") == "defence roll"]
    # what Athens did and caused stays in his report: his roll, the revolt and its outcome
    assert [r for r in seen if r.get("event") == "diplomacy_roll" and r.get("roll") == 6]
    assert [r for r in seen if r.get("event") == "revolt" and r.get("rebels") == 1]
    # the defender sees the battle whole
    theirs = repr(events_for(ctx.log.records, "sparta", game_map=TINY, states=[before, s]))
    assert all(u.id in theirs for u in defenders) and "defence roll" in theirs
