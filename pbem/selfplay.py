"""Computer-only games in memory: every seat a bot, no files.  Used by the soak tests and the benchmark.

Exactly the pipeline of a real campaign (bot reads its fogged view, writes orders, the adjudicator resolves
the turn with dice seeded as R-TURN-6 says), minus the campaign folder.
"""
from __future__ import annotations

import hashlib
from typing import Callable

from . import yamlio
from .adjudicator import AfterPhase, adjudicate
from .bot import write_orders
from .dice import Dice, setup_seed, state_sha256, turn_seed
from .gamedata import GameMap, Tables, load_map, tables
from .model import GameState
from .ordertypes import Orders
from .setup import new_campaign
from .visibility import view


def new_game(players: list[str], seed: int, game_map: GameMap | None = None, last_turn: int = 36) -> GameState:
    secret = hashlib.sha256(f"pbem/seed/{seed}".encode()).digest()
    game_map = game_map or load_map()
    return new_campaign("selfplay", game_map, tables(), players, Dice(setup_seed(secret)),
                        {"last_turn": last_turn})


def bot_turn_orders(state: GameState, game_map: GameMap, tabs: Tables) -> tuple[dict[str, Orders], list[str]]:
    orders, hashes = {}, []
    for pid in state.turn_order:
        if state.players[pid].eliminated_turn is not None:
            hashes.append("-")
            continue
        data = write_orders(view(state, game_map, pid), game_map, tabs, state.campaign, state.turn, "")
        text = yamlio.dump(data)
        hashes.append(hashlib.sha256(text.encode()).hexdigest())
        orders[pid] = Orders.from_dict(data)
    return orders, hashes


def play(state: GameState, game_map: GameMap, turns: int, seed: int = 0, after_phase: AfterPhase | None = None,
         on_turn: Callable[[GameState], None] | None = None) -> GameState:
    """Play ``turns`` game turns (or to the end of the game) in place; returns the state."""
    tabs = tables()
    secret = hashlib.sha256(f"pbem/seed/{seed}".encode()).digest()
    for _ in range(turns):
        if state.finished:
            break
        orders, hashes = bot_turn_orders(state, game_map, tabs)
        start = state_sha256(state.to_json())  # as a campaign made now seeds it: its start snapshot's SHA-256
        adjudicate(state, game_map, tabs, orders, Dice(turn_seed(secret, state.turn, hashes, start)), after_phase)
        if on_turn:
            on_turn(state)
    return state


def state_hash(state: GameState) -> str:
    return hashlib.sha256(state.to_json().encode()).hexdigest()
