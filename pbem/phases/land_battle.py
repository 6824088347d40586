"""Land Battle (R-PH-LAND, R-BAT-1..5): the player's Armies and Rowers attack an adjacent hex with enemy Armies
or Rowers, or an enemy or neutral city (garrison 1D6 + the city's defence modifier; a neutral city also holds
one Army).  A city left without enemy combat units is taken, and may be plundered and destroyed (R-BAT-4).
The engine is ``pbem.battle``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..battle import resolve_attack

if TYPE_CHECKING:
    from ..adjudicator import TurnContext


def resolve(ctx: "TurnContext") -> None:
    for atk in ctx.my_orders.land_battle:
        resolve_attack(ctx, "land_battle", atk, "land")
