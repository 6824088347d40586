"""The end of a game turn: neutral cities clear one razed counter (R-PH-REV), the turn counter moves on."""
from __future__ import annotations

from ..events import Ev


def resolve(ctx) -> None:
    state = ctx.state
    for cid in sorted(state.cities):
        city = state.cities[cid]
        if city.controller is None and city.razed > 0:
            city.razed -= 1
            ctx.emit(Ev.RAZED_REMOVED, city=cid, left=city.razed)
    ctx.emit(Ev.TURN_END, turn=state.turn)
    state.turn += 1
