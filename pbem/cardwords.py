"""What a card, leader skill or city trait does, as the code applies it, in one wording: the "effect, as
implemented" column of docs/rules.md's tables (docs/gen_tables.py) and the "effect:" line under each card of a
report's HAND (a new player's review: Disaffected's printed "one less Diplomacy roll this turn" while pbem
applies it at the target's next Diplomacy phase).  Read from the effects in ``pbem/data/tables/*.yaml`` (the
effect kinds of the header of cards.yaml)."""
from __future__ import annotations

from typing import Any

UNITS = {"all": "unit", "army": "Army", "land": "Army and Rowers", "fleet": "Fleet", "ships": "Fleet and Transport"}
UNITS_PL = {"all": "units", "army": "Armies", "land": "Armies and Rowers", "fleet": "Fleets",
            "ships": "Fleets and Transports"}
ROLLS = {"battle": "attack and defence roll", "attack": "attack roll", "defense": "defence roll",
         "casualty": "casualty roll", "upkeep": "upkeep roll", "navigation": "navigation roll"}
TOTALS = {"battle": "battle total (attacking or defending)", "attack": "attack total", "defense": "defence total"}


def signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def effect_text(e: dict[str, Any], source: str) -> str:
    """One effect, as the code applies it (``source``: card, skill or trait)."""
    k = e["kind"]
    if k == "battle_total":
        whose = "your" if e["side"] == "own" else "the opponent's"
        text = f"{'+' if e['sign'] > 0 else '−'}{e['dice']} to {whose} {TOTALS[e['total']]}"
        if e["battle"] != "any":
            text += f", {e['battle']} battles only"
        if e["vs"] == "city":
            text += {"attack": ", only attacking a city", "defense": ", only defending a city",
                     "battle": ", only in a battle for a city (attacking or defending it)"}[e["total"]]
        elif e["vs"] == "ships":
            text += ", only against ships (in a sea battle, or in a land battle where beached or docked ships defend)"
        return text + (", once per battle, when the leader is in one of the battle's hexes" if e["scope"] == "stack"
                       else ", once, in the battle it is played in")
    if k == "roll_modifier":
        units = UNITS_PL[e["units"]]
        if e["side"] == "opponent":
            whose = {"battle": f"each of the opponent's {units} in the battle",
                     "all": f"each {UNITS[e['units']]} fighting the player, in every battle"}[e["scope"]]
        else:
            whose = {"battle": f"each of your {units} in the battle",
                     "stack": f"each {UNITS[e['units']]} in the leader's hex",
                     "all": f"each {UNITS[e['units']]} of the player"}[e["scope"]]
        text = f"{signed(e['value'])} to the {ROLLS[e['roll']]} of {whose}"
        if e["vs"] == "city":
            text += ", in a battle for a city"
        if e["where"] == "home_city":
            text += ", defending the player's home city"
        return text
    if k == "diplomacy_rolls":
        return {"permanent": f"{signed(e['value'])} diplomacy roll in each of the player's Diplomacy phases"
                             + (" while the leader is in play" if source == "skill" else ""),
                "this_turn": f"{signed(e['value'])} diplomacy roll in this player-turn's Diplomacy phase",
                "next_diplomacy": f"{signed(e['value'])} diplomacy roll at the target player's next Diplomacy phase "
                                  "(a lasting effect until that phase uses it)"}[e["duration"]]
    if k == "gold":
        if e["trigger"] == "acquired":
            return f"{e['dice']} gold once, at the first Revenue phase in which the player holds it"
        if e["trigger"] == "city_captured":
            return f"{e['dice']} gold when a land attack of this player-turn captures a city (the first capture)"
        if e["side"] == "opponent":
            return f"the target player loses {e['dice']} gold (at most what they have)"
        return f"{'+' if e['sign'] > 0 else '−'}{e['dice']} gold"
    if k == "income":
        return f"{signed(e['value'])} to the income of the player's own home city" + (
            " while the leader is in play" if source == "skill" else "")
    if k == "movement":
        whose = {"stack": "of the stack it is played for" if source == "card" else "moving with the leader",
                 "all": "of the player"}[e["scope"]]
        text = f"{signed(e['value'])} movement points for each {UNITS[e['units']]} {whose}"
        if e["condition"] == "aid_of_city":
            text += ", if the stack ends its move in or next to a friendly city under siege"
        return text + {"this_move": ", for the one move it is played for",
                       "this_turn": ", for the move it is played for and, played in the First Move, the same units'"
                                    " Second Move of that player-turn"}.get(e["duration"], ", in each move phase")
    if k == "hand_size":
        return f"{signed(e['value'])} to the hand limit of 7 while the leader is in play"
    if k == "victory_cities":
        return f"counts as {e['value']} city in the standings (R-WIN-1) while the leader is in play"
    if k == "extra_recruit":
        return (f"the city nearest the leader that may recruit (not razed, hostile or under siege; ties by city "
                f"id) may recruit {e['value']} more unit each turn")
    return {
        "control_city": "the player controls the target city (not hostile)",
        "revolt": "the target city revolts (R-PH-DIP-REVOLT: 1D3 rebels attack the units there)",
        "negate_revolt": "the revolt in the player's city does not happen (played from the hand by standing "
                         "`executions: true`, the default)",
        "income_block": "the target city gives no income until its controller's next Revenue phase is over "
                        "(a lasting effect)",
        "cannot_attack": "the attack being declared is cancelled, and the target stack may not attack again "
                         "this player-turn (the other stacks of a combined attack may)",
        "cannot_move_or_attack": "the target player's units may not move or attack in their next player-turn "
                                 "(a lasting effect)",
        "look_at_hand": "the player sees the target player's hand (in their own report only)",
        "navigation_roll": "every ship in the target hex makes the navigation roll (1D6 + modifiers; 5-6 sinks "
                           "it with all aboard)",
        "starvation_counter": "a starvation counter on every Army and Rowers in the target city",
        "truce": "no one may attack until the end of the player's next player-turn (a lasting effect)",
    }.get(k) or _dice_effect(e)


def _dice_effect(e: dict[str, Any]) -> str:
    k = e["kind"]
    if k == "draw_cards":
        return f"draw {e['dice']} cards (the hand may stay over its limit until the next Draw phase)"
    if k == "leader_removed":
        if e["condition"] == "lost_battle":
            return "the target leader, of the side that lost the battle, is removed for good"
        if e["turns"]:
            return (f"the target leader leaves play for {e['turns']} of its owner's player-turns, then returns "
                    "to its home city")
        return "the target leader is removed for good"
    if k == "leader_gained":
        return f"{e['value']} new leader (R-SET-3) in the player's home city"
    if k == "razed_counters":
        return (f"{e['dice']} razed counters on the target player's home city (6 at most in all), only while they "
                f"hold it (else the card fails and stays in hand)")
    if k == "upkeep_roll":
        at = f" at {signed(e['modifier'])}" if e["modifier"] else ""
        return f"every Army and Rowers in the target makes the upkeep roll{at} (R-PH-UPK)"
    if k == "remove_baggage":
        return f"{e['dice']} Baggage of the target stack are removed"
    raise ValueError(f"no text for effect kind {k!r}")


def effects_text(row: Any, source: str) -> str:
    """All the effects of a card, skill or trait (a ``gamedata`` row), "; "-joined."""
    return "; ".join(effect_text(e, source) for e in row.effects)
