"""Fog of war: what one player may see and know (the only place hidden information is decided).

``view(state, game_map, player, records=None, before=None)`` builds a plain, redacted dict; it never changes
the state.  Every report, the ``show`` command and the computer player read the game through it.
``player=None`` is the moderator's full view.  ``events_for(records, player, ...)`` filters a turn's event
log the same way; ``view`` calls it when given the log.

A player sees:

- the whole terrain; every city with its controller, hostility and razed counters, income and (a minor
  city's) trait; the turn order, everyone's city count and hand size, the deck and discard pile sizes;
- their own units (with ids), gold, hand, leaders with skills, home city traits, standing orders and the
  lasting effects they played, that act on them, a city or unit of theirs or a hex where their units stand,
  or that act on everyone (Truce: no one may attack): ``effect_known``, for the state and the log alike;
- of other factions' and neutral units, the counts by type and the leaders' names, in or adjacent to any hex
  holding their units or a city they control (``sight``).  Blocks show their type, never their value;
- everything about the battles they took part in (every die, modifier, card and casualty), from the log;
  starting a revolt with a diplomacy roll or card is not taking part in its battle (docs/rules.md, Revolts):
  the instigator sees their roll or card, the revolt with its rebels, their order's result and, as everyone
  does, whether the city went neutral.

A player never sees other treasuries, hands, cards discarded unplayed, home city traits, leader skills (unless
the log shows them in a battle the player fought), standing orders, other units' ids, or units out of sight.

Events (``events_for``) a player may know, in log order, each either whole or redacted:

1. a record with ``private_to`` (a player id or a list of them) is shown only to those players;
2. whole: the player's own events; events naming the player, one of their units or a city they controlled
   during the turn (a card played on them, a diplomacy roll on their city, a unit of theirs captured);
   everything in a battle they took part in -- with the dice rolled for each of these.  A city is theirs
   while they hold it: the log's control changes are followed record by record, and a unit is theirs while
   they own it (CAPTURED records followed the same way).  Outside a battle they
   fought, other players' unit ids in these become the leader's name or the unit's type (a leader one
   captured on a move); a move that captured their units is not theirs (its CAPTURED records are);
3. redacted (no dice, no amounts, no unit ids -- units become counts by type): public events (city control
   changes, revolts, razed counters, cards played, players out, victory, NMRs) and events in a hex the player
   could see this turn (moves, battles, casualties, recruits).  A card played names its target as far as the
   player may know it: a city or a player; another's leader by name if it stood in sight, a stack by its hex
   if in sight; else only whose it was (``target_owner``, ``target_hidden``).  Units lost are never public
   news: a unit's DESTROYED (a city's is public) is told only in sight, like a casualty, and a record a card
   caused with no hex of its own (Short Supplies' Baggage, Storms' ships, Desertions' units) happened where
   the card's target was (``_card_places``) -- for the card's own player too: a card aimed at units must see
   them (``pbem.cards.target_in_sight``), but Plague names a city, and what it did out of sight is not told
   (docs/rules.md, Decision (fog, card targets)).  A revolt out of sight is news only if the city went neutral
   or a card negated it (``_revolt_public``): one put down would tell that units held the city;
4. everything else is hidden, with its dice: other players' orders and their results, draws, discards,
   income, upkeep, gold, experience and new traits.

Dice records have no hex or player of their own: a roll belongs to the event that follows it (the log
writes every die before the event it caused) and is shown only with that event, whole.

What the phases' events should carry for this to work (``pbem.events``):

- ``private_to`` on anything only some players may read (drawn cards, a Spy's look at a hand, new traits);
- a hex for what happens on the board: ``hex``, ``target`` (a battle's hex), ``from`` and ``path`` (a move,
  ``Ev.MOVED {units, from, path}``), or ``city``;
- unit ids in ``unit``/``units``/``attackers``/``defenders`` (they become counts by type when redacted);
- the player concerned in ``who`` (or ``by``, ``owner``, ``attacker``, ``defender``, ``controller``);
- in a battle, ``Ev.BATTLE {target, attacker, defender, attackers, defenders, attack_total, defence_total,
  winner}`` after the dice, its follow-ups after it; a record that comes later (a captured leader's fate)
  joins its battle with ``battle: <seq of the BATTLE record>``.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any, Callable, Iterable, Sequence

from .board import under_siege
from .gamedata import GameMap
from .model import TYPE_BY_LETTER, Effect, GameState, UnitType, sorted_ids

FRAME_KEYS = ("seq", "turn", "player", "phase")
HIDDEN_CARD = "?"  # a card of the deck or discard pile in a redacted state (``redact``): counted, not named
UNIT_ID = re.compile(r"^[A-Z]{2,4}-[A-Z]+\d+$")

# Events only their own player ever sees (besides the moderator), whatever hex they happen in.
PRIVATE_KINDS = frozenset({
    "order_done", "order_failed", "draw", "discard", "income", "no_income", "upkeep_paid", "baggage_used",
    "starvation", "experience", "new_trait", "gold", "effect_ends", "navigation",
})
# Events everyone learns of, redacted.
PUBLIC_KINDS = frozenset({
    "player_turn", "nmr", "turn_end", "reshuffle", "control", "hostility_removed", "revolt", "neutralised",
    "razed_removed", "card_played", "city_taken", "plunder", "destroyed", "eliminated", "victory",
})
# Events a player learns of, redacted, when they happen in a hex the player could see.
SIGHT_KINDS = frozenset({
    "moved", "battle", "casualty", "retreat", "recruited", "disbanded", "sunk", "captured", "leader_fate",
    "new_leader", "city_taken", "plunder", "destroyed", "revolt",
})
# What follows a battle and belongs to it (R-BAT-3, R-BAT-4, R-UNIT-4).
BATTLE_FOLLOWUPS = frozenset({
    "casualty", "retreat", "city_taken", "plunder", "destroyed", "captured", "leader_fate", "sunk", "gold",
    "control", "neutralised", "card_played", "disbanded",
})
BOUNDARY_KINDS = frozenset({"order_done", "order_failed", "player_turn", "turn_end"})
# The only data keys a redacted event keeps (unit lists become counts; everything else is dropped).
SAFE_KEYS = frozenset({
    "hex", "target", "city", "from", "to", "path", "controller", "previous", "attacker", "defender", "winner",
    "loser", "card", "razed", "left", "hostile", "streak", "nmr", "result", "owner", "by", "new_controller",
    "old_controller", "unit_type", "type", "negated",
})
UNIT_LIST_KEYS = ("units", "unit", "attackers", "defenders", "lost", "destroyed_units", "retreated", "survivors",
                  "captured_units", "aboard", "cargo")
HEX_KEYS = ("hex", "target", "from", "to", "at", "where")
# Keys whose value is a player id.  A player's id is also their home city's id, so a record names the player
# only through these keys; a city is theirs only while they hold it (``city`` and ``target``).
PLAYER_KEYS = ("who", "by", "owner", "attacker", "defender", "controller", "target", "victim", "captor", "winner",
               "loser", "new_controller", "old_controller", "previous")
CITY_KEYS = ("city", "target")
# Unit lists of another player's action that do not make it the named units' owner's business (their own
# record tells them): the units a move captured.
NOT_TOUCHING_KEYS = ("captured",)


# -- the map view -----------------------------------------------------------------------------------------

def sight(state: GameState, game_map: GameMap, player: str) -> set[str]:
    """The hexes ``player`` can see into: in or adjacent to a hex with their units or a city they control."""
    eyes = {u.hex for u in state.units.values() if u.owner == player and u.away_until is None}
    eyes |= {game_map.cities[c].hex for c in state.controlled_cities(player)}
    seen = set(eyes)
    for h in eyes:
        seen.update(game_map.neighbours[h])
    return seen


def standings(state: GameState, player: str | None = None) -> list[dict[str, Any]]:
    """Cities held per player, most first.  The tie-breaks (gold, units) are secret until the game ends,
    so during the game ties share a rank; after it the adjudicator's final standings are public."""
    if state.finished and state.standings:
        return [dict(s) for s in state.standings]
    rows = [{"player": p, "cities": len(state.controlled_cities(p)),
             "out": state.players[p].eliminated_turn is not None} for p in state.turn_order]
    rows.sort(key=lambda r: (r["out"], -r["cities"], state.turn_order.index(r["player"])))
    rank = 0
    last = None
    for i, r in enumerate(rows, start=1):
        if (r["out"], r["cities"]) != last:
            rank, last = i, (r["out"], r["cities"])
        r["rank"] = rank
    return rows


def public(state: GameState) -> dict[str, Any]:
    players = {}
    for pid in state.turn_order:
        p = state.players[pid]
        players[pid] = {"name": p.name, "home": p.home, "abbr": p.abbr, "cities": len(state.controlled_cities(pid)),
                        "eliminated_turn": p.eliminated_turn, "hand_size": len(p.hand),
                        "nmr_streak": p.nmr_streak}
    return {
        "campaign": state.campaign, "turn": state.turn, "last_turn": state.last_turn,
        "turn_order": list(state.turn_order), "players": players,
        "cities": {cid: c.to_dict() for cid, c in state.cities.items()},
        "deck_size": len(state.deck), "discard_size": len(state.discard),
        "finished": state.finished, "winner": state.winner, "standings": standings(state),
        "options": dict(state.options),
    }


# Lasting effects everyone knows of, whoever played them: Truce ("no one may attack" binds everyone, and
# everyone saw the card played).  A new kind is private until it is named here.
PUBLIC_EFFECTS = frozenset({"truce"})


def effect_known(kind: str | None, by: Any, target: Any, player: str, theirs: Callable[[str], bool]) -> bool:
    """Is a lasting effect ``player``'s to know: listed in force in their report and kit while it lasts, its start
    and its end told in their events?  It is if they played it (``by``), if everyone knows it (``PUBLIC_EFFECTS``),
    or if it acts on something of theirs (``theirs(target)``): the player, a city they hold, a unit of theirs, or a
    hex where units of theirs stand -- a stack is named by its hex (Hesitation): at the table the stack's owner
    knows the effect is on it while it lasts and when it ends.  Another player's card on a third player's stack is
    no one else's business, in sight or not (the card played is public news; what it does is not).

    One question for the state (``_touching_effects``, the view and the kit) and the log (``events_for``): each
    says what is the player's from what it knows (``_theirs_now``, ``_Knowledge.theirs``)."""
    return by == player or kind in PUBLIC_EFFECTS or (isinstance(target, str) and theirs(target))


def _theirs_now(state: GameState, player: str) -> Callable[[str], bool]:
    """What is ``player``'s in ``state``, as an effect names it (``effect_known``): the player's id, their
    cities, their units' ids and the hexes where their units stand (in play)."""
    units = [u for u in state.units_of(player) if u.away_until is None]
    mine = {player} | set(state.controlled_cities(player)) | {u.id for u in state.units_of(player)}
    mine |= {u.hex for u in units}
    return mine.__contains__


def _touching_effects(state: GameState, player: str) -> list[dict[str, Any]]:
    """The lasting effects ``player`` knows of (``effect_known``), as the state holds them."""
    theirs = _theirs_now(state, player)
    return [e.to_dict() for e in state.effects if effect_known(e.kind, e.player, e.target, player, theirs)]


def view(state: GameState, game_map: GameMap, player: str | None, records: Sequence[dict[str, Any]] | None = None,
         before: GameState | None = None) -> dict[str, Any]:
    """What ``player`` (None: the moderator) may see of ``state``.

    With ``records`` (the turn's event log) the view also holds ``events`` (``events_for``) and ``battles``
    (the battles the player took part in, whole); ``before`` is the state the turn started from, so that
    the events of hexes the player saw during the turn count too.
    """
    out = public(state)
    if player is None:  # the moderator
        out["viewer"] = None
        out["me"] = None
        out["visible_hexes"] = sorted(game_map.terrain)
        out["units"] = [state.units[u].to_dict() for u in sorted_ids(state.units)]
        out["others"] = []
        out["hands"] = {p: list(state.players[p].hand) for p in state.turn_order}
        out["gold"] = {p: state.players[p].gold for p in state.turn_order}
        out["traits"] = {p: list(state.players[p].traits) for p in state.turn_order}
        out["discard"] = list(state.discard)
        out["effects"] = [e.to_dict() for e in state.effects]
    else:
        if player not in state.players:
            raise KeyError(f"{player!r} is not a player of this game")
        me = state.players[player]
        seen = sight(state, game_map, player)
        out["viewer"] = player
        out["me"] = me.to_dict()
        out["visible_hexes"] = sorted(seen)
        out["units"] = [state.units[u].to_dict() for u in sorted_ids(state.units) if state.units[u].owner == player]
        out["others"] = others_in_sight(state, player, seen)
        out["effects"] = _touching_effects(state, player)
    # cities under siege: the player's own (every hex around them is in sight); the moderator: all
    out["besieged"] = [cid for cid in sorted(state.cities) if state.cities[cid].controller is not None
                       and (player is None or state.cities[cid].controller == player)
                       and under_siege(state, game_map, cid)]
    if records is not None:
        states = [s for s in (before, state) if s is not None]
        out["events"] = events_for(records, player, game_map=game_map, states=states)
        out["battles"] = battles_of(out["events"], player)
    return out


def others_in_sight(state: GameState, player: str, seen: set[str]) -> list[dict[str, Any]]:
    """Other factions' and neutral units in sight: per hex and owner, counts by type, how many of them are aboard
    ships (a Fleet's crew, a Transport's Army: seen at the table, and the kit's state holds it, so the report says
    it too) and leaders' names."""
    others: dict[tuple[str, str | None], dict[str, Any]] = {}
    for u in state.units.values():
        if u.owner == player or u.hex not in seen or u.away_until is not None:
            continue
        entry = others.setdefault((u.hex, u.owner), {"hex": u.hex, "owner": u.owner, "counts": Counter(),
                                                     "aboard": Counter(), "leaders": []})
        entry["counts"][u.type.value] += 1
        carrier = state.units.get(u.carried_by) if u.carried_by else None
        if carrier is not None and carrier.type.is_ship:
            entry["aboard"][u.type.value] += 1
        if u.type is UnitType.LEADER:
            entry["leaders"].append(u.name)
    return [
        {"hex": e["hex"], "owner": e["owner"], "counts": dict(sorted(e["counts"].items())),
         "aboard": dict(sorted(e["aboard"].items())), "leaders": sorted(e["leaders"])}
        for _, e in sorted(others.items(), key=lambda kv: (kv[0][0], kv[0][1] or ""))
    ]


# -- the event log -------------------------------------------------------------------------------------------

class _Knowledge:
    """What a player knew during the turn: the hexes they saw, their units and cities (before or after)."""

    def __init__(self, player: str, game_map: GameMap | None, states: Sequence[GameState]):
        self.player = player
        self.game_map = game_map
        self.seen: set[str] = set()
        self.mine: set[str] = set()  # their units' ids (before or after the turn)
        self.known: set[str] = set()  # every unit id of the states: an id not among them was made and lost
        self.cities: set[str] = set()  # the cities they hold (events_for narrows it record by record)
        self.unit_types: dict[str, str] = {}
        self.leader_names: dict[str, str] = {}
        self.prefix: str | None = None  # the player's unit id prefix: "ATH-" (units made and lost in the turn)
        self.by_prefix: dict[str, str] = {}  # a unit id prefix -> its player ("SPA-" -> "sparta")
        self.unit_hexes: dict[str, set[str]] = {}  # where each unit stood in play (before or after the turn)
        self.unit_owners: dict[str, str | None] = {}
        for s in states:
            if player in s.players:
                self.prefix = s.players[player].abbr + "-"
            self.by_prefix.update({p.abbr + "-": pid for pid, p in s.players.items()})
            for u in s.units.values():
                self.unit_owners.setdefault(u.id, u.owner)  # the owner before the turn, if it was in play then
                if u.away_until is None:
                    self.unit_hexes.setdefault(u.id, set()).add(u.hex)
            if game_map is not None:
                self.seen |= sight(s, game_map, player)
            self.mine |= {u.id for u in s.units.values() if u.owner == player}
            self.known |= set(s.units)
            self.cities |= set(s.controlled_cities(player))
            for u in s.units.values():
                self.unit_types[u.id] = u.type.value
                if u.name:
                    self.leader_names[u.id] = u.name

    def knows_effect(self, rec: dict[str, Any]) -> bool:
        """Is a lasting effect's start or end (``effect_starts``, ``effect_ends``) the player's to know
        (``effect_known``)?  Told whole if so, else not at all: another player's card on a third player's stack
        ended in the player's own Draw phase and named the stack's hex out of their sight (a player's review),
        and the owner of a stack Hesitation held was told of its start and not of its end (a later review)."""
        return effect_known(rec.get("effect"), rec.get("by"), rec.get("target"), self.player, self.theirs)

    def theirs(self, name: str) -> bool:
        """Is what an effect's target names the player's as the record happens: the player, a city they hold, a
        unit of theirs, or a hex where a unit of theirs stood (before or after the turn)?"""
        if name == self.player or name in self.cities or (UNIT_ID.match(name) and self.owns(name)):
            return True
        return any(name in self.unit_hexes.get(u, ()) for u in self.mine)

    def names_player(self, rec: dict[str, Any]) -> bool:
        """Is the player named in a player-valued key (not merely their home city's name in ``city``)?"""
        for k in PLAYER_KEYS:
            v = rec.get(k)
            if v == self.player or (isinstance(v, list) and self.player in v):
                return True
        return False

    def touches(self, rec: dict[str, Any]) -> bool:
        """Does the record name the player, one of their units or a city they hold?"""
        if self.names_player(rec):
            return True
        if any(isinstance(rec.get(k), str) and rec[k] in self.cities for k in CITY_KEYS):
            return True
        # a unit taken on another player's move is told by its own CAPTURED record, not by the whole move
        data = {k: v for k, v in rec.items() if k not in NOT_TOUCHING_KEYS}
        return any(UNIT_ID.match(x) and self.owns(x) for x in _strings(data))

    def owns(self, uid: str) -> bool:
        """Theirs in a state, or (made and lost within the turn, in no state) carrying their prefix.  A unit
        captured from them keeps its id but is decided by its owner in the states."""
        if uid in self.mine:
            return True
        return uid not in self.known and self.prefix is not None and uid.startswith(self.prefix)

    def hexes(self, rec: dict[str, Any]) -> set[str]:
        out: set[str] = set()
        for k in HEX_KEYS:
            v = rec.get(k)
            if isinstance(v, str):
                out.add(v)
        path = rec.get("path")
        if isinstance(path, list):
            out |= {h for h in path if isinstance(h, str)}
        city = rec.get("city")
        if isinstance(city, str) and self.game_map is not None and city in self.game_map.cities:
            out.add(self.game_map.cities[city].hex)
        out |= self.target_hexes(rec)
        return out

    def target_hexes(self, rec: dict[str, Any]) -> set[str]:
        """Where a card's ``target`` is when it names a city or a unit (a hex target is a hex already)."""
        target = rec.get("target")
        if not isinstance(target, str):
            return set()
        if self.game_map is not None and target in self.game_map.cities:
            return {self.game_map.cities[target].hex}
        if UNIT_ID.match(target):
            return set(self.unit_hexes.get(target, ()))
        return set()

    def in_sight(self, rec: dict[str, Any]) -> bool:
        return bool(self.hexes(rec) & self.seen)

    def owner_of(self, uid: str) -> str | None:
        """The player a unit belonged to (public: a block shows its colour), from the states or its id's prefix."""
        if uid in self.unit_owners:
            return self.unit_owners[uid]
        return self.by_prefix.get(uid.rpartition("-")[0] + "-")

    def unit_type(self, uid: str) -> str:
        if uid in self.unit_types:
            return self.unit_types[uid]
        letters = uid.rpartition("-")[2].rstrip("0123456789")
        t = TYPE_BY_LETTER.get(letters)
        return t.value if t else "unit"


def _strings(value: Any, skip_frame: bool = True) -> set[str]:
    """Every string in a record's data (recursively), not counting the frame keys."""
    out: set[str] = set()
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            if skip_frame and k in FRAME_KEYS + ("event",):
                continue
            out |= _strings(v, False)
    elif isinstance(value, (list, tuple)):
        for v in value:
            out |= _strings(v, False)
    return out


def is_roll(rec: dict[str, Any]) -> bool:
    """A die record ``{"roll": {...}}``, not an event (events may carry a ``roll`` number of their own)."""
    return "event" not in rec and isinstance(rec.get("roll"), dict)


def _private_to(rec: dict[str, Any]) -> set[str] | None:
    p = rec.get("private_to")
    if p is None:
        return None
    return {p} if isinstance(p, str) else set(p)


def _battle_zones(records: Sequence[dict[str, Any]]) -> dict[int, int]:
    """Index of each record that belongs to a battle -> index of that BATTLE record.

    A record with an integer ``battle`` key (the seq of its BATTLE record) says so itself (a string there is the
    kind of battle).  Otherwise a battle's zone is
    what its attack order caused: from the record after the last order result, battle zone or phase change, to
    the BATTLE event, then the dice and follow-ups (casualties, retreats, the city taken, cards, ...) after it,
    up to the next order result (included) or the next event of another kind.
    """
    zones: dict[int, int] = {}
    by_seq = {r.get("seq"): i for i, r in enumerate(records)}
    start = 0
    prev_frame = None
    i = 0
    n = len(records)
    while i < n:
        r = records[i]
        frame = (r.get("player"), r.get("phase"))
        if frame != prev_frame:
            start, prev_frame = i, frame
        kind = r.get("event")
        if kind == "battle":
            b = i
            for j in range(start, i + 1):
                if not isinstance(records[j].get("battle"), int):  # "battle": "land" is a battle's kind
                    zones[j] = b
            j = i + 1
            while j < n and (records[j].get("player"), records[j].get("phase")) == frame:
                k = records[j].get("event")
                if k is None or k in BATTLE_FOLLOWUPS:
                    zones.setdefault(j, b)
                    j += 1
                    continue
                if k in ("order_done", "order_failed"):
                    zones.setdefault(j, b)
                    j += 1
                break
            # rolls left at the end belong to the next event, not to this battle
            while j - 1 > i and records[j - 1].get("event") is None:
                zones.pop(j - 1, None)
                j -= 1
            start = j
            i = j
            continue
        if kind in BOUNDARY_KINDS:
            start = i + 1
        i += 1
    for i, r in enumerate(records):
        ref = r.get("battle")
        if isinstance(ref, int) and ref in by_seq:
            zones[i] = by_seq[ref]
    return zones


def _card_places(records: Sequence[dict[str, Any]], know: _Knowledge) -> dict[int, set[str]]:
    """Index of each record a card caused that has no hex of its own (the Baggage Short Supplies removes, a
    ship Storms sinks, a unit Desertions disbands) -> the hexes of the card's target: where it happened."""
    out: dict[int, set[str]] = {}
    played: dict[tuple[Any, Any], tuple[Any, set[str]]] = {}  # (player, phase) -> (card, its target's hexes)
    for i, r in enumerate(records):
        frame = (r.get("player"), r.get("phase"))
        if r.get("event") == "card_played":
            played[frame] = (r.get("card"), know.hexes(r))
            continue
        if "event" not in r or frame not in played or any(isinstance(r.get(k), str) for k in HEX_KEYS + ("city",)):
            continue
        card, where = played[frame]
        if card is not None and card in (r.get("cause"), r.get("source")):
            out[i] = where
    return out


def _revolt_public(records: Sequence[dict[str, Any]], i: int) -> bool:
    """Is the revolt at ``i`` news out of sight?  Who holds a city is public, how it was kept is not: a revolt
    that turned the city neutral (a NEUTRALISED record of its city follows in its phase) is, and so is one a
    card negated (the card was played openly); one put down tells that the controller's units held the city,
    so out of sight it is not told (a card that started it still is, as every card played)."""
    rec = records[i]
    if rec.get("negated"):
        return True
    frame = (rec.get("player"), rec.get("phase"))
    for later in records[i + 1:]:
        if (later.get("player"), later.get("phase")) != frame:
            return False
        if later.get("city") == rec.get("city") and later.get("event") == "neutralised":
            return True
        if later.get("city") == rec.get("city") and later.get("event") == "revolt":
            return False
    return False


def _unit_fate(rec: dict[str, Any]) -> bool:
    """A record of units lost (DESTROYED without a city): told only where seen, never as public news -- a
    city destroyed is public, Baggage removed by a card far away is not."""
    return rec.get("event") == "destroyed" and not rec.get("city")


def _owner_of(rec: dict[str, Any], records: Sequence[dict[str, Any]], i: int) -> int | None:
    """A roll's event: the next record, if it is an event of the same player and phase."""
    frame = (rec.get("player"), rec.get("phase"))
    j = i + 1
    while j < len(records) and is_roll(records[j]):
        j += 1
    if j < len(records) and (records[j].get("player"), records[j].get("phase")) == frame and "event" in records[j]:
        return j
    return None


def _redact(rec: dict[str, Any], know: _Knowledge, minimal: bool = False) -> dict[str, Any]:
    """A copy keeping the frame and the SAFE_KEYS, unit lists turned into counts, no foreign unit ids.

    ``minimal``: a public event out of sight (a card played far away): no units and no hexes at all.
    """
    out: dict[str, Any] = {k: rec[k] for k in FRAME_KEYS + ("event",) if k in rec}
    out["redacted"] = True
    for k, v in rec.items():
        if k in out or k == "redacted":
            continue
        if k == "target" and isinstance(v, str) and UNIT_ID.match(v) and not know.owns(v):
            out.update(_unit_target(v, know))
            continue
        if minimal and k == "target" and isinstance(v, str) and know.game_map is not None and v in know.game_map.terrain:
            out["target_hidden"] = True  # a card aimed at a hex (a stack there) out of sight: not where
            continue
        if minimal and (k in UNIT_LIST_KEYS or k == "path" or (k in HEX_KEYS and isinstance(v, str) and (
                know.game_map is None or v in know.game_map.terrain))):
            continue
        if k in UNIT_LIST_KEYS:
            ids = [v] if isinstance(v, str) else [x for x in v if isinstance(x, str)] if isinstance(v, list) else []
            counts = Counter(know.unit_type(u) for u in ids if not know.owns(u))
            own = [u for u in ids if know.owns(u)]
            if counts:
                out[f"{k}_counts"] = dict(sorted(counts.items()))
            leaders = sorted(know.leader_names[u] for u in ids if u in know.leader_names and not know.owns(u)
                             and know.unit_type(u) == "leader")
            if leaders:
                out[f"{k}_leaders"] = leaders
            if own:
                out[k] = own
            continue
        if k not in SAFE_KEYS:
            continue
        if k == "path" and isinstance(v, list):
            out[k] = [h for h in v if h in know.seen]
            continue
        if k in ("from", "to") and isinstance(v, str) and know.game_map is not None \
                and v in know.game_map.terrain and v not in know.seen:
            continue
        out[k] = _scrub(v, know)
    return out


def _unit_target(uid: str, know: _Knowledge) -> dict[str, Any]:
    """Another player's unit a card names, as the viewer may know it: a leader in sight by its name, anything
    else as its owner's (``target_owner``) with ``target_hidden`` ("one of the Spartans' leaders")."""
    out: dict[str, Any] = {"target_owner": know.owner_of(uid), "target_type": know.unit_type(uid)}
    seen = sorted(know.unit_hexes.get(uid, set()) & know.seen)
    if seen and uid in know.leader_names:
        out["target"] = know.leader_names[uid]
    elif seen:
        out["target"] = seen[0]  # a stack named by one of its units: the hex it stood in
    else:
        out["target_hidden"] = True
    return out


def _scrub(value: Any, know: _Knowledge) -> Any:
    if isinstance(value, str):
        if UNIT_ID.match(value) and not know.owns(value):
            return know.unit_type(value)
        return value
    if isinstance(value, list):
        return [_scrub(v, know) for v in value]
    if isinstance(value, dict):
        return {k: _scrub(v, know) for k, v in value.items()}
    if isinstance(value, (int, float, bool)) or value is None:
        return value
    return None


EMBEDDED_ID = re.compile(r"(?<![\w-])[A-Z]{2,4}-[A-Z]+\d+(?![\w-])")


def _unnamed(rec: dict[str, Any], know: _Knowledge) -> dict[str, Any]:
    """A whole record with other players' unit ids replaced by the leader's name or the unit's type (a leader
    captured on a move, a die rolled for another's unit): ids are seen only in a battle the player fought.  A unit
    that carries the player's own prefix keeps its id: it was theirs (captured from them since), and they named it
    in their orders (R-TURN-4: their failed order says which of its units was taken)."""
    def name(uid: str) -> str:
        if know.owns(uid) or (know.prefix is not None and uid.startswith(know.prefix)):
            return uid
        if know.unit_type(uid) == "leader" and uid in know.leader_names:
            return know.leader_names[uid]
        return know.unit_type(uid)

    def walk(v: Any) -> Any:
        if isinstance(v, str):
            return EMBEDDED_ID.sub(lambda m: name(m.group(0)), v)
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, dict):
            return {walk(k): walk(x) for k, x in v.items()}
        return v

    return {k: (v if k in FRAME_KEYS + ("event",) else walk(v)) for k, v in rec.items()}


def events_for(records: Sequence[dict[str, Any]], player: str | None, game_map: GameMap | None = None,
               states: Iterable[GameState] = ()) -> list[dict[str, Any]]:
    """The records of a turn's log that ``player`` may know, in order (see the module docstring).

    ``states``: the state before and after the turn, for the hexes the player saw and the units and cities
    they had; without them only the player's own, public and private-to-them events pass.  A record passed
    whole is a copy of the original; in a battle the player took part in it carries ``in_battle`` (the seq of
    the BATTLE record).  A redacted record carries ``redacted: True``.  ``player=None``: every record.
    """
    records = list(records)
    zones = _battle_zones(records)
    if player is None:
        out = []
        for i, r in enumerate(records):
            c = dict(r)
            if i in zones:
                c["in_battle"] = records[zones[i]].get("seq")
            out.append(c)
        return out
    states = list(states)
    know = _Knowledge(player, game_map, states)
    # the cities the player holds as each record happens: the state before the turn, then the log's changes;
    # a record concerns a city if the player held it before or after the record
    cities_at: dict[int, set[str]] = {}
    if len(states) > 1:
        held = set(states[0].controlled_cities(player))
        for i, r in enumerate(records):
            if "event" in r:
                was = set(held)
                _track_control(held, r, player)
                cities_at[i] = was | held

    # the units the player owns as each record happens, likewise: a unit captured from them is theirs until
    # its CAPTURED record, one they captured from then on (ownership changes nowhere else)
    mine_at = _units_owned_at(records, player, states) if len(states) > 1 else {}

    def at(i: int) -> None:
        if i in cities_at:
            know.cities = cities_at[i]
        if i in mine_at:
            know.mine = mine_at[i]

    def touches(i: int, r: dict[str, Any]) -> bool:
        at(i)
        return know.touches(r)

    # which battles the player took part in: they are named in the battle or in what followed it, their cities
    # as they held them then (a city lost earlier in the turn is not theirs to defend).  Stirring up a battle in
    # one's own turn is not taking part in it: a revolt one's diplomacy caused is fought by the rebels and the
    # city's controller (whose units, traits, cards and dice stay theirs).
    fought: set[int] = set()
    for i, b in zones.items():
        r = records[i]
        if i >= b and "event" in r and _allowed(r, player) and touches(i, r):
            fought.add(b)
    places = _card_places(records, know)

    def far(i: int, r: dict[str, Any]) -> bool:
        """A record the player's own card caused to another player's units out of their sight (Plague on a
        city they cannot see): not theirs to read, like anyone's losses out of sight."""
        return i in places and not places[i] & know.seen and any(not know.owns(u) for u in _unit_ids(r))

    decisions: dict[int, str] = {}  # index -> "whole" | "redacted"
    for i, r in enumerate(records):
        if "event" not in r:
            continue
        kind = r["event"]
        at(i)
        if not _allowed(r, player):
            continue
        if zones.get(i) in fought:
            decisions[i] = "whole"
        elif player in (_private_to(r) or ()):
            decisions[i] = "whole"
        elif kind in ("effect_starts", "effect_ends"):
            # a lasting effect's start and end: whole to whom it is known (played by them, on what is theirs,
            # public), as the state lists it in force to them; no one else reads it
            if know.knows_effect(r):
                decisions[i] = "whole"
        elif r.get("player") == player and kind in ("order_done", "order_failed"):
            # the player's own order result, even one that closes the zone of a battle they did not fight (the
            # diplomacy roll or card that started a revolt): it says what their order did, nothing of the battle
            decisions[i] = "whole"
        elif r.get("player") == player and not (i in zones and (i >= zones[i] or _acts_for_another(r, player))) \
                and not far(i, r):
            # the player's own events, but not a battle they did not fight, nor what another player did before
            # it (the defender's cards in a revolt the player stirred up), nor what their card did to others' units
            # out of their sight
            decisions[i] = "whole"
        elif kind in PRIVATE_KINDS:
            if know.names_player(r):
                decisions[i] = "whole"
        elif know.touches(r):
            decisions[i] = "whole"
        elif kind in SIGHT_KINDS and (know.in_sight(r) or places.get(i, set()) & know.seen):
            decisions[i] = "redacted"
        elif kind in PUBLIC_KINDS and not _unit_fate(r) and not (kind == "revolt" and not _revolt_public(records, i)):
            decisions[i] = "redacted" if know.in_sight(r) else "public"
    out: list[dict[str, Any]] = []
    for i, r in enumerate(records):
        at(i)
        if is_roll(r):
            if not _allowed(r, player):
                continue
            owner = _owner_of(r, records, i)
            if owner is None:
                keep = r.get("player") == player  # dice left at the end of the player's own phase
            else:
                keep = decisions.get(owner) == "whole"
            if keep:
                c = dict(r)
                if i in zones and zones[i] in fought:
                    c["in_battle"] = records[zones[i]].get("seq")
                elif player not in (_private_to(r) or ()):
                    c = _unnamed(c, know)
                out.append(c)
            continue
        d = decisions.get(i)
        if d == "whole":
            c = dict(r)
            if i in zones and zones[i] in fought:
                c["in_battle"] = records[zones[i]].get("seq")
            elif player not in (_private_to(r) or ()):
                c = _unnamed(c, know)  # other units' ids only in a battle the player fought
            if "gold" in c and c.get("who", c.get("player")) != player:
                del c["gold"]  # a treasury total is for its owner's eyes only
            if c.get("player") == player and c.get("event") in ("order_failed", "moved"):
                for key in ("reason", "stopped"):  # a hex out of sight that blocked the way: named, not described
                    if key in c:
                        c[key] = _blocked_unseen(c[key], know)
            if isinstance(c.get("roll"), int) and ("total" in c or "modifiers" in c) and not c.get("in_battle"):
                _hide_their_modifiers(c, player)
            if c.get("event") == "diplomacy_roll" and c.get("player") != player:
                c.pop("n", None)  # how many rolls another player has this turn hints at their traits and skills
                c.pop("of", None)
            if "cards_unplayed" in c:  # the cards a side named and did not play stay in its hand: its own to know
                mine = [x for x in c["cards_unplayed"] if x.get("by") == player]
                if mine:
                    c["cards_unplayed"] = mine
                else:
                    del c["cards_unplayed"]
            out.append(c)
        elif d == "redacted":
            out.append(_redact(r, know))
        elif d == "public":
            out.append(_redact(r, know, minimal=True))
    return out


# what a move's reason tells of a hex it could not enter (``movement.step_problems``): a kind of enemy unit there
_BLOCKED = re.compile(r"^(?P<lead>the stack cannot move at all: )?(?P<hex>\S+) holds enemy (?:Armies, Rowers or "
                      r"manned Fleets|units and the group has no Army, Rowers or manned Fleet to capture them)$")
BLOCKED_OUT_OF_SIGHT = "{hex} blocks the way; it is out of your sight, so what stands there is not told"


def _blocked_unseen(text: Any, know: _Knowledge) -> Any:
    """The reason a player's own move failed or stopped short (R-TURN-4), as they may read it: a hex out of their
    sight that blocks the way is named, what stands in it is not.  A cheater's review: an order skipped whole (the
    units never set out) said "1510 holds enemy Armies, Rowers or manned Fleets" of a hex nobody of theirs saw, so
    sixty orders a turn could probe the fog for free (and "holds enemy units and the group has no Army ..." told of
    hidden Leaders, Baggage or empty ships)."""
    m = _BLOCKED.match(text) if isinstance(text, str) else None
    if m is None or know.game_map is None or m["hex"] not in know.game_map.terrain or m["hex"] in know.seen:
        return text
    return (m["lead"] or "") + BLOCKED_OUT_OF_SIGHT.format(hex=m["hex"])


def _hide_their_modifiers(rec: dict[str, Any], player: str) -> None:
    """A roll of another player's unit that ``player`` sees whole outside a battle they fought (the upkeep roll a
    Plague or Desertions of theirs forces, the navigation roll of their Storms) shows the die, the cards'
    modifiers (cards played are public) and what came of it, but not the owner's traits and leaders' skills,
    which are the owner's secret, nor the total that would name their sum (nor that there are none):
    ``modifiers_hidden`` says so.  What came of it may still bound them, as it would at the table."""
    owner = rec.get("who", rec.get("owner"))
    if owner is None or owner == player:
        return
    mods = rec.get("modifiers")
    if isinstance(mods, list):
        rec["modifiers"] = [m for m in mods if isinstance(m, dict) and str(m.get("source", "")).endswith("(card)")]
    rec.pop("total", None)
    rec["modifiers_hidden"] = True


def _units_owned_at(records: Sequence[dict[str, Any]], player: str,
                    states: Sequence[GameState]) -> dict[int, set[str]]:
    """Index of each record -> the ids of the units ``player`` owned before or after it (CAPTURED records
    followed; a unit theirs at the end and captured by nobody was theirs all along, or made in the turn)."""
    first, last = states[0], states[-1]
    taken_by_them: set[str] = set()
    for r in records:
        if r.get("event") == "captured" and r.get("by") == player:
            taken_by_them |= _unit_ids(r)
    owned = {u for u, x in first.units.items() if x.owner == player}
    owned |= {u for u, x in last.units.items() if x.owner == player and u not in taken_by_them}
    out: dict[int, set[str]] = {}
    for i, r in enumerate(records):
        was = set(owned)
        if r.get("event") == "captured":
            ids = _unit_ids(r)
            if r.get("by") == player:
                owned |= ids
            elif player in (r.get("owner"), r.get("who")):
                owned -= ids
        out[i] = was | owned
    return out


def _unit_ids(rec: dict[str, Any]) -> set[str]:
    ids = {rec["unit"]} if isinstance(rec.get("unit"), str) else set()
    units = rec.get("units")
    if isinstance(units, list):
        ids |= {u for u in units if isinstance(u, str)}
    return ids


def _acts_for_another(rec: dict[str, Any], player: str) -> bool:
    """Is the record another player's doing (a card ``by`` them) though logged in ``player``'s turn?"""
    by = rec.get("by")
    return isinstance(by, str) and by != player


def _track_control(held: set[str], rec: dict[str, Any], player: str) -> None:
    """Follow the control changes of the log (CONTROL, CITY_TAKEN, NEUTRALISED) for one player's cities."""
    kind, city = rec.get("event"), rec.get("city")
    if not isinstance(city, str):
        return
    if kind == "control":
        new = rec.get("who") or rec.get("controller") or rec.get("player")
    elif kind == "city_taken":
        new = rec.get("by") or rec.get("player")
    elif kind == "neutralised":
        new = None
    else:
        return
    if new == player:
        held.add(city)
    else:
        held.discard(city)


def _allowed(rec: dict[str, Any], player: str) -> bool:
    p = _private_to(rec)
    return p is None or player in p


def battles_of(events: Sequence[dict[str, Any]], player: str | None) -> list[dict[str, Any]]:
    """The battles in a filtered event list that the viewer saw whole: the BATTLE record and its zone."""
    battles: dict[Any, dict[str, Any]] = {}
    for r in events:
        ref = r.get("in_battle")
        if ref is None:
            continue
        b = battles.setdefault(ref, {"seq": ref, "battle": None, "records": []})
        b["records"].append(r)
        if r.get("event") == "battle" and r.get("seq") == ref:
            b["battle"] = r
    return [b for b in battles.values() if b["battle"] is not None]


def redact(state: GameState, game_map: GameMap, player: str) -> GameState:
    """The state as ``player`` may know it, as a ``GameState`` (for the player's checking kit).

    Other players keep their public face only: no gold, hand, traits, standing orders or id counters; their
    units out of sight are gone, those in sight get anonymous ids (``SPA-?1``) and no skills.  Deck and
    discard pile keep their sizes, every card replaced by ``HIDDEN_CARD``.  The rules code can read it like any
    state; it is never adjudicated.
    """
    out = state.copy()
    seen = sight(state, game_map, player)
    for pid, p in out.players.items():
        if pid == player:
            continue
        p.gold, p.hand, p.traits, p.standing, p.used_once = 0, [], [], {}, []
    out.next_id = {k: v for k, v in out.next_id.items() if k.startswith(f"{state.players[player].abbr}-")}
    # the piles' sizes are public (the reports give them), their cards are not: one placeholder per card
    out.deck, out.discard = [HIDDEN_CARD] * len(state.deck), [HIDDEN_CARD] * len(state.discard)
    touching = {id(e) for e in state.effects if e.to_dict() in _touching_effects(state, player)}
    out.effects = [Effect.from_dict(e.to_dict()) for e in state.effects if id(e) in touching]
    rename: dict[str, str] = {}
    counter: dict[str, int] = {}
    shown: list[tuple[str, str, str, str, str]] = []
    for uid in sorted(state.units):
        u = state.units[uid]
        if u.owner == player:
            continue
        if u.hex not in seen or u.away_until is not None:
            out.remove_unit(uid)
            continue
        prefix = state.players[u.owner].abbr if u.owner in state.players else "NEU"
        shown.append((prefix, u.hex, u.type.value, uid.partition("-")[2], uid))
    # numbered by owner, hex and type, not by the real ids: those sort a unit captured from a third player
    # (SPA-B35 held by Thebes) ahead of its holder's own, which told the kit's reader it was captured (a
    # cheater's review); alike units in one hex are told apart by their number alone, never their prefix
    for prefix, _, _, _, uid in sorted(shown):
        counter[prefix] = counter.get(prefix, 0) + 1
        rename[uid] = f"{prefix}-?{counter[prefix]}"
    units = {}
    for uid, u in out.units.items():
        if uid in rename:
            u.id = rename[uid]
            u.skills = []
            u.starvation = 0
            u.value = 1  # a block shows its type, never its value
        if u.carried_by in rename:
            # a ship's cargo stays aboard (it mans a Fleet, it sinks with it: the report counts it aboard); which
            # of their Armies carries which Baggage the reports never tell (counts by hex), so the kit does not
            u.carried_by = rename[u.carried_by] if state.units[u.carried_by].type.is_ship else None
        elif u.carried_by is not None and u.carried_by not in out.units:
            u.carried_by = None
        units[u.id] = u
    out.units = units
    for e in out.effects:  # an effect on another's unit (Exiled on their leader) names it as the kit does, or by
        # their prefix alone when the unit is not in the kit (away from play, out of sight)
        if e.target in rename:
            e.target = rename[e.target]
        elif e.target in state.units and state.units[e.target].owner != player:
            owner = state.units[e.target].owner
            e.target = f"{state.players[owner].abbr if owner in state.players else 'NEU'}-?"
    out._at = None
    return out
