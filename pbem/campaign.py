"""Moderator operations on a campaign folder: create it, and read it back.  The CLI calls these."""
from __future__ import annotations

import hashlib
import os
import secrets as pysecrets
import shutil
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from . import __version__
from .dice import Dice, key_commitments, seed_fingerprint, setup_seed
from .errors import UsageError
from .gamedata import DATA, DEFAULT_MAP, load_map, tables
from .options import parse_options
from .setup import check_players, new_campaign
from .storage import Campaign, printable


@dataclass
class Created:
    campaign: Campaign
    secrets: dict[str, str]
    guessable: bool
    keys_fingerprint: str  # the SHA-256 of turn-keys.txt: publish it with the seed's fingerprint


KEYS_FILE = "turn-keys.txt"  # public: the SHA-256 of every turn's key, fixed at `pbem new` (dice.key_commitments)


FOLDER_MODE = 0o700  # the campaign folder is the moderator's: every snapshot, log and the full-view reports in it
# hold hidden facts (hands, positions out of sight, orders sent before the deadline), so no other account on the
# machine may read it, whatever the umask (a red-team review: it was 0755 under umask 022)


def parse_seed(text: str | None) -> tuple[bytes, bool]:
    """--seed N -> (secret seed derived from N, guessable=True); None -> 256 random bits."""
    if text is None:
        return pysecrets.token_bytes(32), False
    text = str(text).strip()
    if not text.isdigit() or len(text) > 40:
        raise UsageError(f"--seed {text!r}: the seed must be a whole number of at most 40 digits, e.g. --seed 42")
    return hashlib.sha256(f"pbem/seed/{int(text)}".encode()).digest(), True


def new_player_secret() -> str:
    """A player's secret: 64 random bits as four groups of four hex digits, "3f2a-09bc-...".  Random even with
    --seed: a --seed campaign's number can be found from the seed fingerprint every kit shows (try numbers until
    one's SHA-256 fits), so secrets derived from it could be worked out by any player, who could then send orders
    for another faction (a cheater's review).  Order files are stored with their secret withheld, so the turns'
    dice do not depend on the secrets and a --seed demo still replays."""
    raw = pysecrets.token_hex(8)
    return "-".join(raw[i:i + 4] for i in range(0, 16, 4))


def check_parent(root: Path) -> None:
    """The folder a new campaign goes in must be a folder that exists: a typo in a path makes no folders (as
    for every file pbem writes where the moderator says, `bot -o` and `archive -o` too)."""
    for p in (root.parent, *root.parent.parents):
        if p.exists() or p.is_symlink():
            if not p.is_dir():
                raise UsageError(f"{root}: {p} is a file, not a folder; choose another place for the campaign")
            break
    if not root.parent.is_dir():
        raise UsageError(f"{root}: the folder {root.parent} does not exist; make it first, or choose another place")


def create(root: Path | str, players: list[str], seed: str | None = None, map_file: Path | str | None = None,
           options: list[str] | None = None, name: str | None = None) -> Created:
    root = Path(root).resolve()  # `pbem new .` works in the folder it names
    check_parent(root)
    if root.exists() and not root.is_dir():
        raise UsageError(f"{root}: is a file, not a folder; choose a new folder for the campaign")
    if root.exists() and any(root.iterdir()):
        raise UsageError(f"{root}: already exists and is not empty; choose a new folder for the campaign")
    opts = parse_options(options or [])
    secret, guessable = parse_seed(seed)
    game_map = load_map(map_file)  # None: the default Aegean
    check_players(game_map, players)
    map_text = (Path(map_file).read_text(encoding="utf-8") if map_file
                else DATA.joinpath(f"maps/{DEFAULT_MAP}.yaml").read_text(encoding="utf-8"))
    given = bool(name)
    name = name or root.resolve().name
    if not name.isprintable() or not name.strip():  # order files name it on one line; so do audit.log and reports
        what = "--name" if given else f"{printable(str(root))}: the folder's name, the campaign's name by default,"
        raise UsageError(f"{what} '{printable(name)}': a campaign's name is one line of text, without a newline or "
                         f"control character; choose another{'' if given else ' with --name'}")
    dice = Dice(setup_seed(secret))
    state = new_campaign(name, game_map, tables(), players, dice, opts)
    player_secrets = {p: new_player_secret() for p in state.turn_order}
    keys_text = key_commitments(secret, state.last_turn)  # every turn's key, committed to before any order is in
    keys_fingerprint = hashlib.sha256(keys_text.encode()).hexdigest()

    staging = Path(tempfile.mkdtemp(prefix=f".{root.name}.", dir=root.parent))
    try:
        os.chmod(staging, FOLDER_MODE)  # as mkdtemp makes it; said, so no later change can loosen it unawares
        camp = Campaign(staging)
        camp.write_config({
            "name": name,
            "pbem_version": __version__,
            "created": datetime.now(timezone.utc).strftime("%Y-%m-%d") if not guessable else "seeded",
            "players": list(state.turn_order),
            "options": opts,
            "seed_sha256": seed_fingerprint(secret),
            "seed_guessable": guessable,
            "dice_from_start": True,  # R-TURN-6 (``dice.turn_seed``): campaigns made before 0.6.0 lack it
            "deadline": None,
            "turn_days": 7,
            "civil_disorder_after": 3,
        })
        (staging / "map.yaml").write_text(map_text, encoding="utf-8")
        (staging / KEYS_FILE).write_text(keys_text, encoding="utf-8")
        camp.write_secrets(secret, player_secrets)
        camp.write_log(None, dice.drain())
        camp.save_state(state)
        for d in ("orders", "reports"):
            (staging / d).mkdir()
        if root.exists():  # an empty folder, perhaps the moderator's current one: fill it, keep it
            os.chmod(root, FOLDER_MODE)  # private before anything hidden is moved in
            moved = []
            try:
                for child in sorted(staging.iterdir()):
                    child.rename(root / child.name)
                    moved.append(root / child.name)
            except BaseException:
                for m in moved:
                    shutil.rmtree(m) if m.is_dir() else m.unlink()
                raise
            staging.rmdir()
        else:
            staging.rename(root)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    camp = Campaign.open(root)
    camp.audit(f"new campaign {name}: players {','.join(state.turn_order)}; options {opts}; seed sha256 "
               f"{camp.config['seed_sha256']}; turn keys sha256 {keys_fingerprint}")
    return Created(camp, player_secrets, guessable, keys_fingerprint)


def describe_options(opts: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(opts.items()))


DEMO_PLAYERS = ["athens", "sparta", "thebes", "corinth", "troy", "crete", "macedonia", "ionia", "doria", "thrace",
                "archea", "amazonia"]


def create_demo(root: Path | str, players: int = 6, seed: str = "2026") -> Campaign:
    """A seeded demo campaign; a previous demo in the same folder is replaced, anything else is refused."""
    with demo_campaign(root, players, seed) as camp:
        return camp


@contextmanager
def demo_campaign(root: Path | str, players: int = 6, seed: str = "2026") -> Iterator[Campaign]:
    """Create a seeded demo campaign in ``root`` and hold its lock until the block ends (`pbem demo` plays all
    its turns under it).  A previous demo in ``root`` is replaced only under its own lock (refused while another
    command works on it), and only once the new one is complete; a folder that is not a demo is refused.  The
    folder itself stays (it may be the moderator's current folder): its contents are swapped."""
    root = Path(root).resolve()  # `pbem demo .` too
    if not 2 <= players <= 12:
        raise UsageError(f"--players {players}: a demo has 2 to 12 players")
    check_parent(root)
    if root.exists() and any(root.iterdir()) if root.is_dir() else root.exists():
        marker = root / "campaign.yaml"
        try:
            is_demo = marker.is_file() and "\ndemo: true" in marker.read_text(encoding="utf-8")
        except OSError:
            is_demo = False
        if not is_demo:
            raise UsageError(f"{root}: exists and is not a pbem demo; choose another folder")
    parse_seed(seed)  # a bad seed is refused before anything is touched
    camp = Campaign(root)
    with camp.lock():  # the old demo's lock, or a new one: held until the caller is done
        fresh = Path(tempfile.mkdtemp(prefix=f".{root.name}.demo-", dir=root.parent))
        aside = Path(tempfile.mkdtemp(prefix=f".{root.name}.old-", dir=root.parent))
        old = [p for p in root.iterdir() if p.name != ".lock"]
        moved_in: list[Path] = []
        try:
            made = create(fresh, DEMO_PLAYERS[:players], seed=seed, name="demo").campaign
            config = dict(made.config)
            config["demo"] = True
            config["seats"] = {p: "bot" for p in made.load_state().turn_order}
            made.write_config(config)
            for p in old:
                p.rename(aside / p.name)
            for p in sorted(fresh.iterdir()):
                if p.name != ".lock":
                    p.rename(root / p.name)
                    moved_in.append(root / p.name)
            os.chmod(root, FOLDER_MODE)  # private, as `pbem new` makes a campaign folder
        except BaseException:
            for p in moved_in:  # put the previous demo back as it was
                shutil.rmtree(p) if p.is_dir() else p.unlink()
            for p in aside.iterdir():
                p.rename(root / p.name)
            aside.rmdir()
            raise
        finally:
            shutil.rmtree(fresh, ignore_errors=True)
        shutil.rmtree(aside, ignore_errors=True)  # the previous demo, replaced
        camp._config = camp._map = None  # read the new demo's files
        yield camp
