#!/usr/bin/env python3
"""The per-order yardstick of the turn-cycle issue, measured on this machine: the Python Diplomacy adjudicator.

    pip install diplomacy        # PyPI, into a virtual environment of its own (it pins old packages)
    python bench/compare_diplomacy.py

Plays 20 games of random legal orders (every orderable unit gets one) from Spring 1901 to the end of 1910 and times
``Game.process()`` of each movement phase.  Prints the median phase time, the median number of orders, and the
time per order over all movement phases (total time / total orders), the way bench/bench.py counts pbem's.
Uses only the standard library's clock.
"""
from __future__ import annotations

import random
import statistics
import sys
import time

try:
    from diplomacy import Game
except ImportError:
    sys.exit("compare_diplomacy: the PyPI package 'diplomacy' is not installed (pip install diplomacy)")


def main() -> None:
    rng = random.Random(1)
    times: list[float] = []
    counts: list[int] = []
    for _ in range(20):
        game = Game()
        while not game.is_game_done:
            phase = game.get_current_phase()
            if phase == "COMPLETED" or int(phase[1:5]) > 1910:
                break
            possible = game.get_all_possible_orders()
            n = 0
            for power in game.powers:
                orders = [rng.choice(possible[loc]) for loc in game.get_orderable_locations(power) if possible[loc]]
                game.set_orders(power, orders)
                n += len(orders)
            t0 = time.perf_counter()
            game.process()
            elapsed = time.perf_counter() - t0
            if phase.endswith("M"):
                times.append(elapsed)
                counts.append(n)
    print(f"diplomacy: {len(times)} movement phases; median {statistics.median(times) * 1000:.2f} ms a phase, "
          f"median {statistics.median(counts):.0f} orders; {sum(times) / sum(counts) * 1e6:.1f} us per order")


if __name__ == "__main__":
    main()
