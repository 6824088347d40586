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
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable

from . import board, yamlio
from .effects import player_effects, skill_effects, unit_matches
from .errors import PbemError
from .gamedata import Card, GameMap, Tables, json_path, tables
from .model import RECRUIT_COST, GameState, Unit, UnitType, sorted_ids
from .orders import Parsed, build, did_you_mean, is_hex_id, short_list
from .ordertypes import Attack, CardUse, Move
from .storage import Campaign
from .visibility import sight

ERROR, WARNING = "error", "warning"
_ARTICLE = {UnitType.ARMY: "an Army", UnitType.ROWERS: "a Rowers unit", UnitType.FLEET: "a Fleet",
            UnitType.TRANSPORT: "a Transport", UnitType.BAGGAGE: "a Baggage unit", UnitType.LEADER: "a Leader"}


def a_unit(t: UnitType) -> str:
    return _ARTICLE.get(t, f"a {t.value}")


@dataclass(frozen=True)
class Finding:
    severity: str  # error | warning
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
        return f"{where}: {self.severity}: {field_}{self.message}{hint}"


@dataclass
class Report:
    file: str
    findings: list[Finding] = field(default_factory=list)
    usable: bool = True  # False: unreadable, not YAML we accept, or the campaign cannot be read

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == ERROR]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == WARNING]

    @property
    def exit_code(self) -> int:
        if not self.usable:
            return 2
        return 1 if self.errors else 0

    def summary(self) -> str:
        if not self.usable:
            return f"{self.file}: not checked"
        e, w = len(self.errors), len(self.warnings)
        if not e and not w:
            return f"{self.file}: OK, no findings"
        return f"{self.file}: {e} error{'s' if e != 1 else ''}, {w} warning{'s' if w != 1 else ''}"

    def to_text(self) -> str:
        return "".join(f.text() + "\n" for f in self.findings) + self.summary() + "\n"

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "usable": self.usable, "exit_code": self.exit_code,
                "errors": len(self.errors), "warnings": len(self.warnings),
                "findings": [asdict(f) for f in self.findings]}


def _fatal(source: str, exc: PbemError) -> Report:
    line = getattr(exc, "line", None)
    col = getattr(exc, "column", None)
    msg = getattr(exc, "detail", None) or str(exc)
    return Report(source, [Finding(ERROR, source, line, col if line else None, "", msg)], usable=False)


# -- entry points --------------------------------------------------------------------------------------

def check_file(path: Path | str, campaign: Campaign | None = None, source: str | None = None) -> Report:
    """Check one order file, against ``campaign``'s current state if given.  Never raises for bad input."""
    source = source or str(path)
    try:
        text = yamlio.read_text(path, source)
    except yamlio.YamlError as exc:
        return _fatal(source, exc)
    return check_text(text, source, campaign)


def check_text(text: str, source: str = "orders.yaml", campaign: Campaign | None = None) -> Report:
    try:
        located = yamlio.parse(text, source)
    except yamlio.YamlError as exc:
        return _fatal(source, exc)
    parsed = build(located, text)
    report = Report(source)
    for p in parsed.problems:
        mark = parsed.where(p.path, p.at_key)
        report.findings.append(Finding(ERROR, source, mark[0] if mark else None, mark[1] if mark else None,
                                       json_path(p.path) if p.path else "", p.message, p.hint))
    if campaign is not None and parsed.orders is not None:
        try:
            game = Game.of(campaign)
        except PbemError as exc:
            return _fatal(source, exc)
        report.findings += RuleCheck(parsed, game, source).run()
    report.findings.sort(key=lambda f: (f.line or 0, f.column or 0, f.severity != ERROR))
    return report


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
        report = Report(source, [Finding(ERROR, str(campaign_dir), None, None, "", str(exc))], usable=False)
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
        game = cls(camp.load_state(turn), camp.game_map, tables())
        if key is not None:
            if len(cache) > 16:
                cache.clear()
            cache[key] = game
        return game


_GAMES: dict[tuple, Game] = {}

SHIP_HEXES = "Water and coastal City, Sandy Coast or Fishing Village hexes"
BATTLE_PHASES = ("battle", "sea_battle", "land_battle")
TARGET_WORDS = {
    "hex": "a hex id, e.g. \"0712\"", "stack": "a hex id or a unit id", "city": "a city id",
    "neutral_city": "a neutral city", "enemy_city": "a city another player controls",
    "enemy_minor_city": "a minor city another player controls", "besieged_city": "a city under siege",
    "player": "an opponent (their home city id)", "leader": "a leader's id", "own_leader": "one of your leaders",
}


@dataclass
class Sim:
    """Where the player's units will be, as the orders are read in sequence."""

    units: dict[str, Unit]  # own units (and those the recruits will create), by id
    hex: dict[str, str]
    carrier: dict[str, str | None]

    def at(self, h: str) -> list[str]:
        return sorted_ids(u for u, x in self.hex.items() if x == h)

    def cargo(self, carrier: str) -> list[str]:
        out = [u for u, c in self.carrier.items() if c == carrier]
        for u in list(out):
            out += [x for x in self.cargo(u) if x not in out]
        return out

    def stack(self, h: str, skip: Iterable[str] = ()) -> int:
        """R-UNIT-2 at hex ``h``, leaving out ``skip``."""
        skip = set(skip)
        n = 0
        for uid in self.at(h):
            u = self.units[uid]
            if uid in skip or self.carrier[uid] is not None or not u.type.counts_for_stacking:
                continue
            n += u.value
        return n


class RuleCheck:
    """Layer 2: the orders against the campaign's current state."""

    def __init__(self, parsed: Parsed, game: Game, source: str):
        self.p = parsed
        self.o = parsed.orders
        self.state, self.map, self.tables = game.state, game.game_map, game.tables
        self.source = source
        self.findings: list[Finding] = []
        self.me = self.o.player
        self.played: dict[str, str] = {}  # card -> where it is first played in the own turn

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
        mine = {u.id: u for u in st.units.values() if u.owner == self.me}
        self.sim = Sim(dict(mine), {u.id: u.hex for u in mine.values()},
                       {u.id: u.carried_by for u in mine.values()})
        self.predicted: dict[str, str] = {}  # unit id -> what will create it
        self.seen = sight(st, self.map, self.me)
        self.hand = list(st.players[self.me].hand)
        self.gains = self.cities_won_before_moves()
        self.land_targets: set[str] = set()
        self.cannot_move = [e for e in st.effects if e.kind == "cannot_move_or_attack" and e.target == self.me
                            and e.until_turn >= st.turn]
        self.check_discard(("discard",))
        self.check_upkeep(("upkeep",))
        self.check_recruit()
        self.check_cards()
        self.check_diplomacy()
        self.check_moves("first_move")
        self.check_attacks("sea_battle")
        self.check_attacks("land_battle")
        self.check_moves("second_move")
        self.check_standing()
        return self.findings

    # -- header -------------------------------------------------------------------------------------
    def header(self) -> bool:
        st, o, bad = self.state, self.o, self.p.bad_header
        data = self.p.data
        if "campaign" not in bad and o.campaign != st.campaign:
            self.error(("campaign",), f"this file is for campaign '{o.campaign}', but the campaign is "
                                      f"'{st.campaign}'", f"write campaign: {st.campaign}")
        if "turn" not in bad and o.turn != st.turn:
            if st.finished:
                self.error(("turn",), f"the game is over (after turn {st.turn - 1}); no more orders are taken")
            elif o.turn < st.turn:
                self.error(("turn",), f"turn {o.turn} is over; the campaign is at turn {st.turn}",
                           f"write turn: {st.turn}")
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
        if st.players[o.player].eliminated_turn is not None:
            self.error(("player",), f"{o.player} is out of the game (since turn "
                                    f"{st.players[o.player].eliminated_turn})")
            return False
        if "secret" not in data:
            self.warn((), "no secret: the moderator accepts a file only with your secret in it",
                      "add a line  secret: <the secret the moderator gave you>")
        return True

    # -- units --------------------------------------------------------------------------------------
    def own_ids(self) -> list[str]:
        return sorted_ids(self.sim.units)

    def unit(self, path: tuple, uid: str) -> Unit | None:
        """One of the player's units (or one the recruits will create), else an error and None."""
        u = self.sim.units.get(uid)
        if u is None:
            guess = did_you_mean(uid, self.own_ids())
            self.error(path, f"{uid} is not one of your units",
                       f"did you mean {guess}?" if guess else f"your units: {short_list(self.own_ids(), 10)}")
            return None
        if uid in self.predicted:
            self.warn(path, f"{uid} does not exist yet: it is the id {self.predicted[uid]} will get",
                      "this holds only if that recruitment succeeds")
        if u.away_until is not None:
            self.error(path, f"{u.label} is away from the game until turn {u.away_until}")
            return None
        return u

    def units_list(self, base: tuple, ids: Iterable[str]) -> list[str]:
        """Resolve a ``units`` list (unit ids, or hex ids for the stack there) to unit ids, reporting bad ones."""
        out: list[str] = []
        for j, x in enumerate(ids):
            path = base + (j,)
            if is_hex_id(x):
                if x not in self.map.terrain:
                    self.error(path, f"{x} is not a hex of this map", self.map_size_hint())
                    continue
                here = [u for u in self.sim.at(x) if self.sim.carrier[u] is None]
                if not here:
                    self.error(path, f"you have no units in {x} (a hex id here means all your units there)")
                for u in here:
                    if u not in out:
                        out.append(u)
                continue
            if x in out:
                self.warn(path, f"{x} is named twice")
                continue
            if self.unit(path, x) is not None:
                out.append(x)
        return out

    def map_size_hint(self) -> str:
        g = self.map.grid
        d = g.digits
        return f"this map has columns {1:0{d}d}-{g.cols:0{d}d} and rows {1:0{d}d}-{g.rows:0{d}d}"

    def neighbours_hint(self, h: str) -> str:
        return f"neighbours of {h} are {', '.join(self.map.neighbours[h])}"

    # -- cards --------------------------------------------------------------------------------------
    def card_in_hand(self, path: tuple, cid: str) -> None:
        card = self.tables.cards[cid]
        if cid in self.played:
            self.error(path, f"{card.name} is already played at {self.played[cid]}",
                       "the deck holds one of each card")
            return
        self.played[cid] = json_path(path)
        if cid not in self.hand:
            self.warn(path, f"{card.name} is not in your hand: it is played only if you draw it this turn",
                      f"your hand: {', '.join(self.hand) or 'empty'}")

    def check_card(self, path: tuple, use: CardUse, where: str, attack: Attack | None = None) -> None:
        """Timing, target and hand of one card play.  ``where``: cards, move, sea_battle, land_battle,
        defence, reaction."""
        card = self.tables.cards[use.card]
        tm = card.timing
        phase, turn, role, trigger = tm.get("phase"), tm.get("turn"), tm.get("role"), tm.get("trigger", "none")
        cpath = path + ("card",) if isinstance(self.raw(path), dict) else path
        own_turn = where in ("cards", "move", "sea_battle", "land_battle")
        problem = self.timing_problem(card, where, attack)
        if problem:
            self.error(cpath, *problem)
            return
        if own_turn:
            self.card_in_hand(cpath, use.card)
        if use.if_needed and phase not in BATTLE_PHASES:
            self.warn(path + ("if_needed",), f"if_needed matters only for battle cards; {card.name} is played "
                                             f"anyway")
        self.check_target(path, card, use.target, where, trigger)

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
                return (f"{name} is played when you capture a city", "name it in the cards of that land_battle "
                                                                     "attack")
            if trigger != "none" or turn == "other":
                return (f"{name} is played in other players' turns", "put it in standing.reactions")
            return None
        if where == "move":
            if phase != "move":
                return (f"{name} is not a movement card",
                        "movement cards: forced_march, marathon, relieving_force")
            return None
        if where in ("sea_battle", "land_battle"):
            if not in_battle:
                if phase == "move":
                    return (f"{name} is a movement card", "put it in the cards of a move")
                return (f"{name} is not a battle card", "play it in cards:" if turn != "other"
                        else "put it in standing.reactions")
            if phase not in ("battle", where):
                return (f"{name} is played in the {phase.replace('_', ' ')} phase only", "")
            if trigger == "city_captured" and where != "land_battle":
                return (f"{name} is played when you capture a city, in a land battle", "")
            if turn == "other" or role == "defense":
                return (f"{name} is a defender's card", where_def)
            for e in card.effects:
                b = e.get("battle")
                if b in ("land", "sea") and f"{b}_battle" != where:
                    return (f"{name} counts in {b} battles only", f"name it in a {b}_battle attack")
            return None
        if where == "defence":
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
        implicit = (where == "move" and kind == "stack") or (where == "reaction" and trigger != "none") or \
            (where in ("sea_battle", "land_battle") and trigger in ("battle_lost", "city_captured"))
        if kind == "none" or implicit:
            if target is not None:
                self.warn(tpath, f"{card.name} takes no target here; '{target}' is ignored")
            return
        if target is None:
            self.error(path, f"{card.name} needs a target: {TARGET_WORDS.get(kind, kind)}",
                       f"write {{card: {card.id}, target: ...}}")
            return
        st, m = self.state, self.map
        if kind == "hex":
            if target not in m.terrain:
                self.error(tpath, f"'{target}' is not a hex of this map", self.map_size_hint())
            return
        if kind == "stack":
            if is_hex_id(target):
                if target not in m.terrain:
                    self.error(tpath, f"'{target}' is not a hex of this map", self.map_size_hint())
            elif target.split("-")[0] == st.players[self.me].abbr and target not in self.sim.units:
                self.error(tpath, f"{target} is not one of your units", "name the stack by its hex id")
            elif "-" not in target:
                self.error(tpath, f"'{target}' is not a hex or unit id", TARGET_WORDS["stack"])
            return
        if kind in ("leader", "own_leader"):
            u = self.sim.units.get(target)
            if kind == "own_leader" or target.split("-")[0] == st.players[self.me].abbr:
                if u is None or u.type is not UnitType.LEADER:
                    self.error(tpath, f"'{target}' is not one of your leaders",
                               f"your leaders: {', '.join(self.own_of(UnitType.LEADER)) or 'none'}")
            elif "-" not in target:
                self.error(tpath, f"'{target}' is not a leader id", "leader ids look like SPA-L2")
            return
        if kind == "player":
            if target == self.me:
                self.error(tpath, f"{card.name} names yourself; it needs an opponent")
            elif target not in st.players:
                guess = did_you_mean(target, st.players)
                self.error(tpath, f"'{target}' is not a player of this campaign",
                           f"did you mean {guess}?" if guess else f"players: {', '.join(st.turn_order)}")
            elif st.players[target].eliminated_turn is not None:
                self.error(tpath, f"{target} is out of the game")
            return
        city = self.city(tpath, target)
        if city is None:
            return
        ctl = st.cities[city.id].controller
        if kind == "neutral_city":
            if ctl == self.me:
                self.error(tpath, f"you control {city.name}; {card.name} needs a neutral city")
            elif ctl is not None:
                self.add(self.later, tpath, f"{city.name} is controlled by {ctl}, not neutral")
        elif kind in ("enemy_city", "enemy_minor_city"):
            if kind == "enemy_minor_city" and city.is_city_state:
                self.error(tpath, f"{city.name} is a city state; {card.name} needs a minor city")
            elif ctl == self.me:
                self.error(tpath, f"you control {city.name}; {card.name} needs a city another player controls")
            elif ctl is None:
                self.add(self.later, tpath, f"{city.name} is neutral now; {card.name} needs a city another "
                                            f"player controls")
        elif kind == "besieged_city":
            if not board.under_siege(st, m, city.id):
                self.add(self.later, tpath, f"{city.name} is not under siege now")

    def raw(self, path: tuple) -> Any:
        node = self.p.data
        for part in path:
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                return None
        return node

    def own_of(self, utype: UnitType) -> list[str]:
        return [u for u in self.own_ids() if self.sim.units[u].type is utype]

    def city(self, path: tuple, cid: str):
        c = self.map.cities.get(cid)
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
                guess = did_you_mean(uid, self.own_ids())
                self.error(path, f"{uid} is not one of your units", f"did you mean {guess}?" if guess else
                           f"your Armies and Rowers: {short_list(self.own_of(UnitType.ARMY) + self.own_of(UnitType.ROWERS))}")
            elif not u.type.needs_upkeep:
                self.warn(path, f"{uid} is {a_unit(u.type)}: only Armies and Rowers are paid upkeep")

    # -- recruit ------------------------------------------------------------------------------------
    def check_recruit(self) -> None:
        st, m = self.state, self.map
        me = st.players[self.me]
        per_city: dict[str, dict[str, Any]] = {}
        cost = 0
        for i, r in self.p.indexed("recruit"):
            base = ("recruit", i)
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
                self.error(base + ("city",), f"{city.name} may not recruit: {why}",
                           f"your cities: {', '.join(sorted(st.controlled_cities(self.me)))}")
                continue
            slot = per_city.setdefault(city.id, {"units": [], "baggage": 0})
            dup = False
            if r.unit is not None:
                utype = UnitType(r.unit)
                if utype.is_ship and not m.is_coastal_city(city.id):
                    self.error(base + ("unit",), f"{city.name} is not on the coast: it cannot build a {r.unit}",
                               "Fleets and Transports are built only in coastal cities")
                slot["units"].append((i, utype))
                limit = 1 + self.extra_recruits(city.id)
                if len(slot["units"]) > limit:
                    dup = True
                    first = slot["units"][0][0]
                    self.error(base + ("unit",), f"{city.name} already recruits a unit (recruit[{first}]): a city "
                                                 f"recruits one unit per turn"
                               + (" (two with an Organization leader nearby)" if limit > 1 else ""))
                cost += RECRUIT_COST[utype]
                uid = self.predict(utype, city.hex)
                self.predicted[uid] = f"the {r.unit} recruited in {city.name}"
            if r.baggage:
                slot["baggage"] += r.baggage
                if slot["baggage"] > 6:
                    self.error(base + ("baggage",), f"{city.name} recruits {slot['baggage']} Baggage this turn; "
                                                    f"the limit is 6 per city")
                cost += r.baggage * RECRUIT_COST[UnitType.BAGGAGE]
                for _ in range(r.baggage):
                    uid = self.predict(UnitType.BAGGAGE, city.hex)
                    self.predicted[uid] = f"a Baggage recruited in {city.name}"
            new = sum(1 for _, t in slot["units"] if t.counts_for_stacking)
            if r.unit is not None and new and not dup:
                have = board.stack_size(st, city.hex, self.me)
                limit = board.stack_limit(m, city.hex)
                if have + new > limit:
                    self.error(base + ("unit",), f"{city.name} already holds {have} of your Armies, Fleets and "
                                                 f"Transports; the stacking limit there is {limit}",
                               "move units out in an earlier turn; Baggage does not count")
        if cost:
            self.check_gold(cost)

    def extra_recruits(self, city_id: str) -> int:
        """Organization (skill): the friendly city nearest each such leader recruits one more unit."""
        st, m = self.state, self.map
        mine = sorted(st.controlled_cities(self.me))
        n = 0
        for src, e in skill_effects(self.tables, [u for u in st.units_of(self.me) if u.type is UnitType.LEADER
                                                  and u.away_until is None], "extra_recruit"):
            leader = st.units[src.unit]
            if mine:
                nearest = min(mine, key=lambda c: (m.distance(leader.hex, m.cities[c].hex), c))
                if nearest == city_id:
                    n += int(e.get("value", 1))
        return n

    def predict(self, utype: UnitType, h: str) -> str:
        abbr = self.state.players[self.me].abbr
        key = f"{abbr}-{utype.letter}"
        n = self.state.next_id.get(key, 0) + 1 + sum(1 for u in self.predicted if u.startswith(key))
        uid = f"{key}{n}"
        self.sim.units[uid] = Unit(uid, utype, self.me, h)
        self.sim.hex[uid] = h
        self.sim.carrier[uid] = None
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
            val = -(-inc // 2) if c.hostile else inc
            best += val
            if cid not in blocked and not board.under_siege(st, m, cid):
                expect += val
        return expect, best

    def check_gold(self, cost: int) -> None:
        st = self.state
        gold = st.players[self.me].gold
        expect, best = self.income()
        upkeep = sum(1 for u in st.units_of(self.me) if u.type.needs_upkeep)
        path = ("recruit",)
        if cost > gold + best:
            self.add(ERROR, path, f"recruiting costs {cost} gold; you have {gold} and at most {best} income this "
                                  f"turn", "Army, Rowers, Transport 2, Fleet 4, Baggage 1", at_key=True)
        elif cost > gold + expect - upkeep:
            self.add(WARNING, path, f"recruiting costs {cost} gold; you have {gold}, about {expect} income and "
                                    f"{upkeep} upkeep to pay first",
                     "recruits that cannot be paid for are skipped, in the order written", at_key=True)

    # -- diplomacy ----------------------------------------------------------------------------------
    def diplomacy_rolls(self) -> tuple[int, list[str]]:
        st = self.state
        n, why = 1, ["1 free"]
        for src, e in player_effects(st, self.tables, self.me, "diplomacy_rolls"):
            if e.get("side", "own") == "own" and int(e.get("value", 0)) > 0:
                n += int(e["value"])
                why.append(f"{src.name}")
        for _, use in self.p.indexed("cards"):
            card = self.tables.cards[use.card]
            for e in card.effects:
                if e["kind"] == "diplomacy_rolls" and e.get("side") == "own" and int(e.get("value", 0)) > 0:
                    n += int(e["value"])
                    why.append(card.name)
        for e in st.effects:
            if e.kind == "diplomacy_rolls" and e.target == self.me and e.value < 0:
                n += e.value
                why.append(f"{e.source} against you")
        return max(n, 0), why

    def check_diplomacy(self) -> None:
        st, m = self.state, self.map
        items = self.p.indexed("diplomacy")
        for i, target in items:
            path = ("diplomacy", i)
            city = self.city(path, target)
            if city is None:
                continue
            c = st.cities[city.id]
            if c.home_of is not None:
                self.error(path, f"{city.name} is a home city: home cities are never diplomacy targets",
                           "target a neutral or enemy-controlled minor city, or a hostile city of yours")
            elif c.controller == self.me and not c.hostile:
                self.add(self.later, path, f"you control {city.name} and it is not hostile: a diplomacy roll "
                                           f"there does nothing",
                         "target a neutral or enemy-controlled minor city, or a hostile city of yours")
        n, why = self.diplomacy_rolls()
        if len(items) > n:
            i = items[n][0]
            self.warn(("diplomacy", i), f"you have {n} diplomacy roll{'s' if n != 1 else ''} this turn "
                                        f"({', '.join(why)}); the targets from here on are not rolled for",
                      "cards like intrigue or bribes in cards: add rolls")

    def cities_won_before_moves(self) -> set[str]:
        """Cities the player's own diplomacy or cards may win before the moves (then entering is legal)."""
        out = {t for _, t in self.p.indexed("diplomacy")}
        for _, use in self.p.indexed("cards"):
            card = self.tables.cards.get(use.card)
            if card and use.target and any(e["kind"] == "control_city" for e in card.effects):
                out.add(use.target)
        return out

    def check_cards(self) -> None:
        for i, use in self.p.indexed("cards"):
            self.check_card(("cards", i), use, "cards")

    # -- moves --------------------------------------------------------------------------------------
    def check_moves(self, section: str) -> None:
        self.spent: dict[str, int] = {}
        self.moved: dict[str, int] = {}
        self.disembarked: dict[str, int] = {}
        for i, mv in self.p.indexed(section):
            self.check_move(section, i, mv)

    def check_move(self, section: str, i: int, mv: Move) -> None:
        st, m, sim = self.state, self.map, self.sim
        base = (section, i)
        if self.cannot_move:
            e = self.cannot_move[0]
            self.warn(base, f"{e.source} was played on you: your units may not move or attack this turn")
        ids = self.units_list(base + ("units",), mv.units)
        if not ids:
            return
        group = set(ids)
        for j, uid in enumerate(ids):
            c = sim.carrier[uid]
            if c is not None and c not in group:
                self.error(self.unit_path(base, mv, uid), f"{uid} is aboard {c}: move {c} (it takes its cargo "
                                                          f"along), or unload {uid} first")
                return
            if uid in self.disembarked:
                self.error(self.unit_path(base, mv, uid), f"{uid} disembarked in {section}[{self.disembarked[uid]}]"
                                                          f": a unit that disembarks moves no further that phase")
            if uid in self.moved:
                self.warn(self.unit_path(base, mv, uid), f"{uid} also moves in {section}[{self.moved[uid]}]; "
                                                         f"its movement points are shared between the two moves")
        starts = {sim.hex[u] for u in ids}
        if len(starts) > 1:
            where = ", ".join(f"{u} in {sim.hex[u]}" for u in ids[:6])
            self.error(base + ("units",), "the units of one move must start in one hex", where)
            return
        start = starts.pop()
        units = [sim.units[u] for u in ids]
        ships = [u for u in units if u.type.is_ship]
        sea = bool(ships)
        aboard: dict[str, list[str]] = {s.id: [c for c in sim.cargo(s.id)] for s in ships}
        # load: board the moving ships in the start hex (R-PH-MOVE)
        loaded: list[str] = []
        for k, uid in enumerate(mv.load):
            path = base + ("load", k)
            u = self.unit(path, uid)
            if u is None:
                continue
            if not ships:
                self.error(path, "load: needs a Fleet or Transport among the move's units")
                break
            if sim.hex[uid] != start:
                self.error(path, f"{uid} is in {sim.hex[uid]}, not in {start} where the ships start")
                continue
            if u.type.is_ship:
                self.error(path, f"{uid} is a ship: ships are not loaded; name it in units to move it")
                continue
            if any(uid in a for a in aboard.values()):
                continue  # already aboard one of the moving ships
            if not m.ship_may_stop(start):
                self.error(path, f"{start} is {m.terrain[start].name}: units board only where the ships are "
                                 f"docked or beached (a coastal City, Sandy Coast or Fishing Village hex)")
                continue
            ship = next((s for s in ships if self.room(s, aboard[s.id], u)), None)
            if ship is None:
                self.error(path, f"no room for {uid} aboard {', '.join(s.id for s in ships)}",
                           "a Fleet carries 1 Rowers and 2 Baggage; a Transport 1 Army (or Rowers) or 8 Baggage; "
                           "Leaders ride free")
                continue
            aboard[ship.id].append(uid)
            loaded.append(uid)
        if sea:
            for u in units:
                if not u.type.is_ship and sim.carrier[u.id] is None and u.id not in loaded:
                    self.error(self.unit_path(base, mv, u.id), f"{u.id} is not aboard a ship: it cannot go to sea "
                                                               f"with {ships[0].id}", "add it to load:")
            if mv.path:
                for s in ships:
                    if s.type is UnitType.FLEET and not any(sim.units[c].type is UnitType.ROWERS
                                                            for c in aboard[s.id]):
                        self.error(self.unit_path(base, mv, s.id),
                                   f"{s.id} has no Rowers aboard: an unmanned Fleet cannot move (R-UNIT-3)",
                                   "load a Rowers unit: load: [...]")
        movers = self.movers(units, sea, base)
        if movers is None:
            return
        allowance, why = self.allowance(movers, units, aboard, mv, base, sea)
        # the path
        prev, cost, short = start, 0, False
        path_ok = True
        for k, h in enumerate(mv.path):
            p = base + ("path", k)
            if h not in m.terrain:
                self.error(p, f"{h} is not a hex of this map", self.map_size_hint())
                path_ok = False
                break
            if h == prev:
                self.error(p, f"{h} is where the units already are; the path lists the hexes entered")
                continue
            if not m.adjacent(prev, h):
                self.error(p, f"{h} is not next to {prev}", self.neighbours_hint(prev))
                path_ok = False
            t = m.terrain[h]
            if sea and not m.ship_may_enter(h):
                self.error(p, f"{h} is {t.name}{' (inland)' if t.ships in ('dock', 'beach') else ''}: "
                              f"ships enter only {SHIP_HEXES}")
                path_ok = False
            elif not sea and not t.land:
                self.error(p, f"{h} is Water: land units cannot enter the sea",
                           "carry them aboard a Transport (Armies) or Fleet (Rowers) with load:")
                path_ok = False
            elif not t.passable:
                self.error(p, f"{h} is {t.name}: impassable")
                path_ok = False
            cost += t.move_cost or 0
            if cost > allowance and not short:
                short = True
                msg = (f"out of movement points: reaching {h} costs {cost}; the "
                       f"{'ships have' if sea else 'stack has'} {allowance} ({why})")
                if mv.partial:
                    self.warn(p, msg, f"with partial: true the move stops at {prev}")
                else:
                    self.error(p, msg, f"{self.costly_terrain()}; or write partial: true to go as far as possible")
            self.check_entry(section, p, h, mv.partial)
            prev = h
        end = prev
        for u in movers:
            self.spent[u.id] = self.spent.get(u.id, 0) + cost
        if not mv.path and not mv.load and not mv.unload:
            self.warn(base, "this move has no path, load or unload: it does nothing")
        # unload in the last hex
        unloaded: list[str] = []
        for k, uid in enumerate(mv.unload):
            path = base + ("unload", k)
            u = self.unit(path, uid)
            if u is None:
                continue
            if not any(uid in a for a in aboard.values()):
                self.error(path, f"{uid} is not aboard the moving ships"
                           + (f" ({', '.join(aboard)})" if aboard else ""))
                continue
            if path_ok and not m.ship_may_stop(end):
                self.error(path, f"{end} is {m.terrain[end].name}: units go ashore only where ships dock or beach "
                                 f"(a coastal City, Sandy Coast or Fishing Village hex)")
                continue
            unloaded.append(uid)
        # stacking at the end (R-UNIT-2)
        if path_ok and (mv.path or unloaded):
            moving = set(ids) | {c for a in aboard.values() for c in a}
            if sea:
                n = sum(s.value for s in ships) + sum(sim.units[u].value for u in unloaded
                                                       if sim.units[u].type.counts_for_stacking)
            else:
                n = sum(u.value for u in units if u.type.counts_for_stacking)
            have = sim.stack(end, skip=moving)
            limit = board.stack_limit(m, end)
            if have + n > limit:
                last = base + (("path", len(mv.path) - 1) if mv.path else ("unload",))
                self.error(last, f"{have + n} of your Armies, Fleets and Transports would stand in {end} "
                                 f"({m.terrain[end].name}); the stacking limit there is {limit}",
                           "Leaders, Baggage and units aboard ships do not count")
        if sea and section == "second_move" and mv.path and path_ok and not m.ship_may_stop(end):
            self.warn(base + ("path", len(mv.path) - 1),
                      f"the ships end the turn at sea in {end}: each makes a navigation roll (5-6 sinks it)",
                      "end in a coastal City, Sandy Coast or Fishing Village hex (R-PH-SECOND)")
        # where the orders leave the units
        for uid in set(ids) | {c for a in aboard.values() for c in a}:
            sim.hex[uid] = end
        for sid, cargo in aboard.items():
            for c in cargo:
                if c in loaded:
                    sim.carrier[c] = sid
        for uid in unloaded:
            sim.carrier[uid] = None
            self.disembarked[uid] = i
        for uid in ids:
            self.moved.setdefault(uid, i)

    def unit_path(self, base: tuple, mv, uid: str) -> tuple:
        try:
            return base + ("units", list(mv.units).index(uid))
        except ValueError:
            return base + ("units",)

    def room(self, ship: Unit, cargo: list[str], u: Unit) -> bool:
        """R-PH-MOVE: a Fleet carries 1 Rowers and 2 Baggage; a Transport 1 Army or Rowers, or 8 Baggage."""
        types = [self.sim.units[c].type for c in cargo]
        if u.type is UnitType.LEADER:
            return True
        armies = sum(1 for t in types if t in (UnitType.ARMY, UnitType.ROWERS))
        bags = sum(1 for t in types if t is UnitType.BAGGAGE)
        if ship.type is UnitType.FLEET:
            if u.type is UnitType.ROWERS:
                return not any(t is UnitType.ROWERS for t in types)
            if u.type is UnitType.BAGGAGE:
                return bags < 2
            return False
        if u.type in (UnitType.ARMY, UnitType.ROWERS):
            return armies == 0 and bags == 0
        if u.type is UnitType.BAGGAGE:
            return armies == 0 and bags < 8
        return False

    def movers(self, units: list[Unit], sea: bool, base: tuple) -> list[Unit] | None:
        """The units whose movement points limit the move; None (and an error) if nothing can move."""
        if sea:
            return [u for u in units if u.type.is_ship]
        free = [u for u in units if self.sim.carrier[u.id] is None]
        fighters = [u for u in free if u.type in (UnitType.ARMY, UnitType.ROWERS)]
        armies = [u for u in free if u.type is UnitType.ARMY]
        bags = [u for u in free if u.type is UnitType.BAGGAGE]
        carried_bags = [u for u in units if u.type is UnitType.BAGGAGE and self.sim.carrier[u.id] is not None]
        if bags and not armies:
            self.error(base + ("units",), "Baggage cannot move by itself: it moves with an Army (4 each)")
            return None
        if len(bags) + len(carried_bags) > 4 * len(armies) and armies:
            self.error(base + ("units",), f"{len(armies)} Arm{'y' if len(armies) == 1 else 'ies'} carry at most "
                                            f"{4 * len(armies)} Baggage; this move has {len(bags) + len(carried_bags)}")
        return fighters or [u for u in free if u.type is UnitType.LEADER] or None

    def allowance(self, movers: list[Unit], units: list[Unit], aboard: dict[str, list[str]], mv: Move,
                  base: tuple, sea: bool) -> tuple[int, str]:
        """Movement points of the move (R-PH-MOVE): the least of its movers', with bonuses, minus points
        already spent this phase."""
        st, tb = self.state, self.tables
        traits = player_effects(st, tb, self.me, "movement")
        leaders = [u for u in units if u.type is UnitType.LEADER]
        leaders += [self.sim.units[c] for a in aboard.values() for c in a if self.sim.units[c].type is UnitType.LEADER]
        leaders = [u for u in leaders if u.id in st.units]
        skills = list(skill_effects(tb, leaders, "movement"))
        cards: list[tuple[str, dict]] = []
        for k, use in enumerate(mv.cards):
            cpath = base + ("cards", k)
            self.check_card(cpath, use, "move")
            card = tb.cards[use.card]
            if card.timing.get("phase") != "move":
                continue
            for e in card.effects:
                if e["kind"] != "movement":
                    continue
                if e.get("condition") == "aid_of_city" and not self.aids_city(mv):
                    self.warn(cpath, f"{card.name} gives its bonus only to a stack that ends in or next to a "
                                     f"city of yours under siege; none is there now")
                    continue
                cards.append((card.name, e))
        best: tuple[int, str] | None = None
        for u in movers:
            if u.type is UnitType.FLEET:
                pts, why = 10, ["Fleet 10"]
            elif u.type is UnitType.TRANSPORT:
                pts, why = 8, ["Transport 8"]
            elif u.type is UnitType.LEADER:
                pts, why = 6, ["Leaders alone 6"]
            else:
                pts, why = 4, [f"{u.type.value.capitalize()} 4"]
            for src, e in traits + skills:
                if unit_matches(e, u):
                    pts += int(e.get("value", 0))
                    why.append(f"{src.name} +{e.get('value')}")
            for name, e in cards:
                if unit_matches(e, u):
                    pts += int(e.get("value", 0))
                    why.append(f"{name} +{e.get('value')}")
            pts -= self.spent.get(u.id, 0)
            if self.spent.get(u.id):
                why.append(f"{self.spent[u.id]} spent earlier this phase")
            if best is None or pts < best[0]:
                best = (pts, ", ".join(why))
        return best if best is not None else (0, "")

    def aids_city(self, mv: Move) -> bool:
        if not mv.path or mv.path[-1] not in self.map.terrain:
            return False
        end = mv.path[-1]
        for cid in self.state.controlled_cities(self.me):
            h = self.map.cities[cid].hex
            if (h == end or self.map.adjacent(h, end)) and board.under_siege(self.state, self.map, cid):
                return True
        return False

    def costly_terrain(self) -> str:
        names = [t.name for t in self.map_terrain_types() if (t.move_cost or 0) >= 2]
        return "entering " + ", ".join(names) + " costs 2 or more"

    def map_terrain_types(self):
        return sorted({t.id: t for t in self.map.terrain.values()}.values(), key=lambda t: t.id)

    def check_entry(self, section: str, p: tuple, h: str, partial: bool = False) -> None:
        """R-PH-MOVE: no entry into enemy or neutral cities or hexes holding enemy fighting units."""
        st, m = self.state, self.map
        city = m.city_at.get(h)
        if city is not None:
            ctl = st.cities[city.id].controller
            if ctl != self.me:
                what = "a neutral city" if ctl is None else f"a city of {st.players[ctl].name}" \
                    if ctl in st.players else "not your city"
                if city.id in self.gains or (section == "second_move" and h in self.land_targets):
                    self.warn(p, f"{h} is {city.name}, {what}: your units may enter it only if you win it first",
                              "by diplomacy, a card or the land battle before this move")
                elif partial:
                    self.warn(p, f"{h} is {city.name}, {what}: your units may not enter it (R-PH-MOVE)",
                              "with partial: true the move stops before it")
                else:
                    self.error(p, f"{h} is {city.name}, {what}: your units may not enter it (R-PH-MOVE)",
                               "capture it in a land battle or win it by diplomacy first")
                return
        if h in self.seen:
            enemies = board.enemy_combat_units(st, h, self.me)
            if enemies:
                sev = WARNING if partial or section == "second_move" and h in self.land_targets else self.later
                self.add(sev, p, f"{h} holds enemy Armies, Rowers or manned Fleets now: your units may not enter it",
                         "attack them in a battle phase first" if sev == ERROR else
                         "they may have left before your move")

    # -- battles ------------------------------------------------------------------------------------
    def check_attacks(self, section: str) -> None:
        used: dict[str, int] = {}
        for i, a in self.p.indexed(section):
            self.check_attack(section, i, a, used)

    def check_attack(self, section: str, i: int, a: Attack, used: dict[str, int]) -> None:
        st, m, sim = self.state, self.map, self.sim
        base = (section, i)
        land = section == "land_battle"
        if self.cannot_move:
            self.warn(base, f"{self.cannot_move[0].source} was played on you: your units may not move or attack "
                            f"this turn")
        h = a.target
        target_ok = h in m.terrain
        if not target_ok:
            self.error(base + ("target",), f"{h} is not a hex of this map", self.map_size_hint())
        ids = self.units_list(base + ("units",), a.units)
        for uid in ids:
            u = sim.units[uid]
            upath = self.unit_path(base, a, uid)
            if uid in used:
                self.error(upath, f"{uid} already attacks in {section}[{used[uid]}]")
                continue
            used[uid] = i
            if u.type is UnitType.LEADER:
                continue  # leaders go with the attackers and add their skills
            carrier = sim.carrier[uid]
            if land:
                if u.type not in (UnitType.ARMY, UnitType.ROWERS) or carrier is not None:
                    what = f"aboard {carrier}" if carrier else a_unit(u.type)
                    self.error(upath, f"{uid} is {what}: only Armies and Rowers on land attack in a land battle",
                               "ships attack in sea_battle")
                    continue
            else:
                if u.type is UnitType.FLEET:
                    if not any(sim.units[c].type is UnitType.ROWERS for c in sim.cargo(uid)):
                        self.error(upath, f"{uid} has no Rowers aboard: an unmanned Fleet cannot fight (R-UNIT-3)")
                        continue
                elif u.type is UnitType.TRANSPORT:
                    if not any(sim.units[c].type is UnitType.ARMY for c in sim.cargo(uid)):
                        self.error(upath, f"{uid} carries no Army: only Transports with an Army fight in a sea "
                                          f"battle")
                        continue
                elif carrier is not None:
                    continue  # cargo goes with its ship
                else:
                    self.error(upath, f"{uid} is {a_unit(u.type)}: only manned Fleets and Transports with an "
                                      f"Army fight in a sea battle", "Armies and Rowers attack in land_battle")
                    continue
            if target_ok:
                here = sim.hex[uid]
                if here == h:
                    self.error(upath, f"{uid} is in {h} itself: attack a hex next to your units")
                elif not m.adjacent(here, h):
                    self.error(upath, f"{uid} is in {here}, not next to the target {h}",
                               f"neighbours of {h} are {', '.join(m.neighbours[h])}")
        if not target_ok:
            return
        t = m.terrain[h]
        city = m.city_at.get(h)
        if land:
            self.land_targets.add(h)
            if not t.land:
                self.error(base + ("target",), f"{h} is Water: land battles are fought on land",
                           "attack ships at sea in sea_battle")
            elif not t.passable:
                self.error(base + ("target",), f"{h} is {t.name}: nobody can stand there to be attacked")
            elif city is not None and st.cities[city.id].controller == self.me and not self.enemies_seen(h):
                self.error(base + ("target",), f"{h} is {city.name}, your own city")
            elif city is None and h in self.seen and not self.enemies_seen(h):
                self.add(self.later, base + ("target",), f"there is nothing to attack in {h} now "
                                                         f"(no enemy units you can see, no city)")
        else:
            if not m.ship_may_enter(h):
                self.error(base + ("target",), f"{h} is {t.name}: sea battles are fought in {SHIP_HEXES}")
            elif h in self.seen and not self.enemy_ships_seen(h):
                self.add(self.later, base + ("target",), f"there are no enemy ships you can see in {h} now")
        if (a.plunder or a.destroy) and not land:
            key = "plunder" if a.plunder else "destroy"
            self.error(base + (key,), f"{key} belongs to land battles: cities are captured on land")
        elif a.plunder or a.destroy:
            key = "plunder" if a.plunder else "destroy"
            if city is None:
                self.error(base + (key,), f"{h} is not a city: there is nothing to {key}")
            elif st.cities[city.id].controller == self.me:
                self.error(base + (key,), f"you control {city.name}: you cannot {key} your own city")
            elif a.destroy and not a.plunder:
                self.error(base + ("destroy",), "destroy needs plunder: true as well: you may destroy only a city "
                                                "you plunder (R-BAT-4)")
        for k, use in enumerate(a.cards):
            cpath = base + ("cards", k)
            self.check_card(cpath, use, section, a)
            card = self.tables.cards[use.card]
            for e in card.effects:
                if e.get("vs") == "city" and city is None:
                    self.warn(cpath, f"{card.name} counts only in a battle for a city; {h} is not a city")
                    break
                if e.get("vs") == "ships" and h in self.seen and not self.enemy_ships_seen(h):
                    self.warn(cpath, f"{card.name} counts only against Fleets and Transports; you see none in {h}")
                    break

    def enemies_seen(self, h: str) -> bool:
        return h in self.seen and any(u.owner != self.me for u in self.state.units_at(h))

    def enemy_ships_seen(self, h: str) -> bool:
        return h in self.seen and any(u.owner != self.me and u.type.is_ship for u in self.state.units_at(h))

    # -- standing orders ----------------------------------------------------------------------------
    def check_standing(self) -> None:
        data = self.p.data
        if "standing" not in data or self.o.standing is None:
            return
        st = self.o.standing
        if data.get("standing") is None:
            self.warn(("standing",), "standing: is empty: it resets all your standing orders to the defaults",
                      "remove the line to keep the standing orders you have")
            return
        for i, dc in self.p.indexed("standing", "defence_cards"):
            path = ("standing", "defence_cards", i)
            self.check_card(path, CardUse(dc.card, None, dc.if_needed), "defence")
            if dc.hex is not None and dc.hex not in self.map.terrain:
                self.error(path + ("hex",), f"{dc.hex} is not a hex of this map", self.map_size_hint())
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
        self.check_discard(("standing", "discard"))
        self.check_upkeep(("standing", "upkeep"))
