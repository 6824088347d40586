"""Order intake: a file a player sent is authenticated, checked, stored, and answered (R-TURN-1, R-TURN-5).

A player can never place orders for another faction: the header's secret must be that player's own.
Refused files change nothing in the campaign; every refusal is written to the audit log for the moderator.
Accepted files go to ``orders/turn-NNN/PLAYER.yaml``; an earlier accepted version is kept as
``PLAYER.v1.yaml``, ``PLAYER.v2.yaml``...  Each file is answered with a confirmation text, also stored
under ``replies/turn-NNN/``.

A stored file never holds the player's secret: every occurrence of the authenticated secret in the bytes is
replaced with ``withheld`` (``WITHHELD``) before the file is written, so the campaign folder and its
archive give nobody a way to send orders as another player.  The hash that seeds the turn's dice (R-TURN-6) and the
one in the audit log are those of the stored bytes, so `pbem verify` replays from the archive alone.
"""
from __future__ import annotations

import errno
import hashlib
import hmac
import os
import re
import shlex
import stat
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from datetime import datetime
from pathlib import Path

from . import yamlio
from .auditlog import PLAYED_BY_UNDONE_RUN, REFUSED_SENT
from .cycle import deadline as campaign_deadline, fmt
from .errors import CampaignError, PbemError
from .storage import (Campaign, atomic_write, closed, failed, first_version_hash, held_interrupts, named,
                      printable, short_hash, Staged, sync_folder, where)
from .turn import DRY_RUN_LINE

MAX_ORDER_BYTES = yamlio.MAX_BYTES
WITHHELD = "withheld"  # what a stored order file holds where the player wrote their secret


# the other encodings a text editor saves in (Notepad's "Unicode" is UTF-16 LE): a file refused as not UTF-8 is
# kept in the drop folder too, so the secret is withheld in these as well (a mail review found a UTF-16 file kept
# in DROP/refused/ with the live secret)
WIDE_ENCODINGS = ("utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")


def withhold(raw: bytes, secret: str) -> bytes:
    """``raw`` with every occurrence of ``secret`` replaced by ``WITHHELD``: the bytes pbem stores.  The secret
    is found written in UTF-8 and in UTF-16 and UTF-32 (either byte order, with or without a BOM, aligned or
    not), each replaced by ``WITHHELD`` in the same encoding.  A secret is ASCII, so its UTF-16 and UTF-32 forms
    hold NUL bytes, which no UTF-8 order file holds: the bytes of an accepted file are withheld as before."""
    if not secret:
        return raw
    raw = raw.replace(secret.encode("utf-8"), WITHHELD.encode("ascii"))
    for encoding in WIDE_ENCODINGS:
        raw = raw.replace(secret.encode(encoding), WITHHELD.encode(encoding))
    if b"=" in raw:
        raw = _quoted_printable(secret).sub(WITHHELD.encode("ascii"), raw)
    return raw


@lru_cache(maxsize=64)
def _quoted_printable(secret: str) -> re.Pattern[bytes]:
    """``secret`` as a mail program's quoted-printable text may write it: a soft line break (``=`` at the end of a
    line) between any two of its characters, any character written as its code (``=2D`` for ``-``).  A mail saved
    as it came holds it so (a code review: a refused file kept in DROP/refused/ with the live secret)."""
    soft = rb"(?:=[ \t]*\r?\n)*"
    return re.compile(soft.join(b"(?:%s|=%02X|=%02x)" % (re.escape(bytes([b])), b, b)
                                for b in secret.encode("utf-8")))


def opaque_stub(raw: bytes, kind: str) -> bytes:
    """What is kept in place of a file in which a secret cannot be withheld (``yamlio.opaque_kind``): a line
    saying so, with the file's size and SHA-256."""
    return (f"pbem kept no copy of this file: it is {kind}, in which a secret cannot be withheld; sha256 "
            f"{hashlib.sha256(raw).hexdigest()}, {len(raw)} bytes\n").encode("utf-8")


@dataclass
class Answer:
    source: str
    accepted: bool
    player: str | None = None
    turn: int | None = None
    message: str = ""
    findings: list[str] = field(default_factory=list)
    stored: Path | None = None
    duplicate: bool = False
    authenticated: bool = True  # False: the sender's secret was not the player's (its reply is named unknown-NNN)
    # for the moderator only (printed, never in the reply a player gets):
    retry: tuple[str, ...] = ()  # the flags that take the file as it was given (``--fix``, ``--force``, ``--late-ok``)
    retry_copy: tuple[str, ...] = ()  # the flags that take pbem's copy of it (its secret withheld: always --fix)
    hint: str = ""  # when to use them: "if it reached you in time", ...
    given: Path | None = None  # the file as the moderator gave it (`submit`); ingest's copy is ``kept``
    campaign: Path | None = None
    kept: Path | None = None  # where ingest kept the file sent (DROP/accepted/turn-NNN/... or DROP/refused/...)
    kept_note: str = ""  # ... when what is kept there is not the file (``keep_sent``): why
    replied: Path | None = None  # the reply kept for the player (None: not kept, see ``moderators``)
    moderators: bool = False  # the moderator's own attempt that failed (a refused `submit --fix`): no reply kept
    sent_as: str | None = None  # a file the moderator took that is a player's own refused file (ingest's kept copy,
    # say): its name as the player sent it
    own: bool = False  # ... recorded as the player's own file (taken late), not as the moderator's fix
    fix_because: str = ""  # ... or why it is the moderator's fix all the same

    def text(self, for_player: bool = False) -> str:
        """The answer as printed for the moderator; ``for_player``: as kept in the reply the player gets (no
        moderator's lines)."""
        head = ("ACCEPTED" + (" (already accepted before: nothing changed)" if self.duplicate else "")
                if self.accepted else "REFUSED")
        who = (f" for {self.player}, game turn {self.turn}" if self.player and self.turn
               else f" for {self.player}" if self.player and self.authenticated else "")
        lines = [f"{head}: {printable(self.source)}{who}"]
        if self.message:
            lines.append(printable(self.message))
        lines += [f"  {printable(clip(f))}" for f in self.findings[:MAX_FINDINGS]]
        if len(self.findings) > MAX_FINDINGS:
            lines.append(f"  ... and {len(self.findings) - MAX_FINDINGS} more (run `pbem check` on the file to see "
                         f"them all)")
        if not for_player:
            lines += [f"  moderator: {printable(line)}" for line in self.moderator_lines()]
        return "\n".join(lines) + "\n"

    def moderator_lines(self) -> list[str]:
        """What the moderator is told besides the answer: where the file was kept and its answer, and the whole
        command that takes a refused file when a flag would overcome the refusal."""
        out = []
        if self.kept is not None:
            out.append(f"kept as {self.kept}" + (f" ({self.kept_note})" if self.kept_note else "")
                       + (f"; the answer is {self.replied}" if self.replied else ""))
        elif self.replied is not None:
            out.append(f"the answer is {self.replied}")
        if self.moderators:
            out.append("your own attempt, not taken: no answer was kept for the player")
        if self.accepted and self.sent_as is not None:
            out.append(f"this is {self.player}'s own file as they sent it ({self.sent_as}), refused before: recorded as "
                       + ("theirs, taken by you, not as your fix" if self.own else
                          f"your fix, as it must be ({self.fix_because})"))
        path = self.kept if self.kept is not None else self.given
        extra = self.retry_copy if self.kept is not None else self.retry
        if not self.accepted and extra and path is not None and self.campaign is not None:
            shown_path = shlex.quote(str(path))
            # a name starting with a dash would read as an option: the flags first, then `--` (a moderator's review)
            command = " ".join(["pbem submit", shlex.quote(str(self.campaign)), *extra, "--", shown_path]
                               if shown_path.startswith("-") else
                               ["pbem submit", shlex.quote(str(self.campaign)), shown_path, *extra])
            out.append(f"{self.hint or 'to take it'}: `{command}`")
        return out


MAX_FINDINGS = 50  # findings printed in one answer; the rest are counted
MAX_FINDING = 1000  # characters of one finding in an answer (the checker's longest, with its hint, fit: a
# player found a diplomacy warning's hint cut off at 400)


def clip(text: str, limit: int = MAX_FINDING) -> str:
    """A finding as an answer shows it: at most ``limit`` characters, so one entry cannot fill a mail."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _refuse(camp: Campaign, source: str, message: str, player: str | None = None,
            turn: int | None = None, findings: list[str] | None = None, authenticated: bool = True,
            audited: str | None = None, retry: tuple[str, ...] = (), retry_copy: tuple[str, ...] | None = None,
            hint: str = "", sent_hash: str | None = None) -> Answer:
    """A refusal: written to audit.log (``audited``, if given, is what the log says instead of ``message``, which
    is the answer the sender gets), nothing else changed.  ``retry``: the flags with which `pbem submit` would
    take the file (``retry_copy``: take pbem's copy of it, whose secret is withheld), named to the moderator
    with ``hint`` (when to use them).  ``sent_hash``: a player's file the moderator may still take, by its
    SHA-256 (``auditlog.REFUSED_SENT``, read back by ``refused_as``)."""
    sent = f", file sha256 {sent_hash}," if sent_hash else ""
    try:
        camp.audit(f"intake refused{sent} {printable(source)}: {printable(audited or message)}")
    except OSError as exc:  # a full disk: no answer is given that audit.log does not record
        raise CampaignError(f"{failed(exc, camp.root)}; {printable(source)} was not answered and nothing was "
                            f"changed: fix that, then give it again") from None
    return Answer(source, False, player, turn, message, findings or [], authenticated=authenticated,
                  retry=retry, retry_copy=retry if retry_copy is None else retry_copy, hint=hint)


FLAG_ORDER = ("--fix", "--force", "--late-ok")


def flags(*given: str) -> tuple[str, ...]:
    """Flags of `pbem submit`, each once, in the order the help gives them."""
    return tuple(f for f in FLAG_ORDER if f in given)


NAME_PUNCTUATION = set(" ._-()[],'+&#@!~%")  # besides letters, marks and digits of any script (% : web mail
# saves "orders turn 1.yaml" as "orders%20turn%201.yaml")
# and what mail programs write in names: dashes, typographic quotes and brackets, spaces such as the no-break space
NAME_CATEGORIES = frozenset({"Pd", "Pi", "Pf", "Ps", "Pe", "Zs"})
MAX_NAME = 200
NAME_PUNCTUATION_SHOWN = " ".join(sorted(NAME_PUNCTUATION - {" "}, key=". _ - ( ) [ ] , ' + & # @ ! ~ %".find))


def check_name(name: str) -> str | None:
    """None if the file name is usable, else why not.  Mail attachments come with names like "Athens orders
    (turn 5).yaml" or "orders.txt": spaces, brackets, commas, apostrophes and letters of any script are fine
    (the file is stored as PLAYER.yaml anyway); path tricks, hidden files and control characters are not."""
    if "/" in name or "\\" in name or name in (".", ".."):
        return "the file name contains a path; send a plain file name like athens-turn3.yaml"
    if ".." in name:  # "..yaml", "turn 3..yaml": no path, but a name a path trick would use
        return "the file name contains '..' (two dots in a row); send a plain file name like athens-turn3.yaml"
    if name.startswith("."):
        return "the file name starts with a dot (a hidden file); send a plain file name like athens-turn3.yaml"
    for ch in name:
        if "\udc80" <= ch <= "\udcff":  # how Python reads a byte of a name that is not UTF-8
            return (f"the file name is not UTF-8 text (it holds the byte 0x{ord(ch) - 0xdc00:02x}); send a plain "
                    f"file name like athens-turn3.yaml")
        if unicodedata.category(ch)[0] == "C":
            return f"the file name holds a control character ({ch!r}); send a plain file name like athens-turn3.yaml"
    odd = sorted({ch for ch in name if not ch.isalnum() and unicodedata.category(ch)[0] not in "LMN"
                  and ch not in NAME_PUNCTUATION and unicodedata.category(ch) not in NAME_CATEGORIES})
    if odd:
        return (f"the file name has characters pbem does not accept "
                f"({' '.join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in odd)}); use letters, digits, spaces "
                f"and {NAME_PUNCTUATION_SHOWN}")
    if len(name) > MAX_NAME:
        return f"the file name is {len(name)} characters long; the limit is {MAX_NAME}"
    if not name.lower().endswith((".yaml", ".yml", ".txt")):
        return "an order file must end in .yaml, .yml or .txt"
    return None


def frozen(camp: Campaign, turn: int) -> bool:
    """A turn that was adjudicated once and rolled back: its order files are fixed (their hashes seed its dice,
    R-TURN-6), and its results may have been seen, so a player cannot send a new file to get new dice or play
    the turn again knowing how it went.  Only the moderator replaces one (`submit --fix --force`).

    A later turn whose run was undone by a rollback to an earlier one is locked the same way once it is reached
    again from the same position: its marker holds the SHA-256 of its start snapshot as it was, and it is locked
    while the turn's snapshot (as adjudicated, before any `pbem adjust`) is those bytes.  Reached from another
    position (the earlier turn was fixed), it is a new turn, open to the players."""
    marker = camp.orders_dir(turn) / FROZEN
    if not marker.exists():
        return False
    try:
        seen = seen_starts(marker.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return True  # a damaged marker locks: the safe side
    if not seen:
        return True  # a marker without positions (older pbem) locks whatever the position
    now = start_hash(camp, turn)
    return now is None or now in seen


def seen_starts(marker_text: str) -> list[str]:
    """The start positions (SHA-256 of the start snapshot) a frozen turn was run from, each run undone since:
    the marker's ``start sha256`` lines, first to last."""
    return re.findall(r"^start sha256 ([0-9a-f]{64})$", marker_text, re.M)


def frozen_marker(reason: str, starts: list[str]) -> str:
    """A frozen turn's marker: why (the rollback's reason) and every start position its runs were undone from."""
    return f"rolled back: {' '.join(reason.split())}\n" + "".join(f"start sha256 {h}\n" for h in starts)


def start_hash(camp: Campaign, turn: int) -> str | None:
    """The SHA-256 of ``turn``'s start snapshot as it was first written (before any `pbem adjust`, whose first
    kept file is that original), or None if there is none."""
    return first_version_hash(camp.snapshot_path(turn))


FROZEN = ".frozen"


# a top-level header line as the template writes it: `player: athens`, `secret: 1a2b-...  # a comment`; the
# value plain, or in quotes without escapes.  Anything else on a line that starts with the key is unreadable.
_HEADER_LINE = re.compile(r"^(['\"]?)(player|secret)\1[ \t]*:(.*)$", re.M)  # the key may be in plain quotes
# a header key written in a way the scan does not read: as an explicit key (`? secret`), or quoted with escapes
_ODD_HEADER = re.compile(r"""^(?:\?[ \t]*['"]?(player|secret)\b|"[^"\n]*\\[^"\n]*"[ \t]*:)""", re.M)
# every line end YAML knows: CR LF, a CR alone (old Mac files), NEL and the Unicode line and paragraph separators
_LINE_ENDS = re.compile("\r\n?|[\x85\u2028\u2029]")
_HEADER_VALUE = re.compile(r"""[ \t]*(?:(?P<plain>[^\s#'"\[\]{}&*!|>%@`,\\][^#\\]*?)|'(?P<single>[^'\n\\]*)'"""
                           r"""|"(?P<double>[^"\n\\]*)")?[ \t]*(?:[ \t]#.*)?""")
MAX_HEADER_VALUE = 200
MAX_HEADER_LINE = 600  # a header line with its comment
UNREADABLE_HEADER = ("the header cannot be read: write `player:` and `secret:` as plain lines at the start of a "
                     "line, like `player: athens` and `secret: 1a2b-3c4d-5e6f-7a8b`, as in the order template")


class HeaderError(ValueError):
    """The raw text has no header pbem can read without parsing the file."""


def scan_header(text: str) -> dict[str, str]:
    """The top-level ``player:`` and ``secret:`` values, read from the raw text with one regular expression and
    no YAML parsing: the file is authenticated before anything costly is done with it (an unauthenticated
    sender cannot make pbem parse 256 KB of YAML).  A key given twice, a value in flow style, with escapes or
    longer than ``MAX_HEADER_VALUE`` raises ``HeaderError``; a missing key is left out.  Once the file is
    authenticated and parsed, intake checks that the parsed values are the ones scanned here."""
    found: dict[str, str] = {}
    if not text.isascii() or "\r" in text:  # lines as the YAML parser (and so the order checker) sees them
        text = _LINE_ENDS.sub("\n", text)
    odd = _ODD_HEADER.search(text)
    if odd:
        what = f"`? {odd.group(1)}`, an explicit key," if odd.group(1) else "a key in quotes with escapes"
        raise HeaderError(f"{what} on line {text.count(chr(10), 0, odd.start()) + 1}: write the key plainly")
    for m in _HEADER_LINE.finditer(text):
        key, rest = m.group(2), m.group(3)
        if key in found:
            raise HeaderError(f"`{key}:` is given twice")
        if rest and rest[0] not in " \t":
            raise HeaderError(f"`{key}:` needs a space after the colon")
        if len(rest) > MAX_HEADER_LINE:  # before the pattern, whose time grows with the square of the line
            raise HeaderError(f"the `{key}:` line is {len(rest)} characters long")
        v = _HEADER_VALUE.fullmatch(rest)
        if v is None:
            example = f"`{key}: {'athens' if key == 'player' else '1a2b-3c4d-5e6f-7a8b'}`"
            if re.match(r'[ \t]*"[^"\n]*\\', rest):  # a soak test: "not a plain line" left the player guessing
                raise HeaderError(f"`{key}:` has its value in quotes with escapes (a backslash), which pbem does not "
                                  f"read before it knows the sender: write it plainly, like {example}")
            raise HeaderError(f"`{key}:` is not written as a plain line: write it like {example}")
        value = next((g for g in (v.group("plain"), v.group("single"), v.group("double")) if g is not None), "")
        if not value.strip() and re.match(r"\n[ \t]+[^\s#]", text[m.end():]):  # valid YAML: the value below
            raise HeaderError(f"`{key}:` has its value on the next line: write it on the same line, "
                              f"like `{key}: {'athens' if key == 'player' else '1a2b-3c4d-5e6f-7a8b'}`")
        if len(value) > MAX_HEADER_VALUE:
            raise HeaderError(f"`{key}:` is {len(value)} characters long")
        found[key] = value.strip()
    for key in ("player", "secret"):
        if key in found:
            continue
        # a header key behind a space that is not one (U+00A0 from a web mail, a zero-width space, a BOM inside the
        # text): YAML reads it as part of the key, so the key is missing; say what is in the way (a mail review)
        odd_space = re.search(rf"^[ \t]*([^\x00-\x7f])[^\S\n]*{key}[ \t]*:", text, re.M)
        if odd_space:
            ch = odd_space.group(1)
            what = f"U+{ord(ch):04X}" + (f" {unicodedata.name(ch)}".lower() if unicodedata.name(ch, "") else "")
            raise HeaderError(f"`{key}:` on line {text.count(chr(10), 0, odd_space.start()) + 1} has an invisible "
                              f"character before it ({what}): delete it, so that the line starts with `{key}:`")
    return found


def ready(camp: Campaign) -> None:
    """Read every campaign file intake and the order checker use (config and deadline, snapshot, map, tables,
    secrets), so that a damaged one stops the command (``PbemError``: one line, exit code 2) before any file
    is answered, audited or moved.  Else the checker would report the campaign's fault as the player's file's,
    and the player's good file would be refused.  The reads are cached, so a second file costs nothing."""
    from .checker import Game
    Game.of(camp)  # the snapshot, the map and the tables, as the checker reads them
    camp.player_secrets()
    campaign_deadline(camp)
    from .cycle import seats
    seats(camp)


def dry_runs(camp: Campaign, turn: int) -> int:
    """How many dry runs of ``turn`` audit.log records (`pbem adjudicate --dry-run` shows the turn's dice)."""
    try:
        text = (camp.root / "audit.log").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return 0
    return sum(1 for m in DRY_RUN_LINE.finditer(text) if int(m.group(2)) == turn)


def submit_bytes(camp: Campaign, raw: bytes, source: str, now: datetime, late_ok: bool = False,
                 moderator_fix: bool = False, force: bool = False) -> Answer:
    """Authenticate, check and store one order file.  The caller holds the campaign lock.

    The sender is authenticated first, from the header lines alone (``scan_header``, a constant-time compare of
    the secret); only then is the file parsed, once, and checked.  A refused moderator's fix (``--fix``) is the
    moderator's own attempt: its answer is printed, not kept among the replies the players get."""
    answer = _submit_bytes(camp, raw, source, now, late_ok, moderator_fix, force)
    answer.campaign = camp.root
    answer.moderators = answer.moderators or (moderator_fix and not answer.accepted)
    return answer


def _submit_bytes(camp: Campaign, raw: bytes, source: str, now: datetime, late_ok: bool,
                  moderator_fix: bool, force: bool) -> Answer:
    ready(camp)
    name = source
    bad = check_name(name)
    if bad:
        return _refuse(camp, source, bad)
    if len(raw) > MAX_ORDER_BYTES:
        return _refuse(camp, source, f"the file is {len(raw)} bytes; the limit is {MAX_ORDER_BYTES}")
    try:
        doc_text = yamlio.decode(raw, name)
    except yamlio.YamlError as exc:
        return _refuse(camp, source, f"cannot be read: {exc}")
    try:
        header = scan_header(doc_text)
    except HeaderError as exc:
        return _refuse(camp, source, f"{UNREADABLE_HEADER} ({exc})")
    state = camp.load_state()
    player = header.get("player")
    mail = yamlio.mail_text(doc_text)  # mail around the orders (HTML, a saved email, quoting): said as `pbem check`
    # refused in the same words before and after the sender is authenticated
    mail_refused = f"cannot be read: {yamlio.YamlError(name, mail[0], *mail[1])}" if mail else ""
    if player is None:
        if mail_refused:
            return _refuse(camp, source, mail_refused)
        if not any(line.strip() and not line.lstrip().startswith("#") for line in doc_text.splitlines()):
            # in `pbem check`'s words (a mail review: the two said it differently)
            return _refuse(camp, source, "the file is empty: an order file needs at least campaign, turn and player")
        return _refuse(camp, source, f"this is not an order file, or {UNREADABLE_HEADER}")
    if player not in state.players:
        lower = player.strip().lower() if isinstance(player, str) else None
        if lower in state.players:  # `player: Athens` (a phone's capital): the ids are written in lower case
            return _refuse(camp, source, f"player {shown(player)}: write it in lower case, player: {lower}")
        return _refuse(camp, source, f"player {shown(player)} is not in this campaign ({', '.join(state.turn_order)})")
    secrets = camp.player_secrets()
    given = header.get("secret") or ""
    stored = secrets.get(player) or ""
    withheld_ok = moderator_fix and given == WITHHELD  # a stored file, fixed
    if not withheld_ok and (not stored or not given
                            or not hmac.compare_digest(given.encode("utf-8"), stored.encode("utf-8"))):
        if given == WITHHELD:  # the moderator resubmitting a copy pbem kept (stored, or in the drop folder)
            due = campaign_deadline(camp)
            # the flags that take it, --force among them where the turn's dice were seen (as for any fix below), so
            # the command printed works as printed (a code review: on a held turn it was refused again)
            forced, _ = fix_needs_force(camp, state, state.turn, player, hashlib.sha256(raw).hexdigest())
            take = flags("--fix", *(["--force"] if forced else []),
                         *(["--late-ok"] if due is not None and now.replace(microsecond=0) > due else []))
            answer = _refuse(camp, source, f"a stored copy (its secret is withheld) for {player}: pbem takes such a "
                                           f"copy only as the moderator's fix (submit {' '.join(take)})", player,
                             authenticated=False, retry=take, hint="if it is a copy pbem kept")
            answer.moderators = True  # only the moderator holds such a copy: no reply is kept for a player
            return answer
        if not given:  # the template's `# secret:` line left commented out, say: the hint `pbem check` gives
            return _refuse(camp, source, f"no secret for {player}: add a line  secret: <the secret the moderator "
                                         f"gave you>  to the header (in the order template, remove the '# ' in "
                                         f"front of `# secret:` and write your secret there)", player,
                           authenticated=False, audited=f"no secret for {player}")
        from .cycle import former_secret, seats
        if seats(camp).get(player) == "bot" and former_secret(camp, player, given):
            # the seat's former player, whose secret `pbem seat` replaced: told what they can do about it (the
            # secret they hold was the seat's, so this tells them nothing they did not know); any other wrong
            # secret learns nothing
            return _refuse(camp, source, f"{player} is played by the computer player now (your secret was replaced "
                                         f"when the seat was handed over); ask the moderator", player,
                           authenticated=False, audited=f"the former secret of {player}, a computer player's seat")
        return _refuse(camp, source, f"a wrong secret for {player}: write the secret the moderator gave you", player,
                       authenticated=False, audited=f"a wrong secret for {player}")
    # authenticated: now the file is parsed, once
    if mail_refused:
        return _refuse(camp, source, mail_refused, player)
    try:
        doc = yamlio.parse(doc_text, name)
    except yamlio.YamlError as exc:
        return _refuse(camp, source, f"cannot be read: {exc}", player)
    data = doc.data
    if not isinstance(data, dict):
        return _refuse(camp, source, "this is not an order file (it needs campaign, turn, player and secret)",
                       player)
    if data.get("player") != player or data.get("secret") != header.get("secret"):
        return _refuse(camp, source, f"the file does not read as its header lines say; {UNREADABLE_HEADER}", player)
    if data.get("campaign") != camp.config["name"]:
        return _refuse(camp, source, f"the file is for campaign {shown(data.get('campaign'))}, this is "
                                     f"{camp.config['name']!r}", player)
    turn = data.get("turn")
    whole = isinstance(turn, int) and not isinstance(turn, bool)  # 1.0 and true equal 1 in Python
    if state.finished or closed(camp.root):
        return _refuse(camp, source, "the game is over" if state.finished else "the campaign was closed (abandoned)",
                       player, turn if whole else None)
    if turn is None:
        return _refuse(camp, source, f"the file has no turn: line (write turn: {state.turn})", player)
    if not whole:
        given = str(turn).lower() if isinstance(turn, bool) else shown(turn) if isinstance(turn, (str, float)) \
            else "a list or mapping"  # as YAML spells it
        return _refuse(camp, source, f"turn must be a whole number (turn: {state.turn}), not {given}", player)
    if turn < 1:  # no game turn 0 ran: the checker's own words, not "too late" (a mail review)
        return _refuse(camp, source, f"game turn is {turn}; it must be at least 1: write turn: {state.turn} to send "
                                     f"your orders for game turn {state.turn} now", player)
    if turn < state.turn:  # what happens now: the turn ran without it
        ran = ("with the file of yours accepted before this one" if (camp.orders_dir(turn) / f"{player}.yaml").is_file()
               else "without orders from you")
        return _refuse(camp, source, f"the file is for game turn {turn}, the campaign is at turn {state.turn} (too "
                                     f"late: that turn has been adjudicated). This file is not used: game turn {turn} "
                                     f"ran {ran} (your report of turn {turn} tells how it went); send your orders for "
                                     f"game turn {state.turn} (turn: {state.turn}) now", player)
    if turn != state.turn:
        return _refuse(camp, source, f"the file is for game turn {shown(turn)}, the campaign is at turn {state.turn} "
                                     f"(not the current turn): write turn: {state.turn} to send your orders for game "
                                     f"turn {state.turn} now", player)
    if state.players[player].eliminated_turn is not None:
        return _refuse(camp, source, f"{player} is out of the game", player, turn)
    from .cycle import seats
    bot = seats(camp).get(player) == "bot"
    is_frozen = frozen(camp, turn)
    due = campaign_deadline(camp)
    # to the second, as the answer shows it: a file taken at 18:00:00.4 is in time for 18:00 (a review: it was
    # refused as "late: ... taken at 18:00:00")
    late = due is not None and now.replace(microsecond=0) > due
    kept = withhold(raw, stored)  # the bytes stored: the secret never lands in the campaign folder
    digest = hashlib.sha256(kept).hexdigest()
    folder = camp.orders_dir(turn)
    target = folder / f"{player}.yaml"
    kept_versions = versions(folder, player)
    same_bytes = target.is_file() and target.read_bytes() == kept
    too_many = kept_versions >= MAX_VERSIONS and not same_bytes
    seen = dry_runs(camp, turn)
    forced_if_fix, played = fix_needs_force(camp, state, turn, player, digest)

    def retry(fix: bool) -> tuple[str, ...]:
        """The flags that take this file (``fix``: as the moderator's fix)."""
        return flags(*(["--fix"] if fix else []), *(["--force"] if fix and forced_if_fix else []),
                     *(["--late-ok"] if late else []))
    needs_fix = moderator_fix or bot or is_frozen or too_many
    take, take_copy = retry(needs_fix), retry(True)

    # a player's file refused with a flag the moderator may take it with: audit.log keeps its SHA-256, so the copy
    # the moderator takes later is known as the player's own (``refused_as``); none for the moderator's own attempt
    sent = None if moderator_fix else short_hash(digest)

    if bot and not moderator_fix:
        why = f"{player} is played by the computer player now; ask the moderator"
        return _refuse(camp, source, why, player, turn, sent_hash=sent, retry=take, retry_copy=take_copy,
                       hint="to take it for the computer player's seat")
    if is_frozen and not moderator_fix:
        why = (f"game turn {turn} is being run again by the moderator: its order files are fixed and only the "
               f"moderator may replace one, so this file was not taken; the moderator has it and decides (you need "
               f"not send it again)")
        return _refuse(camp, source, why, player, turn, sent_hash=sent, retry=take, retry_copy=take_copy,
                       hint="to take it in place of the file the turn was run with")
    forced = moderator_fix and forced_if_fix
    if forced and not force:
        how = " and ".join(([f"was dry-run {seen} time(s) (audit.log)"] if seen else [])
                           + (["was run and rolled back"] if is_frozen else []))
        return _refuse(camp, source, f"the moderator's fix is refused: game turn {turn} {how}, so its dice have been "
                                     f"seen, and this file (sha256 {short_hash(digest)}) is not the one they were seen "
                                     f"with: a changed file would choose new ones; give --force to take it anyway "
                                     f"(audited as forced)", player, turn, retry=take, retry_copy=take_copy,
                       hint="to take it anyway (audited as forced)")
    if late and not late_ok:
        # to the second: a deadline is kept to the minute, and "the deadline was 06:09" alone reads as on time for a
        # file taken at 06:09:09
        came = f"the deadline was {fmt(due)} and the file was taken at {now:%Y-%m-%d %H:%M:%S} UTC"
        why = (f"late: {came}; give --late-ok to take it late (audited; `pbem verify` names it)"
               if moderator_fix else
               f"late: {came} (if you sent it before then, ask the moderator, who may still take it)")
        return _refuse(camp, source, why, player, turn, sent_hash=sent, retry=take, retry_copy=take_copy,
                       hint="if it reached you in time")
    long = too_long(doc)
    if long:
        return _refuse(camp, source, long, player, turn)
    if too_many and not moderator_fix:
        why = (f"{player} has replaced the orders of game turn {turn} {kept_versions} times; the limit is "
               f"{MAX_VERSIONS}, so this file was not taken; the moderator has it and may still take it")
        return _refuse(camp, source, why, player, turn, sent_hash=sent, retry=take, retry_copy=take_copy,
                       hint="to take it all the same")
    report = _check(doc_text, name, camp, doc, player)
    findings = [f.text() for f in report.findings]
    errors = len(report.errors) if report.usable else max(1, len(report.errors))
    if errors:
        return _refuse(camp, source, f"the order checker found {errors} error(s); fix them and send the file again",
                       player, turn, findings)
    try:
        still = scan_header(yamlio.decode(kept, name)).get("secret")
    except (yamlio.YamlError, HeaderError):
        still = None
    if stored and still != WITHHELD:
        return _refuse(camp, source, "the secret is written with escapes pbem cannot take out of the stored file; "
                                     "write it plainly, like `secret: 1a2b-3c4d-5e6f-7a8b`", player, turn)
    # the player's own file, refused before with a flag the moderator may take it with (late, say), given back by
    # the moderator (ingest's kept copy, its secret withheld, needs --fix): named as the player sent it, and
    # recorded as theirs (as `submit --late-ok` of the file sent would) unless it needs a fix of its own (a held
    # turn, a computer seat, the version limit, a turn whose dice were seen)
    sent_as = refused_as(camp, digest) if moderator_fix else None
    shown_as = sent_as if sent_as is not None else printable(source)
    if same_bytes and as_recorded(camp, state, player, digest):  # named as sent too (a soak test: the kept name)
        return Answer(shown_as, True, player, turn, "identical to the orders already accepted", findings, target,
                      True)
    own = sent_as is not None and not (bot or is_frozen or too_many or forced_if_fix)
    fix = moderator_fix and not own
    with held_interrupts():
        replaced = versions(folder, player) + 1 if target.is_file() else 0
        store(camp, target, kept, folder / f"{player}.v{replaced}.yaml" if replaced else None, shown_as,
              f"intake accepted {shown_as}"
              + (f" ({PLAYED_BY_UNDONE_RUN})" if fix and played else "")
              + f" for {player} turn {turn} (sha256 {short_hash(digest)})"
              + (" as a moderator's fix" if fix else "")
              + (f", forced after {forced_after(seen, is_frozen)}" if forced else ""))
    stored_as = (f"stored as version {replaced + 1} of {player}'s orders for game turn {turn} (it replaces version "
                 f"{replaced})" if replaced else "stored")
    if fix and sent_as is not None:
        msg = (f"{stored_as}: the file you sent, taken by the moderator as the moderator's fix; sha256 "
               f"{short_hash(digest)}. This is the file that counts; send no other unless the moderator asks.")
    elif fix:
        msg = (f"{stored_as}, as the moderator's fix; sha256 {short_hash(digest)}. This is the file that counts; send "
               f"no other unless the moderator asks.")
    elif late_ok:
        msg = (f"{stored_as}; sha256 {short_hash(digest)}. Taken late by the moderator: this is the file that counts; "
               f"send no other unless the moderator asks.")
    else:
        at = f" ({fmt(due)})" if due is not None else ""
        msg = (f"{stored_as}; sha256 {short_hash(digest)}. You may send a new file until the turn runs: at the "
               f"deadline{at}, or earlier once every player's file is in. The last file accepted before it runs "
               f"counts.")
    answer = Answer(shown_as, True, player, turn, msg, findings, target)
    answer.sent_as, answer.own = sent_as, own
    answer.fix_because = "; ".join(why for why, when in (
        (f"game turn {turn} is held after a rollback", is_frozen), (f"{player}'s seat is the computer player's", bot),
        (f"the limit of {MAX_VERSIONS} versions", too_many), ("the turn's dice were seen in a dry run", seen))
        if when)
    return answer


def store(camp: Campaign, target: Path, kept: bytes, older: Path | None, source: str, line: str) -> None:
    """Store an accepted file as ``target`` and audit it (``line``), or, if anything fails, change nothing
    (``Staged``): the new bytes are written beside it first (the only step that needs room on the disk), then the
    file stored before is renamed ``older`` (``PLAYER.vN.yaml``) and the new one renamed into place; if the audit
    line cannot be written the renames are undone (a moderator's review: a full disk while a replacement was
    stored left the player's accepted file renamed to .v1 and no file in its place, which `run-turn` then took for
    a file removed by hand).  An error is one line naming the file, saying that nothing was stored."""
    staged: Staged | None = None
    made = not target.parent.exists()
    try:
        staged = Staged(target, kept, older=older)
        staged.put()
        sync_folder(target.parent)
        camp.audit(line)
    except BaseException as exc:
        if staged is not None:
            staged.undo()
        if made:
            try:
                target.parent.rmdir()  # the turn's folder, made for this file
            except OSError:
                pass  # the error that stopped it is the one to report
        if not isinstance(exc, OSError):
            raise
        if exc.filename is None:
            exc = named(exc, target)
        raise CampaignError(f"{failed(exc, camp.root)}; {source} was not stored and nothing was changed (the "
                            f"file accepted before, if any, is still the one that counts): fix that, then give it "
                            f"again") from None
    staged.done()


def refused_as(camp: Campaign, digest: str) -> str | None:
    """The name a player's file of SHA-256 ``digest`` (as stored: secret withheld) was sent under when intake
    refused it with a flag the moderator may take it with (audit.log's ``intake refused, file sha256 H, NAME: ...``;
    the last such line), or None: no player sent these bytes.  A copy the moderator changed has other bytes."""
    try:
        text = (camp.root / "audit.log").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    found = None
    for line in text.splitlines():
        m = REFUSED_SENT.match(line)
        if m and digest.startswith(m.group(1)):
            found = m.group(2)
    return found




def fix_needs_force(camp: Campaign, state, turn: int, player: str, digest: str) -> tuple[bool, bool]:
    """(whether a moderator's fix of the file of SHA-256 ``digest`` needs --force, whether it is the very file every
    rolled-back run of the turn played).  The dice of the turn were seen (dry runs, a run rolled back): a fix that
    is not the file they were seen with needs --force and is audited as forced; the file the turn was recorded
    with, or the one every rolled-back run of it from this position played, given back needs neither (the same
    dice)."""
    is_frozen = frozen(camp, turn)
    recorded = as_recorded(camp, state, player, digest, if_none=False)
    played = is_frozen and not recorded and played_by_undone_runs(camp, state, player, digest)
    return bool(dry_runs(camp, turn) or is_frozen) and not recorded and not played, played


def played_by_undone_runs(camp: Campaign, state, player: str, digest: str) -> bool:
    """Whether a file of SHA-256 ``digest`` is ``player``'s file in every run of the current turn that a rollback
    undid from the position the turn starts from now (a run whose start audit.log does not name counts too):
    the same bytes give the same dice (R-TURN-6), so giving it back after the rollback shows nothing new and
    needs no --force.  ``pbem verify`` flags a file of such a turn that differs from a rolled-back run's and no
    forced fix took, so this one it leaves alone."""
    from .auditlog import ADJUDICATED, ROLLBACK
    try:
        text = (camp.root / "audit.log").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    turn, order = state.turn, list(state.turn_order)
    if player not in order:
        return False
    live: list[tuple[list[str], str | None]] = []
    undone: list[tuple[list[str], str | None]] = []
    for line in text.splitlines():
        if (m := ADJUDICATED.match(line)) and int(m.group(1)) == turn:
            live.append((m.group(2).split(","), m.group(4)))
        elif (m := ROLLBACK.match(line)) and int(m.group(2)) <= turn:  # back to this turn or before: its runs undone
            undone += live
            live = []
    now = start_hash(camp, turn)
    runs = [hashes for hashes, start in undone if start is None or start == now]
    return bool(runs) and all(len(hashes) == len(order) and hashes[order.index(player)] not in ("", "-")
                              and digest.startswith(hashes[order.index(player)]) for hashes in runs)


def as_recorded(camp: Campaign, state, player: str, digest: str, if_none: bool = True) -> bool:
    """Whether a file of SHA-256 ``digest`` is the one audit.log last recorded for ``player`` this turn; ``if_none``
    when nothing was recorded.  The same bytes given again change nothing, and a file changed by hand in the
    orders folder and given back as it is (`submit --fix`) is taken, checked and audited, so the turn can run
    with it.  After dry runs or a rolled-back run, the file the dice were seen with is the recorded one, not the
    one in the folder: a file edited there and given back is a changed file and needs --force (a code review
    found it taken without)."""
    from .cycle import recorded_files
    was = recorded_files(camp, state.turn, list(state.turn_order)).get(player)
    return if_none if was is None else digest.startswith(was[0])


def forced_after(dry: int, rolled_back: bool) -> str:
    """What a forced fix followed, as audit.log says it (``auditlog.ACCEPTED`` reads it back)."""
    return " and ".join(([f"{dry} dry run(s) of the turn"] if dry else [])
                        + (["a run of the turn that was rolled back"] if rolled_back else []))


MAX_VERSIONS = 20  # earlier versions kept per player and turn (PLAYER.v1.yaml ... PLAYER.v20.yaml)


def versions(folder: Path, player: str) -> int:
    """How many earlier versions of ``player``'s file the folder keeps."""
    n = 0
    while (folder / f"{player}.v{n + 1}.yaml").exists():
        n += 1
    return n


@lru_cache(maxsize=None)
def _longest_lists() -> tuple[int, int]:
    """The most entries any list (``maxItems``), and any mapping (``maxProperties``), of the order schema takes."""
    from .orders import orders_schema
    items, props = [0], [0]

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "maxItems" and isinstance(v, int):
                    items.append(v)
                elif k == "maxProperties" and isinstance(v, int):
                    props.append(v)
                else:
                    walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(orders_schema())
    return max(items), max(props)


def too_long(doc: yamlio.Located) -> str | None:
    """Why the file is refused before it is checked, if a list or mapping in it is longer than any the order
    schema takes (say 43,000 diplomacy targets): the checker would spend seconds on entries it then refuses.
    Lists within the limit but over their own section's are the checker's to report."""
    most, most_keys = _longest_lists()
    stack: list[tuple[object, tuple]] = [(doc.data, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, list):
            if len(node) > most:
                where = doc.where(path)
                at = f"line {where[0]}: " if where else ""
                return (f"{at}a list of {len(node)} entries; no list of an order file may have more than {most} "
                        f"(send fewer orders)")
            stack += [(v, path + (i,)) for i, v in enumerate(node)]
        elif isinstance(node, dict):
            if len(node) > max(most_keys, 50):
                where = doc.where(path)
                at = f"line {where[0]}: " if where else ""
                return f"{at}a section of {len(node)} entries; the limit is {max(most_keys, 50)}"
            stack += [(v, path + (k,)) for k, v in node.items()]
    return None


def _check(text: str, name: str, camp: Campaign, located: yamlio.Located, player: str):
    """The order checker's report on an authenticated file, from the parse intake made, against the campaign
    as the player's kit holds it: the answer goes back to the player, so it must say no more than their own
    `pbem check --campaign kit` would."""
    from .checker import check_text
    return check_text(text, name, camp, located=located, as_player=player)


def shown(value: object) -> str:
    """An untrusted value (a header value, a campaign name from a file) as a message shows it: quoted, with
    control characters escaped (``repr``), so it can never start a line of its own or send escape codes to a
    terminal.  File names are shown unquoted, escaped by ``printable``."""
    return repr(value)


def reply(camp: Campaign, answer: Answer) -> Path | None:
    """Keep the confirmation text for the moderator to send back, as ``replies/turn-NNN/PLAYER-K.txt``: K counts
    that player's own replies of the turn (``unknown-K.txt`` for a file whose sender was not authenticated), so a
    reply attached under its name tells a player nothing of the files others sent.  The reply holds the answer
    as the player may read it (``Answer.text(for_player=True)``: none of the moderator's lines).  The moderator's
    own failed attempt (a refused `submit --fix`) is no player's business: nothing is kept, None."""
    if answer.moderators:
        return None
    turn = answer.turn or camp.current_turn
    folder = camp.root / "replies" / f"turn-{turn:03d}"
    who = reply_name(answer)
    n = 1
    while (folder / f"{who}-{n:03d}.txt").exists():
        n += 1
    path = folder / f"{who}-{n:03d}.txt"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write(path, answer.text(for_player=True))
    except OSError as exc:  # a full disk: the file was answered all the same, and that answer is printed
        raise _not_replied(camp, answer, exc) from None
    answer.replied = path
    return path


class AnsweredBut(PbemError):
    """A file was answered (accepted and stored, or refused) but what comes after failed (a full disk): its reply
    could not be kept, or ingest could not move it out of the drop folder.  The answer stands and is printed
    (``answer``); the message says, in one line naming the file it failed on, what the moderator must do (a
    moderator's review: a file stored and audited as accepted got exit code 2, no answer and no reply)."""

    def __init__(self, answer: Answer, message: str):
        super().__init__(message)
        self.answer = answer


def _not_replied(camp: Campaign, answer: Answer, exc: OSError) -> AnsweredBut:
    what = "accepted and stored" if answer.accepted else "refused (nothing changed)"
    return AnsweredBut(answer, f"{failed(exc, camp.root)}: the answer to {printable(answer.source)} (printed above) "
                               f"could not be kept for the player; the file was {what} all the same: send that "
                               f"answer yourself")


def reply_name(answer: Answer) -> str:
    """Whom a reply (and a file ingest keeps) is named after: the player, or ``unknown`` for a sender who was not
    authenticated."""
    return answer.player if answer.player and answer.authenticated else "unknown"


def read_sent(path: Path) -> bytes | str:
    """The bytes of a file a player sent, or why it cannot be taken (a str).  Opened without following a link
    (``O_NOFOLLOW``) and without waiting on a pipe, then checked on the open file: a plain file with one name.  A
    hard link (a second name of a file elsewhere, say the campaign's ``secret/players.yaml``) is refused unread."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "is a link, not a file; send the file itself"
        return f"cannot be read ({exc.strerror})"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return "is not a regular file"
        if st.st_nlink > 1:
            return (f"is a hard link (one of {st.st_nlink} names of the same file), not a file of its own; copy it "
                    f"to a file of its own (cp, not ln) and give that")
        if st.st_size > MAX_ORDER_BYTES:
            return f"the file is {st.st_size} bytes; the limit is {MAX_ORDER_BYTES}"
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(MAX_ORDER_BYTES + 1)
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    finally:
        os.close(fd)


def withheld_name(camp: Campaign, name: str) -> str:
    """A file's name as answers, audit.log and the drop folder's kept copies show it: a player's secret in it
    replaced by ``withheld`` (a red-teamer named a file after his secret: it stood in audit.log, which the
    archive carries, and in the kept copy's name)."""
    for secret in camp.player_secrets().values():
        if secret and secret in name:
            name = name.replace(secret, "withheld")
    return name


def submit_path(camp: Campaign, path: Path, now: datetime, late_ok: bool = False,
                moderator_fix: bool = False, force: bool = False) -> Answer:
    path = Path(path)
    source = withheld_name(camp, path.name)
    if path.is_symlink():
        return _refuse(camp, source, "is a link, not a file; send the file itself")
    if not path.is_file():
        return _refuse(camp, source, "no such file" if not path.exists() else "is not a regular file")
    raw = read_sent(path)
    if isinstance(raw, str):
        return _refuse(camp, source, raw)
    answer = submit_bytes(camp, raw, source, now, late_ok, moderator_fix, force)
    answer.given = path
    return answer


def holds_campaign(entry: Path, depth: int = 3) -> Path | None:
    """The first campaign folder (one with a campaign.yaml) at or under ``entry`` of a drop folder, at most
    ``depth`` folders down, links not followed; None if there is none (a file, a link, an ordinary folder).  A
    campaign folder put in the drop by mistake is found there; a deeper tree is not walked whole at every ingest
    (a code review: such a folder is never moved, so a big one would cost every ingest a walk)."""
    if entry.is_symlink() or not entry.is_dir():
        return None
    for top, dirs, files in os.walk(entry):  # os.walk follows no links
        if "campaign.yaml" in files:
            return Path(top)
        if len(Path(top).relative_to(entry).parts) >= depth:
            dirs.clear()
    return None


def ingest(camp: Campaign, drop: Path, now: datetime, late_ok: bool = False,
           answers: list[Answer] | None = None, left: list[Path] | None = None) -> list[Answer]:
    """Every file in the drop folder, oldest first: answered, then moved to ``accepted/turn-NNN/`` or
    ``refused/turn-NNN/`` under a name that goes with its reply (``kept_name``); each answer says where
    (``Answer.kept``).  ``answers``: the list they are added to as they are given, so a caller that is
    interrupted (Ctrl-C, held until the file under way is done) still has those given so far.  ``left``: where
    the entries holding a campaign folder (``holds_campaign``) are listed: never moved nor answered, they stay
    in the drop folder for the moderator, and the other files are taken all the same (a cheater's review: a
    folder that held a campaign.yaml stopped intake for everyone)."""
    from .errors import UsageError
    drop = Path(drop)
    ready(camp)  # a damaged campaign file: nothing is answered or moved
    if drop.exists() and not drop.is_dir():
        raise UsageError(f"--from {drop}: is a file, not a folder (to take one file use `pbem submit "
                         f"{camp.root} {drop}`)")
    if not drop.is_dir():
        raise UsageError(f"--from {drop}: no such folder")
    for root, d in ((camp.root.resolve(), drop.resolve()),  # links followed, and as written (a link to the
                    (Path(os.path.abspath(camp.root)), Path(os.path.abspath(drop)))):  # campaign in the drop)
        if d == root or root in d.parents:
            raise UsageError(f"--from {drop}: the drop folder may not be the campaign folder or inside it")
        if d in root.parents:  # intake would move the campaign itself into refused/
            raise UsageError(f"--from {drop}: the campaign folder {camp.root} is inside the drop folder; use a drop "
                             f"folder that holds only the players' files (nothing was taken)")
    # where the files go: a file (or a link) named accepted or refused that is in the way is answered like any
    # other unusable file, first, and moved aside into refused/, so it cannot stop intake
    blockers = [drop / sub for sub in ("accepted", "refused")
                if (drop / sub).is_symlink() or (drop / sub).exists() and not (drop / sub).is_dir()]
    # every entry is answered, hidden files and folders too (refused), so the sender always hears back
    entries = []
    for p in (p for p in drop.iterdir() if p.name not in ("accepted", "refused")):
        held = holds_campaign(p)  # the moderator's own folder put there by mistake: never moved
        if held is None:
            entries.append(p)
        elif left is not None:
            left.append(held)
    entries.sort(key=lambda p: (p.lstat().st_mtime, p.name))
    answers = [] if answers is None else answers
    todo = blockers + entries
    for i, p in enumerate(todo):
        with held_interrupts():  # answered, replied and moved out together (a Ctrl-C sweep: answered twice)
            try:
                answers.append(_ingest_one(camp, drop, p, p in blockers, now, late_ok))
            except PbemError as exc:  # (a full disk) the files after it were not taken: said so, by name
                if isinstance(exc, AnsweredBut):  # answered all the same: shown with the others, then the error
                    answers.append(exc.answer)
                exc.args = (str(exc) + not_taken([shown_name(camp, q.name) for q in todo[i + 1:]], True),)
                raise
    return answers


def shown_name(camp: Campaign, name: str) -> str:
    """A file's name or path as a message shows it: a player's secret in it withheld (``withheld_name``), and
    not a character that could start a line of its own or send codes to a terminal (``printable``)."""
    return printable(withheld_name(camp, name))


MAX_NAMED = 10  # files named in one error line; the rest are counted


def not_taken(names: list[str], ingest: bool) -> str:
    """What an error that stopped intake after one file adds about the files it did not come to (``names``, shown
    safely: ``shown_name``): they were not taken, and how to take them, by `ingest` (``ingest``) or `submit` (a
    code review: `submit f1 f2 f3` whose first reply could not be kept left f2 and f3 unanswered, unsaid).  ''
    if there are none."""
    if not names:
        return ""
    listed = ", ".join(names[:MAX_NAMED]) + (f" and {len(names) - MAX_NAMED} more" if len(names) > MAX_NAMED else "")
    it, was = ("it", "was") if len(names) == 1 else ("them", "were")
    how = (f"{'it stays' if it == 'it' else 'they stay'} in the drop folder, and the next ingest takes {it}" if ingest
           else f"give {it} to `pbem submit` again")
    return f"; {listed} {was} not taken (not answered, nothing changed): {how}"


def _ingest_one(camp: Campaign, drop: Path, p: Path, blocker: bool, now: datetime, late_ok: bool) -> Answer:
    """One entry of the drop folder: answered, its reply written, and moved out to accepted/ or refused/."""
    name = p.name
    if blocker:
        answer = submit_path(camp, p, now, late_ok)  # refused: a link, or a name without .yaml
        n = 1
        while (drop / f"{p.name}.{n}").exists() or (drop / f"{p.name}.{n}").is_symlink():
            n += 1
        aside = drop / f"{p.name}.{n}"
        p.rename(aside)  # out of the way of the folder of the same name
        p = aside
    elif p.is_dir() and not p.is_symlink():
        answer = _refuse(camp, withheld_name(camp, p.name), "is a folder; send each order file as a file of its own")
    else:
        answer = submit_path(camp, p, now, late_ok)
    answer.campaign = camp.root
    answer.given = None  # the file leaves the drop folder: the moderator is told where it was kept
    stays = f"; {shown_name(camp, p.name)} stays in the drop folder, and the next ingest answers it again"
    try:
        replied = reply(camp, answer)
    except AnsweredBut as exc:
        raise AnsweredBut(answer, str(exc) + stays) from None
    turn = answer.turn or camp.current_turn
    try:
        sorted_to = sorting_folder(drop / ("accepted" if answer.accepted else "refused"))
        dest = sorting_folder(sorted_to / f"turn-{turn:03d}")
        answer.kept = keep_sent(camp, p, kept_name(dest, replied.stem if replied else reply_name(answer),
                                                    withheld_name(camp, name)), answer)
    except OSError as exc:  # a full disk: the answer and its reply stand
        if exc.filename is None or os.fsdecode(exc.filename) == str(p):  # the file as sent: its name shown safely
            exc = named(exc, p.parent / withheld_name(camp, p.name))
        raise AnsweredBut(answer, f"{printable(failed(exc, camp.root))}: {printable(answer.source)} was answered "
                                  f"(the answer is printed above" + (f" and kept as {where(replied, camp.root)}" if replied else "")
                                  + f"), but could not be moved out of the drop folder{stays}") from None
    return answer


def kept_name(dest: Path, who: str, name: str) -> Path:
    """Where ingest keeps a file sent as ``name``, in ``dest`` (``DROP/accepted/turn-NNN`` or
    ``DROP/refused/turn-NNN``, the turn the reply is filed under): named after its reply (``athens-002``, or
    ``unknown-001`` for a sender not authenticated) and the name it came with, ``athens-002_Athens orders.yaml``,
    so each kept file shows turn and player and goes with its answer in ``replies/turn-NNN/``.  A name taken
    already gets ``.2``, ``.3``...  The kept name is one `pbem submit` takes as it is printed (a red-teamer: the
    command printed for a refused file failed on it): a character that does not print (a no-break space, a
    control) becomes ``_``, and a name over the length intake takes is cut short in its middle, its extension
    kept."""
    name = "".join(ch if ch.isprintable() else "_" for ch in name)
    stem, dot, ext = name.rpartition(".")
    if not dot or len(ext) > 4:
        stem, ext = name, ""
    ext = f".{ext}" if ext else ""
    base = f"{who}_{stem}{ext}"
    while stem and (len(base) > MAX_NAME - 4 or len(os.fsencode(base)) > MAX_KEPT_NAME):  # room for ".2"
        stem = stem[:-1]
        base = f"{who}_{stem}{ext}"
    target, n = dest / base, 2
    while target.exists() or target.is_symlink():
        stem, dot, ext = base.rpartition(".")
        target = dest / (f"{stem}.{n}.{ext}" if dot and stem and len(ext) <= 4 else f"{base}.{n}")
        n += 1
    return target


MAX_KEPT_NAME = 240  # bytes: most file systems take 255


def _defuse_folder(camp: Campaign, folder: Path) -> None:
    """A folder found in the drop folder, before it is kept in refused/: every link in it (symbolic, or a file with
    other names) removed, and every player's secret withheld in the files small enough to be order files."""
    for root, dirs, files in os.walk(folder, followlinks=False):
        for name in dirs + files:
            q = Path(root) / name
            try:
                st = q.lstat()
            except OSError:
                continue
            if stat.S_ISLNK(st.st_mode) or stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
                q.unlink()
            elif stat.S_ISREG(st.st_mode) and st.st_size <= MAX_ORDER_BYTES:
                raw = read_sent(q)
                if isinstance(raw, bytes):
                    kind = yamlio.opaque_kind(raw)
                    kept = opaque_stub(raw, kind) if kind else raw
                    for secret in camp.player_secrets().values():
                        kept = withhold(kept, secret)
                    if kept != raw:
                        atomic_write(q, kept, mode=0o600)


def sorting_folder(dest: Path) -> Path:
    """``DROP/accepted`` or ``DROP/refused``, made if need be, readable by the moderator only (0700): the files
    in it are the players' own."""
    dest.mkdir(mode=0o700, exist_ok=True)
    os.chmod(dest, 0o700)
    return dest


def keep_sent(camp: Campaign, p: Path, target: Path, answer: Answer | None = None) -> Path | None:
    """Move a file ingest answered out of the drop folder to ``target`` (in accepted/ or refused/), with every
    player's secret in it withheld as in a stored order file (``withhold``), mode 0600: a player's file kept there
    holds no secret for whoever reads the drop folder later.  A file too large to have been read is moved as it
    is (0600); a hard link or a symbolic link is not moved (the other name keeps the file, and a link moved
    deeper could come to name a campaign file, say ``secret/players.yaml``: neither may land among files the
    moderator sends back); a folder is moved once the links in it are removed and the secrets in its files
    withheld; anything else is moved as it is.  A file in which a secret cannot be found as written (a .docx, a
    PDF, RTF or .doc file, bytes that are no text: ``yamlio.opaque_kind``) is not kept: a line saying what it was,
    with its size and SHA-256, is kept in its place, as ``target`` + ``.txt``, and ``answer.kept_note`` says so.
    Returns where the file went (None: it was not kept)."""
    try:
        st = p.lstat()
    except OSError:
        return None  # gone already: nothing to move
    if stat.S_ISLNK(st.st_mode) or stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
        p.unlink()
        return None
    if stat.S_ISDIR(st.st_mode):
        _defuse_folder(camp, p)
    if stat.S_ISREG(st.st_mode) and st.st_size <= MAX_ORDER_BYTES:
        raw = read_sent(p)
        if isinstance(raw, bytes):
            kind = yamlio.opaque_kind(raw)
            if kind:
                stub = target.with_name(target.name + ".txt")
                target = target if stub.exists() or stub.is_symlink() else stub
                raw = opaque_stub(raw, kind)
                if answer is not None:
                    answer.kept_note = f"pbem kept no copy of the file itself: it is {kind}, in which a secret cannot " \
                                       f"be withheld"
            for secret in camp.player_secrets().values():
                raw = withhold(raw, secret)
            atomic_write(target, raw, mode=0o600)
            p.unlink()
            return target
    p.rename(target)
    if stat.S_ISREG(st.st_mode):
        os.chmod(target, 0o600)
    return target
