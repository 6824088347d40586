"""The turn cycle of a campaign: deadlines, who is in, and running a turn when it is due (R-TURN-5).

The clock is a parameter (``now``), never read here, so tests pin it.
"""
from __future__ import annotations

import errno
import hashlib
import hmac
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from .auditlog import ACCEPTED, ADJUDICATED, DEADLINE, ROLLBACK, SEAT_SET_ASIDE
from .errors import CampaignError, PbemError, UsageError
from .storage import Campaign, failed, held_interrupts, players_text, refuse_if_closed, unchanged


# the forms a deadline is written in (ASCII digits only: `+²d` or `+٣d` are no number of days)
_RELATIVE = re.compile(r"\+([0-9]+)([dh])")
_ABSOLUTE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}"  # a date, then maybe a time (or an hour) and a zone
                       r"(?:[Tt ](?P<time>[0-9]{2}(?::[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]{1,6})?)?)?)"
                       r"(Z|z|[+-][0-9]{2}(?::?[0-9]{2})?)?)?")
YEARS = (2000, 2999)  # a deadline is near today: a year outside these is a typo (and 0999 could not be stored)
WHEN_FORMS = "write a date like 2026-12-01, 2026-12-01T18:00 (UTC) or +7d"


def relative(text: str) -> tuple[int | None, str] | None:
    """``+N`` deadlines: (N, "day" | "hour"), N None when past any calendar; None for any other form."""
    rel = _RELATIVE.fullmatch(str(text).strip())
    if rel is None:
        return None
    digits = rel.group(1).lstrip("0") or "0"
    return (int(digits) if len(digits) <= 12 else None), ("day" if rel.group(2) == "d" else "hour")  # int() of 5000
    # digits fails, and more than 12 is past the calendar's end anyway


def parse_when(text: str, now: datetime) -> datetime:
    """'2026-12-01', '2026-12-01T18:00', '2026-12-01 18:00Z', '2026-12-01T18:00+01:00' or '+7d' / '+36h' -> an
    aware UTC datetime.  A date without a time is the end of that day (23:59 UTC).  Raises ``UsageError``
    naming the text for anything else, a year outside ``YEARS`` included."""
    t = str(text).strip()
    rel = relative(t)
    if rel:
        n, unit = rel
        try:
            when = now + (timedelta(days=n) if unit == "day" else timedelta(hours=n)) if n is not None else None
        except OverflowError:
            when = None
        if when is None or when.year > YEARS[1]:
            raise UsageError(f"deadline {text!r}: too far in the future")
        return when
    if t.upper().endswith(" UTC"):  # as `pbem status` prints it: 2026-12-01 18:00 UTC
        t = t[:-4].strip()
    m = _ABSOLUTE.fullmatch(t)
    try:
        if m is None:
            raise ValueError
        when = datetime.fromisoformat(re.sub(r"[Zz]$", "+00:00", t).replace(" ", "T").replace("t", "T"))
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
            if m.group("time") is None:  # a bare date: the end of that day
                when = when.replace(hour=23, minute=59)
        when = when.astimezone(timezone.utc)
    except ValueError as exc:
        if m is None:
            raise UsageError(f"deadline {text!r}: {WHEN_FORMS}") from None
        # written as a date is, but no day of the calendar (a moderator's review: 2026-02-29 was told the forms)
        if YEARS[0] <= int(t[:4]) <= YEARS[1]:
            raise UsageError(f"deadline {text!r}: {no_such_day(t[:10]) or exc}") from None
        when = None  # year 0: said as the year below
    except OverflowError:  # 0001-01-01T00:00+01:00 is before the calendar's start in UTC
        when = None
    if when is None or not YEARS[0] <= when.year <= YEARS[1]:
        raise UsageError(f"deadline {text!r}: the year must be between {YEARS[0]} and {YEARS[1]} (UTC); "
                         f"{WHEN_FORMS}")
    return when


MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


def no_such_day(day: str) -> str | None:
    """Why ``day`` ("YYYY-MM-DD", digits) is no day of the calendar, in words ("2026-02-29 is not a date: 2026
    has no 29 February"); None when it is one, or its year is out of ``YEARS`` (said as such)."""
    y, mo, d = int(day[:4]), int(day[5:7]), int(day[8:10])
    if not YEARS[0] <= y <= YEARS[1]:
        return None
    if not 1 <= mo <= 12:
        return f"{day} is not a date: there is no month {mo} (months are 01 to 12)"
    try:
        date(y, mo, d)
    except ValueError:
        return f"{day} is not a date: " + (f"{y} has no 29 February" if (mo, d) == (2, 29) else
                                            "days start at 01" if d == 0 else f"{MONTHS[mo - 1]} has no day {d}")
    return None


STORED = "%Y-%m-%dT%H:%MZ"  # a deadline as campaign.yaml keeps it


def fmt(when: datetime | None) -> str:
    return when.strftime("%Y-%m-%d %H:%M UTC") if when else "none set"


def deadline(camp: Campaign) -> datetime | None:
    raw = camp.config.get("deadline")
    if not raw:
        return None
    try:  # as pbem stores it, read back however far ahead (an older pbem stored 9999-12-31 to pause a game)
        when = datetime.strptime(str(raw), STORED).replace(tzinfo=timezone.utc)
        if when.year >= YEARS[0]:
            return when
    except ValueError:
        pass
    try:
        return parse_when(str(raw), datetime.now(timezone.utc))
    except UsageError as exc:
        from .errors import CampaignError
        raise CampaignError(f"{camp.config_path}: {exc}; fix it with `pbem deadline`") from None


@dataclass
class NewDeadline:
    """What `pbem deadline` did: the new deadline, the one it replaced (None: none was set) and, for ``+N``,
    what it was counted from, in words."""
    when: datetime
    before: datetime | None
    counted_from: str | None = None

    @property
    def earlier(self) -> bool:
        return self.before is not None and self.when < self.before


def set_deadline(camp: Campaign, text: str, now: datetime) -> NewDeadline:
    """Set the current turn's deadline (the caller warns when it is already past: the turn is then due, and
    when it is earlier than the one it replaces).  ``+N`` (days or hours) counts from the deadline in force when
    the current turn has one still to come ("two more days"), else from ``now``.  A damaged snapshot of the
    current turn stops it before anything is written, as every writing command (a moderator's soak test)."""
    refuse_if_closed(camp.root, "no deadline is set")
    state = camp.load_state()
    if state.finished:  # a moderator's review: `deadline +7d` was taken, and status then showed it
        raise UsageError(f"the game is over (after turn {state.turn - 1}): no more orders are taken, so no deadline "
                         f"is set; nothing was changed")
    from .moderation import unpacked_hint
    hint = unpacked_hint(camp.root, "run it and set its deadlines")
    if hint:  # no turn can run there: a deadline would tell of one that cannot come
        raise UsageError(f"{camp.secret_dir}: no such folder{hint}; nothing was changed")
    try:
        before = deadline(camp)
    except CampaignError:  # a damaged deadline in campaign.yaml: this command is how it is mended
        before = None
    rel = relative(text)
    ahead = before is not None and before > now  # a deadline passed already: "two more days" are from now
    when = parse_when(text, before if rel and ahead else now)
    counted = None
    if rel:
        n, unit = rel  # parse_when took it: n is a number
        amount = f"{n} {unit}{'' if n == 1 else 's'}"
        counted = (f"{amount} after the deadline in force, {fmt(before)}" if ahead else
                   f"{amount} from now (no deadline was set)" if before is None else
                   f"{amount} from now: the deadline in force, {fmt(before)}, has passed")
    config = dict(camp.config)
    config["deadline"] = when.strftime(STORED)
    with held_interrupts(), unchanged(camp, "the deadline was not set"):
        camp.change(f"deadline of turn {camp.current_turn} set to {fmt(when)}", config=config)
    return NewDeadline(when, before, counted)




def deadline_of(camp: Campaign, turn: int) -> tuple[bool, datetime | None]:
    """The deadline ``turn`` last had, as audit.log recorded it (`pbem deadline`, or the next deadline `run-turn`
    set, or cleared by `adjudicate`): (found, deadline or None).  A rollback gives the turn back its own."""
    try:
        text = (camp.root / "audit.log").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False, None
    found, when = False, None
    for line in text.splitlines():
        m = DEADLINE.match(line)
        if m and int(m.group(1) or m.group(3)) == turn:
            found = True
            when = datetime.strptime(m.group(2), "%Y-%m-%d %H:%M").replace(tzinfo=timezone.utc) if m.group(2) \
                else None
    return found, when


@dataclass
class Status:
    turn: int
    finished: bool
    deadline: datetime | None
    submitted: list[str]
    missing: list[str]
    nmr_streaks: dict[str, int]
    civil_disorder: list[str]
    seats: dict[str, str]
    held: bool = False  # rolled back: waits for the moderator's `run-turn --force`
    closed: bool = False  # `archive --reveal-seed --abandon`: no more files, no more turns
    received: dict[str, datetime] = field(default_factory=dict)  # when each stored file was written (its mtime)
    root: Path | None = None  # the campaign folder, as the commands status names should name it
    # a held turn's rolled-back run: where its files wait (archive/rollback-N/orders/turn-NNN/, relative to the
    # campaign) and the human players whose file there has none in its place (``seen_files_left_out``)
    seen_run: tuple[str, list[str]] | None = None
    result: str | None = None  # a finished game's result, in words (``game_result``)

    def player_lines(self) -> list[str]:
        """One line per player, in turn order, readable at 12 players: the player, the seat (human or bot),
        whether their file is in and when it was stored, and their NMR streak if any."""
        players = list(self.seats) or self.submitted + self.missing
        width = max(len(p) for p in players) if players else 0
        lines = []
        for p in players:
            seat = self.seats.get(p, "human")
            if p in self.submitted:
                got = f"in, {fmt(self.received[p])}" if p in self.received else "in"
            elif seat == "bot":
                got = "written by the computer player when the turn runs"
            else:
                got = "not in"
            n = self.nmr_streaks.get(p, 0) if seat != "bot" else 0  # the computer player sends every turn's orders
            # (a moderator's review: a seat handed to it still read "NMR 2 turn(s) in a row -> civil disorder")
            nmr = f"; NMR {n} turn(s) in a row" + (" -> civil disorder" if p in self.civil_disorder else "") \
                if n else ""
            lines.append(f"  {p:<{width}}  {seat:<5}  {got}{nmr}")
        return lines

    def orders_heading(self) -> str:
        humans = [p for p, s in self.seats.items() if s != "bot"]
        done = sum(p in self.submitted for p in humans)
        return f"Orders in: {done} of {len(humans)} human player(s)" + (":" if self.seats else " (none)")

    def due(self, now: datetime) -> bool:
        """All players in, or the deadline passed (and not held after a rollback)."""
        return not self.finished and not self.held and not self.closed and \
            (not self.missing or (self.deadline is not None and now >= self.deadline))

    def render(self, now: datetime) -> str:
        lines = [f"Game turn {self.turn}" + (" (the game is over)" if self.finished else "")]
        if self.finished:  # a moderator's review: it still asked for a deadline and waited for every player
            return "\n".join(lines + self.render_over()) + "\n"
        if self.closed and not self.finished:
            lines.append("Closed: the campaign was abandoned and its secret seed revealed (revealed-seed.txt): no "
                         "more order files are taken and no more turns are run")
            lines.append(self.orders_heading())
            lines += self.player_lines()
            return "\n".join(lines) + "\n"
        if self.held and not self.finished:
            return self.render_held()
        if self.deadline:
            left = self.deadline - now
            if left.total_seconds() >= 0:
                lines.append(f"Deadline: {fmt(self.deadline)} ({left.days} days {left.seconds // 3600} hours left)")
            else:
                lines.append(f"Deadline: {fmt(self.deadline)} (passed)")
        else:
            lines.append("Deadline: none set (`pbem deadline DIR DATE`)")
        lines.append(self.orders_heading())
        lines += self.player_lines()
        lines.append("Waiting for: " + (", ".join(self.missing) or "nobody"))
        bots = [p for p, s in self.seats.items() if s == "bot"]
        if bots:
            lines.append("Computer players: " + ", ".join(bots))
        lines.append("Due: " + ("yes, `pbem run-turn` will adjudicate" if self.due(now) else "not yet"))
        return "\n".join(lines) + "\n"

    def render_over(self) -> list[str]:
        """The lines of ``render`` once the game is over: the result, and that nothing more is awaited."""
        where = str(self.root) if self.root is not None else "DIR"
        lines = [f"Result: {self.result or f'the game ended after game turn {self.turn - 1}'}",
                 "No more orders are taken and no more turns are run: no deadline, nobody is waited for"]
        if not self.closed:
            lines.append(f"Next: once the players have their last reports, publish the archive with the seed: "
                         f"`pbem archive {where} --reveal-seed`")
        return lines

    def render_held(self) -> str:
        """``render`` of a turn held after a rollback: it waits for the moderator, not for the players.  Its files
        are fixed (a player's new file is refused and kept for the moderator), only the moderator's fixes are
        taken, and only `run-turn --force` runs it; its own deadline is shown for what it still means (a fix after
        it needs --late-ok, and `verify` names it late), never as time left to the players."""
        where = str(self.root) if self.root is not None else "DIR"
        lines = [f"Game turn {self.turn}",
                 f"Held after a rollback: players cannot send files for it (theirs are refused; ingest keeps them "
                 f"in DROP/refused/turn-{self.turn:03d}/)",
                 f"Awaited: only your fixes, `pbem submit {where} FILE --fix` (with --force for a file other than "
                 f"the one the rolled-back run played); then `pbem run-turn {where} --force` runs it"]
        if self.deadline:
            lines.append(f"Deadline: {fmt(self.deadline)}, the turn's own, no longer a deadline for the players "
                         f"(the turn is held); a fix you take after it needs --late-ok and `pbem verify` names it late")
        else:
            lines.append("Deadline: none set (a held turn needs none: it runs only with --force)")
        lines.append(self.orders_heading())
        lines += self.player_lines()
        nmr = list(self.missing)  # human players only
        left = self.seen_run[1] if self.seen_run else []
        if left:  # `run-turn` refuses the turn without them (``seen_files_left_out``)
            lines.append(f"Waiting for: your fixes: the files of {', '.join(left)} that its rolled-back run played "
                         f"wait in {self.seen_run[0]}/; give them back (`pbem submit {where} FILE --fix`), or take "
                         f"another file for that player with --fix --force: `run-turn` refuses the turn without them")
            nmr = [p for p in nmr if p not in left]
        else:
            lines.append("Waiting for: no player (the turn is held)")
        if nmr:
            lines[-1] += (f"; without a file you take as a fix, {', '.join(nmr)} {'has' if len(nmr) == 1 else 'have'} "
                          f"no orders (NMR)")
        bots = [p for p, s in self.seats.items() if s == "bot"]
        if bots:
            lines.append("Computer players: " + ", ".join(bots))
        lines.append(f"Due: no, {HELD}")
        return "\n".join(lines) + "\n"


def status(camp: Campaign) -> Status:
    state = camp.load_state()
    folder = camp.orders_dir(state.turn)
    active = state.active_players()
    submitted = [p for p in active if (folder / f"{p}.yaml").is_file()]
    received = {}
    for p in submitted:
        try:
            received[p] = datetime.fromtimestamp((folder / f"{p}.yaml").stat().st_mtime, timezone.utc)
        except (OSError, OverflowError, ValueError):
            pass  # gone meanwhile, or a clock far off: the name alone
    table = seats(camp)
    missing = [p for p in active if p not in submitted and table.get(p) != "bot"]
    try:
        after = int(camp.config.get("civil_disorder_after", 3))
    except (TypeError, ValueError):
        from .errors import CampaignError
        raise CampaignError(f"{camp.config_path}: civil_disorder_after must be a whole number") from None
    streaks = {p: state.players[p].nmr_streak for p in active}
    from .intake import frozen
    from .storage import closed
    held = frozen(camp, state.turn)
    seen_run = None
    kept = _seen_run_files(camp, state.turn) if held else None
    if kept is not None:
        seen_run = (kept.relative_to(camp.root).as_posix(),
                    sorted(p.stem for p in kept.glob("*.yaml") if p.stem in missing))
    return Status(state.turn, state.finished, deadline(camp), submitted, missing, streaks,
                  [p for p, n in streaks.items() if n >= after], {p: table.get(p, "human") for p in active},
                  held, closed(camp.root), received, camp.root, seen_run,
                  game_result(camp, state) if state.finished else None)


def game_result(camp: Campaign, state: Any) -> str:
    """A finished game's result, in words: who won (or that nobody did), why the game ended (the last turn's
    ``victory`` record), and the winner's score: "the Spartans won after game turn 2 (last turn; 5 cities)"."""
    last = state.turn - 1
    reason = None
    try:
        reason = next((r.get("reason") for r in camp.read_log(last) if r.get("event") == "victory"), None)
    except (PbemError, OSError):
        pass  # the log is not needed to say who won
    row = next((r for r in state.standings or [] if r.get("player") == state.winner), None) if state.winner else None
    said = {"last turn": "its last turn played", "last player left": "the last player left",
            "majority of cities": "a majority of the cities"}
    why = [said.get(str(reason), str(reason))] if reason else []
    if row is not None and isinstance(row.get("score"), int):
        why.append(f"{row['score']} {'city' if row['score'] == 1 else 'cities'}")
    who = f"{state.players[state.winner].name} won" if state.winner in state.players else "nobody won"
    return f"{who} after game turn {last}" + (f" ({'; '.join(why)})" if why else "")


def upgrade_note(camp: Campaign) -> str | None:
    """A `note:` line when this pbem is not the version that ran the campaign's last turn (audit.log's
    `adjudicated turn` line names it), or, when no turn has run or its line names none (an older pbem wrote it),
    the version that created the campaign (campaign.yaml's `pbem_version`): a turn replays byte for byte only with
    the pbem that ran it (a moderator's review: an upgrade mid-campaign went unsaid).  None: the same version, or
    none known."""
    from . import __version__
    from .auditlog import versions_run
    last = camp.current_turn - 1
    ran = versions_run(camp.root).get(last) if last >= 1 else None
    tail = "turns run with different versions verify only with their own (docs/moderator.md, \"Upgrading\")"
    if ran:
        return None if ran == __version__ else \
            f"note: this campaign's last turn was run with pbem {ran}, this is {__version__}: {tail}"
    made = camp.config.get("pbem_version")
    if not made or str(made) == __version__:
        return None
    what = "" if last < 1 else " (audit.log does not name the version that ran its last turn)"
    return f"note: this campaign was created with pbem {made}{what}, this is {__version__}: {tail}"


def next_deadline(camp: Campaign, now: datetime) -> str | None:
    """``turn_days`` after the turn ran (``now``): the players always get ``turn_days`` with their reports.
    Not after the old deadline: a turn run early (every order in) would push each next deadline a little
    further, weeks ahead after a few quick turns; a turn run late still gives the players their full time."""
    days = camp.config.get("turn_days")
    if not days:
        return None
    try:
        when = now + timedelta(days=int(days))
    except (OverflowError, ValueError):
        return None  # no next deadline can be set past the calendar's end: the moderator sets one
    return when.strftime(STORED) if YEARS[0] <= when.year <= YEARS[1] else None  # as `pbem deadline` takes it


def config_with(camp: Campaign, **changes: Any) -> dict[str, Any]:
    config = dict(camp.config)
    config.update(changes)
    return config


def seats(camp: Campaign) -> dict[str, str]:
    """Who plays each faction: 'human' (default) or 'bot' (campaign.yaml `seats`)."""
    return {p: str(s) for p, s in (camp.config.get("seats") or {}).items()}


@dataclass
class SeatChange:
    """What `pbem seat` did: the faction's new secret, the seat it had, and where the file the former holder
    stored for the current turn was set aside (None: there was none, or the seat did not change hands)."""
    secret: str
    before: str
    set_aside: Path | None = None
    turn: int = 0


SET_ASIDE = "set-aside"  # orders/turn-NNN/PLAYER.set-aside-K.yaml: a file stored before the seat changed hands


def set_seat(camp: Campaign, player: str, seat: str, reason: str = "") -> str:
    """Hand a faction to the computer player or to a (new) human (``change_seat``); returns the new secret."""
    return change_seat(camp, player, seat, reason).secret


def change_seat(camp: Campaign, player: str, seat: str, reason: str = "") -> SeatChange:
    """Hand a faction to the computer player or to a (new) human.  The faction's secret is replaced, so whoever
    played it before can no longer send orders for it.  When the seat changes hands (human to bot or back), or a
    human seat is given a new secret (one that leaked: a file sent with it may be a thief's), a file stored for
    the current turn is set aside, kept as ``PLAYER.set-aside-K.yaml`` beside it and named in the audit line: the
    computer player writes the seat's orders when the turn runs, or the player sends a file with the new secret;
    `run-turn`, `status` and `verify` all read the folder that way."""
    from .campaign import new_player_secret
    refuse_if_closed(camp.root, "no seat is changed and no secret given")
    state = camp.load_state()
    if player not in state.players:
        raise UsageError(f"player {player!r} is not in this campaign ({', '.join(state.turn_order)})")
    if state.finished:  # a soak test: a new secret was printed for a game with no turn left to send orders for
        raise UsageError(f"the game is over (after turn {state.turn - 1}): no more orders are taken, so a seat no "
                         f"longer matters; nothing was changed")
    if seat not in ("human", "bot"):
        raise UsageError(f"seat {seat!r}: write human or bot")
    table = seats(camp)
    before = table.get(player, "human")
    table[player] = seat
    player_secrets = camp.player_secrets()  # everything is read before anything is written
    camp.secret_seed()  # (a damaged seed stops it here)
    former = former_secrets(camp)
    if player_secrets.get(player):
        former.setdefault(player, []).append(secret_digest(player_secrets[player]))
    player_secrets[player] = new_player_secret()
    folder = camp.orders_dir(state.turn)
    stored = folder / f"{player}.yaml"
    aside = None
    line = f"seat of {player} set to {seat}; the faction's secret was replaced"
    from .intake import frozen
    # a new secret for the same human: the file sent with the old one is set aside, unless the turn is held after
    # a rollback (its files are fixed: only the moderator replaces one, and the re-run must have the seen run's)
    rekey = seat == "human" and before == "human" and not frozen(camp, state.turn)
    if (before != seat or rekey) and not state.finished and stored.is_file() and not stored.is_symlink():
        k = 1
        while (folder / f"{player}.{SET_ASIDE}-{k}.yaml").exists():
            k += 1
        aside = folder / f"{player}.{SET_ASIDE}-{k}.yaml"
        digest = hashlib.sha256(stored.read_bytes()).hexdigest()
        whose = ("sent with the former secret" if before == seat == "human" else
                 "sent by the former player" if before == "human" else "stored for the computer player's seat")
        line += (f"; {player}'s file for turn {state.turn} (sha256 {digest[:16]}), {whose}, set aside as "
                 f"{aside.relative_to(camp.root).as_posix()}")
    if reason.strip():
        line += f": {reason}"
    with held_interrupts():
        if aside is not None:
            try:
                stored.rename(aside)  # first: a file that cannot be moved leaves everything as it was
            except OSError as exc:
                raise CampaignError(f"{stored}: cannot be set aside as {aside.name} ({exc.strerror or exc}); "
                                    f"the seat was not changed") from None
        try:
            with unchanged(camp, "the seat was not changed"):  # the secrets, the seat and the line together
                camp.change(line, [(camp.secret_dir / FORMER, former_secrets_text(former)),
                                   (camp.secret_dir / "players.yaml", players_text(player_secrets))],
                            config=config_with(camp, seats=table), mode=0o600)
        except BaseException:
            if aside is not None:
                aside.rename(stored)
            raise
    return SeatChange(player_secrets[player], before, aside, state.turn)


FORMER = "former-secrets.yaml"  # in secret/: the SHA-256 of each secret `pbem seat` replaced, per faction


def secret_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def former_secrets(camp: Campaign) -> dict[str, list[str]]:
    """The SHA-256 of every secret a seat had before `pbem seat` replaced it, per faction (``secret/FORMER``,
    moderator only); a damaged or missing file is no former secret (it only words a refusal)."""
    from . import yamlio
    path = camp.secret_dir / FORMER
    if not path.is_file():
        return {}
    try:
        data = yamlio.load(path).data
    except (yamlio.YamlError, OSError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(p): [str(d) for d in ds] for p, ds in data.items() if isinstance(ds, list)}


def former_secrets_text(former: dict[str, list[str]]) -> str:
    from . import yamlio
    return ("# SHA-256 of the secrets `pbem seat` replaced: a file sent with one is answered that the seat changed "
            "hands\n" + yamlio.dump(former))


def former_secret(camp: Campaign, player: str, given: str) -> bool:
    """Whether ``given`` is a secret ``player``'s seat had before `pbem seat` replaced it."""
    digest = secret_digest(given)
    return any(hmac.compare_digest(digest, d) for d in former_secrets(camp).get(player, []))


BOT_MARK = b"# written by the computer player\n"  # the first line of every order file a computer player wrote


def bot_file(camp: Campaign, state: Any, pid: str) -> bytes:
    """The order file the computer player writes for ``pid`` at the start of ``state``'s turn, as it is stored:
    the same bytes every time (the computer player reads only the faction's fogged view and rolls no dice), so
    `pbem verify` can tell a stored computer player's file from one the moderator wrote in its place."""
    from . import yamlio
    from .bot import write_orders
    from .gamedata import tables
    from .intake import WITHHELD
    from .visibility import view
    orders = write_orders(view(state, camp.game_map, pid), camp.game_map, tables(), camp.config["name"],
                          state.turn, WITHHELD)
    return BOT_MARK + yamlio.dump(orders).encode("utf-8")


def bot_orders(camp: Campaign) -> dict[str, bytes]:
    """The computer players' order files for the current turn, by player: where none is stored yet, and where
    the one stored is the very file the computer player writes (a turn run again after a rollback keeps it), so
    the turn's audit line names the computer players the same way each time it runs.  Written with the turn they
    belong to (``turn.run_locked``); a stored file is written again as the same bytes."""
    state = camp.load_state()
    out: dict[str, bytes] = {}
    due = [pid for pid, seat in sorted(seats(camp).items())
           if seat == "bot" and pid in state.players and state.players[pid].eliminated_turn is None]
    if not due:
        return out
    camp.player_secrets()  # checked before anything is written, as for every command that writes
    for pid in due:  # stored like a player's accepted file: with the secret withheld
        path = camp.orders_dir(state.turn) / f"{pid}.yaml"
        if path.exists() or path.is_symlink():
            try:
                stored = path.read_bytes() if path.is_file() and not path.is_symlink() else None
            except OSError:
                stored = None
            if stored is None or not stored.startswith(BOT_MARK) or stored != bot_file(camp, state, pid):
                continue  # another file (the moderator's fix): it plays as stored
            out[pid] = stored
        else:
            out[pid] = bot_file(camp, state, pid)
    return out




def recorded_files(camp: Campaign, turn: int, order: list[str]) -> dict[str, tuple[str, str]]:
    """Per player, the hash audit.log last recorded for their stored file of ``turn`` and who stored it: the
    latest `intake accepted` line (a player's file or a moderator's fix), or a run of the turn that wrote the
    computer player's file (the turn rolled back to since).  A rollback to an earlier turn moved the turn's
    files away: what was recorded before it no longer counts.  ``order``: the turn's players in turn order."""
    try:
        text = (camp.root / "audit.log").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    out: dict[str, tuple[str, str]] = {}
    for line in text.splitlines():
        m = ACCEPTED.match(line)
        if m and int(m.group(2)) == turn:
            out[m.group(1)] = (m.group(3), "intake accepted it")
            continue
        m = ADJUDICATED.match(line)
        if m and int(m.group(1)) == turn and m.group(3):
            hashes = m.group(2).split(",")
            for pid in m.group(3).split(","):
                if pid in order and len(hashes) == len(order) and hashes[order.index(pid)] != "-":
                    out[pid] = (hashes[order.index(pid)], "the computer player wrote it")
            continue
        m = SEAT_SET_ASIDE.match(line)
        if m and int(m.group(2)) == turn:
            out.pop(m.group(1), None)  # the seat changed hands: the file went beside, under another name
            continue
        m = ROLLBACK.match(line)
        if m and int(m.group(2)) < turn:
            out.clear()
    return out


def changed_by_hand(camp: Campaign) -> str | None:
    """Why the current turn may not run: a stored order file that is not the one audit.log recorded when it was
    stored (edited in ``orders/turn-NNN/`` by hand: it was never checked, and `verify` would call the turn a
    MISMATCH), or None.  One line naming the file and how to mend it."""
    state = camp.load_state()
    folder = camp.orders_dir(state.turn)
    recorded = recorded_files(camp, state.turn, list(state.turn_order))
    table = seats(camp)
    for pid in state.turn_order:
        path = folder / f"{pid}.yaml"
        if pid in recorded and not path.is_file():
            if table.get(pid) == "bot":
                continue  # the computer player writes the same file again when the turn runs
            was, how = recorded[pid]
            return (f"{path.relative_to(camp.root)}: removed by hand since {how} (audit.log recorded sha256 "
                    f"{was[:16]}), so the player would be taken as sending no orders; nothing was run: put the file "
                    f"back as it was (the player's answer names its sha256), or give a new one with `pbem submit "
                    f"{camp.root} FILE --fix`")
        if pid not in recorded and path.is_file():
            if table.get(pid) == "bot" and path.read_bytes() == bot_file(camp, state, pid):
                continue  # the computer player's own file, as run-turn would write it
            return (f"{path.relative_to(camp.root)}: put in by hand (no `intake accepted` line in audit.log took it "
                    f"in), so it was never checked; nothing was run: give it with `pbem submit {camp.root} FILE "
                    f"--fix` (it is checked and audited), or remove it")
        if pid not in recorded:
            continue
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        was, how = recorded[pid]
        if not digest.startswith(was):
            from .storage import short_hash
            return (f"{path.relative_to(camp.root)}: changed by hand since {how} (its sha256 is {short_hash(digest)}, "
                    f"audit.log recorded {short_hash(was)}), so it was never checked; nothing was run: put back the "
                    f"file as it was, or give the new one with `pbem submit {camp.root} FILE --fix` (it is checked "
                    f"and audited)")
    return None


def civil_disorder_lines(camp: Campaign) -> str:
    """After a turn ran: one line per human seat in civil disorder (``civil_disorder_after`` turns in a row
    without orders), with the command that hands it to the computer player."""
    st = status(camp)
    return "".join(f"Civil disorder: {p} has sent no orders for {st.nmr_streaks[p]} turns in a row; to let the "
                   f"computer player play it: pbem seat {camp.root} {p} bot --reason \"civil disorder\"\n"
                   for p in st.civil_disorder if st.seats.get(p) != "bot")


HELD_WORDS = "held after rollback"
HELD = f"{HELD_WORDS}: run with --force when the fixes are in"
CLOSED = ("the campaign was closed and its secret seed revealed (revealed-seed.txt): every die is known, so no "
          "more order files are taken and no more turns are run")


class ReportsInterrupted(PbemError):
    """Ctrl-C while the reports of a committed turn were being written: the turn stands, some reports are
    missing; exit code 130 (interrupted)."""

    exit_code = 130

    def __init__(self, camp: Campaign, turn: int):
        super().__init__(f"interrupted: reports of turn {turn} are incomplete; run `pbem report {camp.root} "
                         f"--turn {turn}` to rebuild them")


class CommittedInterrupted(PbemError):
    """Ctrl-C while a turn was committed with no reports to write (`adjudicate`, `run-turn --no-reports`): the
    turn stands whole; exit code 130 (a code review: it was told as "reports incomplete")."""

    exit_code = 130

    def __init__(self, camp: Campaign, turn: int):
        super().__init__(f"interrupted once game turn {turn} was committed whole (audit.log has its line): "
                         f"`pbem status {camp.root}` shows the next turn")


class ReportsFailed(PbemError):
    """The reports of a committed turn could not be written (a folder not writable, a full disk): the turn
    stands; say so, and how to write them, so that nobody runs the next turn thinking this one failed."""

    def __init__(self, camp: Campaign, turn: int, why: str):
        super().__init__(f"turn {turn} is committed, but its reports could not be written ({why}); fix that, then "
                         f"run `pbem report {camp.root} --turn {turn}` (not `run-turn`: that would run turn "
                         f"{turn + 1})")


class CommittedButFailed(PbemError):
    """Something after a turn was committed failed (reading what to tell of it): the turn stands; say so, so that
    nobody runs the next turn thinking this one failed."""

    def __init__(self, camp: Campaign, turn: int, why: str):
        super().__init__(f"turn {turn} is committed, but what follows it failed ({why}); the turn stands: `pbem "
                         f"status {camp.root}` shows game turn {turn + 1}. Do not run `run-turn` again to retry: that "
                         f"would run turn {turn + 1}")


class NotDue(PbemError):
    """`pbem adjudicate` of a turn that is not due (or held after a rollback) without --force: refused, nothing
    run (`run-turn` says the same and exits 0, for cron)."""


def _refusal(st: Status, now: datetime, force: bool) -> str | None:
    """Why the current turn may not run now (without ``force``), or None.  One rule for `run-turn` and
    `adjudicate`: every human player in or the deadline passed, and not held after a rollback."""
    if force:
        return None
    if st.held:
        return f"game turn {st.turn} is {HELD} (`--force`); nothing was run"
    waiting = _waiting(st, now)
    if waiting:
        missing, when = waiting
        return (f"game turn {st.turn} is not due: waiting for {', '.join(missing)} ({when}); nothing was run; "
                f"give --force to run it now")
    return None


def _waiting(st: Status, now: datetime) -> tuple[list[str], str] | None:
    """The human players the turn waits for and its deadline in words, while it does (None: it is due)."""
    missing = [p for p in st.missing if st.seats.get(p) != "bot"]
    if missing and not (st.deadline is not None and now >= st.deadline):
        return missing, f"deadline {fmt(st.deadline)}" if st.deadline else "no deadline set"
    return None


def _forced_warning(st: Status, force: bool, now: datetime) -> str:
    """One warning line when ``force`` runs a turn with human players' files missing before its deadline: who
    will be NMR (every human player, or the ones named)."""
    humans = [p for p in st.submitted + st.missing if st.seats.get(p, "human") != "bot"]
    if force and humans and not any(p in st.submitted for p in humans):
        return (f"warning: no human player's orders are in for game turn {st.turn} "
                f"({', '.join(humans)}: NMR); running it anyway (--force)\n")
    if force and st.held:  # held after a rollback: no player may send a file for it, only the moderator's fixes
        nmr = st.missing  # human players only: a computer player's file is written when the turn runs
        return (f"warning: game turn {st.turn} is {HELD_WORDS}: running it now (--force), so {len(nmr)} "
                f"player(s) with no file taken as a fix are NMR: {', '.join(nmr)}\n") if nmr else ""
    waiting = _waiting(st, now) if force else None
    if waiting:
        missing, when = waiting
        return (f"warning: game turn {st.turn} is not due ({when}): running it now (--force), so "
                f"{len(missing)} player(s) with no orders in are NMR: {', '.join(missing)}\n")
    return ""


def _seen_run_files(camp: Campaign, turn: int) -> Path | None:
    """Where the files of ``turn``'s last rolled-back run wait (archive/rollback-N/orders/turn-NNN/), if any."""
    kept = [(int(m.group(1)), p) for p in (camp.root / "archive").glob(f"rollback-*/orders/turn-{turn:03d}")
            if (m := re.fullmatch(r"rollback-(\d+)", p.parent.parent.name))]  # not a folder named by hand
    return max(kept)[1] if kept else None


def give_back(root: Path) -> str:
    """How the moderator gives a held turn's seen files back (``seen_files_left_out``, ``held_again_line``)."""
    # a moderator's review: after two rolled-back runs that played different files for a player, that player's
    # file was refused without --force though this said the same files need none (either is a seen outcome)
    return (f"`pbem submit {root} FILE --fix` (a file every rolled-back run of the turn played needs no --force; "
            f"where the runs played different files, taking one needs --force)")


def before_any_die(camp: Campaign, st: Status) -> str | None:
    """What stops a run of the current turn (a dry run too) before any die is shown: a stored order file changed
    by hand (``changed_by_hand``), a held turn's seen files left out (``seen_files_left_out``)."""
    return changed_by_hand(camp) or seen_files_left_out(camp, st)


def seen_files_left_out(camp: Campaign, st: Status) -> str | None:
    """Why a held turn may not run yet, even with --force: a human player's file that its rolled-back run played
    waits in the archive and none is stored in its place (``Status.seen_run``).  Run so, the player would be NMR
    and the turn would draw other dice than the ones its players saw: `pbem verify` flags that (a moderator's soak
    test: a second `run-turn --force` ran it, warning only of the NMR).  To play the turn without that file, the
    moderator takes another for the player as a forced fix (`--fix --force`, audited), which verify accepts."""
    if not (st.held and st.seen_run and st.seen_run[1]):
        return None
    where, left = st.seen_run
    return (f"game turn {st.turn} is held, and its rolled-back run played the files of {', '.join(left)} ({where}/), "
            f"which are not in: give them back with {give_back(camp.root)}, or take another file for that player with `--fix --force` (audited); run without them, the "
            f"turn would draw other dice than the ones its players saw, and `pbem verify` would flag it; nothing "
            f"was run")


def held_again_line(camp: Campaign, turn: int) -> str:
    """Said when the run reached a turn that is held (after a deeper rollback, from the position its seen run
    started from): players may not send files for it, and the files its seen run played wait in the archive (a
    moderator's review: the run said only the new deadline, and a second `run-turn --force` made every human NMR)."""
    from .intake import frozen
    if not frozen(camp, turn):
        return ""
    kept = _seen_run_files(camp, turn)
    where = (f"the files its seen run played are in {kept.relative_to(camp.root).as_posix()}/: give them back "
             f"with {give_back(camp.root)}, then ") if kept else ""
    return (f"Game turn {turn} is held: it was run and rolled back from this very position, so its players saw it "
            f"and may not send files for it; {where}run it with `pbem run-turn {camp.root} --force`\n")


def next_deadline_line(camp: Campaign, turn: int, nxt: str | None) -> str:
    """What the moderator is told of the new turn's deadline (status shows the same)."""
    if nxt:
        return f"Deadline of game turn {turn}: {fmt(datetime.strptime(nxt, STORED).replace(tzinfo=timezone.utc))}\n"
    return f"No deadline is set for game turn {turn}: set one with `pbem deadline {camp.root} DATE`\n"


def _commit(camp: Campaign, force: bool, command: str, next_deadline_of, reports: bool = True):
    """Run the current turn and commit it with its next deadline (``next_deadline_of(result)``, None: none) and
    its audit lines, together: the new campaign.yaml is written beside the old one before the turn's audit line
    and put in place by a rename, undone by another if that line cannot be written, so a committed turn never
    carries the deadline of the turn before it (a moderator's review: a full disk right after the commit left the
    passed deadline, and the next cron `run-turn` ran the new turn at once, every player NMR).  A turn that
    cannot be committed (a full disk) changes nothing and says so.  ``reports``: the reports are to be written
    next (a Ctrl-C here says they are missing; else that the turn was committed)."""
    from .turn import run_locked
    bots = bot_orders(camp)
    result = None
    staged: list[Any] = []
    chosen: list[str | None] = []
    turn = camp.current_turn

    def with_turn(run) -> list[str]:  # once the turn's files are written, before its audit line
        nxt = None if run.after.finished else next_deadline_of(run)  # none after the end
        staged.append(camp.put_config(config_with(camp, deadline=nxt)))
        chosen.append(nxt)
        lines = []
        if not run.after.finished:  # so a rollback to the next turn gives it back its own deadline
            when = datetime.strptime(nxt, STORED).replace(tzinfo=timezone.utc) if nxt else None
            lines.append(f"deadline of turn {run.turn + 1} " + (f"set to {fmt(when)}" if when else
                                                                f"cleared by {command}"))
        lines.append(f"{command} {run.turn}" + (" (forced)" if force else "") +
                     (f"; computer players: {','.join(bots)}" if bots else ""))
        return lines
    try:
        with held_interrupts():  # the turn, its next deadline and its audit lines land together
            try:
                result = run_locked(camp, extra=bots, with_turn=with_turn)
            except BaseException:  # not committed: campaign.yaml as it was
                for one in staged:
                    one.undo()
                raise
            for one in staged:
                one.done()
    except KeyboardInterrupt:  # Ctrl-C came while the turn was committed: it stands, no report was written
        if result is None:
            raise
        if not reports:
            raise CommittedInterrupted(camp, result.turn) from None
        raise ReportsInterrupted(camp, result.turn) from None
    except OSError as exc:  # before the commit (``run_locked`` undid what it wrote)
        room = " (free some space)" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else ""
        raise CampaignError(f"{failed(exc, camp.root)}; game turn {turn} was not run and nothing was changed: "
                            f"fix that{room}, then run it again") from None
    return result, chosen[0]


def adjudicate(camp: Campaign, now: datetime, force: bool = False):
    """`pbem adjudicate`: run the current turn as `run-turn` would (the same rule for when it is due, the
    same audit of ``force``) but write no report.  The old deadline belonged to the turn just run: it is
    cleared, and the moderator is told that the new turn has none.  Returns (TurnResult, message)."""
    with camp.lock():
        st = status(camp)
        if st.finished:
            raise NotDue(f"{camp.root}: the game is over; nothing to adjudicate")
        if st.closed:
            raise NotDue(f"{camp.root}: {CLOSED}")
        why = _refusal(st, now, force)
        if why:
            raise NotDue(why)
        changed = before_any_die(camp, st)
        if changed:
            raise CampaignError(changed)
        warning = _forced_warning(st, force, now)
        result, nxt = _commit(camp, force, "adjudicate", lambda r: None, reports=False)
        return result, warning + _told(camp, result, nxt)


def _told(camp: Campaign, result, nxt: str | None, reports: str = "") -> str:
    """What the moderator is told of a committed turn: its summary (then ``reports``, where they were written),
    the seats in civil disorder, the next turn's deadline and whether it is held.  Anything that fails here fails
    after the commit: said as such (``CommittedButFailed``), never as a turn that did not run."""
    from .turn import summary
    try:
        message = summary(result) + reports
        if not result.after.finished:
            message += civil_disorder_lines(camp)
            message += next_deadline_line(camp, result.turn + 1, nxt)
            message += held_again_line(camp, result.turn + 1)
    except OSError as exc:
        raise CommittedButFailed(camp, result.turn, failed(exc, camp.root)) from None
    except PbemError as exc:
        raise CommittedButFailed(camp, result.turn, str(exc)) from None
    return message


def run_turn(camp: Campaign, now: datetime, force: bool = False, reports: bool = True):
    """Adjudicate when every human player is in or the deadline has passed (or ``force``), then report.

    Returns (TurnResult or None, message).
    """
    with camp.lock():
        st = status(camp)
        if st.finished:
            return None, "The game is over; nothing to run.\n"
        if st.closed:
            raise NotDue(f"{camp.root}: {CLOSED}")
        if st.held and not force:
            return None, (f"Game turn {st.turn} is {HELD} (`pbem run-turn {camp.root} --force`); "
                          f"nothing was run.\n")
        waiting = None if force else _waiting(st, now)
        if waiting:  # for cron: said, exit code 0
            missing, when = waiting
            # the turn named (a moderator's review: in a race of two runs, which turn was not due was unclear)
            return None, (f"Not due: game turn {st.turn} is waiting for {', '.join(missing)}; {when}. Use --force to "
                          f"run it now.\n")
        changed = before_any_die(camp, st)
        if changed:
            raise CampaignError(changed)
        warning = _forced_warning(st, force, now)
        result, nxt = _commit(camp, force, "run-turn", lambda r: next_deadline(camp, now), reports)
        message = warning
        if reports:
            from .report import write_reports
            try:
                written = write_reports(camp, result.turn)
            except KeyboardInterrupt:
                raise ReportsInterrupted(camp, result.turn) from None
            except OSError as exc:
                raise ReportsFailed(camp, result.turn, failed(exc, camp.root)) from None
            except PbemError as exc:
                raise ReportsFailed(camp, result.turn, str(exc)) from None
            return result, message + _told(camp, result, nxt, f"Reports written to {camp.reports_dir(result.turn)}"
                                           + (f" ({written})" if isinstance(written, (int, str)) else "") + "\n")
        return result, message + _told(camp, result, nxt)
