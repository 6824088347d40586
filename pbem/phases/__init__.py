"""The nine phases of a player-turn, in rulebook order (R-TURN-3), and the end of the game turn.

Each phase is a module with ``resolve(ctx)`` and a docstring citing its rule ids.  Options wrap or swap a
phase here, never inside another phase.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from . import diplomacy, draw, endturn, land_battle, move, recruit, revenue, sea_battle, upkeep

if TYPE_CHECKING:
    from ..adjudicator import TurnContext


@dataclass(frozen=True)
class Phase:
    name: str
    title: str
    rules: tuple[str, ...]
    resolve: Callable[["TurnContext"], None]


PHASES: tuple[Phase, ...] = (
    Phase("draw", "Draw", ("R-PH-DRAW",), draw.resolve),
    Phase("revenue", "Revenue", ("R-PH-REV",), revenue.resolve),
    Phase("upkeep", "Upkeep", ("R-PH-UPK",), upkeep.resolve),
    Phase("recruit", "Recruit", ("R-PH-REC",), recruit.resolve),
    Phase("diplomacy", "Diplomacy", ("R-PH-DIP", "R-PH-DIP-REVOLT"), diplomacy.resolve),
    Phase("first_move", "First Move", ("R-PH-MOVE",), move.resolve_first),
    Phase("sea_battle", "Sea Battle", ("R-PH-SEA", "R-BAT-1", "R-BAT-3"), sea_battle.resolve),
    Phase("land_battle", "Land Battle", ("R-PH-LAND", "R-BAT-1", "R-BAT-3", "R-BAT-4"), land_battle.resolve),
    Phase("second_move", "Second Move", ("R-PH-MOVE", "R-PH-SECOND"), move.resolve_second),
)

PHASE_NAMES = tuple(p.name for p in PHASES)
end_of_turn = endturn.resolve
