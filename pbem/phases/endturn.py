"""The end of a game turn (R-PH-REV, R-WIN-1): neutral cities clear one razed counter, players with no city and
no unit are out, the game ends after the last turn (or early on a majority, option ``early_victory``), and the
turn counter moves on.

Standings (R-WIN-1): cities controlled (home and minor) plus ``victory_cities`` effects (a Historian leader in
play counts as one city); ties by gold, then by units on the board (every unit type, leaders included), then
by turn order (Decision: a full tie goes to the player earlier in the turn order).  If only one player is
left in the game, the game ends at once and that player wins (Decision).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import effects as fx
from ..events import Ev
from ..model import GameState

if TYPE_CHECKING:
    from ..adjudicator import TurnContext


def resolve(ctx: "TurnContext") -> None:
    state = ctx.state
    for cid in sorted(state.cities):
        city = state.cities[cid]
        if city.controller is None and city.razed > 0:
            city.razed -= 1
            ctx.emit(Ev.RAZED_REMOVED, city=cid, left=city.razed)
    eliminate(ctx)
    check_victory(ctx)
    ctx.emit(Ev.TURN_END, turn=state.turn)
    state.turn += 1


def units_on_board(state: GameState, player: str) -> int:
    return sum(1 for u in state.units.values() if u.owner == player and u.away_until is None)


def eliminate(ctx: "TurnContext") -> None:
    """R-WIN-1: a player who controls no city and has no unit is out of the game."""
    state = ctx.state
    for pid in state.turn_order:
        p = state.players[pid]
        if p.eliminated_turn is not None:
            continue
        # units in play only: an exiled leader with no city to return to does not keep a player in the game
        if not state.controlled_cities(pid) and not any(u.owner == pid and u.away_until is None
                                                        for u in state.units.values()):
            p.eliminated_turn = state.turn
            # Decision: their hand goes to the discard pile, face down (the deck holds one of each card)
            out = len(p.hand)
            state.discard.extend(p.hand)
            p.hand.clear()
            ctx.emit(Ev.ELIMINATED, who=pid, cards_discarded=out)


def standings(ctx: "TurnContext") -> list[dict[str, Any]]:
    state = ctx.state
    rows = []
    for pos, pid in enumerate(state.turn_order):
        p = state.players[pid]
        cities = len(state.controlled_cities(pid))
        bonus = fx.total_value(fx.player_effects(state, ctx.tables, pid, "victory_cities")) \
            if p.eliminated_turn is None else 0
        rows.append({"player": pid, "cities": cities, "victory_cities": bonus, "score": cities + bonus,
                     "gold": p.gold, "units": units_on_board(state, pid), "eliminated": p.eliminated_turn,
                     "_pos": pos})
    rows.sort(key=lambda r: (r["eliminated"] is not None, -r["score"], -r["gold"], -r["units"], r["_pos"]))
    for rank, r in enumerate(rows, start=1):
        r["rank"] = rank
        del r["_pos"]
    return rows


def check_victory(ctx: "TurnContext") -> None:
    state = ctx.state
    if state.finished:
        return
    active = state.active_players()
    reason = None
    if state.turn >= state.last_turn:
        reason = "last turn"
    elif len(active) <= 1 and len(state.turn_order) > 1:
        reason = "last player left"
    elif state.options.get("early_victory"):
        half = len(state.cities) / 2
        if any(len(state.controlled_cities(pid)) > half for pid in active):
            reason = "majority of cities"
    if reason is None:
        return
    rows = standings(ctx)
    state.finished = True
    state.standings = rows
    state.winner = rows[0]["player"] if rows and rows[0]["eliminated"] is None else None
    ctx.emit(Ev.VICTORY, winner=state.winner, reason=reason, standings=rows)
