"""Land Battle (R-PH-LAND, R-BAT-1..5): the player's Armies and Rowers attack an adjacent hex with enemy Armies
or Rowers or enemy ships beached or docked there, or an enemy or neutral city (garrison 1D6 + the city's defence
modifier; a neutral city also holds one Army).  A city left without enemy combat units is taken, and may be plundered and destroyed (R-BAT-4).
The engine is ``pbem.battle``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..battle import resolve_attack

if TYPE_CHECKING:
    from ..adjudicator import TurnContext


def resolve(ctx: "TurnContext") -> None:
    hand = list(ctx.me.hand)
    for atk in ctx.my_orders.land_battle:
        resolve_attack(ctx, "land_battle", atk, "land")
    report_capture_cards(ctx, hand)


def report_capture_cards(ctx: "TurnContext", hand_before: list[str]) -> None:
    """Cards of ``orders.cards`` played on capturing a city (Treasure; ``pbem.battle.take_city`` plays them at the
    first capture): each is reported done, or failed if no capture came (it stays in the hand, R-TURN-4)."""
    for i, use in enumerate(ctx.my_orders.cards):
        card = ctx.tables.cards.get(use.card)
        if card is None or card.timing.get("trigger") != "city_captured":
            continue
        if use.card not in hand_before:
            ctx.order_failed("cards", i, f"{card.name} cannot be played: it is not in your hand", card=use.card)
        elif use.card in ctx.me.hand:
            ctx.order_failed("cards", i, f"{card.name} is played when you capture a city; you captured none this "
                                         f"turn, so it stays in your hand", card=use.card)
        else:
            ctx.order_done("cards", i, card=use.card)
