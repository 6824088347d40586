#!/usr/bin/env python3
"""One SHA-256 over four seeded computer-player games: every log record of every turn and each final state.

    python bench/records_hash.py        # before a speed-up, and again after it: the two hashes must agree

A change meant only to make the adjudicator faster must not change one record (key, key order or value) nor
the state a game ends in; the computer players read the reports, so their later orders change too if a turn
did.  Run it on the code before the change and after it.  A rules change changes the hash, as it should.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.adjudicator import adjudicate  # noqa: E402
from pbem.dice import Dice  # noqa: E402
from pbem.gamedata import load_map, tables  # noqa: E402
from pbem.selfplay import bot_turn_orders, new_game  # noqa: E402

PEOPLES = ["athens", "sparta", "thebes", "corinth", "troy", "crete", "macedonia", "ionia", "doria", "thrace",
           "archea", "amazonia"]
GAMES = ((12, 3), (6, 7), (9, 21), (12, 99))  # (players, set-up seed)


def main() -> None:
    game_map, tabs = load_map(), tables()
    h = hashlib.sha256()
    for n, seed in GAMES:
        state = new_game(PEOPLES[:n], seed, game_map, last_turn=36)
        while not state.finished:
            orders, _ = bot_turn_orders(state, game_map, tabs)
            log = adjudicate(state, game_map, tabs, orders, Dice(b"g-%d" % state.turn))
            h.update(json.dumps(log.records, sort_keys=True, default=str).encode())
        h.update(json.dumps(state.to_dict(), sort_keys=True, default=str).encode())
    print(h.hexdigest())


if __name__ == "__main__":
    main()
