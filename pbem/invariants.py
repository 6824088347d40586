"""Invariants of a legal game state, checked after every phase in the test suite (and by `pbem verify`).

Gold never negative, no stack over its limit, every unit in exactly one place, every card in exactly one
of deck / discard / a hand.
"""
from __future__ import annotations

from collections import Counter

from .board import stack_limit, stack_size
from .effects import stale_player_effects
from .gamedata import GameMap, Tables
from .model import GameState, UnitType, iter_cards


def violations(state: GameState, game_map: GameMap, tables: Tables) -> list[str]:
    out: list[str] = []
    for p in state.players.values():
        if p.gold < 0:
            out.append(f"{p.id} has {p.gold} gold")
    # every unit in exactly one place
    seen_at: Counter[str] = Counter()
    for uid, u in state.units.items():
        if uid != u.id:
            out.append(f"unit stored under {uid} is {u.id}")
        if u.hex not in game_map.terrain:
            out.append(f"{uid} is on {u.hex}, not a hex of the map")
            continue
        if u.owner is not None and u.owner not in state.players:
            out.append(f"{uid} belongs to unknown player {u.owner}")
        if u.carried_by is not None:
            carrier = state.units.get(u.carried_by)
            if carrier is None:
                out.append(f"{uid} is carried by {u.carried_by}, which does not exist")
            elif carrier.hex != u.hex:
                out.append(f"{uid} is on {u.hex} but its carrier {carrier.id} is on {carrier.hex}")
            elif carrier.carried_by is not None and carrier.type is not UnitType.ARMY:
                out.append(f"{uid} is carried by {carrier.id}, which is itself carried")
        seen_at[uid] += 1
    index = state._index()
    indexed = Counter(uid for here in index.values() for uid in here)
    if indexed != seen_at:
        out.append("the hex index does not match the units")
    for h, here in index.items():
        for uid, u in here.items():
            if u.hex != h:
                out.append(f"{uid} is indexed at {h} but stands on {u.hex}")
    leaders = {uid for uid, u in state.units.items() if u.type is UnitType.LEADER}
    if {u.id for u in state.leaders()} != leaders:
        out.append("the leader index does not match the units")
    out += [f"the remembered {kind} effects of {player} are out of date"
            for player, kind in stale_player_effects(state, tables)]
    # stacking (R-UNIT-2)
    owners_at = {(u.hex, u.owner) for u in state.units.values()}
    for h, owner in sorted(owners_at, key=lambda x: (x[0], x[1] or "")):
        n = stack_size(state, h, owner)
        limit = stack_limit(game_map, h)
        if n > limit:
            out.append(f"{owner or 'neutral'} stacks {n} on {h} ({game_map.terrain[h].name}, limit {limit})")
    # every card in exactly one pile (R-SET-6)
    piles = Counter(card for _, card in iter_cards(state))
    for card, n in piles.items():
        if n > 1:
            out.append(f"card {card} is in {n} places")
        if card not in tables.cards:
            out.append(f"unknown card {card}")
    missing = set(tables.cards) - set(piles)
    if missing:
        out.append(f"cards in no pile: {', '.join(sorted(missing))}")
    for cid, c in state.cities.items():
        if cid not in game_map.cities:
            out.append(f"unknown city {cid}")
        if c.controller is not None and c.controller not in state.players:
            out.append(f"{cid} is controlled by unknown player {c.controller}")
        if not 0 <= c.razed <= 6:
            out.append(f"{cid} has {c.razed} razed counters")
    return out
