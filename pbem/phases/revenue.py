"""Revenue phase (R-PH-REV; Silver Mines: R-SET-4).

Steps:
1. One-time gold: each trait the player holds (home city traits and those of controlled minor cities) with a
   ``gold`` effect triggered ``acquired`` (Silver Mines, 3D10) pays once, at the first Revenue phase in which
   the player holds it; its id goes into ``player.used_once`` so it never pays again.
2. Each city the player controls, home city first, then the others by id, gives its income:
   its base income (``city.income``: 7 for a home city, the fixed minor income otherwise), plus, for the
   player's own home city, the ``income`` effects of their traits and leaders (Slavery, Trade, Economics...).
   Nothing from a razed city, a city under siege (``board.under_siege``), or a city named by an active
   ``income_block`` effect (Economic Blockade, Raids).  A hostile minor city gives half, rounded up; a home
   city never does, even hostile in its captor's hands ("Hostile minor cities give half", R-PH-REV).
3. The ``income_block`` effects that end with this player's Revenue phase are used up.
4. Each razed city the player controls removes one razed counter.
"""
from __future__ import annotations

from .. import cards
from ..board import under_siege
from ..effects import player_effects, total_value
from ..events import Ev


def pays(full: int, hostile: bool, home_city: bool) -> int:
    """What a city that is not razed, besieged or blocked pays (R-PH-REV): ``full`` (its income, and a home city's
    bonuses), halved rounded up for a hostile *minor* city; a home city pays in full, hostile or not.  The order
    checker and the computer player count income with it too."""
    return (full + 1) // 2 if hostile and not home_city else full


def resolve(ctx) -> None:
    state, me = ctx.state, ctx.me
    one_time_gold(ctx)
    now = cards.when(state, state.turn, ctx.player)
    blocks = [e for e in state.effects if e.kind == "income_block"
              and (not e.until_turn or now <= cards.when(state, e.until_turn, e.until_player))]
    mine = sorted(state.controlled_cities(ctx.player), key=lambda c: (c != me.home, c))
    for cid in mine:
        city = state.cities[cid]
        reason = why_no_income(ctx, cid, blocks)
        if reason:
            ctx.emit(Ev.NO_INCOME, city=cid, reason=reason)
            continue
        bonus = total_value(player_effects(state, ctx.tables, ctx.player, "income")) if cid == me.home else 0
        full = city.income + bonus
        amount = pays(full, city.hostile, city.home_of is not None)
        halved = city.hostile and city.home_of is None  # the record says the halving applied (1 gold stays 1)
        me.gold += amount
        ctx.emit(Ev.INCOME, city=cid, amount=amount, base=city.income, bonus=bonus, hostile=halved, gold=me.gold)
    for e in blocks:
        if e.until_turn and e.until_player == ctx.player and cards.when(state, e.until_turn, e.until_player) <= now:
            cards.end_effect(ctx, e, "used at this Revenue phase")
    for cid in sorted(mine):
        city = state.cities[cid]
        if city.razed:
            city.razed -= 1
            ctx.emit(Ev.RAZED_REMOVED, city=cid, left=city.razed)


def why_no_income(ctx, cid: str, blocks) -> str | None:
    if ctx.state.cities[cid].razed:
        return "it is razed"
    if under_siege(ctx.state, ctx.game_map, cid):
        return "it is under siege"
    for e in blocks:
        if e.target == cid:
            card = ctx.tables.cards.get(e.source)
            return f"{card.name if card else e.source} blocks its income"
    return None


def one_time_gold(ctx) -> None:
    me = ctx.me
    for src, e in player_effects(ctx.state, ctx.tables, ctx.player, "gold"):
        if e.get("trigger") != "acquired" or src.id in me.used_once:
            continue
        n = cards.roll_spec(ctx, e["dice"], f"{src.name}: one-time gold", player=ctx.player)
        me.gold += n
        me.used_once.append(src.id)
        ctx.emit(Ev.GOLD, who=ctx.player, amount=n, rolled=n, source=src.id, gold=me.gold)
