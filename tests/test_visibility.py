"""Fog of war (issue #7): what `view` shows a player and which log records `events_for` lets through.

On the tiny map: Athens (0302) in the north-west, Sparta (0505) in the middle, Troy (0903) in the east.
"""
from __future__ import annotations

import copy

import pytest

from pbem.model import Effect
from pbem.visibility import events_for, is_roll, sight, standings, view
from scenario import TINY, add, give, make_state


def world():
    s = make_state(["athens", "sparta", "troy"], gold=10)
    s.players["athens"].gold, s.players["sparta"].gold, s.players["troy"].gold = 11, 22, 33
    give(s, "athens", "spy")
    give(s, "sparta", "storms", "bribes")
    give(s, "troy", "treasure")
    s.players["sparta"].traits = ["hoplites"]
    add(s, "athens", "army", "0302")
    add(s, "athens", "leader", "0302", name="Pericles", skills=["heroism"])
    add(s, "sparta", "army", "0402")  # next to Athens: in sight
    add(s, "sparta", "leader", "0402", name="Brasidas", skills=["brilliance"])
    add(s, "sparta", "army", "0505")  # at home: out of sight
    add(s, "troy", "army", "0903")
    add(s, None, "pirate", "0201")  # neutral, next to Athens (0302): in sight
    s.discard.append("truce")
    return s


def test_sight_is_own_hexes_and_cities_and_their_neighbours():
    s = world()
    seen = sight(s, TINY, "athens")
    assert "0302" in seen and set(TINY.neighbours["0302"]) <= seen
    assert "0402" in seen and "0403" not in seen and "0505" not in seen and "0903" not in seen
    s.cities["megara"].controller = "athens"  # a controlled city gives sight though no unit is there
    seen = sight(s, TINY, "athens")
    assert {"0506", *TINY.neighbours["0506"]} <= seen


def test_view_shows_own_things_whole_and_others_as_counts_in_sight():
    s = world()
    v = view(s, TINY, "athens")
    assert v["me"]["gold"] == 11 and v["me"]["hand"] == ["spy"]
    assert {u["id"] for u in v["units"]} == {"ATH-A1", "ATH-L1"}
    assert next(u for u in v["units"] if u["id"] == "ATH-L1")["skills"] == ["heroism"]
    others = {(e["hex"], e["owner"]): e for e in v["others"]}
    assert others[("0402", "sparta")] == {"hex": "0402", "owner": "sparta", "counts": {"army": 1, "leader": 1},
                                          "aboard": {}, "leaders": ["Brasidas"]}
    assert others[("0201", None)]["counts"] == {"pirate": 1}
    assert not any(e["hex"] in ("0505", "0903") for e in v["others"])
    # public: cities, turn order, city counts, hand sizes, pile sizes
    assert v["players"]["sparta"]["cities"] == 1 and v["players"]["sparta"]["hand_size"] == 2
    assert v["discard_size"] == 1 and v["cities"]["troy"]["controller"] == "troy"


def test_view_hides_treasuries_hands_traits_skills_ids_and_the_discard_pile():
    s = world()
    text = repr(view(s, TINY, "athens"))
    for secret in ("22", "33", "storms", "bribes", "treasure", "hoplites", "brilliance", "SPA-", "TRO-", "NEU-",
                   "truce"):
        assert secret not in text, secret


def test_moderator_view_has_everything():
    s = world()
    v = view(s, TINY, None)
    assert v["gold"] == {"athens": 11, "sparta": 22, "troy": 33}
    assert v["hands"]["sparta"] == ["storms", "bribes"] and v["discard"] == ["truce"]
    assert len(v["units"]) == len(s.units) and v["others"] == []
    assert set(v["visible_hexes"]) == set(TINY.terrain)


def test_view_never_changes_the_state():
    s = world()
    before = s.to_json()
    view(s, TINY, "athens", records=[{"seq": 1, "turn": 1, "player": "sparta", "phase": "draw", "event": "draw",
                                       "cards": ["storms"]}], before=s.copy())
    view(s, TINY, None)
    assert s.to_json() == before


def test_effects_shown_are_the_players_own_aimed_at_them_or_at_everyone():
    """docs/rules.md (Truce): a Truce binds everyone, so everyone knows of it; others' effects on others stay
    hidden."""
    s = world()
    s.effects = [Effect("income_block", "raids", "sparta", "athens"), Effect("truce", "truce", "troy", None),
                 Effect("diplomacy_rolls", "oratory", "athens", "athens", 1),
                 Effect("income_block", "economic_blockade", "troy", "sparta"),
                 Effect("some_new_kind", "storms", "troy", None)]  # no target is not enough to be public
    v = view(s, TINY, "athens")
    assert [e["source"] for e in v["effects"]] == ["raids", "truce", "oratory"]


def test_standings_share_a_rank_on_a_tie_and_hide_the_tie_breaks():
    s = world()
    s.cities["megara"].controller = "troy"
    rows = standings(s)
    assert [(r["player"], r["cities"], r["rank"]) for r in rows] == [
        ("troy", 2, 1), ("athens", 1, 2), ("sparta", 1, 2)]
    assert all(set(r) == {"player", "cities", "out", "rank"} for r in rows)
    s.finished, s.standings = True, [{"player": "troy", "cities": 2, "gold": 33}]
    assert standings(s) == [{"player": "troy", "cities": 2, "gold": 33}]


# -- the event log ---------------------------------------------------------------------------------------

class Log:
    def __init__(self):
        self.records = []

    def ev(self, player, phase, kind, **data):
        self.records.append({"seq": len(self.records) + 1, "turn": 1, "player": player, "phase": phase,
                             "event": kind, **data})
        return self.records[-1]["seq"]

    def roll(self, player, phase, result, purpose, die="1D6", **context):
        self.records.append({"seq": len(self.records) + 1, "turn": 1, "player": player, "phase": phase,
                             "roll": {"die": die, "result": result, "purpose": purpose, **context}})
        return self.records[-1]["seq"]


def seqs(records):
    return [r["seq"] for r in records]


def for_athens(log, s=None):
    s = s or world()
    return {r["seq"]: r for r in events_for(log.records, "athens", game_map=TINY, states=[s])}


def test_own_events_are_whole_with_their_dice():
    log = Log()
    r = log.roll("athens", "upkeep", 6, "upkeep roll ATH-A1", unit="ATH-A1")
    e = log.ev("athens", "upkeep", "disbanded", unit="ATH-A1", roll=6, total=6)
    got = for_athens(log)
    assert set(got) == {r, e} and "redacted" not in got[e] and got[e]["roll"] == 6


def test_other_players_private_events_and_their_dice_are_hidden():
    log = Log()
    log.ev("sparta", "draw", "draw", count=2, cards=["storms", "bribes"], private_to="sparta")
    log.ev("sparta", "revenue", "income", city="sparta", amount=7, gold=22)
    log.roll("sparta", "diplomacy", 4, "Treasure gold")
    log.ev("sparta", "diplomacy", "gold", who="sparta", amount=4, gold=22)
    log.roll("sparta", "upkeep", 3, "upkeep roll SPA-A2", unit="SPA-A2")
    log.ev("sparta", "upkeep", "starvation", unit="SPA-A2", who="sparta", roll=3, counters=1)
    log.ev("sparta", "recruit", "experience", city="sparta", roll=2, result="nothing")
    log.ev("sparta", "first_move", "order_failed", section="first_move", index=0, reason="SPA-A3 is not yours")
    log.ev("sparta", "recruit", "new_trait", city="sparta", trait="hoplites", private_to="sparta")
    assert for_athens(log) == {}


def test_private_to_shows_a_record_to_its_players_only_even_in_their_own_turn():
    log = Log()
    a = log.ev("athens", "diplomacy", "hand_seen", of="sparta", hand=["storms"], private_to="athens")
    b = log.ev("athens", "diplomacy", "hand_seen", of="athens", hand=["spy"], private_to=["sparta", "troy"])
    assert set(for_athens(log)) == {a}
    sparta = events_for(log.records, "sparta", game_map=TINY, states=[world()])
    assert seqs(sparta) == [b]
    assert seqs(events_for(log.records, None)) == [a, b]


def test_public_events_are_redacted_without_dice_amounts_or_unit_ids():
    log = Log()
    r = log.roll("troy", "diplomacy", 6, "diplomacy roll", city="delos")
    d = log.ev("troy", "diplomacy", "diplomacy_roll", city="delos", roll=6, total=6, success=True)
    c = log.ev("troy", "diplomacy", "control", city="delos", cause="diplomacy")
    p = log.ev("troy", "diplomacy", "card_played", card="assassination", by="troy", target="SPA-L1")
    log.roll("troy", "land_battle", 5, "plunder gold", die="3D6")
    pl = log.ev("troy", "land_battle", "plunder", city="delos", by="troy", gold=15, razed=3)
    got = for_athens(log)
    assert set(got) == {c, p, pl}  # the roll on Delos is Troy's business; the result is public
    assert r not in got and d not in got
    assert got[c]["redacted"] and got[c]["city"] == "delos"
    # no foreign unit id: a leader in sight (Brasidas, at 0402) by its name and owner, as OTHER UNITS IN SIGHT
    # shows it (it read "on leader", a half-hidden target: player review)
    assert got[p]["card"] == "assassination" and got[p]["target"] == "Brasidas"
    assert got[p]["target_owner"] == "sparta" and "SPA-L1" not in repr(got[p])
    assert "gold" not in got[pl] and got[pl]["razed"] == 3


def test_moves_in_sight_are_redacted_to_counts_and_the_hexes_seen():
    log = Log()
    m = log.ev("sparta", "first_move", "moved", units=["SPA-A1", "SPA-L1"], **{"from": "0505"},
               path=["0404", "0403", "0303"])
    far = log.ev("troy", "first_move", "moved", units=["TRO-A1"], **{"from": "0903"}, path=["0904"])
    got = for_athens(log)
    assert set(got) == {m}
    e = got[m]
    assert e["redacted"] and e["units_counts"] == {"army": 1, "leader": 1} and e["units_leaders"] == ["Brasidas"]
    assert "units" not in e and "from" not in e  # 0505 is out of sight
    assert e["path"] == ["0303"]
    assert far not in got


def test_events_naming_the_player_their_units_or_cities_are_whole():
    log = Log()
    r = log.roll("sparta", "diplomacy", 6, "diplomacy roll", city="athens")
    d = log.ev("sparta", "diplomacy", "diplomacy_roll", city="athens", roll=6, total=6, success=True)
    c = log.ev("sparta", "diplomacy", "card_played", card="raids", by="sparta", target="athens")
    cap = log.ev("troy", "second_move", "captured", units=["ATH-B1"], by="troy", hex="0707")
    got = for_athens(log)
    assert set(got) == {r, d, c, cap} and not any(x.get("redacted") for x in got.values())


def test_a_battle_the_player_fought_is_whole_with_every_die_and_what_followed():
    log = Log()
    log.ev("sparta", "land_battle", "card_played", card="reconnaissance", by="sparta")
    dice = [log.roll("sparta", "land_battle", 9, "attack roll SPA-A1", die="1D10", unit="SPA-A1"),
            log.roll("sparta", "land_battle", 2, "defence roll ATH-A1", die="1D10", unit="ATH-A1")]
    b = log.ev("sparta", "land_battle", "battle", target="0302", attacker="sparta", defender="athens",
               attackers=["SPA-A1"], defenders=["ATH-A1"], winner="sparta")
    dice.append(log.roll("sparta", "land_battle", 3, "casualty roll ATH-A1", unit="ATH-A1"))
    cas = log.ev("sparta", "land_battle", "casualty", unit="ATH-A1", result="destroyed")
    gold = log.ev("sparta", "land_battle", "gold", who="sparta", amount=12, source="plunder", gold=34)
    done = log.ev("sparta", "land_battle", "order_done", section="land_battle", index=0)
    # a second battle of the same phase, far away: not the Athenians'
    far = [log.roll("sparta", "land_battle", 8, "attack roll SPA-A3", die="1D10", unit="SPA-A3"),
           log.ev("sparta", "land_battle", "battle", target="0903", attacker="sparta", defender="troy",
                  attackers=["SPA-A3"], defenders=["TRO-A1"], winner="troy"),
           log.ev("sparta", "land_battle", "order_done", section="land_battle", index=1)]
    got = for_athens(log)
    assert {1, *dice, b, cas, gold, done} <= set(got)
    assert all(not got[i].get("redacted") and got[i]["in_battle"] == b for i in (1, *dice, b, cas, gold, done))
    assert not set(far) & set(got)
    troy = {r["seq"]: r for r in events_for(log.records, "troy", game_map=TINY, states=[world()])}
    assert set(far) <= set(troy) and b not in troy and dice[0] not in troy


def test_a_battle_in_sight_between_others_is_redacted_and_its_dice_hidden():
    s = world()
    log = Log()
    r = log.roll("troy", "land_battle", 9, "attack roll TRO-A1", die="1D10", unit="TRO-A1")
    b = log.ev("troy", "land_battle", "battle", target="0402", attacker="troy", defender="sparta",
               attackers=["TRO-A1"], defenders=["SPA-A1", "SPA-L1"], attack_total=9, defence_total=3,
               winner="troy")
    got = for_athens(log, s)
    assert set(got) == {b} and r not in got
    e = got[b]
    assert e["redacted"] and e["winner"] == "troy" and e["defenders_counts"] == {"army": 1, "leader": 1}
    assert "attack_total" not in e and "defenders" not in e


def test_an_explicit_battle_key_puts_a_record_in_that_battle():
    log = Log()
    b = log.ev("sparta", "land_battle", "battle", target="0302", attacker="sparta", defender="athens")
    log.ev("sparta", "land_battle", "order_done", section="land_battle", index=0)
    later = log.ev("sparta", "second_move", "leader_fate", name="Pericles", fate="ransomed", battle=b)
    got = for_athens(log)
    assert got[later]["in_battle"] == b and not got[later].get("redacted")


def test_loose_dice_at_the_end_of_a_phase_belong_to_their_player():
    log = Log()
    own = log.roll("athens", "second_move", 2, "navigation roll ATH-F1")
    other = log.roll("sparta", "second_move", 5, "navigation roll SPA-F1")
    log.ev(None, "end", "turn_end", turn=1)
    got = for_athens(log)
    assert own in got and other not in got and all(is_roll(got[own]) for _ in [0])


def test_events_for_returns_copies_and_keeps_the_log_unchanged():
    log = Log()
    log.ev("sparta", "first_move", "moved", units=["SPA-A1"], **{"from": "0505"}, path=["0404", "0403"])
    log.ev("athens", "revenue", "income", city="athens", amount=7)
    original = copy.deepcopy(log.records)
    got = events_for(log.records, "athens", game_map=TINY, states=[world()])
    for r in got:
        r["mutated"] = True
    assert log.records == original


@pytest.mark.parametrize("player", ["athens", "sparta", "troy"])
def test_every_record_is_seen_by_its_own_player(player):
    log = Log()
    for p in ("athens", "sparta", "troy"):
        log.roll(p, "upkeep", 4, f"upkeep roll of {p}")
        log.ev(p, "upkeep", "starvation", who=p, roll=4)
    got = events_for(log.records, player, game_map=TINY, states=[world()])
    assert {r["player"] for r in got} == {player} and len(got) == 2


def test_a_city_counts_as_the_players_only_while_they_hold_it():
    before = world()
    after = world()
    after.cities["delos"].controller = "athens"
    log = Log()
    early = log.ev("troy", "diplomacy", "diplomacy_roll", city="delos", roll=2, total=2, success=False)
    log.ev("athens", "diplomacy", "control", city="delos", cause="diplomacy")
    late = log.ev("sparta", "diplomacy", "diplomacy_roll", city="delos", roll=3, total=3, success=False)
    got = {r["seq"]: r for r in events_for(log.records, "athens", game_map=TINY, states=[before, after])}
    assert early not in got and late in got and not got[late].get("redacted")
