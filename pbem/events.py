"""The turn's event log: named event kinds, every die roll before the event it caused.

One JSON line per record.  A record is either a roll ``{"seq", "turn", "player", "phase", "roll": {...}}``
or an event ``{"seq", "turn", "player", "phase", "event": KIND, ...data}``.  Reports are written from this
log and the state; nothing else.
"""
from __future__ import annotations

from enum import Enum
from typing import Any

from .dice import Dice


class Ev(str, Enum):
    # turn frame
    PLAYER_TURN = "player_turn"
    NMR = "nmr"
    TURN_END = "turn_end"
    # orders
    ORDER_DONE = "order_done"
    ORDER_FAILED = "order_failed"  # R-TURN-4
    # draw
    DRAW = "draw"
    DISCARD = "discard"
    RESHUFFLE = "reshuffle"
    # revenue
    INCOME = "income"
    NO_INCOME = "no_income"
    RAZED_REMOVED = "razed_removed"
    # upkeep
    UPKEEP_PAID = "upkeep_paid"
    BAGGAGE_USED = "baggage_used"
    STARVATION = "starvation"
    DISBANDED = "disbanded"
    # recruit
    RECRUITED = "recruited"
    EXPERIENCE = "experience"
    NEW_LEADER = "new_leader"
    NEW_TRAIT = "new_trait"
    # diplomacy
    DIPLOMACY_ROLL = "diplomacy_roll"
    CONTROL = "control"
    HOSTILITY_REMOVED = "hostility_removed"
    REVOLT = "revolt"
    NEUTRALISED = "neutralised"
    # cards and effects
    CARD_PLAYED = "card_played"
    EFFECT_STARTS = "effect_starts"  # a lasting effect enters state.effects
    EFFECT_ENDS = "effect_ends"
    GOLD = "gold"
    HAND_SEEN = "hand_seen"  # Spy: carries private_to
    RAZED_ADDED = "razed_added"  # Coup
    LEADER_REMOVED = "leader_removed"  # Assassination, Exiled, Election
    LEADER_RETURNS = "leader_returns"  # an exiled leader back in play
    # movement
    MOVED = "moved"
    CAPTURED = "captured"
    LEADER_FATE = "leader_fate"
    NAVIGATION = "navigation"
    SUNK = "sunk"
    # battles
    BATTLE = "battle"
    CASUALTY = "casualty"
    RETREAT = "retreat"
    CITY_TAKEN = "city_taken"
    PLUNDER = "plunder"
    DESTROYED = "destroyed"
    # end of game
    ELIMINATED = "eliminated"
    VICTORY = "victory"


_VALUE = {k: k.value for k in Ev}


class EventLog:
    """Collects the records of one turn.  ``emit`` first takes the dice rolled since the last record."""

    def __init__(self, dice: Dice, turn: int):
        self.dice = dice
        self.turn = turn
        self.records: list[dict[str, Any]] = []
        self.player: str | None = None
        self.phase: str | None = None

    def flush_rolls(self) -> None:
        if not self.dice.rolls:
            return
        records, turn, player, phase = self.records, self.turn, self.player, self.phase
        for roll in self.dice.drain():
            records.append({"seq": len(records) + 1, "turn": turn, "player": player, "phase": phase, "roll": roll})

    def emit(self, kind: Ev, **data: Any) -> dict[str, Any]:
        # the hot path of every phase: the record is one dict built in one step (frame keys first)
        if self.dice.rolls:
            self.flush_rolls()
        records = self.records
        rec = {"seq": len(records) + 1, "turn": self.turn, "player": self.player, "phase": self.phase,
               "event": _VALUE[kind], **data}
        records.append(rec)
        return rec

    def events(self, kind: Ev | None = None, player: str | None = None) -> list[dict[str, Any]]:
        return [r for r in self.records if "event" in r and (kind is None or r["event"] == kind.value)
                and (player is None or r["player"] == player)]
