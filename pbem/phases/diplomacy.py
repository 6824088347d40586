"""Diplomacy phase (R-PH-DIP, R-PH-DIP-REVOLT; cards: R-TURN-4, R-STAND-1).

Steps:
1. The own-turn cards of ``orders.cards`` (timing phase ``diplomacy`` or ``any``) are played, in the order
   listed (``pbem.cards``): extra rolls, "one less" rolls against opponents, control of neutral cities,
   revolts, gold, and so on.
2. The number of rolls: 1, plus the ``diplomacy_rolls`` effects of the player's traits (home city and
   controlled minor cities) and of their leaders in play, plus the cards played in step 1, plus the
   ``diplomacy_rolls`` effects in ``state.effects`` aimed at the player (the "one less" cards played against
   them since their last Diplomacy phase; negative values), which are used up now.  Never below 0.
3. One roll per target of ``orders.diplomacy``, in order.  A target that is not a hostile city of the
   player, a neutral minor city or a minor city another player controls is reported failed and uses no
   roll; targets beyond the rolls fail; rolls without a target are not made.  1D6, +1 if the city is
   hostile; 6+: a hostile city loses its hostility, a neutral city comes under control, an enemy-controlled
   city revolts.

Revolt (also from Revolt-type cards): the controller's Executions-type card (any card with a
``negate_revolt`` effect) in hand is played if their standing order ``executions`` is on (the default) and
the revolt does not happen.  Else 1D3 rebels attack the controller's units in the city as a land battle
(``pbem.battle.revolt_battle``); the city becomes neutral when no unit of its controller holds it
afterwards (``revolt_battle``'s ``holds``: an Army or Rowers ashore, a manned Fleet, a Transport with an Army or
Rowers aboard).  A city none of these holds goes neutral without a battle, and ``clear_neutral_city`` sends
the former controller's leaders there to his nearest city and lets the rebels seize his Baggage and empty or
unmanned ships (docs/rules.md, R-PH-DIP-REVOLT).
"""
from __future__ import annotations

from .. import cards
from ..effects import player_effects, total_value
from ..events import Ev


def resolve(ctx) -> None:
    cards.play_own_turn_cards(ctx)
    rolls, how = count_rolls(ctx)
    used = 0
    for i, raw in enumerate(ctx.my_orders.diplomacy):
        cid, kind, reason = classify_target(ctx, raw)
        if reason is None and used >= rolls:
            reason = f"no diplomacy roll left ({rolls} this turn: {how})"
        if reason is not None:
            ctx.order_failed("diplomacy", i, reason, city=raw)
            continue
        used += 1
        city = ctx.state.cities[cid]
        mods = [{"source": "hostile city", "value": 1}] if city.hostile else []  # R-PH-DIP: the only modifier
        roll = ctx.dice.d6("diplomacy roll", city=cid)
        total = roll + sum(m["value"] for m in mods)
        success = total >= 6
        ctx.emit(Ev.DIPLOMACY_ROLL, city=cid, target=kind, roll=roll, modifier=total - roll, modifiers=mods,
                 total=total, success=success, n=used, of=rolls)
        if success:
            if kind == "hostile":
                city.hostile = False
                ctx.emit(Ev.HOSTILITY_REMOVED, city=cid)
            elif kind == "neutral":
                gain_control(ctx, cid, "diplomacy")
            else:
                revolt(ctx, cid, "diplomacy")
        ctx.order_done("diplomacy", i, city=cid, success=success)


def count_rolls(ctx) -> tuple[int, str]:
    """The player's rolls this Diplomacy phase, and how they add up in words ("1 free, +2 from traits and leaders,
    +1 from cards you played, -1 from cards played against you"), for the report of an order beyond them."""
    state, me = ctx.state, ctx.player
    held = total_value(player_effects(state, ctx.tables, me, "diplomacy_rolls"))
    played = ctx.scratch.get("diplomacy_rolls", 0)
    against = 0
    for e in [e for e in state.effects if e.kind == "diplomacy_rolls" and e.target == me]:
        against += e.value
        cards.end_effect(ctx, e, "used at this Diplomacy phase")
    parts = ["1 free"] + [f"{n:+d} from {what}" for n, what in ((held, "traits and leaders"),
                                                       (played, "cards you played"),
                                                       (against, "cards played against you")) if n]
    total = 1 + held + played + against
    return max(0, total), ", ".join(parts) + (" (never below 0)" if total < 0 else "")


def classify_target(ctx, raw: str) -> tuple[str | None, str | None, str | None]:
    """(city id, 'hostile' | 'neutral' | 'enemy', None) or (None, None, why it is no target)."""
    c = ctx.game_map.find_city(raw)
    if c is None:
        return None, None, f"{raw} is not a city"
    city = ctx.state.cities[c.id]
    if city.home_of is not None:
        return None, None, f"{c.name} is a home city; a home city is never a diplomacy target"
    if city.controller == ctx.player:
        if city.hostile:
            return c.id, "hostile", None
        return None, None, f"you control {c.name} and it is not hostile"
    if city.controller is None:
        return c.id, "neutral", None
    return c.id, "enemy", None


def gain_control(ctx, cid: str, cause: str) -> None:
    city = ctx.state.cities[cid]
    city.controller = ctx.player
    city.hostile = False
    ctx.emit(Ev.CONTROL, city=cid, cause=cause)


def revolt(ctx, cid: str, cause: str) -> None:
    """R-PH-DIP-REVOLT in a city another player controls."""
    state = ctx.state
    city = state.cities[cid]
    controller = city.controller
    if ctx.standing(controller).executions:
        hand = state.players[controller].hand
        negate = next((c for c in hand if any(e["kind"] == "negate_revolt" for e in ctx.tables.cards[c].effects)),
                      None)
        if negate is not None:
            cards.discard_from_hand(state, controller, negate)
            ctx.emit(Ev.CARD_PLAYED, card=negate, target=cid, by=controller)
            ctx.emit(Ev.REVOLT, city=cid, controller=controller, cause=cause, negated=True, rebels=0)
            return
    rebels = ctx.dice.d3("rebels", city=cid)
    ctx.emit(Ev.REVOLT, city=cid, controller=controller, cause=cause, negated=False, rebels=rebels)
    h = ctx.game_map.cities[cid].hex
    from ..battle import revolt_battle  # the land battle of R-BAT-1, R-BAT-3
    # R-PH-DIP-REVOLT: "holds no units of its controller": Decision, the units that hold a city are its combat
    # units (Armies and Rowers ashore, manned Fleets, Transports with an Army or Rowers); the rebels fight them
    # (with no unit of the controller in the city at all there is no battle to tell of)
    if not any(u.owner == controller for u in state.units_at(h)) or revolt_battle(ctx, cid, rebels):
        city.controller = None
        city.hostile = False
        ctx.emit(Ev.NEUTRALISED, city=cid, was=controller)
        clear_neutral_city(ctx, h, controller)


def clear_neutral_city(ctx, h: str, former: str) -> None:
    """What the former controller leaves in a city gone neutral: leaders go to their nearest city (none: they
    are lost); Baggage and empty ships are seized by the rebels.  A neutral city holds no player's units."""
    from ..model import UnitType
    from ..movement import destroy_unit, leader_home
    state = ctx.state
    # leaders first, those aboard a ship the rebels seize too: they step ashore and go home like the others
    for u in [u for u in state.units_at(h) if u.owner == former and u.type is UnitType.LEADER]:
        to = leader_home(state, ctx.game_map, former, h)
        if to is not None:
            u.carried_by = None
            state.place(u, to)
            ctx.emit(Ev.LEADER_RETURNS, unit=u.id, who=former, hex=to, cause="revolt")
    for u in [u for u in state.units_at(h) if u.owner == former and u.carried_by is None]:
        if u.id not in state.units:
            continue
        gone = destroy_unit(ctx, u, "revolt")
        ctx.emit(Ev.CAPTURED, units=gone, who=former, by=None, hex=h, cause="seized by the rebels")
