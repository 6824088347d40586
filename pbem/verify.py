"""Replay archived turns and check that they come out exactly as stored (R-TURN-6).

With the secret seed (the moderator's ``secret/seed``, or ``revealed-seed.txt`` once the game is over) every
turn can be checked; with one turn's published key (``pbem turn-key``) that turn alone.  A replay re-runs the
adjudicator on ``state/turn-T.json`` with the stored order files of turn T and compares the result with
``state/turn-(T+1).json`` and ``log/turn-T.jsonl`` byte for byte.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

from .adjudicator import adjudicate
from .dice import Dice, seed_fingerprint, seed_from_key, turn_key
from .errors import CampaignError, UsageError
from .gamedata import tables
from .storage import Campaign
from .turn import accepted_orders


@dataclass
class Verdict:
    turn: int
    ok: bool
    detail: str


def secret_of(camp: Campaign) -> bytes | None:
    """The revealed seed, else the moderator's; None if there is neither (a damaged one is an error)."""
    revealed = camp.root / "revealed-seed.txt"
    if revealed.exists():
        try:
            seed = bytes.fromhex(revealed.read_text(encoding="utf-8").strip())
        except (OSError, ValueError):
            seed = b""
        if len(seed) != 32:
            raise CampaignError(f"{revealed}: damaged; it must hold the seed as 64 hex digits")
        return seed
    if not (camp.secret_dir / "seed").exists():
        return None
    return camp.secret_seed()


ADJUDICATED = re.compile(r"\badjudicated turn (\d+); orders (\S+)")
ACCEPTED = re.compile(r"\bintake accepted .* for (\S+) turn (\d+) \(sha256 ([0-9a-f]{16})\)")


def audit_record(camp: Campaign, turn: int) -> tuple[list[str] | None, dict[str, str]]:
    """What audit.log says of ``turn``'s order files: the hash prefixes it was last adjudicated with (in turn
    order, "-" for none; None if the log has no such line), and per player the hash prefix of the file last
    accepted for the turn before that.  An archive without audit.log tells nothing."""
    try:
        lines = (camp.root / "audit.log").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None, {}
    last, recorded = len(lines), None
    for i, line in enumerate(lines):
        m = ADJUDICATED.search(line)
        if m and int(m.group(1)) == turn:
            last, recorded = i, m.group(2).split(",")
    accepted: dict[str, str] = {}
    for line in lines[:last]:
        m = ACCEPTED.search(line)
        if m and int(m.group(2)) == turn:
            accepted[m.group(1)] = m.group(3)
    return recorded, accepted


def order_file_problems(camp: Campaign, turn: int, players: list[str], hashes: list[str]) -> list[str]:
    """The stored order files of ``turn`` that are not those audit.log recorded (missing, added, changed)."""
    recorded, accepted = audit_record(camp, turn)
    if recorded is not None and len(recorded) != len(hashes):
        recorded = None  # not this campaign's players: say nothing rather than something wrong
    problems = []
    for i, (pid, h) in enumerate(zip(players, hashes)):
        path = camp.orders_dir(turn) / f"{pid}.yaml"
        rec = recorded[i] if recorded is not None else None
        if rec not in (None, "-") and h == "-":
            problems.append(f"{path}: missing (audit.log: turn {turn} was adjudicated with {pid}'s file, sha256 "
                            f"{rec}...)")
        elif rec == "-" and h != "-":
            problems.append(f"{path}: was not there when turn {turn} was adjudicated (audit.log: no orders from "
                            f"{pid})")
        elif h != "-" and pid in accepted and not h.startswith(accepted[pid]):
            problems.append(f"{path}: sha256 {h[:16]} differs from the one audit.log recorded when it was accepted "
                            f"({accepted[pid]})")
        elif rec not in (None, "-") and not h.startswith(rec):
            problems.append(f"{path}: sha256 {h[:16]} is not the file turn {turn} was adjudicated with (audit.log: "
                            f"{rec}...)")
    return problems


def _first_difference(new: list[str], old: list[str]) -> tuple[int, bool] | None:
    """The first line (1-based) where two logs differ, and whether only a die's result differs there (the dice
    themselves differ: another seed or key)."""
    for n, (a, b) in enumerate(zip(new, old), 1):
        if a != b:
            try:
                ra, rb = json.loads(a), json.loads(b)
                dice = isinstance(ra.get("roll"), dict) and isinstance(rb.get("roll"), dict) and \
                    {**ra, "roll": {**ra["roll"], "result": None}} == {**rb, "roll": {**rb["roll"], "result": None}}
            except (ValueError, AttributeError, TypeError):
                dice = False
            return n, dice
    if len(new) != len(old):
        return min(len(new), len(old)) + 1, False
    return None


def replay_turn(camp: Campaign, turn: int, key: bytes, published: bool = False) -> Verdict:
    """Replay ``turn`` with its key; ``published``: the key was given by hand (`--key`), not derived from the
    seed, so a wrong one is named as such."""
    if turn + 1 not in camp.snapshots():
        return Verdict(turn, False, f"turn {turn} has not been adjudicated")
    log_path = camp.log_path(turn)
    if not log_path.is_file():
        return Verdict(turn, False, f"{log_path}: missing; the turn's log is needed to check its dice")
    before = camp.load_state(turn)
    orders, hashes = accepted_orders(camp, before)
    problems = order_file_problems(camp, turn, list(before.turn_order), hashes)
    if problems:
        return Verdict(turn, False, "; ".join(problems))
    after = before.copy()
    log = adjudicate(after, camp.game_map, tables(), orders, Dice(seed_from_key(key, turn, hashes)))
    path = camp.snapshot_path(turn + 1)
    first_fix = path.with_name(f"{path.stem}.fix-1.json")  # `pbem adjust` kept the adjudicated original
    adjusted = first_fix.is_file()
    stored_state = (first_fix if adjusted else path).read_text(encoding="utf-8")
    stored_log = log_path.read_text(encoding="utf-8")
    new_log = "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in log.records)
    if new_log != stored_log:
        where = _first_difference(new_log.splitlines(), stored_log.splitlines())
        line, dice = where if where else (0, False)
        if dice and published:
            return Verdict(turn, False, f"the key does not fit turn {turn}: with it the dice differ from the stored "
                                        f"log's at {log_path.name}:{line} (the order files are as audit.log "
                                        f"recorded them)")
        if dice:
            return Verdict(turn, False, f"the dice differ from the stored log's at {log_path.name}:{line}: the log "
                                        f"or an order file was changed after the turn was adjudicated")
        return Verdict(turn, False, f"the replayed log differs from the stored log at {log_path.name}:{line}")
    if after.to_json() != stored_state:
        return Verdict(turn, False, f"the replayed state differs from the stored snapshot "
                                    f"{(first_fix if adjusted else path).name}")
    rolls = sum(1 for r in log.records if "roll" in r)
    note = "; the moderator adjusted the result afterwards (see audit.log)" if adjusted else ""
    return Verdict(turn, True, f"replayed exactly ({rolls} dice){note}")


def verify(camp: Campaign, turn: int | None = None, key_hex: str | None = None) -> list[Verdict]:
    snaps = camp.snapshots()
    done = [t for t in snaps if t + 1 in snaps]
    if turn is not None and turn not in done:
        raise UsageError(f"turn {turn} has not been adjudicated (adjudicated: {', '.join(map(str, done)) or 'none'})")
    if key_hex is not None:
        if turn is None:
            raise UsageError("--key belongs to one turn: give --turn too")
        try:
            key = bytes.fromhex(key_hex.strip())
            if len(key) != 32:
                raise ValueError
        except ValueError:
            raise UsageError("--key: write the turn key as printed by `pbem turn-key` (64 hex digits)") from None
        return [replay_turn(camp, turn, key, published=True)]
    secret = secret_of(camp)
    if secret is None:
        raise UsageError("no seed to verify with: give --turn and --key (from `pbem turn-key`), or the archive "
                         "must hold revealed-seed.txt")
    published_fp = camp.config.get("seed_sha256")
    if published_fp and seed_fingerprint(secret) != published_fp:
        source = camp.root / "revealed-seed.txt"
        source = source if source.exists() else camp.secret_dir / "seed"
        raise CampaignError(f"{source}: not this campaign's seed (its sha256 is not campaign.yaml's seed_sha256 "
                            f"{published_fp[:16]}...)")
    return [replay_turn(camp, t, turn_key(secret, t)) for t in ([turn] if turn is not None else done)]


def published_key(camp: Campaign, turn: int) -> str:
    """The key of an adjudicated turn, to publish (never of the current or a future turn)."""
    if turn < 1 or turn + 1 not in camp.snapshots():
        raise UsageError(f"turn {turn} has not been adjudicated; its key would tell its dice in advance")
    return turn_key(camp.secret_seed(), turn).hex()
