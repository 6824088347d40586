"""The battle engine shared by the Sea Battle and Land Battle phases and by revolts (R-BAT-1..5, R-PH-SEA,
R-PH-LAND, R-PH-DIP-REVOLT).

One battle, step by step (the dice are rolled in this order, so scripted tests can follow it):

1. every attacking unit rolls its die, in the order of the attack's unit list; then every defending unit,
   by unit id, then a neutral city's Army, then the city's garrison.  A land battle's defenders are the
   Armies and Rowers on land and the ships beached or docked in the hex (``land_defenders``; ships roll as
   at sea, with no terrain or city modifier; those with no die share the side's fate);
2. battle-total bonuses of leaders' skills (Heroism, Brilliance) of the leaders in the side's battle hexes:
   attacker's, then defender's;
3. cards (R-BAT-5): the attacker's cards not marked ``if_needed`` in the order listed, then the defender's;
   then ``if_needed`` cards, attacker first, then defender, alternately, each only while its side's total is
   not yet the winning one;
4. the higher total wins; a tie goes to the defender;
5. the loser rolls 1D6 per unit, ships included (casualty roll): 1-4 destroyed (a ship with all aboard), 5-6
   retreat one hex, else destroyed (R-BAT-3); leaders on land follow a land unit's retreat, never a ship's;
6. a land battle for a city: if no enemy combat unit is left in it, one attacking unit moves in, the city
   changes hands and turns hostile; plunder and destroy as ordered; Treasure pays (R-BAT-4).

Modifiers come through one mechanism (R-BAT-2): ``effects_acting`` lists, for one side, the effects of a kind
acting on it — its player's traits, the skills of its leaders (only for the leader's own stack), its cards,
and the opponent's traits, skills and cards that say ``side: opponent``.  ``roll_modifiers`` filters them for
one unit and one roll (attack, defence, casualty, navigation); ``battle_total`` effects add dice to a total.
No trait, skill or card is named in this module.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable

from . import effects as fx
from .board import (enemy_combat_units, friendly_cities, hostile_to, is_combat_unit, is_manned, stack_limit,
                    stack_size)
from .cards import leader_named, start_effect
from .events import Ev
from .gamedata import GameMap
from .model import HOME_CITY_DEFENCE, GameState, Unit, UnitType
from .movement import (capture_hex, cannot_move_or_attack, cargo_tree, counts_with_cargo, destroy_unit,
                       effects_in_force, fate_teller, foreign_city, land_ok, may_stand, nearest_city_distance,
                       place_with_cargo, play_card, roll_spec)
from .ordertypes import Attack, CardUse

if TYPE_CHECKING:
    from .adjudicator import TurnContext

A, R, F, T, B, L = (UnitType.ARMY, UnitType.ROWERS, UnitType.FLEET, UnitType.TRANSPORT, UnitType.BAGGAGE,
                    UnitType.LEADER)
BATTLE_KINDS = ("battle_total", "roll_modifier")
TRIGGERED = ("city_captured", "battle_lost")


RETREAT_AT = 5  # R-BAT-3: a casualty roll of 5 or more (after modifiers) retreats; below, destroyed

# -- the one modifier mechanism (R-BAT-2) ----------------------------------------------------------------

@dataclass
class Situation:
    """Who a roll is made for and against, as the effects need it."""

    player: str | None
    units: list[Unit] = field(default_factory=list)  # the side's units (their leaders' skills act)
    cards: list[str] = field(default_factory=list)  # cards the side has played in this battle
    opponent: str | None = None
    opp_units: list[Unit] = field(default_factory=list)
    opp_cards: list[str] = field(default_factory=list)
    role: str | None = None  # attack | defense; None outside a battle (navigation)
    city: str | None = None  # the city fought for (attacked, defended or revolting)
    arena: str | None = None  # land | sea
    hexes: list[str] | None = None  # the side's battle hexes (its leaders there act); None: its units' hexes
    opp_hexes: list[str] | None = None


Acting = list[tuple[str, dict[str, Any], str | None]]


def held_effects(ctx: "TurnContext", player: str | None, units: list[Unit], kind: str,
                 hexes: Iterable[str] | None = None) -> Acting:
    """(source label, effect, leader hex or None) for every effect of ``kind`` that ``player`` brings to a
    battle, whichever side it acts on: the player's traits, then the skills of their leaders standing in the
    side's battle ``hexes`` (None: the hexes of their ``units``).  None brings nothing (rebels, a neutral
    city)."""
    return held_by_kind(ctx, player, units, (kind,), hexes)[kind]


def held_by_kind(ctx: "TurnContext", player: str | None, units: list[Unit],
                 kinds: Iterable[str], hexes: Iterable[str] | None = None) -> dict[str, Acting]:
    """``held_effects`` for several kinds at once: {kind: acting}.  The side's leaders are looked up once for
    all kinds: those in its battle ``hexes`` when given (a city defended by its garrison alone has no unit, but
    the leader standing in it leads the defence, R-BAT-2), else those of its units' stacks."""
    if player is None:
        return {kind: [] for kind in kinds}
    state, tables = ctx.state, ctx.tables
    if hexes is not None:
        leaders = fx.leaders_in(state, set(hexes), {player})
    else:
        leaders = fx.stack_leaders(state, [u for u in units if u.owner == player])
    found: dict[str, Acting] = {}
    for kind in kinds:
        out: Acting = [(src.label(), e, None) for src, e in fx.player_effects(state, tables, player, kind)]
        out += [(src.label(), e, state.units[src.unit].hex) for src, e in fx.led_effects(tables, leaders, kind)]
        found[kind] = out
    return found


def effects_acting(ctx: "TurnContext", sit: Situation, kind: str,
                   held: tuple[Acting, Acting] | None = None) -> Acting:
    """(source label, effect, leader hex or None) for every effect of ``kind`` acting on the side ``sit``.

    Own side (``side: own``): the player's traits (every unit), the skills of leaders in the side's hexes
    (only units in the leader's hex), the side's cards.  Opponent (``side: opponent``): the same from the
    other side, e.g. Cavalry or Block Escape making this side's casualty rolls worse.  ``held``: the
    ``held_effects`` of the side's player and of the opponent, when the caller has them (they hold while no
    unit moves)."""
    if held is None:
        held = (held_effects(ctx, sit.player, sit.units, kind, sit.hexes),
                held_effects(ctx, sit.opponent, sit.opp_units, kind, sit.opp_hexes))
    cards = ctx.tables.cards
    out: Acting = []
    for brought, played, want in ((held[0], sit.cards, "own"), (held[1], sit.opp_cards, "opponent")):
        out += [found for found in brought if found[1].get("side", "own") == want]
        for card in played:
            c = cards[card]
            out += [(f"{c.name} (card)", e, None) for e in c.effects
                    if e["kind"] == kind and e.get("side", "own") == want]
    return out


def _vs_ok(state: GameState, e: dict[str, Any], sit: Situation) -> bool:
    """Does an effect's ``vs`` (and ``where``) fit the situation?  ``vs: ships``: the opposing side has a ship
    in the battle — always in a sea battle; in a land battle when beached or docked ships defend (R-PH-LAND)."""
    vs = e.get("vs", "any")
    if vs == "city" and sit.city is None:
        return False
    if vs == "ships" and sit.arena != "sea" and not any(u.type.is_ship for u in sit.opp_units):
        return False
    if e.get("where", "any") == "home_city":
        return sit.role == "defense" and sit.city is not None and state.cities[sit.city].home_of == sit.player
    return True


def roll_modifiers(ctx: "TurnContext", sit: Situation, unit: Unit, rolls: Iterable[str],
                   acting: Acting | None = None) -> list[tuple[str, int]]:
    """The modifiers to one unit's roll: ``rolls`` names the roll kinds that count ("battle" and "attack" for
    an attack roll; "casualty"; "navigation").  ``acting``: ``effects_acting(ctx, sit, "roll_modifier")`` when
    the caller has it already (the same for every unit of a side while nothing moves)."""
    rolls = set(rolls)
    out = []
    if acting is None:
        acting = effects_acting(ctx, sit, "roll_modifier")
    for label, e, leader_hex in acting:
        if e["roll"] not in rolls or not fx.unit_matches(e, unit) or not _vs_ok(ctx.state, e, sit):
            continue
        if leader_hex is not None and unit.hex != leader_hex:
            continue
        out.append((label, int(e["value"])))
    return out


def total_applies(ctx: "TurnContext", e: dict[str, Any], sit: Situation) -> bool:
    """Does a battle_total effect change the total of the side ``sit``?"""
    if e["total"] not in ("battle", sit.role):
        return False
    if e.get("battle", "any") not in ("any", sit.arena):
        return False
    return _vs_ok(ctx.state, e, sit)


# -- battle data ----------------------------------------------------------------------------------------

@dataclass
class Fighter:
    """One die in a battle: a unit, or a city's garrison, a neutral city's Army, a rebel."""

    label: str
    kind: str  # army | rowers | fleet | transport | garrison | neutral_army | rebel
    hex: str
    sides: int
    unit: Unit | None = None
    fixed: list[tuple[str, int]] = field(default_factory=list)  # terrain, city defence, hostile city
    roll: int = 0


@dataclass
class Side:
    role: str  # attack | defense
    player: str | None
    fighters: list[Fighter]
    units: list[Unit]  # the side's units in the battle: they make the casualty rolls if the side loses
    hexes: list[str]
    cards: list[str] = field(default_factory=list)
    bonuses: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Battle:
    kind: str  # sea | land | revolt
    target: str
    city: str | None
    attack: Side
    defense: Side
    card_log: list[dict[str, Any]] = field(default_factory=list)

    @property
    def arena(self) -> str:
        return "sea" if self.kind == "sea" else "land"

    def other(self, side: Side) -> Side:
        return self.defense if side is self.attack else self.attack

    def situation(self, side: Side) -> Situation:
        o = self.other(side)
        return Situation(side.player, side.units, side.cards, o.player, o.units, o.cards, side.role, self.city,
                         self.arena, side.hexes, o.hexes)


def city_defence(state: GameState, game_map: GameMap, city_id: str) -> int:
    """The city's defence modifier: +5 (City terrain); a home city +8 instead (Decision: not +13)."""
    if state.cities[city_id].home_of:
        return HOME_CITY_DEFENCE
    return game_map.terrain[game_map.cities[city_id].hex].defense or 0


def terrain_defence(state: GameState, game_map: GameMap, hex_id: str) -> tuple[str, int] | None:
    """What a defending land unit adds for its hex (R-BAT-1); ships never get it (beached, R-PH-SEA)."""
    city = game_map.city_at.get(hex_id)
    if city is not None:
        return (f"{'home city' if state.cities[city.id].home_of else 'city'} defence", city_defence(state, game_map,
                                                                                                      city.id))
    t = game_map.terrain[hex_id]
    return (f"terrain ({t.name})", t.defense) if t.defense else None


def sea_die(state: GameState, u: Unit) -> int:
    """Manned Fleets roll 1D10, Transports with an Army aboard 1D6; other ships do not fight (0)."""
    if u.type is F and is_manned(state, u):
        return 10
    if u.type is T and any(c.type is A for c in state.units_at(u.hex) if c.carried_by == u.id):
        return 6
    return 0


def land_die(u: Unit) -> int:
    """Armies roll 1D10, Rowers on land 1D6; units aboard ships are not in a land battle by themselves."""
    if u.carried_by is not None:
        return 0
    return {A: 10, R: 6}.get(u.type, 0)


def in_land_defence(u: Unit) -> bool:
    """Is ``u`` one of the units that defend a land hex (R-PH-LAND)?  Armies and Rowers on land, and every ship
    beached or docked there (each ship with what it carries; what is aboard never defends by itself)."""
    return land_die(u) > 0 or (u.type.is_ship and u.carried_by is None)


def land_defence_die(state: GameState, u: Unit) -> int:
    """A defender's die in a land battle: Armies 1D10, Rowers 1D6 (``land_die``); a beached or docked ship as in
    a sea battle (``sea_die``: manned Fleet 1D10, Transport with an Army 1D6, other ships none)."""
    return land_die(u) if not u.type.is_ship else sea_die(state, u)


def land_defenders(state: GameState, hex_id: str, player: str) -> list[Unit]:
    """The units of other players in ``hex_id`` that would defend it against ``player``'s land attack, by id
    (``in_land_defence``); the defender is the city's controller or the owner of the first that holds it."""
    return [u for u in state.units_at(hex_id) if u.owner is not None and hostile_to(u, player) and in_land_defence(u)]


def holds_ground(state: GameState, u: Unit) -> bool:
    """Is ``u`` a defender a land attack may be made against?  One with a die, or a ship carrying a unit that
    blocks entry (Rowers aboard a Transport, R-PH-MOVE).  Decision: the rest (unmanned Fleets, Transports
    without an Army, with Baggage or Leaders aboard) are not attacked: a move in captures them (R-UNIT-3)."""
    return bool(land_defence_die(state, u)) or any(is_combat_unit(state, c) for c in cargo_tree(state, u))


def holds_sea(state: GameState, u: Unit) -> bool:
    """Is ship ``u`` one a sea attack may be made against?  As on land (``holds_ground``): it fights (a manned
    Fleet, a Transport with an Army) or carries a unit that blocks entry (Rowers aboard a Transport).  Decision:
    the rest (unmanned Fleets, Transports without an Army or Rowers) are taken by moving in (R-UNIT-3)."""
    return bool(sea_die(state, u)) or any(is_combat_unit(state, c) for c in cargo_tree(state, u))


def unfought_ships_hint(state: GameState, gm: GameMap, h: str, me: str) -> str:
    """How ships a sea attack may not be made against (``holds_sea``) are taken instead: with the city they are
    docked in, by a land attack on the hex when enemy units ashore bar the way in, else by moving in."""
    if h in gm.city_at:
        return "they are taken with the city they are docked in"
    if any(hostile_to(u, me) and is_combat_unit(state, u) for u in state.units_at(h)):
        return "units ashore bar the way in: attack the hex by land (a land battle takes the ships along)"
    return "move in to capture them"


def unit_fighter(u: Unit, sides: int, fixed: list[tuple[str, int]] | None = None) -> Fighter:
    return Fighter(u.id, u.type.value, u.hex, sides, u, list(fixed or []))


# -- rolling and totals ---------------------------------------------------------------------------------

def fighter_result(ctx: "TurnContext", battle: Battle, side: Side, f: Fighter,
                   acting: tuple[Situation, Acting] | None = None,
                   alike: dict[tuple[UnitType, str], list[tuple[str, int]]] | None = None
                   ) -> tuple[list[tuple[str, int]], int]:
    """A fighter's modifiers and result.  ``acting``: the side's situation and ``effects_acting`` for it, when
    the caller has them (they hold for the whole side until a card is played).  ``alike``: the side's unit
    modifiers found so far while ``acting`` holds, by unit type and hex, all that ``roll_modifiers`` looks at
    of a unit (an effect's ``units``; a leader's stack): units alike share them."""
    mods = list(f.fixed)
    u = f.unit
    if u is not None:
        if acting is None:
            acting = side_acting(ctx, battle, side)
        sit, effects = acting
        if alike is None:
            alike = {}
        if (u.type, u.hex) not in alike:
            alike[u.type, u.hex] = roll_modifiers(ctx, sit, u, ("battle", side.role), effects)
        mods += alike[u.type, u.hex]
    return mods, f.roll + sum(v for _, v in mods)


def side_acting(ctx: "TurnContext", battle: Battle, side: Side,
                held: tuple[Acting, Acting] | None = None) -> tuple[Situation, Acting]:
    sit = battle.situation(side)
    return sit, effects_acting(ctx, sit, "roll_modifier", held)


def roll_fighters(ctx: "TurnContext", side: Side) -> None:
    what = "attack roll" if side.role == "attack" else "defence roll"
    for f in side.fighters:
        f.roll = ctx.dice.roll(f.sides, what, unit=f.label)


def add_total_bonus(ctx: "TurnContext", battle: Battle, side: Side, source: str, e: dict[str, Any]) -> dict:
    rolls = roll_spec(ctx, e["dice"], f"{source}: battle total", side=side.role)
    bonus = {"source": source, "dice": e["dice"], "rolls": rolls, "value": int(e.get("sign", 1)) * sum(rolls)}
    side.bonuses.append(bonus)
    return bonus


def leader_bonuses(ctx: "TurnContext", battle: Battle, side: Side,
                   held: tuple[Acting, Acting] | None = None) -> None:
    """Battle-total effects acting before any card (leaders' skills such as Heroism).  ``held``: as for
    ``effects_acting``."""
    if held is not None and not held[0] and not held[1]:
        return  # neither player brings a battle-total effect, and no card is played yet
    sit = battle.situation(side)
    for label, e, _ in effects_acting(ctx, Situation(sit.player, sit.units, [], sit.opponent, sit.opp_units, [],
                                                      sit.role, sit.city, sit.arena, sit.hexes, sit.opp_hexes),
                                      "battle_total", held):
        if total_applies(ctx, e, sit):
            add_total_bonus(ctx, battle, side, label, e)


def card_fits(ctx: "TurnContext", battle: Battle, side: Side, card: str) -> str | None:
    """None if ``card`` may be played by ``side`` in this battle and does something, else why not."""
    c = ctx.tables.cards.get(card)
    if c is None:
        return f"unknown card {card}"
    timing = c.timing or {}
    if timing.get("phase") not in ("battle", "sea_battle" if battle.kind == "sea" else "land_battle", "any"):
        return f"{c.name} is not played in battles"
    role = timing.get("role")
    if role not in ("any", side.role):
        return f"{c.name} is played only when {'attacking' if role == 'attack' else 'defending'}"
    turn = timing.get("turn", "any")
    if turn not in ("any", "own" if side.role == "attack" else "other"):
        return f"{c.name} is played only in {'your own' if turn == 'own' else 'other players'} turns"
    for e in c.effects:
        tgt = side if e.get("side", "own") == "own" else battle.other(side)
        sit = battle.situation(tgt)
        if e["kind"] == "battle_total" and total_applies(ctx, e, sit):
            return None
        if e["kind"] == "roll_modifier" and e["roll"] in ("battle", "casualty", tgt.role) and _vs_ok(ctx.state, e, sit) \
                and any(fx.unit_matches(e, u) for u in tgt.units):
            return None
    return f"{c.name} does nothing in this battle"


def play_battle_card(ctx: "TurnContext", battle: Battle, side: Side, card: str, if_needed: bool) -> None:
    c = ctx.tables.cards[card]
    side.cards.append(card)
    entry: dict[str, Any] = {"by": side.player, "side": side.role, "card": card, "if_needed": if_needed,
                             "effects": []}
    for e in c.effects:
        tgt = side if e.get("side", "own") == "own" else battle.other(side)
        if e["kind"] == "battle_total" and total_applies(ctx, e, battle.situation(tgt)):
            bonus = add_total_bonus(ctx, battle, tgt, f"{c.name} (card)", e)
            entry["effects"].append({"total_of": tgt.role, **bonus})
        elif e["kind"] == "roll_modifier":
            entry["effects"].append({"roll_modifier": e["value"], "roll": e["roll"], "units": e.get("units", "all"),
                                     "on": tgt.role})
    play_card(ctx, side.player, card, hex=battle.target, side=side.role, if_needed=if_needed,
              effects=entry["effects"])
    battle.card_log.append(entry)


def defence_cards(ctx: "TurnContext", battle: Battle) -> list[tuple[str, bool]]:
    """The defender's standing defence cards for this hex or anywhere, that they hold (R-BAT-5, R-STAND-1)."""
    player = battle.defense.player
    if player is None:
        return []
    hand = Counter(ctx.state.players[player].hand)
    out = []
    for dc in ctx.standing(player).defence_cards:
        if dc.hex not in (None, battle.target) or hand[dc.card] <= 0:
            continue
        hand[dc.card] -= 1
        out.append((dc.card, dc.if_needed))
    return out


def fight(ctx: "TurnContext", battle: Battle, attack_cards: list[CardUse], **report: Any) -> str:
    """Steps 1-4: dice, bonuses, cards, winner.  Emits Ev.BATTLE; returns "attacker" or "defender"."""
    a, d = battle.attack, battle.defense
    roll_fighters(ctx, a)
    roll_fighters(ctx, d)
    # Nothing moves during steps 2-4: what each side's player and leaders bring (``held_effects``) is gathered
    # once per kind, here; what acts on a side changes only when a card is played.
    brought = {s.role: held_by_kind(ctx, s.player, s.units, BATTLE_KINDS, s.hexes) for s in (a, d)}

    def held(side: Side, kind: str) -> tuple[Acting, Acting]:
        return brought[side.role][kind], brought[battle.other(side).role][kind]

    leader_bonuses(ctx, battle, a, held(a, "battle_total"))
    leader_bonuses(ctx, battle, d, held(d, "battle_total"))
    d_cards = defence_cards(ctx, battle)
    a_now = [c.card for c in attack_cards if not c.if_needed]
    d_now = [c for c, needed in d_cards if not needed]
    for card in a_now:
        play_battle_card(ctx, battle, a, card, False)
    for card in d_now:
        if card in ctx.state.players[d.player].hand and card_fits(ctx, battle, d, card) is None:
            play_battle_card(ctx, battle, d, card, False)
    a_queue = [c.card for c in attack_cards if c.if_needed]
    d_queue = [c for c, needed in d_cards if needed]
    # Each fighter's modifiers and result, by side, until a card is played (a card may act on either side).
    results: dict[str, list[tuple[list[tuple[str, int]], int]]] = {}

    def fighter_results(side: Side) -> list[tuple[list[tuple[str, int]], int]]:
        if side.role not in results:
            acting = side_acting(ctx, battle, side, held(side, "roll_modifier"))
            alike: dict[tuple[UnitType, str], list[tuple[str, int]]] = {}
            results[side.role] = [fighter_result(ctx, battle, side, f, acting, alike) for f in side.fighters]
        return results[side.role]

    def total(side: Side) -> int:
        return sum(result for _, result in fighter_results(side)) + sum(b["value"] for b in side.bonuses)

    unplayed: list[dict[str, Any]] = []  # the if_needed cards named for this battle and not played, for their holder

    def next_card(side: Side, queue: list[str]) -> bool:
        while queue:
            card = queue.pop(0)
            why = ("no longer in your hand" if card not in ctx.state.players[side.player].hand
                   else card_fits(ctx, battle, side, card))
            if why is None:
                play_battle_card(ctx, battle, side, card, True)
                results.clear()
                return True
            if side is a or why == "no longer in your hand":  # a standing card that does not fit is not for this one
                unplayed.append({"by": side.player, "side": side.role, "card": card, "if_needed": True, "why": why})
        return False

    while True:
        played = False
        if a_queue and total(a) <= total(d):
            played |= next_card(a, a_queue)
        if d_queue and total(d) < total(a):
            played |= next_card(d, d_queue)
        if not played:
            break
    ta, td = total(a), total(d)
    winner = "attacker" if ta > td else "defender"
    for side, queue in ((a, a_queue), (d, d_queue)):
        for card in queue:
            if side is a or card_fits(ctx, battle, side, card) is None:
                unplayed.append({"by": side.player, "side": side.role, "card": card, "if_needed": True,
                                 "why": "not needed"})
    if unplayed:
        report["cards_unplayed"] = unplayed

    def side_report(side: Side, total: int) -> dict[str, Any]:
        rows = []
        for f, (mods, result) in zip(side.fighters, fighter_results(side)):
            rows.append({"unit": f.label, "type": f.kind, "hex": f.hex, "die": f"1D{f.sides}", "roll": f.roll,
                         "modifiers": [{"source": s, "value": v} for s, v in mods], "result": result})
        return {"player": side.player, "units": rows, "bonuses": side.bonuses, "total": total,
                "hexes": side.hexes}

    won = a if winner == "attacker" else d
    ctx.emit(Ev.BATTLE, battle=battle.kind, attacker=a.player, defender=d.player, target=battle.target,
             city=battle.city, attackers=[u.id for u in a.units], defenders=[u.id for u in d.units],
             attack_total=ta, defence_total=td, winner=won.player, won_by=winner, tie=ta == td,
             attack=side_report(a, ta), defence=side_report(d, td), cards=battle.card_log, **report)
    return winner


# -- casualties and retreat (R-BAT-3) -------------------------------------------------------------------

def retreat_hexes(state: GameState, gm: GameMap, unit: Unit, from_hex: str) -> list[str]:
    """The hexes ``unit`` may retreat to from ``from_hex`` (R-BAT-3): one hex away, holding no enemy unit, within
    stacking, where the unit may stand and not an enemy or neutral city.  Also asked by the checker."""
    owner = unit.owner
    ok = []
    for n in gm.neighbours[from_hex]:
        if not may_stand(gm, unit, n) or foreign_city(state, gm, n, owner):
            continue
        if any(hostile_to(u, owner) for u in state.units_at(n)):
            continue
        if stack_size(state, n, owner) + counts_with_cargo(state, unit) > stack_limit(gm, n):
            continue
        ok.append(n)
    return ok


def retreat_hex(ctx: "TurnContext", unit: Unit, from_hex: str) -> str | None:
    """Of ``retreat_hexes``, the owner's standing retreat preference for ``from_hex`` first; else the hex nearest
    a friendly city (R-BAT-3); ties by hex id."""
    state, gm, owner = ctx.state, ctx.game_map, unit.owner
    ok = retreat_hexes(state, gm, unit, from_hex)
    if not ok:
        return None
    for pref in ctx.standing(owner).retreat.get(from_hex, ()):
        if pref in ok:
            return pref
    mine = state.controlled_cities(owner) if owner else []
    friendly = friendly_cities(state, gm, owner) if owner else []  # not razed, not besieged (R-PH-UPK)
    toward = friendly or mine  # with no friendly city left, toward the nearest of the owner's cities
    return min(ok, key=lambda n: (nearest_city_distance(gm, toward, n), n))


def casualties(ctx: "TurnContext", battle: Battle, side: Side) -> dict[str, str]:
    """The losing side's casualty rolls, ships with their cargo.  Returns {from hex: first hex a land unit retreated
    to} for leaders on land to follow (a ship's retreat, maybe into the sea, is not theirs to follow)."""
    state = ctx.state
    sit = battle.situation(side)
    went: dict[str, str] = {}
    for u in side.units:
        if u.id not in state.units:
            continue
        roll = ctx.dice.d6("casualty roll", unit=u.id)
        mods = roll_modifiers(ctx, sit, u, ("casualty",))
        total = roll + sum(v for _, v in mods)
        base = {"unit": u.id, "owner": u.owner, "hex": u.hex, "roll": roll,
                "modifiers": [{"source": s, "value": v} for s, v in mods], "total": total}
        # R-UNIT-3: an unmanned Fleet cannot move, so it cannot retreat ("if this move is not possible the unit
        # is destroyed", R-BAT-3)
        stuck = u.type is F and not is_manned(state, u)
        dest = retreat_hex(ctx, u, u.hex) if total >= RETREAT_AT and not stuck else None
        if dest is None:
            start = u.hex
            gone = destroy_unit(ctx, u, "casualty")
            ctx.emit(Ev.CASUALTY, **base, result="destroyed", lost=gone,
                     reason=None if total < RETREAT_AT else "an unmanned Fleet cannot move" if stuck
                     else "no hex to retreat to")
            went.setdefault(start, "")
        else:
            start = u.hex
            place_with_cargo(state, u, dest)
            ctx.emit(Ev.CASUALTY, **base, result="retreat", to=dest)
            ctx.emit(Ev.RETREAT, unit=u.id, owner=u.owner, **{"from": start}, to=dest,
                     carried=[c.id for c in cargo_tree(state, u)])
            if not went.get(start) and not u.type.is_ship:
                went[start] = dest
    return went


def leaders_follow(ctx: "TurnContext", side: Side, went: dict[str, str]) -> None:
    """Leaders never roll: a leader on land left in a hex without a combat unit of its own goes where the first
    land unit of its stack retreated to; if none retreated it stays (and may be captured).  A leader aboard a
    ship went with it; one on land never follows a ship (``casualties`` leaves ships' retreats out)."""
    state = ctx.state
    for h, dest in went.items():
        if not dest or side.player is None or not land_ok(ctx.game_map, dest):
            continue
        if any(u.owner == side.player and is_combat_unit(state, u) for u in state.units_at(h)):
            continue  # a combat unit of its side is still there (an unmanned Fleet is none, R-UNIT-3)
        for u in state.units_at(h):
            if u.owner == side.player and u.type is L and u.carried_by is None:
                state.place(u, dest)
                ctx.emit(Ev.RETREAT, unit=u.id, owner=u.owner, **{"from": h}, to=dest, carried=[])


# -- capture of a city (R-BAT-4) ------------------------------------------------------------------------

def take_city(ctx: "TurnContext", battle: Battle, atk: Attack, trigger_cards: list[CardUse]) -> str | None:
    """The attacker has won a land battle for a city.  Returns why the city is not taken, or None."""
    state, gm, me = ctx.state, ctx.game_map, ctx.player
    cid = battle.city
    h = gm.cities[cid].hex
    left = enemy_combat_units(state, h, me)
    if left:
        return f"the city is not taken: enemy units are still in it ({', '.join(u.id for u in left)})"
    movers = [u for u in battle.attack.units if u.id in state.units]
    mover = next((u for u in movers if u.type is A), None) or next((u for u in movers if u.type is R), None)
    if mover is None:
        return "no attacking unit is left to move in"
    old = state.cities[cid].controller
    city = state.cities[cid]
    # R-BAT-4: a captured city is hostile.  Decision: not a player's own home city when he retakes it (its
    # people welcome him back; a home city is never a diplomacy target, so it could never lose the counter).
    city.controller, city.hostile = me, city.home_of != me
    start = mover.hex
    place_with_cargo(state, mover, h)
    ctx.emit(Ev.CITY_TAKEN, city=cid, hex=h, by=me, **{"from": old}, unit=mover.id, unit_from=start,
             home_of=city.home_of)
    capture_hex(ctx, h, me, "city taken")
    if atk.plunder or atk.destroy:
        rolls = ctx.dice.dice(3, 6, "plunder", city=cid)
        state.players[me].gold += sum(rolls)
        city.razed = min(6, city.razed + 3)
        ctx.emit(Ev.PLUNDER, city=cid, by=me, rolls=rolls, gold=sum(rolls), razed=city.razed)
        if atk.destroy:
            city.razed = 6
            ctx.emit(Ev.DESTROYED, city=cid, by=me, razed=6)
    for cu in trigger_cards:
        for e in ctx.tables.cards[cu.card].effects:
            if e["kind"] == "gold" and e.get("trigger") == "city_captured" and cu.card in state.players[me].hand:
                rolls = roll_spec(ctx, e["dice"], f"{ctx.tables.cards[cu.card].name}: gold", city=cid)
                gold = int(e.get("sign", 1)) * sum(rolls)
                state.players[me].gold = max(0, state.players[me].gold + gold)
                play_card(ctx, me, cu.card, city=cid, rolls=rolls)
                ctx.emit(Ev.GOLD, who=me, amount=gold, rolled=sum(rolls), source=cu.card, gold=state.players[me].gold,
                         city=cid)
    return None


# -- reactions around a battle ---------------------------------------------------------------------------

def _stack_targets(state: GameState, units: Iterable[Unit]) -> set[str]:
    """How a card may name the stacks these units attack from: a hex, or any unit of their owner standing there
    (a leader, an Army the order does not list: "a stack is named by one of its units")."""
    out = set()
    for u in units:
        out.add(u.hex)
        out |= {x.id for x in state.units_at(u.hex) if x.owner == u.owner}
    return out


def hesitation(ctx: "TurnContext", defender: str | None, units: list[Unit]) -> tuple[str, list[str]] | None:
    """A defender's standing reaction with a ``cannot_attack`` effect cancels the attack being declared and
    stops the target stack attacking again this player-turn: the stack the card names (by its hex or one of its
    units), else, named none, every stack of the attack.  The other stacks of a combined attack never attacked
    and may make a later attack (docs/rules.md, Decision on Hesitation).  Returns the card's name and the hexes
    of the stacks barred, if played."""
    if defender is None:
        return None
    state = ctx.state
    targets = _stack_targets(state, units)
    hand = state.players[defender].hand
    for cu in ctx.standing(defender).reactions:
        c = ctx.tables.cards.get(cu.card)
        if c is None or cu.card not in hand or not any(e["kind"] == "cannot_attack" for e in c.effects):
            continue
        if cu.target is not None and cu.target not in targets:
            continue
        hexes = sorted({u.hex for u in units})
        play_card(ctx, defender, cu.card, reaction="attack declared", stacks=hexes)
        if cu.target is not None:  # a unit of a stack in the attack (_stack_targets), or its hex
            named = state.units.get(cu.target)
            hexes = [named.hex if named is not None else cu.target]
        for h in hexes:
            start_effect(ctx, "cannot_attack", cu.card, h, 0, state.turn, ctx.player, by=defender)
        return c.name, hexes
    return None


def battle_lost_cards(ctx: "TurnContext", loser: Side, winner: Side, cards: list[CardUse],
                      leaders: list[Unit]) -> None:
    """Reaction cards with a ``leader_removed`` effect on condition ``lost_battle`` (Failure): the winner's
    named card removes a leader of the losing side for good."""
    if winner.player is None:
        return
    left = list(leaders)
    for cu in cards:
        c = ctx.tables.cards.get(cu.card)
        if c is None or cu.card not in ctx.state.players[winner.player].hand:
            continue
        for e in c.effects:
            # the target: the leader's id, or its name in any case (reports show enemy leaders by name)
            leader = leader_named(left, cu.target)
            if e["kind"] == "leader_removed" and e.get("condition") == "lost_battle" and leader is not None \
                    and leader.id in ctx.state.units:
                play_card(ctx, winner.player, cu.card, target=leader.id)
                ctx.state.remove_unit(leader.id)
                ctx.emit(Ev.LEADER_FATE, leader=leader.id, name=leader.name, owner=leader.owner,
                         captor=winner.player, hex=leader.hex, fate="removed", reason=c.name)
                left.remove(leader)


def side_leaders(state: GameState, side: Side) -> list[Unit]:
    return fx.leaders_in(state, set(side.hexes), {side.player}) if side.player is not None else []


# -- an attack order (R-PH-SEA, R-PH-LAND) ---------------------------------------------------------------

def expand_units(state: GameState, player: str, ids: Iterable[str], wanted,
                 fate: Callable[[str], str | None] | None = None) -> tuple[list[Unit], str | None]:
    """Unit ids, or hex ids meaning all of the player's units there that ``wanted(unit)`` accepts.  ``fate``
    (``movement.fate_teller``) says what became of a unit of the player's that is gone or taken this turn."""
    out: list[Unit] = []
    taken: set[str] = set()  # by id: Unit's dataclass == compares every field
    for x in ids:
        if x in state.units:
            u = state.units[x]
            if u.owner != player:
                return out, (fate(x) if fate else None) or f"{x} is not your unit"
            if u.away_until is not None:
                return out, f"{x} is away from the game"
            if u.id not in taken:
                out.append(u)
                taken.add(u.id)
        elif x.isdigit():
            here = [u for u in state.units_at(x) if u.owner == player and wanted(u)]
            if not here:
                return out, f"you have no such units in {x}"
            for u in here:
                if u.id not in taken:
                    out.append(u)
                    taken.add(u.id)
        else:
            return out, (fate(x) if fate else None) or f"no unit {x} (destroyed or never existed)"
    return out, None


def resolve_attack(ctx: "TurnContext", section: str, atk: Attack, arena: str) -> None:
    """One attack order of the Sea Battle (arena "sea") or Land Battle (arena "land") phase."""
    state, gm, me = ctx.state, ctx.game_map, ctx.player

    def fail(reason: str) -> None:
        ctx.order_failed(section, atk.index, reason, target=atk.target, units=list(atk.units))

    blocked = cannot_move_or_attack(state, me)
    if blocked:
        return fail(f"{ctx.tables.cards[blocked.source].name if blocked.source in ctx.tables.cards else blocked.source}"
                    f": your units may not move or attack this turn")
    truce = effects_in_force(state, "truce", me)
    if truce:
        return fail(f"Truce (played by {truce[0].player}): no one may attack")
    target = atk.target
    if target not in gm.terrain:
        return fail(f"{target} is not a hex of the map")
    if arena == "sea":
        wanted = lambda u: u.carried_by is None and sea_die(state, u) > 0  # noqa: E731
    else:
        wanted = lambda u: land_die(u) > 0  # noqa: E731
    units, err = expand_units(state, me, atk.units, wanted, fate_teller(ctx))
    if err:
        return fail(err)
    done = ctx.scratch.setdefault(f"attacked:{section}", set())
    for u in units:
        if u.id in done:
            return fail(f"{u.id} has already attacked this phase")
        if target not in gm.neighbours[u.hex]:
            return fail(f"{u.id} in {u.hex} is not next to {target}")
        if not wanted(u):
            return fail(f"{u.id} cannot attack in a {'sea' if arena == 'sea' else 'land'} battle"
                        + (" (a Fleet needs Rowers aboard; a Transport only with an Army aboard)" if arena == "sea"
                           else " (only Armies and Rowers not aboard a ship)"))
    targets = _stack_targets(state, units)
    for e in effects_in_force(state, "cannot_attack", me):
        if e.target in targets:
            name = ctx.tables.cards[e.source].name if e.source in ctx.tables.cards else e.source
            return fail(f"{name}: the stack in {e.target} may not attack this turn")
    city: str | None = None
    if arena == "sea":
        if not gm.ship_may_enter(target):
            return fail(f"{target} is not a sea, harbour or beach hex")
        ships = [u for u in state.units_at(target) if u.owner is not None and hostile_to(u, me) and u.type.is_ship
                 and u.carried_by is None]
        if not ships:
            return fail(f"there are no enemy ships in {target}")
        # as on land (holds_ground): a ship that fights or carries a unit that blocks entry may be attacked; the
        # rest (unmanned Fleets, Transports without an Army or Rowers) are taken by moving in (R-UNIT-3), or
        # with the city they are docked in
        holders = [u for u in ships if holds_sea(state, u)]
        if not holders:
            return fail(f"no enemy ship in {target} fights or blocks the way (only unmanned Fleets and Transports "
                        f"without an Army or Rowers): " + unfought_ships_hint(state, gm, target, me))
        defender: str | None = holders[0].owner
        def_units = [u for u in ships if u.owner == defender]
        fighters = [unit_fighter(u, sea_die(state, u)) for u in def_units if sea_die(state, u)]
    else:
        if not land_ok(gm, target):
            return fail(f"{target} is not a land hex")
        city = foreign_city(state, gm, target, me)
        # the defenders: Armies and Rowers on land, and the ships beached or docked there (R-PH-LAND)
        land = land_defenders(state, target, me)
        holders = [u for u in land if holds_ground(state, u)]
        if city:
            defender = state.cities[city].controller
        elif holders:
            defender = holders[0].owner
        elif target in gm.city_at and state.cities[gm.city_at[target].id].controller == me:
            return fail(f"{gm.city_at[target].name} in {target} is yours now (taken earlier this turn), and no enemy "
                        f"Army or Rowers is there")
        else:
            return fail(f"there are no enemy Armies, Rowers or manned ships in {target} (move in to capture "
                        f"undefended units)")
        def_units = [u for u in land if u.owner == defender]
        terr = terrain_defence(state, gm, target)
        # beached or docked ships get no terrain and no city defence modifier (the seed: "Beached Ships do not
        # get terrain defense modifiers"); ships that do not fight have no die and share the side's fate
        fighters = [unit_fighter(u, land_defence_die(state, u), [] if u.type.is_ship else [terr] if terr else [])
                    for u in def_units if land_defence_die(state, u)]
        if city:
            mod = city_defence(state, gm, city)
            if defender is None:
                fighters.append(Fighter(f"Army of {gm.cities[city].name}", "neutral_army", target, 10, None,
                                        [(terr[0], terr[1])] if terr else []))
            fighters.append(Fighter(f"garrison of {gm.cities[city].name}", "garrison", target, 6, None,
                                    [("city defence", mod)]))
    hostile = city is not None and state.cities[city].hostile
    a_fighters = []
    for u in units:
        fixed = [("hostile city", 1)] if hostile else []
        a_fighters.append(unit_fighter(u, sea_die(state, u) if arena == "sea" else land_die(u), fixed))
    attack = Side("attack", me, a_fighters, list(units), sorted({u.hex for u in units}))
    defense = Side("defense", defender, fighters, def_units, [target])
    battle = Battle(arena, target, city, attack, defense)
    # cards named in the order: all must be in hand; battle cards must fit this battle
    hand = Counter(state.players[me].hand)
    battle_cards: list[CardUse] = []
    trigger_cards: list[CardUse] = []
    for cu in atk.cards:
        c = ctx.tables.cards.get(cu.card)
        if c is None:
            return fail(f"unknown card {cu.card}")
        if hand[cu.card] <= 0:
            return fail(f"card {c.name} is not in your hand")
        hand[cu.card] -= 1
        if any(e["kind"] in BATTLE_KINDS for e in c.effects):
            why = card_fits(ctx, battle, attack, cu.card)
            if why:
                return fail(why)
            battle_cards.append(cu)
        elif (c.timing or {}).get("trigger") in TRIGGERED:
            if (c.timing or {}).get("phase") not in ("battle", "any", section):  # Treasure: land battles only
                return fail(f"{c.name} is played in the {c.timing['phase'].replace('_', ' ')} phase only")
            trigger_cards.append(cu)
        else:
            return fail(f"{c.name} is not a battle card")
    trigger_cards += [cu for cu in ctx.my_orders.cards
                      if cu.card in ctx.tables.cards and (ctx.tables.cards[cu.card].timing or {}).get("trigger")
                      == "city_captured" and cu not in trigger_cards]
    stopped = hesitation(ctx, defender, units)
    if stopped:  # the target stack is barred (the card's effect); the attack's other stacks may attack later
        name, barred = stopped
        done.update(u.id for u in units if u.hex in barred)
        return fail(f"the attack is cancelled: {defender} played {name}")
    done.update(u.id for u in units)
    leaders_before = {"attack": side_leaders(state, attack), "defense": side_leaders(state, defense)}
    winner = fight(ctx, battle, battle_cards, section=section, index=atk.index)
    loser_side = defense if winner == "attacker" else attack
    win_side = battle.other(loser_side)
    went = casualties(ctx, battle, loser_side)
    if arena == "land":
        leaders_follow(ctx, loser_side, went)
    if win_side is attack:
        battle_lost_cards(ctx, defense, attack, trigger_cards, leaders_before["defense"])
    elif defender is not None:
        battle_lost_cards(ctx, attack, defense, list(ctx.standing(defender).reactions), leaders_before["attack"])
    note = None
    if winner == "attacker" and city is not None:
        note = take_city(ctx, battle, atk, trigger_cards)
    ctx.order_done(section, atk.index, target=target, won_by=winner,
                   city_taken=winner == "attacker" and city is not None and note is None, note=note)


# -- revolts (R-PH-DIP-REVOLT) ---------------------------------------------------------------------------

def revolt_battle(ctx: "TurnContext", city_id: str, rebels: int) -> bool:
    """``rebels`` rebel units (no owner, 1D10 each as an Army, +1 against a hostile city) attack the
    controller's units in the city as a land battle: its Armies and Rowers ashore and its ships docked there
    (``in_land_defence``; ships as at sea, no modifier).  The garrison does not defend against rebels; Armies and
    Rowers get the city's defence modifier; the controller's standing defence cards may be played.  Losing rebels
    vanish; losing defenders make casualty rolls.  Returns True if no unit of the controller holds the city
    afterwards (a combat unit: an Army or Rowers ashore, a manned Fleet, a Transport with an Army or Rowers
    aboard; Decision: leaders, baggage and empty ships do not hold a city).  No dice are rolled when no unit
    holds it."""
    state, gm = ctx.state, ctx.game_map
    h = gm.cities[city_id].hex
    controller = state.cities[city_id].controller

    def holds() -> bool:
        return controller is not None and any(u.owner == controller and is_combat_unit(state, u)
                                              for u in state.units_at(h))

    if not holds():
        ctx.emit(Ev.BATTLE, battle="revolt", attacker=None, defender=controller, target=h, city=city_id,
                 attackers=[], defenders=[], attack_total=0, defence_total=0, winner=None, won_by="attacker",
                 tie=False, rebels=rebels,
                 attack={"player": None, "units": [], "bonuses": [], "total": 0, "hexes": [h]},
                 defence={"player": controller, "units": [], "bonuses": [], "total": 0, "hexes": [h]},
                 cards=[], note="no unit of the controller holds the city")
        return True
    defenders = [u for u in state.units_at(h) if u.owner == controller and in_land_defence(u)]
    terr = terrain_defence(state, gm, h)
    hostile = [("hostile city", 1)] if state.cities[city_id].hostile else []  # rebels attack as in R-BAT-1
    attack = Side("attack", None, [Fighter(f"rebel {i}", "rebel", h, 10, None, list(hostile))
                                   for i in range(1, rebels + 1)], [], [h])
    defense = Side("defense", controller,
                   [unit_fighter(u, land_defence_die(state, u), [] if u.type.is_ship else [terr] if terr else [])
                    for u in defenders if land_defence_die(state, u)], defenders, [h])
    battle = Battle("revolt", h, city_id, attack, defense)
    winner = fight(ctx, battle, [], rebels=rebels)
    if winner == "attacker":
        went = casualties(ctx, battle, defense)
        leaders_follow(ctx, defense, went)
    return not holds()
