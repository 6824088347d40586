"""Replay archived turns and check that they come out exactly as stored (R-TURN-6).

With the secret seed (the moderator's ``secret/seed``, or ``revealed-seed.txt`` once the game is over) every
turn can be checked; with one turn's published key (``pbem turn-key``) that turn alone.  A replay re-runs the
adjudicator on ``state/turn-T.json`` with the stored order files of turn T and compares the result with
``state/turn-(T+1).json`` and ``log/turn-T.jsonl`` byte for byte.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from .adjudicator import adjudicate
from .dice import Dice, seed_from_key, turn_key
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


def replay_turn(camp: Campaign, turn: int, key: bytes) -> Verdict:
    if turn + 1 not in camp.snapshots():
        return Verdict(turn, False, f"turn {turn} has not been adjudicated")
    before = camp.load_state(turn)
    orders, hashes = accepted_orders(camp, before)
    after = before.copy()
    log = adjudicate(after, camp.game_map, tables(), orders, Dice(seed_from_key(key, turn, hashes)))
    path = camp.snapshot_path(turn + 1)
    first_fix = path.with_name(f"{path.stem}.fix-1.json")  # `pbem adjust` kept the adjudicated original
    adjusted = first_fix.is_file()
    stored_state = (first_fix if adjusted else path).read_text(encoding="utf-8")
    stored_log = camp.log_path(turn).read_text(encoding="utf-8") if camp.log_path(turn).is_file() else ""
    new_log = "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in log.records)
    if after.to_json() != stored_state:
        return Verdict(turn, False, "the replayed state differs from the stored snapshot")
    if new_log != stored_log:
        return Verdict(turn, False, "the replayed log differs from the stored log")
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
        return [replay_turn(camp, turn, key)]
    secret = secret_of(camp)
    if secret is None:
        raise UsageError("no seed to verify with: give --turn and --key (from `pbem turn-key`), or the archive "
                         "must hold revealed-seed.txt")
    return [replay_turn(camp, t, turn_key(secret, t)) for t in ([turn] if turn is not None else done)]


def published_key(camp: Campaign, turn: int) -> str:
    """The key of an adjudicated turn, to publish (never of the current or a future turn)."""
    if turn < 1 or turn + 1 not in camp.snapshots():
        raise UsageError(f"turn {turn} has not been adjudicated; its key would tell its dice in advance")
    return turn_key(camp.secret_seed(), turn).hex()
