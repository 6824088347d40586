"""Draw phase (R-PH-DRAW) and what happens as a player-turn starts (lasting effects end, exiles return)."""
from pbem.model import Effect
from scenario import add, events, give, make_state, orders, run_phase


def test_R_PH_DRAW_draws_the_top_two_cards_into_the_hand():
    s = make_state()
    top = s.deck[:2]
    ctx = run_phase("draw", s, "athens")
    assert s.players["athens"].hand == top
    assert len(s.deck) == 86
    [ev] = events(ctx, "draw")
    assert ev["cards"] == top and ev["private_to"] == "athens"  # a hand is secret
    assert not events(ctx, "discard")


def test_R_PH_DRAW_up_to_seven_cards_no_discard():
    s = make_state()
    give(s, "athens", "spy", "coup", "truce", "raids", "plague")
    run_phase("draw", s, "athens")
    assert len(s.players["athens"].hand) == 7 and s.discard == []


def test_R_PH_DRAW_order_discard_list_then_standing_list_then_most_recent():
    s = make_state()
    give(s, "athens", "spy", "coup", "truce", "raids", "plague", "storms", "bribes")
    s.players["athens"].standing = {"discard": ["truce", "raids"]}
    s.deck.remove("intrigue"), s.deck.remove("revolt")
    s.deck[:0] = ["intrigue", "revolt"]
    o = orders("athens", discard=["alliance", "coup"])  # alliance is not in the hand
    ctx = run_phase("draw", s, "athens", orders=o)
    # 9 cards, limit 7: coup (order), then truce (standing); raids stays
    assert s.discard == ["coup", "truce"]
    assert s.players["athens"].hand == ["spy", "raids", "plague", "storms", "bribes", "intrigue", "revolt"]
    failed = events(ctx, "order_failed")
    assert [(f["section"], f["index"]) for f in failed] == [("discard", 0)]
    assert "not in your hand" in failed[0]["reason"]


def test_R_PH_DRAW_standing_discard_list_of_an_nmr_player_is_used():
    s = make_state()
    give(s, "athens", "spy", "coup", "truce", "raids", "plague", "storms", "bribes")
    s.players["athens"].standing = {"discard": ["spy"]}
    run_phase("draw", s, "athens")
    drawn_last = s.discard[-1]
    assert s.discard[0] == "spy" and len(s.discard) == 2
    assert drawn_last not in s.players["athens"].hand


def test_R_PH_DRAW_statecraft_raises_the_limit_to_eight():
    s = make_state()
    give(s, "athens", "spy", "coup", "truce", "raids", "plague", "storms")
    add(s, "athens", "leader", "0302", skills=["statecraft"])
    ctx = run_phase("draw", s, "athens")
    assert len(s.players["athens"].hand) == 8 and not events(ctx, "discard")


def test_R_PH_DRAW_a_leader_away_from_play_gives_no_hand_size():
    s = make_state()
    give(s, "athens", "spy", "coup", "truce", "raids", "plague", "storms")
    add(s, "athens", "leader", "0302", skills=["statecraft"], away_until=5)
    run_phase("draw", s, "athens")
    assert len(s.players["athens"].hand) == 7


def test_R_PH_DRAW_empty_deck_is_refilled_from_the_shuffled_discard_pile():
    s = make_state()
    last = s.deck[-1]
    s.discard = s.deck[:-1]
    s.deck = [last]
    ctx = run_phase("draw", s, "athens")  # ScriptedDice keeps the order when shuffling
    assert s.players["athens"].hand == [last, "alliance"]
    assert s.discard == [] and len(s.deck) == 86
    [ev] = events(ctx, "reshuffle")
    assert ev["cards"] == 87
    shuffles = [r["roll"] for r in ctx.log.records if "roll" in r]
    assert shuffles and shuffles[0]["die"] == "shuffle"


def test_R_PH_DRAW_nothing_to_draw_when_deck_and_discard_are_empty():
    s = make_state()
    give(s, "sparta", *list(s.deck))
    ctx = run_phase("draw", s, "athens")
    assert s.players["athens"].hand == []
    assert events(ctx, "draw")[0]["count"] == 0


def test_R_PH_DRAW_lasting_effects_end_when_their_last_player_turn_is_over():
    s = make_state()  # turn order athens, sparta
    s.effects = [Effect("truce", "truce", "athens", None, 0, 1, "athens"),      # through athens' turn 1
                 Effect("truce", "truce", "athens", None, 0, 1, "sparta"),      # through sparta's turn 1
                 Effect("income_block", "raids", "athens", "megara", 0, 0, None)]  # no end by time
    ctx = run_phase("draw", s, "sparta")
    assert [(e.until_player, e.until_turn) for e in s.effects] == [("sparta", 1), (None, 0)]
    [ev] = events(ctx, "effect_ends")
    assert ev["until_player"] == "athens" and ev["why"] == "expired"


def test_R_PH_DRAW_an_exiled_leader_returns_home_at_the_start_of_its_owners_turn():
    s = make_state()
    s.turn = 4
    back = add(s, "athens", "leader", "0404", away_until=4)
    later = add(s, "athens", "leader", "0404", away_until=5)
    ctx = run_phase("draw", s, "athens")
    assert back.away_until is None and back.hex == "0302"
    assert later.away_until == 5 and later.hex == "0404"
    assert [e["unit"] for e in events(ctx, "leader_returns")] == [back.id]


def test_R_PH_DRAW_an_exiled_leader_whose_home_is_lost_returns_to_the_nearest_controlled_city():
    s = make_state()
    s.turn = 4
    s.cities["athens"].controller = "sparta"
    s.cities["megara"].controller = "athens"
    s.cities["troy"].controller = "athens"
    leader = add(s, "athens", "leader", "0404", away_until=3)
    run_phase("draw", s, "athens")
    assert leader.hex == "0506"  # Megara is nearer Athens than Troy


def test_R_TURN_6_a_whole_turn_replays_byte_for_byte_from_the_same_state_orders_and_seed():
    import json

    from pbem.dice import Dice
    from pbem.setup import new_campaign
    from scenario import TABLES, TINY, run_turn

    start = new_campaign("t", TINY, TABLES, ["athens", "sparta", "troy"], Dice(b"replay-setup"), {})
    start.players["athens"].gold = 3  # not enough for every upkeep
    start.cities["megara"].controller = "troy"
    for pid, cards in (("athens", ["contributions", "bribes", "raids"]), ("troy", ["threatened", "spy"])):
        for c in cards:
            for p in start.players.values():
                if c in p.hand:
                    p.hand.remove(c)
            if c in start.deck:
                start.deck.remove(c)
            start.players[pid].hand.append(c)
    turn_orders = {
        "athens": orders("athens", recruit=[{"city": "athens", "baggage": 2}],
                         diplomacy=["delos", "megara", "troy"],
                         cards=[{"card": "contributions"}, {"card": "bribes"}, {"card": "raids", "target": "megara"}]),
        "sparta": None,  # NMR
        "troy": orders("troy", diplomacy=["delos"], cards=[{"card": "threatened", "target": "athens"},
                                                          {"card": "spy", "target": "sparta"}]),
    }

    def play_once():
        s = start.copy()
        log = run_turn(s, turn_orders, Dice(b"replay-turn-1"))
        return s.to_json(), json.dumps(log.records, sort_keys=True)

    first, again = play_once(), play_once()
    assert first == again
    assert first[0] != start.to_json()
    kinds = {r.get("event") for r in json.loads(first[1])}
    assert {"draw", "income", "upkeep_paid", "recruited", "experience", "diplomacy_roll", "card_played"} <= kinds
