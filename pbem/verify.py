"""Replay archived turns and check that they come out exactly as stored (R-TURN-6).

With the secret seed (the moderator's ``secret/seed``, or ``revealed-seed.txt`` once the game is over) every
turn can be checked; with one turn's published key (``pbem turn-key``) that turn alone, once the key is found to
be the one ``turn-keys.txt`` committed to when the campaign was created (its SHA-256, the turn-key fingerprint,
is published with the seed's).  A replay re-runs the
adjudicator on ``state/turn-T.json`` with the stored order files of turn T and compares the result with
``state/turn-(T+1).json`` and ``log/turn-T.jsonl`` byte for byte.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from .adjudicator import adjudicate
from .auditlog import ACCEPTED, ADJUDICATED, DEADLINE, PLAYED_BY_UNDONE_RUN, ROLLBACK, RUN_TURN, SEAT, SEAT_SET_ASIDE
from .campaign import KEYS_FILE
from .dice import Dice, key_commitment, seed_fingerprint, seed_from_key, turn_key
from .errors import CampaignError, PbemError, UsageError
from .gamedata import tables
from .storage import Campaign, first_fix, short_hash
from .turn import DRY_RUN_LINE, accepted_orders


@dataclass
class Verdict:
    turn: int
    ok: bool
    detail: str
    notes: list[str] = field(default_factory=list)  # what audit.log records of the turn: dry runs, fixes
    flags: list[str] = field(default_factory=list)  # what a referee should question though the turn replays

    @property
    def word(self) -> str:
        """OK; FLAGGED: the turn replays exactly, but from a file the referee should question; MISMATCH."""
        return "OK" if self.ok else "FLAGGED" if self.flags else "MISMATCH"

    @property
    def heading(self) -> str:
        """The word, with how many notes the turn has: ``OK (2 notes)``."""
        n = len(self.notes)
        return self.word + (f" ({n} note{'' if n == 1 else 's'})" if n else "")


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


class Damaged(Exception):
    """A stored file verify compares cannot be read: the message names it and says why (a verify finding)."""


def stored_text(path) -> str:
    """A stored snapshot or log as text, for a byte-for-byte comparison.  A file that is not a regular file (a
    folder, a named pipe, which would hang a read) or not UTF-8 text is ``Damaged``, named."""
    if not path.is_file():
        what = "missing" if not (path.exists() or path.is_symlink()) else "not a regular file"
        raise Damaged(f"{path}: {what}")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise Damaged(f"{path}: damaged (not UTF-8 text)") from None
    except OSError as exc:
        raise Damaged(f"{path}: cannot be read ({exc.strerror or exc})") from None


STAMP = "%Y-%m-%dT%H:%M:%SZ"  # an audit line's time stamp


def _late(stamp: str, due: str | None) -> bool:
    """Whether an audit line's time stamp is after a deadline as `pbem deadline` audits it."""
    if due is None:
        return False
    try:
        return datetime.strptime(stamp, STAMP) > datetime.strptime(due, "%Y-%m-%d %H:%M")
    except ValueError:
        return False


@dataclass
class TurnHistory:
    """What audit.log records of one game turn, up to its last adjudication."""
    dry_runs: list[str] = field(default_factory=list)  # "STAMP (orders h1,h2,...)"
    rollbacks: list[str] = field(default_factory=list)  # "STAMP (archive/rollback-N): reason"
    fixes: list[str] = field(default_factory=list)  # "PLAYER's file sha256 H (forced after N dry runs)"
    late: dict[str, str] = field(default_factory=dict)  # per player: their file that counts, taken after the
    # turn's deadline (`submit --late-ok`, or a fix), as "PLAYER's file sha256 H taken late, at ... (deadline ...)"
    bots: set[str] = field(default_factory=set)  # the computer player's seats when it was adjudicated
    accepted: dict[str, bool] = field(default_factory=dict)  # per player: was the last file taken a fix?
    stamp: str = ""  # of its last adjudication
    hashes: list[str] = field(default_factory=list)  # the hash prefixes it was last adjudicated with ("-": none)
    dry_hashes: list[tuple[str, list[str]]] = field(default_factory=list)  # each dry run: stamp, hash prefixes
    taken: dict[str, tuple[str, str]] = field(default_factory=dict)  # per player: (stamp, hash) of the last file
    # intake accepted for the turn before its last adjudication, in the timeline it ran in (none moved away)
    written: set[str] = field(default_factory=set)  # players whose file the computer player wrote in a run of it
    runs: list[str] = field(default_factory=list)  # stamps of its adjudications with no rollback between
    unseated: list[str] = field(default_factory=list)  # "PLAYER at STAMP": played by the computer player, not so
    # seated by any `seat` line (nor a demo's start)
    seat_changes: list[str] = field(default_factory=list)  # `seat` lines while the turn was current
    undone: list[list] = field(default_factory=list)  # each run a rollback undid: [its stamp, hash prefixes,
    # start position (SHA-256 of its start snapshot as first written; None if unknown)]
    forced: set[tuple[str, str]] = field(default_factory=set)  # (player, hash prefix) of each file taken as a
    # forced moderator's fix
    start: str | None = None  # the SHA-256 of the snapshot its last run started from (older audit lines: none)
    version: str | None = None  # the pbem version that ran it last (older audit lines: none)


def history(camp: Campaign) -> dict[int, TurnHistory]:
    """Per game turn, what audit.log records of it.  Seats start as `pbem new` makes them (every seat the
    computer player's in a demo, else human) and change with each `pbem seat` line; a seat edited by hand in
    campaign.yaml is not recorded (`unseated` names the computer player's runs of such a seat), and the computer
    players' own files are known by their first line too.  A rollback to turn R undoes the runs of R and later
    turns and moves the order folders of the turns after R to the archive: the files intake accepted for those
    turns before it no longer count; R keeps its own."""
    try:
        lines = (camp.root / "audit.log").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return {}
    seats = {p: "bot" for p in camp.config.get("players", [])} if camp.config.get("demo") else {}
    out: dict[int, TurnHistory] = {}
    pending: dict[int, TurnHistory] = {}  # since the turn's last adjudication
    taken: dict[int, dict[str, tuple[str, str]]] = {}  # per turn, in the live timeline
    written: dict[int, set[str]] = {}  # per turn, the computer player's files in the live timeline
    runs: dict[int, list[str]] = {}  # per turn, its adjudications not undone by a rollback
    own_turns: list[tuple[int, list]] = []  # undone runs of a rollback's own turn, start position not read yet
    current, started = 1, False
    due: dict[int, str] = {}  # per turn, the last deadline `pbem deadline` set for it
    for line in lines:
        stamp = line.split(" ", 1)[0]
        if m := DEADLINE.match(line):
            if m.group(1):
                due[int(m.group(1))] = m.group(2)
            else:
                due.pop(int(m.group(3)), None)
            continue
        if m := SEAT.match(line):
            seats[m.group(1)] = m.group(2)
            aside = SEAT_SET_ASIDE.match(line)  # the seat changed hands: the former holder's file went beside
            if aside:
                t, pid = int(aside.group(2)), aside.group(1)
                taken.get(t, {}).pop(pid, None)
                pending.setdefault(t, TurnHistory()).accepted.pop(pid, None)
                if t in out:
                    out[t].accepted.pop(pid, None)
            if started:  # before turn 1 had a file or a run: setting up the campaign, not noted
                pending.setdefault(current, TurnHistory()).seat_changes.append(
                    f"seat of {m.group(1)} set to {m.group(2)} at {stamp}" + (
                        f" ({aside.group(1)}'s file sha256 {aside.group(3)} set aside as {aside.group(4)})"
                        if aside else ""))
            continue
        started = started or bool(DRY_RUN_LINE.match(line) or ACCEPTED.match(line) or ROLLBACK.match(line)
                                  or ADJUDICATED.match(line))
        if m := DRY_RUN_LINE.match(line):
            t = int(m.group(2))
            h = pending.setdefault(t, TurnHistory())
            h.dry_runs.append(f"{m.group(1)} (orders {m.group(3)})")
            h.dry_hashes.append((m.group(1), m.group(3).split(",")))
        elif m := ACCEPTED.match(line):
            t = int(m.group(2))
            h = pending.setdefault(t, TurnHistory())
            h.accepted[m.group(1)] = bool(m.group(4))
            taken.setdefault(t, {})[m.group(1)] = (stamp, m.group(3))
            if m.group(5):
                h.forced.add((m.group(1), m.group(3)))
            late = f"late, at {stamp} (the deadline of turn {t} was {due[t]} UTC)" if _late(stamp, due.get(t)) else ""
            # the last file taken is the one that counts: an earlier late one no longer does
            h.late.pop(m.group(1), None)
            if late and not m.group(4):
                h.late[m.group(1)] = f"{m.group(1)}'s file sha256 {m.group(3)} taken {late}"
            if m.group(4):
                forced = f", forced after {m.group(5)}" if m.group(5) else ""
                # intake says when the fix is the very file the rolled-back run played (the same dice): say so
                same = (f" ({PLAYED_BY_UNDONE_RUN}: the same dice)"
                        if f" ({PLAYED_BY_UNDONE_RUN}) for {m.group(1)} turn " in line else "")
                h.fixes.append(f"{m.group(1)}'s file sha256 {m.group(3)} taken as the moderator's fix{same}{forced}"
                               + (f", {late}" if late else ""))
        elif m := ROLLBACK.match(line):
            first = int(m.group(3) or m.group(2))
            last = int(m.group(4) or m.group(3) or 0) or _last_undone(camp, m.group(5), first)
            back = int(m.group(2))
            # a rollback's own turn keeps its start snapshot, until a deeper rollback moves it to its archive: its
            # start position is read there then, or from state/ at the end (the position the run started from)
            for t, entry in [(t, e) for t, e in own_turns if t > back]:
                entry[2] = _archived_start(camp, m.group(5), t)
                own_turns.remove((t, entry))
            for t in range(first, last + 1):  # every run undone: its results (and dice) may have been seen
                if t in out:
                    p = pending.setdefault(t, TurnHistory())
                    p.rollbacks.append(f"{m.group(1)} ({m.group(5)}): {m.group(6)}")
                    start = out[t].start or (None if t == back else _archived_start(camp, m.group(5), t))
                    entry = [out[t].stamp, list(out[t].hashes), start]
                    p.undone.append(entry)
                    if start is None and t == back:  # an older audit line: read where its snapshot goes
                        own_turns.append((t, entry))
            current = back
            for t in [t for t in runs if t >= back]:
                del runs[t]
            for t in [t for t in taken if t > back]:  # their folders went to the archive
                del taken[t]
            for t in [t for t in written if t > back]:
                del written[t]
        elif m := ADJUDICATED.match(line):
            t = int(m.group(1))
            h = pending.pop(t, TurnHistory())
            before = out.get(t)
            if before is not None:  # adjudicated again after a rollback: the history goes on
                h.dry_runs[:0], h.fixes[:0] = before.dry_runs, before.fixes
                h.rollbacks[:0], h.dry_hashes[:0] = before.rollbacks, before.dry_hashes
                h.seat_changes[:0], h.unseated[:0] = before.seat_changes, before.unseated
                h.undone[:0] = [u for u in before.undone if not any(u is x for x in h.undone)]
                h.forced |= before.forced
                h.late = {**before.late, **h.late}
                h.accepted = {**before.accepted, **h.accepted}
            computer = set((m.group(3) or "").split(",")) - {""}
            h.unseated += [f"{p} at {stamp}" for p in sorted(computer) if seats.get(p) != "bot"]
            h.bots = {p for p, seat in seats.items() if seat == "bot"} | computer
            h.stamp, h.hashes, h.start, h.version = stamp, m.group(2).split(","), m.group(4), m.group(5)
            h.taken = dict(taken.get(t, {}))
            written.setdefault(t, set()).update(computer)
            h.written = set(written[t])
            runs.setdefault(t, []).append(stamp)
            h.runs = list(runs[t])
            out[t] = h
            current = t + 1
        elif m := RUN_TURN.match(line):
            t = int(m.group(1))
            if t in out:
                computer = set((m.group(2) or "").split(",")) - {""}
                h = out[t]
                h.unseated += [f"{p} at {stamp}" for p in sorted(computer - h.bots) if seats.get(p) != "bot"]
                h.bots |= computer
                written.setdefault(t, set()).update(computer)
                h.written |= computer
    if own_turns:
        from .intake import start_hash
        for t, entry in own_turns:  # still in state/: the start it was run from (adjusted: its first version)
            entry[2] = start_hash(camp, t)
    return out


def _archived_start(camp: Campaign, folder: str, turn: int) -> str | None:
    """The start position (SHA-256 of the start snapshot as first written) of a run of ``turn`` that the rollback
    with archive ``folder`` undid: its snapshot moved there; None if it is not there."""
    from .storage import first_version_hash
    return first_version_hash(camp.root / folder / "state" / camp.snapshot_path(turn).name)


def _last_undone(camp: Campaign, folder: str, first: int) -> int:
    """The last turn whose run a rollback (an audit line from before it named them) undid: the last log it moved
    to its archive folder; ``first`` if that folder is not there."""
    logs = [int(m.group(1)) for p in (camp.root / folder / "log").glob("turn-*.jsonl")
            if (m := re.fullmatch(r"turn-(\d{3})\.jsonl", p.name))] if (camp.root / folder / "log").is_dir() else []
    return max([first] + logs)


def computer_player_problems(camp: Campaign, turn: int, before, record: TurnHistory | None) -> list[str]:
    """The stored files of the computer player's seats of ``turn`` that are not what it writes for them.

    The computer player reads only its faction's fogged view of the snapshot and rolls no dice, so its file is
    the same bytes every time (``cycle.bot_file``): a file the moderator put in its place, say to try another
    one after seeing a dry run's dice, is named here.  A file the faction's human player sent before the seat
    changed (taken by intake, not as a fix) is theirs and is left alone."""
    from .cycle import BOT_MARK, bot_file
    problems = []
    for pid in before.turn_order:
        path = camp.orders_dir(turn) / f"{pid}.yaml"
        if not path.is_file():
            continue
        raw = path.read_bytes()
        seat_bot = record is not None and pid in record.bots
        humans = record is not None and record.accepted.get(pid) is False
        if record is not None and not seat_bot:
            continue  # a human seat (audit.log): a file that begins as the computer player's is the player's own,
            # say written with `pbem bot` on their kit and edited (a moderator's review: verify accused him falsely)
        if not (raw.startswith(BOT_MARK) or seat_bot and not humans):
            continue
        if raw != bot_file(camp, before, pid):
            how = " (audit.log: taken as the moderator's fix)" if record is not None and record.accepted.get(pid) \
                else ""
            problems.append(f"{path}: {pid}'s seat was the computer player's, but this is not the file the computer "
                            f"player writes for it{how}{_other_version(camp, turn, record)}")
    return problems


def made_with_other_version(camp: Campaign) -> str | None:
    """The pbem version the campaign was created with, when it is not this one: a turn replays byte for byte only
    with the pbem that ran it, and each version's computer player is its own.  None: the same, or not recorded."""
    from . import __version__
    made_with = camp.config.get("pbem_version")
    return str(made_with) if made_with and made_with != __version__ else None


def turns_run_with_other_versions(camp: Campaign, turn: int | None = None) -> dict[str, list[int]]:
    """Per pbem version other than this one, the adjudicated turns (``turn``: that one only) audit.log says it ran
    (``auditlog.run_versions``; a turn whose line names none is left out)."""
    from . import __version__
    from .auditlog import versions_run
    out: dict[str, list[int]] = {}
    for t, ran in sorted(versions_run(camp.root).items()):
        if ran and ran != __version__ and (turn is None or t == turn):
            out.setdefault(ran, []).append(t)
    return out


def _other_version(camp: Campaign, turn: int | None = None, record: TurnHistory | None = None) -> str:
    """Said with a computer player's file that differs when the turn was run (audit.log), or else the campaign
    made, with another pbem, whose computer player may play otherwise (a version change)."""
    from . import __version__
    ran = record.version if record is not None else None
    if ran and ran != __version__:
        return (f" by pbem {__version__}; turn {turn} was run with pbem {ran} (audit.log), whose computer player may "
                f"write other orders: verify it with pbem {ran}")
    made_with = made_with_other_version(camp)
    if made_with:
        return (f" by pbem {__version__}; the campaign was created with pbem {made_with}, whose computer player may "
                f"write other orders: verify with the version that ran the turn")
    return ""


def audit_problems(camp: Campaign, turn: int, before, record: TurnHistory) -> list[str]:
    """What audit.log says of ``turn`` that a referee should question though it replays exactly: a second run
    with no rollback between, a file intake took that the turn ran without, a human seat's file no intake took,
    a seat the computer player played that no `seat` line gave it.  Each names the turn, the player, the file
    and the audit.log facts."""
    flags = []
    if len(record.runs) > 1:
        flags.append(f"turn {turn} was adjudicated {len(record.runs)} times with no rollback between (audit.log: "
                     f"adjudicated turn {turn} at {', '.join(record.runs)}): the earlier run's "
                     f"{_rel(camp, camp.snapshot_path(turn + 1))} and {_rel(camp, camp.log_path(turn))} were removed "
                     f"by hand and the turn run again, so its dice had been seen")
    players = list(before.turn_order)
    if len(record.hashes) == len(players):  # else not this campaign's players: say nothing rather than wrong
        for pid, h in zip(players, record.hashes):
            path = _rel(camp, camp.orders_dir(turn) / f"{pid}.yaml")
            if h == "-" and pid in record.taken:
                at, digest = record.taken[pid]
                flags.append(f"{path}: intake accepted {pid}'s file for turn {turn} at {at} (sha256 {digest}), but "
                             f"turn {turn} was adjudicated at {record.stamp} with no orders from {pid} (audit.log): "
                             f"the file was removed by hand")
            elif h != "-" and pid not in record.taken and pid not in record.bots | record.written:
                flags.append(f"{path}: turn {turn} was adjudicated at {record.stamp} with {pid}'s file (sha256 {h}), "
                             f"a human seat's, but no `intake accepted` line for {pid} turn {turn} took it in "
                             f"(audit.log): it was put in the orders folder by hand")
    # a turn run again from a position a rolled-back run of it started from: its dice were seen, so other files
    # need the moderator's forced fix (docs/moderator.md); a seat handed to the computer player, say, is not one.
    # Older audit lines name no start: the snapshot as first written stands for it, and an adjusted one is not
    # compared
    # A run's start is also the position as first written (``intake.start_hash``): the dice of a campaign made
    # since 0.6.0 are seeded by it, so an adjustment of a held turn keeps its seen dice, and another file there
    # is flagged too (a code review: only the adjusted start was compared, and the flag went blind)
    from .intake import start_hash
    snap = camp.snapshot_path(turn)
    adjusted = record.start is None and first_fix(snap).is_file()
    now = {record.start or start_hash(camp, turn)}
    if camp.config.get("dice_from_start"):
        now.add(start_hash(camp, turn))
    seen_from = [] if adjusted else [(at, hashes) for at, hashes, start in record.undone if start and start in now]
    if len(record.hashes) == len(players):
        for at, hashes in seen_from:
            if len(hashes) != len(players):
                continue
            for pid, old, new in zip(players, hashes, record.hashes):
                if old != new and not any(p == pid and new.startswith(h[:12]) for p, h in record.forced):
                    flags.append(f"{_rel(camp, camp.orders_dir(turn) / f'{pid}.yaml')}: turn {turn} ran again at "
                                 f"{record.stamp} from the position of its run at {at}, which was rolled back, with "
                                 f"{pid}'s file sha256 {_shown(new)} where that run had {_shown(old)}, and no forced "
                                 f"moderator's fix took it (audit.log): other dice for a turn whose dice were seen")
    for seated in record.unseated:
        pid, at = seated.split(" at ", 1)
        flags.append(f"{_rel(camp, camp.orders_dir(turn) / f'{pid}.yaml')}: the computer player played {pid}'s seat "
                     f"in turn {turn} (audit.log: computer players {pid} at {at}), but no `seat` line gave it that "
                     f"seat: campaign.yaml was edited by hand")
    return flags


def audit_notes(camp: Campaign, turn: int, before, record: TurnHistory) -> list[str]:
    """What a referee should know though nobody need have cheated: the files that changed between a dry run of
    ``turn`` and its adjudication (a player may send a new file after a dry run), the seats changed while it was
    current."""
    notes = []
    players = list(before.turn_order)
    for at, hashes in record.dry_hashes:
        if len(hashes) != len(players) or len(record.hashes) != len(players):
            continue
        for pid, old, new in zip(players, hashes, record.hashes):
            if old != new:
                path = _rel(camp, camp.orders_dir(turn) / f"{pid}.yaml")
                notes.append(f"audit.log: {pid}'s file changed between the dry run of turn {turn} at {at} and its "
                             f"adjudication at {record.stamp} ({path}: sha256 {_shown(old)} then {_shown(new)})")
    notes += [f"audit.log: {change}, while turn {turn} was current" for change in record.seat_changes]
    return notes


def _shown(digest: str) -> str:
    return "none" if digest == "-" else digest


def _rel(camp: Campaign, path) -> str:
    try:
        return path.relative_to(camp.root).as_posix()
    except ValueError:
        return str(path)


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
        m = ADJUDICATED.match(line)
        if m and int(m.group(1)) == turn:
            last, recorded = i, m.group(2).split(",")
    accepted: dict[str, str] = {}
    for line in lines[:last]:
        m = ACCEPTED.match(line)
        if m and int(m.group(2)) == turn:
            accepted[m.group(1)] = m.group(3)
        elif (r := ROLLBACK.match(line)) and int(r.group(2)) < turn:
            accepted.clear()  # the turn's folder went to the archive: a discarded timeline's files do not count
        elif (a := SEAT_SET_ASIDE.match(line)) and int(a.group(2)) == turn:
            accepted.pop(a.group(1), None)  # the seat changed hands: that file was set aside, not played
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
            problems.append(f"{path}: sha256 {short_hash(h)} differs from the one audit.log recorded when it was accepted "
                            f"({accepted[pid]})")
        elif rec not in (None, "-") and not h.startswith(rec):
            problems.append(f"{path}: sha256 {short_hash(h)} is not the file turn {turn} was adjudicated with (audit.log: "
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


def replay_turn(camp: Campaign, turn: int, key: bytes, published: bool = False,
                record: TurnHistory | None = None) -> Verdict:
    """Replay ``turn`` with its key; ``published``: the key was given by hand (`--key`), not derived from the
    seed, so a wrong one is named as such.  ``record``: what audit.log says of the turn (its dry runs, fixes,
    files changed after a dry run and seat changes are listed in the verdict as notes; its computer players'
    files are checked, and what ``audit_problems`` finds is flagged)."""
    verdict = _replay(camp, turn, key, published)
    if record is not None:
        verdict.notes = [f"audit.log: dry run of turn {turn} at {d}" for d in record.dry_runs] + \
            [f"audit.log: a run of turn {turn} was rolled back at {r}" for r in record.rollbacks] + \
            [f"audit.log: {f}" for f in record.fixes] + \
            [f"audit.log: {late}" for _, late in sorted(record.late.items())] + verdict.notes  # + adjustments
    try:
        before = camp.load_state(turn)
    except PbemError:  # named by the replay already (a mismatch): no notes need it
        before = None
    if record is not None and record.stamp and before is not None:
        verdict.notes += audit_notes(camp, turn, before, record)
    if verdict.ok:
        verdict.flags = computer_player_problems(camp, turn, before, record)
        if record is not None and record.stamp:
            verdict.flags += audit_problems(camp, turn, before, record)
        verdict.ok = not verdict.flags
    verdict.detail += ran_with(turn, verdict, record)
    return verdict


def ran_with(turn: int, verdict: Verdict, record: TurnHistory | None) -> str:
    """The pbem version that ran ``turn``, as its `adjudicated turn` line names it (older lines: none, nothing
    said): after a turn that replays, and after a MISMATCH when this pbem is another version, with the version
    to verify it with (a turn replays byte for byte only with the pbem that ran it)."""
    from . import __version__
    ran = record.version if record is not None else None
    if not ran:
        return ""
    if verdict.ok or verdict.flags:
        return f"; run with pbem {ran}"
    if ran != __version__:
        return (f"; turn {turn} was run with pbem {ran} (audit.log), this is pbem {__version__}: verify it with pbem "
                f"{ran} (docs/moderator.md, \"Upgrading\")")
    return ""


def _replay(camp: Campaign, turn: int, key: bytes, published: bool) -> Verdict:
    try:
        return _replay_files(camp, turn, key, published)
    except (Damaged, PbemError) as exc:  # a damaged snapshot, log or order file: this turn cannot replay
        return Verdict(turn, False, str(exc))


def _replay_files(camp: Campaign, turn: int, key: bytes, published: bool) -> Verdict:
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
    log = adjudicate(after, camp.game_map, tables(), orders, Dice(seed_from_key(key, turn, hashes,
                                                                                 camp.dice_start(turn))))
    path = camp.snapshot_path(turn + 1)
    kept = first_fix(path)  # `pbem adjust` kept the adjudicated original
    adjusted = kept.is_file()
    stored_log = stored_text(log_path)
    stored_state = stored_text(kept if adjusted else path)
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
                                    f"{(kept if adjusted else path).name}")
    rolls = sum(1 for r in log.records if "roll" in r)
    said = adjustment_notes(camp, turn + 1, after) if adjusted else []
    note = adjusted_note("the result", said) if adjusted else ""
    return Verdict(turn, True, f"replayed exactly ({rolls} dice){note}", notes=said)


def adjusted_note(what: str, said: list[str]) -> str:
    """The verdict's words for a snapshot the moderator adjusted after it was written: the notes itemize ``said``
    (``adjustment_notes``); none found there, audit.log tells."""
    if not said:
        return f"; the moderator adjusted {what} afterwards (see audit.log)"
    return f"; the moderator adjusted {what} afterwards ({len(said)} adjustment{'' if len(said) == 1 else 's'}, in " \
           f"the notes)"


def adjustment_notes(camp: Campaign, snapshot: int, *states) -> list[str]:
    """Each `pbem adjust` of snapshot ``snapshot`` that stands (audit.log; a rollback's undone left out), item
    by item, with whom it touched and the moderator's reason: "audit.log: the moderator adjusted turn 5's start
    (the result of turn 4) at STAMP: corinth's gold +2 (to 32); sparta's SPA-A6 moved to 0716 (kept before: turn-005.fix-1.json); reason:
    ..."."""
    from .moderation import campaign_corrections
    out = []
    for c in campaign_corrections(camp, snapshot, *states):
        if c.turn != snapshot:
            continue
        items = []
        for item, who in zip(c.items, c.owners or [set()] * len(c.items)):
            owner = "/".join(sorted(who)) + "'s " if who and item[0] in ("moved", "removed") else ""
            if item[0] == "gold":
                items.append(f"{item[1]}'s gold {item[2]:+d} (to {item[3]})")
            elif item[0] == "moved":
                items.append(f"{owner}{item[1]} moved to {item[2]}")
            elif item[0] == "removed":
                items.append(f"{owner}{item[1]} removed")
            else:
                was = sorted(who - {item[2]})
                items.append(f"{item[1]} given to {item[2] or 'nobody'}" + (f" (was {was[0]}'s)" if was else ""))
        # listed under the turn whose result it changed: "turn 2" alone read as if under the wrong turn (a soak test)
        whose = f"the result of turn {c.turn - 1}" if c.turn > 1 else "the set-up"
        out.append(f"audit.log: the moderator adjusted turn {c.turn}'s start ({whose}) at {c.time}: "
                   f"{'; '.join(items)} (the state before kept as {c.kept}); reason: {c.reason}")
    return out


def setup_order(camp: Campaign) -> list[str]:
    """The players in the order `pbem new` was given them: the order of the first round of turn-order rolls in
    log/setup.jsonl (campaign.yaml lists them in the rolled turn order).  A log changed to give another order
    does not help: set-up is then re-run in that order and must give the same log and snapshot byte for byte."""
    first = [r.get("player") for r in camp.read_log(None)
             if r.get("purpose") == "turn order" and r.get("round") == 1]
    players = list(camp.config.get("players", []))
    return first if sorted(first) == sorted(players) else players


def verify_setup(camp: Campaign, secret: bytes) -> Verdict:
    """Re-run set-up (``pbem new``) from the seed, the players, the map and the options, and compare the result
    with ``state/turn-001.json`` and ``log/setup.jsonl`` byte for byte (R-TURN-6): a moderator who changed a
    player's gold, traits or hand after `pbem new` is caught here.  Verdict turn 0 is the set-up."""
    try:
        return _verify_setup(camp, secret)
    except (Damaged, PbemError) as exc:  # a damaged snapshot or log: set-up cannot be checked
        return Verdict(0, False, str(exc))


def _verify_setup(camp: Campaign, secret: bytes) -> Verdict:
    from .dice import setup_seed
    from .setup import new_campaign
    if 1 not in camp.snapshots():
        return Verdict(0, False, f"{camp.snapshot_path(1)}: missing; set-up cannot be checked")
    log_path = camp.log_path(None)
    if not log_path.is_file():
        return Verdict(0, False, f"{log_path}: missing; the set-up's dice cannot be checked")
    dice = Dice(setup_seed(secret))
    try:
        state = new_campaign(camp.config["name"], camp.game_map, tables(), setup_order(camp), dice,
                             dict(camp.config.get("options") or {}))
    except (PbemError, KeyError, TypeError, ValueError) as exc:
        return Verdict(0, False, f"set-up cannot be re-run from campaign.yaml ({exc})")
    records = dice.drain()
    new_log = "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in records)
    stored_log = stored_text(log_path)
    if new_log != stored_log:
        where = _first_difference(new_log.splitlines(), stored_log.splitlines())
        return Verdict(0, False, f"the set-up re-run from the seed differs from {log_path.name} at line "
                                 f"{where[0] if where else 0}: the log was changed after `pbem new`")
    path = camp.snapshot_path(1)
    kept = first_fix(path)  # `pbem adjust` of turn 1 kept the original
    stored = stored_text(kept if kept.is_file() else path)
    if state.to_json() != stored:
        mine = json.loads(state.to_json())
        try:
            theirs = json.loads(stored)
        except (ValueError, RecursionError) as exc:
            raise Damaged(f"{kept if kept.is_file() else path}: damaged (not JSON: "
                          f"{str(exc)[:100]})") from None
        what = _state_difference(mine, theirs)
        return Verdict(0, False, f"the set-up re-run from the seed differs from "
                                 f"{(kept if kept.is_file() else path).name}{what}: it was changed after "
                                 f"`pbem new` without `pbem adjust`")
    said = adjustment_notes(camp, 1, state) if kept.is_file() else []
    note = adjusted_note("it", said) if kept.is_file() else ""
    return Verdict(0, True, f"set-up re-run from the seed gives {path.name} and {log_path.name} exactly "
                            f"({len(records)} dice){note}", notes=said)


def _state_difference(mine: object, theirs: object, path: str = "") -> str:
    """Where two states first differ, as `` at players.athens.gold (47, set-up gives 7)``."""
    if isinstance(mine, dict) and isinstance(theirs, dict):
        for k in sorted(set(mine) | set(theirs), key=str):
            if mine.get(k) != theirs.get(k):
                return _state_difference(mine.get(k), theirs.get(k), f"{path}.{k}" if path else str(k))
        return ""
    if isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs):
        for i, (a, b) in enumerate(zip(mine, theirs)):
            if a != b:
                return _state_difference(a, b, f"{path}[{i}]")
        return ""
    return f" at {path} ({json.dumps(theirs)[:60]}, set-up gives {json.dumps(mine)[:60]})"


# -- the turn keys committed to at `pbem new` (turn-keys.txt) -------------------------------------------------

KEY_LINE = re.compile(r"(\d{1,3}) ([0-9a-f]{64})")
NEW_CAMPAIGN = re.compile(r"^\S+ new campaign .*; turn keys sha256 ([0-9a-f]{64})$")


@dataclass
class Commitments:
    """``turn-keys.txt``: per game turn the SHA-256 of its key, written by `pbem new`; ``fingerprint`` is the
    SHA-256 of the file, published with the seed's fingerprint."""
    path: Path
    hashes: dict[int, str]
    fingerprint: str

    @property
    def named(self) -> str:
        return f"{KEYS_FILE} (turn-key fingerprint sha256 {self.fingerprint})"


def commitments(camp: Campaign) -> Commitments | None:
    """The turn keys `pbem new` committed to; None for a campaign created before pbem wrote them.  A file that
    is not as `pbem new` writes it, or not the one audit.log's `new campaign` line names, is ``Damaged``."""
    path = camp.root / KEYS_FILE
    if not (path.exists() or path.is_symlink()):
        announced = _announced_keys(camp)
        if announced is not None:  # deleted: else a key of the moderator's choosing would only be replayed
            raise Damaged(f"{path}: missing, but audit.log's `new campaign` line records turn keys sha256 "
                          f"{announced[:16]}...: the file was removed after the campaign was created")
        return None
    if not path.is_file():
        raise Damaged(f"{path}: not a regular file")
    try:
        if path.stat().st_size > 1 << 16:  # 99 turns at most: some 7 KB
            raise Damaged(f"{path}: damaged (far too long for the turn keys of one campaign)")
        raw = path.read_bytes()
    except OSError as exc:
        raise Damaged(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Damaged(f"{path}: damaged (not UTF-8 text)") from None
    hashes: dict[int, str] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("#"):
            continue
        m = KEY_LINE.fullmatch(line)
        if not m or int(m.group(1)) != len(hashes) + 1:
            raise Damaged(f"{path}:{n}: damaged (after the comment, each line is a game turn and the SHA-256 of its "
                          f"key, `{len(hashes) + 1} <64 hex digits>`, turns 1, 2, 3 ... in order)")
        hashes[len(hashes) + 1] = m.group(2)
    found = Commitments(path, hashes, hashlib.sha256(raw).hexdigest())
    announced = _announced_keys(camp)
    if announced is not None and announced != found.fingerprint:
        raise Damaged(f"{path}: its sha256 is {found.fingerprint}, not the turn-key fingerprint `pbem new` recorded "
                      f"in audit.log ({announced}): the file was changed after the campaign was created")
    return found


def _announced_keys(camp: Campaign) -> str | None:
    """The turn-key fingerprint audit.log's `new campaign` line records, if it has one."""
    try:
        with open(camp.root / "audit.log", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if m := NEW_CAMPAIGN.match(line.rstrip("\n")):
                    return m.group(1)
                if " new campaign " in line:
                    return None
    except OSError:
        pass
    return None


def _missing_keys_note() -> str:
    return (f"{KEYS_FILE}: missing: this campaign was created before pbem committed to every turn's key at the "
            f"start, so a turn's key cannot be checked against the start of the campaign")


def replay_published(camp: Campaign, turn: int, key: bytes, record: TurnHistory | None = None) -> Verdict:
    """Replay ``turn`` with a key given by hand (`--key`), once it is found to be the key ``turn-keys.txt``
    committed to for the turn when the campaign was created: a key the moderator chose later (say the best of
    many tried on a copy of the campaign) is refused there, whatever its replay gives."""
    try:
        committed = commitments(camp)
    except Damaged as exc:
        return Verdict(turn, False, str(exc))
    if committed is None:  # an older campaign: replayed as before, and said so
        verdict = replay_turn(camp, turn, key, published=True, record=record)
        verdict.notes.insert(0, _missing_keys_note() + ": the key is only replayed")
        return verdict
    if turn not in committed.hashes:
        return Verdict(turn, False, f"the key does not fit turn {turn}: {committed.named} commits to the keys of "
                                    f"turns 1..{len(committed.hashes)} only, set when the campaign was created")
    if key_commitment(key) != committed.hashes[turn]:
        return Verdict(turn, False, f"the key does not fit turn {turn}: its sha256 is not the one {committed.named} "
                                    f"holds for turn {turn}")
    verdict = replay_turn(camp, turn, key, published=True, record=record)
    if verdict.ok or verdict.flags:
        verdict.detail += (f"; the key is the one {committed.named} holds for turn {turn} (compare that fingerprint "
                           f"with the one published at the start)")
    return verdict


def check_commitments(camp: Campaign, secret: bytes, setup: Verdict) -> None:
    """Add to the set-up's verdict whether ``turn-keys.txt`` holds the seed's keys of turns 1..last turn: with the
    seed, a file that committed to other keys is caught."""
    try:
        committed = commitments(camp)
    except Damaged as exc:
        setup.ok, setup.detail = False, (f"{setup.detail}; " if not setup.ok else "") + str(exc)
        return
    if committed is None:
        setup.notes.insert(0, _missing_keys_note())
        return
    problem = next((f"{committed.path}:{t + 1}: turn {t}'s line is not the SHA-256 of the seed's key of turn {t}: "
                    f"the file was not written by `pbem new` with this seed" for t, h in committed.hashes.items()
                    if key_commitment(turn_key(secret, t)) != h), None)
    try:
        last = camp.load_state(1).last_turn
    except PbemError:
        last = None  # named by the set-up's verdict already
    if problem is None and last is not None and len(committed.hashes) != last:
        problem = (f"{committed.path}: commits to the keys of turns 1..{len(committed.hashes)}, but the game's last "
                   f"turn is {last}: the file was not written by `pbem new` for this campaign")
    if problem:
        setup.ok, setup.detail = False, (f"{setup.detail}; " if not setup.ok else "") + problem
    elif setup.ok:
        setup.detail += f"; {committed.named} holds the seed's keys of turns 1..{len(committed.hashes)}"


def check_keys_fingerprint(camp: Campaign, fingerprint: str) -> str:
    """Compare ``turn-keys.txt`` with the turn-key fingerprint noted when the campaign began (``pbem new`` records
    it): the file travels with the archive and proves nothing about the start by itself."""
    given = fingerprint.strip().lower().removeprefix("sha256").strip(" :")
    if not re.fullmatch(r"[0-9a-f]{64}", given):
        raise UsageError("--keys-fingerprint: write the turn-key fingerprint as it was published at the start "
                         "(64 hex digits)")
    try:
        committed = commitments(camp)
    except Damaged as exc:
        raise CampaignError(str(exc)) from None
    if committed is None:
        raise CampaignError(f"{camp.root / KEYS_FILE}: missing, so the turn keys cannot be checked against the "
                            f"turn-key fingerprint given ({given[:16]}...)")
    if committed.fingerprint != given:
        raise CampaignError(f"{committed.path}: its sha256 is {committed.fingerprint}, not the turn-key fingerprint "
                            f"given ({given}): these are not the turn keys the campaign was announced with")
    return f"{KEYS_FILE}'s sha256 is the turn-key fingerprint given ({given[:16]}...)"


def check_fingerprint(camp: Campaign, secret: bytes, fingerprint: str) -> str:
    """Compare the seed with the fingerprint the players noted when the campaign began (``pbem new`` prints it):
    campaign.yaml's own ``seed_sha256`` travels with the archive and proves nothing about the start."""
    given = fingerprint.strip().lower().removeprefix("sha256").strip(" :")
    if not re.fullmatch(r"[0-9a-f]{64}", given):
        raise UsageError("--fingerprint: write the seed fingerprint as `pbem new` printed it (64 hex digits)")
    actual = seed_fingerprint(secret)
    if actual != given:
        # whole: a typo is most likely near the end, where 16 digits of each looked the same (a moderator's review)
        raise CampaignError(f"the seed's sha256 is {actual}, not the fingerprint given ({given}): this is not the "
                            f"seed the campaign was announced with")
    return f"the seed's sha256 is the fingerprint given ({given[:16]}...)"


def verify(camp: Campaign, turn: int | None = None, key_hex: str | None = None,
           fingerprint: str | None = None, keys_fingerprint: str | None = None) -> list[Verdict]:
    """Replay the adjudicated turns (``turn``: that one only) with the seed, or ``turn`` with its published key
    (``key_hex``, checked first against turn-keys.txt); ``fingerprint`` / ``keys_fingerprint``: the seed's and
    the turn keys' fingerprints noted at the start, checked first (verdict turns -1 and -2)."""
    snaps = camp.snapshots()
    done = [t for t in snaps if t + 1 in snaps]
    if turn is not None and turn not in done:
        raise UsageError(f"turn {turn} has not been adjudicated (adjudicated: {', '.join(map(str, done)) or 'none'})")
    if key_hex is not None:
        if fingerprint is not None:
            raise UsageError("--fingerprint checks the revealed seed; a turn's key does not tell it")
        if turn is None:
            raise UsageError("--key belongs to one turn: give --turn too")
        try:
            key = bytes.fromhex(key_hex.strip())
            if len(key) != 32:
                raise ValueError
        except ValueError:
            raise UsageError("--key: write the turn key as printed by `pbem turn-key` (64 hex digits)") from None
        noted = [Verdict(-2, True, check_keys_fingerprint(camp, keys_fingerprint))] if keys_fingerprint else []
        return noted + [replay_published(camp, turn, key, record=history(camp).get(turn))]
    secret = secret_of(camp)
    if secret is None:
        from .moderation import unpacked_hint
        raise UsageError("no seed to verify with: give --turn and --key (from `pbem turn-key`), or the archive "
                         "must hold revealed-seed.txt" + unpacked_hint(camp.root))
    published_fp = camp.config.get("seed_sha256")
    if published_fp and seed_fingerprint(secret) != published_fp:
        source = camp.root / "revealed-seed.txt"
        source = source if source.exists() else camp.secret_dir / "seed"
        raise CampaignError(f"{source}: not this campaign's seed (its sha256 is not campaign.yaml's seed_sha256 "
                            f"{published_fp[:16]}...)")
    records = history(camp)
    checked: list[Verdict] = []
    if fingerprint is not None:
        checked.append(Verdict(-1, True, check_fingerprint(camp, secret, fingerprint)))
    if keys_fingerprint is not None:
        checked.append(Verdict(-2, True, check_keys_fingerprint(camp, keys_fingerprint)))
    if turn is None:
        setup = verify_setup(camp, secret)
        check_commitments(camp, secret, setup)
        checked.append(setup)
    return checked + [replay_turn(camp, t, turn_key(secret, t), record=records.get(t))
            for t in ([turn] if turn is not None else done)]


def published_key(camp: Campaign, turn: int) -> str:
    """The key of an adjudicated turn, to publish (never of the current or a future turn)."""
    if turn < 1 or turn + 1 not in camp.snapshots():
        raise UsageError(f"turn {turn} has not been adjudicated; its key would tell its dice in advance")
    key = turn_key(camp.secret_seed(), turn)
    try:
        committed = commitments(camp)
    except Damaged as exc:
        raise CampaignError(f"{exc}; a key published now could not be checked against it") from None
    if committed is not None and turn not in committed.hashes:
        raise CampaignError(f"{committed.path} commits to the keys of turns 1..{len(committed.hashes)} only: a key "
                            f"of turn {turn} published now would not fit it; nothing was published")
    if committed is not None and committed.hashes[turn] != key_commitment(key):
        raise CampaignError(f"{committed.path}: turn {turn}'s line is not the SHA-256 of this seed's key of turn "
                            f"{turn}: the seed or the file is not the one `pbem new` made, and a key published now "
                            f"would not fit it; nothing was published")
    return key.hex()
