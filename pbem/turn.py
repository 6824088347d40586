"""Adjudicate a campaign's current game turn from its folder, committing the turn as a whole.

Reads the snapshot and the accepted order files of the turn, seeds the dice as R-TURN-6 says, runs the
pure adjudicator on a copy, then writes the log and, last, the next snapshot (the commit point).
"""
from __future__ import annotations

import hashlib
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from . import __version__, yamlio
from .adjudicator import adjudicate
from .dice import Dice, turn_seed
from .errors import CampaignError
from .events import EventLog
from .gamedata import tables
from .model import GameState
from .ordertypes import Orders
from .storage import Campaign, atomic_write, held_interrupts, refuse_if_closed, short_hash


@dataclass
class TurnResult:
    turn: int
    before: GameState
    after: GameState
    log: EventLog
    order_hashes: list[str]
    snapshot: Path | None = None
    bots: list[str] = field(default_factory=list)  # the computer players whose orders were written for the turn


def accepted_orders(camp: Campaign, state: GameState, extra: dict[str, bytes] | None = None
                    ) -> tuple[dict[str, Orders | None], list[str]]:
    """The accepted order file of each player for the current turn, and their hashes in turn order.
    ``extra``: order files not stored yet (the computer players'), by player."""
    folder = camp.orders_dir(state.turn)
    orders: dict[str, Orders | None] = {}
    hashes: list[str] = []
    for pid in state.turn_order:
        path = folder / f"{pid}.yaml"
        if extra and pid in extra:
            raw = extra[pid]
        elif not path.is_file():
            orders[pid] = None
            hashes.append("-")
            continue
        else:
            raw = path.read_bytes()
        hashes.append(hashlib.sha256(raw).hexdigest())
        try:
            data = yamlio.parse(yamlio.decode(raw, str(path)), str(path)).data
            orders[pid] = Orders.from_dict(data)
        except (yamlio.YamlError, KeyError, TypeError, ValueError) as exc:
            raise CampaignError(f"{path}: the stored order file cannot be read ({exc}); "
                                f"remove it or submit it again") from None
    return orders, hashes


def run(camp: Campaign, dry_run: bool = False) -> TurnResult:
    """Adjudicate the campaign's current turn, the computer players' seats playing their orders as at
    `run-turn` (written with the turn).  With ``dry_run`` nothing is written, the bots' orders included."""
    from .cycle import bot_orders
    with camp.lock():
        result = run_locked(camp, dry_run, extra=bot_orders(camp))
        if dry_run:  # the moderator saw this turn's dice: recorded, so that a later fix is seen to follow it
            camp.audit(dry_run_line(result))
        return result


DRY_RUN = "adjudicate --dry-run of turn"
# its audit line as `verify` and intake read it back: (time stamp, turn, order hashes)
DRY_RUN_LINE = re.compile(rf"^(\S+) {re.escape(DRY_RUN)} (\d+); order hashes (\S+)", re.M)


def dry_run_line(result: TurnResult) -> str:
    bots = f" (computer players {','.join(result.bots)})" if result.bots else ""
    return f"{DRY_RUN} {result.turn}; order hashes {','.join(short_hash(h) for h in result.order_hashes)}{bots}"


def run_locked(camp: Campaign, dry_run: bool = False, extra: dict[str, bytes] | None = None,
               with_turn: Callable[[TurnResult], list[str]] | None = None) -> TurnResult:
    """``run`` for a caller that already holds the campaign lock.  ``extra``: order files to store with the
    turn (the computer players'); they are written only once everything was read and the turn resolved, so a
    turn that cannot run changes nothing.  ``with_turn(result)``: what commits with the turn (`run-turn`'s next
    deadline), called once its files are written, just before its audit line; it returns audit lines written
    together with the turn's (all or none), and its caller undoes its change if this raises after it."""
    before = camp.load_state()
    if before.finished:
        raise CampaignError(f"{camp.root}: the game is over (after turn {before.turn - 1}); nothing to adjudicate")
    refuse_if_closed(camp.root, "every die is known, so no more turns are run")
    orders, hashes = accepted_orders(camp, before, extra)
    dice = Dice(turn_seed(camp.secret_seed(), before.turn, hashes, camp.dice_start(before.turn)))
    after = before.copy()
    log = adjudicate(after, camp.game_map, tables(), orders, dice)
    result = TurnResult(before.turn, before, after, log, hashes, bots=sorted(extra or {}))
    if dry_run:
        return result
    with held_interrupts(), undone_on_failure() as keep:
        for pid, raw in sorted((extra or {}).items()):
            path = camp.orders_dir(before.turn) / f"{pid}.yaml"
            keep(path)
            atomic_write(path, raw)
        keep(camp.log_path(before.turn))
        camp.write_log(before.turn, log.records)
        keep(camp.snapshot_path(after.turn))
        result.snapshot = camp.save_state(after)  # the turn is committed with its audit line, below: if that
        # line cannot be written, everything above is put back (``undone_on_failure``), the snapshot included
        bots = f" (computer players {','.join(sorted(extra))})" if extra else ""
        # the position it ran from (its start snapshot as it is now, adjustments included): `verify` tells a turn
        # run again from a seen position (other files there are other dice for a seen turn) from a new one
        start = hashlib.sha256(camp.snapshot_path(before.turn).read_bytes()).hexdigest()
        more = with_turn(result) if with_turn is not None else []
        camp.audit(f"adjudicated turn {before.turn}; orders {','.join(short_hash(h) for h in hashes)}{bots}; "
                   f"start sha256 {start}; pbem {__version__}", *more)  # `verify` names the version that ran it
    return result


@contextmanager
def undone_on_failure() -> Iterator[Callable[[Path], None]]:
    """A turn is committed whole or not at all: ``keep(path)`` before writing a file notes what it held (or that
    it was not there, nor its folder); if the block fails (``state/`` not writable, a full disk, audit.log), every
    file noted is put back as it was and every folder made for them removed, so no log, snapshot or computer
    player's file of a turn that did not commit is left behind (`verify` would take a stray one for the turn's)."""
    noted: list[tuple[Path, bytes | None, list[Path]]] = []

    def keep(path: Path) -> None:
        made = [d for d in path.parents if not d.exists()]
        noted.append((path, path.read_bytes() if path.is_file() else None, made))
    try:
        yield keep
    except BaseException:
        for path, old, made in reversed(noted):
            try:
                if old is None:
                    path.unlink(missing_ok=True)
                else:
                    atomic_write(path, old)
                for d in made:  # innermost first
                    d.rmdir()
            except OSError:
                pass  # the error that stopped the turn is the one to report
        raise


def summary(result: TurnResult, dry_run: bool = False) -> str:
    """A short account of an adjudicated turn for the moderator's terminal."""
    from collections import Counter
    state = result.after
    lines = [f"{'Dry run of' if dry_run else 'Adjudicated'} game turn {result.turn}"
             + ("" if dry_run else f": state saved as {result.snapshot}")]
    nmr = [p for p, h in zip(result.before.turn_order, result.order_hashes) if h == "-"]
    if nmr:
        lines.append("No orders (NMR): " + ", ".join(nmr))
    if result.bots:
        lines.append("Computer players' orders " + ("used (not stored)" if dry_run else "written") + ": "
                     + ", ".join(result.bots))
    rolls = sum(1 for r in result.log.records if "roll" in r)
    kinds = Counter(r["event"] for r in result.log.records if "event" in r)
    lines.append(f"{len(result.log.records)} log records, {rolls} dice rolled")
    for pid in result.before.turn_order:
        mine = [r for r in result.log.records if r.get("player") == pid and "event" in r]
        failed = sum(1 for r in mine if r["event"] == "order_failed")
        p = state.players[pid]
        lines.append(f"  {p.name:<12} gold {result.before.players[pid].gold:>3} -> {p.gold:>3}; "
                     f"cities {len(state.controlled_cities(pid))}; events {len(mine)}; failed orders {failed}")
    if state.finished:
        lines.append(f"The game is over. Winner: {state.players[state.winner].name if state.winner else 'none'}")
    if dry_run:
        lines.append("The turn was not run (--dry-run): nothing was written but the audit.log line recording this "
                     "dry run.")
    lines.append("Events: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    return "\n".join(lines) + "\n"
