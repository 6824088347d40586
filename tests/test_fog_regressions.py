"""Fog of war regressions found in review: each scenario once showed a player something they may not know."""
import hashlib
import re

import pytest

from pbem.phases import PHASES
from pbem.visibility import events_for, redact
from scenario import TABLES, TINY, add, assert_invariants, context, give, make_state, orders, run_phase


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


def test_a_revolt_a_player_stirs_up_does_not_show_him_the_defenders_card_dice_or_ids():
    # the defender's standing Break Formation is logged before the battle, in the stirring player's turn
    s = make_state(gold=10)
    s.cities["megara"].controller = "sparta"
    give(s, "sparta", "break_formation")
    s.players["sparta"].standing = {"defence_cards": [{"card": "break_formation", "if_needed": False}]}
    defender = add(s, "sparta", "army", "0506")
    add(s, "athens", "army", "0302")
    before = s.copy()
    # diplomacy 6: revolt; 1D3 = 1 rebel; rebel 1D10 = 2; defender 1D10 = 9; Break Formation 1D10 = 7
    ctx = run_phase("diplomacy", s, "athens", dice=[6, 1, 2, 9, 7], orders=orders("athens", diplomacy=["megara"]))
    assert [r for r in ctx.log.records if r.get("event") == "card_played" and r.get("by") == "sparta"]
    seen = events_for(ctx.log.records, "athens", game_map=TINY, states=[before, s])
    assert defender.id not in repr(seen)
    assert not [r for r in seen if isinstance(r.get("roll"), dict) and r["roll"]["result"] in (9, 7)]
    played = [r for r in seen if r.get("event") == "card_played"]
    assert played and all(r.get("redacted") for r in played)  # the card is public, its dice are not
    assert [r for r in seen if r.get("event") == "revolt" and r.get("rebels") == 1]


def _phases(state, player, dice, order, names):
    """Several phases of one player-turn in one log (like the adjudicator), with scripted dice."""
    ctx = context(state, player, dice, order)
    for name in names:
        ctx.phase = ctx.log.phase = name
        next(p for p in PHASES if p.name == name).resolve(ctx)
        ctx.log.flush_rolls()
    assert_invariants(state)
    assert ctx.dice.remaining == 0
    return ctx


def test_a_city_lost_earlier_in_the_turn_does_not_make_its_former_holder_fight_the_battle_for_it():
    s = make_state(gold=10)
    s.cities["megara"].controller = "sparta"  # no Spartan unit in it: Athens' revolt takes it without a battle
    s.players["athens"].traits = ["professional_army"]
    add(s, "sparta", "army", "0505")  # Sparta sees Megara's hex
    a = add(s, "athens", "army", "0405")
    add(s, "athens", "leader", "0405", name="Pericles", skills=["strategist"])
    before = s.copy()
    # diplomacy 6: revolt; 1D3 = 1 rebel, no defender: Megara neutral; then Athens attacks the neutral city
    ctx = _phases(s, "athens", [6, 1, 10, 5, 1, 1], orders(
        "athens", diplomacy=["megara"], land_battle=[{"units": [a.id], "target": "0506"}]),
        ["diplomacy", "land_battle"])
    [battle] = [r for r in ctx.log.records if r.get("event") == "battle"]
    assert battle["defender"] is None
    seen = events_for(ctx.log.records, "sparta", game_map=TINY, states=[before, s])
    text = repr(seen)
    assert "ATH-" not in text and "Professional Army" not in text and "Strategist" not in text
    assert not [r for r in seen if r.get("in_battle") or isinstance(r.get("roll"), dict)
                and r["roll"].get("purpose") in ("attack roll", "defence roll")]
    assert [r for r in seen if r.get("event") == "battle" and r.get("redacted")]  # seen from next door
    assert [r for r in seen if r.get("event") == "neutralised"]  # losing Megara is Sparta's own news, whole


def _baggage_in_spartas_way():
    """An Athenian Baggage alone next to a Spartan Army led by Brasidas (Logistics; Sparta has Athletic)."""
    s = make_state(gold=10)
    s.players["sparta"].traits = ["athletic"]
    add(s, "sparta", "army", "0505")
    add(s, "sparta", "leader", "0505", name="Brasidas", skills=["logistics"])
    add(s, "athens", "army", "0302")
    bag = add(s, "athens", "baggage", "0504")
    return s, bag, s.copy()


def test_a_unit_captured_on_a_move_does_not_show_its_owner_the_captors_move_whole():
    s, bag, before = _baggage_in_spartas_way()
    ctx = run_phase("first_move", s, "sparta", orders=orders("sparta", first_move=[
        {"units": ["0505"], "path": ["0504"]}]))
    assert bag.owner == "sparta"
    seen = events_for(ctx.log.records, "athens", game_map=TINY, states=[before, s])
    text = repr(seen)
    assert "SPA-" not in text and "Athletic" not in text and "Logistics" not in text
    [moved] = [r for r in seen if r.get("event") == "moved"]
    assert moved.get("redacted") and moved["units_counts"] == {"army": 1, "leader": 1}
    assert [r for r in seen if r.get("event") == "captured" and r.get("unit") == bag.id]  # his loss, whole


def test_a_leader_captured_on_a_move_is_named_to_the_captor_by_name_not_by_id():
    s = make_state(gold=10)
    add(s, "sparta", "army", "0505")
    add(s, "athens", "army", "0302")
    leader = add(s, "athens", "leader", "0504", name="Pericles", skills=["strategist"])
    before = s.copy()
    ctx = run_phase("first_move", s, "sparta", dice=[4], orders=orders("sparta", first_move=[
        {"units": ["0505"], "path": ["0504"]}]))
    assert [r for r in ctx.log.records if r.get("event") == "leader_fate" and r.get("leader") == leader.id]
    captor = events_for(ctx.log.records, "sparta", game_map=TINY, states=[before, s])
    [fate] = [r for r in captor if r.get("event") == "leader_fate"]
    assert fate["name"] == "Pericles" and fate["paid"] == 4 and fate["leader"] == "Pericles"
    assert leader.id not in repr(captor) and "strategist" not in repr(captor)
    assert [r for r in captor if isinstance(r.get("roll"), dict) and r["roll"].get("leader") == "Pericles"]
    owner = events_for(ctx.log.records, "athens", game_map=TINY, states=[before, s])
    assert [r for r in owner if r.get("event") == "leader_fate" and r.get("leader") == leader.id]


def test_the_kit_does_not_show_the_value_of_another_players_block_in_sight():
    s = make_state(gold=10)
    add(s, "athens", "army", "0405")
    add(s, "sparta", "army", "0505", value=3)
    kit = redact(s, TINY, "athens")
    [theirs] = [u for u in kit.units.values() if u.owner == "sparta"]
    assert theirs.value == 1 and '"value"' not in kit.to_json()
    assert redact(s, TINY, "sparta").units["SPA-A1"].value == 3


def test_a_unit_captured_in_the_turn_does_not_show_its_former_owner_the_captors_later_moves():
    s, bag, before = _baggage_in_spartas_way()
    # Sparta takes the Baggage in its First Move and carries it off in its Second Move
    ctx = _phases(s, "sparta", [], orders("sparta", first_move=[{"units": ["0505"], "path": ["0504"]}],
                                          second_move=[{"units": ["0504"], "path": ["0604"]}]),
                  ["first_move", "second_move"])
    later = [r for r in ctx.log.records if r.get("event") == "moved" and r.get("phase") == "second_move"]
    assert later and bag.id in later[0]["units"]
    seen = events_for(ctx.log.records, "athens", game_map=TINY, states=[before, s])
    text = repr(seen)
    assert "SPA-" not in text and "Athletic" not in text and "Logistics" not in text
    [moved] = [r for r in seen if r.get("event") == "moved" and r.get("phase") == "second_move"]
    assert moved.get("redacted") and moved["units_counts"] == {"army": 1, "baggage": 1, "leader": 1}
    # and the captor sees his whole move, the Baggage he took under its old id
    theirs = [r for r in events_for(ctx.log.records, "sparta", game_map=TINY, states=[before, s])
              if r.get("event") == "moved" and r.get("phase") == "second_move"]
    assert theirs and bag.id in theirs[0]["units"] and not theirs[0].get("redacted")


def _sweep_secrets(records, player, before, after):
    """What ``player`` may not read outside a battle he fought or a record private to him: other units' ids
    (his own by either state, taken by him in the turn, or made in the turn with his prefix, may show), others'
    traits and skills."""
    from pbem.visibility import UNIT_ID
    abbr = after.players[player].abbr + "-"
    mine = {u for s in (before, after) for u, x in s.units.items() if x.owner == player}
    for r in records:  # units he took during the turn were his, even if someone took them from him again
        if r.get("event") == "captured" and r.get("by") == player:
            got = r.get("units", r.get("unit"))
            mine |= set(got) if isinstance(got, list) else {got}
    ids = {u for s in (before, after) for u in s.units}
    for r in records:
        ids |= {x for x in re.findall(r"[A-Z]{2,4}-[A-Z]+\d+", repr(r)) if UNIT_ID.match(x)}
    return {u for u in ids if u not in mine and not u.startswith(abbr)}


@pytest.mark.parametrize("seed,players", [(5, 8), (42, 6)])
def test_sweep_a_bot_game_shows_no_player_another_units_id_or_bonus_outside_his_battles(seed, players):
    """Every turn, every player: the records he may read name other units, traits and skills only in the
    battles he fought (a sweep over a real bot war: revolts, captures, ransoms, cards of every kind)."""
    from pbem.adjudicator import adjudicate
    from pbem.dice import Dice
    from pbem.gamedata import load_map
    from pbem.selfplay import bot_turn_orders, new_game
    from pbem.dice import turn_seed
    game_map = load_map()
    state = new_game(sorted(c for c, x in game_map.cities.items() if x.kind == "city_state")[:players], seed)
    secret = hashlib.sha256(f"sweep/{seed}".encode()).digest()
    leaks = []
    for _ in range(24):
        before = state.copy()
        o, hashes = bot_turn_orders(state, game_map, TABLES)
        log = adjudicate(state, game_map, TABLES, o, Dice(turn_seed(secret, state.turn, hashes)))
        for p in state.turn_order:
            secrets = _sweep_secrets(log.records, p, before, state)
            for r in events_for(log.records, p, game_map=game_map, states=[before, state]):
                if r.get("in_battle") is not None or p in ((r.get("private_to"),) if isinstance(
                        r.get("private_to"), str) else r.get("private_to") or ()):
                    continue
                text = repr({k: v for k, v in r.items() if k not in ("player",)})
                found = set(re.findall(r"[A-Z]{2,4}-[A-Z]+\d+", text)) & secrets
                # a trait or skill named outside a battle fought: a leak, unless it is the reader's own (a record
                # of his own phase about nobody else's unit, or a roll of his own unit in another's phase: a
                # Plague played on him); a roll of another's unit forced in his phase shows none of theirs
                subject = r.get("who", r.get("owner"))
                theirs = subject not in (None, p) if r.get("player") == p else subject != p
                if found or (theirs and ("(skill" in text or "(trait" in text)):
                    leaks.append(f"turn {before.turn} {p}: {sorted(found)} in {r}")
    assert not leaks, f"{len(leaks)} leaks, e.g.:\n" + "\n".join(leaks[:5])


def test_a_diplomacy_roll_on_a_players_city_does_not_show_him_how_many_rolls_the_roller_has():
    s = make_state(gold=10)
    s.cities["megara"].controller = "sparta"
    add(s, "sparta", "army", "0506")
    add(s, "athens", "army", "0302")
    before = s.copy()
    # 1 roll, a 2: no revolt
    ctx = run_phase("diplomacy", s, "athens", dice=[2], orders=orders("athens", diplomacy=["megara"]))
    own = [r for r in events_for(ctx.log.records, "athens", game_map=TINY, states=[before, s])
           if r.get("event") == "diplomacy_roll"]
    theirs = [r for r in events_for(ctx.log.records, "sparta", game_map=TINY, states=[before, s])
              if r.get("event") == "diplomacy_roll"]
    assert own and own[0]["n"] == 1 and own[0]["of"] == 1
    assert theirs and theirs[0]["roll"] == 2 and "n" not in theirs[0] and "of" not in theirs[0]


@pytest.mark.parametrize("card, trait, kind, target, where", [
    ("plague", "stoicism", "starvation", "megara", "0506"),   # All units in city make an upkeep roll at +2
    ("desertions", "stoicism", "starvation", "0506", "0506"),  # All units in stack make an upkeep roll
    ("storms", "sea_worthy", "navigation", "0202", "0202"),    # All ships in target square: a navigation roll
])
def test_a_card_forcing_another_players_roll_does_not_show_their_traits(card, trait, kind, target, where):
    """Found while the computer player learned to play Plague and Desertions: the upkeep roll they force on
    another player's units was shown to the card's player whole, with the owner's own modifiers ("Stoicism
    (trait)"), a home trait that is the owner's secret.  The card's player sees the die, the card's modifier and
    what came of it; the owner's traits and skills and the total are left out, and the report says so."""
    from pbem import report
    s = make_state(gold=10)
    s.players["sparta"].traits = [trait]
    s.cities["megara"].controller = "sparta"
    if kind == "navigation":
        f = add(s, "sparta", "fleet", where)
        add(s, "sparta", "rowers", where, carried_by=f.id)
        add(s, "athens", "army", "0203")
    else:
        add(s, "sparta", "army", where)
        add(s, "athens", "army", "0405")
    give(s, "athens", card)
    before = s.copy()
    ctx = run_phase("diplomacy", s, "athens", dice=[3],
                    orders=orders("athens", cards=[{"card": card, "target": target}]))
    [whole] = [r for r in ctx.log.records if r.get("event") == kind]
    assert whole["total"] != whole["roll"]  # the owner's trait counted (the moderator's log has it all)
    seen = events_for(ctx.log.records, "athens", game_map=TINY, states=[before, s])
    [rec] = [r for r in seen if r.get("event") == kind]
    assert "total" not in rec and rec["modifiers_hidden"] is True
    assert all(m["source"].endswith("(card)") for m in rec.get("modifiers", []))
    name = TABLES.traits[trait].name
    assert name not in repr(seen)
    nm = report.Namer(TINY, TABLES, {p: {"name": s.players[p].name} for p in s.turn_order})
    text = report.describe(rec, nm, "athens")
    assert "and any modifiers of theirs, which you do not see" in text and name not in text
    own = events_for(ctx.log.records, "sparta", game_map=TINY, states=[before, s])
    [theirs] = [r for r in own if r.get("event") == kind]
    assert theirs["total"] == whole["total"] and "modifiers_hidden" not in theirs  # the owner sees it all


def test_R_TURN_4_the_failed_order_of_a_captured_unit_names_it_to_its_former_owner():
    """Athens orders its Transport, captured by Sparta earlier in the turn: Athens' report says which order failed
    and why (R-TURN-4) with the unit's id, as Athens wrote it ("ATH-T1 was captured ..."), not "transport was
    captured" (a new player's review: an order naming two Transports did not say which one was taken)."""
    from pbem.dice import ScriptedDice
    from scenario import run_turn
    s = make_state(("sparta", "athens"))
    t = add(s, "athens", "transport", "0405")
    add(s, "athens", "transport", "0404")
    b = add(s, "sparta", "army", "0505")
    before = s.copy()
    log = run_turn(s, {"sparta": orders("sparta", first_move=[{"units": [b.id], "path": ["0405"]}]),
                       "athens": orders("athens", first_move=[{"units": [t.id, "ATH-T2"], "path": ["0404"]}])},
                   ScriptedDice([1] * 20))
    assert s.units[t.id].owner == "sparta"
    seen = events_for(log.records, "athens", game_map=TINY, states=[before, s])
    [f] = [r for r in seen if r.get("event") == "order_failed"]
    assert f["reason"] == "ATH-T1 was captured by the Spartans in their First Move", f
    assert f["units"] == ["ATH-T1", "ATH-T2"], f


def test_the_kits_numbers_for_units_in_sight_do_not_tell_a_captured_unit_from_its_holders_own():
    """A cheater's review: the kit numbered the units in sight in the order of their real ids, so Baggage captured
    from a third player (SPA-B35, held by Thebes) came out ahead of Thebes' own Army (THE-?1 baggage, THE-?3 army)
    and so was known to be captured.  Now they are numbered by owner, hex and type: the same kit whoever made
    the Baggage."""
    def kit_of(baggage_maker):
        s = make_state(("athens", "sparta"))
        add(s, "athens", "army", "0404")
        add(s, "sparta", "army", "0405")
        add(s, "sparta", "baggage", "0405")
        b = add(s, baggage_maker, "baggage", "0405")
        b.owner = "sparta"  # captured earlier when athens made it
        k = redact(s, TINY, "athens")
        return sorted((u.id, u.type.value, u.hex) for u in k.units.values() if u.owner == "sparta")
    assert kit_of("athens") == kit_of("sparta") == [
        ("SPA-?1", "army", "0405"), ("SPA-?2", "baggage", "0405"), ("SPA-?3", "baggage", "0405")]


def _blocked_move(mover, enemy_type, partial=False):
    s = make_state(("athens", "sparta"))
    u = add(s, "athens", mover, "0205")
    add(s, "sparta", enemy_type, "0406")  # two hexes on: out of Athens' sight before and after the turn
    before = s.copy()
    ctx = run_phase("first_move", s, "athens", orders=orders("athens", first_move=[
        {"units": [u.id], "path": ["0306", "0406"], **({"partial": True} if partial else {})}]))
    seen = events_for(ctx.log.records, "athens", game_map=TINY, states=[before, s])
    return ctx.log.records, seen


@pytest.mark.parametrize("mover, enemy_type, why", [
    ("army", "army", "0406 holds enemy Armies, Rowers or manned Fleets"),
    ("leader", "baggage", "0406 holds enemy units and the group has no Army, Rowers or manned Fleet to capture them")])
def test_R_TURN_4_a_move_blocked_out_of_sight_names_the_hex_not_what_stands_there(mover, enemy_type, why):
    """A cheater's review: a move skipped whole (its units never set out) said "0406 holds enemy Armies, Rowers or
    manned Fleets" of a hex out of the player's sight, before and after the turn: sixty orders a turn probed the
    fog (and a leader's move told of hidden Baggage).  The player reads that the hex blocks the way (R-TURN-4:
    which order failed and why), not what is there; the moderator's log keeps the whole reason."""
    records, seen = _blocked_move(mover, enemy_type)
    [whole] = [r for r in records if r.get("event") == "order_failed"]
    assert whole["reason"] == why
    [mine] = [r for r in seen if r.get("event") == "order_failed"]
    assert mine["reason"] == "0406 blocks the way; it is out of your sight, so what stands there is not told"
    assert "holds enemy" not in repr(seen)


def test_a_partial_move_stopped_out_of_sight_names_the_hex_not_what_stands_there():
    records, seen = _blocked_move("army", "army", partial=True)
    [moved] = [r for r in records if r.get("event") == "moved"]
    assert moved["stopped"] == "0406 holds enemy Armies, Rowers or manned Fleets" and moved["to"] == "0306"
    # it stands in 0306 at the end of the turn, next to 0406: in sight, so the reason stays whole
    [mine] = [r for r in seen if r.get("event") == "moved"]
    assert mine["stopped"] == moved["stopped"]
