"""Real mid-game boards for the checker-agrees-with-the-adjudicator tests (test_checker_agrees*.py).

A board is a bot game (``pbem.selfplay``) played for some turns; its first player in turn order is the player
whose orders are checked (``pbem.checker``) and carried out (one phase of ``pbem.adjudicator``), so nothing
happens before their player-turn that the checker could not foresee.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable

from pbem import yamlio
from pbem.adjudicator import TurnContext
from pbem.checker import ERROR, Game, RuleCheck
from pbem.dice import Dice
from pbem.events import EventLog
from pbem.gamedata import load_map, tables
from pbem.model import GameState
from pbem.orders import build
from pbem.ordertypes import Orders
from pbem.phases import PHASES

FACTIONS = ["athens", "sparta", "thebes", "corinth", "troy", "crete"]
# (players, seed, turns played): a few real boards in the middle of a game
BOARDS = [(2, 11, 6), (4, 12, 8), (6, 13, 5), (3, 14, 10), (5, 15, 12)]


@lru_cache(maxsize=None)
def board(k: int, hand: tuple[str, ...] = ()) -> tuple[GameState, str]:
    """Board ``k`` and its first player (with plenty of gold; with the cards ``hand`` in hand, taken from
    wherever they were)."""
    from pbem.selfplay import new_game, play
    if hand:
        state, me = board(k)
        state = state.copy()
    else:
        n, seed, turns = BOARDS[k]
        gm = load_map()
        state = play(new_game(FACTIONS[:n], seed, gm), gm, turns, seed)
        me = state.active_players()[0]
        state.players[me].gold = 99
    give(state, me, hand)
    return state, me


def give(state: GameState, me: str, cards: Iterable[str]) -> None:
    """Put ``cards`` in ``me``'s hand, taken from other hands, the deck or the discard pile."""
    for c in cards:
        for p in state.players.values():
            if c in p.hand:
                p.hand.remove(c)
        for pile in (state.deck, state.discard):
            if c in pile:
                pile.remove(c)
        state.players[me].hand.append(c)


def findings(state: GameState, doc: dict) -> list:
    """The checker's findings on the order file ``doc`` (which must pass the schema)."""
    text = yamlio.dump(doc)
    parsed = build(yamlio.parse(text, "o.yaml"), text)
    assert not parsed.problems, parsed.problems
    return RuleCheck(parsed, Game(state, load_map(), tables()), "o.yaml").run()


def severity(found: list, *paths: str) -> tuple[str, list[str]]:
    """("error" | "warning" | "ok", the findings) for the findings at or under one of ``paths`` (``recruit[0]``
    covers ``recruit[0].unit``; not ``recruit[01]``)."""
    def under(p: str, q: str) -> bool:
        return p == q or p.startswith(q) and p[len(q)] in ".["
    mine = [f for f in found if any(under(f.path, q) for q in paths)]
    sev = "error" if any(f.severity == ERROR for f in mine) else "warning" if mine else "ok"
    return sev, [f"{f.severity}: {f.path}: {f.message}" for f in mine]


def run_phases(state: GameState, doc: dict, names: Iterable[str], seed: bytes = b"agree") -> TurnContext:
    """The player's phases ``names``, as ``adjudicate`` runs them, on a copy of ``state``."""
    me = doc["player"]
    s = state.copy()
    dice = Dice(seed)
    orders = {p: Orders.empty(s.campaign, s.turn, p) for p in s.turn_order}
    orders[me] = Orders.from_dict(doc)
    ctx = TurnContext(s, load_map(), tables(), dice, EventLog(dice, s.turn), orders)
    ctx.player = ctx.log.player = me
    for name in names:
        ctx.phase = ctx.log.phase = name
        next(p for p in PHASES if p.name == name).resolve(ctx)
    return ctx


def outcome(ctx: TurnContext, section: str, index: int) -> tuple[str, str] | None:
    """("done" | "failed", the reason) of order ``section[index]``, None if the adjudicator said nothing of it."""
    for r in ctx.log.records:
        if r.get("section") == section and r.get("index") == index:
            if r["event"] == "order_failed":
                return "failed", r["reason"]
            if r["event"] == "order_done":
                return "done", ""
    return None
