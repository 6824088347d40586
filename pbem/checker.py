"""The order checker players run before sending (``pbem check ORDERS.yaml --campaign DIR``).

Two layers, every finding reported, not just the first:

1. the file: YAML we accept (``pbem.yamlio``) and the order schema (``pbem.orders``), each finding with its
   file:line:column, the field, the offending value and a hint;
2. the campaign's current state: the header, units, paths, movement points, stacking, recruitment and
   gold, diplomacy targets, cards in hand, their timing and targets, attacks and standing orders.

The rules checked are those of docs/rules.md (R-...).  A finding that depends on what players before you in
turn order may do first (where enemy units will stand, whether a city is still neutral) is a warning; an
error if you move first.  Findings about other factions only use what the player may see
(``pbem.visibility.sight``).  Orders are read in sequence as the adjudicator runs them: a unit's position in
``second_move`` is where ``first_move`` left it.

``main(orders_path, campaign_dir, fmt)`` returns (text, exit code): 0 no errors (warnings may be printed),
1 errors, 2 unusable input (unreadable file, not YAML we accept, or not a campaign folder).
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Iterable

from . import battle, board, yamlio
from .cards import OTHERS_ID, besieged_city_in_sight, leader_named, name_key, names_others_unit
from .effects import held_traits, player_effects, skill_effects, total_value, unit_matches
from .errors import PbemError
from .gamedata import Card, GameMap, Tables, json_path, tables
from .yamlio import lookalike_words
from .model import RECRUIT_COST, UPKEEP_COST, GameState, Unit, UnitType, sorted_ids
from .movement import (BASE_MP, aid_of_city, cannot_move_or_attack, effects_in_force, foreign_city, land_ok,
                       movement_allowance, step_problems)
from .orders import Parsed, build, did_you_mean, escaped, expand_units, is_hex_id, orders_schema, short_list

# "did you mean" guesses for unknown unit ids, at most, in one file: each costs a fuzzy match against the player's
# ids (about half a millisecond), and a cheater's review sent a file of 30,000 unknown ids that took 17 s to check
# (26 s to submit) while it held the campaign's lock, so a deadline's run-turn was refused meanwhile
GUESSES = 100
# the ways the diplomacy targets before one may have gone, at most, before the checker forgets which cities they won
WAYS = 256
from .ordertypes import Attack, CardUse, Move, Standing
from .phases.draw import DRAW, HAND_LIMIT
from .phases.move import Refusal, Stack, gather, stack_at
from .phases import recruit as recruit_phase
from .phases import upkeep as upkeep_phase
from .phases.revenue import pays as revenue_pays
from .storage import Campaign
from .visibility import redact, sight

ERROR, WARNING = "error", "warning"
# a note: what an order does that is worth knowing but no likely mistake (a city named again in diplomacy is a
# second try that costs nothing); never counted as a warning
NOTE = "note"
_ARTICLE = {UnitType.ARMY: "an Army", UnitType.ROWERS: "a Rowers unit", UnitType.FLEET: "a Fleet",
            UnitType.TRANSPORT: "a Transport", UnitType.BAGGAGE: "a Baggage unit", UnitType.LEADER: "a Leader"}



def as_target(name: str) -> str:
    """A leader's name as an order file may write it as a card target: as it is if the order schema takes it,
    else in lower case (the adjudicator compares names case-insensitively, "_" for a space)."""
    if re.fullmatch(orders_schema()["$defs"]["card_target"]["pattern"], name):
        return name
    return name_key(name).replace(" ", "_")


def leader_label(u: Unit) -> str:
    """A leader as hints name it: its name as a target takes it, and its id unless the fog hides it (COR-?3)."""
    if not u.name:
        return u.id
    return as_target(u.name) if "?" in u.id else f"{as_target(u.name)} ({u.id})"


def a_unit(t: UnitType) -> str:
    return _ARTICLE.get(t, f"a {t.value}")


def containers_copy(v: Any) -> Any:
    """``v`` with every dict, list and set in it copied, nested ones too, and whatever else they hold (units,
    findings, strings) shared: the checker's bookkeeping as it was, for ``check_move_both_ways`` to put back."""
    if isinstance(v, dict):
        return {k: containers_copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [containers_copy(x) for x in v]
    if isinstance(v, set):
        return set(v)  # a set holds only hashable things: never a list or dict
    return v


@dataclass(frozen=True)
class Finding:
    severity: str  # error | warning | note
    file: str
    line: int | None
    column: int | None
    path: str  # the field, as a JSON path: first_move[0].path[2]; "" for the file as a whole
    message: str
    hint: str | None = None

    def text(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}:{self.column or 1}"
        field_ = f"{self.path}: " if self.path else ""
        hint = f" (hint: {self.hint})" if self.hint else ""
        return escaped(f"{where}: {self.severity}: {field_}{self.message}{hint}")  # one finding, one line


@dataclass
class Report:
    file: str
    findings: list[Finding] = field(default_factory=list)
    usable: bool = True  # False: unreadable, not YAML we accept, or the campaign cannot be read
    campaign: bool = True  # False: checked without a campaign, the file's format only

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == ERROR]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == WARNING]

    @property
    def notes(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == NOTE]

    @property
    def exit_code(self) -> int:
        if not self.usable:
            return 2
        return 1 if self.errors else 0

    def summary(self) -> str:
        if not self.usable:
            return f"{self.file}: not checked"
        e, w = len(self.errors), len(self.warnings)
        if not self.campaign:  # say so: "OK" alone read as if the orders were fine (a moderator review)
            if not e and not w:
                return (f"{self.file}: OK: the file's format is right (not checked against a campaign: add "
                        f"--campaign KIT_FOLDER to check the orders against the game)")
            return (f"{self.file}: {e} error{'s' if e != 1 else ''}, {w} warning{'s' if w != 1 else ''} (the format "
                    f"only: not checked against a campaign)")
        n = len(self.notes)
        notes = f", {n} note{'s' if n != 1 else ''}" if n else ""
        if not e and not w:
            return f"{self.file}: OK, no errors or warnings{notes}" if n else f"{self.file}: OK, no findings"
        return f"{self.file}: {e} error{'s' if e != 1 else ''}, {w} warning{'s' if w != 1 else ''}{notes}"

    def to_text(self) -> str:
        return "".join(f.text() + "\n" for f in self.findings) + self.summary() + "\n"

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "usable": self.usable, "campaign": self.campaign, "exit_code": self.exit_code,
                "errors": len(self.errors), "warnings": len(self.warnings), "notes": len(self.notes),
                "findings": [asdict(f) for f in self.findings]}


def _fatal(source: str, exc: PbemError) -> Report:
    line = getattr(exc, "line", None)
    col = getattr(exc, "column", None)
    msg = getattr(exc, "detail", None) or str(exc)
    return Report(source, [Finding(ERROR, source, line, col if line else None, "", msg)], usable=False)


# A file without a secret line: the moderator is sure to refuse it, campaign or not (docs/players.md)
NO_SECRET = ("no secret: the moderator accepts a file only with your secret in it",
             "add a line  secret: <the secret the moderator gave you>")


def secret_key(data: dict) -> bool:
    """Whether the file has a secret line: `secret:`, or `Secret:` (which the schema's finding names)."""
    return any(isinstance(k, str) and k.lower() == "secret" for k in data)


# -- entry points --------------------------------------------------------------------------------------

def check_file(path: Path | str, campaign: Campaign | None = None, source: str | None = None) -> Report:
    """Check one order file, against ``campaign``'s current state if given.  Never raises for bad input."""
    source = source or str(path)
    try:
        text = yamlio.read_text(path, source)
    except yamlio.YamlError as exc:
        return _fatal(source, exc)
    return check_text(text, source, campaign)


def check_text(text: str, source: str = "orders.yaml", campaign: Campaign | None = None,
               located: yamlio.Located | None = None, as_player: str | None = None) -> Report:
    """Check an order file's text; ``located``: its parse, when the caller (intake) has it already.
    ``as_player``: check against the campaign as that player's kit holds it (``Game.seen_by``), not the whole
    state: intake's answer to a player then says nothing their own kit would not."""
    mail = yamlio.mail_text(text)  # mail around the orders: before the YAML, whose words would mislead
    if mail:
        return _fatal(source, yamlio.YamlError(source, mail[0], *mail[1]))
    if located is None:
        try:
            located = yamlio.parse(text, source)
        except yamlio.YamlError as exc:
            return _fatal(source, exc)
    game_map = None
    if campaign is not None:
        try:  # the campaign's map names its cities' hexes in hints; a damaged one is reported below
            game_map = campaign.game_map
        except PbemError:
            game_map = None
    parsed = build(located, text, game_map=game_map)
    # an empty file, a list or a bare value at the top is no order file at all: exit code 2, as for any file that
    # cannot be used (it was 1, as for a file with errors in it)
    report = Report(source, campaign=campaign is not None, usable=isinstance(parsed.data, dict))
    report.findings += header_findings(text, located, source)
    separator = yamlio.separator_in_a_line(text)
    if separator:  # the file parsed, but not as its editor shows it (a mail review: `# note<U+2028>diplomacy: ...`
        # is a comment in the editor and an order to YAML)
        (line, col), said = separator[1], separator[0].replace(": delete it (", ": what follows it is read as a "
                                                                             "new line of the file; delete it (")
        report.findings.append(Finding(WARNING, source, line, col, "", said))
    for p in parsed.problems:
        mark = parsed.where(p.path, p.at_key)
        message, hint = p.message, p.hint
        value = _value_at(parsed.data, p.path)
        if p.path and p.path[-1] == "target" and isinstance(value, str) and KIT_ID.fullmatch(value):
            message, hint = kit_id_words(value, campaign, as_player)
        report.findings.append(Finding(ERROR, source, mark[0] if mark else None, mark[1] if mark else None,
                                       json_path(p.path) if p.path else "", message, hint))
    if campaign is None and parsed.orders is not None and not secret_key(parsed.data):
        mark = parsed.where(())  # with a campaign, RuleCheck's header says it
        report.findings.append(Finding(ERROR, source, mark[0] if mark else None, mark[1] if mark else None, "",
                                       *NO_SECRET))
    if campaign is not None and parsed.orders is not None:
        try:
            game = Game.of(campaign) if as_player is None else Game.seen_by(campaign, as_player)
        except PbemError as exc:
            return _fatal(source, exc)
        report.findings += RuleCheck(parsed, game, source).run()
    report.findings.sort(key=lambda f: (f.line or 0, f.column or 0, f.severity != ERROR))
    return report


TEMPLATE_SECRET = "WRITE-YOUR-SECRET-HERE"  # what the kit's template has where the secret goes (pbem.playerkit)
SECRET_FORM = re.compile(r"[0-9a-f]{4}(-[0-9a-f]{4}){3}")  # as pbem.campaign.new_player_secret makes them


def header_findings(text: str, located: yamlio.Located, source: str) -> list[Finding]:
    """The header as the moderator reads it: intake reads `player:` and `secret:` as plain lines before the YAML
    (``intake.scan_header``, the same function), so a header YAML reads but those lines do not (flow style, an
    indented header, ``? secret``, ``player: !!str athens``) is refused, and `pbem check` says so.  The secret is
    not known here, but the template's placeholder and a secret not in the form pbem's secrets have (curly
    quotes, long dashes from autocorrect, capitals) are sure to be refused (a mail review)."""
    from .intake import UNREADABLE_HEADER, HeaderError, scan_header
    data = located.data
    if not isinstance(data, dict):
        return []

    def finding(key: str | None, message: str, hint: str | None = None) -> Finding:
        mark = located.marks.get(("@key", key)) if key else None
        mark = mark or located.where(())
        return Finding(ERROR, source, mark[0] if mark else None, mark[1] if mark else None, key or "", message,
                       hint)
    try:
        scanned = scan_header(text)
    except HeaderError as exc:
        m = re.search(r"`\??\s*(player|secret)", str(exc))
        return [finding(m.group(1) if m else None, f"{UNREADABLE_HEADER} ({exc})")]
    out = []
    for key in ("player", "secret"):
        got, wrote = scanned.get(key), data.get(key)
        if wrote is not None and not isinstance(wrote, str):
            continue  # not text: the schema's finding says so
        if got != wrote:
            odd = lookalike_words(wrote) if isinstance(wrote, str) else None
            why = ("is not a plain line at the start of a line" if got is None else
                   f"holds {odd}" if odd else f"reads as {got!r} as a plain line, as {wrote!r} in YAML")
            out.append(finding(key if wrote is not None else None,
                               f"`{key}:` {why}: the moderator reads `player:` and `secret:` from such lines before "
                               f"the rest of the file, and would refuse the file",
                               "write them like `player: athens` and `secret: 1a2b-3c4d-5e6f-7a8b`, each at the start "
                               "of a line, as in the order template"))
    secret = data.get("secret")
    if not isinstance(secret, str) or out:
        return out
    if TEMPLATE_SECRET in secret or "YOUR-SECRET" in secret.upper():
        out.append(finding("secret", f"the secret is still the template's {TEMPLATE_SECRET}",
                           "write the secret the moderator gave you in its place"))
    elif lookalike_words(secret) or not secret.isascii():
        odd = lookalike_words(secret) or "characters that are not plain ASCII: " + " ".join(
            sorted({f"{c} (U+{ord(c):04X})" for c in secret if not c.isascii()}))
        out.append(finding("secret", f"the secret is not as the moderator wrote it: {odd}",
                           "a secret is plain letters, digits and - dashes, like 1a2b-3c4d-5e6f-7a8b; copy it "
                           "exactly as the moderator gave it"))
    elif not SECRET_FORM.fullmatch(secret) and SECRET_FORM.fullmatch(secret.lower()):
        out.append(finding("secret", "the secret is written in capitals: secrets are in lower case",
                           f"write secret: {secret.lower()}"))
    return out


KIT_ID = re.compile(r"[A-Z]{2,4}-\?[0-9]+")  # how kits and reports show other players' units in sight: COR-?3


def _value_at(data: Any, path: tuple) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def kit_id_words(uid: str, campaign: Campaign | None, as_player: str | None) -> tuple[str, str]:
    """(message, hint) for a target written as a kit's anonymous id (COR-?3): the adjudicator knows the unit by
    its real id, so a card or attack aimed at it always fails; name its hex (a leader by name) instead."""
    unit = None
    if campaign is not None:
        try:
            game = Game.of(campaign) if as_player is None else Game.seen_by(campaign, as_player)
            unit = game.state.units.get(uid)
        except PbemError:
            unit = None
    message = (f"{uid} is how your kit shows a unit you see, not its id: an order aimed at {uid} always fails")
    if unit is not None and unit.type is UnitType.LEADER and unit.name:
        return message, f'name the leader by name ({as_target(unit.name)}), or its stack by its hex ("{unit.hex}")'
    if unit is None:
        return message, 'name its stack by its hex id (e.g. "0712")'
    return message, f'name its stack by its hex ("{unit.hex}")'


def main(orders_path: str | Path, campaign_dir: str | Path | None = None, fmt: str = "text") -> tuple[str, int]:
    """The body of ``pbem check ORDERS.yaml [--campaign DIR] [--format text|json]``: (output, exit code)."""
    source = str(orders_path)
    if fmt not in ("text", "json"):
        return f"pbem check: --format {fmt!r}: use text or json\n", 2
    try:
        camp = Campaign.open(campaign_dir) if campaign_dir is not None else None
        if camp is not None:
            Game.of(camp)
    except PbemError as exc:
        message = str(exc)
        if campaign_dir is not None and (Path(campaign_dir) / "kit" / "campaign.yaml").is_file():
            message = f"{campaign_dir} is a report folder: check against its kit, --campaign " \
                      f"{Path(campaign_dir) / 'kit'}"
        report = Report(source, [Finding(ERROR, str(campaign_dir), None, None, "", message)], usable=False)
    else:
        try:
            report = check_file(orders_path, camp, source)
        except PbemError as exc:
            report = _fatal(source, exc)
        except Exception as exc:  # a bug in the checker must not hide behind a traceback for the player
            report = Report(source, [Finding(ERROR, source, None, None, "",
                                             f"internal error in the checker ({type(exc).__name__}: {exc}); "
                                             f"please send this file to the moderator")], usable=False)
    if fmt == "json":
        return json.dumps(report.to_dict(), indent=1, ensure_ascii=False) + "\n", report.exit_code
    return report.to_text(), report.exit_code


# -- the campaign, read once per snapshot ---------------------------------------------------------------

@dataclass
class Game:
    state: GameState
    game_map: GameMap
    tables: Tables
    kit_of: str | None = None  # a player's kit (``pbem.playerkit``): whose it is
    # the state as each player's kit holds it (``seen_by``), made once per Game: it lives and goes with the Game
    views: dict[str, "Game"] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, camp: Campaign) -> "Game":
        turn = camp.current_turn
        snap = camp.snapshot_path(turn)
        try:
            st = os.stat(snap)
            key = (str(camp.root.resolve()), turn, st.st_mtime_ns, st.st_size)
        except OSError:
            key = None
        cache = _GAMES
        if key is not None and key in cache:
            return cache[key]
        game = cls(camp.load_state(turn), camp.game_map, tables(), camp.config.get("kit_of"))
        if key is not None:
            if len(cache) > 16:
                cache.clear()
            cache[key] = game
        return game


    @classmethod
    def seen_by(cls, camp: Campaign, player: str) -> "Game":
        """The campaign as ``player`` may know it: the state redacted as for the player's kit
        (``visibility.redact``: nothing past the fog, others' units in sight under anonymous ids).  Intake checks
        a player's file against it, so the answer sent back cannot tell which cities out of sight are besieged or
        the real ids of enemy units (a red-team review probed both through intake).  A player not in the
        campaign gets the whole state: the header check refuses the file before anything else is read."""
        game = cls.of(camp)
        if player not in game.state.players or game.kit_of is not None:
            return game
        if player not in game.views:
            game.views[player] = cls(redact(game.state, game.game_map, player), game.game_map, game.tables)
        return game.views[player]


_GAMES: dict[tuple, Game] = {}

SHIP_HEXES = "Water and coastal City, Sandy Coast or Fishing Village hexes"
BATTLE_PHASES = ("battle", "sea_battle", "land_battle")
TARGET_WORDS = {
    "hex": "a hex id, e.g. \"0712\"", "stack": "a hex id or a unit id", "city": "a city id",
    "neutral_city": "a neutral city", "enemy_city": "a city another player controls",
    "enemy_minor_city": "a minor city another player controls", "besieged_city": "a city under siege",
    "player": "an opponent (their home city id)", "leader": "a leader's id", "own_leader": "one of your leaders",
}



@dataclass(frozen=True)
class Win:
    """A city the player's own orders may win before the moves: by a card of ``cards`` or a diplomacy roll."""
    city: str
    by: str  # "Formal Agreement at cards[0]", "your diplomacy roll at diplomacy[1]"
    sure: bool  # a card in hand, its target neutral now, nobody before you in turn order to take it first
    unless: str = ""  # why it may not: ", unless a player before you in turn order takes it first"
    card: str = ""  # the card's name, for a card


class _Field:
    """``sim.hex[uid]`` and ``sim.carrier[uid]``: read and set on the simulated state's units."""

    def __init__(self, sim: "Sim", attr: str):
        self.sim, self.attr = sim, attr

    def __getitem__(self, uid: str):
        return getattr(self.sim.units[uid], self.attr)

    def __setitem__(self, uid: str, value) -> None:
        u = self.sim.units[uid]
        if self.attr == "hex":
            self.sim.state.place(u, value)
        else:
            u.carried_by = value


class Sim:
    """Where the player's units will be, as the orders are read in sequence: a ``GameState`` holding copies of
    the player's units (and those the recruits will create), moved as the orders say, and the other units the
    player sees (``sight``) as they stand now.  The adjudicator's own rules (``pbem.movement``,
    ``pbem.phases.move``) are asked against it, so they use nothing the player may not see."""

    def __init__(self, state: GameState, me: str, seen: set[str]):
        units: dict[str, Unit] = {}
        for u in state.units.values():
            if u.owner == me:
                units[u.id] = Unit(u.id, u.type, u.owner, u.hex, u.carried_by, u.starvation, u.value, u.name,
                                   list(u.skills), u.away_until)
            elif u.hex in seen and u.away_until is None:
                units[u.id] = u  # read only
        self.state = GameState(state.campaign, state.turn, state.turn_order, state.players, state.cities, units,
                               state.deck, state.discard, state.effects, state.options, state.next_id,
                               state.last_turn, state.finished)
        self.me = me
        self.units = {uid: u for uid, u in units.items() if u.owner == me}  # own units, by id
        self.hex = _Field(self, "hex")
        self.carrier = _Field(self, "carried_by")

    def add(self, unit: Unit) -> None:
        self.state.add_unit(unit)
        self.units[unit.id] = unit

    def at(self, h: str) -> list[str]:
        return sorted_ids(u.id for u in self.state.units_at(h) if u.owner == self.me)

    def cargo(self, carrier: str) -> list[str]:
        out = [u for u, x in self.units.items() if x.carried_by == carrier]
        for u in list(out):
            out += [x for x in self.cargo(u) if x not in out]
        return out


class RuleCheck:
    """Layer 2: the orders against the campaign's current state."""

    def __init__(self, parsed: Parsed, game: Game, source: str):
        self.p = parsed
        self.o = parsed.orders
        self.state, self.map, self.tables = game.state, game.game_map, game.tables
        self.kit_of = game.kit_of
        self.source = source
        self.findings: list[Finding] = []
        self.me = self.o.player
        self.played: dict[str, str] = {}  # card -> where it is first played in the own turn
        self.played_path: dict[str, tuple] = {}  # card -> the same, as a path (a finding's place)
        self.maybe_played: set[str] = set()  # cards of self.played whose order has a warning: it may fail
        self.card_findings: dict[int, bool] = {}  # cards[i] -> whether its play has a finding
        self.guesses = 0  # "did you mean" guesses for unknown unit ids so far (``unknown_unit_hint``)

    # -- findings -----------------------------------------------------------------------------------
    def add(self, severity: str, path: tuple, message: str, hint: str | None = None, at_key: bool = False) -> None:
        mark = self.p.where(path, at_key)
        self.findings.append(Finding(severity, self.source, mark[0] if mark else None, mark[1] if mark else None,
                                     json_path(path) if path else "", message, hint))

    def error(self, path: tuple, message: str, hint: str | None = None) -> None:
        self.add(ERROR, path, message, hint)

    def warn(self, path: tuple, message: str, hint: str | None = None) -> None:
        self.add(WARNING, path, message, hint)

    @property
    def later(self) -> str:
        """Severity of a finding that players before this one in turn order could make wrong."""
        order = [p for p in self.state.turn_order if self.state.players[p].eliminated_turn is None]
        return WARNING if self.me in order and order.index(self.me) > 0 else ERROR

    # -- run ----------------------------------------------------------------------------------------
    def run(self) -> list[Finding]:
        if not self.header():
            return self.findings
        st = self.state
        self.seen = sight(st, self.map, self.me)
        self.sim = Sim(st, self.me, self.seen)
        self.predicted: dict[str, str] = {}  # unit id -> what will create it
        self.recruit_paths: dict[str, tuple] = {}  # unit id -> the recruit entry that will create it
        self.hand = list(st.players[self.me].hand)
        self.card_wins: dict[str, Win] = {}  # city id -> the own-turn card that wins it (after check_cards)
        self.land_targets: dict[str, int] = {}  # hex -> the first land_battle attack on it
        self.cities_attacked: set[str] = set()
        self.move_cards: list[tuple[int, CardUse]] = []  # movement cards of ``cards``, naming a unit
        self.move_cards_used: dict[int, tuple] = {}
        self.skipped: dict[str, str] = {}  # unit id -> the move order with an error that would have moved it
        self.skipped_end: dict[str, str | None] = {}  # such an order -> the last hex of its path, if known
        self.lasting: dict[str, list[tuple[str, dict]]] = {}  # unit id -> movement cards of its First Move "this turn"
        self.ship_moves: dict[str, tuple] = {}  # own ship id -> the last move order that moves it (its last hex)
        self.last_moves: dict[str, tuple] = {}  # own unit id -> the last move order that moves it (its last hex)
        blocked = cannot_move_or_attack(st, self.me)  # Political Rivalry, Social Division
        self.cannot_move = [blocked] if blocked else []
        self.truce = effects_in_force(st, "truce", self.me)  # in force in this player-turn: no one may attack
        self.check_discard(("discard",))
        self.check_upkeep(("upkeep",))
        self.check_recruit()
        self.check_cards()
        self.card_wins = self.cities_won_by_cards()
        self.gains = self.cities_won_before_moves()
        self.eaten: set[str] = set()  # Baggage this turn's Upkeep uses up (``warn_upkeep_now``)
        self.rolls_now: dict[str, tuple[str, int]] = {}  # units rolling at this turn's Upkeep, not yet said
        self.unfed_said: set[str] = set()  # units the end-of-turn supply warning names (``warn_unfed``)
        # a Truce of the own-turn cards stops this player's own attacks too (docs/rules.md, Truce)
        self.own_truce = next((cid for cid in self.played if any(e["kind"] == "truce"
                                                                  for e in self.tables.cards[cid].effects)), None)
        self.check_diplomacy()
        self.check_moves("first_move")
        self.attacking: dict[str, str] = {}  # own unit id -> the attack it is in (one that may be carried out)
        self.check_attacks("sea_battle")
        self.moves_in: dict[str, tuple[str, str, str]] = {}  # unit -> (city hex, attack, city name): R-BAT-4
        self.check_attacks("land_battle")
        self.check_treasure()
        self.check_moves("second_move")
        self.warn_navigation()
        self.warn_upkeep_now()
        self.warn_out_of_supply()
        self.note_rolls_now()
        self.warn_capturable()
        self.warn_unmanned_recruits()
        self.check_standing()
        self.check_discarded_plays()
        self.check_hand_limit()
        return self.findings

    # -- header -------------------------------------------------------------------------------------
    def header(self) -> bool:
        st, o, bad = self.state, self.o, self.p.bad_header
        data = self.p.data
        past = False  # a file for a turn that is over: its orders were written for another state than this one
        if "campaign" not in bad and o.campaign != st.campaign:
            self.error(("campaign",), f"this file is for campaign '{o.campaign}', but the campaign is "
                                      f"'{st.campaign}'", f"write campaign: {st.campaign}")
        if "turn" not in bad and st.finished:
            self.error(("turn",), f"the game is over (after turn {st.turn - 1}); no more orders are taken")
        elif "turn" not in bad and o.turn != st.turn:
            if o.turn < st.turn:
                self.error(("turn",), f"turn {o.turn} is over; the campaign is at turn {st.turn}",
                           f"write turn: {st.turn}")
                past = True
            elif self.kit_of is not None:  # the game has moved on since this kit was made
                self.error(("turn",), f"this kit is for game turn {st.turn}, your file for turn {o.turn}",
                           "check with the kit/ folder of your latest report")
            else:
                self.error(("turn",), f"turn {o.turn} has not begun; the campaign is at turn {st.turn}",
                           f"write turn: {st.turn}")
        if "player" in bad:
            return False
        if o.player not in st.players:
            guess = did_you_mean(o.player, st.players)
            self.error(("player",), f"'{o.player}' is not a player of this campaign",
                       f"did you mean {guess}?" if guess else f"players: {', '.join(st.turn_order)}")
            return False
        if self.kit_of is not None and o.player != self.kit_of and self.kit_of in st.players:
            self.error(("player",), f"this kit is the {st.players[self.kit_of].name}' own: it cannot check orders "
                                    f"for {o.player}", f"write player: {self.kit_of}, or use {o.player}'s kit")
            return False
        if st.players[o.player].eliminated_turn is not None:
            self.error(("player",), f"{o.player} is out of the game (since turn "
                                    f"{st.players[o.player].eliminated_turn})")
            return False
        if not secret_key(data):  # the moderator is sure to refuse it
            self.error((), *NO_SECRET)
        # last turn's orders checked against this turn's state would only say things about a game they were not
        # written for: the header's findings are all (a moderator review)
        return not past

    # -- units --------------------------------------------------------------------------------------
    def own_ids(self) -> list[str]:
        return sorted_ids(self.sim.units)

    def unknown_unit_hint(self, uid: str, near: str | None = None) -> str | None:
        """The hint for a unit id that is not the player's: whose it is, when another player's prefix says so
        (a player never orders another faction's units), else the nearest of the player's own ids, of the same
        kind first (ATH-A3 -> ATH-A2, not the Leader ATH-L3).  ``near``: the hex of the stack the order moves;
        a unit there is suggested first, and one elsewhere is said to be elsewhere (a new player's review: a
        leader of another hex was suggested for a move's stack)."""
        abbr = uid.split("-")[0].upper()
        other = next((p for pid, p in self.state.players.items() if p.abbr == abbr and pid != self.me), None)
        if other is not None:
            return f"{uid} is a unit of the {other.name}: you may order only your own units"
        self.guesses += 1
        if self.guesses > GUESSES:  # the hint falls back on the list of the player's units
            return None
        own = [i for i in self.own_ids() if self.sim.units[i].away_until is None]
        kind = uid.upper().rstrip("0123456789")
        same = [i for i in own if i.rstrip("0123456789") == kind]
        guess = near and did_you_mean(uid, [i for i in same if self.sim.hex[i] == near])
        guess = guess or did_you_mean(uid, same) or did_you_mean(uid, own)
        if not guess:
            return None
        u = self.sim.units[guess]
        named = f"{guess} ({u.name})" if u.type is UnitType.LEADER and u.name and "?" not in guess else guess
        if near and u.hex != near:
            return f"did you mean {named}? it is in {u.hex}, not with this order's units in {near}"
        return f"did you mean {named}?"

    def unit(self, path: tuple, uid: str, near: str | None = None,
             recruits: list[tuple[tuple, str]] | None = None) -> Unit | None:
        """One of the player's units (or one the recruits will create), else an error and None.  ``near``: the
        hex of the stack the order moves, if known (``unknown_unit_hint``).  ``recruits``: where a unit the
        recruits will create is listed, for one warning per list (``warn_recruits``), instead of a warning here."""
        u = self.sim.units.get(uid)
        if u is None:
            self.error(path, f"{uid} is not one of your units",
                       self.unknown_unit_hint(uid, near) or f"your units: {short_list(self.own_ids(), 10)}")
            return None
        if uid in self.predicted:
            if recruits is not None:
                recruits.append((path, uid))
            else:
                self.warn_recruits([(path, uid)])
        if u.away_until is not None:
            self.error(path, f"{u.label} is away from the game until turn {u.away_until}")
            return None
        return u

    def warn_recruits(self, named: list[tuple[tuple, str]]) -> None:
        """One warning, at the first, for the units of one list that do not exist yet: this turn's recruits will
        get their ids (a new player's review: four Baggage recruited and loaded gave four warnings alike)."""
        if not named:
            return
        ids = [uid for _, uid in named]
        if len(ids) == 1:
            msg = f"{ids[0]} does not exist yet: it is the id {self.predicted[ids[0]]} will get"
        else:
            whose = list(dict.fromkeys(self.predicted[u].removeprefix("a ").removeprefix("the ") for u in ids))
            msg = f"{', '.join(ids)} do not exist yet: they are the ids the {' and the '.join(whose)} will get"
        self.warn(named[0][0], msg, "this holds only if that recruitment succeeds")

    def units_list(self, base: tuple, ids: Iterable[str]) -> list[str]:
        """Resolve a ``units`` list (unit ids, or hex ids for the stack there) to unit ids, reporting bad ones."""
        out: list[str] = []
        ids = list(ids)
        near = self.stack_hex(ids)
        recruits: list[tuple[tuple, str]] = []
        for j, x in enumerate(ids):
            path = base + (j,)
            if is_hex_id(x):
                if x not in self.map.terrain:
                    self.error(path, f"{x} is not a hex of this map", self.map_size_hint())
                    continue
                here = expand_units(self.sim.state, self.me, [x])
                if not here:
                    self.error(path, f"you have no units in {x} (a hex id here means all your units there)")
                for u in here:
                    if u not in out:
                        out.append(u)
                continue
            if x in out:
                self.warn(path, f"{x} is named twice")
                continue
            if self.unit(path, x, near, recruits) is not None:
                out.append(x)
        self.warn_recruits(recruits)
        return out

    def stack_hex(self, names: Iterable[str]) -> str | None:
        """Where the stack a move's ``units`` names stands: the first hex id of the map, or the hex of the first
        unit of the player's it names; None if it names none."""
        for x in names:
            if is_hex_id(x) and x in self.map.terrain:
                return x
            u = self.sim.units.get(x) if isinstance(x, str) else None
            if u is not None and u.away_until is None:
                return u.hex
        return None

    def map_size_hint(self) -> str:
        g = self.map.grid
        d = g.digits
        return f"this map has columns {1:0{d}d}-{g.cols:0{d}d} and rows {1:0{d}d}-{g.rows:0{d}d}"

    def neighbours_hint(self, h: str) -> str:
        return f"neighbours of {h} are {', '.join(self.map.neighbours[h])}"

    # -- cards --------------------------------------------------------------------------------------
    def card_in_hand(self, path: tuple, cid: str, what: str = "it is played only if you draw it this turn") -> None:
        card = self.tables.cards[cid]
        if cid in self.played:
            if cid in self.maybe_played:
                self.warn(path, f"{card.name} is played at {self.played[cid]} if that order is carried out",
                          "the deck holds one of each card")
            else:
                self.error(path, f"{card.name} is already played at {self.played[cid]}",
                           "the deck holds one of each card")
            return
        self.played[cid] = json_path(path)
        self.played_path[cid] = path
        if cid not in self.hand:
            self.warn(path, f"{card.name} is not in your hand: {what}",
                      f"your hand: {', '.join(self.hand) or 'empty'}")

    def check_card(self, path: tuple, use: CardUse, where: str, attack: Attack | None = None) -> None:
        """Timing, target and hand of one card play.  ``where``: cards, move, sea_battle, land_battle,
        defence, reaction."""
        card = self.tables.cards[use.card]
        tm = card.timing
        phase, trigger = tm.get("phase"), tm.get("trigger", "none")
        cpath = path + ("card",) if isinstance(self.raw(path), dict) else path
        own_turn = where in ("cards", "move", "sea_battle", "land_battle")
        problem = self.timing_problem(card, where, attack)
        if problem:
            self.error(cpath, *problem)
            return
        if own_turn:
            self.card_in_hand(cpath, use.card, "it is played only if you draw it this turn" if where == "cards"
                              else "unless you draw it this turn, the whole order fails")
        if use.if_needed and phase not in BATTLE_PHASES:
            self.warn(path + ("if_needed",), f"if_needed matters only for battle cards; {card.name} is played "
                                             f"anyway")
        self.check_target(path, card, use.target, where, trigger)

    def warn_if_needed_wasted(self, path: tuple, use: CardUse) -> None:
        """A battle card that counts only if its side wins (``only_for_winners``) marked ``if_needed`` (an attack's
        card, or a standing defence card, where if_needed is the default): played only while its side is not
        winning, it does nothing unless a card after it turns the battle (a new player's review: Cavalry Pursuit so
        marked was played in an attack that then lost, and the defence rolled no casualties)."""
        card = self.tables.cards[use.card]
        if not use.if_needed or not self.only_for_winners(card):
            return
        raw = self.raw(path)
        written = isinstance(raw, dict) and "if_needed" in raw
        how = "with if_needed: true" if written else "in defence_cards if_needed is true unless you write " \
                                                     "if_needed: false, so"
        self.warn(path + ("if_needed",) if written else path + ("card",) if isinstance(raw, dict) else path,
                  f"{card.name} changes only the other side's casualty rolls, made only if your side wins; {how} it "
                  f"is played only while your side is not winning, and is used up for nothing unless a card played "
                  f"after it turns the battle (R-BAT-5)",
                  "write if_needed: false to play it from the start of every battle")

    @staticmethod
    def only_for_winners(card: Card) -> bool:
        """Does every effect of the battle card act only on the other side's casualty rolls (Cavalry Pursuit,
        Block Escape), which that side makes only if it loses (R-BAT-3)?  Then ``if_needed``, which plays it only
        while its own side is not winning (R-BAT-5, ``pbem.battle.fight``), plays it when it does nothing."""
        return bool(card.effects) and all(e["kind"] == "roll_modifier" and e.get("roll") == "casualty"
                                          and e.get("side") == "opponent" for e in card.effects)

    def timing_problem(self, card: Card, where: str, attack: Attack | None) -> tuple[str, str] | None:
        tm = card.timing
        phase, turn, role, trigger = tm.get("phase"), tm.get("turn"), tm.get("role"), tm.get("trigger", "none")
        name = card.name
        in_battle = phase in BATTLE_PHASES
        where_battle = "name it in the cards of an attack (sea_battle/land_battle)"
        where_def = "put it in standing.defence_cards"
        if where == "cards":
            if in_battle and trigger == "none":
                return (f"{name} is a battle card, not played on its own",
                        f"{where_battle}{' or ' + where_def if role in ('defense', 'any') else ''}")
            if phase == "move":
                return (f"{name} is a movement card",
                        "put it in the cards of the first_move/second_move order of the stack it speeds up")
            if trigger == "revolt":
                return (f"{name} is played against a revolt in another player's turn",
                        "standing.executions: true plays it for you")
            if trigger == "city_captured":
                return None  # played when a land attack of this turn captures a city
            if trigger == "battle_lost":
                return (f"{name} is played right after a battle your side wins",
                        "name it, with the enemy leader as target, in the cards of your attack, or in "
                        "standing.reactions for attacks on you")
            if trigger != "none" or turn == "other":
                return (f"{name} is played in other players' turns", "put it in standing.reactions")
            return None
        if where == "move":
            if phase != "move":
                return (f"{name} is not a movement card",
                        "movement cards: forced_march, marathon, relieving_force")
            return None
        if where in ("sea_battle", "land_battle"):
            if trigger == "revolt":
                return (f"{name} is played against a revolt in your city",
                        "standing.executions: true plays it for you")
            if trigger == "attack":
                return (f"{name} is played when an attack on you is declared", "put it in standing.reactions")
            if not in_battle:
                if phase == "move":
                    return (f"{name} is a movement card", "put it in the cards of a move")
                return (f"{name} is not a battle card", "play it in cards:" if turn != "other"
                        else "put it in standing.reactions")
            if phase not in ("battle", where):
                return (f"{name} is played in the {phase.replace('_', ' ')} phase only", "")
            if turn == "other" or role == "defense":
                return (f"{name} is a defender's card", where_def)
            for e in card.effects:
                b = e.get("battle")
                if b in ("land", "sea") and f"{b}_battle" != where:
                    return (f"{name} counts in {b} battles only", f"name it in a {b}_battle attack")
            return None
        if where == "defence":
            if trigger == "revolt":
                return (f"{name} is not a defence card: it is played by standing.executions",
                        "write executions: true (the default) under standing:")
            if not in_battle or trigger != "none":
                return (f"{name} is not a defence card", "defence cards add to your defence in a battle")
            if turn == "own" or role == "attack":
                return (f"{name} is an attacker's card, not a defence card", where_battle)
            return None
        if where == "reaction":
            if trigger == "revolt":
                return (f"{name} is played by standing.executions", "write executions: true (the default)")
            if in_battle and trigger == "none":
                return (f"{name} is a battle card", where_def if role in ("defense", "any") else where_battle)
            if turn not in ("other", "any") or trigger == "none":
                return (f"{name} is not played in other players' turns", "play it in your own turn: cards:")
            return None
        return None

    def check_target(self, path: tuple, card: Card, target: str | None, where: str, trigger: str) -> None:
        kind = card.target
        tpath = path + ("target",)
        if kind == "none" or (where == "move" and kind == "stack"):
            if target is not None:
                self.warn(tpath, f"{card.name} takes no target here; '{target}' is ignored")
            return
        own = self.state.players[self.me].abbr
        if where == "reaction" and trigger == "attack":  # Hesitation: optionally only against one stack
            if target is not None and not is_hex_id(target) and target.split("-")[0] == own:
                self.error(tpath, f"{target} is one of your units; {card.name} stops an attack on you",
                           "name an enemy stack (one of its unit ids or its hex), or leave the target out")
            elif target is not None and not is_hex_id(target) and "-" not in target:
                self.error(tpath, f"'{target}' is not a hex or unit id",
                           "leave the target out to stop any attack on you, or name a hex")
            elif target is not None and is_hex_id(target) and target not in self.map.terrain:
                self.error(tpath, f"'{target}' is not a hex of this map", self.map_size_hint())
            return
        if target is None:
            what = TARGET_WORDS.get(kind, kind)
            if trigger == "battle_lost":
                what = f"{self.leader_words(True)}, which it removes if that leader's side loses"
            elif kind in ("leader", "own_leader"):
                what = self.leader_words(False, own=kind == "own_leader")
            # a standing reaction with no target stays in force and is never played, silently (a referee's
            # finding): say so
            never = "; in standing reactions without one it is never played" if where == "reaction" else ""
            self.error(path, f"{card.name} needs a target: {what}{never}", f"write {{card: {card.id}, target: ...}}")
            return
        st, m = self.state, self.map
        if kind == "hex":
            if target not in m.terrain:
                self.error(tpath, f"'{target}' is not a hex of this map", self.map_size_hint())
            elif target not in self.seen:
                self.warn(tpath, self.unseen(card, target))
            return
        if kind == "stack":
            if is_hex_id(target):
                if target not in m.terrain:
                    self.error(tpath, f"'{target}' is not a hex of this map", self.map_size_hint())
                elif target not in self.seen:
                    self.warn(tpath, self.unseen(card, target))
                elif len({u.owner for u in self.sim.state.units_at(target)}) != 1:
                    owners = {u.owner for u in self.sim.state.units_at(target)}
                    self.add(self.later, tpath, f"{target} holds {'no units' if not owners else 'units of several players'}"
                                                f" now: {card.name} needs a hex holding the units of one player",
                             "or name one unit of the stack")
            elif target.split("-")[0] == st.players[self.me].abbr and target not in self.sim.units:
                self.error(tpath, f"{target} is not one of your units", "name the stack by its hex id")
            elif "-" not in target:
                self.error(tpath, f"'{target}' is not a hex or unit id", TARGET_WORDS["stack"])
            elif names_others_unit(target, st.players[self.me].abbr):
                self.error(tpath, f"{target} is another player's unit id: {OTHERS_ID}", "name their stack by its hex")
            elif target not in self.sim.state.units:
                self.warn(tpath, self.unseen(card, target))
            return
        if kind in ("leader", "own_leader"):
            self.check_leader_target(tpath, card, kind, target, trigger)
            return
        if kind == "player":
            home = m.find_city(target)  # an opponent by their home city's id or name, in any case, as cards do
            if target not in st.players and home is not None and home.id in st.players:
                target = home.id
            if target == self.me:
                self.error(tpath, f"{card.name} names yourself; it needs an opponent")
            elif target not in st.players:
                guess = did_you_mean(target, st.players)
                self.error(tpath, f"'{target}' is not a player of this campaign",
                           f"did you mean {guess}?" if guess else f"players: {', '.join(st.turn_order)}")
            elif st.players[target].eliminated_turn is not None:
                self.error(tpath, f"{target} is out of the game")
            elif any(e["kind"] == "razed_counters" for e in card.effects) \
                    and st.cities[st.players[target].home].controller != target:  # Coup (cards._check_razed_counters)
                home_city = m.cities[st.players[target].home]
                held = st.cities[home_city.id].controller
                self.add(self.later, tpath, f"the {st.players[target].name} do not hold their home city "
                                            f"{home_city.name} now ("
                                            + ("you hold it" if held == self.me else "nobody holds it" if held is None
                                               else f"the {st.players[held].name} hold it")
                                            + f"), so {card.name} would fail and stay in your hand")
            return
        city = self.city(tpath, target)
        if city is None:
            return
        ctl = st.cities[city.id].controller
        if kind == "neutral_city":
            if ctl == self.me:
                self.error(tpath, f"you control {city.name}; {card.name} needs a neutral city")
            elif ctl is not None:
                who = f"the {st.players[ctl].name}" if ctl in st.players else ctl  # "the Corinthians", not "corinth"
                revolt = self.revolted_first(city.id, path)
                if revolt is None:
                    self.add(self.later, tpath, f"{city.name} is controlled by {who}, not neutral")
                else:
                    self.warn(tpath, f"{city.name} is controlled by {who}, not neutral, now: {card.name} wins it only "
                                     f"if {revolt} makes it revolt and it goes neutral first",
                              f"the revolt is made when that card is played, before this one: {city.name} goes "
                              f"neutral if {who} play no Executions and the rebels (1D3) beat their units there, or "
                              f"none are there (R-PH-DIP-REVOLT)")
        elif kind in ("enemy_city", "enemy_minor_city"):
            if kind == "enemy_minor_city" and st.cities[city.id].home_of is not None:
                self.error(tpath, f"{city.name} is a home city; {card.name} needs a minor city")
            elif ctl == self.me:
                self.error(tpath, f"you control {city.name}; {card.name} needs a city another player controls")
            elif ctl is None:
                self.add(self.later, tpath, f"{city.name} is neutral now; {card.name} needs a city another "
                                            f"player controls")
        elif kind == "besieged_city":  # as the adjudicator: the city and all around it in sight, or besieged by us
            if not besieged_city_in_sight(st, m, self.me, city.id, self.seen):
                self.warn(tpath, self.unseen(card, city.name))
            elif not board.under_siege(st, m, city.id):
                self.add(self.later, tpath, f"{city.name} is not under siege now")

    def leader_words(self, enemy: bool, own: bool = False) -> str:
        """A leader target in the words of the kit, which shows other players' leaders by name only (their ids
        hidden; names work as targets, ``pbem.cards.leader_named``): with names of leaders in sight."""
        # examples: one's own leaders for a card on them, else other players' (never one's own: a final review)
        names = [as_target(u.name) for u in sorted(self.sim.state.units.values(), key=lambda x: x.name or "")
                 if u.type is UnitType.LEADER and u.name and (u.owner == self.me) == own]
        what = ("the name of one of your leaders" if own else
                f"the name of {'an enemy' if enemy else 'a'} leader in sight")
        if not names:
            return f"{what} (you see none now)"
        return f"{what} (e.g. {', '.join(names[:3])})"

    @staticmethod
    def unseen(card: Card, target: str) -> str:
        """A card aimed at units out of sight (docs/rules.md, Decision (fog, card targets)): the adjudicator plays
        it only if the target is in sight then, and the kit cannot tell a unit out of sight from one that is not
        there, so neither does this warning (units may come into sight before the card is played)."""
        return (f"{target} is out of your sight now: {card.name} is played only if {target} is in your sight when "
                f"it is played")

    def raw(self, path: tuple) -> Any:
        node = self.p.data
        for part in path:
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                return None
        return node

    def check_leader_target(self, tpath: tuple, card: Card, kind: str, target: str, trigger: str) -> None:
        """A leader named as a card's target: by its id or by its name, in any case (the adjudicator reads it
        with ``pbem.cards.leader_named``; reports show enemy leaders by name only, their ids hidden)."""
        own = self.state.players[self.me].abbr
        leaders = [u for u in self.sim.state.units.values() if u.type is UnitType.LEADER]
        u = leader_named(leaders, target)
        mine = u.owner == self.me if u is not None else target.split("-")[0] == own
        if trigger == "battle_lost" and mine:
            who = target if u is None or u.id == target else f"{target} ({u.id})"
            self.error(tpath, f"{who} is one of your leaders; {card.name} discards a leader of the side that "
                              f"loses", "name an enemy leader")
            return
        if kind == "leader" and trigger != "battle_lost" and names_others_unit(target, own):
            # (Failure names a leader of a battle the player fights, where every unit's id is shown: ids do there)
            self.error(tpath, f"{target} is another player's unit id: {OTHERS_ID}",
                       "leaders in sight: " + (", ".join(as_target(x.name) for x in leaders
                                                         if x.owner != self.me and x.name) or "none"))
            return
        if kind == "own_leader" or mine:
            if u is None or u.owner != self.me:
                self.error(tpath, f"'{target}' is not one of your leaders",
                           "your leaders: " + (", ".join(leader_label(x) for x in leaders if x.owner == self.me)
                                               or "none"))
            return
        if u is not None:
            return  # an enemy leader in sight, by id or by name
        in_sight = ", ".join(leader_label(x) for x in sorted(leaders, key=lambda x: x.name or x.id)
                             if x.owner != self.me) or "none"
        if "-" in target:  # a unit id
            if target in self.sim.state.units:
                self.error(tpath, f"{target} is not a leader", f"leaders in sight: {in_sight}")
            elif trigger != "battle_lost":
                # an id a battle report showed (SPA-L1) is no id the kit knows (SPA-?1): say to name the leader by
                # name, and nothing of whether that id is in play (a player-eyes review read "you see no leader
                # SPA-L1" as false after a battle against SPA-L1)
                self.warn(tpath, f"no leader in your sight goes by the id {target} (your kit shows other players' "
                                 f"leaders by name only): {card.name} is played only if {target} is in your sight "
                                 f"when it is played", f"leaders in sight: {in_sight}; name a leader by name")
            return
        guess = did_you_mean(target, [as_target(x.name) for x in leaders if x.name and x.owner != self.me])
        if name_key(target) not in {name_key(n) for n in self.tables.leader_names}:  # no leader can bear it
            self.error(tpath, f"'{target}' is not a leader's name or id",
                       f"did you mean {guess}?" if guess else f"leaders in sight: {in_sight}")
            return
        if trigger != "battle_lost":
            self.warn(tpath, self.unseen(card, target),
                      f"did you mean {guess}?" if guess else f"leaders in sight: {in_sight}")
            return
        self.warn(tpath, f"you see no leader named '{target}' now: {card.name} is played only if that leader is on "
                         f"the losing side",
                  f"did you mean {guess}?" if guess else f"leaders in sight: {in_sight}")

    def own_of(self, utype: UnitType) -> list[str]:
        return [u for u in self.own_ids() if self.sim.units[u].type is utype]

    def city(self, path: tuple, cid: str):
        c = self.map.cities.get(cid) or self.map.find_city(cid)  # by id, or by name in any case (as cards read it)
        if c is None:
            guess = did_you_mean(cid, self.map.cities)
            self.error(path, f"'{cid}' is not a city of this map",
                       f"did you mean {guess}?" if guess else "city ids are the names in lower case")
        return c

    # -- draw and upkeep ----------------------------------------------------------------------------
    def check_discard(self, base: tuple) -> None:
        seen: set[str] = set()
        for i, cid in self.p.indexed(*base):
            if cid in seen:
                self.warn(base + (i,), f"{cid} is listed twice")
            seen.add(cid)

    def check_hand_limit(self) -> None:
        """R-PH-DRAW: the Draw phase draws 2 cards; over the hand limit (7 plus ``hand_size`` effects), the cards
        of the order's ``discard`` list go first, then the standing ones, then the most recently drawn
        (``pbem.phases.draw``).  Warn when the lists do not name enough cards in hand, so the draw decides."""
        hand = self.hand
        limit = HAND_LIMIT + total_value(player_effects(self.state, self.tables, self.me, "hand_size"))
        need = len(hand) + DRAW - limit
        if need <= 0:
            return
        standing = self.o.standing if self.o.standing is not None else \
            Standing.from_dict(self.state.players[self.me].standing)
        named: list[str] = []
        for c in [*(c for _, c in self.p.indexed("discard")), *standing.discard]:
            if c in hand and c not in named and len(named) < need:
                named.append(c)
        left = need - len(named)
        if left <= 0:
            return
        drawn = min(left, DRAW)
        also = [c for c in reversed(hand) if c not in named][: left - drawn]
        how = ("the second card you draw" if drawn == 1 else "both cards you draw") + \
            (f", then {', '.join(also)} (the latest in your hand)" if also else "")
        # never a card the file names anywhere (a card order with an error still says the player means to play
        # it: a new player was told to discard the Social Division his cards named), nor one the standing orders in
        # force use, this file's or kept from an earlier one (defence cards, reactions, an Executions-type card
        # while executions is on): a new player was told to discard the defence card his standing orders held
        in_file = self.cards_named()
        by_standing = {dc.card for dc in standing.defence_cards} | {u.card for u in standing.reactions}
        if standing.executions:
            by_standing |= {c for c in hand if any(e["kind"] == "negate_revolt" for e in self.tables.cards[c].effects)}
        keep = in_file | by_standing
        spare = [c for c in reversed(hand) if c not in named and c not in keep]
        suggest = named + spare[:left]
        kept_by_standing = [c for c in hand if c in by_standing and c not in in_file and c not in named]
        path = ("discard",) if "discard" in self.p.data else ()
        over = f"you hold {len(hand)} cards and draw {DRAW}: {len(hand) + DRAW} is over your hand limit of {limit}"
        if named:
            what = (f"{need} cards will be discarded: your discard lists name {len(named)} in your hand "
                    f"({', '.join(named)}); the other {left} the most recently drawn first: {how}")
        else:
            what = f"{need} card{'s' if need > 1 else ''} will be discarded, the most recently drawn first: {how}"
        if len(suggest) < need:
            standing_words = (f" (your standing orders use {', '.join(dict.fromkeys(kept_by_standing))})"
                              if kept_by_standing else "")
            hint = (f"to choose, discard cards your orders do not use: only {', '.join(suggest)} "
                    f"{'is' if len(suggest) == 1 else 'are'} such{standing_words}"
                    if suggest else f"every card in your hand is named in your orders{standing_words}: the draw "
                                    f"decides")
        else:
            hint = f"to choose, write discard: [{', '.join(suggest)}]"
        self.warn(path, f"{over}, so {what}", hint)

    def discarded_at_draw(self) -> tuple[int, int, dict[str, tuple | None]]:
        """The cards of the discard lists that the Draw phase discards (R-PH-DRAW, ``pbem.phases.draw``): over the
        hand limit after drawing, the order's ``discard`` list first, then the standing one, until the hand fits.
        Returns (cards held after the draw, the limit, card -> the discard entry naming it: its path in this
        file, or None for a standing list kept from an earlier file)."""
        hand = self.hand
        limit = HAND_LIMIT + total_value(player_effects(self.state, self.tables, self.me, "hand_size"))
        need = len(hand) + DRAW - limit
        out: dict[str, tuple | None] = {}
        if need <= 0:
            return len(hand) + DRAW, limit, out
        kept = self.o.standing is None
        standing = Standing.from_dict(self.state.players[self.me].standing) if kept else self.o.standing
        named = [(c, ("discard", i)) for i, c in self.p.indexed("discard")]
        named += [(c, None) for c in standing.discard] if kept else \
            [(c, ("standing", "discard", j)) for j, c in self.p.indexed("standing", "discard")]
        for c, path in named:
            if len(out) >= need:
                break
            if c in hand and c not in out:
                out[c] = path
        return len(hand) + DRAW, limit, out

    def check_discarded_plays(self) -> None:
        """A card the file plays (in the own turn, or as a standing defence card or reaction) that its discard
        lists throw away at the Draw phase, the first of the player-turn (R-PH-DRAW): the own-turn play fails as
        the card is no longer in hand (a whole move or attack with it), and a standing card is gone from then on
        (a new player's review: a defence card listed under discard: too got no word)."""
        held, limit, out = self.discarded_at_draw()
        # only a discard list of this file is said: one kept from an earlier file was checked with that file (and
        # the agreement tests, which run a phase by itself, leave the Draw phase out)
        out = {c: at for c, at in out.items() if at is not None}
        if not out:
            return
        first = self.later == ERROR  # nothing before this player's Draw phase changes the hand

        def why(cid: str) -> tuple[str, str]:
            at = out[cid]
            listed = f"{json_path(at)} lists it"
            name = self.tables.cards[cid].name
            return (f"{name} is discarded in your Draw phase, the first of your turn: you will hold {held} cards, over "
                    f"your hand limit of {limit}, and {listed}" + ("" if first else " (unless your hand is smaller "
                                                                                   "by then)"),
                    f"take {cid} out of {json_path(at)}")
        for cid, path in self.played_path.items():
            if cid not in out:
                continue
            msg, hint = why(cid)
            what = "it is not played" if path[0] == "cards" else "the whole order fails (a card it names must be " \
                                                                 "in your hand)"
            self.add(ERROR if first else WARNING, path, f"{msg}; so {what}", hint)
        for key in ("defence_cards", "reactions"):
            for i, use in self.p.indexed("standing", key):
                if use.card not in out:
                    continue
                path = ("standing", key, i)
                path += ("card",) if isinstance(self.raw(path), dict) else ()
                msg, hint = why(use.card)
                self.warn(path, f"{msg}; from then on it is not in your hand to play" + (
                    ", and you play first this turn: it is never played" if first else ""), hint)

    def cards_named(self) -> set[str]:
        """Every card id the file names, wherever (cards, moves, attacks, standing orders; not discard lists),
        whether or not its order has an error."""
        out: set[str] = set()

        def walk(node: Any, key: str | None = None) -> None:
            if isinstance(node, dict):
                for k, v in node.items():
                    if k == "card" and isinstance(v, str):
                        out.add(v)
                    elif k not in ("discard",):
                        walk(v, k)
            elif isinstance(node, list):
                for v in node:
                    if isinstance(v, str) and key in ("cards", "defence_cards", "reactions"):
                        out.add(v)
                    else:
                        walk(v, key)
        walk(self.p.data)
        return out

    def check_upkeep(self, base: tuple) -> None:
        seen: set[str] = set()
        for i, uid in self.p.indexed(*base):
            path = base + (i,)
            if uid in seen:
                self.warn(path, f"{uid} is listed twice")
                continue
            seen.add(uid)
            u = self.sim.units.get(uid)
            if u is None:
                fighters = self.own_of(UnitType.ARMY) + self.own_of(UnitType.ROWERS)
                self.error(path, f"{uid} is not one of your units",
                           self.unknown_unit_hint(uid) or f"your Armies and Rowers: {short_list(fighters)}")
            elif not u.type.needs_upkeep:
                self.warn(path, f"{uid} is {a_unit(u.type)}: only Armies and Rowers are paid upkeep")

    # -- recruit ------------------------------------------------------------------------------------
    def check_recruit(self) -> None:
        """R-PH-REC, entry by entry as ``pbem.phases.recruit`` does; an entry with an error recruits nothing.
        A limit (units and Baggage per city, stacking, gold) that only entries with a warning before it would
        exceed is a warning: if such an entry fails, this one is carried out."""
        st, m = self.state, self.map
        # what the entries so far recruit: for sure (no finding) and at most (no error), by city
        units: dict[bool, dict[str, list[int]]] = {True: {}, False: {}}  # city -> entries recruiting a unit
        baggage: dict[bool, dict[str, int]] = {True: {}, False: {}}
        stacked: dict[bool, dict[str, int]] = {True: {}, False: {}}  # city -> recruits standing there (not aboard)
        cost = {True: 0, False: 0}
        for i, r in self.p.indexed("recruit"):
            base = ("recruit", i)
            before = len(self.findings)
            city = self.city(base + ("city",), r.city)
            if city is None:
                continue
            why = board.may_recruit(st, m, city.id, self.me)
            c = st.cities[city.id]
            if why == "it is razed" and c.razed == 1:
                self.warn(base + ("city",), f"{city.name} is razed now; it loses its last razed counter in your "
                                            f"revenue phase, before recruitment")
            elif why == "it is under siege":
                self.add(self.later, base + ("city",), f"{city.name} may not recruit: it is under siege now",
                         "an enemy Army, Rowers or manned Fleet is in or next to it")
            elif why:
                able = [cid for cid in sorted(st.controlled_cities(self.me))
                        if not board.may_recruit(st, m, cid, self.me)]
                self.error(base + ("city",), f"{city.name} may not recruit: {why}",
                           f"cities of yours that may recruit now: {', '.join(able)}" if able else
                           "none of your cities may recruit now")
                continue
            utype = UnitType(r.unit) if r.unit is not None else None
            if utype is None and not r.baggage:
                self.error(base, "this entry recruits nothing: name a unit or some baggage",
                           "e.g. {city: " + city.id + ", unit: army} or {city: " + city.id + ", baggage: 2}")
                continue

            def over(path: tuple, exceeds, message, hint: str | None = None) -> None:
                """An error if the sure entries before exceed the limit, a warning if only the possible ones do."""
                if exceeds(True):
                    self.error(path, message(True), hint)
                elif exceeds(False):
                    self.warn(path, message(False) + ", if the entries before it are carried out", hint)

            if utype is not None:
                limit = 1 + self.extra_recruits(city.id)

                def too_many(sure: bool, limit=limit) -> str:
                    done = units[sure].get(city.id, [])
                    if limit > 1:
                        return (f"{city.name} already recruits {len(done)} units (recruit[{', '.join(map(str, done))}]"
                                f"): its limit is {limit} this turn (1, plus Organization)")
                    return f"{city.name} already recruits a unit (recruit[{done[0]}]): a city recruits one unit per turn"
                if utype.is_ship and not m.is_coastal_city(city.id):
                    self.error(base + ("unit",), f"{city.name} is not on the coast: it cannot build a {r.unit}",
                               "Fleets and Transports are built only in coastal cities")
                over(base + ("unit",), lambda sure: len(units[sure].get(city.id, [])) >= limit, too_many)
                # R-PH-REC, Decision (new Rowers): new Rowers go aboard an unmanned Fleet of the player in the city
                # (the lowest id), as the Recruit phase finds it, after the entries before this one
                aboard = recruit_phase.unmanned_fleet(SimpleNamespace(state=self.sim.state, player=self.me),
                                                      city.hex) if utype is UnitType.ROWERS else None
                room = board.stack_limit(m, city.hex)
                here = board.stack_size(st, city.hex, self.me)
                if aboard is None and (not utype.is_ship or m.is_coastal_city(city.id)):
                    over(base + ("unit",), lambda sure: here + stacked[sure].get(city.id, 0) + 1 > room,
                         lambda sure: f"{city.name} would hold {here + stacked[sure].get(city.id, 0) + 1} of "
                                      f"your Armies, Fleets and Transports; the stacking limit there is {room}",
                         self.recruit_before_moves(city))
            if r.baggage:
                over(base + ("baggage",), lambda sure: baggage[sure].get(city.id, 0) + r.baggage > 6,
                     lambda sure: f"with this entry {city.name} would recruit "
                                  f"{baggage[sure].get(city.id, 0) + r.baggage} Baggage this turn; the limit is 6 "
                                  f"per city (the entry is skipped)")
            price = (RECRUIT_COST[utype] if utype is not None else 0) + r.baggage * RECRUIT_COST[UnitType.BAGGAGE]
            if not any(f.severity == ERROR for f in self.findings[before:]):
                self.check_gold(base, cost[True], cost[False], price)
            if any(f.severity == ERROR for f in self.findings[before:]):
                continue  # skipped whole (R-TURN-4)
            for sure in (True, False) if len(self.findings) == before else (False,):
                cost[sure] += price
                if utype is not None:
                    units[sure].setdefault(city.id, []).append(i)
                    if aboard is None:
                        stacked[sure][city.id] = stacked[sure].get(city.id, 0) + 1
                baggage[sure][city.id] = baggage[sure].get(city.id, 0) + r.baggage
            if utype is not None:
                uid = self.predict(utype, city.hex, aboard.id if aboard is not None else None)
                self.recruit_paths[uid] = base + ("unit",)
                self.predicted[uid] = f"the {r.unit} recruited in {city.name}" + \
                    (f" (aboard {aboard.id})" if aboard is not None else "")
            for _ in range(r.baggage):
                uid = self.predict(UnitType.BAGGAGE, city.hex)
                self.predicted[uid] = f"a Baggage recruited in {city.name}"

    def recruit_before_moves(self, city) -> str:
        """The hint of a recruit over the stacking limit: the Recruit phase comes before this turn's moves
        (R-TURN-3), so the units the file moves out of the city are still there (a new player's recruit in
        Thebes, which his first move was emptying)."""
        for section in ("first_move", "second_move"):
            for i, mv in self.p.indexed(section):
                ids = [u for u in self.listed_units(mv.units) if u in self.sim.units and self.sim.hex[u] == city.hex
                       and self.sim.units[u].type.counts_for_stacking]
                if ids and mv.path:
                    return (f"recruitment comes before this turn's moves: {', '.join(ids)}, which {section}[{i}] "
                            f"moves out, {'is' if len(ids) == 1 else 'are'} still in {city.name} then; recruit "
                            f"elsewhere, or next turn")
        return "recruitment comes before this turn's moves: units you move out this turn have not left yet"

    def extra_recruits(self, city_id: str) -> int:
        """Organization (skill): the friendly city nearest each such leader recruits one more unit (as the Recruit
        phase counts it)."""
        return recruit_phase.extra_recruits(self.state, self.map, self.tables, self.me).get(city_id, 0)

    def predict(self, utype: UnitType, h: str, carried_by: str | None = None) -> str:
        """The id a recruit will get, and the unit put into the simulation (aboard ``carried_by``, if given)."""
        abbr = self.state.players[self.me].abbr
        key = f"{abbr}-{utype.letter}"
        n = self.state.next_id.get(key, 0) + 1 + sum(1 for u in self.predicted if u.startswith(key))
        uid = f"{key}{n}"
        self.sim.add(Unit(uid, utype, self.me, h, carried_by))
        return uid

    def income(self) -> tuple[int, int]:
        """(income to expect now, the most it could be) this turn (R-PH-REV)."""
        st, m = self.state, self.map
        expect = best = 0
        blocked = {e.target for e in st.effects if e.kind == "income_block" and e.until_turn >= st.turn}
        for cid in st.controlled_cities(self.me):
            c = st.cities[cid]
            if c.razed:
                continue
            inc = c.income
            if cid == st.players[self.me].home:
                inc += sum(int(e.get("value", 0)) for _, e in player_effects(st, self.tables, self.me, "income"))
            val = revenue_pays(inc, c.hostile, c.home_of is not None)
            best += val
            if cid not in blocked and not board.under_siege(st, m, cid):
                expect += val
        return expect, best

    def check_gold(self, path: tuple, sure: int, spent: int, price: int) -> None:
        """Can entry ``path`` be paid (``price``) after the entries before it (``sure``: those sure to be carried
        out, ``spent``: all that may be)?  The Recruit phase pays entry by entry and skips one it cannot pay; the
        gold then is this gold, plus revenue, less upkeep."""
        st = self.state
        gold = st.players[self.me].gold
        expect, best = self.income()
        upkeep = sum(1 for u in st.units_of(self.me) if u.type.needs_upkeep)
        if sure + price > gold + best:
            before = f" after {sure} for the entries before it" if sure else ""
            self.error(path, f"this costs {price} gold{before}; you have {gold} and at most {best} income this turn",
                       "Army, Rowers, Transport 2, Fleet 4, Baggage 1")
        elif spent + price > gold + expect - upkeep:
            before = f" after {spent} for the entries before it" if spent else ""
            self.warn(path, f"this costs {price} gold{before}; you have {gold}, about {expect} income and {upkeep} "
                            f"upkeep to pay first", "an entry that cannot be paid for is skipped")

    # -- diplomacy ----------------------------------------------------------------------------------
    def diplomacy_rolls(self) -> tuple[int, list[str], list[str], list[tuple[int, Win, str]]]:
        """(the diplomacy rolls this turn as the checker knows them, what they are made of, signed so that they add
        up ("1 free", "+1 Intrigue (Pericles' skill)", "+1 Intrigue (card)", "-1 Atrocities played against you");
        what may still add rolls before the Diplomacy phase: the home city's experience roll (a new leader or
        trait, R-PH-REC), a card adding rolls that waits to be drawn, a leader of yours that returns; the rolls a
        city a card may win would add by its trait: (rolls, the win, the trait's name)).  The trait of a city a
        card wins for sure counts (a player-eyes review: "2 rolls" when the report then rolled 3).  What only
        takes rolls away ("one less" cards of players before you) is not in ``more``: a target beyond the rolls
        then fails all the more."""
        st = self.state
        n, why = 1, ["1 free"]
        for src, e in player_effects(st, self.tables, self.me, "diplomacy_rolls"):
            if e.get("side", "own") == "own" and int(e.get("value", 0)) > 0:
                n += int(e["value"])
                why.append(f"+{int(e['value'])} {self.source_words(src)}")
        more: list[str] = []
        if self.experience_possible():
            more.append("if your home city's experience roll (Recruit phase) brings a leader or a trait that adds "
                        "one")
        if any(u.away_until is not None and u.away_until <= st.turn for u in st.units_of(self.me)):
            more.append("if a leader of yours who comes back into play this turn has a diplomacy skill")
        maybe: list[tuple[int, Win, str]] = []
        gained: set[str] = set()  # traits of the cities won for sure: each counts once
        for win in self.card_wins.values():
            rolls, trait = self.win_trait_rolls(win)
            if not rolls or trait in gained:
                continue
            if win.sure:
                gained.add(trait)
                n += rolls
                why.append(f"+{rolls} {trait} of {self.map.cities[win.city].name} ({win.card})")
            else:
                maybe.append((rolls, win, trait))
        for cid in dict.fromkeys(use.card for _, use in self.p.indexed("cards")):  # each card is played once
            card = self.tables.cards[cid]
            if any(e["kind"] == "leader_gained" for e in card.effects):
                more.append(f"if {card.name} brings a leader with a diplomacy skill")
            adds = sum(int(e.get("value", 0)) for e in card.effects
                       if e["kind"] == "diplomacy_rolls" and e.get("side") == "own" and int(e.get("value", 0)) > 0)
            if not adds:
                continue
            if cid not in self.hand:
                more.append(f"if you draw {card.name} this turn")  # played only if drawn; its own warning says so
                continue
            n += adds
            why.append(f"+{adds} {card.name} (card)")
        for e in st.effects:
            if e.kind == "diplomacy_rolls" and e.target == self.me and e.value < 0:
                n += e.value
                why.append(f"{e.value:+d} {self.card_name(e.source)} played against you")
        return max(n, 0), why, more, maybe

    def source_words(self, src) -> str:
        """A trait or a leader's skill as the diplomacy count names it: "High Culture (trait of Athens)",
        "Intrigue (Pericles' skill)"."""
        if src.kind == "skill":
            leader = self.state.units.get(src.unit or "")
            who = leader.name if leader is not None and leader.name else src.unit
            return f"{src.name} ({who}' skill)" if who and who.endswith("s") else f"{src.name} ({who}'s skill)"
        if src.kind == "trait":
            st, home = self.state, self.state.players[self.me].home
            where = home if src.id in st.players[self.me].traits else next(
                (cid for cid in sorted(st.controlled_cities(self.me)) if st.cities[cid].trait == src.id), None)
            if where in self.map.cities:
                return f"{src.name} (trait of {self.map.cities[where].name})"
            return f"{src.name} (trait)"
        return src.name

    @staticmethod
    def rolls_sum(n: int, why: list[str]) -> str:
        """The diplomacy rolls as a sum that adds up: "1 free +1 High Culture (trait of Athens) -1 Atrocities
        played against you = 1" (never below 0, as the Diplomacy phase counts them)."""
        total = " ".join(why)
        return f"{total} = {n}" + (" (never below 0)" if len(why) > 1 and n == 0 and "-" in total else "")

    def experience_possible(self) -> bool:
        """May the home city make its experience roll in this player-turn's Recruit phase (R-PH-REC), before the
        Diplomacy phase?  Only while the player controls it and it may recruit then: a last razed counter goes
        in the Revenue phase before; a siege may be lifted by players before you in turn order."""
        home = self.state.players[self.me].home
        if home not in self.state.cities:
            return False
        why = board.may_recruit(self.state, self.map, home, self.me)
        return why is None or (why == "it is razed" and self.state.cities[home].razed == 1
                               and not self.state.cities[home].hostile
                               and not board.under_siege(self.state, self.map, home)) or \
            (why == "it is under siege" and self.later == WARNING)

    def rolls_lost(self) -> int:
        """Diplomacy rolls the own-turn cards may take away before the rolls: the skills of your leaders they
        may remove (a leader named by Assassination, Exiled or Election; aboard a ship in a hex Storms names)."""
        st, lost = self.sim.state, set()
        for _, use in self.p.indexed("cards"):
            kinds = {e["kind"] for e in self.tables.cards[use.card].effects}
            if "leader_removed" in kinds and use.target in self.sim.units:
                lost.add(use.target)
            if "navigation_roll" in kinds and use.target in self.map.terrain:
                lost |= {u.id for u in st.units_at(use.target) if u.owner == self.me and u.carried_by is not None}
        leaders = [self.sim.units[u] for u in sorted(lost) if self.sim.units[u].type is UnitType.LEADER]
        return sum(int(e.get("value", 0)) for _, e in skill_effects(self.tables, leaders, "diplomacy_rolls")
                   if e.get("side", "own") == "own")

    def check_diplomacy(self) -> None:
        """R-PH-DIP, target by target as ``pbem.phases.diplomacy`` rolls them: a target that is no target uses no
        roll; the targets beyond the rolls are not rolled for."""
        st = self.state
        self.dip_targets: dict[str, int] = {}  # city -> the first diplomacy target naming it that may be rolled for
        won_by_card = {}
        for _, use in self.p.indexed("cards"):
            card = self.tables.cards[use.card]
            if use.target and any(e["kind"] == "control_city" for e in card.effects):
                won_by_card.setdefault(use.target, card.name)
        n, why, more, maybe = self.diplomacy_rolls()
        extra = sum(r for r, _, _ in maybe)  # rolls the trait of a city a card may win adds
        count = f"{n} diplomacy roll{'s' if n != 1 else ''}"

        def if_won() -> str:
            rolls, win, trait = maybe[0]
            return (f"{win.by} wins {self.map.cities[win.city].name} first (its {trait} gives "
                    f"{'one more roll' if rolls == 1 else f'{rolls} more rolls'})")
        # R-PH-DIP step 3, as the Diplomacy phase rolls: the ways the targets before may have gone, for each number
        # of rolls the findings below ask about: (rolls used, cities won).  A neutral or own hostile city a roll
        # before won is no target any more: a city named again is a second try that uses no roll then (an
        # enemy-controlled city stays a target: a success makes it revolt)
        lost = self.rolls_lost()
        ways: dict[int, set[tuple[int, frozenset]]] = {k: {(0, frozenset())} for k in {n + extra, n, n - lost}}
        # only a city named more than once needs its win remembered (a code review: remembering every win made the
        # ways grow as the subsets of the targets: 50 targets with 5 rolls took 3 s, 6 rolls some 35 s)
        named: list[str] = []
        for _, target in self.p.indexed("diplomacy"):
            c = self.map.cities.get(target) or self.map.find_city(target) if isinstance(target, str) else None
            named.append(c.id if c is not None else "")
        again_named = {cid for cid in named if cid and named.count(cid) > 1}

        def rolled(k: int, cid: str) -> tuple[bool, bool]:
            """(rolled for whatever the rolls before did, never rolled for) with ``k`` rolls."""
            go = [cid not in won and used < k for used, won in ways[k]]
            return all(go), not any(go)
        never_again: list[tuple[int, str]] = []  # cities named again that are never rolled for: (target, name)
        again_before = False  # a city named again before: its roll may be left over
        earlier: dict[str, int] = {}  # city -> the first target naming it that may be rolled for
        beyond: dict[str, int] = {}  # the words of a "rolled for only if" warning -> the first target given them
        for i, target in self.p.indexed("diplomacy"):
            path = ("diplomacy", i)
            before = len(self.findings)
            city = self.city(path, target)
            if city is None:
                continue
            c = st.cities[city.id]
            if c.home_of is not None:
                self.error(path, f"{city.name} is a home city: home cities are never diplomacy targets",
                           "target a neutral or enemy-controlled minor city, or a hostile city of yours")
                continue
            free = c.controller is None or c.hostile  # a success makes it no target: a second try is free then
            again = city.id in earlier and free and city.id not in won_by_card
            if again:
                first_at = earlier[city.id]
            if c.controller == self.me and not c.hostile:
                self.add(self.later, path, f"you control {city.name} and it is not hostile: a diplomacy roll "
                                           f"there does nothing",
                         "target a neutral or enemy-controlled minor city, or a hostile city of yours")
            elif city.id in won_by_card:
                self.warn(path, f"{won_by_card[city.id]} in cards wins {city.name} before the diplomacy rolls: "
                                f"this target then fails", "cards are played at the start of the Diplomacy phase")
            if any(f.severity == ERROR for f in self.findings[before:]):
                continue
            always, never = rolled(n + extra, city.id)
            if again:
                # a second try (R-PH-DIP step 3): rolled for only if the tries before failed, else it uses no
                # roll: a note (it may fail, and costs nothing); a warning only if no roll can be left for it
                if never and not more:
                    never_again.append((i, city.name))
                else:
                    won = "wins it" if c.controller is None else "ends its hostility"
                    self.add(NOTE, path, f"a second try for {city.name} (first at diplomacy[{first_at}]): rolled for "
                                         f"only if the tries before it fail; once one {won}, this target uses no "
                                         f"roll (R-PH-DIP)")
            elif never or not always:
                # R-PH-DIP: the targets beyond the rolls fail.  Sure only when the targets before use every roll
                # and nothing can add one before the Diplomacy phase; else it may still be rolled for
                sure = never and not more
                sums = self.rolls_sum(n, why) + (f"; {n + extra} if {if_won()}" if extra else "")
                if sure:
                    self.error(path, f"you have {count} this turn ({sums}), used by the targets before this one: "
                                     f"this target is never rolled for (targets beyond the rolls fail, R-PH-DIP)",
                               "cards like intrigue or bribes in cards: add rolls")
                    continue
                left = "a target before it fails" + (" (a city named again uses no roll once a roll before has "
                                                     "won it)" if again_before else "")
                gets = ("" if never else left + (" or " if more else "")) + \
                    (f"you get more rolls ({'; or '.join(more)})" if more else "")
                said = f"{'used' if never else 'which may be used'} by the targets before this one: this target " \
                       f"is rolled for only if {gets}"
                if said in beyond:  # the same words as a target before: said there whole (a mail review: eight
                    # targets beyond the rolls gave eight warnings of some 600 characters each)
                    self.warn(path, f"the same as diplomacy[{beyond[said]}] (see there): this target is rolled for "
                                    f"only if what is said there comes true")
                else:
                    beyond[said] = i
                    self.warn(path, f"you have {count} this turn as far as the checker knows ({sums}), {said}; "
                                    f"targets beyond the rolls fail (R-PH-DIP)",
                              "cards like intrigue or bribes in cards: add rolls")
            elif not rolled(n, city.id)[0]:
                self.warn(path, f"you have {count} this turn ({self.rolls_sum(n, why)}); this target is rolled for "
                                f"only if {if_won()}")
            elif not rolled(n - lost, city.id)[0]:
                self.warn(path, "the cards you play first may remove a leader of yours and a diplomacy roll with "
                                "it: then this target is not rolled for")
            earlier.setdefault(city.id, i)
            self.dip_targets.setdefault(city.id, i)
            again_before = again_before or again
            # a target with a finding may fail without a roll (a second try's note: the ways above say when)
            sure = all(f.severity == NOTE for f in self.findings[before:])
            for k, now in ways.items():
                ways[k] = set()
                for used, won in now:
                    if city.id in won or used >= k:
                        ways[k].add((used, won))
                        continue
                    ways[k].add((used + 1, won))  # the roll fails (or an enemy city revolts: still a target)
                    if free and city.id in again_named:
                        ways[k].add((used + 1, won | {city.id}))
                    if not sure:
                        ways[k].add((used, won))
                if len(ways[k]) > WAYS:  # beyond what any real file needs: the rolls used, no cities won (a
                    # target then counts as possibly rolled for: warnings, never a wrong error)
                    ways[k] = {(used, frozenset()) for used, _ in ways[k]}
        if never_again:
            (i, name), rest = never_again[0], never_again[1:]
            also = f" (and so is {', '.join(f'diplomacy[{j}] ({nm})' for j, nm in rest)})" if rest else ""
            self.warn(("diplomacy", i), f"{name} named again is a second try, rolled for only if the tries before "
                                        f"fail; but you have {count} this turn ({self.rolls_sum(n, why)}), all "
                                        f"used by then: this try is never rolled for{also}",
                      "naming a city again costs nothing (a try after a success uses no roll, R-PH-DIP); to try "
                      "more often, add rolls (cards like intrigue or bribes)")
            for j, nm in rest:
                self.add(NOTE, ("diplomacy", j), f"never rolled for, as diplomacy[{i}] (see there)")

    def cities_won_by_cards(self) -> dict[str, Win]:
        """Cities the own-turn cards win before the Diplomacy rolls (``pbem.cards``: a card is played if it is in
        the hand and its target fits; the first card naming a city wins it).  Sure when the card is in the hand,
        is not named by a discard list, its play has no finding, the city is neutral now and no player before
        you in turn order may take it first; else the ``unless`` says what it depends on."""
        st, out = self.state, {}
        standing = self.o.standing if self.o.standing is not None else \
            Standing.from_dict(st.players[self.me].standing)
        discards = {c for _, c in self.p.indexed("discard")} | set(standing.discard)
        for i, use in self.p.indexed("cards"):
            card = self.tables.cards[use.card]
            if not use.target or not any(e["kind"] == "control_city" for e in card.effects):
                continue
            city = self.map.cities.get(use.target) or self.map.find_city(use.target)
            if city is None or city.id in out or self.played.get(use.card) not in (f"cards[{i}]", f"cards[{i}].card"):
                continue  # not played (an error), or played elsewhere first
            c = st.cities[city.id]
            revolt = self.revolted_first(city.id, ("cards", i)) if c.controller not in (None, self.me) else None
            if revolt is not None and c.home_of is None:  # the card's own finding says how it may be
                out[city.id] = Win(city.id, f"{card.name} at cards[{i}]", False,
                                   f" (after {revolt} makes it revolt and go neutral)", card.name)
                continue
            if c.controller is not None or c.home_of is not None:
                continue  # the card's own finding says it
            if use.card not in self.hand:
                unless = " (it is played only if you draw it this turn)"
            elif use.card in discards:
                unless = " (your discard lists name it: it may be discarded at the Draw)"
            elif self.later == WARNING:
                unless = ", unless a player before you in turn order takes it first"
            elif self.card_findings.get(i):
                unless = " (see the findings of the card)"
            else:
                unless = ""
            out[city.id] = Win(city.id, f"{card.name} at cards[{i}]", not unless, unless, card.name)
        return out

    def revolted_first(self, cid: str, path: tuple) -> str | None:
        """The card of ``cards`` before ``path`` (``("cards", i)``) that makes the city ``cid`` revolt (a ``revolt``
        effect: Exact Tribute, Revolt...) and is played (no error), in words ("Exact Tribute at cards[0]"): own-turn
        cards are played in order, and a revolt is resolved when its card is played (``pbem.cards``,
        ``pbem.phases.diplomacy.revolt``), so a city it turns neutral is neutral for the cards after it."""
        if len(path) != 2 or path[0] != "cards":
            return None
        for k, use in self.p.indexed("cards"):
            if k >= path[1]:
                break
            card = self.tables.cards[use.card]
            city = (self.map.cities.get(use.target) or self.map.find_city(use.target)) if use.target else None
            if city is not None and city.id == cid and any(e["kind"] == "revolt" for e in card.effects) \
                    and self.played.get(use.card) in (f"cards[{k}]", f"cards[{k}].card"):
                return f"{card.name} at cards[{k}]"
        return None

    def cities_won_before_moves(self) -> dict[str, Win]:
        """Cities the player's own cards or diplomacy may win before the moves (then entering is legal)."""
        out = dict(self.card_wins)
        for i, t in self.p.indexed("diplomacy"):
            city = self.map.cities.get(t) or self.map.find_city(t)
            # only a neutral city comes under your control on a 6 (R-PH-DIP); another player's revolts, and goes
            # neutral at best (a new player landed beside Trojan Lemnos on the word "unless ... wins Lemnos")
            if city is not None and city.id not in out and self.state.cities[city.id].controller is None:
                out[city.id] = Win(city.id, f"your diplomacy roll at diplomacy[{i}]", False)
        return out

    def win_trait_rolls(self, win: Win) -> tuple[int, str]:
        """The diplomacy rolls the trait of a city won by a card adds (a trait the player holds already adds
        none, ``pbem.effects.held_traits``), and the trait's name."""
        tid = self.state.cities[win.city].trait
        if not tid or tid not in self.tables.traits or tid in held_traits(self.state, self.me):
            return 0, ""
        trait = self.tables.traits[tid]
        return sum(int(e.get("value", 0)) for e in trait.effects if e["kind"] == "diplomacy_rolls"
                   and e.get("side", "own") == "own" and int(e.get("value", 0)) > 0), trait.name

    def check_cards(self) -> None:
        for i, use in self.p.indexed("cards"):
            path = ("cards", i)
            card = self.tables.cards[use.card]
            if card.timing.get("phase") == "move":
                # a movement card in cards: it speeds up the move whose stack holds the named unit
                cpath = path + ("card",) if isinstance(self.raw(path), dict) else path
                if use.target is None:
                    self.error(cpath, f"{card.name} is a movement card: name a unit of the stack it speeds up",
                               f"write {{card: {card.id}, target: <unit id>}}, or put it in that move's cards")
                elif is_hex_id(use.target) and use.target not in self.map.terrain:
                    self.error(path + ("target",), f"{use.target} is not a hex of this map", self.map_size_hint())
                elif not is_hex_id(use.target) and use.target not in self.sim.units:
                    self.error(path + ("target",), f"{use.target} is not one of your units",
                               self.unknown_unit_hint(use.target) or "name a unit of the stack that moves, or the "
                                                                     "hex it starts from")
                else:
                    self.card_in_hand(cpath, use.card, "unless you draw it this turn, the move it speeds up fails")
                    self.move_cards.append((i, use))
                continue
            before, played = len(self.findings), dict(self.played)
            self.check_card(path, use, "cards")
            self.card_findings[i] = len(self.findings) > before
            if any(f.severity == ERROR for f in self.findings[before:]):
                self.played = played  # not played: it stays in the hand (R-TURN-4)
            elif len(self.findings) > before:
                self.maybe_played |= {c for c in self.played if c not in played}

    def check_treasure(self) -> None:
        """Cards played when you capture a city (Treasure), from cards: need a land attack on a city."""
        for i, use in self.p.indexed("cards"):
            card = self.tables.cards[use.card]
            if card.timing.get("trigger") == "city_captured" and not self.cities_attacked:
                self.warn(("cards", i), f"{card.name} is played only when you capture a city, and no land_battle "
                                        f"attack of yours is on an enemy or neutral city")

    # -- moves --------------------------------------------------------------------------------------
    def check_moves(self, section: str) -> None:
        self.moved: dict[str, int] = {}
        # own unit id -> (the last move of this section that leaves it aboard a ship, how it came aboard: "load",
        # "listed" (by id in units), "hex" (a hex id in units), "aboard" (it was aboard the ship already), the
        # move's last hex, the hex id its units name if any)
        self.carried_in: dict[str, tuple[tuple, str, str, str]] = {}
        self.disembarked: dict[str, int] = {}
        self.skip_dropped(section)
        for i, mv in self.p.indexed(section):
            before = len(self.findings)
            self.lasting_now: list[tuple[str, str, dict]] = []  # what ``allowance`` found for this move
            risk = self.attackers_named(mv) if section == "second_move" else None
            if section == "second_move" and self.moves_in:
                self.check_move_both_ways(i, mv)
            else:
                self.check_move(section, i, mv)
            if any(f.severity == ERROR for f in self.findings[before:]):
                # the units it names, those of its load: too (a skipped move takes no one aboard)
                for uid in self.listed_units(mv.units) + [x for x in mv.load if isinstance(x, str)]:
                    self.skipped.setdefault(uid, f"{section}[{i}]")
                self.skipped_end.setdefault(f"{section}[{i}]", mv.path[-1] if mv.path else None)
            elif risk is not None:
                self.warn_attackers_named(i, *risk)
            elif section == "first_move":  # Forced March, Marathon: "+2 this turn", into the Second Move too
                for uid, card, e in self.lasting_now:
                    self.lasting.setdefault(uid, []).append((card, e))
        if section == "second_move":
            for k, use in self.move_cards:
                if k not in self.move_cards_used:
                    self.error(("cards", k, "target") if isinstance(self.raw(("cards", k)), dict) else ("cards", k),
                               f"no move of yours takes {use.target} along this turn, so "
                               f"{self.tables.cards[use.card].name} is not played",
                               "name a unit of a stack that moves, or put the card in that move's cards")

    def attackers_named(self, mv: Move) -> tuple[list[str], list[str], str] | None:
        """The units a Second Move names by id (in units or load) that attack in a battle of this turn, the others it
        names (not carried by those), and the attackers' hex, as the battles leave the simulated state; None unless
        both are there."""
        named = list(dict.fromkeys(x for x in (*mv.units, *mv.load) if isinstance(x, str) and not is_hex_id(x)
                                   and x in self.sim.units))
        fighting = [u for u in named if u in self.attacking]
        aboard = {c for u in fighting for c in self.sim.cargo(u)}
        others = [u for u in named if u not in fighting and u not in aboard]
        if not fighting or not others:
            return None
        return fighting, others, self.sim.hex[fighting[0]]

    def warn_attackers_named(self, i: int, fighting: list[str], others: list[str], h: str) -> None:
        """R-BAT-3, R-TURN-4: the losers of a battle make casualty rolls, 1-4 destroying the unit; a Second Move
        naming a unit so destroyed fails whole, the units with it included (a new player's review: "ATH-A4 was
        destroyed ... (moving ATH-A4 ATH-L1)", the leader left on the beach).  Said as the Upkeep's risk is
        (``warn_upkeep_now``), at the order naming the attackers with others."""
        one = len(fighting) == 1
        attacks = " and ".join(dict.fromkeys(self.attacking[u] for u in fighting))
        self.warn(("second_move", i),
                  f"{', '.join(fighting)} {'attacks' if one else 'attack'} in {attacks}: if that attack is lost, "
                  f"{'it makes' if one else 'each makes'} a casualty roll (1-4 destroyed, 5 or more retreats), and "
                  f"this order names {'it' if one else 'them'}: if {'it is' if one else 'one is'} destroyed or "
                  f"retreats, the order fails whole, {', '.join(others)} included (R-TURN-4)",
                  f"give {', '.join(others)} an order of {'its' if len(others) == 1 else 'their'} own, or name the "
                  f"stack by its hex (\"{h}\"): a hex id moves the units there when the move is made")

    def skip_dropped(self, section: str) -> None:
        """The move orders of ``section`` whose own errors are found in the file's format (an unquoted hex id in
        the path, ``path: [1212]``) are left out of the orders (``pbem.orders.build``) and skipped (R-TURN-4): the
        units they name stay where they are, as those of an order with an error found here (``self.skipped``), so
        the findings they cause later say so (a new player's review: an attack from where that move would have
        taken its Army got an error that did not say it came of that one)."""
        raw = self.raw((section,))
        kept = self.p.kept.get((section,))
        if not isinstance(raw, list) or kept is None:
            return
        for i, entry in enumerate(raw):
            if i in kept or not isinstance(entry, dict):
                continue
            names = [entry.get("units")] if isinstance(entry.get("units"), str) else entry.get("units") or []
            load = entry.get("load") if isinstance(entry.get("load"), list) else []
            named = [x for x in (*names, *load) if isinstance(x, str)]
            for uid in self.listed_units([x for x in named if is_hex_id(x) or x in self.sim.units]):
                self.skipped.setdefault(uid, f"{section}[{i}]")
            path = entry.get("path") if isinstance(entry.get("path"), list) else []
            end = path[-1] if path else None
            if isinstance(end, int) and not isinstance(end, bool) and 1000 <= end <= 9999:
                end = str(end)  # path: [1212]: YAML read the hex id as a number (its format error says so)
            self.skipped_end.setdefault(f"{section}[{i}]", end if isinstance(end, str) else None)

    def check_move_both_ways(self, i: int, mv: Move) -> None:
        """A Second Move naming a unit a land attack of the file may move into the city it takes (R-BAT-4,
        ``note_mover_in``), by id or by the hex it stands in or may stand in: checked as if the attack fails (the
        units where they are: the checker's way) and as if it wins (the unit in the city).  A finding of one
        outcome only is a warning that says which (a new player's review: `units: [CRE-A1], path: ["1519"]` back
        from Knossos, and `units: ["1618"]`, were refused as errors, though both hold if the attack wins)."""
        named = set(self.listed_units(mv.units)) | {x for x in mv.load if isinstance(x, str)}
        movers = {u: w for u, w in self.moves_in.items()
                  if u in self.sim.units and (u in named or self.sim.hex[u] in mv.units or w[0] in mv.units)}
        if not movers:
            self.check_move("second_move", i, mv)
            return
        # as if the attacks win, on a copy of everything ``check_move`` changes; then restored
        keep = {k: containers_copy(v) for k, v in vars(self).items()
                if k not in ("findings", "sim", "state", "map", "tables", "p", "o")}
        where = {u: (x.hex, x.carried_by) for u, x in self.sim.units.items()}
        first = len(self.findings)
        for u, (h, _, _) in movers.items():
            self.sim.carrier[u] = None
            self.sim.hex[u] = h
            for c in self.sim.cargo(u):
                self.sim.hex[c] = h
        self.check_move("second_move", i, mv)
        if_won = self.findings[first:]
        del self.findings[first:]
        vars(self).update(keep)
        for u, (h, c) in where.items():
            if self.sim.hex[u] != h:
                self.sim.hex[u] = h
            self.sim.carrier[u] = c
        self.check_move("second_move", i, mv)
        if_lost = self.findings[first:]
        won_errors = [f for f in if_won if f.severity == ERROR]
        lost_errors = [f for f in if_lost if f.severity == ERROR]
        attacks = " and ".join(dict.fromkeys(w[1] for w in movers.values()))
        moving = "; ".join(f"{u} moves into {name} by itself" for u, (_, _, name) in movers.items())
        if lost_errors and not won_errors:
            for k in range(first, len(self.findings)):
                f = self.findings[k]
                if f.severity == ERROR:
                    self.findings[k] = replace(f, severity=WARNING, message=f"unless your attack at {attacks} takes "
                                                                            f"the city: {f.message}",
                                               hint=f"if it takes it, {moving} (R-BAT-4), and this holds"
                                               + (f"; {f.hint}" if f.hint else ""))
        elif won_errors and not lost_errors:
            f = won_errors[0]
            self.findings.append(replace(f, severity=WARNING, message=f"if your attack at {attacks} takes the city, "
                                                                      f"{moving} (R-BAT-4), and then: {f.message}"))

    def listed_units(self, names: Iterable[str]) -> list[str]:
        """The player's unit ids a ``units`` list names: ids as written, hex ids as the units there now."""
        out: list[str] = []
        for x in names:
            out += self.sim.at(x) if is_hex_id(x) else [x]
        return out

    def check_move(self, section: str, i: int, mv: Move) -> None:
        """One move order, as ``pbem.phases.move`` carries it out (R-PH-MOVE): its units, boarding and carrying
        (``gather``), movement points (``movement_allowance``), each hex of the path (``step_problems``) and
        stacking at the end (``stack_at``) are the adjudicator's own rules, asked against the simulated state;
        the checker adds where in the file each finding is, its words and a hint."""
        m, sim = self.map, self.sim
        base = (section, i)
        first = len(self.findings)
        if self.cannot_move:
            e = self.cannot_move[0]
            self.warn(base, f"{self.card_name(e.source)} was played on you: your units may not move or attack "
                            f"this turn")
        ids = self.units_list(base + ("units",), mv.units)
        if not ids:
            return
        near = self.stack_hex(mv.units)
        recruits: list[tuple[tuple, str]] = []
        for k, uid in enumerate(mv.load):
            self.unit(base + ("load", k), uid, near, recruits)
        self.warn_recruits(recruits)
        # what the file says about each unit, all of it (``gather`` below stops at the first)
        for uid in ids:
            if uid in self.disembarked:
                self.refused(base, mv, Refusal("", "landed", uid), section)
            elif uid in self.moved:
                self.refused(base, mv, Refusal("", "moved", uid), section)
        if len({sim.hex[u] for u in ids}) > 1:
            self.refused(base, mv, Refusal("", "two_hexes"), section)
        if any(f.severity == ERROR for f in self.findings[first:]):
            return  # the order is skipped (R-TURN-4)
        g = gather(sim.state, m, self.me, mv, self.moved, self.disembarked)
        if isinstance(g, Refusal):
            self.refused(base, mv, g, section)
            return
        start, sea = g.start, g.sea
        self.warn_boarding_by_hex(base, mv, g)
        points, why = self.allowance(g, mv, base)
        # the path: every problem of each hex; with partial: true the move stops before the first one
        prev, cost = start, 0
        path_ok = True
        reached: list[str] = []  # the hexes of the path the stack enters, as far as it goes
        # a move of an earlier phase with an error is skipped (R-TURN-4): its units set out from where they are
        # now, and an error at the first hex is most likely that one's knock-on; say so
        knock_on = next((f"{self.skipped[u]}, which would move {u}, has an error: it is skipped and {u} stays in "
                         f"{start}" for u in sorted_ids(g.group)  # a set: in id order, the same every run
                         if u in self.skipped and not self.skipped[u].startswith(section + "[")), None)
        for k, h in enumerate(mv.path):
            p = base + ("path", k)
            problems, cost = self.step(section, prev, h, sea, cost, points, why, g.captures)
            if k == 0 and knock_on:
                problems = [(sev, msg, hint if sev != ERROR else knock_on if hint is None or hint.startswith(
                    "neighbours of") else f"{knock_on}; {hint}") for sev, msg, hint in problems]
            stops = [x for x in problems if x[0] == ERROR or self.blocks([x])]
            if mv.partial and stops:
                sev, msg, hint = stops[0]
                if k == 0:
                    self.add(sev, p, f"{msg}; the stack cannot move at all", hint)
                    path_ok = sev != ERROR
                else:
                    self.warn(p, msg, self.partial_stop(section, prev, sea))
                break
            for sev, msg, hint in problems:
                self.add(sev, p, msg, hint)
                path_ok = path_ok and sev != ERROR
            if h not in self.map.terrain:
                break
            prev = h
            reached.append(h)
        end = prev
        if not mv.path and not mv.load and not mv.unload:
            self.warn(base, "this move has no path, load or unload: it does nothing")
        # stacking at the end (R-UNIT-2); with partial: true the stack stops at the last hex reached where it fits
        # (``pbem.phases.move``), before the unload
        if path_ok:
            end, path_ok = self.check_stacking(base, mv, g, end, reached, section)
            reached = reached[:reached.index(end) + 1] if end in reached else []
        # unload in the last hex (the ships docked or beached there)
        unloaded = list(g.unload)
        if g.unload and sea and path_ok and not m.ship_may_stop(end):
            unloaded = []
            sev = WARNING if mv.partial else ERROR
            for k, uid in enumerate(mv.unload):
                self.add(sev, base + ("unload", k), f"{end} is {m.terrain[end].name}: units go ashore only where "
                                                    f"ships dock or beach (a coastal City, Sandy Coast or Fishing "
                                                    f"Village hex)")
        # where the orders leave the units (an order with an error is skipped whole, R-TURN-4), as
        # ``pbem.phases.move.move`` leaves them (captures are not foreseen)
        if any(f.severity == ERROR for f in self.findings[first:]):
            return
        for u in g.members:  # where an Army or Rowers left aboard came from (``aboard_hint``)
            if not u.type.is_ship and g.carrier.get(u.id) is not None and u.id not in unloaded:
                how = "load" if u.id in mv.load else "listed" if u.id in mv.units else \
                    "hex" if u in g.to_board else "aboard"
                named = next((x for x in mv.units if is_hex_id(x)), "")
                self.carried_in[u.id] = (base, how, end, named)
        for x, c in g.carrier.items():
            if x in sim.units:
                sim.carrier[x] = c
        for u in g.members:
            if u.id in sim.units:
                sim.hex[u.id] = end
                if u.type.is_ship:  # where a navigation warning about it goes (``warn_navigation``)
                    self.ship_moves[u.id] = base + (("path", len(reached) - 1) if reached else ())
        for uid in unloaded:
            sim.carrier[uid] = None
            self.disembarked[uid] = i
        for uid in g.group:
            self.moved.setdefault(uid, i)
        for u in g.members:  # where a supply warning about it goes (``warn_out_of_supply``): its last move
            if u.id in sim.units and (mv.path or u.id in unloaded):
                self.last_moves[u.id] = base + (("path", len(reached) - 1) if reached else ("path", 0) if mv.path
                                                else ("unload",))

    def check_stacking(self, base: tuple, mv: Move, g: Stack, end: str, reached: list[str],
                       section: str) -> tuple[str, bool]:
        """R-UNIT-2 at the end of a move: the stacking limit of ``end``.  With partial: true the stack stops at the
        last hex of ``reached`` where it fits (``pbem.phases.move``), and the order fails if there is none.
        Returns where the move ends and whether it is carried out."""
        m, sim = self.map, self.sim
        n, limit = stack_at(sim.state, m, self.me, g, end), board.stack_limit(m, end)
        if n > limit:
            last = base + (("path", len(reached) - 1) if reached else ("path", 0) if mv.path else ("unload",)
                           if mv.unload else ("units",))
            # units an order with an error would have taken out of the hex stay (R-TURN-4): say so, as the
            # other knock-on findings do (a new player's ships leaving 1313 had an error of their own)
            stay = [u for u in sim.at(end) if u in self.skipped and u not in g.group
                    and sim.carrier[u] is None and sim.units[u].type.counts_for_stacking]
            hint = "Leaders, Baggage and a Fleet's Rowers do not count; an Army aboard a Transport does"
            cause = ""
            if stay:
                order = self.skipped[stay[0]]
                ids = [u for u in stay if self.skipped[u] == order]
                hint = (f"{order}, which would move {', '.join(ids)} out of {end}, has an error: it is skipped "
                        f"and {'it stays' if len(ids) == 1 else 'they stay'} in {end}; {hint}")
                # said in the message too when those orders' errors alone make it (a new player's review: he
                # mended the stacking error, not the one above it that caused it)
                if n - len(stay) <= limit:
                    orders = list(dict.fromkeys(self.skipped[u] for u in stay))
                    cause = (f", only because {' and '.join(orders)} above {'has' if len(orders) == 1 else 'have'}"
                             f" an error and {'is' if len(orders) == 1 else 'are'} skipped, so "
                             f"{', '.join(stay)} {'stays' if len(stay) == 1 else 'stay'} there: mend "
                             f"{'that error' if len(orders) == 1 else 'those errors'} first")
            stop = next((h for h in reversed(reached[:-1])
                         if stack_at(sim.state, m, self.me, g, h) <= board.stack_limit(m, h)), None)
            if mv.partial and stop is not None:
                hint = f"{self.partial_stop(section, stop, g.sea, 'the last hex of the path where it fits')}; {hint}"
            elif mv.partial:
                hint = f"with partial: true the move stops at the last hex of the path where the stack fits, and " \
                       f"there is none: the order fails; {hint}"
            self.add(WARNING if mv.partial and stop is not None else ERROR, last,
                     f"{n} of your Armies, Fleets and Transports would stand in {end} "
                     f"({m.terrain[end].name}); the stacking limit there is {limit}{cause}", hint)
            return (stop, True) if mv.partial and stop is not None else (end, False)
        return end, True

    def warn_boarding_by_hex(self, base: tuple, mv: Move, g: Stack) -> None:
        """A hex id in a ship move's units names every unit of the player's there (not aboard a ship): its Armies
        and Rowers go aboard the moving ships (``gather``), which a player listing "the ships in 2315" may not
        mean (a player's Army sailed off that way and could not attack).  Those named in load or unload are
        meant."""
        hexes = [(k, x) for k, x in enumerate(mv.units) if is_hex_id(x)]
        if not g.sea or not hexes:
            return
        took = [u.id for u in g.to_board if u.type in (UnitType.ARMY, UnitType.ROWERS) and u.id not in mv.units
                and u.id not in mv.load and u.id not in mv.unload]
        if not took:
            return
        k, h = hexes[0]
        ships = [u.id for u in g.units if u.type.is_ship]
        self.warn(base + ("units", k), f'"{h}" in units moves every unit of yours in {h}: {", ".join(took)} '
                                       f'{"goes" if len(took) == 1 else "go"} aboard the moving ships and '
                                       f'{"sails" if len(took) == 1 else "sail"} with them',
                  f"to leave {'it' if len(took) == 1 else 'them'} ashore, list the ships by id (units: "
                  f"[{', '.join(ships)}]); to take {'it' if len(took) == 1 else 'them'} along, name "
                  f"{'it' if len(took) == 1 else 'them'} in load: [{', '.join(took)}]")

    def aboard_hint(self, uid: str, carrier: str) -> str:
        """How to put an Army or Rowers aboard a ship ashore before the Land Battle: the first move that left it
        aboard, and how it came aboard; else a move of its ship with unload."""
        m, sim = self.map, self.sim
        docks = "units go ashore only where the ship is docked or beached (a coastal City, Sandy Coast or Fishing " \
                "Village hex)"
        rec = self.carried_in.get(uid)
        if rec is None:
            h = sim.hex[uid]
            if m.ship_may_stop(h):
                return f"put it ashore first: a first_move {{units: [{carrier}], unload: [{uid}]}} lands it in {h}"
            return f"{h} is {m.terrain[h].name}: move {carrier} in first_move to a hex next to the target where it " \
                   f"docks or beaches and add unload: [{uid}] to that move ({docks})"
        base, how, end, h = rec
        where = json_path(base)
        land = (f"add unload: [{uid}] to {where} to put it ashore in {end}" if m.ship_may_stop(end) else
                f"{where} leaves it aboard in {end} ({m.terrain[end].name}), and {docks}: end that move in one "
                f"and add unload: [{uid}]")
        if how == "hex":
            return (f'{where} names the hex "{h}" in units, which takes every Army and Rowers of yours there '
                    f"aboard the departing ships, {uid} too: list the ships by id in {where} to leave it ashore"
                    + (f"; or {land}" if m.ship_may_stop(end) else ""))
        return (f"{where} carries it aboard {carrier}: " + land) if m.ship_may_stop(end) else land

    def warn_navigation(self) -> None:
        """R-PH-SECOND, as a heads-up: every Fleet and Transport of the player that the orders leave out of a City,
        Sandy Coast or Fishing Village hex after the Second Move makes a navigation roll, as
        ``pbem.phases.move.navigation`` picks them: moved there by either move, or left there.  The numbers that
        sink it count the modifiers the player knows of (``battle.roll_modifiers``: traits such as Sea Worthy, the
        skills of leaders in the ship's hex); a card played later may add more."""
        sim, m = self.sim, self.map
        ctx = SimpleNamespace(state=sim.state, tables=self.tables)
        said: dict[tuple, list[str]] = {}  # (where in the file, hex, the roll's words) -> ships
        for uid in sorted_ids(sim.units):
            u = sim.units[uid]
            if not u.type.is_ship or u.carried_by is not None or u.away_until is not None or m.ship_may_stop(u.hex):
                continue
            mods = battle.roll_modifiers(ctx, battle.Situation(self.me, [u]), u, ("navigation",))
            said.setdefault((self.ship_moves.get(uid, ()), u.hex, self.sinks(mods)), []).append(uid)
        for (path, h, sinks), ships in said.items():
            one = len(ships) == 1
            self.warn(path, f"{', '.join(ships)} end{'s' if one else ''} the turn at sea in {h}: "
                            f"{'it makes' if one else 'each makes'} a navigation roll ({sinks})",
                      "end in a coastal City, Sandy Coast or Fishing Village hex (R-PH-SECOND)")

    @staticmethod
    def sinks(mods: list[tuple[str, int]]) -> str:
        """The navigation rolls that sink a ship: 1D6 plus ``mods``, 5 or more (``pbem.phases.move.navigation``)."""
        low = 5 - sum(v for _, v in mods)
        known = "; ".join(f"{src} {v:+d}" for src, v in mods)
        with_ = f", counting {known}" if known else ""
        if low > 6:
            return f"none sinks it{with_}"
        if low <= 1:
            return f"any roll sinks it{with_}"
        return f"{low if low == 6 else f'{low}-6'} sinks it{with_}"

    def upkeep_now(self) -> tuple[dict[str, tuple[Unit, str]], dict[str, tuple[str, int]]]:
        """This turn's Upkeep as ``pbem.phases.upkeep.resolve`` will make it, from the position as the turn starts
        (what the Upkeep phase sees; players before this one in turn order may change it): the units in payment
        order (``upkeep_phase.priority``: this file's upkeep list, the standing one, the rest by id), each paid
        if in supply and the gold (now plus about this turn's revenue) lasts, else fed the Baggage of its stack
        the phase picks (``stack_baggage``), else rolling.  Returns ({Baggage id: (the unit it feeds, why that unit
        is not paid)}, {unit id that rolls: (why it is not paid, the lowest total of the die that disbands it)}); the
        reasons in the words of the upkeep records."""
        st, me = self.state, self.me
        ctx = SimpleNamespace(state=st, game_map=self.map, player=me, tables=self.tables)
        units = {u.id: u for u in st.units_of(me) if u.type.needs_upkeep and u.away_until is None}
        standing = self.o.standing if self.o.standing is not None else Standing.from_dict(st.players[me].standing)
        order: dict[str, Unit] = {}
        for uid in (*self.o.upkeep, *standing.upkeep):
            if isinstance(uid, str) and uid in units:
                order.setdefault(uid, units[uid])
        ordered = [*order.values(), *(units[uid] for uid in sorted_ids(units) if uid not in order)]
        gold = st.players[me].gold + self.income()[0]
        cities, friendly = st.controlled_cities(me), {}
        why: dict[str, str | None] = {}
        bags_at: dict[str, list[Unit]] = {}
        fed: dict[str, tuple[Unit, str]] = {}
        rolls: dict[str, tuple[str, int]] = {}
        for u in ordered:
            h = u.hex
            if h not in why:
                why[h] = upkeep_phase.why_unsupplied(ctx, h, cities, friendly)
            reason = why[h]
            cost = UPKEEP_COST[u.type] * u.value
            if reason is None:
                if gold >= cost:
                    gold -= cost
                    continue
                reason = "not enough gold to pay it after your Revenue"
            if h not in bags_at:
                bags_at[h] = upkeep_phase.player_baggage(st, h, me)
            bag = upkeep_phase.stack_baggage(u, bags_at[h]) if bags_at[h] else None
            if bag is not None:
                bags_at[h].remove(bag)
                fed[bag.id] = (u, reason)
                continue
            rolls[u.id] = (reason, upkeep_phase.DISBANDS_AT - sum(m["value"] for m in
                                                                   upkeep_phase.upkeep_modifiers(ctx, u)))
        return fed, rolls

    @staticmethod
    def disband_words(low: int) -> str:
        return "it disbands whatever the die" if low <= 1 else "a 6 disbands it" if low == 6 else \
            f"{low}-6 disbands it" if low < 6 else "it cannot disband, but takes a starvation counter"

    def warn_upkeep_now(self) -> None:
        """R-PH-UPK, R-TURN-4: this turn's Upkeep comes before the moves and battles (``upkeep_now``).  An Army or
        Rowers that makes the upkeep roll then may disband: every order naming it fails whole, the units with it
        included; said at each such order that names other units too (a new player's review: an attack and a
        Transport's voyage were lost so, with no word).  A Baggage that feeds a unit then is gone before the
        moves: every move naming it fails whole (a new player's review: a first move of an Army with the Baggage
        the Upkeep had just used up failed, and the checker had said OK).  The units that roll are said at the
        end (``note_rolls_now``), those no order names."""
        st = self.state  # as the turn starts: what the Upkeep phase sees
        fed, rolls = self.upkeep_now()
        self.eaten = set(fed)  # Baggage this Upkeep uses up (``warn_out_of_supply`` counts without it)
        self.rolls_now = dict(rolls)  # said by ``note_rolls_now`` unless a warning says them first
        risk = {uid: self.disband_words(low) for uid, (_, low) in rolls.items() if low <= 6}
        for section in ("first_move", "sea_battle", "land_battle", "second_move"):
            for i, order in self.p.indexed(section):
                # the units the order names, as the adjudicator reads them (a hex id: the stack there)
                ids = [x for x in expand_units(st, self.me, (*order.units, *getattr(order, "load", ())))
                       if x in st.units and st.units[x].owner == self.me]
                hit = [x for x in ids if x in risk]
                for x in ids:  # named by an order: said there if at all (tests/test_fogsup_checker.py)
                    self.rolls_now.pop(x, None)
                if hit and len(ids) >= 2:  # a unit alone in its order: its loss takes nothing else with it
                    words = "; ".join(f"{x} in {st.units[x].hex}: {risk[x]}" for x in hit)
                    self.warn((section, i), f"{', '.join(hit)} {'stands' if len(hit) == 1 else 'stand'} out of "
                                            f"supply without Baggage for each, so at this turn's Upkeep, before your "
                                            f"moves, {'it makes' if len(hit) == 1 else 'each makes'} an upkeep roll "
                                            f"({words}): if one disbands, this order fails whole, the units with it "
                                            f"included",
                              "give the units at risk an order of their own, or keep Baggage with them (R-PH-UPK, "
                              "R-TURN-4)")
                # Baggage named by id (a hex id means the stack there when the move is made: the used-up Baggage
                # is no longer in it)
                named = [x for x in (*order.units, *getattr(order, "load", ()), *getattr(order, "unload", ()))
                         if isinstance(x, str) and not is_hex_id(x)]
                gone = [x for x in dict.fromkeys(named) if x in fed]
                if not gone or section not in ("first_move", "second_move"):
                    continue
                feeds = "; ".join(f"{b} feeds {fed[b][0].id}, which is not paid in {fed[b][0].hex}: {fed[b][1]}"
                                  for b in gone)
                it = "it" if len(gone) == 1 else "them"
                others = f", the units with {it} included" if set(named) - set(gone) else ""
                self.warn((section, i), f"{', '.join(gone)} {'is' if it == 'it' else 'are'} used up at this turn's "
                                        f"Upkeep, before your moves ({feeds}): this order names {it}, so it fails "
                                        f"whole{others}",
                          f"leave {', '.join(gone)} out of this order: only Baggage that feeds no one at the Upkeep "
                          f"is still there to move (R-PH-UPK, R-TURN-4)")

    def note_rolls_now(self) -> None:
        """The units that make an upkeep roll at this turn's Upkeep (``upkeep_now``), before the moves, that no
        order of the file names and the end-of-turn supply warning does not name: a note per hex (a new player's
        review: an Army on a beach without Baggage rolled and took a starvation counter, though the Second Move
        brought Baggage there; nothing had said that only the Baggage there when the turn begins feeds a unit at
        this Upkeep).  A unit an order names is said at that order if its loss takes others with it
        (``warn_upkeep_now``), else not at all (tests/test_fogsup_checker.py: a unit moved home, or alone in its
        order).  A note: the file cannot change the roll."""
        st = self.state
        by_hex: dict[str, list[str]] = {}
        for uid in sorted_ids(self.rolls_now):
            if uid not in self.unfed_said:
                by_hex.setdefault(st.units[uid].hex, []).append(uid)
        for h, ids in by_hex.items():
            one = len(ids) == 1
            reasons = list(dict.fromkeys(self.rolls_now[x][0] for x in ids))
            odds = "; ".join(f"{x}: {self.disband_words(self.rolls_now[x][1])}" for x in ids)
            self.add(NOTE, (), f"{', '.join(ids)} in {h} {'makes' if one else 'each make'} an upkeep roll at this "
                               f"turn's Upkeep, before your moves ({'; '.join(reasons)}; no Baggage there for "
                               f"{'it' if one else 'each'}): {odds}; 1-5 adds a starvation counter",
                     "only Baggage in the hex when your turn begins feeds a unit at this Upkeep: Baggage your moves "
                     "bring comes too late for it (R-PH-UPK)")

    def warn_out_of_supply(self) -> None:
        """R-PH-UPK, as a heads-up: every Army and Rowers of the player (aboard a ship or not) that the turn leaves
        with no friendly city in or next to its hex and no Baggage there for each makes an upkeep roll at the next
        Upkeep.  Those the orders move or carry, by the first move or the second, are said at the last move order
        that takes any of them there (a new player's Rowers aboard a Fleet left on a beach by a first move starved
        two turns later with no word: only second moves were looked at); those no order moves (an Army left on a
        beach or in enemy land by an earlier turn's orders) are said for the file as a whole, as they starve at
        the next Upkeep all the same (a review: they were said only when the orders that took them there were
        checked, and starved unwarned turns later).  Said once per hex (the Baggage there feeds any of them)."""
        st, sim = self.sim.state, self.sim
        ctx = SimpleNamespace(state=st, game_map=self.map, player=self.me)
        # a city a card in hand wins for sure feeds them; one the file may win (a card that may fail, a diplomacy
        # roll, a land attack) is said as a condition
        sure = [c for c, w in self.card_wins.items() if w.sure]
        cities = st.controlled_cities(self.me) + [c for c in sure if c not in st.controlled_cities(self.me)]
        friendly = {c: st.cities[c].razed == 0 for c in sure}
        maybe = {c: w.by for c, w in self.gains.items() if not w.sure}
        sacked = {self.map.city_at[a.target].id for _, a in self.p.indexed("land_battle")
                  if (a.plunder or a.destroy) and a.target in self.map.city_at}  # razed once taken: feeds no one
        for c in sorted(self.cities_attacked - sacked):
            maybe.setdefault(c, f"your attack at land_battle[{self.land_targets[self.map.cities[c].hex]}]")
        by_hex: dict[str, list[Unit]] = {}
        for uid in sorted_ids(sim.units):
            u = sim.units[uid]
            # units this file recruits stand in a city of the player's (the recruit entry says what is wrong there)
            if u.type.needs_upkeep and u.away_until is None and uid not in self.predicted \
                    and not self.fed_by_the_win(u, maybe):
                by_hex.setdefault(u.hex, []).append(u)
        for h, eaters in by_hex.items():
            # the Upkeep phase's own reason, asked against the simulated state (a city of the player's that is
            # besieged or razed feeds no one: it says which)
            problem = upkeep_phase.supply_problem(ctx, h, cities, friendly)
            if problem is None:
                continue
            bags = sum(1 for uid in sim.at(h) if sim.units[uid].type is UnitType.BAGGAGE and uid not in self.eaten)
            if bags >= len(eaters):
                continue
            feeders = [c for c in maybe if h in self.map.around_city[c] and st.cities[c].razed == 0]
            unless = "" if not feeders else f", unless {maybe[feeders[0]]} wins {self.map.cities[feeders[0]].name} " \
                                            f"for you"
            moved = [u for u in eaters if u.id in self.last_moves]
            stayed = [u for u in eaters if u.id not in self.last_moves]
            if moved:
                moves = [self.last_moves[u.id] for u in moved]
                path = max(moves, key=lambda p: (p[0] == "second_move", p[1]))
                self.warn_unfed(path, h, moved, problem, bags, unless, stayed)
            else:
                self.warn_unfed((), h, stayed, problem, bags, unless, nearest=self.nearest_feeder(h, cities, friendly))

    def fed_by_the_win(self, u: Unit, maybe: dict[str, str]) -> bool:
        """Is ``u`` taken by its last move into, or past and next to, a city of ``maybe`` (one the file may win: by
        a card, a diplomacy roll or a land attack that does not plunder it) that the move may enter only once it is
        won (``foreign_city``), and left in or next to it?  Then the move is made only if the city is the player's,
        and the city feeds it (R-PH-UPK); if not, the move is skipped whole and the units stay where they were: a
        warning that it ends the turn unfed "unless" the city is won cannot come true (a new player's review: "may
        enter it only if the attack ... captures it" and "ends the turn in 1416 with no friendly city ..., unless
        your attack ... wins Melos" on one move).  Not with ``partial: true``: that move stops short instead."""
        where = self.last_moves.get(u.id)
        if where is None or where[2:3] != ("path",):
            return False
        mv = dict(self.p.indexed(where[0])).get(where[1])
        if mv is None or mv.partial:  # partial: true stops short of a city it may not enter, and there it may starve
            return False
        for x in mv.path[:where[3] + 1]:
            city = self.map.city_at.get(x)
            if city is not None and city.id in maybe and self.state.cities[city.id].controller != self.me \
                    and u.hex in self.map.around_city[city.id]:
                return True
        return False

    def warn_capturable(self) -> None:
        """R-UNIT-3: Leaders, Baggage, Transports and unmanned Fleets with no combat unit of their own in the hex
        (an Army or Rowers, on land or aboard a Transport; a manned Fleet) are captured by an enemy Army, Rowers or
        manned Fleet that enters it (``movement.capture_hex``).  Warned where the turn leaves them on land outside
        a city (no enemy may enter a city of yours, R-PH-MOVE) next to an enemy Army or Rowers on land the player
        sees: every other player moves before this player's next moves, those after in turn order this very
        turn (a new player lost two Transports left on a beach beside enemy Armies).  Only what this file leaves
        so: units it moves there, or whose Armies, Rowers or manned Fleets it moves away."""
        st, sim, m = self.sim.state, self.sim, self.map
        order = [p for p in st.turn_order if st.players[p].eliminated_turn is None]
        by_hex: dict[str, list[str]] = {}
        for uid in sorted_ids(sim.units):
            u = sim.units[uid]
            if u.away_until is None and u.carried_by is None and uid in st.units:
                by_hex.setdefault(u.hex, []).append(uid)
        for h, tops in sorted(by_hex.items()):
            if h not in m.terrain or not land_ok(m, h) or h in m.city_at:
                continue
            if any(board.is_combat_unit(st, u) for u in st.units_at(h) if u.owner == self.me):
                continue
            # left so by this file: moved there, or the Armies, Rowers or manned Fleets with them moved away (units
            # alone there already are where earlier orders left them: tests/test_every_card.py's leader)
            left = [u.id for u in self.state.units_at(h) if u.owner == self.me and u.id in sim.units
                    and board.is_combat_unit(self.state, u) and sim.hex[u.id] != h]
            if not left and not any(u in self.last_moves for u in tops):
                continue
            armies: dict[str, list[str]] = {}  # enemy player -> hexes of their Armies or Rowers beside it
            for n in m.neighbours[h]:
                if n not in self.seen:
                    continue
                for e in st.units_at(n):
                    if e.owner not in order or e.owner == self.me or e.carried_by is not None or \
                            e.type not in (UnitType.ARMY, UnitType.ROWERS) or not land_ok(m, n):
                        continue
                    if n not in armies.setdefault(e.owner, []):
                        armies[e.owner].append(n)
            if not armies:
                continue
            mine = order.index(self.me) if self.me in order else len(order)
            when = "; ".join(f"{p} in {', '.join(sorted(hs))} ("
                             + ("moves after you this turn" if order.index(p) > mine else
                                "moves again before your next moves") + ")"
                             for p, hs in sorted(armies.items()))
            names = ", ".join(tops)
            moved = [self.last_moves[u] for u in tops if u in self.last_moves]
            path = max(moved, key=lambda p: (p[0] == "second_move", p[1])) if moved else ()
            self.warn(path, f"{names} end{'s' if len(tops) == 1 else ''} the turn in {h} with no Army, Rowers or "
                            f"manned Fleet of yours, next to enemy Armies: {when}; an enemy Army, Rowers or manned "
                            f"Fleet that enters {h} captures {'it' if len(tops) == 1 else 'them'} (R-UNIT-3)",
                      f"leave an Army or Rowers with {'it' if len(tops) == 1 else 'them'}, or take "
                      f"{'it' if len(tops) == 1 else 'them'} away: into a city of yours, or out of reach")

    def skipped_move(self, uid: str) -> str | None:
        """The move order with an error (skipped, R-TURN-4) that would have moved ``uid``: one naming it (in
        units or load), or the ship it is aboard; None if no such order names it."""
        seen: set[str] = set()
        x: str | None = uid
        while x is not None and x not in seen and x in self.sim.units:
            if x in self.skipped:
                return self.skipped[x]
            seen.add(x)
            x = self.sim.units[x].carried_by
        return None

    def stay_words(self, units: list[Unit], verb: str, end: str | None = None) -> str:
        """``units`` left where they stand, with why: no order of the file moves them, or the order that would has
        an error and is skipped (a new player's review: "which no order of this file moves" was said of units whose
        move had an error).  ``verb``: "stays" or "already stands" (made plural here), followed by "in ``end``"."""
        ids = [u.id for u in units]
        verb = verb if len(ids) == 1 else {"stays": "stay", "already stands": "already stand"}[verb]
        verb += f" in {end}" if end else ""
        by_order: dict[str | None, list[str]] = {}
        for uid in ids:
            by_order.setdefault(self.skipped_move(uid), []).append(uid)
        if list(by_order) == [None]:  # "where ATH-A2 already stands": a move's warning needs no more
            return f"{', '.join(ids)}, which no order of this file moves, {verb}" if end else f"{', '.join(ids)} {verb}"
        whole = len(by_order) == 1
        said = []
        for order, these in by_order.items():
            them = ("it" if len(these) == 1 else "them") if whole else ", ".join(these)
            said.append(f"no order of this file moves {them}" if order is None else
                        f"{order}, which would move {them}, has an error and is skipped: see there")
        return f"{', '.join(ids)} {verb} ({'; '.join(said)})"

    def nearest_feeder(self, h: str, cities: list[str], friendly: dict[str, bool]) -> str | None:
        """The friendly city (``board.friendly_city``; one a card wins for sure counts) of ``cities`` nearest to
        ``h``, in words ("Athens, in 1314"), or None: what would feed units left in ``h``."""
        st, gm = self.sim.state, self.map
        ok = [c for c in cities if friendly.get(c, board.friendly_city(st, gm, c, self.me))]
        if not ok:
            return None
        # by land first (a review: an island's city was named to Armies on the mainland, by straight distance):
        # the hexes a march may cross, ring by ring, until one is in or next to a city that feeds them
        feeds = {}
        for c in ok:
            for x in (gm.cities[c].hex, *gm.neighbours[gm.cities[c].hex]):
                feeds.setdefault(x, []).append(c)
        seen, ring = {h}, [h]
        while ring:
            found = sorted(c for x in ring for c in feeds.get(x, ()))
            if found:
                c = min(found, key=lambda c: (gm.distance(h, gm.cities[c].hex), c))
                return f"{gm.cities[c].name}, in {gm.cities[c].hex}"
            ring = [y for x in ring for y in gm.neighbours[x]
                    if y not in seen and not seen.add(y) and gm.is_land(y) and gm.passable(y)]
        c = min(ok, key=lambda c: (gm.distance(h, gm.cities[c].hex), c))
        return f"{gm.cities[c].name}, in {gm.cities[c].hex}, over the sea"

    def warn_unfed(self, path: tuple, end: str, eaters: list[Unit], problem: tuple[str, str | None], bags: int,
                   unless: str = "", stayed: list[Unit] = (), nearest: str | None = None) -> None:
        """The supply warning for ``eaters`` in ``end``: moved there by the orders (``path``: the last move order;
        ``stayed``: those of the player's already there, no order moving them), or all left there (``path`` ())."""
        self.unfed_said.update(u.id for u in (*eaters, *stayed))
        names = ", ".join(u.id for u in eaters)
        one = len(eaters) == 1
        kind, own = problem
        if kind == "no_city":  # "(Pylos is under siege)": a city of yours there feeds no one
            why = "with no friendly city in or next to it" + (f" that feeds it ({own})" if own else "")
        else:
            why = "completely surrounded by enemy units"
        tail = ((f" and Baggage for {bags} only" if bags else "") + unless
                + ": at your next Upkeep each without Baggage makes an upkeep roll (6 or more disbands it)")
        if path:
            where = f", where {self.stay_words(list(stayed), 'already stands')}," if stayed else ""
            self.warn(path, f"{names} end{'s' if one else ''} the turn in {end}{where} {why}" + tail,
                      "end next to a city of yours that is neither besieged nor razed, or bring Baggage (R-PH-UPK)")
            return
        # left there by an earlier turn: no order of this file moves them, or the one that would is skipped
        it = "it" if one else "them"
        orders = sorted({o for o in (self.skipped_move(u.id) for u in eaters) if o is not None})
        skip_fix = f"mend the error of {' and '.join(orders)} first; or " if orders else ""
        fix = f"move {it} in or next to a city of yours that is neither besieged nor razed" + (
            f" (the nearest: {nearest})" if nearest else "")
        garrison = next((c for c in self.map.cities.values() if c.hex == end
                         and self.sim.state.cities[c.id].controller == self.me), None)
        if garrison is not None and kind != "surrounded":  # a city's own garrison is not told to leave it (a review)
            fix = (f"break the siege of {garrison.name}" if own and own.endswith(" is under siege") else
                   f"{garrison.name} is razed and feeds no one until its razed counters are gone; move {it} next to "
                   f"another city of yours" if self.sim.state.cities[garrison.id].razed else "")
            self.warn(path, f"{self.stay_words(eaters, 'stays', end)} {why}" + tail,
                      skip_fix + (fix + ", or " if fix else "") + "bring Baggage there (R-PH-UPK)")
            return
        if kind == "surrounded":
            fix += ", or drive the enemy off a hex around " + it
        elif own and own.endswith(" is under siege"):
            fix += f", or break the siege of {own.removesuffix(' is under siege')}"
        self.warn(path, f"{self.stay_words(eaters, 'stays', end)} {why}" + tail,
                  skip_fix + fix + ", or bring Baggage there (R-PH-UPK)")

    def partial_stop(self, section: str, h: str, sea: bool, what: str = "") -> str:
        """The hint for a move partial: true stops short, at ``h``: ships stopped at sea make a navigation roll if
        they end the turn there (R-PH-SECOND; a new player's review: partial ships left at sea got no word)."""
        words = f"with partial: true the move stops at {h}" + (f", {what}" if what else "")
        if not sea or self.map.ship_may_stop(h):
            return words
        return words + (", at sea: ships that end the turn at sea make a navigation "
                        "roll (R-PH-SECOND)" + (", unless your second_move takes them on"
                                                 if section == "first_move" else ""))

    def refused(self, base: tuple, mv: Move, r: Refusal, section: str) -> None:
        """``gather`` refuses the order: say why, in the checker's words where it has them, at the unit."""
        uid, sim = r.unit, self.sim
        listed = list(getattr(mv, r.field)) if r.field in ("units", "load", "unload") else []
        path = base + ((r.field, listed.index(uid)) if uid in listed else (r.field,))
        msg, hint = r.reason, None
        if r.kind == "two_hexes":
            ids = expand_units(sim.state, self.me, mv.units)
            msg, hint = "the units of one move must start in one hex", ", ".join(
                f"{u} in {sim.hex[u]}" for u in ids[:6] if u in sim.units)
            path = base + ("units",)
        elif r.kind == "landed":
            msg = (f"{uid} went ashore in {section}[{self.disembarked[uid]}]: a unit that disembarks moves no "
                   f"further that phase")
        elif r.kind == "moved":
            msg, hint = (f"{uid} already moves in {section}[{self.moved[uid]}]: a unit takes part in one move order "
                         f"per phase", "put everything it does in one move order")
        elif r.kind in ("aboard", "aboard_other") and r.field == "units":
            c = sim.carrier[uid]
            msg = f"{uid} is aboard {c}: move {c} (it takes its cargo along), or unload {uid} first"
        elif r.kind == "no_ship":
            msg, hint = ("load: needs a Fleet or Transport among the move's units",
                         "Baggage listed in units goes with the Armies by itself")
        elif r.kind == "load_elsewhere":
            msg = f"{uid} is in {sim.hex[uid]}, not in {sim.hex[mv.units[0]] if mv.units[0] in sim.units else ''} " \
                  f"where the ships start" if mv.units[0] in sim.units else r.reason
            if uid in self.skipped:
                hint = f"{self.skipped[uid]}, which would move {uid}, has an error: it is skipped and {uid} stays in " \
                       f"{sim.hex[uid]}"
        elif r.kind == "load_ship":
            msg = f"{uid} is a ship: ships are not loaded; name it in units to move it"
        elif r.kind == "board_at_sea":
            start = sim.hex[uid]
            msg = (f"{start} is {self.map.terrain[start].name}: units go aboard only where the ships are docked or "
                   f"beached (a coastal City, Sandy Coast or Fishing Village hex)")
        elif r.kind == "no_room_sea":
            hint = "a Fleet carries 1 Rowers and 2 Baggage; a Transport 1 Army (or Rowers) or 8 Baggage; Leaders " \
                   "ride free"
        elif r.kind in ("no_room_land", "no_movers"):
            armies = [u for u in expand_units(sim.state, self.me, mv.units)
                      if u in sim.units and sim.units[u].type is UnitType.ARMY]
            if not armies:
                msg = "Baggage cannot move by itself: it moves with an Army (4 each)"
            else:
                msg = f"no room for {uid}: an Army carries at most 4 Baggage"
            if r.field == "units":
                path = base + ("units",)
        elif r.kind == "unmanned":
            msg, hint = (f"{uid} has no Rowers aboard: an unmanned Fleet cannot move (R-UNIT-3)",
                         "take a Rowers unit aboard with load: in this move" + (
                             f", or {self.how_to_man(uid, None)}" if section == "first_move" else ""))
        elif r.kind == "unload_not_aboard":
            msg = f"{uid} is not aboard a ship"
        self.error(path, msg, hint)

    def how_to_man(self, fleet: str, move: str | None) -> str:
        """How a player mans an unmanned Fleet (R-UNIT-3) before ``move`` (first_move: before the Sea Battle):
        new Rowers go aboard an unmanned Fleet of the player in their city (R-PH-REC); Rowers go aboard in a move
        with load:."""
        h = self.sim.hex[fleet]
        city = self.map.city_at.get(h)
        ways = []
        if city is not None and self.state.cities[city.id].controller == self.me:
            ways.append(f"recruit Rowers in {city.name}, where it is docked (new Rowers go aboard an unmanned Fleet "
                        f"there)")
        else:
            ways.append("bring it into a coastal city of yours and recruit Rowers there (new Rowers go aboard an "
                        "unmanned Fleet in their city)")
        if move is not None:
            ways.append(f"move it in {move} with Rowers taken aboard by load:")
        return "man it first: " + ", or ".join(ways)

    def warn_unmanned_recruits(self) -> None:
        """A Fleet these orders recruit that no Rowers man by the end of the orders (R-UNIT-3: it cannot move or
        fight; a new player's recruited Fleet got no word)."""
        for uid, path in self.recruit_paths.items():
            u = self.sim.units.get(uid)
            if u is None or u.type is not UnitType.FLEET:
                continue
            if any(self.sim.units[c].type is UnitType.ROWERS for c in self.sim.cargo(uid)):
                continue
            city = self.map.city_at.get(u.hex)
            where = city.name if city is not None else u.hex
            self.warn(path, f"{uid}, the Fleet recruited here, will have no Rowers aboard: an unmanned Fleet cannot "
                            f"move or fight (R-UNIT-3)",
                      f"recruit Rowers in {where} next turn (new Rowers go aboard an unmanned Fleet there), or take "
                      f"Rowers aboard with load: in a move")

    def unit_path(self, base: tuple, mv, uid: str) -> tuple:
        try:
            return base + ("units", list(mv.units).index(uid))
        except ValueError:
            return base + ("units",)

    def allowance(self, g: Stack, mv: Move, base: tuple) -> tuple[int, str]:
        """Movement points of the move (``movement_allowance``, R-PH-MOVE) with the move's cards and the
        movement cards of ``cards`` naming one of its units or its hex; and what they are made of."""
        tb = self.tables
        uses: list[tuple[tuple, CardUse]] = []
        for k, use in enumerate(mv.cards):
            cpath = base + ("cards", k)
            self.check_card(cpath, use, "move")
            uses.append((cpath, use))
        for k, use in self.move_cards:
            if (use.target in g.group or use.target == g.start) and k not in self.move_cards_used:
                self.move_cards_used[k] = base
                uses.append((("cards", k), use))
        end = mv.path[-1] if mv.path and mv.path[-1] in self.map.terrain else g.start
        cards: list[tuple[str, dict]] = []
        for cpath, use in uses:
            card = tb.cards[use.card]
            if card.timing.get("phase") != "move":
                continue
            for e in card.effects:
                if e["kind"] != "movement":
                    continue
                if e.get("condition") == "aid_of_city" and not aid_of_city(self.sim.state, self.map, self.me, end):
                    self.add(self.later, cpath, f"{card.name} needs a stack that ends its move in or next to a "
                                                f"city of yours under siege; there is none now, so the move fails")
                    continue
                if not any(unit_matches(e, m) for m in g.movers):  # pbem.phases.move: the move fails
                    self.error(cpath, f"{card.name} gives its points to marching Armies and Rowers, and none moves "
                                      f"in this move, so the move fails",
                               "play it for a land move of Armies or Rowers (cargo aboard a ship gets nothing)")
                    continue
                cards.append((use.card, e))
        first = base[0] == "first_move"
        allow = movement_allowance(self.sim.state, tb, g.movers, g.group, cards,
                                   None if first else self.lasting)
        if first:
            self.lasting_now = [(m.id, card, e) for card, e in cards if e.get("duration") == "this_turn"
                                for m in g.movers if unit_matches(e, m)]
        pace = [u for u in g.movers if u.type is not UnitType.LEADER] or g.movers  # "Leaders alone 6"
        slowest = min(pace, key=lambda u: allow.per_unit[u.id])
        what = "Leaders alone" if slowest.type is UnitType.LEADER else slowest.type.value.capitalize()
        why = ", ".join([f"{what} {BASE_MP[slowest.type]}", *allow.bonuses[slowest.id]])
        return allow.points, why

    def costly_terrain(self) -> str:
        names = [t.name for t in self.map_terrain_types() if (t.move_cost or 0) >= 2]
        return "entering " + ", ".join(names) + " costs 2 or more"

    def map_terrain_types(self):
        return sorted({t.id: t for t in self.map.terrain.values()}.values(), key=lambda t: t.id)

    def card_name(self, cid: str) -> str:
        return self.tables.cards[cid].name if cid in self.tables.cards else cid

    def step(self, section: str, prev: str, h: str, sea: bool, cost: int, allowance: int, why: str,
             captures: bool) -> tuple[list[tuple[str, str, str | None]], int]:
        """The problems of entering ``h`` from ``prev`` (``step_problems``, R-PH-MOVE), in the checker's words
        and severities, and the points spent once there."""
        m, out = self.map, []
        st = self.sim.state
        for pb in step_problems(st, m, self.me, prev, h, sea, cost, allowance, captures):
            if pb.kind == "off_map":
                return [(ERROR, f"{h} is not a hex of this map", self.map_size_hint())], cost
            t = m.terrain[h]
            if pb.kind == "not_adjacent" and h == prev:
                return [(ERROR, f"{h} is where the units already are; the path lists the hexes entered", None)], cost
            if pb.kind == "not_adjacent":
                out.append((ERROR, f"{h} is not next to {prev}", self.neighbours_hint(prev)))
            elif pb.kind == "ship_terrain":
                out.append((ERROR, f"{h} is {t.name}{' (inland)' if t.ships in ('dock', 'beach') else ''}: ships "
                                   f"enter only {SHIP_HEXES}", None))
            elif pb.kind == "land_terrain" and not t.land:
                out.append((ERROR, f"{h} is Water: land units cannot enter the sea",
                            "carry them aboard a Transport (Armies) or Fleet (Rowers) with load:"))
            elif pb.kind == "land_terrain":
                out.append((ERROR, f"{h} is {t.name}: impassable", None))
            elif pb.kind == "points" and cost <= allowance:  # said once, at the first hex out of reach
                out.append((ERROR, f"out of movement points: reaching {h} costs {cost + (t.move_cost or 0)}; the "
                                   f"{'ships have' if sea else 'stack has'} {allowance} ({why})",
                            f"{self.costly_terrain()}; or write partial: true to go as far as possible"))
            elif pb.kind == "foreign_city":
                found = self.foreign_city(section, h, pb.city)
                if found is not None:
                    out.append(found)
            elif pb.kind == "enemy_units":
                own_attack = section == "second_move" and h in self.land_targets
                sev = WARNING if own_attack else self.later
                hint = "attack them in a battle phase first" if sev == ERROR else "they may have left before your move"
                if own_attack:  # the player's own attack on the hex decides it, whoever moves before them
                    hint = f"your own attack on {h} at land_battle[{self.land_targets[h]}] must clear it first" + (
                        "" if self.later == ERROR else ", unless they have left before your move")
                out.append((sev, f"{h} holds enemy Armies, Rowers or manned Fleets now: your units may not enter it",
                            hint))
            elif pb.kind == "no_captor":
                out.append((self.later, f"{h} holds enemy units now, and this move has no Army, Rowers or manned "
                                        f"Fleet to capture them: it may not enter", None))
        return out, cost + (m.terrain[h].move_cost or 0)

    @staticmethod
    def blocks(problems: list[tuple[str, str, str | None]]) -> bool:
        """Does a warning mean the hex may not be entered as things stand now?"""
        return any("may not enter" in msg for _, msg, _ in problems)

    def foreign_city(self, section: str, h: str, cid: str) -> tuple[str, str, str | None] | None:
        """R-PH-MOVE: no entry into an enemy or neutral city (a warning if the orders before may win it)."""
        st = self.state
        city = self.map.cities[cid]
        ctl = st.cities[cid].controller
        what = "a neutral city" if ctl is None else f"a city of the {st.players[ctl].name}" \
            if ctl in st.players else "not your city"
        win = self.gains.get(cid)
        if win is not None and win.sure:
            return None  # a card in hand wins it before the moves
        if win is not None and win.by.startswith("your diplomacy"):
            return (WARNING, f"{h} is {city.name}, {what} now: your units may enter it only if {win.by} wins it",
                    None)
        if win is not None and win.unless.startswith(","):
            return (WARNING, f"{h} is {city.name}, {what} now: {win.by} wins it for you before the moves"
                             f"{win.unless}", None)
        if win is not None:
            return (WARNING, f"{h} is {city.name}, {what} now: your units may enter it only if {win.by} wins it"
                             f"{win.unless}", None)
        if section == "second_move" and h in self.land_targets:
            return (WARNING, f"{h} is {city.name}, {what} now: your units may enter it only if the attack at "
                             f"land_battle[{self.land_targets[h]}] captures it", None)
        return (ERROR, f"{h} is {city.name}, {what}: your units may not enter it (R-PH-MOVE)",
                "capture it in a land battle or win it by diplomacy first")

    # -- battles ------------------------------------------------------------------------------------
    def check_attacks(self, section: str) -> None:
        used: dict[str, tuple[int, bool]] = {}  # unit -> (the attack it is in, sure to be carried out)
        for i, a in self.p.indexed(section):
            self.check_attack(section, i, a, used)

    def check_attack(self, section: str, i: int, a: Attack, used: dict[str, tuple[int, bool]]) -> None:
        """One attack order, as ``pbem.battle.resolve_attack`` carries it out (R-PH-SEA, R-PH-LAND, R-BAT-*).
        The units of an attack that is carried out attack no more this phase; a failed attack uses nobody."""
        first = len(self.findings)
        played = dict(self.played)
        self.check_attack_order(section, i, a, used)
        mine = self.findings[first:]
        if any(f.severity == ERROR for f in mine):
            self.played = played  # skipped whole: its cards stay in the hand (R-TURN-4)
            return
        for uid in self.attackers:
            used.setdefault(uid, (i, not mine))
            self.attacking.setdefault(uid, f"{section}[{i}]")
        if mine:  # it may fail: the cards it plays may still be in the hand after it
            self.maybe_played |= {c for c in self.played if c not in played}
        if section == "land_battle":
            self.warn_no_retreat((section, i), a)
            self.note_mover_in(i, a)

    def note_mover_in(self, i: int, a: Attack) -> None:
        """R-BAT-4 (``battle.take_city``): if the land attack ``land_battle[i]`` on a city wins and takes it, its
        first Army (else its first Rowers) moves into the city by itself.  The checker leaves the attackers where
        they are (the battle's outcome is not known); ``check_moves`` asks the Second Move both ways."""
        city = self.map.city_at.get(a.target)
        if city is None or self.state.cities[city.id].controller == self.me:
            return
        fighters = [self.sim.units[u] for u in self.attackers if u in self.sim.units]
        mover = next((u for u in fighters if u.type is UnitType.ARMY), None) or \
            next((u for u in fighters if u.type is UnitType.ROWERS), None)
        if mover is not None and mover.id not in self.moves_in:
            self.moves_in[mover.id] = (a.target, f"land_battle[{i}]", city.name)

    def warn_no_retreat(self, base: tuple, a: Attack) -> None:
        """Attackers that lose retreat from their own hexes (R-BAT-3): ``pbem.battle.retreat_hexes``, the
        adjudicator's own rule, asked against the simulated state after the moves before the battle (one hex, onto
        terrain they may stand in, within stacking, not an enemy or neutral city, holding no enemy unit).  A hex
        with no such neighbour (a beach of an island whose only land hex is the city attacked) turns every retreat
        into destruction: a new player lost an Army so, and rules.md's "Islands" says it in prose only.  Said
        however the attackers got there: landed by this file's First Move, or ashore since an earlier turn (a new
        player's review: landed in turn 5, attacked in turn 6 with no word, and lost the Army).  A city the file's
        own cards or diplomacy may win, or another attack of the file may take, counts as a way out (so does a hex
        out of sight: the simulated state holds no units there)."""
        sim, m = self.sim, self.map
        targets = {x.target for _, x in self.p.indexed("land_battle")} - {a.target}
        maybe = set(self.gains) | {m.city_at[t].id for t in targets if t in m.city_at}
        cities = dict(sim.state.cities)
        for c in maybe:  # as if won: entering it is no longer barred
            cities[c] = replace(cities[c], controller=self.me)
        view = replace(sim.state, cities=cities, _controlled=None) if maybe else sim.state
        by_hex: dict[str, list[str]] = {}
        for uid in self.attackers:
            if uid in sim.units and self.fights_on_land(uid):
                by_hex.setdefault(sim.hex[uid], []).append(uid)
        for x, uids in by_hex.items():
            if x not in m.terrain or not m.adjacent(x, a.target):
                continue
            stuck = [u for u in uids if not battle.retreat_hexes(view, m, sim.units[u], x)]
            if not stuck:
                continue
            who = f"{stuck[0]} attacks" if len(stuck) == 1 else f"{', '.join(stuck)} attack"
            self.warn(self.unit_path(base, a, stuck[0]),
                      f"{who} from {x}, which has no hex your units could retreat to (R-BAT-3: one hex, over land, "
                      f"not into an enemy or neutral city, nor a hex holding enemy units or already full): if this "
                      f"attack is lost, each unit whose casualty roll says retreat (5 or more) is destroyed instead",
                      "attack with the odds well on your side, or from a hex with a way out")

    def check_attack_order(self, section: str, i: int, a: Attack, used: dict[str, tuple[int, bool]]) -> None:
        st, m, sim = self.state, self.map, self.sim
        base = (section, i)
        self.attackers: list[str] = []
        land = section == "land_battle"
        if self.cannot_move:
            self.warn(base, f"{self.card_name(self.cannot_move[0].source)} was played on you: your units may not "
                            f"move or attack this turn")
        if self.truce:
            e = self.truce[0]
            self.warn(base, f"{self.card_name(e.source)} (played by {e.player}) is in force in your player-turn: "
                            f"no one may attack, and this attack will not be made")
        elif self.own_truce:
            self.warn(base, f"your own {self.card_name(self.own_truce)} (at {self.played[self.own_truce]}) stops "
                            f"your attacks too: this attack will not be made if it is played")
        h = a.target
        target_ok = h in m.terrain
        if not target_ok:
            self.error(base + ("target",), f"{h} is not a hex of this map", self.map_size_hint())
        fights = self.fights_on_land if land else self.fights_at_sea
        ids: list[str] = []
        for j, x in enumerate(a.units):
            path = base + ("units", j)
            if is_hex_id(x):
                if x not in m.terrain:
                    self.error(path, f"{x} is not a hex of this map", self.map_size_hint())
                    continue
                here = [u for u in sim.at(x) if fights(u)]
                if not here:
                    self.error(path, f"you have no units in {x} that can fight a {'land' if land else 'sea'} "
                                     f"battle")
                ids += [u for u in here if u not in ids]
            elif x in ids:
                self.warn(path, f"{x} is named twice")
            elif self.unit(path, x) is not None:
                ids.append(x)
        self.attackers = ids
        for uid in ids:
            u = sim.units[uid]
            upath = self.unit_path(base, a, uid)
            if uid in used:
                k, sure = used[uid]
                self.add(ERROR if sure else WARNING, upath,
                         f"{uid} {'already attacks' if sure else 'attacks'} in {section}[{k}]"
                         f"{'' if sure else ' if that order is carried out'}: a unit attacks once a phase")
                continue
            carrier = sim.carrier[uid]
            if u.type is UnitType.LEADER:
                self.error(upath, f"{uid} is a Leader: leaders do not fight, so the attack would fail",
                           "leave it out: the leaders in the attacking hexes add their skills anyway")
                continue
            if not fights(uid):
                if land:
                    what = f"aboard {carrier}" if carrier else a_unit(u.type)
                    self.error(upath, f"{uid} is {what}: only Armies and Rowers on land attack in a land battle",
                               self.aboard_hint(uid, carrier) if carrier else "ships attack in sea_battle")
                elif u.type is UnitType.FLEET:
                    self.error(upath, f"{uid} has no Rowers aboard: an unmanned Fleet cannot fight (R-UNIT-3)",
                               self.how_to_man(uid, "first_move"))
                elif u.type is UnitType.TRANSPORT:
                    self.error(upath, f"{uid} carries no Army: only Transports with an Army fight in a sea battle")
                else:
                    ship = self.sim.state.units.get(carrier) if carrier else None
                    self.error(upath, f"{uid} is {a_unit(u.type) if not carrier else 'aboard ' + carrier}: only "
                                      f"manned Fleets and Transports with an Army fight in a sea battle",
                               f"name its ship {carrier} instead: a Transport with an Army aboard fights at sea"
                               if ship is not None and ship.type is UnitType.TRANSPORT and u.type is UnitType.ARMY
                               else "Armies and Rowers attack in land_battle")
                continue
            if target_ok:
                here = sim.hex[uid]
                if here == h:
                    self.error(upath, f"{uid} is in {h} itself: attack a hex next to your units",
                               self.own_hex_hint(uid, h, land))
                elif not m.adjacent(here, h):
                    why = self.skipped.get(uid)
                    # said in the message too when that order would have taken it next to the target (as the
                    # stacking error does: a new player mended this error, not the one above that caused it)
                    meant = self.skipped_end.get(why) if why else None
                    cause = (f", only because {why} above has an error and is skipped, so {uid} stays there: mend "
                             f"that error first" if meant in m.terrain and m.adjacent(meant, h) else "")
                    self.error(upath, f"{uid} is in {here}, not next to the target {h}{cause}",
                               f"{why}'s path ends in {meant}, next to {h}" if cause else
                               f"{why}, which would move it, has an error: it is skipped and {uid} stays in {here}"
                               if why else f"neighbours of {h} are {', '.join(m.neighbours[h])}")
        if not target_ok:
            return
        t = m.terrain[h]
        city = m.city_at.get(h)
        foreign = city is not None and st.cities[city.id].controller != self.me
        tpath = base + ("target",)
        if land:
            self.land_targets.setdefault(h, i)
            if not t.land:
                self.error(tpath, f"{h} is Water: land battles are fought on land", "attack ships in sea_battle")
            elif not t.passable:
                self.error(tpath, f"{h} is {t.name}: nobody can stand there to be attacked")
            elif city is not None and not foreign and not self.enemy_fighters_seen(h):
                self.error(tpath, f"{h} is {city.name}, your own city")
            elif not foreign and h in self.seen and not self.enemy_fighters_seen(h):
                sev = WARNING if self.after_sea_battles(h) else self.later  # ships beaten at sea may retreat there
                self.add(sev, tpath, f"there are no enemy Armies, Rowers or manned ships in {h} now, so the "
                                            f"attack would fail", "enter the hex in a move to capture undefended units")
            if foreign:
                self.cities_attacked.add(city.id)
                self.attack_on_a_city_won_first(tpath, h, city)
        else:
            if not m.ship_may_enter(h):
                self.error(tpath, f"{h} is {t.name}: sea battles are fought in {SHIP_HEXES}")
            elif h in self.seen and not self.enemy_ships_seen(h):
                self.add(self.later, tpath, f"there are no enemy ships in {h} now, so the attack would fail")
            elif h in self.seen and not self.enemy_ships_seen(h, fighting=True):
                self.add(self.later, tpath, f"no enemy ship in {h} fights or blocks the way now (only unmanned Fleets "
                                            f"and Transports without an Army or Rowers), so the attack would fail",
                         battle.unfought_ships_hint(st, self.map, h, self.me))
        for key in ("plunder", "destroy"):
            if not getattr(a, key):
                continue
            if not land:
                self.warn(base + (key,), f"{key} is ignored in a sea battle: cities are captured on land")
            elif city is None:
                self.warn(base + (key,), f"{h} is not a city: {key} is ignored")
            break
        if a.destroy and land and city is not None:  # a deliberate choice, but a new player may not see its cost
            self.warn(base + ("destroy",), f"destroy razes {city.name} to 6 counters once you take it: while razed "
                                           f"it pays you no income and feeds no upkeep (R-BAT-4)",
                      "plunder: true alone takes the same 3D6 gold with 3 razed counters")
        attackers = [sim.units[u] for u in ids if sim.units[u].type is not UnitType.LEADER]
        for k, use in enumerate(a.cards):
            cpath = base + ("cards", k)
            before = len(self.findings)
            self.check_card(cpath, use, section, a)
            if any(f.severity == ERROR for f in self.findings[before:]):
                continue
            why, sure = self.card_does_nothing(self.tables.cards[use.card], land, land and foreign, attackers, h)
            severity = ERROR if sure else self.later
            # a neutral city out of sight now is still known: its defenders are its own Army and garrison, unless
            # a player before you in turn order takes it first
            neutral = land and foreign and st.cities[city.id].controller is None
            if why is None and (h in self.seen or neutral) and attackers and any(
                    e["kind"] in battle.BATTLE_KINDS for e in self.tables.cards[use.card].effects):
                # the adjudicator's own question
                fight = self.battle_seen(land, h, attackers)
                if battle.card_fits(SimpleNamespace(state=sim.state, tables=self.tables), fight, fight.attack,
                                    use.card):
                    why = "no unit it acts on fights in it"
                    severity = ERROR if h in self.seen else self.later
            if why:
                self.add(severity, cpath, f"{self.tables.cards[use.card].name} does nothing in this battle ({why}), "
                                          f"so the attack would fail", "leave it out")
            else:
                self.warn_if_needed_wasted(cpath, use)

    def own_hex_hint(self, uid: str, h: str, land: bool) -> str:
        """What a player who names the attackers' own hex as the target most likely meant: the enemy next to it
        (a battle is fought for the hex attacked, from the hexes next to it), or to stop next to it, not in it."""
        m = self.map
        enemy = [n for n in m.neighbours[h] if (self.enemy_fighters_seen(n) if land else self.enemy_ships_seen(n))]
        moved = self.last_moves.get(uid)
        into = f"{json_path(moved[:2])} moves {uid} into {h}: " if moved and moved[0] == "first_move" else ""
        if enemy:
            return (f"{into}the target is the enemy's hex, next to your units: did you mean "
                    f"{' or '.join(enemy[:3])} (enemy units in your sight next to {h})?")
        if into:
            return f"{into}end that move next to the hex you attack, and name that hex as the target"
        return f"the target is the enemy's hex, next to your units; you see no enemy units next to {h} now"

    def attack_on_a_city_won_first(self, tpath: tuple, h: str, city) -> None:
        """A land attack on a neutral city a card of the file's own wins before the battles fails: a city of yours
        with no enemy Army or Rowers in it is no target (``pbem.battle``: "is yours now").  A diplomacy roll of the
        file's own on the city comes before the battles too (R-PH-DIP): said as what it may do (a player's
        attack on Miletus failed after his roll for it came up 6, and nothing had told him)."""
        win = self.card_wins.get(city.id)
        if win is None and city.id in self.dip_targets:
            self.attack_on_a_diplomacy_target(tpath, h, city)
            return
        if win is None or self.state.cities[city.id].controller is not None or self.enemy_fighters_seen(h):
            return
        if win.sure:
            self.warn(tpath, f"{win.by} wins {city.name} for you before the battles: this attack on it will fail (a "
                             f"city of yours is no target)")
        else:
            unless = " (unless a player before you takes it first)" if win.unless.startswith(",") else win.unless
            self.warn(tpath, f"if {win.by} wins {city.name} for you before the battles{unless}, this attack on it "
                             f"fails (a city of yours is no target)")

    def attack_on_a_diplomacy_target(self, tpath: tuple, h: str, city) -> None:
        """R-PH-DIP, R-PH-DIP-REVOLT: the file's own diplomacy roll on the city attacked is made in the Diplomacy
        phase, before the battles, on 1D6 (+1 if the city is hostile), 6 or more succeeding.  A neutral city won
        is the player's: the attack fails (``pbem.battle``: "is yours now").  An enemy city revolts: the rebels
        fight its controller's units there and it goes neutral if they win (or if no unit of the controller is
        in it); the attack then fights the neutral city's defenders, not the controller's."""
        st = self.state
        c = st.cities[city.id]
        k = self.dip_targets[city.id]
        chance = ("a 6 on one die: 1 chance in 6" if not c.hostile else
                  "5 or 6 on one die, +1 as the city is hostile: 2 chances in 6")
        roll = f"diplomacy[{k}] rolls for {city.name} in the Diplomacy phase, before the battles"
        if c.controller is None:
            self.warn(tpath, f"{roll}: if that roll succeeds ({chance}), {city.name} is yours and this attack on it "
                             f"fails (a city of yours is no target)",
                      f"keep both only if you mean to attack {city.name} in case the roll fails")
        elif c.controller != self.me:
            who = f"the {st.players[c.controller].name}" if c.controller in st.players else "its controller"
            who += "'" if who.endswith("s") else "'s"
            self.warn(tpath, f"{roll}: if that roll succeeds ({chance}), {city.name} revolts: it goes neutral before "
                             f"this attack if the rebels beat {who} units there (or none are there), and this attack "
                             f"then fights the neutral city's own defenders instead (R-PH-DIP-REVOLT)",
                      f"keep both only if you mean to attack {city.name} whatever the roll does")

    def fights_on_land(self, uid) -> bool:
        u = self.sim.units[uid] if isinstance(uid, str) else uid
        uid = u.id
        return u.type in (UnitType.ARMY, UnitType.ROWERS) and self.sim.carrier[uid] is None

    def fights_at_sea(self, uid) -> bool:
        u = self.sim.units[uid] if isinstance(uid, str) else uid
        uid = u.id
        if self.sim.carrier[uid] is not None:
            return False
        cargo = [self.sim.units[c].type for c in self.sim.cargo(uid)]
        return (u.type is UnitType.FLEET and UnitType.ROWERS in cargo) or \
            (u.type is UnitType.TRANSPORT and UnitType.ARMY in cargo)

    def defenders_seen(self, land: bool, h: str) -> tuple[str | None, list[Unit]]:
        """(the defending player, their units) of an attack on ``h``, as ``pbem.battle.resolve_attack`` picks them,
        from what the player sees."""
        st, me = self.sim.state, self.me
        if not land:
            ships = [u for u in st.units_at(h) if u.owner is not None and board.hostile_to(u, me) and u.type.is_ship
                     and u.carried_by is None]
            holders = [u for u in ships if battle.holds_sea(st, u)]
            return (holders[0].owner, [u for u in ships if u.owner == holders[0].owner]) if holders else (None, [])
        city = foreign_city(st, self.map, h, me)
        defenders = battle.land_defenders(st, h, me)
        holders = [u for u in defenders if battle.holds_ground(st, u)]
        who = st.cities[city].controller if city else holders[0].owner if holders else None
        return who, [u for u in defenders if u.owner == who]

    def battle_seen(self, land: bool, h: str, attackers: list[Unit]) -> battle.Battle:
        """The battle an attack on ``h`` would be, as far as the player sees (no dice rolled), for the adjudicator's
        questions about it (``pbem.battle.card_fits``)."""
        who, units = self.defenders_seen(land, h)
        city = foreign_city(self.sim.state, self.map, h, self.me) if land else None
        attack = battle.Side("attack", self.me, [], attackers, sorted({u.hex for u in attackers}))
        defense = battle.Side("defense", who, [], units, [h])
        return battle.Battle("land" if land else "sea", h, city, attack, defense)

    def card_does_nothing(self, card: Card, land: bool, city: bool, attackers: list[Unit],
                          h: str) -> tuple[str | None, bool]:
        """(why a battle card changes nothing for the attacker here (``pbem.battle.card_fits``), else None; whether
        that is sure: False when it depends on enemy units that players before this one may move)."""
        effects = [e for e in card.effects if e["kind"] in ("battle_total", "roll_modifier")]
        if not effects:
            return None, True  # a triggered card (Treasure, Failure)
        arena = "land" if land else "sea"
        reasons: list[tuple[str, bool]] = []
        for e in effects:
            own = e.get("side", "own") == "own"
            role = "attack" if own else "defense"
            vs = e.get("vs", "any")
            if vs == "city" and not city:
                reasons.append(("it counts only in a battle for an enemy or neutral city", True))
                continue
            # against ships: always at sea; on land against ships beached or docked in the hex (R-PH-LAND)
            if vs == "ships" and land and not self.map.ship_may_enter(h):
                reasons.append((f"it counts only against ships, and no ship stands in {h} "
                                f"({self.map.terrain[h].name})", True))
                continue
            if vs == "ships" and land and h in self.seen and not self.enemy_ships_seen(h):
                reasons.append((f"it counts only against ships, and there are no enemy ships in {h} now", False))
                continue
            if e["kind"] == "battle_total":
                if e["total"] not in ("battle", role):
                    reasons.append((f"it adds to the {e['total']} total", True))
                    continue
                if e.get("battle", "any") not in ("any", arena):
                    reasons.append((f"it counts in {e['battle']} battles only", True))
                    continue
                return None, True
            if e["roll"] not in ("battle", "casualty", role):
                reasons.append((f"it changes {e['roll']} rolls", True))
                continue
            if own and attackers and not any(unit_matches(e, u) for u in attackers):
                reasons.append((f"none of the attackers is {'a Fleet' if e.get('units') == 'fleet' else 'an Army'}"
                                if e.get("units") in ("fleet", "army") else "no attacker it acts on", True))
                continue
            return None, True
        return reasons[0] if reasons else (None, True)

    def enemy_fighters_seen(self, h: str) -> bool:
        """Does the player see in ``h`` an enemy unit a land attack is made against (``pbem.battle.holds_ground``:
        Armies and Rowers on land, manned Fleets, Transports with an Army or Rowers aboard)?"""
        return h in self.seen and any(battle.holds_ground(self.state, u)
                                      for u in battle.land_defenders(self.state, h, self.me))

    def after_sea_battles(self, h: str) -> bool:
        """Could this player's own Sea Battle drive enemy ships into ``h`` before the Land Battle (a beaten ship
        retreats one hex, R-BAT-3)?"""
        return any(a.target == h or a.target in self.map.terrain and self.map.adjacent(a.target, h)
                   for _, a in self.p.indexed("sea_battle"))

    def enemy_ships_seen(self, h: str, fighting: bool = False) -> bool:
        """An enemy ship in sight in ``h``; ``fighting``: one a sea attack is made against (``battle.holds_sea``)."""
        return h in self.seen and any(u.owner != self.me and u.owner is not None and u.type.is_ship
                                      and u.carried_by is None and (not fighting or battle.holds_sea(self.state, u))
                                      for u in self.state.units_at(h))

    def never_counts(self, card: Card, h: str) -> str | None:
        """Why a battle card can never act in a battle fought for hex ``h`` (its terrain decides), else None."""
        t, city = self.map.terrain[h], self.map.city_at.get(h)
        arenas = ({"land"} if t.land and t.passable else set()) | ({"sea"} if self.map.ship_may_enter(h) else set())
        reasons = []
        for e in card.effects:
            if e["kind"] not in ("battle_total", "roll_modifier"):
                continue
            battle = e.get("battle", "any")
            units = e.get("units", "all")
            if battle != "any" and battle not in arenas:
                reasons.append(f"it counts in {battle} battles only, and {h} is {t.name}")
            elif e.get("vs") == "city" and city is None:
                reasons.append(f"it counts in battles for a city only, and {h} holds none")
            elif e.get("vs") == "ships" and "sea" not in arenas:
                reasons.append(f"it counts against ships only, and no ship stands in {h} ({t.name})")
            elif units == "army" and "land" not in arenas or units in ("fleet", "ships") and "sea" not in arenas:
                reasons.append(f"it acts on {'Armies' if units == 'army' else 'Fleets'}, which do not fight in "
                               f"{h} ({t.name})")
            else:
                return None
        return reasons[0] if reasons else None

    def acts_on_nothing_of_mine(self, card: Card) -> str | None:
        """Why a defence card can act on none of the player's units, whatever the battle (a card for Fleets, or
        for sea battles, and no ship), counting the units these orders recruit; else None."""
        kinds = {u.type for u in self.sim.units.values()}
        kinds |= {UnitType(r.unit) for _, r in self.p.indexed("recruit") if r.unit is not None}
        ships = {UnitType.FLEET, UnitType.TRANSPORT}
        reasons = []
        for e in card.effects:
            if e["kind"] not in ("battle_total", "roll_modifier") or e.get("side", "own") != "own":
                return None
            units = e.get("units", "all")
            if e["kind"] == "roll_modifier" and units == "fleet" and UnitType.FLEET not in kinds:
                reasons.append("it acts on your Fleets, and you have none")
            elif e["kind"] == "roll_modifier" and units == "ships" and not kinds & ships:
                reasons.append("it acts on your ships, and you have none")
            elif e["kind"] == "roll_modifier" and units == "army" and UnitType.ARMY not in kinds:
                reasons.append("it acts on your Armies, and you have none")
            elif e.get("battle") == "sea" and not kinds & ships:
                reasons.append("it counts in sea battles only, and you have no ships to defend")
            else:
                return None
        return reasons[0] + " (nor recruit any in these orders)" if reasons else None

    # -- standing orders ----------------------------------------------------------------------------
    def check_kept_reactions(self) -> None:
        """The standing reactions kept from an earlier file (this one has no standing:) that need a target and have
        none: the adjudicator never plays them (Failure: "Target Leader that lost a battle", a referee's finding)."""
        kept = Standing.from_dict(self.state.players[self.me].standing)
        for use in kept.reactions:
            card = self.tables.cards.get(use.card)
            if card is None or use.target is not None or card.target == "none" \
                    or card.timing.get("trigger") in ("attack", "none"):
                continue
            self.warn((), f"your standing reactions, kept from an earlier file, hold {card.name} with no target: it "
                          f"is never played", f"write standing: {{reactions: [{{card: {card.id}, target: ...}}]}} "
                                              f"({TARGET_WORDS.get(card.target, card.target)})")

    def check_retreat_terrain(self, path: tuple, frm: str, h: str) -> None:
        """A retreat preference no unit of the player could ever use: units retreat only into hexes they may
        stand in (``pbem.battle.retreat_hex``, ``movement.may_stand``): land units over land, ships into Water or
        a coastal City, Sandy Coast or Fishing Village hex (their cargo goes along)."""
        m = self.map
        land = land_ok(m, frm) and land_ok(m, h)
        ships = m.ship_may_enter(frm) and m.ship_may_enter(h)
        if land or ships or not (land_ok(m, frm) or m.ship_may_enter(frm)):
            return  # (no unit of anyone's stands in an impassable hex)
        name = m.terrain[h].name
        if land_ok(m, frm):
            self.warn(path, f"{h} is {name}: land units retreat only over land (R-BAT-3), and no ship of yours "
                            f"stands in {frm}, so no unit ever retreats there",
                      "leave it out, or name a land hex next to it")
        else:
            self.warn(path, f"{h} is {name}: only ships stand in {frm} (any Army aboard goes with its ship), and "
                            f"ships retreat only into {SHIP_HEXES} (R-BAT-3), so no unit ever retreats there",
                      "leave it out, or name a hex ships may enter")

    def check_standing(self) -> None:
        data = self.p.data
        if "standing" not in data:
            self.check_kept_reactions()
        if "standing" not in data or self.o.standing is None:
            return
        st = self.o.standing
        if data.get("standing") is None:
            self.warn(("standing",), "is empty: it resets all your standing orders to the defaults",
                      "remove the line to keep the standing orders you have")
            return
        for i, dc in self.p.indexed("standing", "defence_cards"):
            path = ("standing", "defence_cards", i)
            before = len(self.findings)
            self.check_card(path, CardUse(dc.card, None, dc.if_needed), "defence")
            if not any(f.severity == ERROR for f in self.findings[before:]):
                self.warn_if_needed_wasted(path, CardUse(dc.card, None, dc.if_needed))
            why = self.acts_on_nothing_of_mine(self.tables.cards[dc.card])
            if why:
                self.warn(path, f"{self.tables.cards[dc.card].name} can never count for you now: {why}",
                          "leave it out, or keep it for when you have them")
            if dc.hex is not None and dc.hex not in self.map.terrain:
                self.error(path + ("hex",), f"{dc.hex} is not a hex of this map", self.map_size_hint())
            elif dc.hex is not None:
                why = self.never_counts(self.tables.cards[dc.card], dc.hex)
                if why:
                    self.error(path + ("hex",), f"{self.tables.cards[dc.card].name} never counts in a battle in "
                                                f"{dc.hex}: {why}", "name a hex where it can act, or none")
        for i, use in self.p.indexed("standing", "reactions"):
            self.check_card(("standing", "reactions", i), use, "reaction")
        for frm, prefs in st.retreat.items():
            path = ("standing", "retreat", frm)
            if frm not in self.map.terrain:
                self.add(ERROR, path, f"{frm} is not a hex of this map", self.map_size_hint(), at_key=True)
                continue
            raw = self.raw(path)
            for k, h in enumerate(prefs):
                hp = path + (k,) if isinstance(raw, list) else path
                if h not in self.map.terrain:
                    self.error(hp, f"{h} is not a hex of this map", self.map_size_hint())
                elif not self.map.adjacent(frm, h):
                    self.error(hp, f"{h} is not next to {frm}: a retreat goes one hex (R-BAT-3)",
                               self.neighbours_hint(frm))
                elif not self.map.passable(h):
                    self.error(hp, f"{h} is {self.map.terrain[h].name}: impassable")
                else:
                    self.check_retreat_terrain(hp, frm, h)
        self.check_discard(("standing", "discard"))
        self.check_upkeep(("standing", "upkeep"))
