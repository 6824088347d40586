"""The player's kit: a small campaign folder holding only what one player may know, sent with each report.

``pbem check ORDERS.yaml --campaign KIT`` then checks a player's orders on the player's own machine against
exactly what they can see: the state redacted by ``visibility.redact`` (nothing past the fog), the map and
the public settings.  No secret is in it.
"""
from __future__ import annotations

from pathlib import Path

from . import yamlio
from .storage import Campaign, atomic_write
from .visibility import redact

PUBLIC_KEYS = ("name", "players", "options", "seed_sha256", "deadline", "turn_days", "pbem_version")


def write_kit(camp: Campaign, player: str, turn: int | None = None) -> Path:
    """Write the kit for ``player`` at the start of game ``turn`` (default: the current turn)."""
    state = camp.load_state(turn)
    folder = camp.reports_dir(state.turn - 1 if state.turn > 1 else 0, player) / "kit"
    public = {k: camp.config[k] for k in PUBLIC_KEYS if k in camp.config}
    public["kit_of"] = player
    atomic_write(folder / "campaign.yaml", "# A player's kit: what you may know.  Check your orders with\n"
                 f"#   pbem check orders.yaml --campaign {folder.name}\n" + yamlio.dump(public))
    atomic_write(folder / "map.yaml", camp.map_path.read_text(encoding="utf-8"))
    atomic_write(folder / "state" / f"turn-{state.turn:03d}.json", redact(state, camp.game_map, player).to_json())
    return folder
