"""Typed orders: what one player's order file for one game turn asks (R-TURN-1, R-STAND-1).

The order file (YAML, schema in ``schemas/orders.schema.json``) is parsed and schema-checked by
``pbem.orders``; ``Orders.from_dict`` then builds these values from the checked data.  The adjudicator reads
only these types.  Keys of the file are the phase names::

    campaign, turn, player, secret            header
    discard: [card, ...]                       Draw: cards to discard first if over the hand limit
    upkeep: [unit, ...]                        Upkeep: payment priority (default: by id)
    recruit: [{city, unit?, baggage?}]         Recruit
    diplomacy: [city, ...]                     Diplomacy: one target per roll, in order
    cards: [{card, target?}]                   cards played in the own turn outside battles
    first_move / second_move: [{units, path, load?, unload?, partial?}]
    sea_battle / land_battle: [{units, target, cards?, plunder?, destroy?}]
    standing: {...}                            standing orders, kept until replaced (R-STAND-1)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PHASE_KEYS = ("discard", "upkeep", "recruit", "diplomacy", "cards", "first_move", "sea_battle", "land_battle",
              "second_move", "standing")


@dataclass(frozen=True)
class CardUse:
    card: str
    target: str | None = None  # hex, unit, city or player id, by the card's target kind
    if_needed: bool = False  # R-BAT-5

    @classmethod
    def from_dict(cls, d: Any) -> "CardUse":
        if isinstance(d, str):
            return cls(d)
        return cls(d["card"], d.get("target"), bool(d.get("if_needed", False)))


@dataclass(frozen=True)
class Recruit:
    city: str
    unit: str | None = None  # army | rowers | fleet | transport
    baggage: int = 0
    index: int = 0  # position in the file, for reports

    @classmethod
    def from_dict(cls, d: dict, index: int = 0) -> "Recruit":
        return cls(d["city"], d.get("unit"), int(d.get("baggage", 0)), index)


@dataclass(frozen=True)
class Move:
    units: tuple[str, ...]
    path: tuple[str, ...]  # hexes entered, in order (the start hex is where the units are)
    load: tuple[str, ...] = ()  # units in the start hex that board the moving ships first
    unload: tuple[str, ...] = ()  # cargo that leaves the ships in the last hex
    partial: bool = False  # R-TURN-4: go as far as possible if the path is blocked
    cards: tuple[CardUse, ...] = ()  # movement cards (Forced March, Marathon, Relieving Force)
    index: int = 0

    @classmethod
    def from_dict(cls, d: dict, index: int = 0) -> "Move":
        return cls(tuple(d["units"]), tuple(d.get("path", ())), tuple(d.get("load", ())), tuple(d.get("unload", ())),
                   bool(d.get("partial", False)), tuple(CardUse.from_dict(c) for c in d.get("cards", ())), index)


@dataclass(frozen=True)
class Attack:
    units: tuple[str, ...]  # attackers, from one or more hexes adjacent to the target
    target: str  # hex attacked
    cards: tuple[CardUse, ...] = ()
    plunder: bool = False  # R-BAT-4
    destroy: bool = False
    index: int = 0

    @classmethod
    def from_dict(cls, d: dict, index: int = 0) -> "Attack":
        return cls(tuple(d["units"]), d["target"], tuple(CardUse.from_dict(c) for c in d.get("cards", ())),
                   bool(d.get("plunder", False)), bool(d.get("destroy", False)), index)


@dataclass(frozen=True)
class DefenceCard:
    card: str
    hex: str | None = None  # None: anywhere
    if_needed: bool = True

    @classmethod
    def from_dict(cls, d: Any) -> "DefenceCard":
        if isinstance(d, str):
            return cls(d)
        return cls(d["card"], d.get("hex"), bool(d.get("if_needed", True)))


@dataclass(frozen=True)
class Standing:
    """R-STAND-1: acts in other players' turns; persists until a later file replaces it."""

    defence_cards: tuple[DefenceCard, ...] = ()
    executions: bool = True  # play Executions against a revolt in a city I control, if I hold it
    reactions: tuple[CardUse, ...] = ()  # other cards for other players' turns (Hesitation, ...)
    retreat: dict[str, tuple[str, ...]] = field(default_factory=dict)  # from hex -> preferred hexes
    captured_leaders: str = "ransom"  # ransom | execute
    discard: tuple[str, ...] = ()  # cards to discard first
    upkeep: tuple[str, ...] = ()  # payment priority

    @classmethod
    def from_dict(cls, d: dict | None) -> "Standing":
        d = d or {}
        retreat = {k: tuple(v) if isinstance(v, list) else (v,) for k, v in d.get("retreat", {}).items()}
        return cls(tuple(DefenceCard.from_dict(c) for c in d.get("defence_cards", ())),
                   bool(d.get("executions", True)),
                   tuple(CardUse.from_dict(c) for c in d.get("reactions", ())),
                   retreat, d.get("captured_leaders", "ransom"), tuple(d.get("discard", ())),
                   tuple(d.get("upkeep", ())))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.defence_cards:
            out["defence_cards"] = [{"card": c.card, **({"hex": c.hex} if c.hex else {}), "if_needed": c.if_needed}
                                    for c in self.defence_cards]
        if not self.executions:
            out["executions"] = False
        if self.reactions:
            out["reactions"] = [{"card": c.card, **({"target": c.target} if c.target else {})}
                                for c in self.reactions]
        if self.retreat:
            out["retreat"] = {k: list(v) for k, v in self.retreat.items()}
        if self.captured_leaders != "ransom":
            out["captured_leaders"] = self.captured_leaders
        if self.discard:
            out["discard"] = list(self.discard)
        if self.upkeep:
            out["upkeep"] = list(self.upkeep)
        return out


@dataclass(frozen=True)
class Orders:
    campaign: str
    turn: int
    player: str
    discard: tuple[str, ...] = ()
    upkeep: tuple[str, ...] = ()
    recruit: tuple[Recruit, ...] = ()
    diplomacy: tuple[str, ...] = ()
    cards: tuple[CardUse, ...] = ()
    first_move: tuple[Move, ...] = ()
    sea_battle: tuple[Attack, ...] = ()
    land_battle: tuple[Attack, ...] = ()
    second_move: tuple[Move, ...] = ()
    standing: Standing | None = None  # None: keep the standing orders in force

    @classmethod
    def from_dict(cls, d: dict) -> "Orders":
        return cls(
            campaign=d["campaign"], turn=int(d["turn"]), player=d["player"],
            discard=tuple(d.get("discard", ())), upkeep=tuple(d.get("upkeep", ())),
            recruit=tuple(Recruit.from_dict(r, i) for i, r in enumerate(d.get("recruit", ()))),
            diplomacy=tuple(t if isinstance(t, str) else t["target"] for t in d.get("diplomacy", ())),
            cards=tuple(CardUse.from_dict(c) for c in d.get("cards", ())),
            first_move=tuple(Move.from_dict(m, i) for i, m in enumerate(d.get("first_move", ()))),
            sea_battle=tuple(Attack.from_dict(a, i) for i, a in enumerate(d.get("sea_battle", ()))),
            land_battle=tuple(Attack.from_dict(a, i) for i, a in enumerate(d.get("land_battle", ()))),
            second_move=tuple(Move.from_dict(m, i) for i, m in enumerate(d.get("second_move", ()))),
            standing=Standing.from_dict(d["standing"]) if "standing" in d else None,
        )

    @classmethod
    def empty(cls, campaign: str, turn: int, player: str) -> "Orders":
        """What an NMR player does: nothing but the automatic phases (R-TURN-5)."""
        return cls(campaign, turn, player)
