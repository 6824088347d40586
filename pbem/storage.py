"""The campaign folder: config, snapshots per turn, logs, orders, reports, secrets; atomic writes and a lock.

Layout (documented in docs/moderator.md)::

    CAMPAIGN/
      campaign.yaml            public config: name, players, options, deadlines, seed_sha256
      map.yaml                 the map this campaign plays on (a copy, so the folder stands alone)
      secret/                  mode 0700, the moderator's eyes only
        seed                   the secret seed (hex)
        players.yaml           each player's secret for authenticating order files
      state/turn-001.json      the state at the start of game turn 1; turn-002.json after turn 1 ...
      log/setup.jsonl          every die rolled at set-up
      log/turn-001.jsonl       events and dice of game turn 1
      orders/turn-001/athens.yaml   accepted orders (earlier versions kept as athens.v1.yaml ...)
      reports/turn-001/athens/ a player's report of turn 1
      audit.log                what the moderator did, one line each

A turn is committed by writing its snapshot last: the newest snapshot *is* the turn counter, so a crash
mid-turn leaves the previous turn intact.
"""
from __future__ import annotations

import fcntl
import json
import os
import re
import signal
import tempfile
import threading
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from . import yamlio
from .errors import CampaignError, DataError
from .gamedata import GameMap, load_map, schema, validate
from .model import GameState

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
    if got and callable(before):
        before(signal.SIGINT, None)


def closed(root: Path) -> bool:
    """A campaign whose secret seed was revealed (``revealed-seed.txt``) runs no more turns: every die is known."""
    return (Path(root) / "revealed-seed.txt").exists()


def default_mode() -> int:
    """The mode a file gets when a program creates it plainly (0o666 less the umask, often 0o644).  A temporary
    file is made 0o600; the campaign's files are not secret (campaign.yaml is public, the reports are sent):
    only ``secret/`` is kept 0o600, and says so with ``mode``."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write(path: Path, data: str | bytes, mode: int | None = None) -> None:
    """Write to a temporary file in the same folder, fsync, rename: the file is whole or absent.  ``mode``: the
    file's permissions (default: as a plainly created file's, ``default_mode``)."""
    if mode is None:
        mode = default_mode()
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    dfd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


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
            raise CampaignError(f"{at('@key', key)}: {key}: not a campaign setting (known: {', '.join(known)})")
    validate(data, CONFIG_SCHEMA, source, located, error=CampaignError)
    for pid in data.get("seats") or {}:
        if pid not in data["players"]:
            raise CampaignError(f"{at('@key', 'seats', pid)}: seats.{pid}: not a player of this campaign "
                                f"({', '.join(data['players'])})")


class Campaign:
    def __init__(self, root: Path | str):
        self.root = Path(root)
        self._map: GameMap | None = None
        self._config: dict[str, Any] | None = None
        self._locked = 0  # how deep this object holds the lock (a command's steps may each take it again)

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
            raise CampaignError(f"{c.root}: no such campaign folder")
        if not c.config_path.is_file():
            raise CampaignError(f"{c.root}: not a campaign folder (no campaign.yaml; create one with `pbem new`)")
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
        check_config(config, str(self.config_path))  # never write a file the next command would refuse
        atomic_write(self.config_path, "# pbem campaign settings (public).  Edit with care: see docs/moderator.md\n"
                     + yamlio.dump(config))
        self._config = config

    @property
    def game_map(self) -> GameMap:
        if self._map is None:
            self._map = load_map(self.map_path)
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
            raise DataError(f"{path}: is not a state file (a folder?); the campaign folder is damaged")
        if not path.is_file():
            have = ", ".join(str(t) for t in self.snapshots())
            raise CampaignError(f"{path}: no snapshot for turn {turn} (have: {have})")
        try:
            return GameState.from_json(path.read_text(encoding="utf-8"))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise DataError(f"{path}: damaged state file ({exc})") from None
        except IsADirectoryError:
            raise DataError(f"{path}: is a folder, not a state file") from None

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
    def secret_seed(self) -> bytes:
        path = self.secret_dir / "seed"
        try:
            seed = bytes.fromhex(path.read_text(encoding="utf-8").strip())
        except (OSError, ValueError):
            seed = b""
        if len(seed) != 32:  # 256 bits, written by `pbem new`
            raise CampaignError(f"{path}: the secret seed is missing or damaged")
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
        return dict(secrets)

    def write_secrets(self, seed: bytes, player_secrets: dict[str, str]) -> None:
        self.secret_dir.mkdir(parents=True, exist_ok=True)
        os.chmod(self.secret_dir, 0o700)
        atomic_write(self.secret_dir / "seed", seed.hex() + "\n", mode=0o600)
        atomic_write(self.secret_dir / "players.yaml",
                     "# Hand each player their own secret; it goes in the header of every order file.\n"
                     + yamlio.dump({"secrets": player_secrets}), mode=0o600)

    # -- audit and lock ----------------------------------------------------------------------------
    def audit(self, line: str) -> None:
        # one line per action, whatever a --reason holds; no control character reaches the file, whoever wrote it
        line = printable(" ".join(line.split()))
        stamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        with open(self.root / "audit.log", "a", encoding="utf-8") as fh:
            fh.write(f"{stamp} {line}\n")

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
        """One writer at a time: a second `pbem adjudicate` on the same campaign is refused at once.

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
            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise CampaignError(f"{self.root}: another pbem command is working on this campaign; "
                                    f"try again when it has finished") from None
            self._check_audit()
            self._locked = 1
            try:
                yield
            finally:
                self._locked = 0
        finally:
            fh.close()
