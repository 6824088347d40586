"""Building blocks for scenario tests: a small state on the tiny map, scripted dice, one phase or a whole turn.

A scenario is: a small state, orders, fixed dice, and the asserted outcome (like the Diplomacy Adjudicator
Test Cases).  ``make_state`` gives the players, cities and cards; ``add`` puts units on the board;
``run_phase`` runs one phase for one player with scripted dice and checks the invariants afterwards.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

from pbem.adjudicator import TurnContext, adjudicate
from pbem.dice import ScriptedDice
from pbem.events import EventLog
from pbem.gamedata import GameMap, load_map, tables
from pbem.invariants import violations
from pbem.model import City, GameState, Player, Unit, UnitType
from pbem.ordertypes import Orders
from pbem.phases import PHASES

FIXTURES = Path(__file__).parent / "fixtures"
TINY = load_map(FIXTURES / "tiny.yaml")
TABLES = tables()


def make_state(players: Iterable[str] = ("athens", "sparta"), gold: int = 10, game_map=TINY,
               deal: int = 0) -> GameState:
    players = list(players)
    state = GameState(campaign="test", turn=1, turn_order=players, players={}, cities={}, units={},
                      deck=sorted(TABLES.cards))
    for cid, city in game_map.cities.items():
        state.cities[cid] = City(income=city.income or 3)
    for pid in players:
        city = game_map.cities[pid]
        state.players[pid] = Player(id=pid, home=pid, name=city.people or city.name, abbr=city.abbr, gold=gold)
        state.cities[pid] = City(controller=pid, income=7, home_of=pid)
        for _ in range(deal):
            state.players[pid].hand.append(state.deck.pop(0))
    return state


def add(state: GameState, owner: str | None, utype: str, hex_id: str, carried_by: str | None = None,
        **fields) -> Unit:
    t = UnitType(utype)
    prefix = state.players[owner].abbr if owner else "NEU"
    unit = Unit(state.new_unit_id(prefix, t), t, owner, hex_id, carried_by=carried_by, **fields)
    if t is UnitType.LEADER and unit.name is None:
        unit.name = f"Leader {unit.id}"
    return state.add_unit(unit)


def watch(state: GameState, player: str, city_id: str, game_map: GameMap = TINY) -> None:
    """Leaders of ``player`` on the land around a city until the city and every hex around it are in the player's
    sight: a card aimed at a besieged city needs it (docs/rules.md, Decision (fog, card targets))."""
    from pbem.visibility import sight
    around = game_map.around_city[city_id]
    for h in around[1:]:
        if set(around) <= sight(state, game_map, player):
            return
        if game_map.is_land(h) and game_map.passable(h) and h not in game_map.city_at and not state.units_at(h):
            add(state, player, "leader", h)
    assert set(around) <= sight(state, game_map, player), f"{city_id} cannot be watched whole"


def give(state: GameState, player: str, *cards: str) -> None:
    """Move cards from the deck into a player's hand."""
    for c in cards:
        state.deck.remove(c)
        state.players[player].hand.append(c)


def context(state: GameState, player: str, dice: Iterable[int] = (), orders: Orders | None = None,
            game_map=TINY) -> TurnContext:
    d = ScriptedDice(dice)
    log = EventLog(d, state.turn)
    log.player = player
    all_orders = {p: Orders.empty(state.campaign, state.turn, p) for p in state.turn_order}
    if orders is not None:
        all_orders[player] = orders
    return TurnContext(state, game_map, TABLES, d, log, all_orders, player=player)


def run_phase(name: str, state: GameState, player: str, dice: Iterable[int] = (), orders: Orders | None = None,
              game_map=TINY, check: bool = True) -> TurnContext:
    """Run one phase for one player with scripted dice; assert the invariants and that no die was left over."""
    phase = next(p for p in PHASES if p.name == name)
    ctx = context(state, player, dice, orders, game_map)
    ctx.phase = ctx.log.phase = name
    phase.resolve(ctx)
    ctx.log.flush_rolls()
    if check:
        assert_invariants(state, game_map)
        assert ctx.dice.remaining == 0, f"{ctx.dice.remaining} scripted dice were not used"
    return ctx


def orders(player: str, turn: int = 1, **sections) -> Orders:
    return Orders.from_dict({"campaign": "test", "turn": turn, "player": player, **sections})


def assert_invariants(state: GameState, game_map=TINY) -> None:
    bad = violations(state, game_map, TABLES)
    assert not bad, "invariants broken: " + "; ".join(bad)


def run_turn(state: GameState, orders_by_player: dict[str, Orders | None], dice, game_map=TINY):
    """A whole game turn with the invariants checked after every phase."""
    return adjudicate(state, game_map, TABLES, orders_by_player, dice,
                      after_phase=lambda ctx: assert_invariants(ctx.state, game_map))


def events(ctx_or_log, kind: str | None = None) -> list[dict]:
    log = getattr(ctx_or_log, "log", ctx_or_log)
    return [r for r in log.records if "event" in r and (kind is None or r["event"] == kind)]


def land_attacks(player: str, *attacks: dict) -> Orders:
    """Orders of ``player`` with these Land Battle attacks ({units, target, cards, plunder, destroy})."""
    return orders(player, land_battle=list(attacks))


def battle_event(ctx) -> dict:
    """The one BATTLE record of a scenario."""
    [b] = events(ctx, "battle")
    return b


def move_end(data: dict, uid: str) -> str | None:
    """Where unit ``uid`` ends the turn by the move orders of an order file's ``data`` (None: it does not move)."""
    end = None
    for section in ("first_move", "second_move"):
        for m in data.get(section, []):
            if uid in m["units"]:
                end = m["path"][-1]
    return end
