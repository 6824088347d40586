"""Campaign options (per campaign, chosen at `pbem new`).  Each option is data: name, type, default, help.

Options wrap or swap a rule; code asks ``state.options[name]``, never a scattered ``if variant``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import UsageError


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    help: str
    available: bool = True  # False: announced, not playable yet


OPTIONS: dict[str, Option] = {o.name: o for o in [
    Option("early_victory", False, "End the game early when one player controls more than half of all "
                                   "cities (R-WIN-1)."),
    Option("last_turn", 36, "The last game turn (R-TURN-1); shorter games for tests and demos."),
    Option("pirates_barbarians", False, "Expansion II: neutral pirates and barbarians (R-PB-1..5).",
           available=False),
    Option("blocks", False, "Expansion III: armies and fleets as blocks with hidden values (R-BLK-1..7).",
           available=False),
]}


NOT_PLAYABLE = "This option is not playable yet in this version."


def not_playable(options: dict[str, Any]) -> list[str]:
    """The options set (true) in ``options`` that are announced but not playable yet: ``pbem new --option``,
    campaign.yaml and a state snapshot refuse them alike."""
    return [name for name, value in options.items() if value and name in OPTIONS and not OPTIONS[name].available]


def parse_options(items: list[str]) -> dict[str, Any]:
    """['early_victory', 'last_turn=12'] -> {'early_victory': True, 'last_turn': 12, ...defaults}."""
    out = {name: o.default for name, o in OPTIONS.items()}
    for item in items:
        name, sep, raw = item.partition("=")
        name = name.strip().replace("-", "_")
        if name not in OPTIONS:
            known = ", ".join(OPTIONS)
            raise UsageError(f"--option {item!r}: unknown option {name!r} (known: {known})")
        opt = OPTIONS[name]
        if not_playable({name: True}):
            raise UsageError(f"--option {name}: {opt.help} {NOT_PLAYABLE}")
        default = opt.default
        if isinstance(default, bool):
            value = True if not sep else raw.strip().lower()
            if value not in (True, "true", "yes", "on", "1", "false", "no", "off", "0"):
                raise UsageError(f"--option {item!r}: write {name}=true or {name}=false")
            value = value in (True, "true", "yes", "on", "1")
        elif isinstance(default, int):
            digits = raw.strip()
            if not (digits.isascii() and digits.isdigit() and len(digits) <= 6):  # int() reads any script's digits
                raise UsageError(f"--option {item!r}: {name} needs a whole number, e.g. {name}={default}")
            value = int(digits)
            if name == "last_turn" and not 1 <= value <= 99:
                raise UsageError(f"--option {item!r}: last_turn must be between 1 and 99")
        else:
            value = raw
        out[name] = value
    return out
