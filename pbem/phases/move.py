"""First and Second Move (R-PH-MOVE, R-PH-SECOND).  Stub until the movement issue lands: does nothing yet."""
from __future__ import annotations


def resolve_first(ctx) -> None:
    return None


def resolve_second(ctx) -> None:
    return None
