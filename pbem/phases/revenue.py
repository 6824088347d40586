"""Phase stub: filled in by its issue.  Does nothing yet."""
from __future__ import annotations


def resolve(ctx) -> None:
    return None
