"""The moderator's corrections, each with an audit-log line and nothing lost.

- ``rollback``: go back to the start of an earlier game turn; later snapshots, logs, reports and order files
  are moved to ``archive/rollback-N/``, never deleted.  The turn is held until the moderator fixes an order
  file (``submit --fix``) and runs it with ``run-turn --force``: the dice follow from the orders (R-TURN-6),
  so unchanged orders replay exactly.
- ``adjust``: change the current snapshot by hand (gold, a unit's hex, remove a unit, a city's controller),
  keeping the previous file as ``state/turn-NNN.fix-K.json``.  The reason is required.
- ``archive``: pack the finished campaign into one ``.tar.gz``; optionally reveal the secret seed so players
  can verify every die.
"""
from __future__ import annotations

import json
import os
import re
import tarfile
import tempfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Sequence

from .auditlog import ADJUDICATED, ADJUSTED, KEY_PUBLISHED, ROLLBACK
from .errors import CampaignError, PbemError, UsageError
from .invariants import violations
from .gamedata import GameMap, tables
from .model import GameState, Unit, UnitType
from .storage import Campaign, closed, default_mode, failed, held_interrupts, refuse_if_closed, unchanged


MAX_GOLD = 100_000  # far beyond any game; stops a typo such as +10000000000 from reaching the reports


def _next_free(base: Path, stem: str) -> Path:
    n = 1
    while (base / f"{stem}-{n}").exists():
        n += 1
    return base / f"{stem}-{n}"


@dataclass
class RolledBack:
    """What ``rollback`` did: where the later files went, and the hand adjustments (``pbem adjust``) of later
    turns that are gone with them (one description each)."""
    dest: Path
    lost_adjustments: list[str] = field(default_factory=list)
    deadline: "datetime | None" = None  # the turn's own deadline, given back to it (audit.log)
    deadline_known: bool = False  # audit.log recorded one (else the turn has none now: the moderator sets one)
    seats_changed: list[str] = field(default_factory=list)  # seats not as at the turn's run (``seats_changed_since_run``)
    keys_published: list[int] = field(default_factory=list)  # reopened turns whose key is out (``keys_published``)


FIX_FILE = re.compile(r"^turn-(\d{3})\.fix-\d+\.json$")
TURN_DIR = re.compile(r"^turn-(\d{3})$")


# -- the corrections read back (the players' reports and verify tell them) -------------------------------------

# adjust() writes the line auditlog.ADJUSTED reads; its items, one by one:
ADJUST_ITEMS = (("gold", re.compile(r"^(\S+) gold ([+-]\d+) -> (-?\d+)$")),
                ("moved", re.compile(r"^(\S+) moved to (\S+)$")),
                ("removed", re.compile(r"^(\S+) removed$")),
                ("control", re.compile(r"^(\S+) controlled by (\S+)$")))


@dataclass
class Correction:
    """One `pbem adjust`: made to the snapshot of the start of game turn ``turn``; ``items`` as (kind, *values):
    ("gold", player, delta, now), ("moved", unit, hex), ("removed", unit), ("control", city, player or None);
    ``owners``: the player each item touches (a unit's owner, a city's controller before and after)."""

    time: str
    turn: int
    items: list[tuple[Any, ...]]
    reason: str
    kept: str
    owners: list[set[str]] = field(default_factory=list)


def read_corrections(audit_text: str) -> list[Correction]:
    """The adjustments audit.log records that still stand: a rollback to turn R archives the snapshots after R
    with the adjustments made to them (``moderation.rollback``), so those are dropped."""
    out: list[Correction] = []
    for line in audit_text.splitlines():
        rb = ROLLBACK.match(line)
        if rb:
            out = [c for c in out if c.turn <= int(rb.group(2))]
            continue
        m = ADJUSTED.match(line)
        if not m:
            continue
        items: list[tuple[Any, ...]] = []
        for part in m.group(3).split("; "):
            for kind, pat in ADJUST_ITEMS:
                im = pat.match(part)
                if im:
                    v = im.groups()
                    if kind == "gold":
                        items.append(("gold", v[0], int(v[1]), int(v[2])))
                    elif kind == "control":
                        items.append(("control", v[0], None if v[1] == "nobody" else v[1]))
                    else:
                        items.append((kind, *v))
                    break
        out.append(Correction(m.group(1), int(m.group(2)), items, m.group(5).strip(), m.group(4)))
    return out


def campaign_corrections(camp: Campaign, turn: int, *states: GameState | None) -> list[Correction]:
    """The corrections that touch game ``turn``'s report: those made before it was run (to snapshot ``turn``)
    and after (to snapshot ``turn + 1``, when the report is written again), each with whom it touches: a
    unit's owner and a city's controller in the snapshot kept before the change (else in ``states``)."""
    try:
        text = (camp.root / "audit.log").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    out = [c for c in read_corrections(text) if c.turn in (turn, turn + 1)]
    for c in out:
        try:
            kept = json.loads((camp.root / "state" / c.kept).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            kept = {}
        resolve_owners(c, kept if isinstance(kept, dict) else {}, states)
    return out


def resolve_owners(c: Correction, kept: dict[str, Any], states: Sequence[GameState | None]) -> None:
    """Fill ``c.owners``: for each item the players it touches."""
    units = kept.get("units") if isinstance(kept.get("units"), dict) else {}
    cities = kept.get("cities") if isinstance(kept.get("cities"), dict) else {}
    c.owners = []
    for item in c.items:
        kind, what = item[0], item[1]
        who: set[str] = set()
        if kind == "gold":
            who.add(what)
        elif kind in ("moved", "removed"):
            u = units.get(what)
            owner = u.get("owner") if isinstance(u, dict) else None
            for st in states:
                if owner is None and st is not None and what in st.units:
                    owner = st.units[what].owner
            if owner is None:  # no state has it: its id's prefix names its player
                owner = next((p.id for st in states if st is not None for p in st.players.values()
                              if what.startswith(f"{p.abbr}-")), None)
            if owner:
                who.add(owner)
        elif kind == "control":
            city = cities.get(what)
            was = city.get("controller") if isinstance(city, dict) else None
            who.update(x for x in (was, item[2]) if x)
        c.owners.append(who)



def _adjustments_after(camp: Campaign, turn: int) -> tuple[list[Path], list[str]]:
    """The fix files `pbem adjust` kept for snapshots after ``turn``, and what each adjustment did (audit.log)."""
    state_dir = camp.root / "state"
    files = sorted(p for p in state_dir.iterdir() if (m := FIX_FILE.match(p.name)) and int(m.group(1)) > turn) \
        if state_dir.is_dir() else []
    said: dict[str, str] = {}
    try:
        for line in (camp.root / "audit.log").read_text(encoding="utf-8", errors="replace").splitlines():
            m = ADJUSTED.match(line)
            if m and int(m.group(2)) > turn:
                said[m.group(4)] = f"turn {int(m.group(2))}: {m.group(3)}"
    except OSError:
        pass
    return files, [said.get(p.name, f"turn {int(p.name[5:8])}: see {p.name}") for p in files]


def _turn_dirs_after(base: Path, turn: int) -> list[Path]:
    return sorted(p for p in base.iterdir() if (m := TURN_DIR.match(p.name)) and int(m.group(1)) > turn) \
        if base.is_dir() else []


def rollback(camp: Campaign, turn: int, reason: str) -> RolledBack:
    """``_rollback`` with Ctrl-C held until it is done (``storage.held_interrupts``), as every change is: a
    Ctrl-C between a move and its record left a snapshot stranded in the archive, or the audit line of a
    rollback that was put back (a Ctrl-C sweep)."""
    from .storage import held_interrupts
    with held_interrupts():
        return _rollback(camp, turn, reason)


def _rollback(camp: Campaign, turn: int, reason: str) -> RolledBack:
    """Make ``turn`` the current turn again, held until the moderator runs it with ``--force``.

    Moved to ``archive/rollback-N/`` (never deleted): the snapshots after ``turn`` with the fix files
    `pbem adjust` kept for them, the logs and reports of ``turn`` and later, and the order files and replies of
    the turns after ``turn`` (a discarded timeline: players send new files for them, the computer players'
    are written anew).  The order files of ``turn`` itself stay, frozen (R-TURN-6): only `submit --fix`
    replaces one.  Every move is one ``os.rename`` in the same folder tree, so it is whole or not done; if one
    fails, every move made is put back and the error names the path."""
    if not reason.strip():
        raise UsageError("--reason: say why (it goes in the audit log)")
    refuse_if_closed(camp.root, "no turn is rolled back")
    snaps = camp.snapshots()
    if turn not in snaps:
        raise UsageError(f"turn {turn}: no snapshot (have {snaps[0]}..{snaps[-1]})")
    if turn == snaps[-1]:
        raise UsageError(f"turn {turn} is already the current turn")
    dest = _next_free(camp.root / "archive", "rollback")
    fixes, lost = _adjustments_after(camp, turn)
    from .cycle import STORED, config_with, deadline_of
    known, own_deadline = deadline_of(camp, turn)  # the deadline in force is the next turn's: give back its own
    moves = [(camp.snapshot_path(t), dest / "state" / camp.snapshot_path(t).name) for t in snaps if t > turn]
    moves += [(p, dest / "state" / p.name) for p in fixes]
    for t in range(turn, snaps[-1]):
        moves += [(src, dest / src.relative_to(camp.root)) for src in (camp.log_path(t), camp.reports_dir(t))
                  if src.exists() or src.is_symlink()]
    for top in ("orders", "replies"):
        moves += [(src, dest / top / src.name) for src in _turn_dirs_after(camp.root / top, turn)]
    from .intake import FROZEN, frozen_marker, seen_starts, start_hash
    marker = camp.orders_dir(turn) / FROZEN  # adjudicated: its files stay as they were

    def marker_for(t: int, run: bool) -> str | None:
        """Turn ``t``'s marker after this rollback: every start position a run of it was undone from (this run
        added when ``run``).  Its results may have been seen, so when ``t`` is reached again from one of those
        positions it is locked (`intake.frozen`); from another position it is a new turn, open to the players.
        A marker without positions (older pbem) is kept as it is: it locks whatever the position."""
        old = camp.orders_dir(t) / FROZEN
        text = old.read_bytes().decode("utf-8", "replace") if old.is_file() else None  # damaged: still a lock
        starts = seen_starts(text) if text is not None else []
        if text is not None and not starts:
            return frozen_marker(reason, []) if t == turn else text
        now = start_hash(camp, t) if run else None
        if now is not None and now not in starts:
            starts.append(now)
        if not starts and t != turn:
            return None
        first = text.splitlines()[0].removeprefix("rolled back: ") if text is not None and t != turn else reason
        return frozen_marker(first, starts)

    marker_text = marker_for(turn, True) or frozen_marker(reason, [])
    # the later turns whose run is undone too (or was undone by an earlier rollback); the current turn was not run
    later = {t: text for t in range(turn + 1, snaps[-1] + 1) if (text := marker_for(t, t < snaps[-1])) is not None}
    last_run = snaps[-1] - 1
    done: list[tuple[Path, Path]] = []
    made_dirs: list[Path] = []

    def mkdirs(folder: Path) -> None:
        missing = []
        while not folder.exists():
            missing.append(folder)
            folder = folder.parent
        for d in reversed(missing):
            try:
                d.mkdir()
            except OSError as exc:
                raise CampaignError(f"{d}: cannot be made ({exc.strerror or exc}); nothing was rolled back") \
                    from None
            made_dirs.append(d)
    try:
        for src, target in moves:
            mkdirs(target.parent)
            try:
                os.rename(src, target)  # never copy and delete: a failed move leaves the file where it was
            except OSError as exc:
                raise CampaignError(f"{src}: cannot be moved to {target.relative_to(camp.root)} "
                                    f"({exc.strerror or exc}); nothing was rolled back") from None
            done.append((src, target))
        markers = [(marker, marker_text)] + [(camp.orders_dir(t) / FROZEN, text) for t, text in sorted(later.items())]
        for path, _ in markers:
            mkdirs(path.parent)
        undone = f"turn {turn}" if last_run == turn else f"turns {turn}..{last_run}"
        try:  # the markers, the turn's own deadline and the audit line together (``Campaign.change``)
            camp.change(f"rollback to turn {turn} (undone: the run of {undone}; later turns moved to "
                        f"{dest.relative_to(camp.root)}" + (f"; adjustments lost: {'; '.join(lost)}" if lost else "")
                        + f"): {reason}", markers,
                        config=config_with(camp, deadline=own_deadline.strftime(STORED) if own_deadline else None))
        except OSError as exc:
            raise CampaignError(f"{failed(exc, camp.root)}; nothing was rolled back") from None
    except BaseException:
        # Whole or not at all: put back what was moved (renames in one folder tree), so the campaign is as it was.
        stuck = []
        for src, target in reversed(done):
            try:
                os.rename(target, src)
            except OSError:
                stuck.append(f"{target} (belongs at {src})")
        for d in reversed(made_dirs):  # only folders this rollback made, and only if empty
            try:
                d.rmdir()
            except OSError:
                pass
        if stuck:
            raise CampaignError(f"the rollback failed and could not put back {', '.join(stuck)}: move it back "
                                f"by hand") from None
        raise
    return RolledBack(dest, lost, own_deadline, known, seats_changed_since_run(camp, turn),
                      keys_published(camp, turn))


def seats_changed_since_run(camp: Campaign, turn: int) -> list[str]:
    """The players whose seat (computer player or not) is not what it was at the last run of ``turn`` (its
    audit.log line names the computer players), after a rollback to ``turn``."""
    try:
        text = (camp.root / "audit.log").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    runs = [m for line in text.splitlines() if (m := ADJUDICATED.match(line)) and int(m.group(1)) == turn]
    if not runs:
        return []
    then = set((runs[-1].group(3) or "").split(",")) - {""}
    seats = camp.config.get("seats") or {}
    now = {p for p, s in seats.items() if s == "bot"}
    return sorted(then ^ now)


def keys_published(camp: Campaign, turn: int) -> list[int]:
    """The game turns from ``turn`` on whose key `pbem turn-key` published (audit.log), in order."""
    try:
        text = (camp.root / "audit.log").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    found = {int(m.group(1)) for m in KEY_PUBLISHED.finditer(text)}
    return sorted(t for t in found if t >= turn)


def article(noun: str) -> str:
    """"an army", "a fleet": the noun with its indefinite article."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _placement_problem(state: GameState, game_map: GameMap, unit: Unit, h: str) -> str | None:
    """Why ``unit`` may not stand on hex ``h`` (terrain, or another player's units there), or None."""
    terrain = game_map.terrain[h]
    if not game_map.passable(h):
        return f"{h} is {terrain.name} (impassable)"
    carrier = state.units.get(unit.carried_by) if unit.carried_by else None
    aboard = carrier is not None and carrier.hex == h
    if unit.type.is_ship:
        if not game_map.ship_may_enter(h):
            return (f"{h} is {terrain.name}: {article(unit.type.value)} may only be on Water or a coastal City, Sandy "
                    f"Coast or Fishing Villages hex")
    elif unit.type is not UnitType.PIRATE and game_map.is_water(h) and not aboard:
        return f"{h} is {terrain.name}: {article(unit.type.value)} must be on land (or aboard a ship)"
    others = sorted({u.owner or "neutral" for u in state.units_at(h) if u.owner != unit.owner})
    if others:
        return f"{h} holds units of {', '.join(others)}"
    return None


def adjust(camp: Campaign, reason: str, gold: dict[str, int] | None = None, move: dict[str, str] | None = None,
           remove: list[str] | None = None, control: dict[str, str | None] | None = None) -> list[str]:
    """Hand corrections to the current snapshot; returns what was done.  Refuses a change that breaks an
    invariant (negative gold, over-stacking, ...)."""
    if not reason.strip():
        raise UsageError("--reason: say why (it goes in the audit log)")
    refuse_if_closed(camp.root, "no correction is taken")
    state = camp.load_state()
    if state.finished:  # the result was judged on the last turn's outcome: a change now would not judge it again
        raise UsageError(f"the game is over (after turn {state.turn - 1}): a correction of the final position would "
                         f"not judge the victory again; to mend the last turn, roll it back (`pbem rollback "
                         f"{camp.root} {state.turn - 1} --reason ...`), fix it and run it again; nothing was changed")
    game_map = camp.game_map
    done: list[str] = []
    for pid, delta in (gold or {}).items():
        if pid not in state.players:
            raise UsageError(f"--gold {pid}: not a player ({', '.join(state.turn_order)})")
        state.players[pid].gold += delta
        if state.players[pid].gold > MAX_GOLD:
            raise UsageError(f"--gold {pid}={delta:+d}: that makes {state.players[pid].gold} gold; a treasury holds "
                             f"at most {MAX_GOLD}")
        done.append(f"{pid} gold {delta:+d} -> {state.players[pid].gold}")
    for uid, h in (move or {}).items():
        if uid not in state.units:
            raise UsageError(f"--move {uid}: no such unit")
        if h not in game_map.terrain:
            raise UsageError(f"--move {uid}={h}: not a hex of the map")
        unit = state.units[uid]
        for u in [unit] + [c for c in state.units.values() if c.carried_by == uid]:
            state.place(u, h)
        done.append(f"{uid} moved to {h}")
    for uid in remove or []:
        if uid not in state.units:
            raise UsageError(f"--remove {uid}: no such unit")
        for c in [c for c in state.units.values() if c.carried_by == uid]:
            c.carried_by = None
        state.remove_unit(uid)
        done.append(f"{uid} removed")
    for cid, who in (control or {}).items():
        if cid not in state.cities:
            raise UsageError(f"--control {cid}: no such city")
        if who is not None and who not in state.players:
            raise UsageError(f"--control {cid}={who}: not a player (write 'neutral' for nobody)")
        state.cities[cid].controller = who
        if who is None:
            state.cities[cid].hostile = False
        done.append(f"{cid} controlled by {who or 'nobody'}")
    if not done:
        raise UsageError("nothing to adjust: give --gold, --move, --remove or --control")
    for uid, h in (move or {}).items():  # where every moved unit ends up, once all the changes are made
        if uid in state.units:
            problem = _placement_problem(state, game_map, state.units[uid], h)
            if problem:
                raise UsageError(f"--move {uid}={h}: refused, {problem}; nothing was changed")
    bad = violations(state, game_map, tables())
    if bad:
        raise UsageError("refused, the state would break: " + "; ".join(bad))
    path = camp.snapshot_path(state.turn)
    keep = path.with_name(f"{path.stem}.fix-{len(list(path.parent.glob(path.stem + '.fix-*.json'))) + 1}.json")
    with held_interrupts(), unchanged(camp, "the correction was not made"):  # the kept original, the new
        camp.change(f"adjust turn {state.turn} ({'; '.join(done)}), previous kept as {keep.name}: {reason}",
                    [(keep, path.read_bytes()), (path, state.to_json())])  # snapshot and the audit line together
    return done


def live_secret_files(camp: Campaign) -> list[Path]:
    """Stored order files that still hold a player's current secret (stored before pbem withheld secrets, see
    ``intake.withhold``): anyone holding the archive could send orders as that player."""
    try:
        live = [s.encode("utf-8") for s in camp.player_secrets().values() if s]
    except PbemError:
        return []
    found = []
    for top in ("orders", "archive"):
        base = camp.root / top
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*.yaml")):
            try:
                raw = path.read_bytes() if path.is_file() and not path.is_symlink() else b""
            except OSError:
                continue
            if any(s in raw for s in live):
                found.append(path)
    return found


def writable_target(out: Path) -> None:
    """Refuse to write a file the user named (``-o``) in place of anything but a plain file: the file is
    written beside it and renamed over it, which would turn a link, a device (`-o /dev/null` as root) or a pipe
    into a plain file."""
    if out.is_symlink():
        raise UsageError(f"{out}: is a link; name a plain file (the link would be replaced, not written through)")
    if out.is_dir():
        raise UsageError(f"{out}: is a folder; name a file")
    if out.exists() and not out.is_file():
        raise UsageError(f"{out}: is not a regular file (a device, pipe or socket); name a plain file")


def unpacked_archive(root: Path) -> bool:
    """Whether the campaign folder ``root`` looks like one unpacked from `pbem archive`: campaign.yaml and no
    ``secret/`` folder (the archive leaves it out, by design)."""
    secret = Path(root) / "secret"
    return (Path(root) / "campaign.yaml").is_file() and not (secret.exists() or secret.is_symlink())


def unpacked_hint(root: Path, run: str = "run it") -> str:
    """The words added to an error about a missing secret in a folder ``unpacked_archive`` finds (a moderator's
    review: "secret/players.yaml: no such file" said nothing of why, nor what to do)."""
    if not unpacked_archive(root):
        return ""
    return (f" (this looks like a campaign unpacked from `pbem archive`, which leaves secrets out: copy the "
            f"campaign's secret/ folder back in to {run}; verify it with a published turn key, `--turn T --key K`, "
            f"or once the seed is revealed (revealed-seed.txt, checked with --fingerprint))")


def default_archive(camp: Campaign) -> Path:
    return camp.root.parent / f"{camp.root.name}-archive.tar.gz"


def archive(camp: Campaign, out: Path | None = None, reveal_seed: bool = False, replace: bool = False,
            abandon: bool = False, reports: bool = True) -> Path:
    """One .tar.gz of the campaign folder (secret player secrets left out; the seed only if revealed).  The
    archive is written whole or not at all, and the audit line only once it is.  An existing file is replaced
    only with ``replace`` (`--force`): it may be the archive handed to a referee, or another file.  Without
    ``reports`` (`--without-reports`) the ``reports/`` folder is left out: most of a campaign's size (about
    1 MB a player a turn), and `pbem report DIR --turn N` writes any turn's reports again from the snapshots
    and logs the archive keeps."""
    state = camp.load_state()
    out = Path(out) if out else default_archive(camp)
    if not out.parent.is_dir():
        raise UsageError(f"{out}: the folder {out.parent} does not exist")
    writable_target(out)
    if out.exists() and not replace:
        raise UsageError(f"{out}: exists already; give --force to replace it, or -o to name another file")
    if abandon and not reveal_seed:
        raise UsageError("--abandon goes with --reveal-seed (closing a campaign stopped before its end)")
    if reveal_seed:
        if not state.finished and not abandon:
            raise UsageError("--reveal-seed: the game is not over; revealing the seed now would show every "
                             "future die (a campaign stopped for good: add --abandon)")
        seed = camp.secret_seed()
        try:
            with held_interrupts():  # the seed and its audit line together
                camp.change("secret seed revealed (revealed-seed.txt)" + (
                    f"; campaign abandoned at turn {state.turn}: no more turns" if not state.finished else ""),
                    [(camp.root / "revealed-seed.txt", seed.hex() + "\n")])
        except OSError as exc:
            raise CampaignError(f"{failed(exc, camp.root)}; the seed was not revealed, no archive was made and "
                                f"nothing was changed: fix that, then run it again") from None

    def keep(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
        parts = Path(info.name).parts
        if len(parts) > 1 and parts[1] in ("secret", ".lock"):
            return None
        if not reports and len(parts) > 1 and (parts[1] == "reports" or (  # the reports a rollback moved aside too
                parts[1] == "archive" and len(parts) > 3 and parts[3] == "reports")):
            return None
        return info
    # the folder itself, the same archive whatever path names it: given a link to the campaign folder, tar would
    # store the link alone (a moderator's review: a 229-byte "archive", "Archived to ...", exit 0)
    real = camp.root.resolve()
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
    os.close(fd)
    try:
        with open(tmp, "wb") as fh:
            with tarfile.open(fileobj=fh, mode="w:gz") as tar:
                tar.add(real, arcname=real.name, filter=keep)
            fh.flush()
            os.fsync(fh.fileno())  # a full disk says so here, not after "Archived to"
        # over (or closed with its seed revealed): a file to hand on, made as any other file is; mid-game it holds
        # every hidden fact, for a neutral referee only: private (mkstemp makes it 0o600)
        os.chmod(tmp, default_mode() if state.finished or reveal_seed or closed(camp.root) else 0o600)
        os.replace(tmp, out)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        if exc.filename and exc.filename not in (tmp, str(out)):  # a campaign file that cannot be read: named
            raise
        raise CampaignError(f"{out}: cannot be written ({exc.strerror or exc}); no archive was made") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    camp.audit(f"archived to {out}" + ("" if reports else " (without reports)"))
    return out
