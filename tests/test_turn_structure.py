"""Turn structure (R-TURN-3, R-TURN-5), standing orders (R-STAND-1) and the unit table (R-UNIT-1)."""
from pbem.dice import Dice
from pbem.model import RECRUIT_COST, UPKEEP_COST, UnitType
from pbem.ordertypes import Standing
from pbem.phases import PHASES
from scenario import TINY, add, make_state, orders, run_turn


def test_R_TURN_3_player_turns_in_turn_order_each_with_nine_phases_in_order():
    seen = []
    from pbem.adjudicator import adjudicate
    from scenario import TABLES
    state2 = make_state(("sparta", "athens"))
    adjudicate(state2, TINY, TABLES, {"sparta": None, "athens": None}, Dice(b"order"),
               after_phase=lambda ctx: seen.append((ctx.player, ctx.phase)))
    names = [p.name for p in PHASES]
    assert names == ["draw", "revenue", "upkeep", "recruit", "diplomacy", "first_move", "sea_battle",
                     "land_battle", "second_move"]
    assert seen == [("sparta", n) for n in names] + [("athens", n) for n in names] + [("", "end")]
    assert state2.turn == 2


def test_R_TURN_3_a_later_players_orders_meet_the_board_as_the_earlier_left_it():
    # Athens (first) takes neutral Delos with Natural Allies (no die); Sparta's later diplomacy roll at Delos
    # then targets a city Athens controls: an enemy-controlled city, not a neutral one.
    state = make_state(("athens", "sparta"))
    state.deck.remove("natural_allies")
    state.players["athens"].hand.append("natural_allies")
    o = {"athens": orders("athens", cards=[{"card": "natural_allies", "target": "delos"}]),
         "sparta": orders("sparta", diplomacy=["delos"])}
    log = run_turn(state, o, Dice(b"r-turn-3"))
    rolls = [r for r in log.records if r.get("event") == "diplomacy_roll" and r["player"] == "sparta"]
    assert len(rolls) == 1 and rolls[0]["city"] == "delos" and rolls[0]["target"] == "enemy"
    # had Sparta played first, the same roll would have been at a neutral city
    state2 = make_state(("sparta", "athens"))
    state2.deck.remove("natural_allies")
    state2.players["athens"].hand.append("natural_allies")
    log2 = run_turn(state2, o, Dice(b"r-turn-3"))
    rolls2 = [r for r in log2.records if r.get("event") == "diplomacy_roll" and r["player"] == "sparta"]
    assert rolls2[0]["target"] == "neutral"


def test_R_STAND_1_standing_orders_persist_until_replaced_and_survive_an_nmr():
    state = make_state(("athens", "sparta"))
    first = orders("athens", standing={"captured_leaders": "execute", "executions": False})
    run_turn(state, {"athens": first, "sparta": None}, Dice(b"s1"))
    assert Standing.from_dict(state.players["athens"].standing).captured_leaders == "execute"
    # a later file without a standing section keeps them; an NMR keeps them too
    run_turn(state, {"athens": orders("athens", turn=2), "sparta": None}, Dice(b"s2"))
    run_turn(state, {"athens": None, "sparta": None}, Dice(b"s3"))
    kept = Standing.from_dict(state.players["athens"].standing)
    assert kept.captured_leaders == "execute" and kept.executions is False
    # a new standing section replaces the old one whole
    run_turn(state, {"athens": orders("athens", turn=4, standing={"discard": ["storms"]}), "sparta": None},
             Dice(b"s4"))
    now = Standing.from_dict(state.players["athens"].standing)
    assert now.discard == ("storms",) and now.captured_leaders == "ransom" and now.executions is True


def test_R_TURN_5_an_nmr_player_gets_the_automatic_phases_only():
    state = make_state(("athens", "sparta"), gold=10)
    a = add(state, "athens", "army", TINY.cities["athens"].hex)
    hand_before = len(state.players["athens"].hand)
    log = run_turn(state, {"athens": None, "sparta": None}, Dice(b"nmr"))
    p = state.players["athens"]
    assert p.nmr_streak == 1
    assert len(p.hand) == hand_before + 2  # drew
    assert p.gold == 10 + 7 - 1  # revenue in, upkeep out
    kinds = {r["event"] for r in log.records if "event" in r and r["player"] == "athens"}
    assert "nmr" in kinds and not kinds & {"recruited", "diplomacy_roll", "moved", "battle"}
    assert state.units[a.id].hex == TINY.cities["athens"].hex


def test_R_UNIT_1_the_unit_table_and_readable_unique_ids():
    assert RECRUIT_COST == {UnitType.ARMY: 2, UnitType.ROWERS: 2, UnitType.BAGGAGE: 1, UnitType.TRANSPORT: 2,
                            UnitType.FLEET: 4}
    assert UPKEEP_COST == {UnitType.ARMY: 1, UnitType.ROWERS: 1}
    assert [t.value for t in UnitType][:6] == ["army", "rowers", "fleet", "transport", "baggage", "leader"]
    state = make_state()
    ids = [add(state, "athens", t, "0302").id for t in ("army", "army", "rowers", "fleet", "transport",
                                                        "baggage", "leader")]
    assert ids == ["ATH-A1", "ATH-A2", "ATH-R1", "ATH-F1", "ATH-T1", "ATH-B1", "ATH-L1"]
    assert len(set(ids)) == len(ids)
    assert not UnitType.LEADER.counts_for_stacking and not UnitType.BAGGAGE.counts_for_stacking
    assert UnitType.ARMY.needs_upkeep and not UnitType.FLEET.needs_upkeep


def test_R_SET_4_an_experience_trait_is_rerolled_if_a_minor_city_already_gives_it():
    from scenario import run_phase
    s = make_state(gold=0)
    s.cities["megara"].controller = "athens"
    s.cities["megara"].trait = "hoplites"  # 32: Athens already holds Hoplites through Megara
    # experience roll 10, then 1D6 5 (a trait), D66 3-2 (Hoplites: re-roll), 3-3 (Peltasts)
    ctx = run_phase("recruit", s, "athens", dice=[10, 5, 3, 2, 3, 3], orders=orders("athens"))
    assert "hoplites" not in s.players["athens"].traits and "peltasts" in s.players["athens"].traits
    assert ctx.dice.remaining == 0


def test_R_WIN_1_a_player_with_no_city_and_only_an_exiled_leader_is_out():
    s = make_state(("athens", "sparta", "troy"), gold=0)
    s.cities["athens"].controller = "sparta"
    leader = add(s, "athens", "leader", "0302")
    leader.away_until = 5
    add(s, "sparta", "army", "0302")
    run_turn(s, {p: None for p in s.turn_order}, Dice(b"exile"))
    assert s.players["athens"].eliminated_turn == 1
