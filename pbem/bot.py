"""The computer player: reads one player's fogged view (``visibility.view``) and writes an order file.

It never sees the state itself, so it cannot peek past the fog.  Its choices are seeded by the campaign,
turn and player (``Dice`` with a derived seed), so a bot game replays exactly.

Plan, each turn: keep upkeep paid and recruit Armies within the budget; play cards that gain gold, cities or
diplomacy rolls; roll diplomacy at the nearest neutral or hostile cities; march spare Armies toward the
nearest neutral or weakly held minor city and attack it when the odds favour it; bring ships home to port;
keep defence cards as standing orders.
"""
from __future__ import annotations

import hashlib
import heapq
from typing import Any

from .dice import Dice
from .gamedata import GameMap, Tables

LAND_MP = 4
GARRISON = 1  # Armies kept at home


def bot_dice(campaign: str, turn: int, player: str, salt: str = "") -> Dice:
    return Dice(hashlib.sha256(f"pbem/bot/{salt}/{campaign}/{turn}/{player}".encode()).digest())


class Bot:
    def __init__(self, view: dict[str, Any], game_map: GameMap, tables: Tables, dice: Dice):
        self.v, self.m, self.t, self.dice = view, game_map, tables, dice
        self.me = view["me"]
        self.pid = view["viewer"]
        self.units = {u["id"]: u for u in view["units"]}
        self.cities = view["cities"]
        self.home_hex = game_map.cities[self.me["home"]].hex
        self.enemy_at: dict[str, int] = {}
        for e in view["others"]:
            fighters = sum(n for t, n in e["counts"].items() if t in ("army", "rowers", "fleet", "pirate", "barbarian"))
            self.enemy_at[e["hex"]] = self.enemy_at.get(e["hex"], 0) + fighters
        self.hand = list(self.me["hand"])
        self.gold = self.me["gold"]

    # -- helpers -----------------------------------------------------------------------------------
    def mine(self, utype: str) -> list[dict]:
        return [u for u in self.units.values() if u["type"] == utype]

    def at(self, h: str) -> list[dict]:
        return [u for u in self.units.values() if u["hex"] == h and not u.get("carried_by")]

    def stack(self, h: str) -> int:
        return sum(1 for u in self.at(h) if u["type"] in ("army", "rowers", "fleet", "transport"))

    def limit(self, h: str) -> int:
        return self.m.terrain[h].stack or 0

    def foreign_city(self, h: str) -> bool:
        c = self.m.city_at.get(h)
        return c is not None and self.cities[c.id]["controller"] != self.pid

    def land_paths(self, start: str, mp: int) -> dict[str, tuple[int, list[str]]]:
        """Cheapest land paths from ``start`` within ``mp`` points, avoiding seen enemies and foreign cities."""
        best: dict[str, tuple[int, list[str]]] = {start: (0, [])}
        heap = [(0, start, [])]
        while heap:
            cost, h, path = heapq.heappop(heap)
            if best.get(h, (99, []))[0] < cost:
                continue
            for n in self.m.neighbours[h]:
                t = self.m.terrain[n]
                if not t.land or t.move_cost is None or self.enemy_at.get(n) or self.foreign_city(n):
                    continue
                c = cost + t.move_cost
                if c > mp or c >= best.get(n, (99, []))[0]:
                    continue
                best[n] = (c, path + [n])
                heapq.heappush(heap, (c, n, path + [n]))
        return best

    def effect_total(self, kind: str) -> int:
        n = 0
        for tid in self.me["traits"]:
            n += sum(e.get("value", 0) for e in self.t.traits[tid].effects if e["kind"] == kind)
        for cid, c in self.cities.items():
            if c["controller"] == self.pid and c.get("trait") and c["trait"] not in self.me["traits"]:
                n += sum(e.get("value", 0) for e in self.t.traits[c["trait"]].effects if e["kind"] == kind)
        for leader in self.mine("leader"):
            for s in leader.get("skills", []):
                n += sum(e.get("value", 0) for e in self.t.skills[s].effects if e["kind"] == kind)
        return n

    def cards_with(self, kind: str, phase: str | None = None) -> list[str]:
        out = []
        for c in self.hand:
            card = self.t.cards[c]
            if any(e["kind"] == kind for e in card.effects) and (phase is None or card.timing.get("phase") == phase) \
                    and card.timing.get("turn") in ("own", "any"):
                out.append(c)
        return out

    # -- the plan ----------------------------------------------------------------------------------
    def targets_by_distance(self) -> list[str]:
        """Neutral minor cities and own hostile cities, nearest to home first."""
        cands = []
        for cid, c in self.cities.items():
            if c["home_of"]:
                continue
            if c["controller"] is None or (c["controller"] == self.pid and c["hostile"]):
                cands.append((self.m.distance(self.home_hex, self.m.cities[cid].hex), cid))
        return [cid for _, cid in sorted(cands)]

    def orders(self) -> dict[str, Any]:
        o: dict[str, Any] = {}
        upkeep = len(self.mine("army")) + len(self.mine("rowers"))
        income = self.cities[self.me["home"]]["income"] + sum(
            c["income"] for cid, c in self.cities.items() if c["controller"] == self.pid and not c["home_of"])
        budget = self.gold + income - upkeep - 1
        # cards: gold, control of a neutral city, extra diplomacy rolls
        cards: list[Any] = []
        neutral = [cid for cid in self.targets_by_distance() if self.cities[cid]["controller"] is None]
        for c in list(self.hand):
            card = self.t.cards[c]
            kinds = {e["kind"] for e in card.effects}
            if card.timing.get("turn") not in ("own", "any") or card.timing.get("trigger", "none") != "none":
                continue
            if "control_city" in kinds and card.target == "neutral_city" and neutral:
                cards.append({"card": c, "target": neutral.pop(0)})
                self.hand.remove(c)
            elif kinds == {"gold"} and card.target == "none" and all(e["side"] == "own" for e in card.effects):
                cards.append(c)
                self.hand.remove(c)
            elif kinds == {"diplomacy_rolls"} and card.target == "none" and \
                    all(e["value"] > 0 for e in card.effects):
                cards.append(c)
                self.hand.remove(c)
        if cards:
            o["cards"] = cards
        rolls = 1 + self.effect_total("diplomacy_rolls") + sum(
            1 for c in cards if isinstance(c, str) and any(e["kind"] == "diplomacy_rolls" for e in self.t.cards[c].effects))
        taken = {c["target"] for c in cards if isinstance(c, dict)}
        dip = [cid for cid in self.targets_by_distance() if cid not in taken][:max(rolls, 0)]
        if dip:
            o["diplomacy"] = dip
        # recruit: an Army at each city that may, while the budget lasts and there is room
        recruit = []
        for cid in sorted(self.cities, key=lambda c: (c != self.me["home"], c)):
            c = self.cities[cid]
            if c["controller"] != self.pid or c["razed"] or c["hostile"]:
                continue
            h = self.m.cities[cid].hex
            if any(self.enemy_at.get(n) for n in (h, *self.m.neighbours[h])):
                continue
            if budget >= 4 and self.stack(h) < self.limit(h):
                recruit.append({"city": cid, "unit": "army"})
                budget -= 3  # cost 2, upkeep 1
        if recruit:
            o["recruit"] = recruit
        # moves and attacks: spare Armies march on the nearest neutral minor city and attack it
        moves, attacks = [], []
        used: set[str] = set()
        goals = [cid for cid in self.targets_by_distance() if self.cities[cid]["controller"] is None]
        planned: dict[str, int] = {}
        for h in sorted({u["hex"] for u in self.mine("army")}):
            armies = [u["id"] for u in self.at(h) if u["type"] == "army"]
            keep = GARRISON if h == self.home_hex else 0
            movers = armies[keep:]
            if len(movers) < 2 or not goals:
                continue
            reach = self.land_paths(h, LAND_MP)
            best = None
            for cid in goals:
                ch = self.m.cities[cid].hex
                for n in self.m.neighbours[ch]:
                    if n in reach and self.stack(n) + planned.get(n, 0) + len(movers) <= self.limit(n):
                        score = (reach[n][0], self.m.distance(n, ch))
                        if best is None or score < best[0]:
                            best = (score, n, cid)
            if best is None:
                continue
            _, stop, cid = best
            if stop != h:
                moves.append({"units": movers, "path": reach[stop][1], "partial": True})
                planned[stop] = planned.get(stop, 0) + len(movers)
            used.update(movers)
            garrison = 1  # a neutral city holds 1 Army and its garrison roll
            if len(movers) >= garrison + 2 or (len(movers) >= 2 and self.dice.d6("bot boldness") >= 3):
                attacks.append({"units": movers, "target": self.m.cities[cid].hex})
                goals.remove(cid)
        if moves:
            o["first_move"] = moves
        if attacks:
            o["land_battle"] = attacks
        # ships start in port and the bot keeps them there: no navigation rolls
        # standing orders: defence cards if needed, Executions, ransom
        defence = [c for c in self.hand if self.t.cards[c].timing.get("phase") == "battle"
                   and self.t.cards[c].timing.get("role") in ("defense", "any")
                   and self.t.cards[c].timing.get("turn") in ("other", "any")]
        o["standing"] = {"defence_cards": [{"card": c, "if_needed": True} for c in defence[:2]],
                         "executions": True, "captured_leaders": "ransom"}
        if not o["standing"]["defence_cards"]:
            del o["standing"]["defence_cards"]
        return o


def write_orders(view: dict[str, Any], game_map: GameMap, tables: Tables, campaign: str, turn: int,
                 secret: str, seed_salt: str = "") -> dict[str, Any]:
    """A whole order file (header included) for the viewer of ``view``."""
    player = view["viewer"]
    body = Bot(view, game_map, tables, bot_dice(campaign, turn, player, seed_salt)).orders()
    return {"campaign": campaign, "turn": turn, "player": player, "secret": secret, **body}
