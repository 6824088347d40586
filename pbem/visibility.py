"""Fog of war: what one player may see (the only place hidden information is decided).

``view(state, game_map, player)`` builds a plain, redacted dict; it never changes the state.  Every report,
the ``show`` command and the computer player read the game through it.  ``player=None`` is the moderator's
full view.

A player sees the whole terrain; every city with its controller, hostility, razed counters, income and
trait; the turn order and everyone's city count; their own units, gold, hand, leaders (with skills) and
traits; and, of other factions' and neutral units, type counts and leader names in or adjacent to any hex
holding their units or a city they control.  Other treasuries, hands and leader skills stay hidden.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from .gamedata import GameMap
from .model import GameState, UnitType, sorted_ids


def sight(state: GameState, game_map: GameMap, player: str) -> set[str]:
    """The hexes ``player`` can see into this turn."""
    eyes = {u.hex for u in state.units.values() if u.owner == player and u.away_until is None}
    eyes |= {game_map.cities[c].hex for c in state.controlled_cities(player)}
    seen = set(eyes)
    for h in eyes:
        seen.update(game_map.neighbours[h])
    return seen


def public(state: GameState) -> dict[str, Any]:
    players = {}
    for pid in state.turn_order:
        p = state.players[pid]
        players[pid] = {"name": p.name, "home": p.home, "abbr": p.abbr, "cities": len(state.controlled_cities(pid)),
                        "eliminated_turn": p.eliminated_turn, "hand_size": len(p.hand), "seat": p.seat}
    return {
        "campaign": state.campaign, "turn": state.turn, "last_turn": state.last_turn,
        "turn_order": list(state.turn_order), "players": players,
        "cities": {cid: c.to_dict() for cid, c in state.cities.items()},
        "deck_size": len(state.deck), "discard": list(state.discard),
        "finished": state.finished, "winner": state.winner, "standings": list(state.standings),
    }


def view(state: GameState, game_map: GameMap, player: str | None) -> dict[str, Any]:
    out = public(state)
    if player is None:  # the moderator
        out["viewer"] = None
        out["me"] = None
        out["visible_hexes"] = sorted(game_map.terrain)
        out["units"] = [state.units[u].to_dict() for u in sorted_ids(state.units)]
        out["others"] = []
        out["hands"] = {p: list(state.players[p].hand) for p in state.turn_order}
        out["gold"] = {p: state.players[p].gold for p in state.turn_order}
        out["traits"] = {p: list(state.players[p].traits) for p in state.turn_order}
        return out
    me = state.players[player]
    seen = sight(state, game_map, player)
    out["viewer"] = player
    out["me"] = me.to_dict()
    out["visible_hexes"] = sorted(seen)
    out["units"] = [state.units[u].to_dict() for u in sorted_ids(state.units) if state.units[u].owner == player]
    others: dict[tuple[str, str | None], dict[str, Any]] = {}
    for u in state.units.values():
        if u.owner == player or u.hex not in seen or u.away_until is not None:
            continue
        key = (u.hex, u.owner)
        entry = others.setdefault(key, {"hex": u.hex, "owner": u.owner, "counts": Counter(), "leaders": []})
        entry["counts"][u.type.value] += 1
        if u.type is UnitType.LEADER:
            entry["leaders"].append(u.name)
    out["others"] = [
        {"hex": e["hex"], "owner": e["owner"], "counts": dict(sorted(e["counts"].items())),
         "leaders": sorted(e["leaders"])}
        for _, e in sorted(others.items(), key=lambda kv: (kv[0][0], kv[0][1] or ""))
    ]
    return out
