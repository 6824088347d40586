"""The player's kit: a small campaign folder holding only what one player may know, sent with each report.

``pbem check ORDERS.yaml --campaign KIT`` then checks a player's orders on the player's own machine against
exactly what they can see: the state redacted by ``visibility.redact`` (nothing past the fog), the map and
the public settings.  No secret is in it.

The kit also holds the order template (``orders/template.yaml``, installed as ``pbem.orderfiles``) with
the header filled in for the player and the turn the orders are for, the secret left for the player to
write (``TEMPLATE_NAME``), and the orders' JSON Schema beside it for editors that complete and check YAML.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from . import yamlio
from .resources import folder as folder_of
from .model import GameState
from .storage import Campaign, atomic_write
from .visibility import redact
from .campaign import KEYS_FILE

PUBLIC_KEYS = ("name", "players", "options", "seed_sha256", "seed_guessable", "deadline", "turn_days", "pbem_version")
TEMPLATE_NAME = "orders-template.yaml"
SCHEMA_NAME = "orders.schema.json"


def template_text() -> str:
    """The order template as shipped (``orders/template.yaml``; installed as ``pbem.orderfiles``)."""
    from .resources import folder
    return (folder("orders", "orderfiles") / "template.yaml").read_text(encoding="utf-8")


def _yaml_str(value: str) -> str:
    """A value as YAML writes it on one line of an order file's header (``key: VALUE  # comment``): plain when
    pbem's YAML reader reads the plain text back as the same string, else double-quoted with escapes (JSON's
    quoting is YAML's): ``true``, ``no``, ``null``, ``12``, ``a: b`` or a name with a newline are quoted."""
    for text in (value, json.dumps(value, ensure_ascii=False)):
        if "\n" not in text and _reads_back(text, value):
            return text
    return json.dumps(value)  # ASCII escapes only: always one line


def _reads_back(text: str, value: str) -> bool:
    try:
        return yamlio.parse(f"key: {text}  # comment\n", "template").data == {"key": value}
    except yamlio.YamlError:
        return False


def filled_template(campaign: str, turn: int, player: str, kit: str = "kit", abbr: str | None = None) -> str:
    """The order template with its header filled in for ``player``'s orders of game ``turn``; the secret line
    is left for the player, with a comment, so that the checker says so until it is filled in.  ``abbr``: the
    player's unit id prefix ("CRE"): the rule of thumb on unit ids gives theirs, and a line says the examples
    are Athens' (a new player's review: Crete's kit showed ATH- ids only)."""
    text = template_text()
    if abbr and abbr != "ATH":
        head, sep, rest = text.partition("#   * Card ids")
        head = head.replace("ATH-", f"{abbr}-")
        text = head + sep + rest.replace(
            "# == Header (required) ==",
            f"# The examples below are written for Athens (ATH- ids, hexes and cities near Athens): yours start with\n"
            f"# {abbr}-; `pbem show {kit}` lists your units with their ids.\n\n# == Header (required) ==", 1)
    header = {
        "campaign": f"campaign: {_yaml_str(campaign):<18} # the campaign's name",
        "turn": f"turn: {turn:<22} # the game turn these orders are for",
        "player": f"player: {_yaml_str(player):<20} # your faction",
        "secret": ("# secret: WRITE-YOUR-SECRET-HERE  # remove the '# ' and write the secret the moderator gave you:\n"
                   "#   the checker reports a file without it, and the moderator refuses it"),
    }
    for key, line in header.items():
        text, n = re.subn(rf"(?m)^{key}:.*$", lambda _m, line=line: line, text, count=1)
        assert n == 1, key
    text = text.replace("--campaign CAMPAIGN_FOLDER", f"--campaign {kit}")
    text = re.sub(r"(?m)^# yaml-language-server: \$schema=.*$", f"# yaml-language-server: $schema={SCHEMA_NAME}",
                  text, count=1)
    return text


def write_kit(camp: Campaign, player: str, turn: int | None = None, state: GameState | None = None) -> Path:
    """Write the kit for ``player`` at the start of game ``turn`` (default: the current turn); ``state``: that
    turn's start snapshot when the caller has it loaded already (the reports of the turn before)."""
    if state is None or (turn is not None and state.turn != turn):
        state = camp.load_state(turn)
    folder = camp.reports_dir(state.turn - 1 if state.turn > 1 else 0, player) / "kit"
    public = {k: camp.config[k] for k in PUBLIC_KEYS if k in camp.config}
    public["kit_of"] = player
    atomic_write(folder / "campaign.yaml", "# A player's kit: what you may know.  Check your orders with\n"
                 f"#   pbem check orders.yaml --campaign {folder.name}\n" + yamlio.dump(public))
    atomic_write(folder / "map.yaml", camp.map_path.read_text(encoding="utf-8"))
    atomic_write(folder / "state" / f"turn-{state.turn:03d}.json", redact(state, camp.game_map, player).to_json())
    atomic_write(folder / TEMPLATE_NAME, filled_template(camp.config["name"], state.turn, player, folder.name,
                                                                state.players[player].abbr))
    atomic_write(folder / SCHEMA_NAME, (folder_of("schemas") / SCHEMA_NAME).read_text(encoding="utf-8"))
    keys = camp.root / KEYS_FILE  # public: every player holds the turn keys' commitments from the set-up on
    if keys.is_file():
        atomic_write(folder / KEYS_FILE, keys.read_text(encoding="utf-8"))
    return folder
