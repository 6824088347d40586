"""One game turn in batch (R-TURN-3): each player in turn order runs the nine phases with their orders.

The sequence of play, in one place::

    for player in turn order (skipping players who are out):
        for phase in PHASES:        # draw, revenue, upkeep, recruit, diplomacy,
            phase.resolve(ctx)      # first_move, sea_battle, land_battle, second_move
    end of the game turn: neutral cities clear a razed counter, lasting effects expire, victory is checked

Pure: gets a state, the turn's orders and dice; changes the state in place and returns the event log.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .dice import Dice
from .events import EventLog, Ev
from .gamedata import GameMap, Tables
from .model import GameState
from .ordertypes import Orders, Standing
from .phases import PHASES, end_of_turn


@dataclass
class TurnContext:
    state: GameState
    game_map: GameMap
    tables: Tables
    dice: Dice
    log: EventLog
    orders: dict[str, Orders]
    nmr: set[str] = field(default_factory=set)
    player: str = ""
    phase: str = ""
    scratch: dict[str, Any] = field(default_factory=dict)  # per player-turn notes between phases
    _standing: dict[str, Standing] = field(default_factory=dict, repr=False)

    # ctx.emit(kind, **data) is the log's own emit (the hot path: no wrapper call)
    emit: Callable[..., dict[str, Any]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.emit = self.log.emit

    @property
    def me(self):
        return self.state.players[self.player]

    @property
    def my_orders(self) -> Orders:
        return self.orders[self.player]

    def standing(self, player: str) -> Standing:
        """A player's standing orders; they are set before the first player-turn and fixed for the turn."""
        found = self._standing.get(player)
        if found is None:
            found = self._standing[player] = Standing.from_dict(self.state.players[player].standing)
        return found

    def order_failed(self, section: str, index: int | None, reason: str, **data: Any) -> None:
        """R-TURN-4: the order is skipped, never half-applied, and the report says why."""
        self.log.emit(Ev.ORDER_FAILED, section=section, index=index, reason=reason, **data)

    def order_done(self, section: str, index: int | None, **data: Any) -> None:
        self.log.emit(Ev.ORDER_DONE, section=section, index=index, **data)


AfterPhase = Callable[[TurnContext], None]


def adjudicate(state: GameState, game_map: GameMap, tables: Tables, orders: dict[str, Orders | None],
               dice: Dice, after_phase: AfterPhase | None = None) -> EventLog:
    """Resolve game turn ``state.turn``.  ``orders[p]`` is None for a player without accepted orders (NMR)."""
    log = EventLog(dice, state.turn)
    ctx = TurnContext(state, game_map, tables, dice, log, {})
    for pid in state.turn_order:
        o = orders.get(pid)
        if o is None:
            ctx.nmr.add(pid)
            state.players[pid].nmr_streak += 1
            o = Orders.empty(state.campaign, state.turn, pid)
        else:
            state.players[pid].nmr_streak = 0
            if o.standing is not None:  # R-STAND-1: a new file replaces the standing orders
                state.players[pid].standing = o.standing.to_dict()
        ctx.orders[pid] = o
    for pid in list(state.turn_order):
        if state.players[pid].eliminated_turn is not None:
            continue
        ctx.player, ctx.scratch = pid, {}
        log.player, log.phase = pid, None
        ctx.phase = ""
        log.emit(Ev.PLAYER_TURN, nmr=pid in ctx.nmr)
        if pid in ctx.nmr:
            log.emit(Ev.NMR, streak=state.players[pid].nmr_streak)
        for phase in PHASES:
            ctx.phase = log.phase = phase.name
            phase.resolve(ctx)
            log.flush_rolls()
            if after_phase is not None:
                after_phase(ctx)
    ctx.player, ctx.phase = "", "end"
    log.player, log.phase = None, "end"
    end_of_turn(ctx)
    log.flush_rolls()
    if after_phase is not None:
        after_phase(ctx)
    return log
