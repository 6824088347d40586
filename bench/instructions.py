#!/usr/bin/env python3
"""Instructions per adjudicated turn, counted by valgrind: a measure of the adjudicator's cost that the
machine's load does not move, for comparing two versions of the code.

    python bench/instructions.py                # prints: instructions per turn (36-turn, 12-player game)
    python bench/instructions.py --turns 12     # a shorter game

This machine's speed changes from hour to hour (the same code's 12-player turn measured 3.5 to 7.7 ms on one
day), so two versions timed an hour apart, or even back to back, can differ by more than a speed-up.  Counting
instructions needs valgrind (Debian: ``apt install valgrind``) and takes about a minute.  It runs this script
twice under ``valgrind --tool=cachegrind``: once to play a seeded computer-player game and copy each turn's
starting state (the preparation), once to do that and adjudicate every copied turn again; the difference,
divided by the turns, is the adjudication alone.  The count moves by about 1% from run to run (Python's
memory layout); differences smaller than that are not a result.  Garbage collection is off in the measured
part, so its timing does not add noise.
"""
from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PEOPLES = ["athens", "sparta", "thebes", "corinth", "troy", "crete", "macedonia", "ionia", "doria", "thrace",
           "archea", "amazonia"]


def workload(players: int, turns: int, seed: int):
    """Each turn's starting state (a copy) and orders, from a seeded computer-player game."""
    from pbem.adjudicator import adjudicate
    from pbem.dice import Dice
    from pbem.gamedata import load_map, tables
    from pbem.selfplay import bot_turn_orders, new_game
    game_map, tabs = load_map(), tables()
    state = new_game(PEOPLES[:players], seed, game_map, last_turn=turns)
    work = []
    for _ in range(turns):
        if state.finished:
            break
        orders, _ = bot_turn_orders(state, game_map, tabs)
        work.append((state.copy(), orders))
        adjudicate(state, game_map, tabs, orders, Dice(b"bench-%d" % state.turn))
    return game_map, tabs, work


def run(players: int, turns: int, seed: int, measure: bool) -> None:
    """The program valgrind runs: the preparation, and with ``measure`` every turn adjudicated again."""
    from pbem.adjudicator import adjudicate
    from pbem.dice import Dice
    game_map, tabs, work = workload(players, turns, seed)
    states = [(before.copy(), orders) for before, orders in work]
    print(f"turns={len(states)}")
    gc.collect()
    gc.disable()
    if measure:
        for state, orders in states:
            adjudicate(state, game_map, tabs, orders, Dice(b"bench-%d" % state.turn))


def count(args: argparse.Namespace, measure: bool) -> tuple[int, int]:
    """(instructions, turns) of one run under valgrind."""
    cmd = ["setarch", "-R"] if shutil.which("setarch") else []  # -R: the same addresses in each run
    cmd += ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
            sys.executable, __file__, "--inner", "--players", str(args.players), "--turns", str(args.turns),
            "--seed", str(args.seed)] + (["--measure"] if measure else [])
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # the same string hashes, so the same dict layouts, each run
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", r.stderr)
    turns = re.search(r"turns=(\d+)", r.stdout)
    if r.returncode != 0 or not refs or not turns:
        sys.exit(f"instructions: valgrind run failed:\n{r.stderr[-2000:]}")
    return int(refs.group(1).replace(",", "")), int(turns.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=12)
    ap.add_argument("--turns", type=int, default=36)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inner:
        run(args.players, args.turns, args.seed, args.measure)
        return
    if not shutil.which("valgrind"):
        sys.exit("instructions: valgrind is not installed (Debian: apt install valgrind)")
    prep, turns = count(args, measure=False)
    full, _ = count(args, measure=True)
    per_turn = (full - prep) / turns
    print(f"adjudication of a {args.players}-player game, {turns} turns (seed {args.seed}): "
          f"{per_turn / 1e6:.2f} million instructions a turn")


if __name__ == "__main__":
    main()
