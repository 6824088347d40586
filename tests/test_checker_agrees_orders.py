"""The checker agrees with the adjudicator on attack, recruit, diplomacy and card orders.

As tests/test_checker_agrees.py does for moves: on real mid-game boards (``agree_boards``), random orders —
valid ones and plausible mistakes (ids that are wrong or elsewhere, targets not adjacent or empty, cards not in
hand or of the wrong kind, too little gold, besieged or foreign cities, too many diplomacy targets) — are
checked (``pbem.checker``) for the first player in turn order and carried out by the adjudicator's phases for
that player, on a copy of the board:

- ``sea_battle`` / ``land_battle``: that phase by itself (as for moves, the automatic phases before it are no
  part of the comparison);
- ``recruit``: Revenue, Upkeep and Recruit (the gold recruits are paid with is the gold after revenue and
  upkeep, which the checker estimates);
- ``diplomacy`` and ``cards``: Diplomacy (where the own-turn cards are played) and the phases after it that
  play what ``cards`` leaves to them (movement cards, Treasure).

For every order: an error from the checker must mean ``order_failed``, and no finding at all must mean
``order_done``; a warning may go either way.  Excused, as the checker cannot know them: what a battle of an
earlier attack order in the same phase did to the board (dice), and a defender's hidden standing reaction
(Hesitation) cancelling the attack.
"""
from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agree_boards import BOARDS, board, findings, give, outcome, run_phases, severity
from pbem import yamlio
from pbem.cards import left_to_later_phase
from pbem.gamedata import load_map, tables
from pbem.model import GameState, Unit, UnitType
from pbem.visibility import sight

GM = load_map()
TB = tables()
ALL_CARDS = sorted(TB.cards)
# cards put in the player's hand for the attack tests: attackers' and defenders' battle cards, Treasure and
# Failure (triggered), a reaction and an own-turn card
ATTACK_HAND = ("surprise_attack", "sapping", "boarding_actions", "attack_beached_ships", "block_escape",
               "superior_numbers", "right_flank_drift", "strong_position", "treasure", "failure", "hesitation",
               "contributions")
# for the cards and diplomacy tests: cards of every target kind and timing
OWN_TURN_HAND = ("intrigue", "bribes", "threatened", "natural_allies", "revolt", "economic_blockade", "raids",
                 "storms", "short_supplies", "starvation", "plague", "desertions", "exiled", "election",
                 "assassination", "spy", "political_rivalry", "contributions", "coup", "internal_jealousies",
                 "grand_strategy", "truce", "forced_march", "treasure", "surprise_attack", "executions",
                 "hesitation", "failure")


def examples(n: int) -> settings:
    """Derandomized by the test-wide profile (tests/conftest.py: PBEM_HYPOTHESIS=random explores)."""
    return settings(max_examples=n, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def header(state: GameState, me: str) -> dict:
    return {"campaign": state.campaign, "turn": state.turn, "player": me, "secret": "x"}


def disagreement(state: GameState, doc: dict, phases: list[str], orders: list[tuple[str, int]],
                 excused=lambda section, i, got, reason, ctx: False) -> str | None:
    """None if the checker and the adjudicator agree on every order of ``orders`` ((section, index)), else what
    they said of the first one they disagree on."""
    found = findings(state, doc)
    ctx = run_phases(state, doc, phases)
    for section, i in orders:
        sev, said = severity(found, f"{section}[{i}]")
        # nothing said: not carried out (a movement card of ``cards`` not in hand and no move of its stack)
        got, reason = outcome(ctx, section, i) or ("failed", "(the adjudicator reports nothing of it)")
        if excused(section, i, got, reason, ctx):
            continue
        if sev == "error" and got == "done" or sev == "ok" and got == "failed":
            return (f"{yamlio.dump({k: v for k, v in doc.items() if k not in ('campaign', 'turn', 'secret')})}"
                    f"{section}[{i}]: checker {sev}: {said}\nadjudicator {got}: {reason}")
    return None


# -- attacks ------------------------------------------------------------------------------------------

def fights(state: GameState, u, land: bool) -> bool:
    if land:
        return u.type in (UnitType.ARMY, UnitType.ROWERS) and u.carried_by is None
    cargo = {c.type for c in state.cargo(u.id)}
    return u.carried_by is None and (u.type is UnitType.FLEET and UnitType.ROWERS in cargo
                                     or u.type is UnitType.TRANSPORT and UnitType.ARMY in cargo)


@lru_cache(maxsize=None)
def attack_board(k: int) -> tuple[GameState, str]:
    """Board ``k`` with the attack cards in hand, and a sea fight to be had: the player's manned Fleet next to
    another player's manned Fleet and Transport, at sea near the player's home (bot games seldom leave one)."""
    state, me = board(k, ATTACK_HAND)
    state = state.copy()
    enemy = next(p for p in state.active_players() if p != me)
    home = GM.cities[state.players[me].home].hex
    empty = [h for h in sorted(GM.terrain, key=lambda h: (GM.distance(home, h), h))
             if not GM.terrain[h].land and not state.units_at(h)]
    mine, theirs = next((a, b) for a in empty for b in GM.neighbours[a] if b in empty)
    for who, h, types in ((me, mine, ("fleet",)), (enemy, theirs, ("fleet", "transport"))):
        abbr = state.players[who].abbr
        for t in types:
            ship = state.add_unit(Unit(state.new_unit_id(abbr, UnitType(t)), UnitType(t), who, h))
            if t == "fleet":
                state.add_unit(Unit(state.new_unit_id(abbr, UnitType.ROWERS), UnitType.ROWERS, who, h,
                                    carried_by=ship.id))
    return state, me


@lru_cache(maxsize=None)
def targets(k: int, section: str) -> list[tuple[str, str]]:
    """(hex of the player's fighting units, a hex next to it holding enemies to fight, or a foreign city)."""
    state, me = attack_board(k)
    land = section == "land_battle"
    out = []
    for h in sorted({u.hex for u in state.units_of(me) if u.away_until is None and fights(state, u, land)}):
        for n in GM.neighbours[h]:
            city = GM.city_at.get(n)
            if any(u.owner not in (me, None) and (fights(state, u, True) if land else u.type.is_ship)
                   for u in state.units_at(n)) or land and city and state.cities[city.id].controller != me:
                out.append((h, n))
    return out


@st.composite
def attack_orders(draw):
    k = draw(st.integers(0, len(BOARDS) - 1))
    state, me = attack_board(k)
    section = draw(st.sampled_from(["land_battle", "sea_battle"]))
    land = section == "land_battle"
    mine = [u for u in state.units_of(me) if u.away_until is None]
    fighting = sorted({u.hex for u in mine if fights(state, u, land)})
    attacks = []
    battles = targets(k, section)  # (from, target) with enemies to fight there
    for _ in range(draw(st.integers(1, 2))):
        if battles and draw(st.integers(0, 2)):
            start, target = draw(st.sampled_from(battles))
        else:
            start = draw(st.sampled_from(fighting if fighting and draw(st.integers(0, 4)) else
                                         sorted({u.hex for u in mine})))
            near = GM.neighbours[start]
            kind = draw(st.sampled_from(["near"] * 3 + ["same", "far"]))
            target = {"near": lambda: draw(st.sampled_from(near)),
                      "same": lambda: start,
                      "far": lambda: draw(st.sampled_from(sorted(GM.terrain)))}[kind]()
        here = sorted(u.id for u in mine if u.hex == start)
        how = draw(st.sampled_from(["hex", "ids", "ids", "fighters", "fighters", "odd"]))
        if how == "hex":
            units = [start]
        elif how == "fighters" and any(fights(state, state.units[u], land) for u in here):
            units = [u for u in here if fights(state, state.units[u], land)]
        else:
            units = draw(st.lists(st.sampled_from(here), min_size=1, max_size=min(4, len(here)), unique=True))
        if how == "odd" or draw(st.integers(0, 5)) == 0:  # from another hex next to the target, or not one's own
            others = sorted(u.id for u in state.units.values() if u.id not in here and u.away_until is None
                            and (u.owner != me or target in GM.neighbours[u.hex])) + ["ZZZ-A9"]
            units.append(draw(st.sampled_from(others)))
        atk: dict = {"units": units, "target": target}
        if draw(st.integers(0, 2)) == 0:
            cards = []
            for c in draw(st.lists(st.sampled_from(ATTACK_HAND + ("night_raid", "outflank", "storms")),
                                   min_size=1, max_size=2)):
                use: dict = {"card": c}
                if c == "failure":
                    leaders = sorted(u.id for u in state.leaders() if u.owner != me) + ["ZZZ-L1"] + sorted(
                        u.name.lower() for u in state.leaders() if u.owner != me and u.name)  # R-SET-3
                    use["target"] = draw(st.sampled_from(leaders))
                if draw(st.booleans()):
                    use["if_needed"] = True
                cards.append(use if len(use) > 1 or draw(st.booleans()) else c)
            atk["cards"] = cards
        for flag in ("plunder", "destroy"):
            if draw(st.integers(0, 3)) == 0:
                atk[flag] = True
        attacks.append(atk)
    return k, section, {**header(state, me), section: attacks}


def cancelled(section, i, got, reason, ctx) -> bool:
    """A defender's standing Hesitation (their hand is hidden), or a battle of an earlier order in the phase."""
    earlier = any(r.get("event") == "order_done" and r.get("section") == section and r.get("index") < i
                  for r in ctx.log.records)
    return "the attack is cancelled" in reason or earlier


@examples(700)
@given(case=attack_orders())
def test_checker_and_adjudicator_agree_on_attacks(case):
    k, section, doc = case
    state, _ = attack_board(k)
    problem = disagreement(state, doc, [section], [(section, i) for i in range(len(doc[section]))], cancelled)
    assert problem is None, f"board {k}: {problem}"


# -- recruit ------------------------------------------------------------------------------------------

@st.composite
def recruit_orders(draw):
    k = draw(st.integers(0, len(BOARDS) - 1))
    gold = draw(st.sampled_from([0, 1, 2, 3, 5, 8, 12, 99]))
    state, me = with_gold(k, gold)
    mine = sorted(state.controlled_cities(me))
    entries = []
    for _ in range(draw(st.integers(1, 3))):
        city = draw(st.sampled_from(mine if draw(st.integers(0, 3)) else sorted(GM.cities)))
        e: dict = {"city": city}
        if draw(st.integers(0, 3)):
            e["unit"] = draw(st.sampled_from(["army", "rowers", "fleet", "transport"]))
        if "unit" not in e or draw(st.booleans()):
            e["baggage"] = draw(st.integers(0, 6))
        entries.append(e)
    return k, gold, {**header(state, me), "recruit": entries}


def with_gold(k: int, gold: int) -> tuple[GameState, str]:
    state, me = board(k)
    state = state.copy()
    state.players[me].gold = gold
    return state, me


@examples(400)
@given(case=recruit_orders())
def test_checker_and_adjudicator_agree_on_recruits(case):
    k, gold, doc = case
    state, _ = with_gold(k, gold)
    problem = disagreement(state, doc, ["revenue", "upkeep", "recruit"],
                           [("recruit", i) for i in range(len(doc["recruit"]))])
    assert problem is None, problem


# -- diplomacy and own-turn cards -------------------------------------------------------------------------

def card_target(draw, state: GameState, me: str, kind: str) -> str | None:
    """A target for a card of target kind ``kind``: mostly of that kind, sometimes any id, sometimes none."""
    r = draw(st.integers(0, 9))
    if r == 0:
        return None
    own = sorted(u.id for u in state.units_of(me) if u.away_until is None)
    leaders = sorted(u.id for u in state.leaders()) + sorted(u.name.lower() for u in state.leaders() if u.name)
    pool = {
        "player": sorted(state.players) + ["atlantis"],
        "leader": leaders + ["ZZZ-L1"], "own_leader": leaders,
        "hex": sorted({u.hex for u in state.units.values()}) + ["9999"],
        "stack": own + sorted({u.hex for u in state.units.values()}) + sorted(state.units)[:20],
    }.get(kind, sorted(GM.cities) + ["atlantis"])
    if r == 1:
        pool = sorted(state.players) + sorted(GM.cities)[:5] + own[:5] + ["0101"]
    return draw(st.sampled_from(pool))


@st.composite
def own_turn_orders(draw):
    k = draw(st.integers(0, len(BOARDS) - 1))
    hand = tuple(draw(st.lists(st.sampled_from(OWN_TURN_HAND), max_size=6, unique=True)))
    state, me = with_hand(k, hand)
    doc = header(state, me)
    cards = []
    for c in draw(st.lists(st.sampled_from(OWN_TURN_HAND + tuple(ALL_CARDS[:10])), max_size=3)):
        target = card_target(draw, state, me, TB.cards[c].target)
        cards.append({"card": c, "target": target} if target else c)
    if cards:
        doc["cards"] = cards
    mine = sorted(state.controlled_cities(me))
    targets = draw(st.lists(st.sampled_from(sorted(GM.cities) + mine + ["atlantis"]), max_size=4))
    if targets:
        doc["diplomacy"] = targets
    return k, hand, doc


def with_hand(k: int, hand: tuple[str, ...]) -> tuple[GameState, str]:
    state, me = board(k)
    state = state.copy()
    give(state, me, hand)
    return state, me


@examples(600)
@given(case=own_turn_orders())
def test_checker_and_adjudicator_agree_on_diplomacy_and_cards(case):
    k, hand, doc = case
    state, _ = with_hand(k, hand)
    orders = [("cards", i) for i in range(len(doc.get("cards", ())))] + \
             [("diplomacy", i) for i in range(len(doc.get("diplomacy", ())))]
    problem = disagreement(state, doc, ["diplomacy", "first_move", "sea_battle", "land_battle", "second_move"],
                           orders)
    assert problem is None, problem
