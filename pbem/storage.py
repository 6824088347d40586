"""The campaign folder: config, snapshots per turn, logs, orders, reports, secrets; atomic writes and a lock.

Layout (documented in docs/moderator.md)::

    CAMPAIGN/
      campaign.yaml            public config: name, players, options, deadlines, seed_sha256
      map.yaml                 the map this campaign plays on (a copy, so the folder stands alone)
      turn-keys.txt            the SHA-256 of every turn's key, fixed at pbem new (public)
      secret/                  mode 0700, the moderator's eyes only
        seed                   the secret seed (hex)
        players.yaml           each player's secret for authenticating order files
      state/turn-001.json      the state at the start of game turn 1; turn-002.json after turn 1 ...
      log/setup.jsonl          every die rolled at set-up
      log/turn-001.jsonl       events and dice of game turn 1
      orders/turn-001/athens.yaml   accepted orders (earlier versions kept as athens.v1.yaml ...)
      replies/turn-001/athens-001.txt  intake's answers, for the moderator to send back (unknown-001.txt: a
                               sender not authenticated; a refused `submit --fix` gets none)
      reports/turn-001/athens/ a player's report of turn 1
      audit.log                what the moderator did, one line each

A turn is committed by writing its snapshot last: the newest snapshot *is* the turn counter, so a crash
mid-turn leaves the previous turn intact.  Its next deadline (campaign.yaml) and its audit lines land with it
(``cycle._commit``).  A file is written beside its place and renamed into it (``write_beside``, ``Staged``): the
writing and the second name kept of the old file are the steps that can find the disk full, and they come before
anything is put in place; putting the new file in place and back again are renames of names that exist already.
So a full disk stops a change before anything is in place, a change and its audit line land together
(``Campaign.change``), and every error names the file it failed on (``named``).
"""
from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import re
import signal
import tempfile
import threading
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

from . import yamlio
from .errors import CampaignError, DataError
from .gamedata import DATA, GameMap, load_map, schema, tables, validate
from .model import GameState
from .options import NOT_PLAYABLE, OPTIONS, not_playable

SNAPSHOT = re.compile(r"^turn-(\d{3})\.json$")
HASH_DIGITS = 16  # an order file's SHA-256 as answers, replies and audit.log show it: its first 16 hex digits


def short_hash(digest: str) -> str:
    """A SHA-256 (hex) as pbem shows it everywhere; "-" (no file) stays "-"."""
    return digest[:HASH_DIGITS]


def printable(text: str) -> str:
    """``text`` with every control or format character (Unicode category C: newlines, ESC, NUL, bidi overrides
    ...) written as its escape, like ``repr`` does (``a\\nb``, ``\\x1b``, ``\\u202e``): an untrusted name shown in
    a message, an answer or audit.log can then neither start a line of its own nor send codes to a terminal."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == " " else repr(ch)[1:-1] for ch in text)


LOCK_WAIT = 30.0  # seconds a command waits for another pbem command at work on the same campaign (``wait_until_free``)


def first_fix(snapshot: Path) -> Path:
    """Where `pbem adjust` keeps a snapshot as it was first written: ``turn-NNN.fix-1.json`` beside it (a
    rollback moves both to its archive)."""
    return snapshot.with_name(f"{snapshot.stem}.fix-1.json")


def first_version_hash(snapshot: Path) -> str | None:
    """The SHA-256 of a snapshot file as it was first written (``first_fix`` if it was adjusted); None if there is
    neither."""
    for p in (first_fix(snapshot), snapshot):
        if p.is_file():
            return hashlib.sha256(p.read_bytes()).hexdigest()
    return None


def _flock_waiting(fh, root: Path | str) -> None:
    """Take the lock of ``fh`` (a campaign's ``.lock``), waiting up to ``LOCK_WAIT`` seconds for another command."""
    wait_until = time.monotonic() + LOCK_WAIT
    while True:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= wait_until:
                waited = f" (waited {LOCK_WAIT:g} s)" if LOCK_WAIT > 0 else ""
                raise CampaignError(f"{root}: another pbem command is working on this campaign{waited}; try again "
                                    f"when it has finished") from None
            time.sleep(0.05)


def wait_until_free(root: Path | str) -> None:
    """Wait until no pbem command holds the lock of the campaign folder ``root``, up to ``LOCK_WAIT`` seconds, then
    go on (a command that finds it taken after all is refused by ``Campaign.lock``); raise if it is still held.
    Called before anything of the campaign is read (a cheater's review: a deadline's `run-turn` from cron was
    refused outright while intake checked a player's big file; a moderator's review of a wait inside the lock: a
    second `run-turn` ran the next turn on the deadline it had read before the first one ran)."""
    path = Path(root) / ".lock"
    if not path.is_file():
        return
    try:
        fh = open(path, "a+")
    except OSError:
        return  # (the command's own reading says what is wrong with the folder)
    with fh:
        _flock_waiting(fh, root)
        fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


@contextmanager
def held_interrupts() -> Iterator[None]:
    """Ctrl-C waits until the block is done: the files a change writes and its audit line land together.  The
    interrupt then goes to whoever listened before (Python's own handler raises ``KeyboardInterrupt``), so the
    command still stops, right after the change.  An error in the block goes up as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    got: list[int] = []
    before = signal.signal(signal.SIGINT, lambda signum, frame: got.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
    if got and before is signal.default_int_handler:
        raise HeldInterrupt()
    if got and callable(before):
        before(signal.SIGINT, None)


@contextmanager
def unchanged(camp: Campaign, what: str) -> Iterator[None]:
    """An OSError in the block (a full disk: ``Campaign.change`` undid what it had done) as one line naming the
    file, saying ``what`` and that nothing was changed."""
    try:
        yield
    except OSError as exc:
        room = " (free some space)" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else ""
        raise CampaignError(f"{failed(exc, camp.root)}; {what} and nothing was changed: fix that{room}, then run "
                            f"it again") from None


class HeldInterrupt(KeyboardInterrupt):
    """A Ctrl-C that ``held_interrupts`` kept waiting until the change under way was done: the command stops
    right after it, and says the change was made (a Ctrl-C sweep: `adjust` made its change and said only
    "interrupted")."""


def closed(root: Path) -> bool:
    """A campaign whose secret seed was revealed (``revealed-seed.txt``) runs no more turns: every die is known."""
    return (Path(root) / "revealed-seed.txt").exists()


def refuse_if_closed(root: Path, what: str) -> None:
    """A closed campaign (``closed``) takes no more changes: the archive published with its seed is its last word
    (a moderator's review: after `archive --reveal-seed --abandon`, adjust, seat, rollback and deadline still
    changed the folder, which then no longer matched the archive).  ``what``: what is refused, in words."""
    if closed(root):
        raise CampaignError(f"{root}: the campaign was closed and its secret seed revealed (revealed-seed.txt): "
                            f"{what}; nothing was changed")


def default_mode() -> int:
    """The mode a file gets when a program creates it plainly (0o666 less the umask, often 0o644).  A temporary
    file is made 0o600.  Inside the campaign folder (itself 0o700, ``pbem.campaign.FOLDER_MODE``: it holds every
    hidden fact) files get this mode; ``secret/`` is kept 0o600 and says so with ``mode``."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


CAMPAIGN_FOLDERS = ("state", "log", "orders", "replies", "secret", "reports", "archive")


def write_fd(fd: int, raw: bytes) -> None:
    """All of ``raw`` to the open file ``fd``, then fsync: every file pbem writes in a campaign goes through here
    (``write_beside``, ``Campaign.audit``), so an error of a full disk comes from here, at a file pbem names."""
    view = memoryview(raw)
    while view:
        view = view[os.write(fd, view):]
    os.fsync(fd)


def named(exc: OSError, path: Path | str) -> OSError:
    """``exc`` as an OSError naming ``path``: a write or an fsync that fails (a full disk) names no file, and one
    on a temporary file names a name the user never saw (a moderator's review: `pbem: a file: No space left on
    device`).  The same errno, so the same subclass."""
    if exc.errno is None:
        return exc
    out = OSError(exc.errno, exc.strerror or str(exc), str(path))
    out.__cause__ = exc
    return out


def where(path: Path | str, root: Path | str) -> str:
    """``path`` as a message names it: relative to the campaign folder ``root`` when it is inside it
    (``orders/turn-002/athens.yaml``), else as it is."""
    try:
        return Path(path).relative_to(root).as_posix()
    except ValueError:
        try:
            return Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix()
        except ValueError:
            return str(path)


def failed(exc: OSError, root: Path | str) -> str:
    """An OSError in words, naming the file it failed on relative to the campaign ``root``:
    ``orders/turn-002/athens.yaml: No space left on device``."""
    what = exc.strerror or str(exc)
    return f"{where(exc.filename, root)}: {what}" if exc.filename else what


def write_beside(path: Path, data: str | bytes, mode: int | None = None) -> Path:
    """Write ``data`` to a new temporary file in ``path``'s folder (fsynced, ``mode``) and return its name, for the
    caller to move into place with ``os.replace``: once the bytes are written, the rename over ``path`` takes no
    more room on the disk.  On an error the temporary file is removed and the error names ``path`` (``named``)."""
    if mode is None:
        mode = default_mode()
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise named(exc, exc.filename if exc.filename and not str(exc.filename).endswith(".tmp") else path) \
            from None
    with _removed_on_error(Path(tmp), path):
        try:
            write_fd(fd, raw)
        finally:
            os.close(fd)
        os.chmod(tmp, mode)
    return Path(tmp)


@contextmanager
def _removed_on_error(tmp: Path, path: Path) -> Iterator[None]:
    """On an error in the block the temporary file ``tmp`` is removed, and an OSError names ``path``, the file it
    was to become (``named``)."""
    try:
        yield
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError):
            raise named(exc, path) from None
        raise


def sync_folder(folder: Path) -> None:
    """fsync a folder, so that a rename in it lasts a crash."""
    dfd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def atomic_write(path: Path, data: str | bytes, mode: int | None = None) -> None:
    """Write to a temporary file in the same folder, fsync, rename: the file is whole or absent (``write_beside``).
    ``mode``: the file's permissions (default: as a plainly created file's, ``default_mode``).  An error names
    ``path``."""
    tmp = write_beside(path, data, mode)
    with _removed_on_error(tmp, path):
        os.replace(tmp, path)
    sync_folder(path.parent)


class Staged:
    """A file's new content written beside it (``write_beside``) before a change, put in place by ``put`` and, if
    the change then fails, taken back by ``undo``.  Everything that can find the disk full comes first, in the
    constructor: the new file is written, and the old content is kept as a second name of the file (a hard link,
    which a full disk can refuse too), or a copy where links cannot be made.  ``put`` and ``undo`` are renames of
    names that exist already, so a full disk stops the change before ``put`` and never leaves the new content in
    place of the old after ``undo``.  ``done`` drops the second name once the change is made.

    ``older``: the name the file in place moves to when the new one is put (intake's ``PLAYER.v1.yaml``, the file
    accepted before), and back from on ``undo``; no hidden second name is then kept."""

    def __init__(self, path: Path, data: str | bytes, mode: int | None = None,
                 undone: Callable[[], None] | None = None, older: Path | None = None):
        self.path, self.undone, self.older = path, undone, older
        self.moved = self.placed = False
        self.new: Path = write_beside(path, data, mode)
        self.old: Path | None = None
        if older is None and path.is_file():
            try:
                link = self.new.with_suffix(".old")  # .campaign.yaml.RANDOM.old, beside the new one
                os.link(path, link)
                self.old = link
            except OSError:
                try:
                    self.old = write_beside(path, path.read_bytes(), path.stat().st_mode & 0o777)
                except BaseException:
                    self.new.unlink(missing_ok=True)
                    raise

    def put(self) -> None:
        try:
            if self.older is not None:
                os.rename(self.path, self.older)
                self.moved = True
            os.replace(self.new, self.path)
        except OSError as exc:
            raise named(exc, self.path) from None
        self.placed = True

    def undo(self) -> None:
        """Everything as before, the hidden files removed (errors ignored: the error that stopped the change is
        the one to report)."""
        try:
            if not self.placed:
                self.new.unlink(missing_ok=True)
                if self.old is not None:
                    self.old.unlink(missing_ok=True)
            if self.moved:
                os.replace(self.older, self.path)  # (the new file goes, if it was put)
            elif self.placed and self.old is not None:
                os.replace(self.old, self.path)
            elif self.placed:
                self.path.unlink(missing_ok=True)
        except OSError:
            pass
        if self.undone is not None:
            self.undone()

    def done(self) -> None:
        try:
            if self.old is not None:
                self.old.unlink(missing_ok=True)
            sync_folder(self.path.parent)
        except OSError:
            pass  # the change is made: a leftover hidden copy of the old file harms nothing


def players_text(player_secrets: dict[str, str]) -> str:
    """``secret/players.yaml`` as pbem writes it."""
    return ("# Hand each player their own secret; it goes in the header of every order file.\n"
            + yamlio.dump({"secrets": player_secrets}))


CONFIG_SCHEMA = "campaign.schema.json"


def check_config(data: Any, source: str, located: yamlio.Located | None = None) -> None:
    """Raise CampaignError naming ``source`` (and the line) and the field, if ``data`` is not campaign settings
    as pbem writes them (``schemas/campaign.schema.json``).  The deadline is read as a date only by the commands
    that need it (``cycle.deadline``): a report just prints it."""
    if not isinstance(data, dict):
        raise CampaignError(f"{source}: not a pbem campaign file (a mapping with name, players, ... is needed, "
                            f"found {type(data).__name__ if data is not None else 'an empty file'})")

    def at(*path: Any) -> str:
        mark = located.where(path) if located is not None else None
        return f"{source}:{mark[0]}" if mark else source
    known = schema(CONFIG_SCHEMA)["properties"]
    for key in data:
        if key not in known:
            raise CampaignError(f"{at('@key', key)}: {key}: not a campaign setting " + (
                newer_pbem(data) or f"(known: {', '.join(known)})"))
    validate(data, CONFIG_SCHEMA, source, located, error=CampaignError)
    for name in not_playable(data.get("options") or {}):  # as `pbem new --option` refuses it
        raise CampaignError(f"{at('options', name)}: options.{name}: {OPTIONS[name].help} {NOT_PLAYABLE}")
    for pid in data.get("seats") or {}:
        if pid not in data["players"]:
            raise CampaignError(f"{at('@key', 'seats', pid)}: seats.{pid}: not a player of this campaign "
                                f"({', '.join(data['players'])})")


def newer_pbem(config: dict[str, Any]) -> str | None:
    """Why a setting is unknown when campaign.yaml was written by a newer pbem (its ``pbem_version``), in words;
    None otherwise (a moderator's review: an older pbem said only "dice_from_start: not a campaign setting")."""
    from . import __version__
    from .auditlog import version_key
    made = config.get("pbem_version")
    if made is None or not version_key(str(made)) > version_key(__version__):
        return None
    return f"of this pbem: this campaign was made with pbem {made}, newer than this pbem {__version__}: upgrade pbem"


# -- state snapshots ---------------------------------------------------------------------------------

STATE_SCHEMA = "state.schema.json"


def _shown(value: Any, limit: int = 40) -> str:
    """A value found in a damaged file, as JSON, cut short: named in a message, never dumped into it."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return printable(text if len(text) <= limit else text[:limit] + "...")


def parse_snapshot(text: str, path: Path) -> Any:
    """The JSON of a state file; one line naming the file if it is not JSON pbem writes: NaN and Infinity (which
    Python's json reads) are refused, and so is nesting too deep to read."""
    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not a number pbem writes")
    try:
        return json.loads(text, parse_constant=constant)
    except RecursionError:
        raise DataError(f"{path}: damaged state file (nested too deeply to be a pbem state)") from None
    except ValueError as exc:
        raise DataError(f"{path}: damaged state file (not JSON: {printable(str(exc))[:120]})") from None


@lru_cache(maxsize=None)
def _state_validator() -> Any:
    """The state schema's validator: a whole number is an int (JSON's 1.0 and true are not), and a player's standing
    orders are checked by the order schema's own definition."""
    import jsonschema
    from referencing import Registry, Resource
    base = jsonschema.Draft202012Validator
    whole = base.TYPE_CHECKER.redefine("integer", lambda _checker, value: type(value) is int)
    cls = jsonschema.validators.extend(base, type_checker=whole)
    registry = Registry().with_resources((schema(name)["$id"], Resource.from_contents(schema(name)))
                                         for name in (STATE_SCHEMA, "orders.schema.json"))
    return cls(schema(STATE_SCHEMA), registry=registry)


@lru_cache(maxsize=None)
def _quick_state_check() -> Any:
    """The state schema compiled for a quick yes or no (``schemacheck``); None if it cannot be."""
    from .schemacheck import Unsupported, compile_schema
    try:
        return compile_schema(schema(STATE_SCHEMA), (schema("orders.schema.json"),))
    except Unsupported:
        return None


def _schema_message(err: Any) -> str:
    from .gamedata import json_path
    where = json_path(err.absolute_path)
    field = "" if where == "(top level)" else f"{where}."
    if err.validator == "required":
        missing = [k for k in err.validator_value if k not in err.instance]
        return f"{field}{missing[0] if missing else '?'}: missing"
    if err.validator == "additionalProperties" and err.validator_value is False:
        extra = sorted(str(k) for k in err.instance if k not in err.schema.get("properties", {}))
        return f"{field}{printable(extra[0][:40]) if extra else '?'}: not a field of a state snapshot"
    if "x-message" not in err.schema:  # jsonschema's own words name the value
        return f"{where}: {printable(err.message)[:120]}"
    return f"{where}: {err.schema['x-message']} (found {_shown(err.instance)})"


def table_ids(name: str) -> frozenset[str]:
    """The ids in one of the seed's tables (``cards``, ``traits``, ``skills``), without loading the tables whole:
    every command loads a snapshot, few need the tables (a test checks that both give the same ids)."""
    if tables.cache_info().currsize:
        return frozenset(getattr(tables(), name))
    return _table_ids(name)


@lru_cache(maxsize=None)
def _table_ids(name: str) -> frozenset[str]:
    text = DATA.joinpath(f"tables/{name}.yaml").read_text(encoding="utf-8")
    return frozenset(re.findall(r"(?m)^\s*-\s*\{?\s*id:\s*([a-z0-9_]+)", text))


UNIT_NUMBER = re.compile(r"^(.+-[A-Z])([0-9]+)$")  # ATH-A12: prefix ATH-A, number 12 (``GameState.new_unit_id``)


def check_snapshot(data: Any, path: Path, turn: int, kit: bool = False) -> None:
    """Raise DataError naming the file and the field if ``data`` is not a state as pbem writes it: its shape and
    types (``schemas/state.schema.json``), then what one part says of another.  The map's part (cities, homes,
    hexes) is ``check_on_map``.  ``kit``: a player's kit, whose deck and discard pile hold hidden cards."""
    if not isinstance(data, dict):
        raise DataError(f"{path}: not a pbem state snapshot (a JSON object with turn, players, ... is needed, "
                        f"found {_shown(data)})")
    if data.get("version") not in (None, 1) and isinstance(data.get("version"), int):
        raise DataError(f"{path}: state version {data['version']} is not 1; this pbem cannot read it")
    quick = _quick_state_check()
    if quick is None or not quick(data):  # jsonschema tells what is wrong (slower: only for a damaged file)
        errors = sorted(_state_validator().iter_errors(data),
                        key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
        if errors:
            raise DataError(f"{path}: {_schema_message(errors[0])}")

    def bad(field: str, message: str) -> DataError:
        return DataError(f"{path}: {field}: {message}")
    if data["turn"] != turn:
        raise bad("turn", f"is {data['turn']}, but the file is the snapshot of turn {turn}")
    last = data.get("last_turn", 36)
    if data["turn"] > last + 1:
        raise bad("turn", f"is {data['turn']}, after the last turn ({last}) and the end of the game ({last + 1})")
    players = data["players"]
    order = data["turn_order"]
    for pid in order:
        if pid not in players:
            raise bad("turn_order", f"{pid} is not in players ({', '.join(players)})")
    for pid, p in players.items():
        if pid not in order:
            raise bad(f"players.{pid}", f"not in turn_order ({', '.join(order)})")
        if p["id"] != pid:
            raise bad(f"players.{pid}.id", f"is {_shown(p['id'])}, not {pid}")
    for name in not_playable(data.get("options", {})):
        raise bad(f"options.{name}", "this option is not playable yet in this version")
    if data.get("winner") is not None and data["winner"] not in players:
        raise bad("winner", f"{_shown(data['winner'])} is not a player ({', '.join(order)})")
    cards, traits, skills = table_ids("cards"), table_ids("traits"), table_ids("skills")
    hidden = None
    if kit:  # a kit's deck and discard pile are counted, not named
        from .visibility import HIDDEN_CARD as hidden
    for pile in ("deck", "discard"):
        for i, card in enumerate(data.get(pile, ())):
            if card not in cards and card != hidden:
                raise bad(f"{pile}[{i}]", f"{_shown(card)} is not a card of this game")
    for pid, p in players.items():
        for i, card in enumerate(p.get("hand", ())):
            if card not in cards:
                raise bad(f"players.{pid}.hand[{i}]", f"{_shown(card)} is not a card of this game")
        for i, trait in enumerate(p.get("traits", ())):
            if trait not in traits:
                raise bad(f"players.{pid}.traits[{i}]", f"{_shown(trait)} is not a trait of this game")
    for cid, c in data["cities"].items():
        for key in ("controller", "home_of"):
            if c.get(key) is not None and c[key] not in players:
                raise bad(f"cities.{cid}.{key}", f"{_shown(c[key])} is not a player ({', '.join(order)})")
        if c.get("trait") is not None and c["trait"] not in traits:
            raise bad(f"cities.{cid}.trait", f"{_shown(c['trait'])} is not a trait of this game")
    units = data["units"]
    next_id = data.get("next_id", {})
    for uid, u in units.items():
        if u["id"] != uid:
            raise bad(f"units.{uid}.id", f"is {_shown(u['id'])}, not {uid}")
        if u.get("owner") is not None and u["owner"] not in players:
            raise bad(f"units.{uid}.owner", f"{_shown(u['owner'])} is not a player ({', '.join(order)})")
        if u.get("carried_by") is not None and u["carried_by"] not in units:
            raise bad(f"units.{uid}.carried_by", f"{_shown(u['carried_by'])} is not a unit of this state")
        for i, skill in enumerate(u.get("skills", ())):
            if skill not in skills:
                raise bad(f"units.{uid}.skills[{i}]", f"{_shown(skill)} is not a leaders' skill of this game")
        if (m := UNIT_NUMBER.match(uid)) and not (kit and m.group(1) not in next_id):
            # (a kit keeps its owner's counters only: a unit captured from another player has theirs)
            if next_id.get(m.group(1), 0) < int(m.group(2)):
                raise bad(f"next_id.{m.group(1)}", f"is {next_id.get(m.group(1), 'missing')}, but unit {uid} "
                                                   f"exists: a new unit would take an id already given")
        carrier = units.get(u.get("carried_by"))
        if carrier is not None and carrier["hex"] != u["hex"]:
            raise bad(f"units.{uid}.hex", f"is {u['hex']}, but its carrier {carrier['id']} is on {carrier['hex']}")
        seen_chain, up = {uid}, carrier
        while up is not None:  # a unit never carries itself, however far up the chain
            if up["id"] in seen_chain:
                raise bad(f"units.{uid}.carried_by", f"{_shown(u['carried_by'])} is carried, in the end, by {uid} "
                                                     f"itself")
            seen_chain.add(up["id"])
            up = units.get(up.get("carried_by"))
    for i, e in enumerate(data.get("effects", ())):
        for key in ("player", "until_player"):
            if e.get(key) is not None and e[key] not in players:
                raise bad(f"effects[{i}].{key}", f"{_shown(e[key])} is not a player ({', '.join(order)})")


def check_on_map(game_map: GameMap, path: Path, cities: tuple[str, ...], homes: dict[str, str],
                 hexes: dict[str, str]) -> None:
    """The map's part of a snapshot's checks: its cities are the map's, every home a city of the map, every unit
    on a hex of the map."""
    for cid in game_map.cities:
        if cid not in cities:
            raise DataError(f"{path}: cities.{cid}: missing (every city of the map has an entry)")
    for cid in cities:
        if cid not in game_map.cities:
            raise DataError(f"{path}: cities.{cid}: not a city of the map")
    for pid, home in homes.items():
        if home not in game_map.cities:
            raise DataError(f"{path}: players.{pid}.home: {home} is not a city of the map")
    terrain = game_map.terrain
    for uid, hex_id in hexes.items():
        if hex_id not in terrain:
            raise DataError(f"{path}: units.{uid}.hex: {hex_id} is not a hex of the map")


class Campaign:
    def __init__(self, root: Path | str):
        self.root = Path(root)
        self._map: GameMap | None = None
        self._config: dict[str, Any] | None = None
        self._locked = 0  # how deep this object holds the lock (a command's steps may each take it again)
        self._on_map: list[tuple[Any, ...]] = []  # snapshots loaded before the map: checked against it once read

    # -- paths -------------------------------------------------------------------------------------
    @property
    def config_path(self) -> Path:
        return self.root / "campaign.yaml"

    @property
    def map_path(self) -> Path:
        return self.root / "map.yaml"

    @property
    def secret_dir(self) -> Path:
        return self.root / "secret"

    def snapshot_path(self, turn: int) -> Path:
        return self.root / "state" / f"turn-{turn:03d}.json"

    def log_path(self, turn: int | None) -> Path:
        return self.root / "log" / ("setup.jsonl" if turn is None else f"turn-{turn:03d}.jsonl")

    def orders_dir(self, turn: int) -> Path:
        return self.root / "orders" / f"turn-{turn:03d}"

    def reports_dir(self, turn: int, player: str | None = None) -> Path:
        d = self.root / "reports" / f"turn-{turn:03d}"
        return d / player if player else d

    # -- opening -----------------------------------------------------------------------------------
    @classmethod
    def open(cls, root: Path | str) -> "Campaign":
        c = cls(root)
        if not c.root.is_dir():
            raise CampaignError(f"{c.root}: is a file, not a campaign folder" if c.root.exists()
                                else f"{c.root}: no such campaign folder")
        if not c.config_path.is_file():
            raise CampaignError(f"{c.root}: not a campaign folder (no campaign.yaml; create one with `pbem new`)")
        for sub in CAMPAIGN_FOLDERS:  # pbem writes into these: a link would send its files out of the campaign
            folder = c.root / sub
            inner = list(folder.iterdir()) if sub in ("orders", "replies") and folder.is_dir() else []
            for p in (folder, *sorted(inner)):
                if p.is_symlink():
                    raise CampaignError(f"{p}: is a link; a campaign's folders must be folders of its own (pbem "
                                        f"writes into them), so replace the link with the folder it points to")
        snaps = c.snapshots()
        if not snaps:
            raise CampaignError(f"{c.root}/state: no state snapshot; the campaign folder is damaged")
        gaps = sorted(set(range(snaps[0], snaps[-1] + 1)) - set(snaps))
        if gaps:
            raise CampaignError(f"{c.snapshot_path(gaps[0])}: missing between turn-{snaps[0]:03d}.json and "
                                f"turn-{snaps[-1]:03d}.json; the campaign folder is damaged (a rollback keeps "
                                f"later snapshots in archive/)")
        c.config  # a damaged campaign.yaml stops every command here, with the file, line and field
        return c

    @property
    def config(self) -> dict[str, Any]:
        if self._config is None:
            try:
                located = yamlio.load(self.config_path)
            except yamlio.YamlError as exc:
                raise CampaignError(str(exc)) from None
            check_config(located.data, str(self.config_path), located)
            self._config = located.data
        return self._config

    def write_config(self, config: dict[str, Any]) -> None:
        atomic_write(self.config_path, self._config_text(config))
        self._config = config

    def put_config(self, config: dict[str, Any]) -> Staged:
        """``config`` put in place of campaign.yaml as part of a change that can still be undone: ``undo()`` of
        what it returns puts the old file back, ``done()`` makes it final (``Staged``; the next deadline a turn
        commits with, ``cycle._commit``).  A full disk stops it before anything is in place; so does any error in
        putting it there (nothing is left behind)."""
        staged = self.stage_config(config)
        try:
            staged.put()
        except BaseException:
            staged.undo()
            raise
        self._config = config
        return staged

    def stage_config(self, config: dict[str, Any]) -> Staged:
        """``config`` written beside campaign.yaml, to be put in place (``Staged.put``) with the rest of a change;
        its ``undo`` makes the settings be read again from the file."""
        return Staged(self.config_path, self._config_text(config), undone=self._forget_config)

    def change(self, lines: str | list[str], files: list[tuple[Path, str | bytes]] = (),
               config: dict[str, Any] | None = None, mode: int | None = None) -> None:
        """A change and its audit line(s) ``lines``, made together or not at all (a code review: on a full disk
        `pbem deadline` left the new deadline in campaign.yaml and no line in audit.log, where a rollback looks
        for it): every file of ``files`` (path, content; ``mode``) and ``config`` (campaign.yaml) is written
        beside its place first (``Staged``: the steps that need room on the disk), then all are put in place
        and the audit line written; if anything fails, every file is as it was, and the error goes up (an
        OSError names its file: the caller says that nothing was changed)."""
        staged: list[Staged] = []
        try:
            for path, data in files:
                staged.append(Staged(path, data, mode))
            if config is not None:
                staged.append(self.stage_config(config))
            for one in staged:
                one.put()
            if config is not None:
                self._config = config
            self.audit(*([lines] if isinstance(lines, str) else lines))
        except BaseException:
            for one in reversed(staged):
                one.undo()
            raise
        for one in staged:
            one.done()

    def _forget_config(self) -> None:
        self._config = None  # read again from the file

    def _config_text(self, config: dict[str, Any]) -> str:
        check_config(config, str(self.config_path))  # never write a file the next command would refuse
        return "# pbem campaign settings (public).  Edit with care: see docs/moderator.md\n" + yamlio.dump(config)

    @property
    def game_map(self) -> GameMap:
        if self._map is None:
            game_map = load_map(self.map_path)
            while self._on_map:  # the snapshots loaded so far: their cities, homes and hexes are the map's
                check_on_map(game_map, *self._on_map[0])
                self._on_map.pop(0)
            self._map = game_map
        return self._map

    # -- snapshots ---------------------------------------------------------------------------------
    def snapshots(self) -> list[int]:
        d = self.root / "state"
        if not d.is_dir():
            return []
        return sorted(int(m.group(1)) for p in d.iterdir() if (m := SNAPSHOT.match(p.name)))

    @property
    def current_turn(self) -> int:
        snaps = self.snapshots()
        if not snaps:
            raise CampaignError(f"{self.root}/state: no state snapshot")
        return snaps[-1]

    def load_state(self, turn: int | None = None) -> GameState:
        turn = self.current_turn if turn is None else turn
        if turn < 1:
            raise CampaignError(f"turn {turn}: game turns start at 1")
        path = self.snapshot_path(turn)
        if path.exists() and not path.is_file():
            raise DataError(f"{path}: is not a state file (a folder, or not a regular file); the campaign folder "
                            f"is damaged")
        if not path.is_file():
            have = ", ".join(str(t) for t in self.snapshots())
            raise CampaignError(f"{path}: no snapshot for turn {turn} (have: {have})")
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise DataError(f"{path}: damaged state file (not UTF-8 text)") from None
        data = parse_snapshot(text, path)
        kit = bool(self.config.get("kit_of"))
        check_snapshot(data, path, turn, kit)
        name = self.config.get("name")
        if name is not None and name != data["campaign"]:
            raise CampaignError(f"{self.config_path}: name: {_shown(name)} is not the name in the snapshots "
                                f"({path.name} has {_shown(data['campaign'])}); order files name the campaign, "
                                f"so its name cannot be changed in campaign.yaml")
        players = self.config.get("players")
        if players is not None and set(players) != set(data["turn_order"]):
            raise CampaignError(f"{self.config_path}: players: {', '.join(map(str, players))} are not this "
                                f"campaign's players ({path.name} has {', '.join(data['turn_order'])}); the players "
                                f"cannot be changed in campaign.yaml")
        try:
            state = GameState.from_dict(data)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:  # the checks above should leave none
            raise DataError(f"{path}: damaged state file ({exc})") from None
        on_map = (path, tuple(data["cities"]), {pid: p["home"] for pid, p in data["players"].items()},
                  {uid: u["hex"] for uid, u in data["units"].items()})
        if self._map is not None or self._locked:  # a command that writes checks everything before it writes
            check_on_map(self.game_map, *on_map)
        else:  # checked when the map is loaded (`game_map`): `status` never needs the map, and never reads it
            self._on_map.append(on_map)
        return state

    def save_state(self, state: GameState) -> Path:
        path = self.snapshot_path(state.turn)
        atomic_write(path, state.to_json())
        return path

    def write_log(self, turn: int | None, records: list[dict[str, Any]]) -> Path:
        path = self.log_path(turn)
        text = "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in records)
        atomic_write(path, text)
        return path

    def read_log(self, turn: int | None) -> list[dict[str, Any]]:
        path = self.log_path(turn)
        if not path.exists():
            return []
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except IsADirectoryError:
            raise DataError(f"{path}: is a folder, not a log file") from None
        except UnicodeDecodeError:
            raise DataError(f"{path}: damaged log file (not UTF-8 text)") from None
        records = []
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as exc:
                raise DataError(f"{path}:{n}: damaged log file ({exc})") from None
            if not isinstance(record, dict):
                raise DataError(f"{path}:{n}: damaged log file (a record must be a JSON object)")
            records.append(record)
        return records

    # -- secrets -----------------------------------------------------------------------------------
    def dice_start(self, turn: int) -> str | None:
        """What seeds game turn ``turn``'s dice besides its key and order files (``dice.turn_seed``'s ``start``):
        the SHA-256 of its start snapshot as first written, by set-up or by the run of the turn before (`pbem
        adjust` keeps that original as ``turn-NNN.fix-1.json``), in a campaign made since 0.6.0
        (``dice_from_start`` in campaign.yaml); None in an older one, whose turns keep the dice they were run with.
        The position as first written, as ``intake.start_hash`` holds a turn for the moderator: a turn reached
        again from it is held and deals the dice its players saw, a moderator's adjustment included (a cheater's
        review: an adjustment of a held turn re-dealt its dice, unflagged); one reached from another position is
        open again and deals new dice."""
        if not self.config.get("dice_from_start"):
            return None
        return first_version_hash(self.snapshot_path(turn))

    def secret_seed(self) -> bytes:
        path = self.secret_dir / "seed"
        try:
            seed = bytes.fromhex(path.read_text(encoding="utf-8").strip())
        except (OSError, ValueError):
            seed = b""
        if len(seed) != 32:  # 256 bits, written by `pbem new`
            raise CampaignError(f"{path}: the secret seed is missing or damaged")
        published = self.config.get("seed_sha256")
        if published and hashlib.sha256(seed).hexdigest() != published:  # never a die rolled with another seed
            raise CampaignError(f"{path}: not this campaign's seed (its sha256 is not campaign.yaml's seed_sha256 "
                                f"{published[:16]}...); the campaign folder is damaged")
        return seed

    def player_secrets(self) -> dict[str, str]:
        path = self.secret_dir / "players.yaml"
        try:
            data = yamlio.load(path).data
        except yamlio.YamlError as exc:
            raise CampaignError(str(exc)) from None
        secrets = data.get("secrets") if isinstance(data, dict) else None
        if not isinstance(secrets, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                    for k, v in secrets.items()):
            raise CampaignError(f"{path}: damaged: needs `secrets:` with one `player: secret` line per player")
        from .intake import WITHHELD
        holder: dict[str, str] = {}
        for pid, secret in secrets.items():
            if not secret.strip() or secret.strip() == WITHHELD:
                what = "empty" if not secret.strip() else f"{WITHHELD!r}, the word every stored order file holds"
                raise CampaignError(f"{path}: secrets.{printable(pid)}: {what}: every player needs a secret of "
                                    f"their own (write a new one there and send it to the player)")
            if secret in holder:
                raise CampaignError(f"{path}: secrets.{printable(pid)}: the same secret as "
                                    f"{printable(holder[secret])}'s: either could send orders for the other (write a "
                                    f"new one there and send it to the player)")
            holder[secret] = pid
        return dict(secrets)

    def write_secrets(self, seed: bytes, player_secrets: dict[str, str]) -> None:
        self.secret_dir.mkdir(parents=True, exist_ok=True)
        os.chmod(self.secret_dir, 0o700)
        atomic_write(self.secret_dir / "seed", seed.hex() + "\n", mode=0o600)
        atomic_write(self.secret_dir / "players.yaml", players_text(player_secrets), mode=0o600)

    # -- audit and lock ----------------------------------------------------------------------------
    def audit(self, line: str, *more: str) -> None:
        """Append ``line`` (and ``more`` lines, written with it: a turn's own lines) to audit.log, fsynced: all of
        them or, if the file cannot take them (a full disk), none, not even a part of one, and the error names
        audit.log."""
        # one line per action, whatever a --reason holds; no control character reaches the file, whoever wrote it
        stamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        text = "".join(f"{stamp} {printable(' '.join(one.split()))}\n" for one in (line, *more))
        path = self.root / "audit.log"
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        except OSError as exc:
            raise named(exc, path) from None
        try:
            size = os.fstat(fd).st_size
            try:
                write_fd(fd, text.encode("utf-8"))
            except OSError as exc:
                try:
                    os.ftruncate(fd, size)  # no part of a line stays: a half line could read as a whole one
                except OSError:
                    pass
                raise named(exc, path) from None
        finally:
            os.close(fd)

    def _check_audit(self) -> None:
        """Every command that writes records it in audit.log: one that cannot be written stops the command
        before anything else is written."""
        path = self.root / "audit.log"
        try:
            if path.exists() or path.is_symlink():
                os.close(os.open(path, os.O_WRONLY | os.O_APPEND))
            elif not os.access(self.root, os.W_OK):
                raise PermissionError(13, "Permission denied", str(path))
        except OSError as exc:
            raise CampaignError(f"{path}: cannot be written ({exc.strerror or exc}); every change is recorded "
                                f"there, so nothing was done") from None

    @contextmanager
    def lock(self) -> Iterator[None]:
        """One writer at a time: a second command on the same campaign waits for the first, up to ``LOCK_WAIT``
        seconds, then is refused.  Once it holds the lock, the settings it read before are read again
        (``config``): another command may have changed them meanwhile, and a commit writes them back whole (a
        code review: a seat set in the instant between `wait_until_free` and this lock was written over).  The
        CLI also waits before it reads anything (``wait_until_free``), so a command's other early reads are
        fresh too.

        The same Campaign object may take the lock again while it holds it (`pbem demo` holds it for the whole
        run, and each turn it runs takes it too); another object, or another process, is refused."""
        if self._locked:
            self._locked += 1
            try:
                yield
            finally:
                self._locked -= 1
            return
        self.root.mkdir(parents=True, exist_ok=True)
        fh = open(self.root / ".lock", "a+")
        try:
            _flock_waiting(fh, self.root)
            self._config = None  # read again, under the lock
            self._check_audit()
            self._locked = 1
            try:
                yield
            finally:
                self._locked = 0
        finally:
            fh.close()
