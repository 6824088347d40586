"""Draw phase (R-PH-DRAW), the first phase of a player-turn (R-TURN-3).

Steps:
1. Start of the player-turn: lasting effects whose time is over leave ``state.effects``, and exiled leaders
   whose time is up come back (``pbem.cards``).
2. Draw 2 cards; an empty deck is refilled by shuffling the discard pile (``Ev.RESHUFFLE``).
3. Hand limit 7, plus the ``hand_size`` effects of the player (Statecraft).  Over it, discard down to it:
   first the cards of the order's ``discard`` list, then those of the standing ``discard`` list, then the
   most recently drawn cards first.
"""
from __future__ import annotations

from .. import cards
from ..effects import player_effects, total_value
from ..events import Ev

DRAW = 2
HAND_LIMIT = 7


def hand_limit(ctx) -> int:
    return HAND_LIMIT + total_value(player_effects(ctx.state, ctx.tables, ctx.player, "hand_size"))


def resolve(ctx) -> None:
    cards.expire_effects(ctx)
    cards.return_leaders(ctx)
    drawn = [c for c in (cards.draw_card(ctx, ctx.player) for _ in range(DRAW)) if c is not None]
    ctx.emit(Ev.DRAW, count=len(drawn), cards=drawn, private_to=ctx.player)
    hand = ctx.me.hand
    limit = hand_limit(ctx)
    if len(hand) <= limit:
        return
    out: list[str] = []
    for i, card in enumerate(ctx.my_orders.discard):
        if len(hand) - len(out) <= limit:
            break
        if card in hand and card not in out:
            out.append(card)
            ctx.order_done("discard", i, card=card)
        else:
            ctx.order_failed("discard", i, "not in your hand" if card not in hand else "listed twice", card=card)
    for card in ctx.standing(ctx.player).discard:
        if len(hand) - len(out) <= limit:
            break
        if card in hand and card not in out:
            out.append(card)
    for card in reversed(hand):  # most recently drawn first
        if len(hand) - len(out) <= limit:
            break
        if card not in out:
            out.append(card)
    for card in out:
        cards.discard_from_hand(ctx.state, ctx.player, card)
    ctx.emit(Ev.DISCARD, cards=out, hand_limit=limit)
