"""The audit.log lines more than one module reads back, as patterns: `verify` replays a campaign's history from
them, and `run-turn` (``pbem.cycle.recorded_files``) asks which order file each player's was when it was stored.
One spelling here, so readers cannot drift apart from the lines intake, the turn, rollback, seat, deadline and adjust
write."""
from __future__ import annotations

import re

# each is matched at the start of an audit line, after its time stamp, so no file name can forge one
KEY_PUBLISHED = re.compile(r"^\S+ turn key of turn (\d+) published$", re.M)  # `pbem turn-key`; rollback reads it
# `run-turn`, `adjudicate`: (turn, order hash prefixes, computer players, start position, the pbem version that ran
# it (group 5; lines an earlier pbem wrote name none))
ADJUDICATED = re.compile(r"^\S+ adjudicated turn (\d+); orders ([^\s;]+)(?: \(computer players ([^\s;)]+)\))?"
                         r"(?:; start sha256 ([0-9a-f]{64}))?(?:; pbem (\S+))?")
ACCEPTED = re.compile(r"^\S+ intake accepted .* for (\S+) turn (\d+) \(sha256 ([0-9a-f]{12,64})\)( as a moderator's fix)?"
                      r"(?:, forced after (.*))?$")
# the refusal of a player's file that the moderator may still take (late, a held turn, a computer seat, the version
# limit): its SHA-256 (16 digits or more) right after "intake refused," -- a name always follows "refused " with a
# space, so no file name can forge it -- then the name as sent (no colon: check_name refuses one)
REFUSED_SENT = re.compile(r"^\S+ intake refused, file sha256 ([0-9a-f]{16,64}), ([^:]+): ")
# `pbem rollback`: (time stamp, turn, first and last turn whose run was undone (older lines: none), archive folder,
# reason)
ROLLBACK = re.compile(r"^(\S+) rollback to turn (\d+) \((?:undone: the run of turns? (\d+)(?:\.\.(\d+))?; )?later turns "
                      r"moved to ([^\s;)]+)(?:; adjustments lost: .*?)?\): (.*)$")
# `pbem deadline`, and the next turn's deadline `run-turn` sets (or `adjudicate` clears): turn, "YYYY-MM-DD HH:MM"
# (UTC) | turn of a cleared one.  Verify judges files late by it; rollback gives a turn back its own.
DEADLINE = re.compile(r"^\S+ deadline of turn (\d+) set to (\d{4}-\d{2}-\d{2} \d{2}:\d{2}) UTC$|"
                      r"^\S+ deadline of turn (\d+) cleared")
# the clause a `seat` audit line carries when it set a file aside (matched right after the seat's own words, so
# no reason written after it can forge one): player, turn, the file's sha256 prefix, where it went
SEAT_SET_ASIDE = re.compile(r"^\S+ seat of (\S+) set to (?:bot|human); the faction's secret was replaced; \S+'s file "
                            r"for turn (\d+) \(sha256 ([0-9a-f]{16,64})\)[^;:]*, set aside as ([^\s:;]+)")
# `pbem adjust`: "<time> adjust turn N (<item>; <item>...), previous kept as turn-00N.fix-K.json: <reason>";
# (time stamp, turn, items, the kept state's file name, reason); each item one of "<player> gold +2 -> 32",
# "<unit> moved to <hex>", "<unit> removed", "<city> controlled by <player or nobody>"
ADJUSTED = re.compile(r"^(\S+) adjust turn (\d+) \((.*?)\), previous kept as (turn-\d{3}\.fix-\d+\.json): (.*)$")
# `pbem seat`: player, the seat (bot | human); `run-turn`: the turn, the computer players (comma-separated)
SEAT = re.compile(r"^\S+ seat of (\S+) set to (bot|human)")
RUN_TURN = re.compile(r"^\S+ run-turn (\d+)(?: \(forced\))?(?:; computer players: (\S+))?")
# in an `intake accepted NAME (...) for P turn T` line: a moderator's fix that is the very file every rolled-back run
# of the turn played (the same dice: it needed no --force)
PLAYED_BY_UNDONE_RUN = "the file the rolled-back run played"


def run_versions(audit_text: str) -> dict[int, str | None]:
    """Per game turn whose run stands (a rollback to turn R undoes the runs of R and later), the pbem version its
    last `adjudicated turn` line names; None for a line written by a pbem that did not name it."""
    out: dict[int, str | None] = {}
    for line in audit_text.splitlines():
        if m := ADJUDICATED.match(line):
            out[int(m.group(1))] = m.group(5)
        elif m := ROLLBACK.match(line):
            for t in [t for t in out if t >= int(m.group(2))]:
                del out[t]
    return out


def versions_run(root) -> dict[int, str | None]:
    """``run_versions`` of the campaign folder ``root``'s audit.log ({} if it cannot be read): what the
    upgrade note (``cycle.upgrade_note``) and ``verify`` read of it."""
    from pathlib import Path
    try:
        text = (Path(root) / "audit.log").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    return run_versions(text)


def version_key(version: str) -> tuple[int, ...]:
    """A version's numbers, to tell which of two is newer: "0.10.1" -> (0, 10, 1); anything after them (a
    "rc1", a "+local") is left out."""
    m = re.match(r"\d+(?:\.\d+)*", str(version).strip())
    return tuple(int(n) for n in m.group(0).split(".")) if m else ()
