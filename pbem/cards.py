"""Cards played in the own player-turn outside battles, and the card and lasting-effect plumbing the
phases share (R-PH-DRAW, R-PH-REV, R-PH-DIP, R-TURN-4, R-STAND-1).

``play_card(ctx, use, section, index)`` plays one card named in an order: it checks the card's timing, that
it is in the hand and that its target fits the card's target kind, then moves it to the discard pile, emits
``Ev.CARD_PLAYED`` and applies its effects one by one, by effect kind (one function per kind, see
``EFFECTS``; no card is special-cased).  A card that cannot be played is skipped whole (R-TURN-4).

Timing: the own-turn cards of ``orders.cards`` whose timing phase is ``diplomacy`` or ``any`` are played at
the start of the Diplomacy phase, in the order listed (``play_own_turn_cards``).  Movement cards and Treasure
are left to the move and land battle phases; any other card there (a battle card, a reaction) is reported
failed, as it is never played from that list.

Lasting effects live in ``state.effects`` as ``Effect(kind, source, player, target, value, until_turn,
until_player)``: ``player`` played it, ``target`` is what it acts on (a city id for ``income_block``, a
player id for ``diplomacy_rolls`` and ``cannot_move_or_attack``, a hex for ``cannot_attack``, a leader id for
``leader_removed``), and it lasts through the end of ``until_player``'s player-turn in game turn
``until_turn`` (``until_player`` None: through the end of game turn ``until_turn``; ``until_turn`` 0: until
the phase that reads it consumes it).  Expired effects are removed at the start of every player-turn
(``expire_effects``, from the Draw phase).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Container, Iterable

from . import board
from .effects import player_effects, unit_matches
from .events import Ev
from .gamedata import Card
from .model import Effect, GameState, Unit, UnitType, sorted_ids
from .ordertypes import CardUse
from .setup import new_leader

if TYPE_CHECKING:
    from .adjudicator import TurnContext
    from .gamedata import GameMap

# Timing phases of the cards this module plays; "any" cards are played at the start of the Diplomacy phase.
OWN_TURN_PHASES = frozenset({"draw", "revenue", "upkeep", "recruit", "diplomacy", "any"})


# -- time: player-turns in order ---------------------------------------------------------------------------

def when(state: GameState, turn: int, player: str | None) -> tuple[int, int]:
    """A point in the game: (game turn, position in the turn order); None is the end of the game turn."""
    pos = state.turn_order.index(player) if player in state.turn_order else len(state.turn_order)
    return turn, pos


def next_player_turn(state: GameState, now: str, affected: str) -> int:
    """The game turn of ``affected``'s next player-turn that starts after ``now``'s current one."""
    later = state.turn_order.index(affected) > state.turn_order.index(now)
    return state.turn if later else state.turn + 1


def effect_data(e: Effect) -> dict[str, Any]:
    """An effect as event data ("kind" and "player" are taken by the record itself)."""
    return {"effect": e.kind, "source": e.source, "by": e.player, "target": e.target, "value": e.value,
            "until_turn": e.until_turn, "until_player": e.until_player}


def start_effect(ctx: "TurnContext", kind: str, source: str, target: str | None, value: int = 0,
                 until_turn: int = 0, until_player: str | None = None, by: str | None = None) -> Effect:
    """A lasting effect enters ``state.effects``; ``Ev.EFFECT_STARTS`` says who played it (``by``, default the
    phasing player), what it acts on and the last player-turn it lasts through (``until_turn``,
    ``until_player``)."""
    e = Effect(kind, source, by or ctx.player, target, value, until_turn, until_player)
    ctx.state.effects.append(e)
    ctx.emit(Ev.EFFECT_STARTS, **effect_data(e))
    return e


def end_effect(ctx: "TurnContext", effect: Effect, why: str) -> None:
    ctx.state.effects.remove(effect)
    ctx.emit(Ev.EFFECT_ENDS, why=why, **effect_data(effect))


def expire_effects(ctx: "TurnContext") -> None:
    """Remove the effects whose last player-turn is over (called as a player-turn starts)."""
    now = when(ctx.state, ctx.state.turn, ctx.player)
    for e in list(ctx.state.effects):
        if e.until_turn and when(ctx.state, e.until_turn, e.until_player) < now:
            end_effect(ctx, e, "expired")


# -- dice, deck and hands ------------------------------------------------------------------------------

def roll_spec(ctx: "TurnContext", spec: str, purpose: str, **context: Any) -> int:
    """Roll a table's dice field ("2D6") and return the sum; each die is logged."""
    return sum(ctx.dice.roll_spec(spec, purpose, **context))


def draw_card(ctx: "TurnContext", player: str) -> str | None:
    """Top card of the deck into the player's hand; an empty deck is refilled from the shuffled discard pile
    (R-PH-DRAW).  None if both are empty."""
    state = ctx.state
    if not state.deck and state.discard:
        state.deck, state.discard = state.discard, []
        ctx.dice.shuffle(state.deck, "reshuffle the discard pile into the deck")
        ctx.emit(Ev.RESHUFFLE, cards=len(state.deck))
    if not state.deck:
        return None
    card = state.deck.pop(0)
    state.players[player].hand.append(card)
    return card


def discard_from_hand(state: GameState, player: str, card: str) -> None:
    state.players[player].hand.remove(card)
    state.discard.append(card)


# -- units ---------------------------------------------------------------------------------------------

def release_cargo(state: GameState, unit: Unit) -> None:
    """What ``unit`` carried stays in its hex: handed to ``unit``'s own carrier (an Army aboard a Transport
    leaves its Baggage to the Transport), else uncarried.  Cargo stands in its carrier's hex, so only that hex
    is searched (``state.cargo`` would look at every unit)."""
    for c in state.hex_units(unit.hex):
        if c.carried_by == unit.id:
            c.carried_by = unit.carried_by


def muster_hex(state: GameState, game_map, player: str) -> str | None:
    """Where new and returning leaders appear: the home city if the player controls it, else the controlled
    city nearest to it (ties by city id); None if the player controls no city."""
    home = state.players[player].home
    if state.cities[home].controller == player:
        return game_map.cities[home].hex
    home_hex = game_map.cities[home].hex
    mine = sorted(state.controlled_cities(player),
                  key=lambda c: (game_map.distance(home_hex, game_map.cities[c].hex), c))
    return game_map.cities[mine[0]].hex if mine else None


def return_leaders(ctx: "TurnContext") -> None:
    """Exiled leaders whose time is up come back at the start of their owner's player-turn (Exiled)."""
    state = ctx.state
    for uid in sorted_ids(u.id for u in state.away_leaders() if u.owner == ctx.player):
        leader = state.units[uid]
        if leader.away_until > state.turn:
            continue
        h = muster_hex(state, ctx.game_map, ctx.player)
        if h is None:
            continue  # no city to return to: stays away
        leader.away_until = None
        leader.carried_by = None
        state.place(leader, h)
        ctx.emit(Ev.LEADER_RETURNS, unit=uid, name=leader.name, hex=h)


# -- targets -------------------------------------------------------------------------------------------

TARGET_WORDS = {
    "hex": "a hex", "stack": "a unit of the stack (or a hex holding one player's units)", "city": "a city",
    "neutral_city": "a neutral minor city", "enemy_city": "a city another player controls",
    "enemy_minor_city": "a minor city another player controls", "besieged_city": "a city under siege",
    "player": "an opponent", "leader": "a leader in play", "own_leader": "one of your leaders in play",
}
CITY_TARGET_KINDS = frozenset({"city", "neutral_city", "enemy_city", "enemy_minor_city", "besieged_city"})  # read as a city
# Target kinds that aim a card at units: a stack, a leader, the units of a besieged city, and a hex when the card
# acts on its units (Storms; every hex card does).  Such a card is played only if its target is in the card
# player's sight when it resolves (docs/rules.md, "Decision (fog, card targets)", refining R-TURN-4 and the
# cards of R-SET-6): at the table one aims only at what one sees.  A city's control and a player are public
# facts and stay as they are.
SIGHT_TARGET_KINDS = frozenset({"stack", "hex", "leader", "besieged_city"})


# The one reason a card aimed past the fog fails, the same whether or not anything is there.  It does not repeat
# the target: the report would turn a unit id into what the reader may know of it (a leader's name, a unit's
# type, ``visibility._unnamed``), which would tell a unit in play from one that never was.
OUT_OF_SIGHT = "its target is not in your sight (a card's target must be in your sight when it is played)"
# Another player's unit named by its id: refused whatever stands where, since which of their units in sight bears
# which id is theirs to know (reports show ids only in a battle fought; a card played or failing on a guessed id
# would tell it: a final review).  Their stacks are named by hex, their leaders by name.
OTHERS_ID = ("a card names another player's stack by its hex and their leader by name, never by a unit id "
             "(their ids are not yours to know)")


def names_others_unit(raw: str, own_abbr: str) -> bool:
    """``raw`` reads as a unit id, in any case, of a player whose prefix is not ``own_abbr``: the adjudicator
    (``resolve_target``) and the order checker refuse it alike as a card's target."""
    from .visibility import UNIT_ID
    return bool(UNIT_ID.match(raw.upper())) and raw.upper().split("-")[0] != own_abbr


def _city(ctx: "TurnContext", raw: str) -> str | None:
    c = ctx.game_map.find_city(raw)
    return c.id if c else None


def _player(ctx: "TurnContext", raw: str) -> str | None:
    if raw in ctx.state.players:
        return raw
    c = ctx.game_map.find_city(raw)
    return c.id if c and c.id in ctx.state.players else None


def name_key(name: str) -> str:
    """A leader's name as targets compare it: case-insensitive, "_" the same as a space."""
    return " ".join(name.replace("_", " ").split()).lower()


def leader_named(units: Iterable[Unit], raw: str | None) -> Unit | None:
    """The leader among ``units`` that ``raw`` names: by its id, or by its name in any case (leader names are
    unique in a game, R-SET-3: reports show enemy leaders by name only, their ids hidden outside battles)."""
    if not raw:
        return None
    leaders = [u for u in units if u.type is UnitType.LEADER]
    for u in leaders:
        if u.id == raw:
            return u
    key = name_key(raw)
    found = [u for u in leaders if u.name and name_key(u.name) == key]
    return found[0] if len(found) == 1 else None


def stack_units(ctx: "TurnContext", raw: str) -> list[Unit] | None:
    """A stack named by one of its units, or by a hex holding units of exactly one player."""
    state = ctx.state
    u = state.units.get(raw)
    if u is not None and u.away_until is None:
        return [x for x in state.units_at(u.hex) if x.owner == u.owner]
    if raw in ctx.game_map.terrain:
        here = state.units_at(raw)
        owners = {x.owner for x in here}
        if len(owners) == 1:
            return here
    return None


def target_in_sight(ctx: "TurnContext", kind: str, raw: str) -> bool:
    """Is what ``raw`` names for a card of target ``kind`` (one of SIGHT_TARGET_KINDS) in the phasing player's
    sight now (``visibility.sight``: in or next to a hex of their units or cities)?  Own units and leaders in
    play always are.  Anything that is not there -- a unit never raised, one lost, a leader away, a name no
    leader bears -- is not, so that the answer says nothing of what lies past the fog.  A name that is no hex of
    the map or no city is left to ``resolve_target``'s own words (the map is public)."""
    from .visibility import sight
    state, gm = ctx.state, ctx.game_map
    seen = sight(state, gm, ctx.player)
    if kind == "hex" or (kind == "stack" and raw in gm.terrain):
        return raw not in gm.terrain or raw in seen
    if kind in ("stack", "leader"):
        u = (leader_named(state.units.values(), raw) if kind == "leader" else None) or state.units.get(raw)
        return u is not None and (u.owner == ctx.player or (u.away_until is None and u.hex in seen))
    cid = _city(ctx, raw)
    return cid is None or besieged_city_in_sight(state, gm, ctx.player, cid, seen)


def besieged_city_in_sight(state: GameState, game_map: GameMap, player: str, city_id: str,
                           seen: Container[str]) -> bool:
    """Is a city named as a besieged city (Starvation) in ``player``'s sight, ``seen`` being their sight now?
    The city and every hex around it, where a siege is looked for, must be in sight: else a card played or
    refused would tell of an enemy standing unseen next to it.  But when ``player`` besieges it themselves (a
    combat unit of theirs in play in or next to a city another player controls, as ``board.under_siege``
    counts it) the siege is known from their own units, and the city itself in sight is enough (docs/rules.md,
    Decision (fog, card targets))."""
    around = game_map.around_city[city_id]
    controller = state.cities[city_id].controller
    if controller is not None and controller != player and game_map.cities[city_id].hex in seen:
        for h in around:
            for u in state.units_at(h):
                if u.owner == player and u.away_until is None and board.is_combat_unit(state, u):
                    return True
    return all(h in seen for h in around)


def resolve_target(ctx: "TurnContext", kind: str, raw: str | None) -> tuple[Any, str | None]:
    """(the target, None) or (None, why it does not fit the card).  A target of SIGHT_TARGET_KINDS out of the
    player's sight gets one reason, OUT_OF_SIGHT, before anything else is looked at."""
    state = ctx.state
    if kind == "none":
        return None, None
    want = TARGET_WORDS[kind]
    if not raw:
        return None, f"it needs a target: {want}"
    if kind in ("stack", "leader") and names_others_unit(raw, ctx.me.abbr):
        return None, OTHERS_ID
    if kind in SIGHT_TARGET_KINDS and not target_in_sight(ctx, kind, raw):
        return None, OUT_OF_SIGHT
    if kind == "hex":
        return (raw, None) if raw in ctx.game_map.terrain else (None, f"{raw} is not a hex of the map")
    if kind == "stack":
        units = stack_units(ctx, raw)
        return (units, None) if units else (None, f"{raw} does not name a stack: want {want}")
    if kind in ("leader", "own_leader"):
        u = leader_named(state.units.values(), raw)
        if u is None or u.away_until is not None:
            return None, f"{raw} is not {want}"
        if kind == "own_leader" and u.owner != ctx.player:
            return None, f"{raw} is not {want}"
        return u, None
    if kind == "player":
        pid = _player(ctx, raw)
        if pid is None or pid == ctx.player or state.players[pid].eliminated_turn is not None:
            return None, f"{raw} is not {want}"
        return pid, None
    cid = _city(ctx, raw)
    if cid is None:
        return None, f"{raw} is not a city"
    city = state.cities[cid]
    ok = {
        "city": True,
        "neutral_city": city.controller is None and city.home_of is None,
        "enemy_city": city.controller not in (None, ctx.player),
        "enemy_minor_city": city.controller not in (None, ctx.player) and city.home_of is None,
        "besieged_city": board.under_siege(state, ctx.game_map, cid),
    }[kind]
    if not ok and kind == "besieged_city" and city.controller is None:
        return None, f"{ctx.game_map.cities[cid].name} is neutral: a neutral city is never under siege (R-PH-REV)"
    if not ok and kind == "besieged_city":  # a siege may have ended earlier in the turn (its besiegers lost)
        return None, (f"{ctx.game_map.cities[cid].name} is not under siege now: no enemy Army, Rowers, manned Fleet, "
                      f"pirate or barbarian is in or next to it")
    return (cid, None) if ok else (None, f"{ctx.game_map.cities[cid].name} is not {want}")


# -- effect kinds played in the own turn: one function each ----------------------------------------------

Apply = Callable[["TurnContext", Card, Any, dict], None]
Check = Callable[["TurnContext", Card, Any, dict], "str | None"]


def _gold(ctx, card, target, e):
    who = ctx.player if e["side"] == "own" else target
    p = ctx.state.players[who]
    n = roll_spec(ctx, e["dice"], f"{card.name}: gold", player=who)
    change = n if e["sign"] > 0 else -min(n, p.gold)
    p.gold += change
    ctx.emit(Ev.GOLD, who=who, amount=change, rolled=n, source=card.id, gold=p.gold)


def _diplomacy_rolls(ctx, card, target, e):
    if e["side"] == "own":  # this player-turn's Diplomacy phase
        ctx.scratch["diplomacy_rolls"] = ctx.scratch.get("diplomacy_rolls", 0) + int(e["value"])
        return
    start_effect(ctx, "diplomacy_rolls", card.id, target, int(e["value"]),
                 next_player_turn(ctx.state, ctx.player, target), target)


def _control_city(ctx, card, target, e):
    from .phases.diplomacy import gain_control
    gain_control(ctx, target, card.id)


def _revolt(ctx, card, target, e):
    from .phases.diplomacy import revolt
    revolt(ctx, target, card.id)


def _income_block(ctx, card, target, e):
    affected = ctx.state.cities[target].controller or ctx.player
    start_effect(ctx, "income_block", card.id, target, 0, next_player_turn(ctx.state, ctx.player, affected),
                 affected)


def _cannot_move_or_attack(ctx, card, target, e):
    start_effect(ctx, "cannot_move_or_attack", card.id, target, 0,
                 next_player_turn(ctx.state, ctx.player, target), target)


def _truce(ctx, card, target, e):
    start_effect(ctx, "truce", card.id, None, 0, ctx.state.turn + 1, ctx.player)


def _draw_cards(ctx, card, target, e):
    n = roll_spec(ctx, e["dice"], f"{card.name}: cards drawn", player=ctx.player)
    drawn = [c for c in (draw_card(ctx, ctx.player) for _ in range(n)) if c is not None]
    ctx.emit(Ev.DRAW, count=len(drawn), cards=drawn, source=card.id, private_to=ctx.player)


def _look_at_hand(ctx, card, target, e):
    ctx.emit(Ev.HAND_SEEN, of=target, hand=list(ctx.state.players[target].hand), private_to=ctx.player)


def _leader_removed(ctx, card, target, e):
    leader: Unit = target
    if e.get("turns"):
        # "N turns" are the owner's player-turns: the leader misses the owner's next N player-turns that start
        # after this one and is back at the start of the owner's player-turn after them (``return_leaders``).
        n = roll_spec(ctx, e["turns"], f"{card.name}: turns away", unit=leader.id)
        release_cargo(ctx.state, leader)
        leader.carried_by = None
        first = next_player_turn(ctx.state, ctx.player, leader.owner)
        leader.away_until = first + n
        ctx.emit(Ev.LEADER_REMOVED, unit=leader.id, name=leader.name, who=leader.owner, until=leader.away_until,
                 until_player=leader.owner, turns=n, source=card.id)
        start_effect(ctx, "leader_removed", card.id, leader.id, n, first + n - 1, leader.owner)
    else:
        release_cargo(ctx.state, leader)
        ctx.state.remove_unit(leader.id)
        ctx.emit(Ev.LEADER_REMOVED, unit=leader.id, name=leader.name, who=leader.owner, until=None,
                 source=card.id)


def _check_leader_gained(ctx, card, target, e):
    if muster_hex(ctx.state, ctx.game_map, ctx.player) is None:
        return "you control no city where a new leader could appear"
    return None


def _leader_gained(ctx, card, target, e):
    h = muster_hex(ctx.state, ctx.game_map, ctx.player)
    for _ in range(int(e["value"])):
        u = new_leader(ctx.state, ctx.me, h, ctx.tables, ctx.dice)
        ctx.emit(Ev.NEW_LEADER, unit=u.id, name=u.name, hex=h, source=card.id)


def _check_razed_counters(ctx, card, target, e):
    """Coup: "Opponents Home city" is the city the opponent rules from; once it is taken (by the card's player or
    another) there is no opponent's government there to overthrow (Decision): the card fails, stays in hand."""
    st = ctx.state
    cid = st.players[target].home
    if st.cities[cid].controller != target:
        return f"the {st.players[target].name} do not hold their home city {ctx.game_map.cities[cid].name}"
    return None


def _razed_counters(ctx, card, target, e):
    cid = ctx.state.players[target].home
    city = ctx.state.cities[cid]
    n = roll_spec(ctx, e["dice"], f"{card.name}: razed counters", city=cid)
    added = min(n, 6 - city.razed)
    city.razed += added
    ctx.emit(Ev.RAZED_ADDED, city=cid, rolled=n, added=added, razed=city.razed, source=card.id)


def _units_of_target(ctx, target) -> list[Unit]:
    """The units a city, hex or stack target names (a city: the units in its hex)."""
    if isinstance(target, list):
        return target
    h = ctx.game_map.cities[target].hex if target in ctx.state.cities else target
    return ctx.state.units_at(h)


def _upkeep_roll(ctx, card, target, e):
    from .phases.upkeep import upkeep_roll
    for u in [u for u in _units_of_target(ctx, target) if u.type.needs_upkeep]:
        upkeep_roll(ctx, u, int(e["modifier"]), card.id)


def _starvation_counter(ctx, card, target, e):
    for u in [u for u in _units_of_target(ctx, target) if u.type.needs_upkeep]:
        u.starvation += 1
        ctx.emit(Ev.STARVATION, unit=u.id, who=u.owner, counters=u.starvation, cause=card.id)


def _remove_baggage(ctx, card, target, e):
    n = roll_spec(ctx, e["dice"], f"{card.name}: baggage removed")
    for u in [u for u in target if u.type is UnitType.BAGGAGE][:n]:
        ctx.state.remove_unit(u.id)
        ctx.emit(Ev.DESTROYED, unit=u.id, who=u.owner, cause=card.id)


def navigation_modifier(ctx: "TurnContext", ship: Unit) -> int:
    if ship.owner is None:
        return 0
    return sum(int(x["value"]) for _, x in player_effects(ctx.state, ctx.tables, ship.owner, "roll_modifier")
               if x.get("roll") == "navigation" and unit_matches(x, ship))


def _navigation_roll(ctx, card, target, e):
    for ship in [u for u in _units_of_target(ctx, target) if u.type.is_ship and u.carried_by is None]:
        roll = ctx.dice.d6(f"{card.name}: navigation roll", unit=ship.id)
        total = roll + navigation_modifier(ctx, ship)
        sunk = total >= 5
        ctx.emit(Ev.NAVIGATION, unit=ship.id, who=ship.owner, roll=roll, total=total, sunk=sunk, cause=card.id)
        if sunk:
            from .movement import destroy_unit
            lost = destroy_unit(ctx, ship, "sunk")[1:]  # what went down with it
            ctx.emit(Ev.SUNK, unit=ship.id, who=ship.owner, lost=lost, cause=card.id)


EFFECTS: dict[str, tuple[Check | None, Apply]] = {
    "gold": (None, _gold),
    "diplomacy_rolls": (None, _diplomacy_rolls),
    "control_city": (None, _control_city),
    "revolt": (None, _revolt),
    "income_block": (None, _income_block),
    "cannot_move_or_attack": (None, _cannot_move_or_attack),
    "truce": (None, _truce),
    "draw_cards": (None, _draw_cards),
    "look_at_hand": (None, _look_at_hand),
    "leader_removed": (None, _leader_removed),
    "leader_gained": (_check_leader_gained, _leader_gained),
    "razed_counters": (_check_razed_counters, _razed_counters),
    "upkeep_roll": (None, _upkeep_roll),
    "starvation_counter": (None, _starvation_counter),
    "remove_baggage": (None, _remove_baggage),
    "navigation_roll": (None, _navigation_roll),
}


# -- the dispatcher ------------------------------------------------------------------------------------

def left_to_later_phase(card: Card) -> bool:
    """A card of ``orders.cards`` that a later phase of the player-turn plays: a movement card (the first move of
    the stack it names) or a card played on capturing a city (Treasure, in the Land Battle phase)."""
    t = card.timing
    return t.get("phase") == "move" or t.get("trigger") == "city_captured"


def why_not_now(card: Card) -> str | None:
    """Why ``card`` is not played from ``orders.cards`` at the start of the Diplomacy phase (None: it is)."""
    t = card.timing
    trigger = t.get("trigger", "none")
    if trigger == "revolt":
        return "it is played in other players' turns, against a revolt in your city (standing executions)"
    if trigger == "attack":
        return "it is played in other players' turns, when an attack on you is declared (standing reactions)"
    if trigger == "battle_lost":
        return ("it is played right after a battle your side won: name it in the cards of your attack, or in "
                "standing reactions")
    if t.get("phase") == "battle":
        return ("it is a battle card: name it in the cards of an attack"
                + (", or in standing defence_cards" if t.get("role") in ("defense", "any") else ""))
    if t.get("turn") == "other":
        return "it is played in other players' turns, from standing orders"
    if trigger != "none":
        return f"it is played only as a reaction ({trigger})"
    if t.get("phase") not in OWN_TURN_PHASES:
        return f"it is played in the {t.get('phase')} phase"
    unknown = [e["kind"] for e in card.effects if e["kind"] not in EFFECTS]
    if unknown:
        return f"its effect ({unknown[0]}) does not act outside battles and moves"
    return None


def _target_id(target: Any, use: CardUse) -> str | None:
    if target is None:
        return None
    if isinstance(target, Unit):
        return target.id
    return target if isinstance(target, str) else use.target


def play_card(ctx: "TurnContext", use: CardUse, section: str, index: int | None) -> bool:
    """Play one card of the own player-turn; False (and the order reported failed) if it cannot be played."""
    card = ctx.tables.cards.get(use.card)
    if card is None:
        ctx.order_failed(section, index, f"there is no card {use.card!r}", card=use.card)
        return False
    reason = why_not_now(card)
    if reason is None and use.card not in ctx.me.hand:
        reason = "it is not in your hand"
    target = None
    if reason is None:
        target, reason = resolve_target(ctx, card.target, use.target)
    if reason is None:
        for e in card.effects:
            check = EFFECTS[e["kind"]][0]
            reason = check(ctx, card, target, e) if check else None
            if reason:
                break
    if reason is not None:
        ctx.order_failed(section, index, f"{card.name} cannot be played: {reason}", card=use.card)
        return False
    discard_from_hand(ctx.state, ctx.player, card.id)
    ctx.emit(Ev.CARD_PLAYED, card=card.id, target=_target_id(target, use), by=ctx.player)
    for e in card.effects:
        EFFECTS[e["kind"]][1](ctx, card, target, e)
    ctx.order_done(section, index, card=card.id)
    return True


def play_own_turn_cards(ctx: "TurnContext") -> None:
    """The Diplomacy and any-phase cards of ``orders.cards``, in the order listed.  Movement cards and Treasure
    are left to the phases that play them; any other card that is not played here (a battle card, a reaction)
    is reported failed and stays in the hand (R-TURN-4)."""
    for i, use in enumerate(ctx.my_orders.cards):
        card = ctx.tables.cards.get(use.card)
        if card is not None and left_to_later_phase(card):
            continue
        play_card(ctx, use, "cards", i)
