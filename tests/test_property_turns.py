"""Property test: random legal-ish orders for many turns on the tiny map keep every invariant.

Hypothesis draws a seed; from it, each turn every player gets random move orders (random walks from their
stacks, sometimes loading or unloading, sometimes ``partial``, sometimes with a movement card) and random
attacks (their Armies and Fleets against neighbouring hexes, with cards from the hand).  ``run_turn`` checks
the invariants after every phase (``pbem.invariants``); ``check_board`` adds the movement and battle ones:
no hex holds combat units of two sides, cargo is within its carrier's capacity, units stand where their type
may stand, and no city changes hands except in a land battle or by diplomacy (revolts and control).
"""
from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.adjudicator import adjudicate
from pbem.board import is_combat_unit
from pbem.dice import Dice
from pbem.model import UnitType
from pbem.movement import ARMY_BAGGAGE, FLEET_BAGGAGE, TRANSPORT_BAGGAGE

from scenario import TABLES, TINY, add, assert_invariants, make_state, orders

A, R, F, T, B, L = (UnitType.ARMY, UnitType.ROWERS, UnitType.FLEET, UnitType.TRANSPORT, UnitType.BAGGAGE,
                    UnitType.LEADER)
MOVE_CARDS = {"forced_march", "marathon", "relieving_force"}


def start_state():
    s = make_state(("athens", "sparta", "troy"), deal=6)
    s.last_turn = 10
    for pid, hex_id in (("athens", "0302"), ("troy", "0903")):
        add(s, pid, "army", hex_id)
        add(s, pid, "army", hex_id)
        for _ in range(2):
            f = add(s, pid, "fleet", hex_id)
            add(s, pid, "rowers", hex_id, carried_by=f.id)
        add(s, pid, "leader", hex_id, skills=["heroism", "logistics"])
    add(s, "troy", "transport", "0803")
    add(s, "troy", "rowers", "0803")
    add(s, "troy", "baggage", "0803")
    for _ in range(3):
        add(s, "sparta", "army", "0505")
    add(s, "sparta", "leader", "0505", skills=["general"])
    add(s, "sparta", "army", "0403")
    add(s, "sparta", "baggage", "0403")
    f = add(s, "sparta", "fleet", "0103")
    add(s, "sparta", "rowers", "0103", carried_by=f.id)
    add(s, "athens", "transport", "0202")
    add(s, "athens", "army", "0202")
    add(s, "athens", "baggage", "0302")
    s.players["athens"].traits = ["cavalry", "sea_worthy"]
    s.players["sparta"].traits = ["long_walls", "athletic"]
    s.players["troy"].traits = ["seamanship", "fortifications"]
    return s


def random_walk(rng, start, steps, goal, sea):
    """Mostly towards ``goal`` (an enemy stack or city) over terrain the stack may enter, sometimes anywhere:
    legal-ish, so that stacks meet and fight."""
    path, here = [], start
    for _ in range(steps):
        options = list(TINY.neighbours[here])
        fitting = [n for n in options if (TINY.ship_may_enter(n) if sea else TINY.is_land(n))]
        if fitting and rng.random() < 0.9:
            options = fitting
        if rng.random() < 0.7:
            here = min(options, key=lambda n: (TINY.distance(n, goal), rng.random()))
        else:
            here = rng.choice(options)
        path.append(here)
    return path


def sea_fighter(s, u):
    aboard = [c.type for c in s.units_at(u.hex) if c.carried_by == u.id]
    return (u.type is F and R in aboard) or (u.type is T and A in aboard)


def targets_near(s, pid, h, sea):
    """Neighbours of ``h`` worth attacking: enemy ships (sea), enemy units or a city not the player's (land)."""
    out = []
    for n in TINY.neighbours[h]:
        enemies = [u for u in s.units_at(n) if u.owner != pid]
        city = TINY.city_at.get(n)
        if sea and any(u.type.is_ship for u in enemies):
            out.append(n)
        if not sea and (any(u.type in (A, R) for u in enemies) or (city and s.cities[city.id].controller != pid)):
            out.append(n)
    return out


def random_orders(rng, s, pid, turn):
    mine = [u for u in s.units.values() if u.owner == pid and u.away_until is None]
    stacks = sorted({u.hex for u in mine if u.carried_by is None})
    hand = list(s.players[pid].hand)
    goals = sorted({u.hex for u in s.units.values() if u.owner != pid}
                   | {c.hex for cid, c in TINY.cities.items() if s.cities[cid].controller != pid})
    sections: dict = {"first_move": [], "second_move": [], "sea_battle": [], "land_battle": []}
    for section in ("first_move", "second_move"):
        for h in rng.sample(stacks, k=min(len(stacks), rng.randint(0, 3))):
            here = [u for u in s.units_at(h) if u.owner == pid]
            top = [u for u in here if u.carried_by is None]
            pick = rng.sample(top, k=rng.randint(1, len(top)))
            ships = [u for u in pick if u.type.is_ship]
            mv = {"units": [h] if rng.random() < 0.2 else [u.id for u in pick],
                  "path": random_walk(rng, h, rng.randint(1, 4), rng.choice(goals) if goals else h, bool(ships))}
            if rng.random() < 0.3:
                mv["partial"] = True
            if ships and rng.random() < 0.6:
                free = [u for u in here if u.carried_by is None and not u.type.is_ship]
                load = []
                if any(u.type is T for u in ships):
                    load += [u.id for u in free if u.type is A][:1]
                load += [u.id for u in free if u.type in (R, B, L)][:rng.randint(0, 2)]
                if load:
                    mv["load"] = load
            aboard = [u for u in here if u.carried_by is not None and s.units[u.carried_by] in pick]
            if aboard and rng.random() < 0.4:
                mv["unload"] = [rng.choice(aboard).id]
            cards = [c for c in hand if c in MOVE_CARDS]
            if cards and rng.random() < 0.3:
                mv["cards"] = [cards[0]]
                hand.remove(cards[0])
            sections[section].append(mv)
            if section == "first_move":  # attack from where the move should end
                end = mv["path"][-1]
                near = targets_near(s, pid, end, bool(ships))
                if near and rng.random() < 0.8:
                    sections["sea_battle" if ships else "land_battle"].append(
                        {"units": [u.id for u in pick if (u.type.is_ship if ships else u.type in (A, R))],
                         "target": rng.choice(near), "plunder": rng.random() < 0.5})
    battle_cards = [c for c in hand if any(e["kind"] in ("battle_total", "roll_modifier")
                                           for e in TABLES.cards[c].effects)]
    for section, sea in (("sea_battle", True), ("land_battle", False)):
        for h in stacks:
            fighters = [u for u in s.units_at(h) if u.owner == pid and u.carried_by is None
                        and (sea_fighter(s, u) if sea else u.type in (A, R))]
            if not fighters or rng.random() < 0.2:
                continue
            near = targets_near(s, pid, h, sea)
            target = rng.choice(near) if near and rng.random() < 0.9 else rng.choice(TINY.neighbours[h])
            atk = {"units": [u.id for u in fighters], "target": target}
            if battle_cards and rng.random() < 0.4:
                card = battle_cards.pop(0)
                atk["cards"] = [{"card": card, "if_needed": rng.random() < 0.5}]
            if not sea and rng.random() < 0.5:
                atk["plunder"] = True
                atk["destroy"] = rng.random() < 0.3
            sections[section].append(atk)
    minors = [cid for cid, c in TINY.cities.items() if not c.is_city_state]
    if rng.random() < 0.7:  # diplomacy rolls make enemy cities revolt: revolt_battle in the real pipeline
        sections["diplomacy"] = rng.sample(minors, k=rng.randint(1, len(minors)))
    standing = {"captured_leaders": rng.choice(["ransom", "execute"])}
    if battle_cards:
        standing["defence_cards"] = [{"card": c, "if_needed": rng.random() < 0.5} for c in battle_cards[:2]]
    if "hesitation" in hand and rng.random() < 0.5:
        standing["reactions"] = ["hesitation"]
    return orders(pid, turn=turn, standing=standing, **{k: v for k, v in sections.items() if v})


def check_board(s) -> None:
    sides: dict[str, set] = {}
    for u in s.units.values():
        t = TINY.terrain[u.hex]
        if u.carried_by is None:
            if u.type.is_ship:
                assert TINY.ship_may_enter(u.hex), f"{u.id} is a ship on {u.hex} ({t.name})"
            else:
                assert TINY.is_land(u.hex) and TINY.passable(u.hex), f"{u.id} stands on {u.hex} ({t.name})"
        if is_combat_unit(s, u):
            sides.setdefault(u.hex, set()).add(u.owner)
    for h, owners in sides.items():
        assert len(owners) == 1, f"combat units of {sorted(map(str, owners))} share {h}"
    loads: dict[str, Counter] = {}
    for u in s.units.values():
        if u.carried_by:
            loads.setdefault(u.carried_by, Counter())[u.type] += 1
    for cid, load in loads.items():
        c = s.units[cid]
        if c.type is A:
            assert set(load) <= {B} and load[B] <= ARMY_BAGGAGE, f"{cid} carries {dict(load)}"
        elif c.type is F:
            assert set(load) <= {R, B, L} and load[R] <= 1 and load[B] <= FLEET_BAGGAGE, f"{cid} carries {dict(load)}"
        elif c.type is T:
            assert set(load) <= {A, R, B, L} and load[A] + load[R] <= 1, f"{cid} carries {dict(load)}"
            assert load[B] <= TRANSPORT_BAGGAGE and not (load[B] and load[A] + load[R]), f"{cid} carries {dict(load)}"
        else:
            raise AssertionError(f"{cid} ({c.type.value}) carries {dict(load)}")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2 ** 32 - 1))
def test_R_PH_MOVE_R_BAT_random_turns_keep_invariants(seed):
    rng = random.Random(seed)
    s = start_state()
    controllers = {c: city.controller for c, city in s.cities.items()}

    def after(ctx):
        assert_invariants(ctx.state)
        check_board(ctx.state)
        now = {c: city.controller for c, city in ctx.state.cities.items()}
        if ctx.phase not in ("land_battle", "diplomacy"):
            assert now == controllers, f"a city changed hands in {ctx.phase}"
        controllers.update(now)

    while not s.finished:
        turn_orders = {pid: random_orders(rng, s, pid, s.turn) for pid in s.turn_order}
        dice = Dice(seed.to_bytes(8, "big") + s.turn.to_bytes(2, "big"))
        adjudicate(s, TINY, TABLES, turn_orders, dice, after_phase=after)
    assert s.winner in s.players and s.standings
