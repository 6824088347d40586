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

import re
from dataclasses import dataclass, field
from typing import Any

PHASE_KEYS = ("discard", "upkeep", "recruit", "diplomacy", "cards", "first_move", "sea_battle", "land_battle",
              "second_move", "standing")

# -- ids in any case ---------------------------------------------------------------------------------------
# A player may write a city, card or unit type in any case (Chalcis, Forced_March, Army) and a unit id in any
# case (ath-a1): each is read as the id it names (chalcis, forced_march, army, ATH-A1).  ``normal_case`` does
# it on the file's data before anything else reads it, for the order checker (``pbem.orders.build``) and the
# adjudicator (``Orders.from_dict``) alike.  Only a value that becomes a well-formed id is changed; any other
# is left as written, for the checker to name.  A card target that reads as a unit id is upper-cased (spa-l1 ->
# SPA-L1); any other target is left as written: the adjudicator reads a city, player or leader name there in any
# case already (``pbem.cards.resolve_target``).  The header's player is the sender's identity and is left as
# written too.

_LOWER_ID = re.compile(r"[a-z][a-z0-9_]*")
_UNIT_ID = re.compile(r"[A-Z]{2,4}-[A-Z][0-9]+")


def _lower(v: Any) -> Any:
    """A city, card, unit type or choice id in any case -> the id."""
    if isinstance(v, str) and v != v.lower() and _LOWER_ID.fullmatch(v.lower()):
        return v.lower()
    return v


def _upper(v: Any) -> Any:
    """A unit id in any case -> the id (a hex id is left as it is)."""
    if isinstance(v, str) and v != v.upper() and _UNIT_ID.fullmatch(v.upper()):
        return v.upper()
    return v


def _each(items: Any, fix) -> Any:
    return [fix(x) for x in items] if isinstance(items, list) else items


def _entry(d: Any, fixes: dict[str, Any]) -> Any:
    """A {key: value} entry with ``fixes[key]`` applied to its values; anything else as it is."""
    if not isinstance(d, dict):
        return d
    return {k: fixes[k](v) if k in fixes else v for k, v in d.items()}


def _card_use(c: Any) -> Any:
    return _lower(c) if isinstance(c, str) else _entry(c, {"card": _lower, "target": _upper})


def _units(items: Any) -> Any:
    return _each(items, _upper)


_MOVE = {"units": _units, "load": _units, "unload": _units, "cards": lambda cs: _each(cs, _card_use)}
_ATTACK = {"units": _units, "cards": lambda cs: _each(cs, _card_use)}
_STANDING = {
    "defence_cards": lambda cs: _each(cs, lambda c: _lower(c) if isinstance(c, str) else _entry(c, {"card": _lower})),
    "reactions": lambda cs: _each(cs, _card_use),
    "captured_leaders": _lower,
    "discard": lambda cs: _each(cs, _lower),
    "upkeep": _units,
}
_SECTIONS = {
    "discard": lambda cs: _each(cs, _lower),
    "upkeep": _units,
    "recruit": lambda rs: _each(rs, lambda r: _entry(r, {"city": _lower, "unit": _lower})),
    "diplomacy": lambda ts: _each(ts, lambda t: _lower(t) if isinstance(t, str) else _entry(t, {"target": _lower})),
    "cards": lambda cs: _each(cs, _card_use),
    "first_move": lambda ms: _each(ms, lambda m: _entry(m, _MOVE)),
    "second_move": lambda ms: _each(ms, lambda m: _entry(m, _MOVE)),
    "sea_battle": lambda bs: _each(bs, lambda b: _entry(b, _ATTACK)),
    "land_battle": lambda bs: _each(bs, lambda b: _entry(b, _ATTACK)),
    "standing": lambda st: _entry(st, _STANDING),
}


def normal_case(data: Any) -> Any:
    """The order file's data with its ids in the case they are written in the game (see above); a new value,
    ``data`` is not changed.  Data that is not a mapping is returned as it is."""
    return _entry(data, _SECTIONS)


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
        retreat = {k: tuple(v) if isinstance(v, list) else (v,) for k, v in d.get("retreat", {}).items()
                   if v != []}  # an empty list: no preference for that hex, as if it were not given
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
        d = normal_case(d)
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
