"""Turn reports: per player (fogged) and the moderator's (everything), as HTML, text, SVG, PNG and PDF.

``write_reports(camp, turn)`` reads the state after the turn (snapshot ``turn + 1``), the state before it and
the turn's event log, builds for each player the context of their report from their view alone
(``visibility.view`` with the log: nothing here decides what a player may see), renders it through the
Jinja2 templates (``templates/`` of the package, overridden by ``CAMPAIGN/templates/``) and writes::

    reports/turn-NNN/<player>/report.html   self-contained: styles inline, the map as inline SVG
    reports/turn-NNN/<player>/report.txt    plain text, fit for an email body
    reports/turn-NNN/<player>/map.svg       the map (mapsvg)
    reports/turn-NNN/<player>/map.png
    reports/turn-NNN/<player>/report.pdf    the map page (the PNG's picture), then the text report's pages
    reports/turn-NNN/moderator/...          the same, unfogged, with the complete roll log

The reports are rendered by one process per CPU (``$PBEM_WORKERS`` sets the number; 1: in this process),
forked after the shared parts (templates, the map's static and turn layers) are built; each writes whole
reports, and the files are the same bytes whatever the number.  The HTML keeps the map as inline SVG: no
extra rendering (the SVG is made for map.svg anyway) and sharp at any zoom, where a base64 PNG would add
half a megabyte to the page.

No rules logic lives here: the report reads the state and the events and words them.
"""
from __future__ import annotations

import io
import multiprocessing
import os
import re
import signal
import textwrap
import time
from collections import defaultdict
from datetime import datetime
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from .resources import folder
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import jinja2
import markupsafe

from . import mapsvg, pdfimage
from .cards import CITY_TARGET_KINDS
from .effects import player_effects, total_value
from .errors import CampaignError, PbemError, UsageError
from .gamedata import GameMap, Tables, tables as load_tables
from .model import Effect, GameState
from .moderation import Correction, campaign_corrections
from .movement import effect_in_force
from .battle import RETREAT_AT
from .phases.upkeep import DISBANDS_AT
from .storage import Campaign, atomic_write, failed, held_interrupts
from .textview import card_timing, game_date, plural
from .cardwords import effects_text
from .visibility import is_roll, public as public_view, view as make_view

FORMATS = ("html", "txt", "svg", "png", "pdf", "kit")  # kit: the player's checking kit (pbem.playerkit)
MODERATOR = "moderator"
WIDTH = 78  # the text report's line width

PHASE_TITLES = {"draw": "Draw", "revenue": "Revenue", "upkeep": "Upkeep", "recruit": "Recruit",
                "diplomacy": "Diplomacy", "first_move": "First Move", "sea_battle": "Sea Battle",
                "land_battle": "Land Battle", "second_move": "Second Move", "end": "End of turn", None: "Start"}
SECTION_TITLES = {"discard": "Discard", "upkeep": "Upkeep", "recruit": "Recruit", "diplomacy": "Diplomacy",
                  "cards": "Cards", "first_move": "First move", "sea_battle": "Sea battle",
                  "land_battle": "Land battle", "second_move": "Second move", "standing": "Standing orders"}

# Keys whose string values name a player, a city, a card/trait/skill, a hex.
PLAYER_KEYS = frozenset({"player", "who", "by", "controller", "attacker", "defender", "winner", "loser", "owner",
                         "of", "was", "new_controller", "old_controller", "captor", "payer", "payee", "until_player"})
CITY_KEYS = frozenset({"city", "home"})
SOURCE_KEYS = frozenset({"card", "source", "trait", "skill", "cause"})
HIDDEN_KEYS = frozenset({"seq", "turn", "phase", "event", "redacted", "in_battle", "private_to"})


# -- names ----------------------------------------------------------------------------------------------

@dataclass
class Namer:
    """Turns ids in the state and the log into the words a report uses."""

    game_map: GameMap
    tables: Tables
    players: dict[str, dict[str, Any]]
    # leader id -> (owner, name): a leader's name is public, another player's unit ids are not
    leaders: dict[str, tuple[str | None, str]] = field(default_factory=dict)

    def player(self, pid: str | None) -> str:
        if pid is None:
            return "neutral"
        p = self.players.get(pid)
        return p["name"] if p else str(pid)

    def the(self, pid: str | None) -> str:
        """A player as the object of a sentence: "the Athenians" (a people's name takes the article)."""
        name = self.player(pid)
        return f"the {name}" if pid is not None and name.endswith("s") else name

    def city(self, cid: str) -> str:
        c = self.game_map.cities.get(cid)
        return c.name if c else str(cid)

    def source(self, sid: str) -> str:
        for table in (self.tables.cards, self.tables.traits, self.tables.skills):
            if sid in table:
                return table[sid].name
        if sid in self.game_map.cities:
            return self.game_map.cities[sid].name
        return str(sid).replace("_", " ")

    def card(self, cid: str) -> str:
        c = self.tables.cards.get(cid)
        return c.name if c else str(cid)

    def place(self, hex_id: str) -> str:
        if hex_id in self.game_map.city_at:
            return f"{hex_id} {self.game_map.city_at[hex_id].name}"
        t = self.game_map.terrain.get(hex_id)
        return f"{hex_id} {t.name}" if t else str(hex_id)

    def value(self, key: str, v: Any) -> str:
        if isinstance(v, bool):
            return "yes" if v else "no"
        if v is None:
            return "-"
        if isinstance(v, str):
            if key in PLAYER_KEYS:
                return self.player(v)
            if key in CITY_KEYS:
                return self.city(v)
            if key in SOURCE_KEYS:
                return self.source(v)
            if key in ("cards", "hand", "discarded", "drawn"):
                return self.card(v)
            return v
        if isinstance(v, dict):
            if all(isinstance(x, int) for x in v.values()) and key.endswith("counts"):
                return counts_text(v)
            return ", ".join(f"{k.replace('_', ' ')} {self.value(k, x)}" for k, x in v.items())
        if isinstance(v, (list, tuple)):
            return ", ".join(self.value(key, x) for x in v) or "none"
        return str(v)


def counts_text(counts: dict[str, int]) -> str:
    order = ["army", "rowers", "fleet", "transport", "baggage", "leader", "pirate", "barbarian"]
    keys = sorted(counts, key=lambda t: order.index(t) if t in order else 99)
    return ", ".join(f"{counts[t]} {t if counts[t] == 1 else plural(t)}" for t in keys if counts[t]) or "none"


def signed(n: int) -> str:
    return f"{n:+d}"


def mods_text(mods: Any) -> str:
    """[{"source": "Strategist (ATH-L1)", "value": 1}, ...] -> " +1 Strategist (ATH-L1)" ..."""
    if not isinstance(mods, list):
        return ""
    out = []
    for m in mods:
        if isinstance(m, dict) and isinstance(m.get("value"), int):
            out.append(f" {signed(m['value'])} {m.get('source', '')}".rstrip())
    return ",".join(out)


def hidden_mods_text(r: "Rec") -> str:
    """", and any modifiers of theirs, which you do not see": another player's roll seen without their traits
    and leaders' skills (``visibility.events_for``)."""
    r.use("modifiers_hidden")
    return ", and any modifiers of theirs, which you do not see" if r.g("modifiers_hidden") else ""


UNPLAYED_FIELD = "cards_unplayed"  # a BATTLE record's cards named for it that were not played (see below)


def unplayed_card_lines(battle: dict[str, Any], nm: "Namer", viewer: str | None) -> list[str]:
    """A card given to a battle that was not played, from the BATTLE record's ``cards_unplayed``: a list of
    {"by": player, "side": "attack"/"defense", "card": id, "if_needed": bool, "why": "not needed" | any
    sentence}, each said to its holder alone (and the moderator): the card stays in a hand, which no one else
    sees.  "Elite Units (if needed): not needed, still in your hand" (a new player's review: a card given
    ``if_needed`` to a battle his side won anyway was told nowhere; he had to look at his hand)."""
    out = []
    for c in battle.get(UNPLAYED_FIELD) or []:
        if not isinstance(c, dict) or (viewer is not None and c.get("by") != viewer):
            continue
        label = nm.card(c.get("card")) + (" (if needed)" if c.get("if_needed") else "")
        why = c.get("why") or "not played"
        gone = why == "no longer in your hand"  # played or lost earlier in the turn (battle.fight)
        if viewer is None:
            out.append(f"{possessive(nm.player(c.get('by')))} {label}: "
                       + ("no longer in their hand" if gone else f"{why}, still in their hand"))
        else:
            out.append(f"{label}: " + (why if gone else f"{why}, still in your hand"))
    return out


def side_lines(side: Any, role: str, nm: "Namer", viewer: str | None) -> list[str]:
    """One side of a battle, from the BATTLE record's ``attack``/``defence`` report: each die and modifier."""
    if not isinstance(side, dict):
        return []
    pid = side.get("player")
    who = "you" if viewer is not None and pid == viewer else nm.player(pid) if pid else "neutral"
    lines = [f"{role} ({who}): total {side.get('total')}"]
    for f in side.get("units") or []:
        if not isinstance(f, dict):
            continue
        where = f" at {f['hex']}" if f.get("hex") else ""
        lines.append(f"  {f.get('unit')} ({str(f.get('type', '')).replace('_', ' ')}){where}: {f.get('die')} "
                     f"{f.get('roll')}{mods_text(f.get('modifiers'))} = {f.get('result')}")
    for b in side.get("bonuses") or []:
        if isinstance(b, dict):
            rolls = b.get("rolls")
            shown = f" ({', '.join(str(x) for x in rolls)})" if isinstance(rolls, list) and rolls else ""
            dice = f" {b.get('dice')}{shown}" if b.get("dice") else ""
            lines.append(f"  {b.get('source')}:{dice} {signed(b['value']) if isinstance(b.get('value'), int) else ''}"
                         f" to the total")
    return lines


# -- wording the events ---------------------------------------------------------------------------------

class Rec:
    """One event record as a formatter reads it, for one viewer.

    ``g`` peeks at a key; ``k`` takes the first of its keys that is set and marks them all as worded, as do
    ``who``, ``units``, ``use`` and the ``opt*`` helpers; ``describe`` lists every key no one marked."""

    def __init__(self, rec: dict[str, Any], nm: Namer, viewer: str | None):
        self.rec = rec
        self.nm = nm
        self.viewer = viewer
        self.kind = rec.get("event", "")
        self.used: set[str] = set()

    def __contains__(self, key: str) -> bool:
        return key in self.rec

    def g(self, key: str, default: Any = None) -> Any:
        return self.rec.get(key, default)

    def use(self, *keys: str) -> None:
        self.used.update(keys)

    def k(self, *keys: str) -> Any:
        self.used.update(keys)
        for key in keys:
            if self.rec.get(key) is not None:
                return self.rec[key]
        return None

    def who(self, *keys: str) -> str:
        pid = self.k(*keys) if keys else None
        if pid is None:
            pid = self.rec.get("player")
        self.used.add("player")
        return "you" if self.viewer is not None and pid == self.viewer else self.nm.player(pid)

    def name(self, pid: str | None) -> str:
        """A player as the object of a sentence: "you" or "the Athenians"."""
        return "you" if self.viewer is not None and pid == self.viewer else self.nm.the(pid)

    def poss(self, pid: str | None) -> str:
        """A player's, before a noun: "your", "the Thebans'"."""
        return "your" if self.viewer is not None and pid == self.viewer else possessive(self.nm.the(pid))

    def owned(self, *keys: str) -> tuple[str, str]:
        """Words around units owned by the player the first set of ``keys`` names (all marked as worded):
        ("your ", "") for the viewer's own, ("", " of the Spartans") for another's, ("", "") if unknown."""
        pid = self.k(*keys)
        if pid is None:
            return "", ""
        if self.viewer is not None and pid == self.viewer:
            return "your ", ""
        return "", f" of {self.nm.the(pid)}"

    def thing(self, v: Any) -> str:
        """What a ``target`` names: a player ("you", "the Thebans"), a city, a hex (with its place) or a unit."""
        nm = self.nm
        if not isinstance(v, str):
            return nm.value("target", v)
        if v in nm.players:
            return self.name(v)
        if v in nm.game_map.cities:
            return nm.city(v)
        if v in nm.game_map.terrain:
            return nm.place(v)
        return v

    def units(self, key: str = "units") -> str:
        """Unit ids the record names, or the counts that replaced foreign ones in a redacted record."""
        rec = self.rec
        self.used.update({key, f"{key}_counts", f"{key}_leaders", "unit", "unit_counts", "unit_leaders"})
        parts = []
        ids = rec.get(key, rec.get("unit") if key == "units" else None)
        if isinstance(ids, str):
            ids = [ids]
        if ids:
            parts.append(" ".join(ids))
        counts = rec.get(f"{key}_counts") or (rec.get("unit_counts") if key == "units" else None)
        if counts:
            parts.append(counts_text(counts))
        leaders = rec.get(f"{key}_leaders") or (rec.get("unit_leaders") if key == "units" else None)
        text = " and ".join(parts) or "units"
        if leaders:
            text += f" (led by {', '.join(leaders)})"
        return text

    def opt(self, key: str, template: str, fmt: Callable[[Any], Any] | None = None) -> str:
        """``template`` worded with the value of ``key`` (through ``fmt``) where it is true, else ''."""
        v = self.rec.get(key)
        if not v:
            return ""
        self.used.add(key)
        return template.format(fmt(v) if fmt else v)

    def opt_set(self, key: str, template: str) -> str:
        """``template`` worded with the value of ``key`` where it is not None (0 included), else ''."""
        v = self.rec.get(key)
        if v is None:
            return ""
        self.used.add(key)
        return template.format(v)

    def opt_who(self, key: str, template: str) -> str:
        """``template`` worded with the player ``key`` names (``who``) where it is set, else ''."""
        return template.format(self.who(key)) if self.rec.get(key) else ""

    def roll_for(self, what: str, total_if_modified: bool = False, at: str = "") -> str:
        """"<what> roll for <units><at>: <roll> <modifiers> = <total>" (the total only where it is set, and
        with ``total_if_modified`` only where there are modifiers)."""
        mods, total = self.g("modifiers"), self.g("total")
        self.use("modifiers", "total")
        show = total is not None and (mods or not total_if_modified)
        return (f"{what} roll for {self.units()}{at}: {self.k('roll')}{mods_text(mods)}{hidden_mods_text(self)}"
                f"{' = ' + str(total) if show else ''}")

    def lost_with(self) -> str:
        """", with <the other units lost>" where more than the record's unit was lost, else ''."""
        lost = self.g("lost")
        self.use("lost")
        if not lost or len(lost) <= 1:
            return ""
        return f", with {', '.join(x for x in lost if x != self.g('unit'))}"

    def fill(self, template: str) -> str:
        """``template`` with its fields worded (``Field``)."""
        return template.format_map(Field(self))

    def rest(self) -> str:
        """The record's keys no formatter worded, as " [key: value; ...]"."""
        rest = [(key, v) for key, v in self.rec.items()
                if key not in self.used and key not in HIDDEN_KEYS and key != "player" and v not in (None, [], {})]
        if not rest:
            return ""
        return " [" + "; ".join(f"{key.replace('_', ' ')}: {self.nm.value(key, v)}" for key, v in rest) + "]"


# An event kind's wording, by kind (``pbem.events.Ev``); a kind without one is worded by its name.
DESCRIBE: dict[str, Callable[[Rec], str]] = {}


def describes(*kinds: str) -> Callable[[Callable[[Rec], str]], Callable[[Rec], str]]:
    """Register the decorated function as the wording of ``kinds``."""
    def register(fn: Callable[[Rec], str]) -> Callable[[Rec], str]:
        for kind in kinds:
            assert kind not in DESCRIBE, f"{kind}: worded twice"
            DESCRIBE[kind] = fn
        return fn
    return register


def describe(rec: dict[str, Any], nm: Namer, viewer: str | None) -> str:
    """One event as a sentence.  Known kinds have their wording (``DESCRIBE``); any other key is listed after
    it."""
    r = Rec(rec, nm, viewer)
    fmt = DESCRIBE.get(r.kind) if isinstance(r.kind, str) else None
    text = fmt(r) if fmt is not None else r.kind.replace("_", " ").capitalize()
    text += r.rest()
    return text[:1].upper() + text[1:]


class Field:
    """A record's keys as the fields of a ``Rec.fill`` template: ``{city}``, ``{hex}``, ``{trait}``, ``{cards}``
    and ``{hand}`` by name, ``{who}`` and ``{of}`` as players (``Rec.who``), ``{units}`` as ``Rec.units``, any
    other key as it is."""

    def __init__(self, r: Rec):
        self.r = r

    def __getitem__(self, key: str) -> Any:
        r, nm = self.r, self.r.nm
        if key in ("who", "of"):
            return r.who(key)
        if key == "units":
            return r.units()
        v = r.k(key)
        if key == "city":
            return nm.city(v)
        if key == "hex":
            return nm.place(v)
        if key == "trait":
            return nm.source(v)
        if key in ("cards", "hand"):
            return nm.value("cards", v)
        return v


# Kinds worded by one template of their keys; the keys after it are taken without being worded.
SENTENCES: dict[str, tuple[str, tuple[str, ...]]] = {
    "discard": ("Discarded {cards} (hand limit {hand_limit})", ()),
    # "cards" of a reshuffle is the number of cards shuffled: the DECK line gives the deck's size
    "reshuffle": ("The discard pile was shuffled into a new deck", ("cards",)),
    "hand_seen": ("You saw the hand of {of}: {hand}", ()),
    "no_income": ("No income from {city}: {reason}", ()),
    "razed_removed": ("{city}: one razed counter removed ({left} left)", ()),
    "new_trait": ("{city} gains the trait {trait}", ()),
    "hostility_removed": ("{city} is no longer hostile", ()),
}


def sentence(template: str, taken: tuple[str, ...]) -> Callable[[Rec], str]:
    """The formatter of a ``SENTENCES`` entry."""
    def word(r: Rec) -> str:
        r.use(*taken)
        return r.fill(template)
    return word


for _kind, (_template, _taken) in SENTENCES.items():
    describes(_kind)(sentence(_template, _taken))
del _kind, _template, _taken


SIDES = {"attack": "attack", "defense": "defence", "defence": "defence"}


def side_word(role: Any) -> str:
    return SIDES.get(role, str(role).replace("_", " "))


def until_text(r: Rec, turn_key: str = "until_turn", player_key: str = "until_player") -> str:
    """" until the end of the Thebans' player-turn in game turn 2" (the last player-turn an effect lasts
    through), or ''."""
    turn, pid = r.k(turn_key), r.k(player_key)
    if not turn:
        return ""
    if pid is None:
        return f" until the end of game turn {turn}"
    return f" until the end of {r.poss(pid)} player-turn in game turn {turn}"


# -- the turn frame and the orders

@describes("nmr")
def _nmr(r: Rec) -> str:
    return f"{r.who()} sent no orders (no moves received" + (f", {r.k('streak')} in a row)" if r.g("streak") else ")")


def reason_text(reason: Any, nm: Namer, viewer: str | None, owner: str | None = None) -> Any:
    """A failure's reason as a player reads it: a player's id before "played" becomes their name ("the attack
    is cancelled: corinth played Hesitation" -> "... Corinthians played Hesitation"; "you played" for the
    viewer).  The rules write a reason for the order's ``owner`` ("ATH-A1 disbanded in your Upkeep", "not in
    your hand"): anyone else (the moderator) reads it of them, "in the Athenians' Upkeep"."""
    if not isinstance(reason, str):
        return reason
    reason = city_entry_words(reason, nm, viewer)
    if owner is not None and owner != viewer:
        reason = for_others(reason, nm.the(owner))
    for pid in nm.players:
        name = "you" if viewer is not None and pid == viewer else nm.player(pid)
        reason = re.sub(rf"(?<![\w-]){re.escape(pid)} played\b", f"{name} played", reason)
    return reason


# the words the rules write when a move may not enter a city (movement.step_problems; kept as they are in the
# log records, so that archived turns replay the same): "1416 is sparta controlled city Melos; units may not
# enter it", "0506 is the neutral city Megara; ..."
_CITY_ENTRY = re.compile(r"\b(?P<hex>\w+) is (?:the neutral|(?P<pid>[\w-]+) controlled) city (?P<city>.+?)"
                         r"(?=; units may not enter it)")


def city_entry_words(text: str, nm: Namer, viewer: str | None) -> str:
    """A city a move may not enter, in the report's words (a new player's review: "1416 is sparta controlled
    city Melos" where everything else says "Spartans"): "1416 is Melos, a city of the Spartans", "0506 is
    Megara, a neutral city" (the checker's words too), "a city of yours" for the viewer's own."""
    def words(m: re.Match) -> str:
        pid = m.group("pid")
        whose = "a neutral city" if pid is None else "a city of yours" if viewer is not None and pid == viewer \
            else f"a city of {nm.the(pid)}"
        return f"{m.group('hex')} is {m.group('city')}, {whose}"
    return _CITY_ENTRY.sub(words, text)


def for_others(reason: str, them: str) -> str:
    """A reason written to the order's owner ("you", "your") worded of them (``them``: "the Athenians")."""
    reason = re.sub(r"\bdid you mean\b", "did they mean", reason)
    reason = re.sub(r"\b[Yy]our\b", lambda m: possessive(them), reason)
    return re.sub(r"\b[Yy]ou\b", lambda m: them, reason)


def _names_in(reason: Any, *names: str) -> bool:
    """Whether the failure's reason already names every one of ``names`` (then the order's detail is left out)."""
    return isinstance(reason, str) and all(n and n in reason for n in names)


def order_outcome(r: Rec) -> str:
    """What an order did (ORDER_DONE) or what it was (ORDER_FAILED), as a plain phrase: "took the city at 1204
    Pylos", "the attack at 0503 Clear failed", "recruited ATH-A3 at Athens for 2 gold", "moving ATH-F1"."""
    nm, section, done = r.nm, r.g("section"), r.kind == "order_done"
    reason = r.g("reason")
    if section == "cards" or (section is None and r.g("card")):
        card = nm.card(r.k("card")) if r.g("card") else ""
        if done:
            return f"played {card}" if card else ""
        return "" if _names_in(reason, card) else f"card {card}" if card else ""
    if section == "discard":
        card = nm.card(r.k("card")) if r.g("card") else ""
        if done:
            return f"discarded {card}" if card else ""
        return "" if _names_in(reason, card) else f"card {card}" if card else ""
    if section in ("land_battle", "sea_battle") or "won_by" in r:
        target = r.k("target")
        where = f" at {nm.place(target)}" if isinstance(target, str) else ""
        if not done:
            units = r.units() if (r.g("units") or r.g("units_counts")) else ""
            return (f"the attack{where}" + (f" with {units}" if units and not _names_in(reason, *r.g("units") or [])
                                            else "")).strip()
        won_by, taken, note = r.k("won_by"), r.k("city_taken"), r.k("note")
        if won_by == "defender":
            return f"the attack{where} was beaten off"
        if taken:
            return f"took the city{where}"
        return f"won the battle{where}" + (f"; {note}" if note else "") if won_by == "attacker" else \
            (f"battle{where}" + (f": {note}" if note else ""))
    if section == "recruit":
        city = nm.city(r.k("city")) if r.g("city") else ""
        if not done:
            return "" if _names_in(reason, city) else f"recruiting at {city}" if city else ""
        units = r.units() if r.g("units") or r.g("units_counts") else "units"
        return f"recruited {units}" + (f" at {city}" if city else "") + r.opt_set("cost", " for {} gold")
    if section == "diplomacy":
        city = nm.city(r.k("city")) if r.g("city") else "a city"
        if not done:
            return "" if _names_in(reason, city) else f"diplomacy on {city}"
        ok = r.k("success")
        return f"the diplomacy roll on {city} " + ("succeeded" if ok else "failed" if ok is not None else "was made")
    if section in ("first_move", "second_move") or "to" in r or "units" in r:
        units = r.units() if r.g("units") or r.g("units_counts") else ""
        to = r.k("to")
        if not done:
            return "" if not units or _names_in(reason, *(r.g("units") or [])) else f"moving {units}"
        return "moved" + (f" {units}" if units else "") + (f" to {nm.place(to)}" if isinstance(to, str) else "")
    return ""


def counted(n: Any, noun: str) -> str:
    """"1 card", "2 cards"."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


def done_word(section: Any) -> str:
    """How a carried-out order's line says so: an attack was "fought" (won or beaten off), any other order
    "done"; an order not carried out is "FAILED" (R-TURN-4)."""
    return "fought" if section in ("land_battle", "sea_battle") else "done"


@describes("order_done", "order_failed")
def _order(r: Rec) -> str:
    idx = r.k("index")
    if r.viewer is not None and r.g("player") != r.viewer:
        idx = None  # another player's order (the one behind a revolt you fought): its number tells their file
    what = f"{SECTION_TITLES.get(r.k('section'), r.g('section'))}{' #' + str(idx + 1) if isinstance(idx, int) else ''}"
    whose = r.poss(r.g("player"))
    r.use("player")
    outcome = order_outcome(r)
    if r.kind == "order_done":
        return f"{whose} order {what}: {done_word(r.g('section'))}" + (f": {outcome}" if outcome else "")
    return f"{whose} order {what}: FAILED: {reason_text(r.k('reason'), r.nm, r.viewer, r.g('player'))}" + (
        f" ({outcome})" if outcome else "")


# -- cards

def effect_text(e: Any, nm: Namer) -> str:
    """One effect of a battle card as the CARD_PLAYED record lists it: "2D10 (9, 3) takes 12 from the attack
    total", "-1 on the casualty rolls of the defence"."""
    if not isinstance(e, dict):
        return nm.value("effects", e)
    if "total_of" in e:
        v = e.get("value")
        rolls = e.get("rolls") or []
        dice = f"{e['dice']} ({', '.join(str(x) for x in rolls)}) " if e.get("dice") else ""
        change = (f"adds {v} to" if v >= 0 else f"takes {-v} from") if isinstance(v, int) else f"{v} to"
        return f"{dice}{change} the {side_word(e['total_of'])} total"
    if "roll_modifier" in e:
        v = e["roll_modifier"]
        units = e.get("units", "all")
        of = "" if units in ("all", None, []) else \
            f" ({', '.join(units) if isinstance(units, list) else str(units).replace('_', ' ')})"
        return (f"{signed(v) if isinstance(v, int) else v} on the {side_word(e.get('roll'))} rolls of the "
                f"{side_word(e.get('on'))}{of}")
    return nm.value("effect", e)


def card_target_text(r: Rec, card: Any) -> str:
    """" on <the target>" as the viewer may know it (visibility ``_unit_target``): a city or player by name, a
    leader in sight by name and owner, a stack in sight by its hex and owner; out of sight a leader's owner only."""
    nm = r.nm
    target, owner, hidden, ttype = r.g("target"), r.g("target_owner"), r.g("target_hidden"), r.g("target_type")
    r.use("target", "target_owner", "target_hidden", "target_type")
    kind = card.target if card is not None else None
    leader = kind in ("leader", "own_leader") or ttype == "leader"
    if hidden:
        if leader:
            return f" on one of {r.poss(owner)} leaders" if owner else " on a leader out of your sight"
        if kind == "hex":
            return " on a hex out of your sight"
        return " on a stack out of your sight"  # whose, as where, is known only in sight
    if not target:
        return ""
    # a card aimed at a city names the city (a home city's id is its player's too)
    city = card is not None and card.target in CITY_TARGET_KINDS and target in nm.game_map.cities
    if city:
        return f" on {nm.city(target)}"
    if target in nm.leaders and not owner:  # a whole record: a leader's id (the viewer's own, or the moderator's)
        owner, name = nm.leaders[target]
        target, leader = f"{name} ({target})", True
    if leader and owner:
        return f" on {target}, {'your leader' if r.name(owner) == 'you' else 'a leader of ' + r.name(owner)}"
    if owner and target in nm.game_map.terrain:
        return f" on {r.poss(owner)} stack at {nm.place(target)}"
    return f" on {r.thing(target)}"


@describes("card_played")
def _card_played(r: Rec) -> str:
    nm = r.nm
    text = f"{r.who('by', 'who')} played {nm.card(r.k('card'))}"
    card = nm.tables.cards.get(r.g("card")) if nm.tables else None
    text += card_target_text(r, card)
    side = r.k("side")
    if side:
        text += f" in {side_word(side)}"
    text += r.opt("hex", " at {}", nm.place) + r.opt("city", " on taking {}", nm.city)
    if r.g("redacted") and not r.g("hex") and not side and card is not None \
            and card.timing.get("phase") in ("battle", "land_battle", "sea_battle"):
        text += " in a battle out of your sight"  # a public card, its battle not (visibility: minimal)
    reaction = r.k("reaction")
    if reaction:
        stacks = r.k("stacks") or []
        text += (" against the attack declared" if reaction == "attack declared" else f" in reaction ({reaction})")
        text += f" from {', '.join(stacks)}" if stacks else ""
    if r.g("move"):
        idx = r.k("index")
        text += (f" for the move of {r.units()} ({SECTION_TITLES.get(r.k('move'), r.g('move'))}"
                 + (f" #{idx + 1})" if isinstance(idx, int) else ")"))
    if r.k("if_needed") and side:
        text += f", as the {side_word(side)} was behind"
    text += r.opt("rolls", " (rolled {})", lambda rolls: ", ".join(str(x) for x in rolls))
    effects = r.k("effects")
    if effects:
        text += ": " + "; ".join(effect_text(e, nm) for e in effects)
    return text


@describes("razed_added")
def _razed_added(r: Rec) -> str:
    added, rolled, src = r.k("added"), r.k("rolled"), r.k("source")
    why = []
    if src:
        why.append(r.nm.source(src) + (f": rolled {rolled}" if rolled is not None and rolled != added else ""))
    why.append(r.opt_set("razed", "{} now"))
    return f"{r.nm.city(r.k('city'))}: {counted(added, 'razed counter')} added" + (
        f" ({'; '.join(w for w in why if w)})" if any(why) else "")


def _fewer_rolls(r: Rec, v: Any, t: str) -> str:
    n = abs(v)
    whose = "your" if r.g("target") == r.viewer else "their"
    return (f"{n} diplomacy roll{'' if n == 1 else 's'} {'fewer' if v < 0 else 'more'} for {t} at {whose} next "
            f"Diplomacy phase")


# A lasting effect's words, from the record, its value and its target in words
EFFECT_WORDS: dict[str, Callable[[Rec, Any, str], str]] = {
    "diplomacy_rolls": _fewer_rolls,
    "income_block": lambda r, v, t: f"no income from {t}",
    "cannot_move_or_attack": lambda r, v, t: f"{t} may not move or attack",
    "cannot_attack": lambda r, v, t: f"the stack in {t} may not attack",
    "truce": lambda r, v, t: "no one may attack",
    "leader_removed": lambda r, v, t: f"{t} away",
}
CITY_TARGETS = frozenset({"income_block"})  # effects aimed at a city (a home city's id is its player's too)
USED_UP = frozenset({"diplomacy_rolls"})  # effects that end when the phase they act on has used them


@describes("effect_starts", "effect_ends")
def _effect(r: Rec) -> str:
    kind, value, target = r.k("effect", "kind"), r.k("value"), r.k("target")
    if target in r.nm.leaders:  # "the Spartans' leader Brasidas", never another player's unit id
        owner, name = r.nm.leaders[target]
        t = f"{r.poss(owner)} leader {name}"
    else:
        t = (r.nm.city(target) if kind in CITY_TARGETS else r.thing(target)) if target else ""
    words = EFFECT_WORDS.get(kind)
    if words is not None:
        what = words(r, value, t)
    else:
        what = (str(kind).replace("_", " ") + (f" {signed(value)}" if isinstance(value, int) and value else "")
                + (f" on {t}" if t else ""))
    by = r.k("by")
    text = r.nm.source(r.k("source")) + (f" (played by {r.name(by)})" if by else "") + f": {what}"
    # its start says how long it lasts (unless a phase uses it up: the words say which); its end, why
    until = until_text(r) if r.kind == "effect_starts" and kind not in USED_UP else ""
    r.use("until_turn", "until_player")
    if r.kind == "effect_starts":
        return text + until
    # its end: "No longer in force (expired): Truce (played by the Spartans): no one may attack"
    return "No longer in force" + r.opt("why", " ({})") + ": " + text


@describes("gold")
def _gold(r: Rec) -> str:
    amount = r.k("amount")
    text = f"{r.who('who')}: {signed(amount) if isinstance(amount, int) else amount} gold"
    if r.g("source") or r.g("reason"):
        text += f" ({r.nm.source(r.k('source', 'reason'))}" + r.opt("city", ", on taking {}", r.nm.city) + ")"
    # rolled: the die line under the event shows it; gold: the new total, which the TREASURY shows
    r.use("rolled", "gold", "reason")
    return text


@describes("draw")
def _draw(r: Rec) -> str:
    return f"Drew {counted(r.k('count'), 'card')}" + r.opt("source", " with {}", r.nm.source) + r.fill(": {cards}")


# -- revenue and upkeep

@describes("income")
def _income(r: Rec) -> str:
    r.use("hostile", "base", "bonus", "gold", "bonus_from")  # gold: the new total, which the TREASURY shows
    text = r.fill("Income from {city}: {amount} gold")
    if r.g("bonus") and r.g("base") is not None:
        src = r.g("bonus_from")
        text += (f" ({r.g('base')} + {r.g('bonus')} " + (f"from {', '.join(src)}" if src else "bonus")
                 + ("; hostile: half)" if r.g("hostile") else ")"))
    elif r.g("hostile"):
        text += " (hostile: half)"
    return text


@describes("upkeep_paid")
def _upkeep_paid(r: Rec) -> str:
    r.use("starvation_cleared")
    cleared = " (starvation cleared)" if r.g("starvation_cleared") else ""
    return r.fill("Upkeep paid for {unit}: {gold} gold") + cleared


def unpaid_why(r: Rec) -> str:
    """Why a unit had to roll or eat baggage: " as its upkeep is not paid: no friendly city in or next to its
    hex", or the card that made it roll: " (Plague)"."""
    cause, reason = r.k("cause"), r.k("reason")
    if cause in (None, "upkeep"):
        return f" as its upkeep is not paid: {reason}" if reason else " as its upkeep is not paid" if cause else ""
    return f" ({r.nm.source(cause)}" + (f": {reason})" if reason else ")")


UPKEEP_LIMIT = DISBANDS_AT  # R-PH-UPK: an upkeep roll of 6 or more after modifiers disbands the unit


def upkeep_sources(tables: Tables) -> list[str]:
    """What may modify an upkeep roll besides starvation counters: the lean terrains and the traits and skills
    with an upkeep roll modifier (R-PH-UPK), by name from the tables."""
    found = ["Farms or Fishing Village terrain"]
    for kind, table in (("trait", tables.traits), ("leader skill", tables.skills)):
        for row in sorted(table.values(), key=lambda x: x.name):
            if any(e.get("kind") == "roll_modifier" and e.get("roll") == "upkeep" for e in row.effects):
                found.append(f"{row.name} ({kind})")
    return found


def upkeep_roll_text(r: Rec) -> str:
    """"; upkeep roll 2 +1 (1 starvation counter) -1 (...) = 2, under 6": the die, each modifier with what it is
    for, the total and what it meant.  The record's ``modifiers`` ([{source, value}]) name them, as the Upkeep
    phase logs them; a log written before it did (an older archived turn, its reports rebuilt) gives the
    starvation counters the unit had (a STARVATION record's ``counters`` less the new one) and the rest, with
    the sources it can come from."""
    roll, total = r.k("roll"), r.k("total")
    r.use("modifiers")
    if roll is None:
        return ""
    mods = r.g("modifiers")
    if isinstance(mods, list) and mods:
        body = f"{roll}{mods_text(mods)}"
    else:
        body, rest = f"{roll}", (total - roll if isinstance(total, int) and isinstance(roll, int) else 0)
        counters = r.g("counters")
        if r.kind == "starvation" and isinstance(counters, int) and counters > 1:
            had = counters - 1
            body += f" +{had} ({had} starvation counter{'' if had == 1 else 's'})"
            rest -= had
        if rest:
            sources = upkeep_sources(r.nm.tables)
            if r.g("cause") not in (None, "upkeep"):
                sources.insert(0, r.nm.source(r.g("cause")))
            if r.kind != "starvation":
                sources.insert(0, "starvation counters")
            body += f" {signed(rest)} ({', '.join(sources[:-1])} or {sources[-1]})"
    body += hidden_mods_text(r)
    if total is None:
        return f"; upkeep roll {body}"
    meaning = f"{UPKEEP_LIMIT} or more disbands" if total >= UPKEEP_LIMIT else f"under {UPKEEP_LIMIT}"
    return f"; upkeep roll {body} = {total} ({meaning})"


@describes("baggage_used")
def _baggage_used(r: Rec) -> str:
    mine, of = r.owned("who")
    text = f"{mine}{r.k('unit')}{of} ate baggage {r.k('baggage')} instead of upkeep" + r.opt("reason", ": {}")
    r.use("starvation_cleared")
    return text + (" (starvation cleared)" if r.g("starvation_cleared") else "")


@describes("starvation")
def _starvation(r: Rec) -> str:
    mine, of = r.owned("who")
    return (f"{mine}{r.units()}{of} starves{unpaid_why(r)}{upkeep_roll_text(r)}"
            + r.opt_set("counters", "; starvation counters now {}"))


@describes("disbanded")
def _disbanded(r: Rec) -> str:
    mine, of = r.owned("who", "owner")
    return f"{mine}{r.units()}{of} disbanded{unpaid_why(r)}{upkeep_roll_text(r)}"


# -- recruiting

AWAY_WHERE = "out of play until turn {}, then back at the home city (or the controlled city nearest to it)"
# the group of the units out of play (an exiled leader), listed apart from the hexes: a new player read
# "1114 Hills / ATH-L2 leader: Astyochus, out of play until turn 10 ... not in this hex meanwhile" as "my
# leader is still at 1114" (the map draws no unit out of play either)
AWAY_PLACE = "Away (out of play)"


@describes("recruited")
def _recruited(r: Rec) -> str:
    utype, unit = r.k("type"), r.g("unit")
    if unit and unit != utype:
        what = f"{utype or 'unit'} {r.units()}"
    else:
        what = r.units() if r.g("unit_counts") else (utype or "a unit")
        r.use("unit")
    return f"{r.nm.city(r.k('city'))}: {what} recruited" + r.opt_set("cost", " for {} gold") + r.opt("aboard", ", aboard {}")


@describes("experience")
def _experience(r: Rec) -> str:
    r.use("roll", "which")  # the dice lines under the event show both rolls
    return f"Experience roll for {r.nm.city(r.k('city'))}: {r.k('result')}" + r.opt("reason", " ({})")


@describes("new_leader")
def _new_leader(r: Rec) -> str:
    leaders = r.g("unit_leaders") or []
    r.use("unit", "unit_counts", "unit_leaders")  # counts: "1 leader", said by the sentence itself
    name = r.k("name") or ", ".join(leaders) or "a leader"
    return (f"New leader {name}{r.opt('unit', ' ({})')} at {r.nm.place(r.k('hex'))}"
            + r.opt("source", " ({})", r.nm.source))


@describes("leader_returns")
def _leader_returns(r: Rec) -> str:
    mine, of = r.owned("who")
    name, unit = r.k("name"), r.k("unit")
    label = f"{name} ({unit})" if name and unit else name or unit or ""
    text = (f"{mine}leader {label}{of}" if label else f"{mine}leader{of}").strip()
    text += f" returns at {r.nm.place(r.k('hex'))}"
    cause = r.k("cause")
    if cause == "revolt":
        return text + ": the city it was in revolted"
    return text + (f" ({r.nm.source(cause)})" if cause else "")


# -- diplomacy

# What a diplomacy roll's target is and what a success (6 or more) does to it (R-PH-DIP, step 4)
DIPLOMACY_TARGETS = {
    "neutral": "neutral: on 6+ it comes under control",
    "enemy": "held by another player: on 6+ it revolts",
    "hostile": "hostile, of its own controller: on 6+ it is no longer hostile",
}


def diplomacy_modifiers(r: Rec) -> str:
    """" +1 hostile city": the record's ``modifiers`` ([{source, value}], as the phase logs them); a log written
    before the phase named them has the sum alone (``modifier``)."""
    mods, mod = r.g("modifiers"), r.g("modifier")
    r.use("modifiers", "modifier")
    if isinstance(mods, list):
        return mods_text(mods)
    return f" {signed(mod)}" if mod else ""


@describes("diplomacy_roll")
def _diplomacy_roll(r: Rec) -> str:
    count = f" {r.k('n')} of {r.k('of')}" if r.g("n") is not None else ""
    target = r.k("target")
    return (f"Diplomacy roll{count} on {r.nm.city(r.k('city'))} ({DIPLOMACY_TARGETS.get(target, target)}): "
            f"{r.k('roll')}{diplomacy_modifiers(r)} = {r.k('total')}: "
            f"{'success' if r.k('success') else 'failure'}")


@describes("control")
def _control(r: Rec) -> str:
    holder = r.who("who", "controller", "new_controller")
    under = "your control" if holder == "you" else f"the control of {holder}"
    return f"{r.nm.city(r.k('city'))} comes under {under}" + r.opt("cause", " ({})", r.nm.source)


def revolt_cause(r: Rec) -> str:
    """" (stirred up by your diplomacy roll)", " (stirred up by the Spartans' Revolt card)", or ''."""
    cause = r.k("cause")
    if not cause:
        return ""
    by = r.g("player")
    what = "diplomacy roll" if cause == "diplomacy" else f"{r.nm.source(cause)} card"
    return f" (stirred up by {r.poss(by)} {what})" if by else f" ({r.nm.source(cause)})"


def revolt_result(r: Rec) -> str:
    """How a revolt ended (``outcome``, set by ``mark_revolt_outcomes``): "the revolt was put down: the Thebans
    still hold Megara", "Megara went neutral", or ''."""
    outcome = r.k("outcome")
    city = r.nm.city(r.g("city"))
    if outcome == "neutral":
        return f"{city} went neutral"
    if outcome == "held":
        holder = r.name(r.g("controller"))
        verb = "hold" if holder == "you" or holder.endswith("s") else "holds"
        return f"it was put down and {holder} still {verb} {city}"
    return ""


@describes("revolt")
def _revolt(r: Rec) -> str:
    r.use("negated", "rebels")
    city = r.nm.city(r.k("city"))
    against = r.name(r.k("controller"))
    if r.g("negated"):
        r.use("outcome")
        return (f"A revolt of {city} against {against}{revolt_cause(r)} was negated before it began (a card "
                "played against it): no rebels, no battle")
    rebels = r.g("rebels")
    text = f"{city} revolts against {against}{revolt_cause(r)}"
    if rebels is not None:
        text += f": {rebels} rebel{'' if rebels == 1 else 's'}"
    # a city gone neutral has its own NEUTRALISED line next; a revolt put down has none
    result = revolt_result(r) if r.g("outcome") == "held" else ""
    r.use("outcome")
    return text + (f"; {result}" if result else "")


def revolt_line(rec: dict[str, Any], nm: Namer, viewer: str | None) -> str:
    """A revolt an order caused, after the order's result: "Megara revolted against the Thebans with 1 rebel:
    the revolt was put down: the Thebans still hold Megara", or that it was negated."""
    r = Rec(rec, nm, viewer)
    city = nm.city(r.g("city"))
    against = r.name(r.g("controller"))
    if r.g("negated"):
        return f"the revolt of {city} against {against} was negated before it began"
    rebels = r.g("rebels")
    text = f"{city} revolted against {against}" + (
        f" ({rebels} rebel{'' if rebels == 1 else 's'})" if rebels is not None else "")
    result = revolt_result(r)
    return text + (f"; {result}" if result else "")


def mark_revolt_outcomes(events: list[dict[str, Any]]) -> None:
    """Give each revolt the viewer sees (not negated) its ``outcome``: "neutral" when a NEUTRALISED record of its
    city follows in the same player-turn and phase, else "held".  Both are public: the city goes neutral in
    everyone's report, and the city table shows who holds it."""
    for i, e in enumerate(events):
        if e.get("event") != "revolt" or e.get("negated") or not e.get("city"):
            continue
        frame = (e.get("player"), e.get("phase"))
        outcome = "held"
        for later in events[i + 1:]:
            if (later.get("player"), later.get("phase")) != frame:
                break
            kind = later.get("event")
            if kind == "neutralised" and later.get("city") == e["city"]:
                outcome = "neutral"
                break
            if kind == "revolt" and later.get("city") == e["city"]:
                break
        e["outcome"] = outcome


@describes("neutralised")
def _neutralised(r: Rec) -> str:
    return f"{r.nm.city(r.k('city'))} becomes neutral" + r.opt_who("was", " (was held by {})")


# -- leaders

@describes("leader_removed")
def _leader_removed(r: Rec) -> str:
    r.use("unit")
    mine, of = r.owned("who")
    name = r.k("name") or ""
    unit = r.opt("unit", " ({})") if mine or not name else ""  # another player's unit id only if it has no name
    label = f"{name}{unit}".strip()
    text = (f"{mine}leader {label}{of}" if label else f"{'your' if mine else 'a'} leader{of}") + " leaves play"
    if r.g("until"):
        text += r.opt("turns", " for {}", lambda n: counted(n, "turn"))
        text += f", back at the start of {r.poss(r.k('until_player'))} turn {r.k('until')}" if r.g("until_player") \
            else f", back in turn {r.k('until')}"
    else:
        text += " for good"
    return text + r.opt("source", " ({})", r.nm.source)


@describes("leader_fate")
def _leader_fate(r: Rec) -> str:
    nm = r.nm
    name, lid = r.k("name"), r.k("leader")
    label = f"{name} ({lid})" if name and lid and name != lid else name or lid or ""
    mine, of = r.owned("owner")
    head = (f"{mine}leader {label}{of}" if label else f"{'your' if mine else 'a'} leader{of}").strip()
    captor, fate = r.k("captor"), r.k("fate", "result")
    where = r.opt("hex", " at {}", nm.place)
    if fate == "removed":  # a card of the battle's winner (Failure) took a leader of the losing side
        return f"{head} was removed from play" + (f" by {r.name(captor)}" if captor else "") + where + \
            r.opt("reason", " ({})")
    text = f"{head} was captured" + (f" by {r.name(captor)}" if captor else "") + where
    if fate == "ransomed":
        paid, asked = r.k("paid"), r.k("asked")
        text += " and ransomed" + (f" for {paid} gold" if paid is not None else "")
        if asked is not None and asked != paid:
            text += f" ({asked} asked: all {'you' if mine else 'they'} had)"
        text += r.opt("returns_to", "; back at {}", nm.place)
    elif fate == "executed":
        text += " and executed"
    elif fate:
        text += f": {fate}"
    return text + r.opt("reason", " ({})")


# -- movement

MOVE_NOTES = (("loaded", "loaded"), ("unloaded", "unloaded"), ("set_down", "set down"), ("captured", "captured"),
              ("unload_skipped", "not unloaded"))


@describes("moved")
def _moved(r: Rec) -> str:
    g, nm = r.g, r.nm
    path = [h for h in (g("path") or []) if isinstance(h, str)]
    # section, index: the ORDERS section lists the order; movers, allowances, bonuses: the units and movement
    # points the sentence gives already
    r.use("path", "section", "index", "movers", "points", "allowance", "allowances", "bonuses", "loaded",
          "set_down", "unloaded", "unload_skipped", "captured", "cards", "stopped")
    start, end = r.k("from"), r.k("to")
    text = f"{r.who('owner')}: {r.units()} moved"
    if g("redacted"):  # another player's move: the hexes in sight (``to`` only when the end is in sight too)
        mid = path[:-1] if end and path and path[-1] == end else path
        through = " through " + " ".join(mid) if mid else ""
        if start and end:
            text += f" from {start}{through} to {end}"
        elif start:
            text += f" from {start}{through} and out of your sight"
        elif end:
            text += f" in from out of your sight{through} to {end}"
        else:
            text += f"{through}, in and out of your sight"
    else:
        if start:
            text += f" from {start}"
        if path:
            text += (" via " + " ".join(path[:-1]) if len(path) > 1 else "") + f" to {path[-1]}"
        elif end:
            text += f" to {end}"
    extra = []
    if g("points") is not None and g("allowance") is not None:
        extra.append(f"{g('points')} of {g('allowance')} movement points")
    extra += [f"{label} {nm.value(key, g(key))}" for key, label in MOVE_NOTES if g(key)]
    if g("cards"):
        extra.append("cards " + ", ".join(nm.card(c["card"]) if isinstance(c, dict) and "card" in c
                                          else nm.value("card", c) for c in g("cards")))
    if g("stopped"):
        stopped = g("stopped")
        extra.append(f"stopped: {city_entry_words(stopped, nm, r.viewer) if isinstance(stopped, str) else stopped}")
    return text + (" (" + "; ".join(extra) + ")" if extra else "")


CAPTURED_HOW = {"move": " by moving in", "city taken": " with the city"}


@describes("captured")
def _captured(r: Rec) -> str:
    units = r.units()
    utype = r.k("type")
    if utype and (r.g("unit") or r.g("units")) and not r.g("unit_counts"):
        units += f" ({utype})"
    owner = r.g("owner") if r.g("owner") is not None else r.g("who")
    mine, of = r.owned("owner", "who")
    cause = r.k("cause")
    if cause and r.g("by") is None:  # seized by the rebels
        r.use("by")
        return f"{mine}{units}{of} {cause}" + r.opt("hex", " at {}", r.nm.place)
    how = r.k("how")
    return (f"{mine}{units} captured" + (f" from {r.name(owner)}" if owner and not mine else "")
            + r.opt_who("by", " by {}") + r.opt("hex", " at {}", r.nm.place)
            + (CAPTURED_HOW.get(how, f" ({how})") if how else "") + (f" ({cause})" if cause else ""))


@describes("navigation")
def _navigation(r: Rec) -> str:
    r.use("result", "sunk", "who")  # who: the unit is named; result: said by "sunk"
    # where the ship stood (the roll is the owner's alone: visibility PRIVATE_KINDS), and the failed move order
    # that left it there (``ShipsAtSea``)
    at = r.opt("hex", " at {}", r.nm.place) + r.opt("left_by", " (left at sea by {})")
    return (r.roll_for("Navigation", at=at) + (": sunk" if r.g("sunk") else ": afloat" if "sunk" in r else "")
            + r.opt("cause", " ({})", r.nm.source))


class ShipsAtSea:
    """Where each ship stands as the log goes by, to say where a failed move order left its ships when that is
    at sea (R-TURN-4: the order is skipped whole, so they stay where they were; R-PH-SECOND: not docked or
    beached, they face the navigation roll at the end of the Second Move), and to tie that roll to the order.
    Fed the viewer's own events (their own units' moves are never redacted; the moderator's: everyone's)."""

    def __init__(self, before: GameState | None, game_map: GameMap) -> None:
        self.gm = game_map
        self.ships: dict[str, tuple[str | None, str]] = {}  # ship id -> (owner, hex)
        if before is not None:
            self.ships = {u.id: (u.owner, u.hex) for u in before.units.values() if u.type.is_ship}
        self.waiting: dict[tuple[Any, str], tuple[dict[str, Any], str]] = {}  # (player, ship) -> (stay, hex)
        self.left_by: dict[Any, str] = {}  # a navigation record's seq -> the failed order that left its ship there

    def see(self, e: dict[str, Any]) -> None:
        """Follow one record: moves, retreats, recruits, captures and losses; a navigation roll of a ship a
        failed order left at sea is tied to that order."""
        kind, ships = e.get("event"), self.ships
        unit = e.get("unit")
        if kind == "player_turn":
            self.waiting.clear()
        elif kind == "moved" and isinstance(e.get("units"), list) and isinstance(e.get("to"), str):
            for u in e["units"]:
                if u in ships:
                    ships[u] = (ships[u][0], e["to"])
                    self.waiting.pop((e.get("player"), u), None)
        elif kind == "retreat" and unit in ships and isinstance(e.get("to"), str):
            ships[unit] = (ships[unit][0], e["to"])
        elif kind == "recruited" and e.get("type") in ("fleet", "transport") and isinstance(unit, str) \
                and e.get("city") in self.gm.cities:
            ships[unit] = (e.get("player"), self.gm.cities[e["city"]].hex)
        elif kind == "captured" and unit in ships and e.get("by"):
            ships[unit] = (e["by"], ships[unit][1])
        elif kind in ("sunk", "destroyed", "disbanded", "captured") \
                or (kind == "casualty" and e.get("result") == "destroyed"):
            # gone (a ship seized by the rebels too: CAPTURED with ``units`` and no ``by``)
            for key in ("unit", "lost", "units"):
                for u in (e.get(key) if isinstance(e.get(key), list) else [e.get(key)]):
                    if isinstance(u, str):
                        ships.pop(u, None)
        if kind == "navigation" and isinstance(unit, str):
            stay_at = self.waiting.pop((e.get("player"), unit), None)
            if stay_at is not None and stay_at[1] == e.get("hex"):
                stay, _ = stay_at
                stay["rolls"].append((unit, bool(e.get("sunk"))))
                self.left_by[e.get("seq")] = stay["order"]

    def left_at_sea(self, fail: dict[str, Any], order: str) -> list[dict[str, Any]]:
        """The ships of a failed move order ``fail`` that stay at sea, grouped by hex: [{hex, ships, rolls,
        order}] (``rolls``: filled in by the navigation rolls that follow).  A hex id in the order's units
        names the player's ships there."""
        if fail.get("section") not in ("first_move", "second_move") or not isinstance(fail.get("units"), list):
            return []
        me, gm = fail.get("player"), self.gm
        named: list[str] = []
        for x in fail["units"]:
            if x in gm.terrain:
                named += sorted(u for u, (o, h) in self.ships.items() if o == me and h == x)
            elif x in self.ships and self.ships[x][0] == me:
                named.append(x)
        by_hex: dict[str, dict[str, Any]] = {}
        for u in dict.fromkeys(named):
            h = self.ships[u][1]
            if h in gm.terrain and not gm.ship_may_stop(h):
                stay = by_hex.setdefault(h, {"hex": h, "ships": [], "rolls": [], "order": order})
                stay["ships"].append(u)
                self.waiting[(me, u)] = (stay, h)
        return list(by_hex.values())


def left_at_sea_text(stays: Sequence[dict[str, Any]], nm: Namer, whose: str) -> str:
    """"ATH-T1 stayed where it was, at sea at 0602 Sea; navigation roll there at the end of your Second Move:
    afloat" for each hex a failed move order left ships in (``ShipsAtSea.left_at_sea``)."""
    out = []
    for s in stays:
        ships = s["ships"]
        one = len(ships) == 1
        text = f"{', '.join(ships)} stayed where {'it was' if one else 'they were'}, at sea at {nm.place(s['hex'])}"
        rolls = s["rolls"]
        if rolls:
            said = [("sunk" if sunk else "afloat") if one else f"{u} {'sunk' if sunk else 'afloat'}"
                    for u, sunk in rolls]
            text += (f"; navigation roll{'' if len(rolls) == 1 else 's'} there at the end of {whose} Second Move: "
                     + ", ".join(said))
        out.append(text)
    return "; ".join(out)


def lost_counts_with(r: Rec) -> str:
    """", with <the other units lost>" from a redacted record's counts (the unit's own counts taken off)."""
    lost = r.g("lost_counts")
    r.use("lost_counts")
    if not isinstance(lost, dict):
        return ""
    own = r.g("unit_counts") or {}
    rest = {t: n - own.get(t, 0) for t, n in lost.items() if n - own.get(t, 0) > 0}
    return f", with {counts_text(rest)}" if rest else ""


@describes("sunk")
def _sunk(r: Rec) -> str:
    mine, of = r.owned("who")
    return (f"{mine}{r.units()}{of} sank" + r.opt("hex", " at {}", r.nm.place) + r.lost_with() + lost_counts_with(r)
            + r.opt("cause", " ({})", r.nm.source))


# -- battles

def revolt_unopposed(battle: dict[str, Any]) -> bool:
    """A revolt's BATTLE record where nobody fought: no unit of the controller held the city (``battle.py``
    ``revolt_battle``: no dice, both sides empty, totals 0), so the city went neutral without a battle."""
    if battle.get("battle") != "revolt" or battle.get("attackers") or battle.get("defenders"):
        return False
    return not any(isinstance(battle.get(k), dict) and battle[k].get("units") for k in ("attack", "defence"))


def stirred_up_by(battle: dict[str, Any], rec: dict[str, Any]) -> bool:
    """Whether ``rec`` is the result of the card or diplomacy order that started the revolt ``battle``: its zone
    ends with it, but the block has said it already (the card played, the diplomacy roll, and the revolt's
    line "stirred up by the Cretans' Install Governments card"), and a new player read "The Cretans' order
    Cards: done: played Install Governments" at the end of the battle as a line of another player's orders."""
    return (battle.get("battle") == "revolt" and rec.get("event") in ("order_done", "order_failed")
            and rec.get("section") in ("cards", "diplomacy"))


@describes("battle")
def _battle(r: Rec) -> str:
    g = r.g
    # attack, defence: the BATTLES section lists them die by die; cards: each has its CARD_PLAYED sentence;
    # battle: worded as "Revolt"; city: the place names it; section, index: the ORDERS section lists the order
    r.use("attack", "defence", "cards", "won_by", "tie", "battle", "city", "section", "index", "rebels", "defender")
    r.use("cards_unplayed")  # the BATTLES section tells them, each to its holder alone (unplayed_card_lines)
    target = r.k("target", "hex")
    place = r.nm.place(target) if isinstance(target, str) else target
    revolt = g("battle") == "revolt"
    if revolt_unopposed(r.rec):  # R-PH-DIP-REVOLT: nobody held the city, nobody fought (a player's review)
        r.use("attackers", "defenders", "attack_total", "defence_total", "defense_total", "winner", "note")
        rebels = g("rebels")
        held_by = g("defender")
        whose = r.poss(held_by) if held_by else "its controller's"
        city = r.nm.city(g("city")) if g("city") else place
        return (f"Revolt at {place}: " + (f"{counted(rebels, 'rebel')} rose" if rebels else "the rebels rose") +
                (f" against {r.name(held_by)}" if held_by else "") +
                f"; none of {whose} units held the city (only Armies, Rowers, manned Fleets and loaded Transports "
                f"do), so there was no battle: {city} went neutral")
    if revolt:
        rebels = g("rebels")
        text = f"Revolt at {place}"
        if "defender" in r:
            text += (f": {counted(rebels, 'rebel')} rose against " if rebels else ": the rebels rose against ") + \
                (r.name(g("defender")) if g("defender") else "the garrison")
    else:
        text = f"Battle at {place}"
        if g("attacker"):
            text += f": {r.who('attacker')} attacked"
            if "defender" in r:
                text += f" {r.name(g('defender'))}" if g("defender") else " a neutral city"
        elif g("defender"):
            text += f": {r.name(g('defender'))} defended"
    sides = []
    for side, total in (("attackers", ("attack_total",)), ("defenders", ("defence_total", "defense_total"))):
        bits = []
        if g(side) or g(f"{side}_counts"):
            bits.append(r.units(side))
        t = r.k(*total)
        if t is not None:
            bits.append(f"total {t}")
        if bits:
            sides.append(f"{'rebels' if revolt and side == 'attackers' else side} {', '.join(bits)}")
    if sides:
        text += "; " + "; ".join(sides)
    if g("winner") is not None:
        text += f"; {r.who('winner')} won"
    elif "winner" in r:
        r.use("winner")
        if g("won_by"):
            text += "; the rebels won" if revolt and g("won_by") == "attacker" else f"; the {g('won_by')} won"
    if g("tie"):
        text += " (a tie goes to the defender)"
    return text + r.opt("note", " ({})")


@describes("casualty")
def _casualty(r: Rec) -> str:
    r.use("hex")  # the battle it follows gives the place
    mine, of = r.owned("owner")
    if r.g("roll") is None:  # a redacted record: the result without the die
        r.use("roll", "modifiers", "total")
        text = f"{mine}{r.units()}{of}: {r.k('result')}"
    else:
        r.use("owner")  # the unit's id names its owner
        total = r.g("total") if r.g("total") is not None else r.g("roll")
        meaning = f"{RETREAT_AT} or more retreats" if total >= RETREAT_AT else f"under {RETREAT_AT}: destroyed"
        text = f"{r.roll_for('Casualty', total_if_modified=True)} ({meaning}): {r.k('result')}"
    return (text + r.opt("to", " to {}") + r.lost_with() + lost_counts_with(r) + r.opt("reason", " ({})"))


@describes("retreat")
def _retreat(r: Rec) -> str:
    mine, of = r.owned("owner")
    return (f"{mine}{r.units()}{of} retreated" + r.opt("from", " from {}") + r.opt("to", " to {}")
            + r.opt("carried", ", carrying {}", lambda c: ", ".join(c) if isinstance(c, list) else c))


@describes("city_taken")
def _city_taken(r: Rec) -> str:
    city = r.k("city")
    r.use("hex")  # the city is named
    home = r.k("home_of") if "home_of" in r else (city if city in r.nm.players else None)
    by = r.g("by") or r.g("who") or r.g("attacker")
    text = f"{r.who('by', 'who', 'attacker')} took {r.nm.city(city)}" + r.opt_who("from", " from {}")
    text += f"; its people welcome {'you' if r.name(by) == 'you' else 'them'} back" \
        if home is not None and home == by else "; it is hostile"
    if r.g("unit") or r.g("unit_counts"):
        text += f" ({r.units()} moved in" + r.opt("unit_from", " from {}") + ")"
    return text


@describes("plunder")
def _plunder(r: Rec) -> str:
    return (f"{r.who('by', 'who')} plundered {r.nm.city(r.k('city'))}" + r.opt_set("gold", " for {} gold")
            + r.opt("rolls", " (3D6: {})", lambda rolls: ", ".join(str(x) for x in rolls))
            + r.opt_set("razed", "; {} razed counters"))


@describes("destroyed")
def _destroyed(r: Rec) -> str:
    # by: the CITY_TAKEN and PLUNDER records before it say who; razed: 6, said by "destroyed"; hex: the place
    # of the battle or the move it follows
    r.use("by", "razed", "hex")
    mine, of = r.owned("who")
    text = f"{r.nm.city(r.k('city'))} was destroyed" if r.g("city") else f"{mine}{r.units()}{of} destroyed"
    return text + r.opt("cause", " ({})", r.nm.source) + r.lost_with() + lost_counts_with(r)


# -- the end of the game

@describes("eliminated")
def _eliminated(r: Rec) -> str:
    if r.g("who") is None and r.g("player") is None:
        r.use("who", "player")
        return "A player is out of the game"
    n = r.k("cards_discarded")
    return f"{r.who('who')} are out of the game" + (f"; their {n} card{'s' if n != 1 else ''} went to the discard "
                                                     f"pile" if n else "")


@describes("victory")
def _victory(r: Rec) -> str:
    r.use("standings")  # the STANDINGS section
    text = f"{r.who('winner', 'who')} won the game" if r.g("winner") else "The game is over"
    return text + r.opt("reason", " ({})")


def possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def gold_die_purpose(r: dict[str, Any], nm: Namer) -> tuple[str, tuple[str, ...]]:
    """A card's gold die ("Internal Jealousies: gold", logged with the player whose gold it is) worded by the
    sign of the card's gold effect (cards.yaml): "Internal Jealousies: gold the Spartans lose", "Contributions:
    gold the Spartans gain", "Treasure: gold gained for taking Corinth" (a new player read "gold for the
    Spartans" under a loss as gold gained).  Returns the purpose and the keys it has put in words; any other
    die: its purpose as logged and none."""
    purpose = str(r.get("purpose"))
    name, _, what = purpose.rpartition(": ")
    card = next((c for c in nm.tables.cards.values() if c.name == name), None) if what == "gold" else None
    gold = [e for e in card.effects if e.get("kind") == "gold"] if card else []
    if not gold:
        return purpose, ()
    gain = int(gold[0].get("sign", 1)) > 0
    who, city = r.get("player", r.get("who")), r.get("city")
    if isinstance(who, str):
        verb = "gain" if gain else "lose"
        return f"{name}: gold {nm.the(who)} {verb}", ("player", "who")
    taking = f" for taking {nm.city(city)}" if isinstance(city, str) else ""
    return f"{name}: gold {'gained' if gain else 'lost'}{taking}", ("city",) if taking else ()


# A die's context keys, worded after its purpose: "for Olynthus", "for ATH-A1", "(Reconnaissance)"
def describe_roll(rec: dict[str, Any], nm: Namer) -> str:
    """One die: "1D6 = 4: diplomacy roll for Olynthus", "1D10 = 7: attack roll ATH-A1, modifier +2"."""
    r = rec["roll"]
    purpose, worded = gold_die_purpose(r, nm)
    low = purpose.lower()
    extra, notes = "", []
    for key, v in r.items():
        if key in ("die", "result", "purpose") or key in worded or v in (None, [], {}):
            continue
        if key in ("unit", "leader") and isinstance(v, str):
            if v not in purpose:
                extra += f" for {v}"
        elif key in CITY_KEYS and isinstance(v, str):
            name = nm.city(v)
            if name.lower() not in low and v.lower() not in low:
                extra += f" {'in' if low.startswith('rebels') else 'for'} {name}"
        elif key in ("player", "who") and isinstance(v, str):
            name = nm.player(v)
            if name.lower() not in low:
                extra += f" for the {name}" if name.endswith("s") else f" for {name}"
        elif key in SOURCE_KEYS and isinstance(v, str):
            name = nm.source(v)
            if name.lower() not in low:
                notes.append(name)
        elif key == "modifier" and isinstance(v, int):
            notes.append(f"modifier {signed(v)}")
        elif key == "side" and isinstance(v, str):
            notes.append(f"{side_word(v)} side")
        else:
            notes.append(f"{key.replace('_', ' ')} {nm.value(key, v)}")
    die, result = str(r.get("die")), r.get("result")
    tail = extra + (f" ({', '.join(notes)})" if notes else "")
    if die.startswith("pick1of"):  # Dice.choice: one of n, e.g. a new leader's name (a player's review: "pick
        n = die[len("pick1of"):]   # 103 of 180: leader name" read as code)
        what = "the name" if purpose == "leader name" else purpose
        return Drawn(f"{what}{tail}, drawn from the list of {n} ({ordinal(result)})")
    if die == "shuffle":  # Dice.shuffle: the whole pile, ``result`` cards
        return Drawn(f"{purpose}{tail}: {counted(result, 'card')}, in a random order")
    return f"{die} = {result}: {purpose}{tail}"


class Drawn(str):
    """A random draw that is no die a player reads as one (a pick from a list, a shuffle): shown without the
    "die" label the report puts before each die (``die_line``)."""


def die_line(text: Any) -> str:
    """A die's line in a report: "die 1D6 = 4: upkeep roll for ATH-A1"; a draw (``Drawn``) as it is."""
    return str(text) if isinstance(text, Drawn) else f"die {text}"


def ordinal(n: Any) -> str:
    """103 -> "103rd", 11 -> "11th"."""
    if not isinstance(n, int):
        return str(n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def dice_lines(dice: Sequence[dict[str, Any]], nm: Namer) -> list[str]:
    """The dice of one event, each as ``describe_roll`` words it; a D66 trait roll that the next D66 of the same
    purpose replaced says why it was rolled again (R-SET-4: 64 names no trait; a trait already held)."""
    out = []
    for i, d in enumerate(dice):
        text = describe_roll(d, nm)
        roll = d.get("roll") or {}
        later = [x.get("roll") or {} for x in dice[i + 1:]]
        if roll.get("die") == "D66" and any(x.get("die") == "D66" and x.get("purpose") == roll.get("purpose")
                                            for x in later):
            trait = nm.tables.trait_for_roll(roll.get("result")) if isinstance(roll.get("result"), int) else None
            text += (f" ({trait.name}: already held, rolled again)" if trait is not None
                     else " (no trait for this number: rolled again)")
        out.append(text)
    return out


def _capture_trail(rec: dict[str, Any]) -> bool:
    """A record a move's captures write before the move's own "moved" record (``movement.capture_hex``): a unit
    captured by moving in, a captured leader's ransom die and fate, a captured ship scuttled."""
    kind = rec.get("event")
    if is_roll(rec):
        return rec["roll"].get("purpose") == "ransom"
    return ((kind == "captured" and rec.get("how") == "move") or kind == "leader_fate"
            or (kind == "destroyed" and str(rec.get("cause", "")).startswith("scuttled")))


def captures_after_their_moves(records: Sequence[dict[str, Any]], events: Sequence[dict[str, Any]]
                               ) -> list[dict[str, Any]]:
    """``events`` (the viewer's) with what a move captured put after that move's line: the log writes a capture
    while the move goes on and the "moved" record at its end, and a new player read "Your SPA-T1 (transport)
    captured ... by moving in" before "Corinthians: 2 armies moved from 1215 to 1216", the move that took it.
    Which move a capture belongs to is read from the whole log (``records``); only events the viewer sees are
    moved, and only when they see that move's line too (else they stay where they are)."""
    move_of: dict[Any, Any] = {}  # a capture's record's seq -> its move's seq
    for i, r in enumerate(records):
        if r.get("event") != "moved":
            continue
        trail, j = [], i - 1
        while j >= 0 and _capture_trail(records[j]) and \
                (records[j].get("player"), records[j].get("phase")) == (r.get("player"), r.get("phase")):
            trail.append(records[j])
            j -= 1
        move_of.update((x.get("seq"), r.get("seq")) for x in trail if x.get("seq") is not None)
    if not move_of:
        return list(events)
    shown = {e.get("seq") for e in events if e.get("seq") is not None}
    held: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    out: list[dict[str, Any]] = []
    for e in events:
        move = move_of.get(e.get("seq"))
        if move is not None and move in shown:
            held[move].append(e)
            continue
        out.append(e)
        if e.get("event") == "moved":
            out += held.pop(e.get("seq"), [])
    return out + [e for rest in held.values() for e in rest]


@dataclass
class Entry:
    """An event with the dice rolled for it; ``event`` None for dice that caused no event."""

    event: dict[str, Any] | None
    dice: list[dict[str, Any]] = field(default_factory=list)


def entries(records: Iterable[dict[str, Any]]) -> list[Entry]:
    out: list[Entry] = []
    pending: list[dict[str, Any]] = []
    frame = None
    for r in records:
        f = (r.get("player"), r.get("phase"))
        if pending and f != frame:
            out.append(Entry(None, pending))
            pending = []
        frame = f
        if is_roll(r):
            pending.append(r)
        else:
            out.append(Entry(r, pending))
            pending = []
    if pending:
        out.append(Entry(None, pending))
    return out


# -- the report's context -------------------------------------------------------------------------------

# -- the moderator's corrections (`pbem adjust`, read back from audit.log) ---------------------------------

# read from audit.log by pbem.moderation (which writes the `adjust` lines): Correction, campaign_corrections,
# read_corrections


def correction_lines(corrections: Sequence[Correction], turn: int, nm: Namer, viewer: str | None
                     ) -> list[dict[str, Any]]:
    """What the viewer is told of the moderator's corrections: each one's items that touch them (their gold,
    their units, a city they held or were given; the moderator: all), when, and the moderator's reason.
    Another player's unit moved in the viewer's sight is not told: the reason is written for the moderator's
    log and may say what the viewer does not see; the unit itself shows where it now is (OTHER UNITS)."""
    out = []
    for c in corrections:
        said = []
        for item, who in zip(c.items, c.owners or [set()] * len(c.items)):
            if viewer is not None and viewer not in who:
                continue
            kind = item[0]
            if kind == "gold":
                whose = "your" if viewer is not None else possessive(nm.player(item[1]))
                said.append(f"{whose} gold {signed(item[2])} (to {item[3]})")
            elif kind == "moved":
                whose = "your " if viewer is not None else "".join(f"{possessive(nm.player(w))} " for w in who)
                said.append(f"{whose}{item[1]} placed at {nm.place(item[2])}")
            elif kind == "removed":
                whose = "your " if viewer is not None else "".join(f"{possessive(nm.player(w))} " for w in who)
                said.append(f"{whose}{item[1]} removed from play")
            elif kind == "control":
                to = ("you" if item[2] == viewer and viewer else nm.the(item[2])) if item[2] else "nobody (neutral)"
                said.append(f"{nm.city(item[1])} given to {to}")
        if not said:
            continue
        when = ("before this turn was run" if c.turn == turn else
                "after this turn was run (this report was written again since)")
        # the reason is one text for the whole command: told to a player only when the correction touched them
        # alone (a red-teamer: one `adjust` for three players showed each the others' reason, "athens bribe")
        alone = viewer is None or all(who == {viewer} for who in (c.owners or [set()]))  # a neutral unit: not theirs
        reason = c.reason if alone else ("not shown to you: this correction touched other players too (ask the "
                                         "moderator)")
        out.append({"when": when, "before": c.turn == turn, "text": "; ".join(said), "reason": reason,
                    "gold": sum(i[2] for i, w in zip(c.items, c.owners) if i[0] == "gold" and viewer in w)
                    if viewer is not None else 0})
    return out


def treasury(view: dict[str, Any], before: GameState | None, records: Sequence[dict[str, Any]], nm: Namer,
             player: str, corrected: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """Gold at the start, each income and cost of the turn, gold at the end (the player's own events).
    ``corrected``: the moderator's corrections of the player's gold (``correction_lines``); one made before
    the turn shows the gold the last report ended with (``last``), and the correction, above the start."""
    start = before.players[player].gold if before is not None and player in before.players else None
    end = view["me"]["gold"]
    lines: list[dict[str, Any]] = []
    first = [{"label": "Moderator's correction (see above)", "amount": c["gold"]}
             for c in corrected if c["before"] and c["gold"]]
    last = start - sum(x["amount"] for x in first) if start is not None and first else None
    upkeep: dict[Any, dict[str, Any]] = {}  # phase -> its one line, where the phase's first payment stands
    upkeep_units = defaultdict(int)
    for r in records:
        kind = r.get("event")
        if kind == "income" and r.get("player") == player:
            lines.append({"label": f"Income: {nm.city(r['city'])}" + (" (hostile: half)" if r.get("hostile") else ""),
                          "amount": r.get("amount", 0)})
        elif kind == "no_income" and r.get("player") == player:
            lines.append({"label": f"No income: {nm.city(r['city'])} ({r.get('reason', '')})", "amount": 0})
        elif kind == "upkeep_paid" and r.get("player") == player:
            if r.get("phase") not in upkeep:  # in the turn's order: before a plunder of the moves after it
                upkeep[r.get("phase")] = {"label": "", "amount": 0}
                lines.append(upkeep[r.get("phase")])
            upkeep[r.get("phase")]["amount"] -= int(r.get("gold", 1))
            upkeep_units[r.get("phase")] += 1
        elif kind == "recruited" and r.get("player") == player and r.get("cost"):
            # a unit the player no longer owns at the end of the turn is named by its type alone (visibility)
            unit = r.get("unit") if r.get("unit") != r.get("type") else None
            lines.append({"label": f"Recruited {r.get('type', 'unit')}{' ' + unit if unit else ''} at "
                                   f"{nm.city(r['city'])}", "amount": -int(r["cost"])})
        elif kind == "gold" and r.get("who", r.get("player")) == player and isinstance(r.get("amount"), int):
            src = r.get("source") or r.get("reason") or "gold"
            lines.append({"label": nm.source(src), "amount": r["amount"]})
        elif kind == "plunder" and r.get("by", r.get("player")) == player and isinstance(r.get("gold"), int):
            lines.append({"label": f"Plunder of {nm.city(r.get('city', ''))}", "amount": r["gold"]})
        elif kind == "leader_fate" and r.get("fate") == "ransomed" and isinstance(r.get("paid"), int):
            # the owner pays the captor (R-UNIT-4); a ransom of 0 (an empty treasury) is still told
            leader = r.get("name") or r.get("leader") or "a leader"
            if r.get("leader") and r.get("name") and r["leader"] != r["name"]:
                leader += f" ({r['leader']})"
            if r.get("owner") == player:
                lines.append({"label": f"Ransom paid for {leader} to {nm.the(r.get('captor'))}",
                              "amount": -r["paid"]})
            elif r.get("captor") == player:
                lines.append({"label": f"Ransom for {r.get('name') or r.get('leader') or 'a leader'} "
                                       f"({nm.player(r.get('owner'))})", "amount": r["paid"]})
    for phase, line in upkeep.items():
        n = upkeep_units[phase]
        line["label"] = f"Upkeep: {n} unit{'s' if n != 1 else ''}"
    lines += [{"label": "Moderator's correction after the turn (see above)", "amount": c["gold"]}
              for c in corrected if not c["before"] and c["gold"]]
    if start is not None:
        gap = end - start - sum(l["amount"] for l in lines)
        if gap:
            lines.append({"label": "Other changes", "amount": gap})
    return {"start": start, "lines": lines, "end": end, "last": last, "first": first}


STANDING_NOTE = ("These stay in force, turn after turn, until an order file of yours has a `standing:` section, "
                 "which replaces them all (`standing:` with nothing under it resets them to the defaults); a file "
                 "without one keeps them.")


def standing_orders(standing: dict[str, Any] | None, hand: Sequence[str], nm: Namer) -> list[dict[str, str]]:
    """The player's standing orders in force (R-STAND-1), in plain words: one {"label", "text"} per kind, the
    defaults said as such.  A card not in the hand is flagged: it is played only if held at that moment."""
    from .ordertypes import Standing  # reading the orders' own format, nothing decided here
    st = Standing.from_dict(standing)

    def card(c: str) -> str:
        return nm.card(c) + ("" if c in hand else " (not in your hand now)")

    def place(h: str) -> str:
        return nm.place(h) if isinstance(h, str) else str(h)

    out = []
    if st.defence_cards:
        uses = [card(d.card) + (f", in battles at {place(d.hex)}" if d.hex else ", anywhere")
                + (", only while your side is behind" if d.if_needed else ", always") for d in st.defence_cards]
        out.append({"label": "Defence cards", "text": "when you are attacked, in this order: " + "; ".join(uses)})
    else:
        out.append({"label": "Defence cards", "text": "none"})
    # a card's name only where the player holds it: a report names no card of another hand (the leak tests)
    negates = [nm.card(c) for c in hand if c in nm.tables.cards
               and any(e.get("kind") == "negate_revolt" for e in nm.tables.cards[c].effects)]
    held = f" ({', '.join(negates)} now)" if negates else ""
    out.append({"label": "Revolts in your cities (`executions`)", "text": (
        f"on (the default): a card of your hand that negates a revolt{held} is played against a revolt in a city "
        "you control" if st.executions else
        f"off: no card of your hand{held} is played against a revolt in your cities")})
    if st.reactions:
        out.append({"label": "Reactions", "text": "; ".join(
            card(u.card) + (f", target {u.target}" if u.target else "") for u in st.reactions)})
    else:
        out.append({"label": "Reactions", "text": "none"})
    if st.retreat:
        out.append({"label": "Retreats", "text": "; ".join(
            f"from {place(h)} to {', then '.join(place(x) for x in to)}" for h, to in sorted(st.retreat.items()))
            + "; from anywhere else to the nearest friendly city"})
    else:
        out.append({"label": "Retreats", "text": "to the nearest friendly city (no preferences given)"})
    out.append({"label": "Captured enemy leaders", "text": "ransomed (the default)" if st.captured_leaders == "ransom"
                else "executed" if st.captured_leaders == "execute" else str(st.captured_leaders)})
    out.append({"label": "Discard first", "text": ", ".join(nm.card(c) for c in st.discard) + " (over the hand "
                "limit: after the order's own `discard` list, before the cards drawn last)" if st.discard else
                "none (over the hand limit: the order's `discard` list, then the cards drawn last)"})
    out.append({"label": "Upkeep paid first for", "text": ", ".join(st.upkeep) + " (after the order's own `upkeep` "
                "list, before the rest by id)" if st.upkeep else "none (the order's `upkeep` list, then by unit id)"})
    return out


def unit_rows(units: list[dict[str, Any]], nm: Namer) -> list[dict[str, Any]]:
    """The units by hex, then the units out of play (``away_until``: an exiled leader) in a group of their own,
    ``AWAY_PLACE``, with ``hex`` None: not under the hex they left (they are in no hex until they come back)."""
    by_hex: dict[str | None, list[dict]] = defaultdict(list)
    for u in units:
        by_hex[None if u.get("away_until") else u["hex"]].append(u)
    kind = {u["id"]: u["type"] for u in units}
    rows = []
    for h in [*sorted(x for x in by_hex if x is not None), *([None] if None in by_hex else [])]:
        items = []
        for u in by_hex[h]:
            notes = []
            if u.get("name"):
                notes.append(u["name"])
            if u.get("carried_by"):  # aboard a ship; Baggage an Army carries is carried by it
                on = u["carried_by"]
                notes.append(f"{'aboard' if kind.get(on) in ('fleet', 'transport') else 'carried by'} {on}")
            if u.get("value", 1) != 1:
                notes.append(f"value {u['value']}")
            if u.get("starvation"):
                notes.append(f"starvation x{u['starvation']}")
            if u.get("away_until"):  # exiled: in no hex (cannot be captured or fight), back at home later
                notes.append(AWAY_WHERE.format(u["away_until"]))
            items.append({"id": u["id"], "type": u["type"], "owner": u.get("owner"), "notes": ", ".join(notes)})
        rows.append({"hex": h, "place": nm.place(h) if h is not None else AWAY_PLACE, "units": items})
    return rows


def in_force_text(effect: dict[str, Any], nm: Namer, viewer: str | None) -> str:
    """A lasting effect in the state (``Effect.to_dict()``) in the words of the event that started it:
    "Truce (played by the Trojans): no one may attack until the end of the Trojans' player-turn in game turn
    3"."""
    from .cards import effect_data
    return describe({"event": "effect_starts", **effect_data(Effect.from_dict(effect))}, nm, viewer)


def diplomacy_summary(events: Sequence[dict[str, Any]], nm: Namer, viewer: str | None) -> list[str]:
    """How many diplomacy rolls a player had in their Diplomacy phase and how many they left unused, from their
    own DIPLOMACY_ROLL records (``of``: the rolls they had): the viewer's own (the moderator: everyone's).  A
    phase with no roll made has no record that says how many there were, so it gets no line."""
    had: dict[str, int] = {}
    made: dict[str, int] = defaultdict(int)
    for e in events:
        who = e.get("player")
        if e.get("event") != "diplomacy_roll" or e.get("redacted") or not isinstance(e.get("of"), int) \
                or (viewer is not None and who != viewer):
            continue
        had[who] = max(had.get(who, 0), e["of"])
        made[who] += 1
    lines = []
    for who, n in had.items():
        unused = n - made[who]
        head = "You" if who == viewer else nm.player(who)
        lines.append(f"{head} had {counted(n, 'diplomacy roll')} this turn: {made[who]} made, "
                     + (f"{unused} unused" if unused else "none unused"))
    return lines


def name_income_bonus(events: list[dict[str, Any]], tables: Tables, *states: GameState | None) -> None:
    """Give each income record the viewer sees with a ``bonus`` its sources (``bonus_from``: "Slavery (trait)"):
    the income effects (traits, skills) its player held before the turn, or else after it, whichever add up
    to the bonus (the log gives the sum only).  A record the viewer sees is their own, so nothing leaks.
    The line then reads "Income from Athens: 8 gold (7 + 1 from Slavery trait)"."""
    for e in events:
        if e.get("event") != "income" or not e.get("bonus") or not isinstance(e.get("player"), str):
            continue
        for st in states:
            if st is None or e["player"] not in st.players:
                continue
            found = player_effects(st, tables, e["player"], "income")
            if found and total_value(found) == e["bonus"]:
                e["bonus_from"] = [f"{src.name} {src.kind}" for src, _ in found]
                break


# `pbem new --seed N` and `pbem demo` make campaigns whose dice anyone can work out (campaign.yaml
# ``seed_guessable``): for tests and demos; every report of one says so at its top
TEST_CAMPAIGN = "Test campaign (--seed): anyone can work out its dice; do not play it for real."


def build_context(camp_name: str, turn: int, game_map: GameMap, tables: Tables, after: GameState,
                  before: GameState | None, records: Sequence[dict[str, Any]], player: str | None,
                  deadline: Any = None, corrections: Sequence[Correction] = (),
                  test_campaign: bool = False) -> dict[str, Any]:
    """Everything a report template shows, for one viewer (None: the moderator), from their view alone;
    ``corrections``: the moderator's that touch this turn (``campaign_corrections``), each told to whom it
    touches; ``test_campaign``: made with a guessable seed (campaign.yaml ``seed_guessable``): the report says
    so at its top (``TEST_CAMPAIGN``)."""
    v = make_view(after, game_map, player, records=records, before=before)
    leaders = {u.id: (u.owner, u.name) for st in (before, after) if st is not None
               for u in st.leaders() if u.name}  # names are public (Namer.leaders)
    nm = Namer(game_map, tables, v["players"], leaders)
    events = v["events"]
    name_income_bonus(events, tables, before, after)
    ctx: dict[str, Any] = {
        "campaign": camp_name, "turn": turn, "date": game_date(turn), "next_turn": after.turn,
        "next_date": game_date(after.turn) if not after.finished else None, "finished": after.finished,
        "winner": nm.player(after.winner) if after.winner else None,
        "viewer": player, "moderator": player is None,
        "deadline": None if deadline in (None, "") else deadline_text(str(deadline)),
        "test_campaign": TEST_CAMPAIGN if test_campaign else "",
        "title": (f"{camp_name}: " + (f"turn {turn} ({game_date(turn)})" if turn else "the set-up") + " - "
                  + (v["players"][player]["name"] if player else "moderator")),
    }
    ctx["corrections"] = correction_lines(corrections, turn, nm, player)
    # what lasts into the next game turn: an effect that ran through this turn's last player-turn is over
    first = next(iter(after.active_players()), None)
    ctx["in_force"] = [in_force_text(e, nm, player) for e in v.get("effects", [])
                       if first is None or effect_in_force(after, Effect.from_dict(e), first)]
    if player is not None:
        me = v["me"]
        ctx["player"] = {"id": player, "name": me["name"], "abbr": me["abbr"], "home": nm.city(me["home"])}
        ctx["treasury"] = treasury(v, before, [e for e in events if "event" in e], nm, player, ctx["corrections"])
        # each card: its printed text, when it is played, and what pbem makes of it (docs/rules.md's card table:
        # "one less Diplomacy roll this turn" acts at the target's next Diplomacy phase)
        ctx["hand"] = [{"name": nm.card(c), "text": tables.cards[c].text if c in tables.cards else "",
                        "when": card_timing(tables.cards[c]) if c in tables.cards else "",
                        "effect": effects_text(tables.cards[c], "card") if c in tables.cards else ""}
                       for c in me["hand"]]
        held = [(t, me["home"]) for t in me["traits"]]
        held += [(v["cities"][cid]["trait"], cid) for cid in sorted(after.controlled_cities(player))
                 if cid != me["home"] and v["cities"][cid].get("trait")]
        ctx["traits"] = []
        first_at: dict[str, str] = {}
        for t, cid in held:  # a trait held twice counts once (docs/rules.md): the second says so
            where = nm.city(cid)
            if t in first_at:
                where += f"; also held at {first_at[t]}: counts once"
            first_at.setdefault(t, nm.city(cid))
            ctx["traits"].append({"name": nm.source(t), "text": tables.traits[t].text if t in tables.traits
                                  else "", "where": where})
        ctx["standing"] = standing_orders(me.get("standing"), me["hand"], nm)
        ctx["standing_note"] = STANDING_NOTE
    else:
        ctx["player"] = None
        ctx["treasuries"] = []
        for pid in after.turn_order:
            t = treasury({"me": {"gold": after.players[pid].gold}}, before, [e for e in events if "event" in e],
                         nm, pid, correction_lines(corrections, turn, nm, pid))
            ctx["treasuries"].append({"player": nm.player(pid), "pid": pid, **t,
                                      "hand": [nm.card(c) for c in after.players[pid].hand],
                                      "traits": [nm.source(x) for x in after.players[pid].traits]})
    leaders = [u for u in v["units"] if u["type"] == "leader"]
    ctx["leaders"] = [{"id": u["id"], "name": u.get("name"), "owner": nm.player(u.get("owner")),
                       "where": nm.place(u["hex"]) if not u.get("away_until") else AWAY_WHERE.format(u["away_until"]),
                       "skills": [{"name": nm.source(s), "text": tables.skills[s].text if s in tables.skills else ""}
                                  for s in u.get("skills", [])]} for u in leaders]
    ctx["units"] = unit_rows(v["units"], nm)
    if player is None:
        for row in ctx["units"]:
            for u in row["units"]:
                u["owner_name"] = nm.player(u["owner"])
    ctx["others"] = [{"hex": e["hex"], "place": nm.place(e["hex"]), "owner": nm.player(e["owner"]),
                      "counts": counts_text(e["counts"]) + (f" (aboard ships: {counts_text(e['aboard'])})"
                                                            if e.get("aboard") else ""),
                      "leaders": e["leaders"]} for e in v.get("others", [])]
    # orders and their results, in log order
    mark_revolt_outcomes(events)
    ctx["orders"] = []
    ctx["nmr"] = False
    caused: dict[Any, list[dict[str, Any]]] = defaultdict(list)  # a player's revolts since their last order result
    played: dict[Any, dict[str, Any]] = {}  # a player's last card played: its target for the order's line
    at_sea = ShipsAtSea(before, game_map)
    for e in events:
        at_sea.see(e)
        if e.get("event") == "revolt":
            caused[e.get("player")].append(e)
        if e.get("event") == "card_played":
            played[e.get("by", e.get("player"))] = e
        if e.get("event") in ("order_done", "order_failed"):
            revolts = caused.pop(e.get("player"), [])
        if e.get("event") in ("order_done", "order_failed") and (player is None or e.get("player") == player):
            ok = e["event"] == "order_done"
            r = Rec(e, nm, player)
            r.use("player", "section", "index", "reason")  # the line's head and its FAILED text
            detail = (order_outcome(r) + r.rest()).strip()
            card_rec = played.get(e.get("player"))
            if ok and e.get("section") == "cards" and card_rec is not None and card_rec.get("card") == e.get("card"):
                detail += card_target_text(Rec(card_rec, nm, player), tables.cards.get(e.get("card")))  # on Megara
            if ok and revolts:  # the diplomacy roll or card started a revolt: how it ended
                detail += "".join(f"; {revolt_line(x, nm, player)}" for x in revolts)
            idx = e.get("index")
            section = SECTION_TITLES.get(e.get("section"), e.get("section"))
            whose = "your" if player else possessive(nm.player(e.get("player")))
            ctx["orders"].append({
                "who": nm.player(e.get("player")), "section": section,
                "number": idx + 1 if isinstance(idx, int) else None, "ok": ok,
                "reason": reason_text(e.get("reason"), nm, player, e.get("player")),
                "status": done_word(e.get("section")) if ok else "FAILED",
                "detail": detail,
                # R-TURN-4 skips the order whole: ships at sea stay there, and face the navigation roll
                "at_sea": [] if ok else at_sea.left_at_sea(
                    e, f"{whose} failed {section}" + (f" #{idx + 1}" if isinstance(idx, int) else "")),
                "whose": whose})
        if e.get("event") == "nmr" and e.get("player") == player:
            ctx["nmr"] = True
    for o in ctx["orders"]:  # the navigation rolls that followed are known now
        o["stayed"] = left_at_sea_text(o.pop("at_sea"), nm, o.pop("whose"))
    # battles seen whole: the battle and everything in its zone, dice included
    ctx["battles"] = []
    for b in v["battles"]:
        rec = b["battle"]
        shown = shown_in_sides(rec)
        lines = []
        for en in entries(b["records"]):
            for d in en.dice:
                if not _take(shown, d):
                    lines.append({"dice": True, "text": describe_roll(d, nm)})
            if en.event is rec and revolt_unopposed(rec):
                continue  # the title says it all: no sides, no totals, no winner
            if en.event is rec:
                for role, key in (("Attack", "attack"), ("Defence", "defence")):
                    lines += [{"dice": False, "text": t} for t in side_lines(rec.get(key), role, nm, player)]
                if rec.get("winner") or rec.get("won_by"):
                    won = rec.get("winner")
                    lines.append({"dice": False, "text": "Won by " + (
                        "you" if won == player and player else nm.player(won) if won else f"the {rec['won_by']}")})
                lines += [{"dice": False, "text": t} for t in unplayed_card_lines(rec, nm, player)]
            elif en.event is not None and not stirred_up_by(rec, en.event):
                lines.append({"dice": False, "text": describe(en.event, nm, player)})
        bp = rec.get("player")
        ctx["battles"].append({"title": describe(rec, nm, player),
                               "when": f"{'your' if bp == player and player else possessive(nm.player(bp))} "
                                       f"{PHASE_TITLES.get(rec.get('phase'), rec.get('phase'))} phase",
                               "lines": lines, "fought": not revolt_unopposed(rec)})
    ctx["battles_title"] = ("Battles" if all(b["fought"] for b in ctx["battles"]) else
                            "Revolts" if not any(b["fought"] for b in ctx["battles"]) else "Battles and revolts")
    # diplomacy rolls (own and those on the player's cities) with their dice
    ctx["diplomacy"] = []
    in_battle = {e.get("seq") for e in events if e.get("in_battle") is not None}
    groups = entries(captures_after_their_moves(records, events))
    for en in groups:
        if en.event is not None and en.event.get("event") == "diplomacy_roll" and not en.event.get("redacted"):
            ctx["diplomacy"].append({"text": describe(en.event, nm, player),
                                     "turn_of": nm.player(en.event.get("player")),
                                     # the roll itself is in the sentence ("6 = 6: success"): its die line would
                                     # say it again; any other die before it (none in the rules today) is shown
                                     "dice": [describe_roll(d, nm) for d in en.dice
                                              if (d.get("roll") or {}).get("purpose") != "diplomacy roll"]})
    ctx["diplomacy_summary"] = diplomacy_summary(events, nm, player)
    # every other event, by player-turn and phase
    skip = {"order_done", "order_failed", "player_turn", "turn_end", "diplomacy_roll"}
    blocks: list[dict[str, Any]] = []
    for en in groups:
        ev = en.event
        if ev is not None and (ev.get("event") in skip or ev.get("seq") in in_battle):
            continue
        if ev is not None and ev.get("redacted") and ev.get("event") == "casualty" and ev.get("result") == "retreat":
            continue  # seen from outside the battle: the retreat's own record, next, says where it went
        if ev is None and all(d.get("seq") in in_battle for d in en.dice):
            continue
        head = en.event or en.dice[0]
        key = (head.get("player"), head.get("phase"))
        if not blocks or blocks[-1]["key"] != key:
            who = head.get("player")
            owner = ("Your" if who == player and player else possessive(nm.player(who)) if who else "General")
            label = ("End of the game turn" if head.get("phase") == "end" else
                     f"{owner} turn, {PHASE_TITLES.get(head.get('phase'), head.get('phase'))}")
            blocks.append({"key": key, "label": label, "items": []})
        if ev is not None and ev.get("seq") in at_sea.left_by:  # a copy: the records are not the report's
            ev = {**ev, "left_by": at_sea.left_by[ev["seq"]]}
        item = {"text": describe(ev, nm, player) if ev is not None else "Dice rolled",
                "dice": dice_lines(en.dice, nm), "redacted": bool(ev and ev.get("redacted"))}
        items = blocks[-1]["items"]
        if items and not item["dice"] and not items[-1]["dice"] and items[-1]["one"] == item["text"]:
            # the same line again with no dice ("Naxos: 1 baggage recruited" six times): said once, counted
            items[-1]["times"] += 1
            items[-1]["text"] = f"{item['text']} ({items[-1]['times']} times)"
        else:
            items.append({**item, "one": item["text"], "times": 1})
    ctx["events"] = blocks
    ctx["cities"] = []
    for cid in sorted(v["cities"], key=lambda c: game_map.cities[c].name):
        c = v["cities"][cid]
        marks = []
        if c.get("home_of"):
            marks.append("home city")
        if c.get("hostile"):
            marks.append("hostile")
        if c.get("razed"):
            marks.append(f"razed x{c['razed']}")
        if cid in v["besieged"]:  # the view says which (one's own cities; the moderator all)
            marks.append("under siege")
        ctx["cities"].append({"name": nm.city(cid), "hex": game_map.cities[cid].hex,
                              "controller": nm.player(c.get("controller")), "income": c.get("income"),
                              "trait": nm.source(c["trait"]) if c.get("trait") else "", "marks": ", ".join(marks),
                              "mine": player is not None and c.get("controller") == player})
    ctx["standings"] = [{"rank": s.get("rank"), "player": nm.player(s.get("player")), "cities": s.get("cities"),
                         "cards": v["players"].get(s.get("player"), {}).get("hand_size", 0),  # public
                         "out": s.get("out", False), "me": s.get("player") == player,
                         "extra": ", ".join(f"{k} {x}" for k, x in s.items()
                                            if k not in ("rank", "player", "cities", "out"))}
                        for s in v["standings"]]
    ctx["turn_order"] = [nm.player(p) for p in v["turn_order"]]
    ctx["deck_size"] = v["deck_size"]
    ctx["discard_size"] = v["discard_size"]
    if player is None:
        ctx["rolls"] = [{"seq": r.get("seq"), "who": nm.player(r.get("player")) if r.get("player") else "-",
                         "phase": PHASE_TITLES.get(r.get("phase"), r.get("phase")), "text": describe_roll(r, nm)}
                        for r in records if is_roll(r)]
    ctx["_view"] = v
    return ctx


def shown_in_sides(battle: dict[str, Any]) -> list[tuple[str, int, Any]]:
    """The dice a BATTLE record's side reports show already: (die, result, unit or bonus source)."""
    out = []
    for key in ("attack", "defence"):
        side = battle.get(key)
        if not isinstance(side, dict):
            continue
        for f in side.get("units") or []:
            if isinstance(f, dict):
                out.append((f.get("die"), f.get("roll"), ("unit", f.get("unit"))))
        for bonus in side.get("bonuses") or []:
            if isinstance(bonus, dict):
                for r in bonus.get("rolls") or []:
                    out.append((None, r, ("purpose", f"{bonus.get('source')}: battle total")))
    return out


def _take(shown: list[tuple[str, int, Any]], roll_rec: dict[str, Any]) -> bool:
    """Remove and report the entry of ``shown`` that this die record is, if any."""
    r = roll_rec["roll"]
    for i, (die, result, (kind, what)) in enumerate(shown):
        if result != r.get("result") or (die is not None and die != r.get("die")):
            continue
        if (kind == "unit" and r.get("unit") == what) or (kind == "purpose" and r.get("purpose") == what):
            del shown[i]
            return True
    return False


# -- templates ------------------------------------------------------------------------------------------

def _package_template(name: str) -> str | None:
    try:
        f = folder("templates").joinpath(name)
        return f.read_text(encoding="utf-8") if f.is_file() else None
    except (FileNotFoundError, OSError):
        return None


def environment(override_dir: Path | None = None) -> jinja2.Environment:
    """Templates from ``override_dir`` (a campaign's ``templates/``) first, then the package's."""
    loaders: list[jinja2.BaseLoader] = []
    if override_dir is not None and override_dir.is_dir():
        loaders.append(jinja2.FileSystemLoader(str(override_dir)))
    loaders.append(jinja2.FunctionLoader(_package_template))
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2", "svg.j2"), default_for_string=False,
                                            default=False),
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
    env.filters["wrap"] = wrap
    env.filters["signed"] = signed
    env.filters["money"] = lambda n: f"{n:>+5d}" if isinstance(n, int) else str(n)
    env.filters["code"] = code_html
    env.filters["die"] = die_line
    return env


def code_html(text: str) -> "markupsafe.Markup":
    """HTML of a text that names order-file keys in backticks: escaped, each `key` in <code>."""
    return markupsafe.Markup(re.sub(r"`([^`]+)`", r"<code>\1</code>", str(markupsafe.escape(text))))


def wrap(text: str, width: int = WIDTH, indent: str = "", first: str | None = None) -> str:
    first = indent if first is None else first
    return textwrap.fill(str(text), width=width, initial_indent=first, subsequent_indent=indent,
                         break_long_words=False, break_on_hyphens=False) or first.rstrip()


# -- PDF ------------------------------------------------------------------------------------------------

PAGE_W, PAGE_H = 595, 842  # A4 in points
MARGIN_PT, FONT_PT, LEADING_PT = 40, 9.0, 11.2
LINES_PER_PAGE = int((PAGE_H - 2 * MARGIN_PT - 16) // LEADING_PT)
CHARS_PER_LINE = int((PAGE_W - 2 * MARGIN_PT) // (0.602 * FONT_PT))  # DejaVu Sans Mono's advance: 0.602 em


def _page_lines(text: str) -> list[str]:
    """The text report's lines as the PDF prints them: a line too long for the page is wrapped (the text report
    wraps at WIDTH; this is the safety net for a template that does not), never cut off."""
    out: list[str] = []
    for line in text.rstrip("\n").split("\n"):
        if len(line) <= CHARS_PER_LINE:
            out.append(line)
            continue
        lead = line[:len(line) - len(line.lstrip(" "))]
        out += textwrap.wrap(line, CHARS_PER_LINE, initial_indent="", subsequent_indent=lead + "    ",
                             break_long_words=True, break_on_hyphens=False) or [line[:CHARS_PER_LINE]]
    return out


def pdf_report(map_svg: str | None, text: str, title: str, created: str | None = None,
               map_png: bytes | None = None) -> bytes:
    """The PDF report: the map on a page of the map's size, then the text report on A4 pages.

    The map page is the map PNG already made for the report, when given (``map_png``), as a picture at 96 dpi
    of the map: its palette and compressed rows are put into the PDF as they are (``pdfimage``: a few ms, where
    cairo took about 80 ms to deflate the picture again as RGB, and 365 KB instead of 480 KB); a PNG of another
    kind is drawn by cairo.  Without a PNG the map is drawn from ``map_svg`` as vectors with CairoSVG (three
    times the time of cairo's picture).
    ``created``: the creation date (ISO 8601), one for every report of a turn.
    The text pages are drawn with cairo directly, one ``show_text`` per line: CairoSVG places text glyph by
    glyph, which costs ten times more for a page of text.
    """
    parts = pdfimage.png_parts(map_png) if map_png is not None else None
    if parts is not None:
        placed = pdfimage.swap_placeholder(_pdf_document(None, text, title, created, parts), parts)
        if placed is not None:
            return placed
    return _pdf_document(map_svg, text, title, created, None, map_png)


def _pdf_document(map_svg: str | None, text: str, title: str, created: str | None,
                  placeholder: pdfimage.PngParts | None, map_png: bytes | None = None) -> bytes:
    """The PDF: its map page a 1x1 placeholder image of ``placeholder``'s size (to be swapped), else ``map_png``
    drawn by cairo, else ``map_svg`` as vectors, else none; then the text pages."""
    import cairocffi

    out = io.BytesIO()
    pdf = cairocffi.PDFSurface(out, PAGE_W, PAGE_H)
    pdf.restrict_to_version(cairocffi.PDF_VERSION_1_4)  # plain objects and cross-reference table (pdfimage)
    try:
        pdf.set_metadata(cairocffi.PDF_METADATA_TITLE, title)
        pdf.set_metadata(cairocffi.PDF_METADATA_CREATOR, "pbem")
        if created:
            pdf.set_metadata(cairocffi.PDF_METADATA_CREATE_DATE, created)
    except (AttributeError, cairocffi.CairoError):  # cairo older than 1.16
        pass
    has_map = True
    if placeholder is not None:
        dot = cairocffi.ImageSurface(cairocffi.FORMAT_RGB24, 1, 1)
        _pdf_picture_page(pdf, dot, placeholder.width, placeholder.height)
    elif map_png is not None:
        picture = cairocffi.ImageSurface.create_from_png(io.BytesIO(map_png))
        _pdf_picture_page(pdf, picture, picture.get_width(), picture.get_height())
    elif map_svg is not None:
        _pdf_vector_page(pdf, map_svg)
    else:
        has_map = False
    lines = _page_lines(text)
    chunks = [lines[i:i + LINES_PER_PAGE] for i in range(0, len(lines), LINES_PER_PAGE)] or [[]]
    first = 2 if has_map else 1  # the map page is page 1
    pdf.set_size(PAGE_W, PAGE_H)
    cr = cairocffi.Context(pdf)
    for n, chunk in enumerate(chunks, start=1):
        cr.set_source_rgb(0.07, 0.07, 0.07)
        cr.select_font_face("DejaVu Sans Mono", cairocffi.FONT_SLANT_NORMAL, cairocffi.FONT_WEIGHT_NORMAL)
        cr.set_font_size(FONT_PT)
        for i, line in enumerate(chunk):
            if line.strip():
                cr.move_to(MARGIN_PT, MARGIN_PT + FONT_PT + i * LEADING_PT)
                cr.show_text(line)
        cr.set_source_rgb(0.4, 0.4, 0.4)
        cr.select_font_face("DejaVu Sans", cairocffi.FONT_SLANT_NORMAL, cairocffi.FONT_WEIGHT_NORMAL)
        cr.set_font_size(7.5)
        foot = f"{title}, page {n + first - 1} of {len(chunks) + first - 1}"
        cr.move_to(PAGE_W - MARGIN_PT - cr.text_extents(foot)[4], PAGE_H - MARGIN_PT / 2)
        cr.show_text(foot)
        cr.show_page()
    pdf.finish()
    return out.getvalue()


PT_PER_PX = 0.75  # CairoSVG's PDF unit at 96 dpi: the map page has the same size either way


def _map_page_size(w: int, h: int) -> tuple[float, float]:
    """The map page of a ``w`` x ``h`` picture (mapsvg.PNG_SCALE pixels a px of the map: 120 dpi), in points: the
    map's own size (1366 px wide at 96 dpi), where the picture has a pixel more when the scale makes it fractional."""
    return round(w / mapsvg.PNG_SCALE) * PT_PER_PX, round(h / mapsvg.PNG_SCALE) * PT_PER_PX


def _pdf_picture_page(pdf, picture, w: int, h: int) -> None:
    """One page of the map's size with the cairo image surface ``picture`` stretched over the place of a ``w`` x
    ``h`` map picture (its pixels at PT_PER_PX / PNG_SCALE points): the picture itself, or a 1x1 placeholder for
    ``pdfimage`` to swap."""
    import cairocffi
    k = PT_PER_PX / mapsvg.PNG_SCALE
    pdf.set_size(*_map_page_size(w, h))
    cr = cairocffi.Context(pdf)
    cr.scale(w * k / picture.get_width(), h * k / picture.get_height())
    cr.set_source_surface(picture, 0, 0)
    cr.paint()
    cr.show_page()


def _pdf_vector_page(pdf, map_svg: str) -> None:
    """The SVG drawn by CairoSVG onto the shared PDF surface: one page, not a document of its own."""
    from cairosvg.parser import Tree
    from cairosvg.surface import PDFSurface

    class MapPage(PDFSurface):
        def _create_surface(self, width, height):
            pdf.set_size(width, height)
            return pdf, width, height

        def finish(self):
            self.context.show_page()

    MapPage(Tree(bytestring=map_svg.encode("utf-8")), None, 96).finish()


# -- writing --------------------------------------------------------------------------------------------

@dataclass
class Written:
    player: str
    files: list[Path]
    seconds: float


WORKERS_ENV = "PBEM_WORKERS"


def worker_count(n_reports: int, workers: int | None = None) -> int:
    """Processes to render ``n_reports`` with: ``workers``, else ``$PBEM_WORKERS``, else the CPUs this
    process may use; never more than the reports, and 1 (serial, no pool) for a single report."""
    if workers is None:
        env = os.environ.get(WORKERS_ENV, "").strip()
        if env:
            try:
                workers = int(env)
            except ValueError:
                raise UsageError(f"{WORKERS_ENV}={env!r}: not a number of processes") from None
        else:
            try:
                workers = len(os.sched_getaffinity(0))
            except (AttributeError, OSError):
                workers = os.cpu_count() or 1
    return max(1, min(workers, n_reports))


@dataclass
class _Job:
    """Everything one report needs, shared by every report of a ``write_reports`` call.  Set in the parent
    before the pool forks, so the workers inherit it (and the warm caches) instead of unpickling it."""

    camp: Campaign
    env: jinja2.Environment
    camp_name: str
    turn: int
    game_map: GameMap
    tables: Tables
    after: GameState
    before: GameState | None
    records: Sequence[dict[str, Any]]
    deadline: Any
    formats: tuple[str, ...]
    created: str
    corrections: Sequence[Correction] = ()
    test_campaign: bool = False


_JOB: _Job | None = None


def _write_player(job: _Job, pid: str | None) -> Written:
    t0 = time.perf_counter()
    folder = job.camp.reports_dir(job.turn, pid or MODERATOR)
    files = write_one(job.env, folder, job.camp_name, job.turn, job.game_map, job.tables, job.after, job.before,
                      job.records, pid, job.deadline, job.formats, created=job.created,
                      corrections=job.corrections, test_campaign=job.test_campaign)
    if pid is not None and "kit" in job.formats:
        from .playerkit import write_kit
        write_kit(job.camp, pid, job.turn + 1, job.after)
    return Written(pid or MODERATOR, files, time.perf_counter() - t0)


def _pool_task(pid: str | None) -> Written:
    assert _JOB is not None, "a report worker started without its job (not forked from write_reports?)"
    return _write_player(_JOB, pid)


def _warm(job: _Job) -> None:
    """Build what every report shares once, in the parent: the templates and the cached static and turn
    layers of the map (and their raster), so forked workers inherit them instead of each building its own."""
    if "txt" in job.formats or "pdf" in job.formats:
        job.env.get_template("report.txt.j2")
    if "html" in job.formats:
        job.env.get_template("report.html.j2")
        job.env.loader.get_source(job.env, "report.css")
    if {"svg", "html", "pdf", "png"} & set(job.formats):
        mapsvg.warm(job.game_map, public_view(job.after), title=map_title(job.turn), raster="png" in job.formats)


def write_reports(camp: Campaign, turn: int, players: list[str] | None = None,
                  formats: Iterable[str] = FORMATS, moderator: bool | None = None,
                  workers: int | None = None, ready: Callable[[], None] | None = None) -> list[Written]:
    """Write the reports of game ``turn`` for ``players`` (None: every player, and the moderator's).

    ``moderator``: also write the moderator's report (default: when ``players`` is None).  A name in
    ``players`` may be ``"moderator"``.

    The reports are rendered by ``workers`` processes (default: ``$PBEM_WORKERS``, else one per CPU), each
    writing whole reports; the result lists them in player order, and the files are the same bytes whatever
    the number of workers.  A worker's exception is raised here.
    ``ready()``: called once everything the reports are made from has been read (``ReportsInBackground``).
    """
    global _JOB
    formats = tuple(formats)
    bad = [f for f in formats if f not in FORMATS]
    if bad:
        raise UsageError(f"unknown report format {bad[0]!r} (known: {', '.join(FORMATS)})")
    after, before, records = load_turn(camp, turn)
    who: list[str | None]
    if players is None:
        who = list(after.turn_order)
        if moderator is None or moderator:
            who.append(None)
    else:
        who = []
        for p in players:
            if p == MODERATOR or p is None:
                who.append(None)
            elif p in after.players:
                who.append(p)
            else:
                raise UsageError(f"{p!r}: not a player of this campaign ({', '.join(after.turn_order)})")
        if moderator and None not in who:
            who.append(None)
    job = _Job(camp=camp, env=environment(camp.root / "templates"),
               camp_name=camp.config.get("name", after.campaign), turn=turn, game_map=camp.game_map,
               tables=load_tables(), after=after, before=before, records=records,
               deadline=orders_due(camp, turn), formats=formats, created=_creation_date(),
               corrections=campaign_corrections(camp, turn, before, after) if turn else [],
               test_campaign=bool(camp.config.get("seed_guessable")))
    if ready is not None:
        ready()
    n = worker_count(len(who), workers)
    # A Ctrl-C is held while this process renders a report or a map (cairo calls back into Python, and an
    # interrupt there was swallowed and turned into a cairo error: "reports could not be written (11)", exit 2)
    # and while the pool starts its workers and takes the reports (an interrupt there left the workers waiting
    # and pbem hung, holding the campaign's lock, or a threading traceback): a chaos soak's Ctrl-C sweep
    if n == 1 or "fork" not in multiprocessing.get_all_start_methods():
        done = []
        for pid in who:
            with held_interrupts():  # one report at a time, each whole
                done.append(_write_player(job, pid))
        return done
    with held_interrupts():
        _warm(job)
    # the moderator's report is the longest: start it first, so the workers finish together
    order = sorted(range(len(who)), key=lambda i: who[i] is not None)
    _JOB = job
    pool = None
    try:
        try:
            with held_interrupts():
                pool = ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context("fork"),
                                           initializer=_worker_init)
                futures = {i: pool.submit(_pool_task, who[i]) for i in order}
            results = [futures[i].result() for i in range(len(who))]
        except BaseException:
            # Ctrl-C (or a worker's error): no new report starts, the ones under way finish (each file is
            # written whole), the workers exit, and the exception goes on to the caller; a second Ctrl-C waits
            # until the pool is down (one in the middle of the shutdown left the workers waiting for ever)
            if pool is not None:
                with held_interrupts():
                    pool.shutdown(wait=True, cancel_futures=True)
            raise
        with held_interrupts():  # (the same: a Ctrl-C as the workers are told to stop)
            pool.shutdown(wait=True)
        return results
    finally:
        _JOB = None


def in_background() -> bool:
    """Whether reports are worth writing in the background (``ReportsInBackground``): with more than one worker
    process (``worker_count``: ``$PBEM_WORKERS``, else the CPUs) and where processes fork."""
    return worker_count(2) > 1 and "fork" in multiprocessing.get_all_start_methods()


class ReportsInBackground:
    """The reports of one turn written by a forked process while this one goes on (`pbem demo` plays the next
    turn meanwhile: the two cores the reports take are kept busy, instead of one waiting for the other).

    ``start(turn)`` first waits for the turn started before, then forks a process that writes ``turn``'s
    reports (``write_reports``, with its own worker processes) and returns once that process has read what the
    reports are made from (the states, the log, the settings), so what this process does next cannot change
    them.  ``wait()`` waits for the last one; a failure is raised there as ``ReportsFailedInBackground``, naming
    the turn (``start`` names the turn it was to start too: it has no reports either).
    The files are the same bytes as when written in the foreground.  A Ctrl-C is ignored by the writer: the
    turn under way is finished whole, and ``wait`` (which the caller calls on the way out) waits for it."""

    def __init__(self, camp: Campaign):
        self.camp = camp
        self._proc: Any = None
        self._conn: Any = None
        self._turn = 0

    def start(self, turn: int) -> None:
        """Write ``turn``'s reports in the background (the turn is committed); first waits for the turn started
        before, and if those failed raises, naming both turns (neither has its reports then)."""
        try:
            self.wait()
        except ReportsFailedInBackground as exc:
            raise ReportsFailedInBackground(self.camp, exc.turn, exc.why, also=turn) from None
        fork = multiprocessing.get_context("fork")
        receive, send = fork.Pipe(duplex=False)
        self.camp.config  # read now (cached): the writer has the settings of this moment, whatever comes next
        proc = fork.Process(target=_write_in_background, args=(self.camp, turn, send), daemon=False)
        proc.start()
        send.close()
        self._proc, self._conn, self._turn = proc, receive, turn
        try:
            receive.recv()  # "ready"
        except EOFError:  # it ended before: ``wait`` says why
            pass

    def wait(self) -> None:
        proc, conn, turn = self._proc, self._conn, self._turn
        if proc is None:
            return
        self._proc = self._conn = None
        with held_interrupts():
            try:
                why = conn.recv()
            except EOFError:
                why = "the process writing them stopped"
            proc.join()
            conn.close()
        if why is None and proc.exitcode != 0:
            why = f"the process writing them stopped (exit code {proc.exitcode})"
        if why is not None:
            raise ReportsFailedInBackground(self.camp, turn, why)


class ReportsFailedInBackground(PbemError):
    """The reports of a committed turn written in the background could not be written; the turns played since
    stand too.  Says which turns have no reports and how to write them (`pbem report`)."""

    def __init__(self, camp: Campaign, turn: int, why: str, also: int | None = None):
        self.turn, self.why = turn, why
        turns = [turn] if also is None else [turn, also]
        how = " and ".join(f"`pbem report {camp.root} --turn {t}`" for t in turns)
        which = f"turn {turn}" if also is None else f"turns {turn} and {also}"
        super().__init__(f"the reports of turn {turn} could not be written ({why}); {which} "
                         f"{'is' if also is None else 'are'} committed without reports: fix that, then run {how}")


def _write_in_background(camp: Campaign, turn: int, conn: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    why: str | None = None
    told: list[bool] = []

    def ready() -> None:
        conn.send("ready")
        told.append(True)
    try:
        write_reports(camp, turn, ready=ready)
    except OSError as exc:
        why = failed(exc, camp.root)
    except PbemError as exc:
        why = str(exc)
    except Exception as exc:  # a bug: said, with what it was
        why = f"{type(exc).__name__}: {exc}"
    if not told:  # it failed before it was ready
        conn.send("ready")
    conn.send(why)
    conn.close()


def _worker_init() -> None:
    """A report worker ignores Ctrl-C: the terminal sends SIGINT to the whole process group, and only the
    parent decides (it stops the pool and tells the moderator which reports to rebuild)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _creation_date() -> str:
    """The PDFs' creation date, one for every report of a call (``$SOURCE_DATE_EPOCH`` if set: reproducible)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    t = int(epoch) if epoch.isdigit() else int(time.time())
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def load_turn(camp: Campaign, turn: int) -> tuple[GameState, GameState | None, list[dict[str, Any]]]:
    snaps = camp.snapshots()
    if turn == 0 and 1 in snaps:  # the set-up: the state at the start of turn 1, before any turn is played
        return camp.load_state(1), None, []
    if turn < 1:
        raise UsageError(f"turn {turn}: game turns start at 1 (0 is the set-up)")
    if turn + 1 not in snaps:
        done = [t - 1 for t in snaps if t > 1]
        raise CampaignError(f"turn {turn} has not been adjudicated"
                            + (f" (adjudicated: {done[0]}..{done[-1]})" if done else " (no turn has been yet)"))
    after = camp.load_state(turn + 1)
    before = camp.load_state(turn) if turn in snaps else None
    return after, before, camp.read_log(turn)


def orders_due(camp: Campaign, turn: int) -> str | None:
    """The deadline a report of ``turn`` gives for the next turn's orders, as campaign.yaml stores it: the one in
    force while that turn is current, else (a report of an older turn written again) the last one audit.log
    records for it (a soak test: every rebuilt report showed the current turn's deadline).  None: none known."""
    if turn + 1 >= camp.current_turn:
        return camp.config.get("deadline")
    from .cycle import STORED, deadline_of
    found, when = deadline_of(camp, turn + 1)
    return when.strftime(STORED) if found and when is not None else None


def deadline_text(raw: str) -> str:
    """campaign.yaml's "2026-11-29T13:31Z" as the moderator's commands print it: "2026-11-29 13:31 UTC" (any
    other text as it is)."""
    from .cycle import STORED, fmt
    try:
        return fmt(datetime.strptime(raw.strip(), STORED))
    except ValueError:
        return raw


def map_title(turn: int) -> str:
    """The map's heading: the same on every report of a turn (turn 0: the set-up)."""
    return f"Turn {turn} - {game_date(turn)}" if turn else f"Set-up - before {game_date(1)}"


def render_all(env: jinja2.Environment, ctx: dict[str, Any], game_map: GameMap,
               formats: Sequence[str], created: str | None = None) -> dict[str, bytes]:
    """The files of one report, by name, rendered in memory."""
    v = ctx["_view"]
    title = ctx["title"]
    fmts = set(formats)
    out: dict[str, bytes] = {}
    layers = None
    if {"svg", "html", "png", "pdf"} & fmts:
        layers = mapsvg.layers(game_map, v, v["events"], title=map_title(ctx["turn"]))
    svg = layers.svg() if {"svg", "html"} & fmts or ("pdf" in fmts and "png" not in fmts) else None
    if "svg" in formats:
        out["map.svg"] = svg.encode("utf-8")
    text = None
    if "txt" in formats or "pdf" in formats:
        text = env.get_template("report.txt.j2").render(**ctx)
    if "txt" in formats:
        out["report.txt"] = text.encode("utf-8")
    if "html" in formats:
        body = svg.split("?>", 1)[-1] if svg.startswith("<?xml") else svg
        out["report.html"] = env.get_template("report.html.j2").render(
            **ctx, map_svg=jinja2.utils.markupsafe.Markup(body),
            css=jinja2.utils.markupsafe.Markup(env.loader.get_source(env, "report.css")[0])).encode("utf-8")
    if "png" in formats:  # the cached raster of the static and the turn's layers, the viewer's drawn on it
        out["map.png"] = mapsvg.png_bytes(layers.image())
    if "pdf" in formats:  # the map page: the PNG just made, in its 256 colours (a smaller PDF), else the vectors
        out["report.pdf"] = pdf_report(svg, text, title, created, map_png=out.get("map.png"))
    return out


def write_one(env: jinja2.Environment, folder: Path, camp_name: str, turn: int, game_map: GameMap, tables: Tables,
              after: GameState, before: GameState | None, records: Sequence[dict[str, Any]], player: str | None,
              deadline: Any, formats: Sequence[str], created: str | None = None,
              corrections: Sequence[Correction] = (), test_campaign: bool = False) -> list[Path]:
    ctx = build_context(camp_name, turn, game_map, tables, after, before, records, player, deadline, corrections,
                        test_campaign)
    files = render_all(env, ctx, game_map, formats, created)
    paths = []
    for name in sorted(files):
        path = folder / name
        atomic_write(path, files[name])
        paths.append(path)
    return paths


def main(campaign_dir: Path | str, turn: int | None = None, player: str | None = None) -> str:
    """`pbem report`: write the reports of ``turn`` (default: the last adjudicated) for ``player`` (a city id
    or name, or ``moderator``; default: every player and the moderator).  Returns a summary of the files."""
    camp = Campaign.open(campaign_dir)
    if turn is None:
        turn = camp.current_turn - 1
        if turn < 1:
            raise CampaignError(f"{camp.root}: no turn has been adjudicated yet; nothing to report")
    players: list[str] | None = None
    if player is not None:
        key = player.strip().lower()
        if key == MODERATOR:
            players = [MODERATOR]
        else:
            found = camp.game_map.find_city(key)
            pid = found.id if found else key
            state = camp.load_state()
            if pid not in state.players:
                raise UsageError(f"--player {player!r}: not a player of this campaign "
                                 f"({', '.join(state.turn_order)}, or moderator)")
            players = [pid]
    t0 = time.perf_counter()
    written = write_reports(camp, turn, players)
    total = time.perf_counter() - t0
    lines = [f"Reports of turn {turn} ({game_date(turn)}) in {camp.reports_dir(turn)}:"]
    for w in written:
        lines.append(f"  {w.player:<12} {', '.join(p.name for p in w.files)}")
    lines.append(f"{len(written)} report(s) in {total:.1f} s")
    return "\n".join(lines) + "\n"
