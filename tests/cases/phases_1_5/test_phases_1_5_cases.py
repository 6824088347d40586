"""Rule cases of phases 1-5 as data (R-PH-DRAW, R-PH-REV, R-PH-UPK, R-PH-REC, R-PH-DIP, R-PH-DIP-REVOLT).

Each ``*.yaml`` file here is one case, named by its rule id: a small state on the tiny map (``prestate``),
one phase run for one player with ``orders`` and scripted ``dice``, and what must hold afterwards
(``expect``).  The invariants are checked after the phase, and every scripted die must be used.

    rule: R-PH-UPK                     title: ...
    phase: upkeep                      player: athens
    prestate:
      gold: {athens: 0}                hands: {athens: [bribes]}    deck_first: [card, ...]
      traits: {athens: [stoicism]}     cities: {megara: {controller: athens, hostile: true}}
      units: [{owner: athens, type: army, hex: "0502", starvation: 1}, ...]   (ids as tests/scenario.add gives)
      standing: {sparta: {executions: false}}      effects: [{kind: ..., ...}]
    orders: {upkeep: [ATH-A1]}         dice: [5]
    expect:
      gold: {athens: 0}                hands: {athens: []}           traits: {athens: [...]}
      units: {ATH-A1: {starvation: 1}, ATH-B1: null}                (null: the unit is gone)
      cities: {megara: {hostile: false}}                          effects: 0  (how many remain)
      events: [{event: starvation, unit: ATH-A1}, ...]   (each matches a later event than the one before)
      no_events: [disbanded]                             (kinds that must not occur)
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent.parent))  # tests/, for scenario

from scenario import add, events, make_state, orders, run_phase  # noqa: E402

from pbem.model import Effect  # noqa: E402

CASES = sorted(HERE.glob("*.yaml"))


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


def matches(record: dict, want: dict) -> bool:
    return all(record.get(k) == v for k, v in want.items())


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
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
        assert state.players[pid].hand == hand, f"hand of {pid}"
    for pid, traits in exp.get("traits", {}).items():
        assert state.players[pid].traits == traits, f"traits of {pid}"
    for uid, fields in exp.get("units", {}).items():
        if fields is None:
            assert uid not in state.units, f"{uid} should be gone"
            continue
        assert uid in state.units, f"{uid} should exist"
        for k, v in fields.items():
            got = getattr(state.units[uid], k)
            assert (got.value if hasattr(got, "value") and k == "type" else got) == v, f"{uid}.{k}"
    for cid, fields in exp.get("cities", {}).items():
        for k, v in fields.items():
            assert getattr(state.cities[cid], k) == v, f"{cid}.{k}"
    if "effects" in exp:
        assert len(state.effects) == exp["effects"]
    log = events(ctx)
    pos = 0
    for want in exp.get("events", []):
        while pos < len(log) and not matches(log[pos], want):
            pos += 1
        assert pos < len(log), f"no event {want} (in order) among {log}"
        pos += 1
    kinds = {r["event"] for r in log}
    for kind in exp.get("no_events", []):
        assert kind not in kinds, f"unexpected {kind} event"
