"""Scenario builders shared by the one-row-per-card/skill/trait tests (test_every_card.py, test_every_skill.py,
test_every_trait.py), on the tiny map with scripted dice.

- ``fight``: one battle of the Sea or Land Battle phase, Athens attacking Sparta, in one of the situations
  below, with cards named in the attack, standing defence cards, leaders' skills and traits;
- ``turns``: whole game turns in batch (R-TURN-3), the orders of each player per game turn, scripted dice;
- small readers of the event log.

Situations (attacker hex -> defender hex): ``land`` 0402 -> 0503 (both Clear); ``city`` 0405 -> Megara 0506, a
Spartan minor city (City +5, garrison 1D6+5); ``home`` 0404 -> Sparta 0505 (home city +8, garrison 1D6+8);
``sea`` 0401 -> 0501 (Water).  Dice of a battle, in order: the attackers' rolls, the defenders' rolls, the
garrison, leaders' battle-total dice, cards as they are played, then the loser's casualty rolls.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from pbem.dice import ScriptedDice
from pbem.model import GameState, Unit

from scenario import TABLES, add, events, give, make_state, orders, run_phase, run_turn

SITUATIONS = {
    "land": ("0402", "0503", "land_battle"),
    "city": ("0405", "0506", "land_battle"),
    "home": ("0404", "0505", "land_battle"),
    "sea": ("0401", "0501", "sea_battle"),
}


def name(card_or_skill_or_trait: str) -> str:
    for table in (TABLES.cards, TABLES.skills, TABLES.traits):
        if card_or_skill_or_trait in table:
            return table[card_or_skill_or_trait].name
    raise KeyError(card_or_skill_or_trait)


def card_label(card: str) -> str:
    """How a card's modifier or bonus is labelled in the battle event."""
    return f"{TABLES.cards[card].name} (card)"


def put(s: GameState, owner: str, kind: str, h: str, skills: Iterable[str] = ()) -> Unit:
    """One fighting unit: ``army``; ``rowers`` (on land); ``fleet`` (manned: Rowers aboard); ``transport`` (an Army
    aboard); ``leader`` with ``skills``."""
    if kind == "fleet":
        f = add(s, owner, "fleet", h)
        add(s, owner, "rowers", h, carried_by=f.id)
        return f
    if kind == "transport":
        t = add(s, owner, "transport", h)
        add(s, owner, "army", h, carried_by=t.id)
        return t
    if kind == "leader":
        return add(s, owner, "leader", h, skills=list(skills))
    return add(s, owner, kind, h)


def hold_trait(s: GameState, player: str, trait: str, via: str = "home") -> None:
    """``player`` holds ``trait``: as a trait of their home city (``via="home"``), or as the trait of a minor
    city they control (``via="minor"``: Delos, R-SET-4)."""
    if via == "home":
        s.players[player].traits = [trait]
    else:
        s.cities["delos"].controller = player
        s.cities["delos"].trait = trait


@dataclass
class Fought:
    state: GameState
    ctx: Any
    attackers: list[Unit]
    defenders: list[Unit]

    @property
    def battle(self) -> dict | None:
        found = events(self.ctx, "battle")
        return found[0] if found else None

    def side(self, role: str) -> dict:
        return self.battle["attack" if role == "att" else "defence"]

    def total(self, role: str) -> int:
        return self.battle["attack_total" if role == "att" else "defence_total"]

    def modifiers(self, role: str, source: str) -> dict[str, int]:
        """unit type (or fighter kind) -> the value of ``source``'s modifier on its roll (0: none)."""
        out = {}
        for row in self.side(role)["units"]:
            out[row["type"]] = sum(m["value"] for m in row["modifiers"] if m["source"] == source)
        return out

    def bonuses(self, role: str, source: str) -> list[dict]:
        return [b for b in self.side(role)["bonuses"] if b["source"] == source]

    def failed(self) -> list[str]:
        return [f["reason"] for f in events(self.ctx, "order_failed")]

    def casualties(self) -> list[dict]:
        return events(self.ctx, "casualty")


def fight(where: str = "land", dice: Iterable[int] = (), attack_cards: Iterable[Any] = (),
          defence_cards: Iterable[Any] = (), attackers: Iterable[str] | None = None,
          defenders: Iterable[str] | None = None, att_skills: Iterable[str] = (), def_skills: Iterable[str] = (),
          prepare: Callable[[GameState], None] | None = None, reactions: Iterable[Any] = ()) -> Fought:
    """Athens attacks Sparta's stack in situation ``where`` with one order naming all its units.

    ``attack_cards``: the attack's ``cards`` (ids or ``{card, if_needed}``); ``defence_cards``: Sparta's standing
    ``defence_cards``; ``reactions``: Sparta's standing ``reactions``; every card named is put in its player's
    hand.  ``attackers``/``defenders``: the kinds of units of each side (default one Army, at sea one Fleet).
    ``att_skills``/``def_skills``: a leader with these skills in the side's hex."""
    s = make_state()
    one = ("fleet",) if where == "sea" else ("army",)
    attackers, defenders = attackers or one, defenders or one
    s.cities["megara"].controller = "sparta"
    att_hex, def_hex, phase = SITUATIONS[where]
    a_units = [put(s, "athens", k, att_hex) for k in attackers]
    d_units = [put(s, "sparta", k, def_hex) for k in defenders]
    if att_skills:
        ldr = add(s, "athens", "leader", att_hex, skills=list(att_skills))
        if where == "sea":
            ldr.carried_by = a_units[0].id
    if def_skills:
        ldr = add(s, "sparta", "leader", def_hex, skills=list(def_skills))
        if where == "sea":
            ldr.carried_by = d_units[0].id

    def card_id(c: Any) -> str:
        return c if isinstance(c, str) else c["card"]

    give(s, "athens", *[card_id(c) for c in attack_cards])
    give(s, "sparta", *[card_id(c) for c in list(defence_cards) + list(reactions)])
    s.players["sparta"].standing = {"defence_cards": list(defence_cards), "reactions": list(reactions)}
    if prepare is not None:
        prepare(s)
    o = orders("athens", **{phase: [{"units": [u.id for u in a_units], "target": def_hex,
                                     "cards": list(attack_cards)}]})
    ctx = run_phase(phase, s, "athens", dice=list(dice), orders=o)
    return Fought(s, ctx, a_units, d_units)


# -- whole game turns in batch ------------------------------------------------------------------------

def turns(s: GameState, per_turn: list[dict[str, dict | None]], dice: Iterable[int]) -> list:
    """Run one game turn per entry of ``per_turn`` ({player: order sections, or None for no orders}), in batch,
    with one stream of scripted dice; returns the event logs.  Every scripted die must be used."""
    d = ScriptedDice(dice)
    logs = []
    for sections in per_turn:
        o = {p: (None if sec is None else orders(p, turn=s.turn, **sec)) for p, sec in sections.items()}
        logs.append(run_turn(s, o, d))
    assert d.remaining == 0, f"{d.remaining} scripted dice were not used"
    return logs


def of(log, kind: str, player: str | None = None) -> list[dict]:
    """Events of one kind in a turn's log, optionally only those of one player's player-turn."""
    return [r for r in log.records if r.get("event") == kind and (player is None or r["player"] == player)]
