"""Campaign set-up (R-SET-1..6, R-TURN-2): home cities, starting forces, leaders, traits, deck, turn order.

Pure: gets the map, the tables, the chosen players and a ``Dice``; returns a new ``GameState``.
"""
from __future__ import annotations

from typing import Any

from .dice import Dice
from .errors import UsageError
from .gamedata import GameMap, Tables
from .model import City, GameState, Player, Unit, UnitType

MIN_PLAYERS, MAX_PLAYERS = 2, 12
START_GOLD = 10
HAND_SIZE = 5
HOME_INCOME = 7
HOME_TRAITS = 6
START_LEADERS = 3


def check_players(game_map: GameMap, names: list[str]) -> list[str]:
    """R-SET-1: 2..12 distinct city states, no two adjacent.  Returns their city ids."""
    names = [n.strip() for n in names if n.strip()]
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise UsageError(f"--players: {len(names)} given; a game has {MIN_PLAYERS} to {MAX_PLAYERS} players")
    states = {c.id: c for c in game_map.city_states()}
    ids: list[str] = []
    for name in names:
        city = game_map.find_city(name)
        if city is None or not city.is_city_state:
            from difflib import get_close_matches
            guess = get_close_matches(name.lower(), list(states), n=1)
            hint = f" (did you mean {guess[0]}?)" if guess else f" (city states: {', '.join(states)})"
            what = "is a minor city, not a city state" if city else "is not a city state of this map"
            raise UsageError(f"--players: {name!r} {what}{hint}")
        if city.id in ids:
            raise UsageError(f"--players: {city.name} is named twice")
        ids.append(city.id)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            if game_map.adjacent(game_map.cities[a].hex, game_map.cities[b].hex):
                raise UsageError(f"--players: {game_map.cities[a].name} and {game_map.cities[b].name} are adjacent; "
                                 f"home cities may not be adjacent (R-SET-1)")
    return ids


def roll_turn_order(players: list[str], dice: Dice) -> tuple[list[str], dict[str, int]]:
    """R-TURN-2: each rolls 1D10, highest first; ties re-rolled among the tied players."""
    first_rolls: dict[str, int] = {}

    def order(group: list[str], depth: int) -> list[str]:
        rolls = {p: dice.d10("turn order", player=p, round=depth) for p in group}
        for p, r in rolls.items():
            first_rolls.setdefault(p, r)
        out: list[str] = []
        for value in sorted(set(rolls.values()), reverse=True):
            tied = [p for p in group if rolls[p] == value]
            out += tied if len(tied) == 1 else order(tied, depth + 1)
        return out

    return order(list(players), 1), first_rolls


def roll_skills(tables: Tables, dice: Dice, leader: str) -> list[str]:
    """R-SET-3: 1D6 for how many skills (1-3: 1, 4-5: 2, 6: 3), 1D100 each, duplicates re-rolled."""
    n = dice.d6("leader roll: number of skills", leader=leader)
    count = 1 if n <= 3 else 2 if n <= 5 else 3
    skills: list[str] = []
    while len(skills) < count:
        skill = tables.skill_for_roll(dice.d100("leader skill", leader=leader)).id
        if skill not in skills:
            skills.append(skill)
    return skills


def new_leader(state: GameState, player: Player, hex_id: str, tables: Tables, dice: Dice) -> Unit:
    """A new leader with a unique id, an unused name and rolled skills, placed at ``hex_id``."""
    uid = state.new_unit_id(player.abbr, UnitType.LEADER)
    used = {u.name for u in state.units.values() if u.type is UnitType.LEADER}
    free = [n for n in tables.leader_names if n not in used]
    name = dice.choice(free, "leader name") if free else f"Leader {uid}"
    skills = roll_skills(tables, dice, uid)
    return state.add_unit(Unit(uid, UnitType.LEADER, player.id, hex_id, name=name, skills=skills))


def roll_trait(tables: Tables, dice: Dice, have: list[str], purpose: str) -> str:
    """R-SET-4: D66, re-roll 64 (no entry) and any trait already held."""
    while True:
        trait = tables.trait_for_roll(dice.d66(purpose))
        if trait is not None and trait.id not in have:
            return trait.id


def new_campaign(name: str, game_map: GameMap, tables: Tables, players: list[str], dice: Dice,
                 options: dict[str, Any]) -> GameState:
    ids = check_players(game_map, players)
    order, first_rolls = roll_turn_order(ids, dice)
    state = GameState(campaign=name, turn=1, turn_order=order, players={}, cities={}, units={}, deck=[],
                      options=dict(options), last_turn=int(options.get("last_turn", 36)))
    for cid, city in game_map.cities.items():
        state.cities[cid] = City()
    for pid in order:
        city = game_map.cities[pid]
        player = Player(id=pid, home=pid, name=city.people or city.name, abbr=city.abbr or pid[:3].upper(),
                        gold=START_GOLD, turn_roll=first_rolls[pid])
        state.players[pid] = player
        state.cities[pid] = City(controller=pid, income=HOME_INCOME, home_of=pid)
    for pid in order:  # R-SET-2: starting forces, leaders and traits, in turn order
        player = state.players[pid]
        home = game_map.cities[pid].hex
        if game_map.landlocked(pid):
            for _ in range(4):
                state.add_unit(Unit(state.new_unit_id(player.abbr, UnitType.ARMY), UnitType.ARMY, pid, home))
        else:
            for _ in range(2):
                state.add_unit(Unit(state.new_unit_id(player.abbr, UnitType.ARMY), UnitType.ARMY, pid, home))
            for _ in range(2):
                fleet = state.add_unit(Unit(state.new_unit_id(player.abbr, UnitType.FLEET), UnitType.FLEET, pid,
                                            home))
                state.add_unit(Unit(state.new_unit_id(player.abbr, UnitType.ROWERS), UnitType.ROWERS, pid, home,
                                    carried_by=fleet.id))
        for _ in range(START_LEADERS):
            new_leader(state, player, home, tables, dice)
        for _ in range(HOME_TRAITS):
            player.traits.append(roll_trait(tables, dice, player.traits, f"city trait of {pid}"))
    for cid, city in game_map.cities.items():  # R-SET-4, R-SET-5: minor cities
        if city.is_city_state and cid in state.players:
            continue
        income = city.income if city.income is not None else dice.d6("minor city income", city=cid)
        state.cities[cid] = City(income=income, trait=roll_trait(tables, dice, [], f"city trait of {cid}"))
    deck = list(tables.cards)  # R-SET-6
    dice.shuffle(deck, "shuffle the deck")
    state.deck = deck
    for pid in order:
        for _ in range(HAND_SIZE):
            state.players[pid].hand.append(state.deck.pop(0))
    return state
