#!/usr/bin/env python3
"""pbem benchmark: medians of repeated runs, for 2, 6 and 12 players and for maps scaled 4x and 16x.

    python bench/bench.py              # everything (a few minutes)
    python bench/bench.py --quick      # fewer repeats, no 16x

Figures (medians, milliseconds):
  check     checking every player's order file of one turn against the campaign (pbem check's work)
  adjudicate  resolving one whole game turn with the state in memory (file I/O apart), and per order
  render    writing every player's reports of one turn (HTML, text, SVG, PNG; --pdf adds PDFs)
  game      adjudication through a whole seeded bot game, turn by turn: per turn, per order, per log record,
            and the part of it that making the log records alone costs (no rule run), and the same turns
            played with no order file at all (every player NMR): the work no order asks for
  demo      a whole bot campaign in memory (no reports), per game turn

Targets (issue: turn cycle and benchmark): 12-player turn adjudicated in <= 10 ms; 12 order files checked in
<= 100 ms; all 12 PNG maps in <= 1.5 s on one core.  Uses only the standard library's clock.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem import yamlio  # noqa: E402
from pbem.adjudicator import adjudicate  # noqa: E402
from pbem.dice import Dice  # noqa: E402
from pbem.gamedata import build_map, load_map, tables  # noqa: E402
from pbem.model import Unit, UnitType  # noqa: E402
from pbem.selfplay import bot_turn_orders, new_game, play  # noqa: E402

ALL = ["athens", "sparta", "thebes", "corinth", "troy", "crete", "macedonia", "ionia", "doria", "thrace",
       "archea", "amazonia"]


def median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def scaled_map(kx: int, ky: int):
    """The Aegean tiled kx by ky: every copy's city states become minor cities (the originals stay)."""
    src = yamlio.load_data(ROOT / "pbem/data/maps/aegean.yaml")
    rows = src["terrain"].rstrip("\n").split("\n")
    w, h = src["width"], src["height"]
    tiled = []
    for ty in range(ky):
        for line in rows:
            tiled.append(line * kx)
    digits = 2 if max(w * kx, h * ky) <= 99 else 3
    cities = []
    for ty in range(ky):
        for tx in range(kx):
            n = ty * kx + tx
            for c in src["cities"]:
                col, row = int(c["hex"][:2]), int(c["hex"][2:])
                entry = {"id": c["id"] if n == 0 else f"{c['id']}_{n}",
                         "name": c["name"] if n == 0 else f"{c['name']} {n}",
                         "hex": f"{col + tx * w:0{digits}d}{row + ty * h:0{digits}d}",
                         "kind": c["kind"] if n == 0 else "minor"}
                if n == 0 and "abbr" in c:
                    entry.update(abbr=c["abbr"], people=c["people"])
                cities.append(entry)
    data = {"name": f"Aegean x{kx * ky}", "width": w * kx, "height": h * ky, "terrain": "\n".join(tiled) + "\n",
            "cities": cities}
    return build_map(data, f"aegean-x{kx * ky}")


def scaled_game(players: list[str], game_map, copies: int, seed: int):
    """A game where each player also holds their home city's copies, with the same starting forces."""
    state = new_game(players, seed, game_map)
    for pid in players:
        p = state.players[pid]
        for n in range(1, copies):
            cid = f"{pid}_{n}"
            state.cities[cid].controller = pid
            h = game_map.cities[cid].hex
            for t in (UnitType.ARMY, UnitType.ARMY, UnitType.FLEET):
                u = state.add_unit(Unit(state.new_unit_id(p.abbr, t), t, pid, h))
                if t is UnitType.FLEET and game_map.is_coastal_city(cid):
                    state.add_unit(Unit(state.new_unit_id(p.abbr, UnitType.ROWERS), UnitType.ROWERS, pid, h,
                                        carried_by=u.id))
                elif t is UnitType.FLEET:
                    state.remove_unit(u.id)
    return state


def bench_adjudicate(players: list[str], game_map, copies: int, repeats: int) -> tuple[float, float, int]:
    state = scaled_game(players, game_map, copies, seed=7)
    play(state, game_map, 3, seed=7)  # a few turns in: armies on the march
    tabs = tables()
    orders, _ = bot_turn_orders(state, game_map, tabs)
    n_orders = sum(len(o.recruit) + len(o.diplomacy) + len(o.cards) + len(o.first_move) + len(o.sea_battle)
                   + len(o.land_battle) + len(o.second_move) for o in orders.values())
    copies_ = [state.copy() for _ in range(repeats)]
    it = iter(copies_)
    ms = median_ms(lambda: adjudicate(next(it), game_map, tabs, orders, Dice(b"bench")), repeats)
    return ms, ms / max(n_orders, 1), n_orders


def bench_check(n_players: int, repeats: int) -> float:
    from pbem.bot import write_orders
    from pbem.campaign import create
    from pbem.checker import check_text
    from pbem.visibility import view
    with tempfile.TemporaryDirectory() as tmp:
        camp = create(Path(tmp) / "c", ALL[:n_players], seed="7", name="bench").campaign
        state = camp.load_state()
        secrets = camp.player_secrets()
        texts = [(p, yamlio.dump(write_orders(view(state, camp.game_map, p), camp.game_map, tables(), "bench",
                                              state.turn, secrets[p]))) for p in state.turn_order]

        def check_all():
            for p, text in texts:
                check_text(text, f"{p}.yaml", camp)
        check_all()
        return median_ms(check_all, repeats)


def bench_render(n_players: int, repeats: int, pdf: bool) -> float | None:
    try:
        from pbem.report import write_reports
    except ImportError:
        return None
    from pbem.campaign import create
    from pbem.cycle import run_turn, set_seat
    from datetime import datetime, timezone
    with tempfile.TemporaryDirectory() as tmp:
        camp = create(Path(tmp) / "c", ALL[:n_players], seed="7", name="bench").campaign
        for p in camp.load_state().turn_order:
            set_seat(camp, p, "bot")
        run_turn(camp, datetime.now(timezone.utc), force=True, reports=False)
        formats = ("html", "txt", "svg", "png") + (("pdf",) if pdf else ())
        try:
            return median_ms(lambda: write_reports(camp, 1, formats=formats), repeats)
        except TypeError:
            return median_ms(lambda: write_reports(camp, 1), repeats)


def game_work(n_players: int, turns: int, seed: int = 11):
    """(map, tables, [(a copy of each turn's starting state, that turn's orders)]) of a seeded bot game."""
    aegean = load_map()
    tabs = tables()
    state = new_game(ALL[:n_players], seed, aegean, last_turn=turns)
    work = []
    for _ in range(turns):
        if state.finished:
            break
        orders, _ = bot_turn_orders(state, aegean, tabs)
        work.append((state.copy(), orders))
        adjudicate(state, aegean, tabs, orders, Dice(b"bench-%d" % state.turn))
    return aegean, tabs, work


def bench_game(n_players: int, turns: int, repeats: int) -> dict[str, float]:
    """Adjudication through a whole seeded bot game: each turn's orders prepared first, then each turn timed
    ``repeats`` times on a fresh copy; medians per turn, and totals over the game per order, record and unit."""
    aegean, tabs, work = game_work(n_players, turns)
    per_turn, n_orders, n_records, n_units, logs, idle = [], 0, 0, 0, [], []
    for before, orders in work:
        dice_key = b"bench-%d" % before.turn
        copies = [before.copy() for _ in range(repeats)]
        times = []
        for c in copies:
            t0 = time.perf_counter()
            log = adjudicate(c, aegean, tabs, orders, Dice(dice_key))
            times.append((time.perf_counter() - t0) * 1000)
        per_turn.append(statistics.median(times))
        # the same position with no order file at all (every player NMR, R-TURN-5): what the nine phases cost
        # with nothing asked of them (draw, income, upkeep of every unit, the end of the turn)
        nobody = {pid: None for pid in orders}
        times = []
        for c in [before.copy() for _ in range(repeats)]:
            t0 = time.perf_counter()
            adjudicate(c, aegean, tabs, nobody, Dice(dice_key))
            times.append((time.perf_counter() - t0) * 1000)
        idle.append(statistics.median(times))
        n_orders += sum(len(o.recruit) + len(o.diplomacy) + len(o.cards) + len(o.first_move) + len(o.sea_battle)
                        + len(o.land_battle) + len(o.second_move) for o in orders.values())
        n_records += len(log.records)
        n_units += len(before.units)
        logs.append(log)
    total = sum(per_turn)
    floor = log_floor_ms(logs, repeats)
    return {"log_only_ms": floor, "no_orders_ms": statistics.median(idle), "log_only_share": floor / (total / len(work)),
            "turns": len(work), "median_ms": statistics.median(per_turn), "max_ms": max(per_turn),
            "orders": n_orders / len(work), "per_order_us": total * 1000 / max(n_orders, 1),
            "records": n_records / len(work), "per_record_us": total * 1000 / max(n_records, 1),
            "units": n_units / len(work), "per_unit_us": total * 1000 / max(n_units, 1)}


def log_floor_ms(logs, repeats: int) -> float:
    """The turn's log records made again through ``EventLog`` and ``Dice`` alone, with no rule run: the part of a
    turn's time that logging every die and event costs (R-TURN-6), whatever the rules code does.  Median per turn."""
    from pbem.events import Ev, EventLog
    frame = ("seq", "turn", "player", "phase", "event")
    turns = []
    for log in logs:
        recs = []
        for r in log.records:
            if "event" in r:
                recs.append((r["player"], r["phase"], Ev(r["event"]), None,
                             {k: v for k, v in r.items() if k not in frame}))
            else:
                roll = r["roll"]
                recs.append((r["player"], r["phase"], None, roll["purpose"],
                             {k: v for k, v in roll.items() if k not in ("die", "result", "purpose")}))
        turns.append(recs)

    def remake():
        for recs in turns:
            dice = Dice(b"floor")
            out = EventLog(dice, 1)
            for player, phase, kind, purpose, data in recs:
                out.player, out.phase = player, phase
                if kind is None:
                    dice.roll(6, purpose, **data)
                else:
                    out.emit(kind, **data)
            out.flush_rolls()
    return median_ms(remake, repeats) / len(turns)


def bench_demo(n_players: int, turns: int, repeats: int) -> float:
    aegean = load_map()

    def game():
        state = new_game(ALL[:n_players], 11, aegean, last_turn=turns)
        play(state, aegean, turns, seed=11)
    return median_ms(game, repeats) / turns


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--pdf", action="store_true", help="include PDFs in the render figure")
    args = ap.parse_args()
    reps = 5 if args.quick else 15
    aegean = load_map()
    print("pbem benchmark (medians; milliseconds)")
    print(f"{'case':<32} {'check':>9} {'adjudicate':>11} {'per order':>10} {'orders':>7} {'render':>9}")
    for n in (2, 6, 12):
        adj, per, n_orders = bench_adjudicate(ALL[:n], aegean, 1, reps)
        chk = bench_check(n, reps)
        ren = bench_render(n, max(3, reps // 5), args.pdf)
        ren_s = f"{ren:9.1f}" if ren is not None else "      n/a"
        print(f"{f'{n} players, Aegean 30x20':<32} {chk:9.2f} {adj:11.2f} {per * 1000:8.1f}us {n_orders:7d} {ren_s}")
    scales = [(2, 2)] if args.quick else [(2, 2), (4, 4)]
    for kx, ky in scales:
        m = scaled_map(kx, ky)
        adj, per, n_orders = bench_adjudicate(ALL, m, kx * ky, max(3, reps // 3))
        label = f"12 players, map x{kx * ky} ({m.grid.cols}x{m.grid.rows})"
        print(f"{label:<32} {'':>9} {adj:11.2f} {per * 1000:8.1f}us {n_orders:7d}")
    turns = 12 if args.quick else 36
    g = bench_game(12, turns, 3 if args.quick else 5)
    print(f"adjudication through a {g['turns']}-turn 12-player bot game: median {g['median_ms']:.2f} ms a turn "
          f"(slowest {g['max_ms']:.2f}); per turn {g['orders']:.0f} orders, {g['records']:.0f} log records, "
          f"{g['units']:.0f} units; {g['per_order_us']:.1f} us per order, {g['per_record_us']:.1f} us per record, "
          f"{g['per_unit_us']:.1f} us per unit")
    print(f"  of which making the log records alone (every die and event, no rule run): {g['log_only_ms']:.2f} ms a "
          f"turn, {g['log_only_share'] * 100:.0f}% of the turn; the 11 us per order target allows "
          f"{g['orders'] * 0.011:.2f} ms a turn in all")
    print(f"  the same turns with no order file at all (every player NMR): median {g['no_orders_ms']:.2f} ms a turn")
    print(f"whole bot game in memory, 12 players: {bench_demo(12, turns, 3 if not args.quick else 1):.2f} ms per "
          f"game turn ({turns} turns, bots' orders included, no reports)")


if __name__ == "__main__":
    main()
