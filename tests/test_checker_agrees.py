"""The checker agrees with the adjudicator on move orders.

On real mid-game states (bot games played for some turns) random single move orders — stacks named by ids or by
their hex, paths of 1-4 hexes (adjacent or not, any terrain, through cities and enemies), ``partial``, ``load``,
``unload``, movement cards — are checked (``pbem.checker``) and carried out (``pbem.adjudicator``).  The
player is the first in turn order, so nothing happens before their moves that the checker could not foresee
(the move phase is run by itself, as ``adjudicate`` runs it: the automatic phases before it, an upkeep roll
disbanding a unit for instance, are no part of the comparison).  An error from the checker must mean
``order_failed``, and no finding at all must mean the order is carried out, unless the adjudicator refused for
enemies in a hex out of the player's sight (the checker uses only what the player may see); a warning may go
either way (a card not in hand yet, partial: true stopping short).
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agree_boards import BOARDS, findings, outcome, run_phases, severity
from agree_boards import board as agree_board
from pbem import yamlio
from pbem.gamedata import load_map
from pbem.model import GameState
from pbem.visibility import sight

MOVE_CARDS = ("forced_march", "marathon", "relieving_force")


def board(k: int, cards: bool) -> tuple[GameState, str]:
    """Board ``k`` and its first player (with plenty of gold; with the movement cards in hand if ``cards``)."""
    return agree_board(k, MOVE_CARDS if cards else ())


@st.composite
def move_orders(draw):
    k = draw(st.integers(0, len(BOARDS) - 1))
    cards = draw(st.booleans())
    state, me = board(k, cards)
    gm = load_map()
    mine = [u for u in state.units_of(me) if u.away_until is None]
    hexes = sorted({u.hex for u in mine})
    ports = sorted({u.hex for u in mine if u.type.is_ship})
    start = draw(st.sampled_from(ports if ports and draw(st.booleans()) else hexes))
    here = [u.id for u in mine if u.hex == start]
    how = draw(st.sampled_from(["hex", "ids", "ids", "ids", "odd"]))
    if how == "hex":
        units = [start]
    else:
        units = draw(st.lists(st.sampled_from(here), min_size=1, max_size=len(here), unique=True))
        if how == "odd":  # a unit from elsewhere, an enemy's, a destroyed one
            others = sorted(u.id for u in state.units.values() if u.id not in here) + ["ZZZ-A9"]
            units.append(draw(st.sampled_from(others)))
    path, prev = [], start
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["next"] * 8 + ["same", "far"]))
        if kind == "next":
            h = draw(st.sampled_from(gm.neighbours[prev]))
        elif kind == "same":
            h = prev
        else:
            h = draw(st.sampled_from(sorted(gm.terrain)))
        path.append(h)
        prev = h
    mv: dict = {"units": units, "path": path}
    rest = [u for u in here if u not in units]
    if rest and draw(st.integers(0, 3)) == 0:
        mv["load"] = draw(st.lists(st.sampled_from(rest), min_size=1, max_size=3, unique=True))
    if draw(st.integers(0, 3)) == 0 and set(here) | set(mv.get("load", ())):
        carried = sorted({u for u in here if state.units[u].carried_by} | set(mv.get("load", ()))
                         | {u for u in units if not u.isdigit()} or set(here))
        mv["unload"] = draw(st.lists(st.sampled_from(carried), min_size=1, max_size=2, unique=True))
    if draw(st.booleans()):
        mv["partial"] = True
    if cards and draw(st.integers(0, 2)) == 0:
        mv["cards"] = draw(st.lists(st.sampled_from(MOVE_CARDS), min_size=1, max_size=2, unique=True))
    section = draw(st.sampled_from(["first_move", "second_move"]))
    doc = {"campaign": state.campaign, "turn": state.turn, "player": me, "secret": "x", section: [mv]}
    return k, cards, section, doc


def checker_verdict(state: GameState, doc: dict, section: str) -> tuple[str, list[str]]:
    """("error" | "warning" | "ok", the findings on the order)."""
    return severity(findings(state, doc), f"{section}[0]")


def adjudicator_verdict(state: GameState, doc: dict, section: str) -> tuple[str, str]:
    """("done" | "failed", the reason): the player's move phase, as ``adjudicate`` runs it, on a copy."""
    got = outcome(run_phases(state, doc, [section]), section, 0)
    if got is None:
        raise AssertionError("the move left no order_done or order_failed")
    return got


def fogged(state: GameState, me: str, reason: str) -> bool:
    """The adjudicator refused for a hex out of the player's sight: the checker may not know (by design)."""
    seen = sight(state, load_map(), me)
    return any(w.isdigit() and len(w) == 4 and w not in seen and "enemy" in reason
               for w in reason.replace(",", " ").split())


def compare(k: int, cards: bool, section: str, doc: dict) -> str | None:
    """None if the two agree, else a description of the disagreement."""
    state, me = board(k, cards)
    sev, said = checker_verdict(state, doc, section)
    got, reason = adjudicator_verdict(state, doc, section)
    if sev == "error" and got == "done" or sev == "ok" and got == "failed" and not fogged(state, me, reason):
        return f"board {k} cards={cards}: {yamlio.dump({section: doc[section]})}checker {sev}: {said}\n" \
               f"adjudicator {got}: {reason}"
    return None


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=move_orders())
def test_checker_and_adjudicator_agree_on_single_moves(case):
    k, cards, section, doc = case
    problem = compare(k, cards, section, doc)
    assert problem is None, problem


@pytest.mark.parametrize("k", range(len(BOARDS)))
def test_the_boards_are_mid_game(k):
    state, me = board(k, False)
    assert 5 <= state.turn and not state.finished
    assert me == state.active_players()[0] and state.units_of(me)
