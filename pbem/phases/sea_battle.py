"""Sea Battle (R-PH-SEA, R-BAT-1..5): the player's manned Fleets and Transports with Armies attack enemy ships
in an adjacent Water hex, or beached or docked in an adjacent coastal hex.  Beached ships get no terrain
modifier.  The engine is ``pbem.battle``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..battle import resolve_attack

if TYPE_CHECKING:
    from ..adjudicator import TurnContext


def resolve(ctx: "TurnContext") -> None:
    for atk in ctx.my_orders.sea_battle:
        resolve_attack(ctx, "sea_battle", atk, "sea")
