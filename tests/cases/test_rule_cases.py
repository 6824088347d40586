"""Rule cases as data files, one per rule question, named by its rule id (like the Diplomacy Adjudicator Test
Cases).  Every ``*.yaml`` under ``tests/cases/`` (phases_1_5/, battles/, ...) is one case: a small state on the
tiny map (``prestate``), one phase run for one player with ``orders`` and scripted ``dice``, and what must hold
afterwards (``expect``).  The invariants are checked after the phase and every scripted die must be used
(tests/scenario.run_phase).

    rule: R-BAT-4        title: ...        phase: land_battle        player: athens
    players: [athens, sparta]                                          (default)
    prestate:
      gold: {athens: 0}     hands: {athens: [treasure]}     traits: {sparta: [long_walls]}
      deck_first: [card, ...]                                (cards moved to the top of the deck, in order)
      standing: {sparta: {retreat: {"0404": ["0405"]}}}      cities: {megara: {controller: sparta}}
      units: [{owner: athens, type: army, hex: "0405"}, {owner: athens, type: rowers, hex: "0302",
              carried_by: ATH-F1}, {owner: sparta, type: leader, hex: "0505", skills: [general]}]
      effects: [{kind: truce, source: truce, player: sparta, until_turn: 2}]
    orders: {land_battle: [{units: [ATH-A1], target: "0506", plunder: true}]}
    dice: [10, 3, 2, 4, 5, 6]
    expect:
      gold: {athens: 25}    hands: {athens: []}     discard: [treasure]     traits: {athens: [...]}
      units: {ATH-A1: {hex: "0506", owner: athens, carried_by: null}, SPA-A1: null}   (null: gone)
      cities: {megara: {controller: athens, hostile: true, razed: 3}}
      effects: 0                                                          (how many remain)
      events: [{event: battle, won_by: attacker, attack_total: 10}, ...]   (in order, each a subset)
      no_events: [casualty]                                               (kinds that must not occur)
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))  # tests/, for scenario

from scenario import add, events, make_state, orders, run_phase  # noqa: E402

from pbem.model import Effect  # noqa: E402

CASES = sorted(HERE.rglob("*.yaml"))


def build(case: dict):
    pre = case.get("prestate", {})
    state = make_state(case.get("players", ("athens", "sparta")))
    for card in reversed(pre.get("deck_first", [])):
        state.deck.remove(card)
        state.deck.insert(0, card)
    for pid, g in pre.get("gold", {}).items():
        state.players[pid].gold = g
    for pid, hand in pre.get("hands", {}).items():
        for c in hand:
            state.deck.remove(c)
            state.players[pid].hand.append(c)
    for pid, traits in pre.get("traits", {}).items():
        state.players[pid].traits = list(traits)
    for pid, st in pre.get("standing", {}).items():
        state.players[pid].standing = dict(st)
    for cid, fields in pre.get("cities", {}).items():
        for k, v in fields.items():
            setattr(state.cities[cid], k, v)
    for u in pre.get("units", []):
        u = dict(u)
        add(state, u.pop("owner"), u.pop("type"), str(u.pop("hex")), **u)
    for e in pre.get("effects", []):
        state.effects.append(Effect(**e))
    return state


def subset(record, want) -> bool:
    """``want`` is found in ``record``: dicts by their listed keys (a missing key reads as null), lists item by
    item, the rest equal."""
    if isinstance(want, dict):
        return isinstance(record, dict) and all(subset(record.get(k), v) for k, v in want.items())
    if isinstance(want, list):
        return isinstance(record, list) and len(record) == len(want) and all(map(subset, record, want))
    return record == want


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_case(path):
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert case["rule"] in path.stem, f"{path.name}: the file name must carry its rule id {case['rule']}"
    state = build(case)
    player = case.get("player", "athens")
    o = orders(player, **case.get("orders", {})) if case.get("orders") else None
    ctx = run_phase(case["phase"], state, player, case.get("dice", []), o)
    exp = case["expect"]
    for pid, g in exp.get("gold", {}).items():
        assert state.players[pid].gold == g, f"gold of {pid}"
    for pid, hand in exp.get("hands", {}).items():
        assert sorted(state.players[pid].hand) == sorted(hand), f"hand of {pid}"
    for pid, traits in exp.get("traits", {}).items():
        assert state.players[pid].traits == traits, f"traits of {pid}"
    if "discard" in exp:
        assert sorted(state.discard) == sorted(exp["discard"])
    for uid, fields in exp.get("units", {}).items():
        if fields is None:
            assert uid not in state.units, f"{uid} should be gone"
            continue
        assert uid in state.units, f"{uid} should exist"
        for k, v in fields.items():
            got = getattr(state.units[uid], k)
            assert (got.value if k == "type" else got) == v, f"{uid}.{k}"
    for cid, fields in exp.get("cities", {}).items():
        for k, v in fields.items():
            assert getattr(state.cities[cid], k) == v, f"{cid}.{k}"
    if "effects" in exp:
        assert len(state.effects) == exp["effects"]
    log = events(ctx)
    pos = 0
    for want in exp.get("events", []):
        while pos < len(log) and not subset(log[pos], want):
            pos += 1
        assert pos < len(log), f"no event {want} (in order) among {log}"
        pos += 1
    kinds = {r["event"] for r in log}
    for kind in exp.get("no_events", []):
        assert kind not in kinds, f"unexpected {kind} event"
