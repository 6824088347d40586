#!/usr/bin/env python3
"""Instructions per adjudicated turn, counted by valgrind: a measure of the adjudicator's cost that the
machine's load does not move, for comparing two versions of the code.

    python bench/instructions.py                # prints: instructions per turn (36-turn, 12-player game)
    python bench/instructions.py --runs 3       # three counts and their median

This machine's speed changes from hour to hour (the same code's 12-player turn measured 3.5 to 7.7 ms on one
day), so two versions timed an hour apart, or even back to back, can differ by more than a speed-up.  Counting
instructions needs valgrind (Debian: ``apt install valgrind``) and takes about a minute a run.

The script plays a seeded computer-player game (``bench/bench.py``'s) and saves each turn's starting state
and orders; then it runs itself twice under ``valgrind --tool=cachegrind``, both times loading the game data
and the saved turns and adjudicating the first turn once (so that what is done only once, imports inside
functions and caches, counts in neither), the second time also adjudicating every saved turn.  The
difference, divided by the turns, is the adjudication alone.  Garbage collection is off in the measured
part.  A count still moves from run to run (three runs of the same code: 29.94, 29.95 and 30.36 million a
turn; in a 2-turn game the noise swamps the count), so compare medians of three runs of the default game.
"""
from __future__ import annotations

import argparse
import gc
import os
import pickle
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def save(players: int, turns: int, seed: int, path: str) -> None:
    """Play the game and save each turn's starting state (JSON) and orders."""
    from bench import game_work  # bench/bench.py: the same seeded game as its whole-game figure
    _, _, work = game_work(players, turns, seed)
    with open(path, "wb") as f:
        pickle.dump([(before.to_json(), orders) for before, orders in work], f)


def run(path: str, measure: bool) -> None:
    """The program valgrind runs: the preparation, and with ``measure`` every saved turn adjudicated."""
    from pbem.adjudicator import adjudicate
    from pbem.dice import Dice
    from pbem.gamedata import load_map, tables
    from pbem.model import GameState
    game_map, tabs = load_map(), tables()
    with open(path, "rb") as f:
        states = [(GameState.from_json(j), orders) for j, orders in pickle.load(f)]
    print(f"turns={len(states)}")
    # warm-up, in both runs: what the first turn does once (imports inside functions, caches) is not counted
    first, orders = states[0]
    adjudicate(GameState.from_json(first.to_json()), game_map, tabs, orders, Dice(b"warm-up"))
    gc.collect()
    gc.disable()
    if measure:
        for state, orders in states:
            adjudicate(state, game_map, tabs, orders, Dice(b"bench-%d" % state.turn))


def count(path: str, measure: bool) -> tuple[int, int]:
    """(instructions, turns) of one run under valgrind."""
    cmd = ["setarch", "-R"] if shutil.which("setarch") else []  # -R: the same addresses in each run
    cmd += ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
            sys.executable, __file__, "--load", path] + (["--measure"] if measure else [])
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
    ap.add_argument("--runs", type=int, default=1, help="measure this many times and print the median too")
    ap.add_argument("--save", help=argparse.SUPPRESS)
    ap.add_argument("--load", help=argparse.SUPPRESS)
    ap.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.save:
        save(args.players, args.turns, args.seed, args.save)
        return
    if args.load:
        run(args.load, args.measure)
        return
    if not shutil.which("valgrind"):
        sys.exit("instructions: valgrind is not installed (Debian: apt install valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "turns.pickle")
        subprocess.run([sys.executable, __file__, "--save", path, "--players", str(args.players),
                        "--turns", str(args.turns), "--seed", str(args.seed)], check=True)
        found = []
        for _ in range(max(1, args.runs)):
            prep, turns = count(path, measure=False)
            full, _ = count(path, measure=True)
            found.append((full - prep) / turns)
            print(f"adjudication of a {args.players}-player game, {turns} turns (seed {args.seed}): "
                  f"{found[-1] / 1e6:.2f} million instructions a turn", flush=True)
    if len(found) > 1:
        print(f"median of {len(found)} runs: {statistics.median(found) / 1e6:.2f} million instructions a turn")


if __name__ == "__main__":
    main()
