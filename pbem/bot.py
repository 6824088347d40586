"""The computer player: reads one player's fogged view (``visibility.view``) and writes an order file.

It never sees the state itself, so it cannot peek past the fog: other players' units are the counts by type
the view shows in sight, their strength out of sight is guessed.  Its choices are seeded by the campaign,
turn and player (``bot_dice``), and everything it iterates over is sorted, so a bot game replays exactly.

The plan, each turn:

1. **Money.** Income is estimated from the cities it holds (home 7 plus income traits, minor cities their
   income, halved when a hostile minor city, nothing when razed or besieged); upkeep is 1 gold per Army and Rowers
   (R-PH-UPK).  The force it keeps is proportionate to income: it recruits while the upkeep stays within the
   income plus a share of the treasury spread over the turns left, keeping a small reserve.
2. **Recruit** one Army in every controlled city that may recruit (not razed, hostile or besieged, with
   room in the hex): cities without a garrison first, then the cities nearest the front, then the rest.
   Gold beyond a reserve for next turn's upkeep buys Baggage (BAGGAGE_PER_ARMY per Army that will leave,
   SIEGE_STOCK per garrison Army) in the cities its stacks leave from: Armies away from friendly cities eat
   it instead of making upkeep rolls (R-PH-UPK).
3. **Cards** at their timing: gold, extra diplomacy rolls, control of neutral cities, revolts in weakly held
   enemy minor cities, "one less roll", blockades and the like against the rival that weighs most (cities,
   nearness, what it does to us); Political Rivalry and Social Division on the most threatening one; Plague,
   Desertions, Starvation, Short Supplies and Storms on enemy stacks in sight; Assassination and Exiled on an
   enemy leader in sight; attack cards (and Treasure) in its attacks (``if_needed``), defence cards and
   Hesitation as standing orders; a ``discard`` list names the cards it has least use for.
4. **Diplomacy** (R-PH-DIP): neutral minor cities nearest first, then its own hostile cities, then the
   minor cities other players hold, weakly held and near ones first (a success makes them revolt).  Never
   a home city.
5. **War.** Each city keeps a garrison (a minor city MINOR_GARRISON Armies with a rival near, else one, one
   more while hostile or threatened; more at home when enemies are near), and a city short of it draws the
   nearest spare Armies (the attackers next to a city just taken move in); the other Armies form stacks.
   Targets are our own home city if an enemy holds it (first of all), neutral cities, enemy minor cities and,
   from turn 6, enemy home cities (not a city with an enemy ship in port); for
   each it estimates the defence (garrison roll, a neutral city's Army, the defenders in sight or a guess)
   and the number of Armies that win with good odds (a normal approximation of the dice, R-BAT-1, R-BAT-2).
   Stacks are assigned greedily to the target that is ready soonest for its value, march there over land
   (Dijkstra over movement points, around enemies and foreign cities, within stacking limits) in the first
   move, attack (land battle, together from every adjacent hex) when the odds favour them, and march on in
   the second move if they are not there yet.  The seeded dice only make it a little bolder or more
   careful (the odds it asks for move by up to 0.05 from turn to turn).  Leaders with battle skills and
   loose Baggage go with the stacks.  A leader that would end the turn with no Army or Rowers of ours in its
   hex (one likely to survive the Upkeep phase) walks, with both moves, to our nearest city in supply and not
   besieged, or to the nearest hex where a stack of ours ends the turn within its reach, no move ending next to
   an enemy in sight when it can help it (R-UNIT-4: a lone leader is captured).  Enemy stacks in the open next to its Armies are attacked when the
   odds are clearly good.  Supply (R-PH-UPK): a stack without Baggage gathers in supply near a target it is
   not yet strong enough for, or stops one move short of it in supply; Armies that fight no battle and would
   end the turn out of supply go back into it in the second move.
6. **The sea.** A port (our coastal city) whose spare Armies have no land target as good as an overseas one
   (a target with a beach or port of ours at most two moves' walk away, LAND_WALK) recruits a Transport
   (no upkeep) when two or more such Armies lack one; a full port's spare Armies (and its empty Transports,
   each carrying one) wait on the beach next to it, in supply, so that the city may recruit (R-PH-REC,
   R-UNIT-2), and sail from there.  Armies board, sail within the Transports' movement points and land
   (``load``/``unload``) on that beach; a stack lands two Armies a beach at most (Transports count for
   stacking).  An island city (its only landing places are next to it: Aegina, Melos, Samos, Doria's and
   Halicarnassus's fishing village...) is a strike: landed Armies can do nothing but attack, so it is a target
   only when the Armies that can land next to it (with ours already there, our attack cards) win at the odds,
   this turn or, landing the rest next turn, the next; a port that could with more Transports recruits them,
   its Armies waiting.  Elsewhere a landing out of supply takes Baggage along (a Transport carrying what the
   Armies set down on boarding and the port's loose Baggage, instead of one more Army) or sails with the
   force the target needs, less LANDING_SHORT, counting ours near it: Armies ashore unfed make an upkeep
   roll each turn (R-PH-UPK).  A voyage is either one move (land, attack in the
   same turn when next to the target, Transports back to port in the second move) or two moves through a
   hex where ships are safe (city, Sandy Coast, Fishing Village), so a failed second move never leaves them
   at sea; no plan ends a Second Move at sea.  With Armies aboard that carry no Baggage for them all, the hex
   halfway is in supply (our city in or next to it), or they do not sail: when the second move fails (others
   reached its end first), they wait there paid (R-PH-UPK: aboard elsewhere each makes an upkeep roll); of
   the halfway hexes that will do, those with no other faction's land forces in sight in or next to them come
   first.  Loaded Transports with no landing to make put their Armies ashore in our nearest port, or with our
   ports full in the nearest hex in supply where ships may stop (``bring_ashore``).  Beaches with other
   factions' land forces in sight in or next to them are avoided, and so is every hex where others' units
   are in sight.  Armies cut off out of supply (no hex in supply they can walk to: an island's beach after a
   strike that failed or was called off) that cannot take the city next to them this turn, and that no
   landing joins, are fetched by the Transports left (``fetch``) and put ashore in supply (our port, a beach
   next to our city); with none to come, the nearest port recruits one.  Empty Transports away from our
   cities sail home.  Landed Armies are then ordinary stacks: they march and attack as above.  Manned
   Fleets attack visible enemy ships (one owner in the hex) when the odds are at least SEA_ODDS, from a hex
   they reach in the First Move and leave for their port in the Second; otherwise they stay in port (a
   manned Fleet docked in a city keeps it).
7. **Cards in force.** Lasting effects in its view that last into its own player-turn are obeyed: under a
   Truce (R-TURN-4; docs/rules.md, Truce) it moves but orders no land or sea battle, and keeps its attack
   cards; under Political Rivalry or Social Division (its units may not move or attack) it orders no move and
   no battle.  Effects the players before it play in the same game turn cannot be known when it writes.
"""
from __future__ import annotations

import hashlib
import heapq
import math
from typing import Any, Callable, Iterable

from .dice import Dice
from .gamedata import GameMap, Tables
from .model import HOME_CITY_DEFENCE, Effect, UnitType, id_order
from .movement import BASE_MP, effect_in_force
from .phases.revenue import pays as revenue_pays

LAND_MP = BASE_MP[UnitType.ARMY]  # the rules' own movement points (R-PH-MOVE), not a copy
D10 = (5.5, 8.25)  # mean, variance
D6 = (3.5, 35 / 12)
GUESS_MOD = 1  # an unseen defender's roll modifiers (traits and skills are hidden)
RIVAL_FEW = 3  # harassment goes to one of the few opponents weighed highest (``rival_order``)
RIVAL_MARGIN = 0.4  # ... within this much of the best weight (one city more is worth two hexes nearer)
COUP_MAX_RAZED = 4  # no Coup on a home city with this many razed counters already (6 at most)
HOME_WAR_TURN = 6  # enemy home cities become targets from this turn on
OWN_HOME_VALUE = 6.0  # our own home city held by an enemy is worth this much more than any other target
ODDS = 0.62  # attack a city when the estimated chance to win is at least this
ODDS_FIELD = 0.7  # attack a stack in the open only when clearly favoured
MAX_FORCE = 14
SHIP_MP = {"transport": BASE_MP[UnitType.TRANSPORT], "fleet": BASE_MP[UnitType.FLEET]}
SEA_REACH = 22  # the farthest a sea path is looked for (movement points: two moves and then some)
LAND_WALK = 8  # a landing beach is at most two moves' walk from the target
SEA_ODDS = 0.75  # attack ships only when clearly favoured
SEA_PENALTY = 1.0  # a voyage is chosen over a march only when it is this much better (turns)
STARVING_BOLDNESS = 0.1  # Armies with starvation counters and no Baggage attack at odds this much lower
SIEGE_STOCK = 2  # loose Baggage kept per garrison Army in our cities, eaten only under siege
MINOR_GARRISON = 2  # Armies kept in a minor city of ours with a rival near (``garrison``; else one)
REINFORCE_REACH = 2  # a city short of its garrison draws spare Armies from this many moves away (home: twice)
REVOLT_NEAR = 4  # an enemy minor city farther than this from our units ranks lower as a diplomacy target
FAR_REVOLT = 2  # ... by this much for each hex beyond
BAGGAGE_PER_ARMY = 4  # all an Army carries (R-UNIT-1): four Upkeep phases away from our cities
LANDING_SHORT = 2  # a landing without Baggage out of supply sails with the force its target needs, less this


def cheapest(start: str, steps: Callable[[str], Iterable[tuple[str, int]]],
             cap: int | None = None) -> tuple[dict[str, int], dict[str, str]]:
    """Dijkstra from ``start``: the cost of reaching each hex (within ``cap``) and the hex it is reached from.
    ``steps(h)`` gives the hexes one step from ``h`` with the cost of entering them."""
    dist, prev = {start: 0}, {}
    heap = [(0, start)]
    while heap:
        cost, h = heapq.heappop(heap)
        if cost > dist[h]:
            continue
        for n, step in steps(h):
            c = cost + step
            if (cap is None or c <= cap) and c < dist.get(n, 1 << 30):
                dist[n], prev[n] = c, h
                heapq.heappush(heap, (c, n))
    return dist, prev


def walk_back(dist: dict[str, int], prev: dict[str, str], start: str, goal: str) -> list[str]:
    """The hexes from ``start`` (excluded) to ``goal`` of a shortest-path search, or [] if it did not reach it."""
    if goal not in dist:
        return []
    out = []
    while goal != start:
        out.append(goal)
        goal = prev[goal]
    return out[::-1]


def bot_dice(campaign: str, turn: int, player: str, salt: str = "") -> Dice:
    return Dice(hashlib.sha256(f"pbem/bot/{salt}/{campaign}/{turn}/{player}".encode()).digest())


def win_chance(att: tuple[float, float], dfn: tuple[float, float]) -> float:
    """P(attack total > defence total), both taken as normal (ties go to the defender, R-BAT-1)."""
    sd = math.sqrt(max(att[1] + dfn[1], 1e-9))
    return 0.5 * (1 + math.erf((att[0] - dfn[0] - 0.5) / (sd * math.sqrt(2))))


def dice_stats(spec: str) -> tuple[float, float]:
    n, s = spec.upper().split("D")
    n, s = int(n or 1), int(s)
    return n * (s + 1) / 2, n * (s * s - 1) / 12


class Bot:
    def __init__(self, view: dict[str, Any], game_map: GameMap, tables: Tables, dice: Dice):
        self.v, self.m, self.t, self.dice = view, game_map, tables, dice
        self.me = view["me"]
        self.pid = view["viewer"]
        self.turn = view.get("turn", 1)
        self.left = max(1, view.get("last_turn", 36) - self.turn + 1)
        self.units = {u["id"]: u for u in view["units"] if u.get("away_until") is None}
        self.cities = view["cities"]
        self.home = self.me["home"]
        self.home_hex = game_map.cities[self.home].hex
        self.players = view.get("players", {})
        self.rivals = [p for p in view.get("turn_order", []) if p != self.pid
                       and self.players.get(p, {}).get("eliminated_turn") is None]
        # what the fog shows of other factions: counts by type per hex
        self.seen = set(view.get("visible_hexes", ()))
        self.foe: dict[str, dict[str, int]] = {}
        for e in view["others"]:
            c = self.foe.setdefault(e["hex"], {})
            for t, n in e["counts"].items():
                c[t] = c.get(t, 0) + n
        self.blocked = {h for h, c in self.foe.items()
                        if any(c.get(t) for t in ("army", "rowers", "fleet", "pirate", "barbarian"))}
        self.hand = list(self.me["hand"])
        self.gold = self.me["gold"]
        self.mine_cities = sorted(cid for cid, c in self.cities.items() if c["controller"] == self.pid)
        self.held_traits = sorted(set(self.me["traits"]) | {
            self.cities[cid]["trait"] for cid in self.mine_cities if self.cities[cid].get("trait")})
        self._paths: dict[str, tuple[dict[str, int], dict[str, str]]] = {}
        self.planned: dict[str, int] = {}  # stacking: own units arriving in a hex (either move)
        self._sea: dict[tuple[str, int], tuple[dict[str, int], dict[str, str]]] = {}
        self._landings: dict[str, dict[str, int]] = {}
        self._hops: dict[tuple[str, int], list[str]] = {}
        self.foreign = {c.hex for c in game_map.cities.values() if self.cities[c.id]["controller"] != self.pid}
        self._walks: list[tuple[list[str], str, str]] = []  # Armies landed in the first move: walk on
        self.bag_shipped: set[str] = set()  # loose Baggage that sails with a landing this turn
        self.transport_wants: dict[str, int] = {}  # port hex -> Transports it lacks
        self.strike_wants: dict[str, float] = {}  # port hex -> score of an island strike it lacks Transports for
        self.sea_battles: list[dict] = []
        self.truce = False  # a Truce in force at our player-turn (``orders``): no battle, no Fleet sortie
        self.shipped: set[str] = set()  # Armies that go by sea this turn
        self.own_city_hexes = {game_map.cities[cid].hex for cid in self.mine_cities}
        self._supplied: dict[str, bool] = {}
        self.aim: dict[str, str | None] = {}  # Army -> the target hex it marches on this turn (None: to supply)
        self.frozen = False  # Political Rivalry or Social Division in force on us this player-turn (``orders``)
        self.gold_now = self.gold  # what is left when the Recruit phase comes (``orders``)
        self._rivals: list[str] | None = None
        self._rival_near: dict[str, bool] = {}
        self.rival_spots = sorted({game_map.cities[cid].hex for cid, c in self.cities.items()
                                   if c["controller"] not in (None, self.pid)}
                                  | {e["hex"] for e in view["others"] if e.get("owner") not in (None, self.pid)})
        self.fed: set[str] = set()  # Armies whose stack carries Baggage for every Army (R-PH-UPK)
        self.fetched: set[str] = set()  # Armies cut off out of supply that a Transport fetches (``fetch``)

    # -- helpers -----------------------------------------------------------------------------------
    def mine(self, utype: str) -> list[dict]:
        return [u for u in self.units.values() if u["type"] == utype]

    def at(self, h: str) -> list[dict]:
        return [u for u in self.units.values() if u["hex"] == h and not u.get("carried_by")]

    def armies_at(self, h: str) -> list[str]:
        return sorted((u["id"] for u in self.at(h) if u["type"] == "army"), key=id_order)

    def stack(self, h: str) -> int:
        """R-UNIT-2 as ``board.stacking_weight`` counts: what is aboard counts too, but a Fleet's Rowers."""
        n = 0
        for u in self.units.values():
            if u["hex"] != h or u["type"] not in ("army", "rowers", "fleet", "transport"):
                continue
            carrier = self.units.get(u.get("carried_by") or "")
            if u["type"] == "rowers" and carrier is not None and carrier["type"] == "fleet":
                continue
            n += 1
        return n

    def limit(self, h: str) -> int:
        return self.m.terrain[h].stack or 0

    def room(self, h: str) -> int:
        return self.limit(h) - self.stack(h) - self.planned.get(h, 0)

    def foreign_city(self, h: str) -> bool:
        return h in self.foreign

    def land_foes(self, h: str) -> float:
        """Enemy units that would fight a land battle in ``h`` (Rowers beyond the ships are taken as ashore)."""
        c = self.foe.get(h, {})
        ships = c.get("fleet", 0) + c.get("transport", 0)
        return c.get("army", 0) + max(0, c.get("rowers", 0) - ships) + 2 * c.get("barbarian", 0) + c.get("pirate", 0)

    def ships_ashore(self, h: str) -> int:
        """Enemy Fleets seen in a land hex (beached or docked): each defends a land attack with 1D10 and no
        terrain or city modifier (R-PH-LAND); taken as manned."""
        return self.foe.get(h, {}).get("fleet", 0) if self.m.terrain[h].land and h in self.seen else 0

    def threat_near(self, h: str, radius: int = 2) -> float:
        return sum(self.land_foes(x) for x in self.foe if self.m.distance(h, x) <= radius)

    def besieged(self, h: str) -> bool:
        return any(x in self.blocked for x in (h, *self.m.neighbours[h]))

    def supplied(self, h: str) -> bool:
        """An Army or Rowers in ``h`` is paid its upkeep (R-PH-UPK): our city in or next to it, not razed and not
        under siege as far as we can see."""
        found = self._supplied.get(h)
        if found is None:
            found = any(x in self.own_city_hexes and not self.cities[self.m.city_at[x].id]["razed"]
                        and not self.besieged(x) for x in (h, *self.m.neighbours[h]))
            self._supplied[h] = found
        return found

    def food(self, h: str, armies: list[str], loose: bool = True) -> int:
        """Baggage that feeds ``armies`` of the stack in ``h`` (what they carry, and the loose Baggage there
        when ``loose``): one Baggage feeds one Army or Rowers one Upkeep phase (R-PH-UPK)."""
        mine = set(armies)
        return sum(1 for u in self.units.values() if u["type"] == "baggage" and u["hex"] == h
                   and (u.get("carried_by") in mine or (loose and not u.get("carried_by"))))

    def hungry(self, a: str) -> int:
        """The starvation counters our Army ``a`` will have after this turn's Upkeep phase, which comes before
        our moves: those on it, and one more if it stands out of supply without Baggage now (R-PH-UPK)."""
        u = self.units[a]
        return u.get("starvation", 0) + (0 if a in self.fed or self.supplied(u["hex"]) else 1)

    def stocks_baggage(self, h: str, n: int) -> bool:
        """Our city at ``h`` may recruit Baggage for ``n`` Armies this turn, and we can pay it."""
        city = self.m.city_at.get(h)
        if city is None or h not in self.own_city_hexes:
            return False
        c = self.cities[city.id]
        return not (c["razed"] or c["hostile"] or self.besieged(h)) and self.gold_now >= 10 + BAGGAGE_PER_ARMY * n

    def may_camp(self, x: str, start: str, n: int) -> bool:
        """May ``n`` of our Armies from ``start`` end their move in ``x`` fed (R-PH-UPK: in supply) and within
        the stacking limit?"""
        return self.supplied(x) and self.limit(x) > 0 and (x == start or self.room(x) >= n)

    def supply_near(self, start: str, n: int, within: int | None = None, toward: str | None = None) -> str | None:
        """A hex in supply that ``n`` of our Armies at ``start`` reach by land (within ``within`` movement points)
        and fit in: the nearest to ``toward`` if given, else the nearest; None if there is none."""
        dist, _ = self.paths_from(start)
        best = None
        for x, d in dist.items():
            if within is not None and d > within or not self.may_camp(x, start, n):
                continue
            key = (self.m.distance(x, toward) if toward else 0, d, x)
            if best is None or key < best:
                best = key
        return None if best is None else best[2]

    def paths_from(self, start: str) -> tuple[dict[str, int], dict[str, str]]:
        """Cheapest land paths from ``start`` (movement points), around enemies and foreign cities."""
        found = self._paths.get(start)
        if found is not None:
            return found
        def steps(h: str) -> Iterable[tuple[str, int]]:
            for n in self.m.neighbours[h]:
                t = self.m.terrain[n]
                if t.land and t.move_cost is not None and n not in self.blocked and not self.foreign_city(n):
                    yield n, t.move_cost

        dist, prev = cheapest(start, steps)
        self._paths[start] = (dist, prev)
        return dist, prev

    def path_to(self, start: str, goal: str) -> list[str]:
        return walk_back(*self.paths_from(start), start, goal)

    # -- effects of traits, skills, cards ----------------------------------------------------------
    def trait_effects(self, kind: str) -> Iterable[dict]:
        for tid in self.held_traits:
            yield from (e for e in self.t.traits[tid].effects if e["kind"] == kind)

    def leader_effects(self, kind: str, hexes: Iterable[str] | None = None) -> Iterable[dict]:
        where = None if hexes is None else set(hexes)
        for leader in sorted(self.mine("leader"), key=lambda u: id_order(u["id"])):
            if where is not None and (leader["hex"] not in where or leader.get("carried_by")):
                continue
            for s in leader.get("skills", []):
                yield from (e for e in self.t.skills[s].effects if e["kind"] == kind)

    def effect_total(self, kind: str) -> int:
        return sum(e.get("value", 0) for e in (*self.trait_effects(kind), *self.leader_effects(kind)))

    def army_mod(self, h: str, vs_city: bool) -> int:
        """Roll modifier of one of our attacking Armies in ``h`` (R-BAT-2)."""
        n = 0
        for e in (*self.trait_effects("roll_modifier"), *self.leader_effects("roll_modifier", [h])):
            if e.get("side", "own") == "own" and e["roll"] in ("battle", "attack") \
                    and e.get("units", "all") in ("all", "army") and e.get("where", "any") == "any" \
                    and (e.get("vs", "any") == "any" or vs_city):
                n += e["value"]
        return n

    def attack_stats(self, groups: dict[str, int], target: str, cards: list[str] = ()) -> tuple[float, float]:
        """Mean and variance of our attack total: ``groups`` maps hex -> Armies attacking from it."""
        city = self.m.city_at.get(target)
        hostile = city is not None and self.cities[city.id]["hostile"]
        mean = var = 0.0
        for h, n in groups.items():
            mean += n * (D10[0] + self.army_mod(h, city is not None) + (1 if hostile else 0))
            var += n * D10[1]
        for e in self.leader_effects("battle_total", groups):
            if e.get("side", "own") == "own" and e.get("total") in ("battle", "attack"):
                m, v = dice_stats(e["dice"])
                mean, var = mean + m, var + v
        for c in cards:
            for e in self.t.cards[c].effects:
                if e["kind"] == "battle_total":
                    m, v = dice_stats(e["dice"])
                    mean, var = mean + m, var + v
                elif e["kind"] == "roll_modifier":
                    mean += e["value"] * sum(groups.values())
        return mean, var

    def defence_stats(self, target: str) -> tuple[float, float]:
        """Mean and variance of the defence total of hex ``target`` as far as we can see or guess."""
        city = self.m.city_at.get(target)
        ships = self.ships_ashore(target)
        if city is None:
            d = self.m.terrain[target].defense or 0
            k = self.land_foes(target)
            return k * (D10[0] + d + GUESS_MOD) + ships * D10[0], (k + ships) * D10[1]
        c = self.cities[city.id]
        d = HOME_CITY_DEFENCE if c["home_of"] else (self.m.terrain[target].defense or 0)
        mean, var = D6[0] + d + ships * D10[0], D6[1] + ships * D10[1]  # the garrison, docked Fleets
        if c["controller"] is None:
            mean, var = mean + D10[0] + d, var + D10[1]  # a neutral city's Army
        if target in self.seen:
            k = self.land_foes(target)
        elif c["controller"] is None:
            k = 0
        else:  # out of sight: two at home, one in a minor city or in a home city its captor holds
            k = 2 if c["home_of"] == c["controller"] else 1
        return mean + k * (D10[0] + d + GUESS_MOD), var + k * D10[1]

    def force_needed(self, target: str, h: str, odds: float) -> int | None:
        """Armies (attacking from around ``h``) needed for the odds, or None if more than we ever field."""
        dfn = self.defence_stats(target)
        for n in range(1, MAX_FORCE + 1):
            if win_chance(self.attack_stats({h: n}, target), dfn) >= odds:
                return n
        return None

    # -- cards ---------------------------------------------------------------------------------------
    def rival_order(self) -> list[str]:
        """Opponents in the order our harassment cards go to them.  Each is weighed by the cities it holds, by
        how near its home is to ours, and by what it does to us: holding our home city, its Armies in sight
        next to our cities, its cards in force against us.  The first is drawn by seeded chance among the few
        within RIVAL_MARGIN of the best (so not every bot sends every card to the player with the most cities,
        nor always to the same one), the rest follow by weight.  On turn 1, when every player holds one
        city, the weight is nearness: each bot harasses a neighbour."""
        if self._rivals is not None:
            return self._rivals
        if not self.rivals:
            self._rivals = []
            return self._rivals
        ours = sorted(self.own_city_hexes)
        near: dict[str, float] = {}
        for e in self.v["others"]:
            p = e.get("owner")
            if p in self.rivals and any(self.m.distance(e["hex"], ch) <= 2 for ch in ours):
                near[p] = near.get(p, 0) + e["counts"].get("army", 0) + e["counts"].get("rowers", 0)
        against: dict[str, int] = {}
        for e in self.v.get("effects", ()):
            if e.get("target") == self.pid and e.get("player") in self.rivals:
                against[e["player"]] = against.get(e["player"], 0) + 1
        holder = self.cities[self.home]["controller"]

        def weight(p: str) -> float:
            home = self.players[p].get("home", p)
            away = self.m.distance(self.home_hex, self.m.cities[home].hex) if home in self.m.cities else 30
            return (self.players[p].get("cities", 0) - away / 2 + 5 * (holder == p)
                    + 0.5 * min(near.get(p, 0), 6) + against.get(p, 0))
        ranked = sorted(self.rivals, key=lambda p: (-weight(p), self.rivals.index(p)))
        top = [p for p in ranked[:RIVAL_FEW] if weight(p) >= weight(ranked[0]) - RIVAL_MARGIN]
        pick = top[0] if len(top) == 1 else top[
            bot_dice(self.v.get("campaign", ""), self.turn, self.pid, "rival").roll(len(top), "rival")-1]
        self._rivals = [pick] + [p for p in ranked if p != pick]
        return self._rivals

    def leader_rival(self) -> str | None:
        """The opponent our harassment cards go to first (``rival_order``)."""
        order = self.rival_order()
        return order[0] if order else None

    def blockade_target(self) -> str | None:
        """The city an income block (Economic Blockade, Raids) costs a rival most: one that would pay its
        controller this turn (not razed, not besieged as far as we see, not blocked already), highest income
        first (a hostile minor city halved, R-PH-REV: a home city never); a rival's city, in ``rival_order``."""
        blocked = {e.get("target") for e in self.v.get("effects", ()) if e["kind"] == "income_block"}
        for p in self.rival_order():
            best = None
            for cid, c in sorted(self.cities.items()):
                if c["controller"] != p or c["razed"] or cid in blocked or self.besieged(self.m.cities[cid].hex):
                    continue
                pays = revenue_pays(c["income"], c["hostile"], c["home_of"] is not None)
                if pays >= 2 and (best is None or pays > best[0]):
                    best = (pays, cid)
            if best is not None:
                return best[1]
        return None

    def coup_target(self) -> str | None:
        """A rival whose home city a Coup (1D6 razed counters, 6 at most) still hurts: under 4 counters, and held
        by that rival (a Coup fails on a home city its people do not hold, docs/rules.md)."""
        for p in self.rival_order():
            home = self.players[p].get("home", p)
            city = self.cities.get(home, {})
            if city.get("controller") == p and city.get("razed", 0) < COUP_MAX_RAZED:
                return p
        return None

    def attack_cards(self, target: str) -> list[str]:
        """Cards we may add to a land attack on ``target`` that do something there (R-BAT-5)."""
        vs_city = self.foreign_city(target)
        out = []
        for c in self.hand:
            card = self.t.cards[c]
            tm = card.timing
            if tm.get("phase") not in ("battle", "land_battle") or tm.get("role") not in ("attack", "any") \
                    or tm.get("turn") not in ("own", "any") or tm.get("trigger", "none") != "none":
                continue
            ok = True
            for e in card.effects:
                if e["kind"] == "battle_total":
                    own = e.get("side", "own") == "own"
                    ok &= e.get("total") in ("battle", "attack" if own else "defense") \
                        and e.get("battle", "any") in ("any", "land") and (e.get("vs", "any") == "any"
                                                                          or (e["vs"] == "city" and vs_city))
                elif e["kind"] == "roll_modifier":
                    ok &= e.get("side", "own") == "own" and e["roll"] in ("battle", "attack") \
                        and e.get("units", "all") in ("all", "army") and e.get("vs", "any") == "any"
                else:
                    ok = False
            if ok:
                out.append(c)
        return out

    def play_cards(self, neutral: list[str], enemy_minor: list[str]) -> list[Any]:
        cards: list[Any] = []
        rival = self.leader_rival()
        blockade = self.blockade_target()
        neutral, enemy_minor = list(neutral), list(enemy_minor)
        for c in list(self.hand):
            card = self.t.cards[c]
            kinds = {e["kind"] for e in card.effects}
            if card.timing.get("turn") not in ("own", "any") or card.timing.get("trigger", "none") != "none" \
                    or card.timing.get("phase") not in ("diplomacy", "any"):
                continue
            play: Any = None
            if "control_city" in kinds and card.target == "neutral_city" and neutral:
                play = {"card": c, "target": neutral.pop(0)}
            elif kinds == {"revolt"} and card.target == "enemy_minor_city" and enemy_minor:
                play = {"card": c, "target": enemy_minor.pop(0)}
            elif kinds == {"gold"} and card.target == "none" and all(e["side"] == "own" for e in card.effects):
                play = c
            elif kinds == {"draw_cards"} and card.target == "none":
                play = c
            elif kinds == {"diplomacy_rolls"} and card.target == "none" and all(e["value"] > 0 for e in card.effects):
                play = c
            elif rival and card.target == "player" and (
                    kinds == {"diplomacy_rolls"} and all(e["value"] < 0 for e in card.effects)
                    or kinds == {"gold"} and all(e["side"] == "opponent" for e in card.effects)):
                play = {"card": c, "target": rival}
            elif kinds == {"razed_counters"} and card.target == "player" and self.coup_target():
                play = {"card": c, "target": self.coup_target()}
            elif blockade and kinds == {"income_block"} and card.target in ("enemy_city", "city"):
                play = {"card": c, "target": blockade}
                blockade = None
            elif kinds == {"cannot_move_or_attack"} and card.target == "player" and self.threat():
                play = {"card": c, "target": self.threat()}
            elif kinds <= {"remove_baggage", "starvation_counter", "navigation_roll", "upkeep_roll"} \
                    and self.stack_target(card) is not None:
                play = {"card": c, "target": self.stack_target(card)}
            elif kinds == {"leader_removed"} and card.target == "leader" and self.enemy_leader() is not None:
                play = {"card": c, "target": self.enemy_leader()}
            if play is not None:
                cards.append(play)
                self.hand.remove(c)
        return cards

    def threat(self) -> str | None:
        """The opponent with the most Armies in sight within two hexes of our cities (at least two)."""
        near: dict[str, float] = {}
        for e in self.v["others"]:
            p = e.get("owner")
            if p is None or p == self.pid or p not in self.rivals:
                continue
            if any(self.m.distance(e["hex"], ch) <= 2 for ch in sorted(self.own_city_hexes)):
                near[p] = near.get(p, 0) + e["counts"].get("army", 0) + e["counts"].get("rowers", 0)
        best = max(sorted(near), key=lambda p: near[p], default=None)
        return best if best is not None and near[best] >= 2 else None

    def stack_target(self, card) -> str | None:
        """Where a card that acts on the units of a city, stack or hex does most harm to others' units in sight
        (and none to ours): Plague, Desertions, Starvation, Short Supplies, Storms."""
        kinds = {e["kind"] for e in card.effects}
        mine = {u["hex"] for u in self.units.values()}
        per_hex: dict[str, list[dict]] = {}
        for e in self.v["others"]:
            if e.get("owner") not in (None, self.pid):
                per_hex.setdefault(e["hex"], []).append(e)
        best = None
        for h in sorted(per_hex):
            es = per_hex[h]
            if h in mine or len(es) != 1:
                continue
            c = es[0]["counts"]
            city = self.m.city_at.get(h)
            armies = c.get("army", 0) + c.get("rowers", 0)
            if "navigation_roll" in kinds:
                worth = c.get("fleet", 0) + c.get("transport", 0) + c.get("army", 0) * bool(c.get("transport"))
                ok = card.target == "hex" and not self.m.ship_may_stop(h) is False
            elif "remove_baggage" in kinds:
                worth, ok = c.get("baggage", 0), card.target == "stack"
            elif "starvation_counter" in kinds:
                worth = armies
                ok = card.target == "besieged_city" and city is not None \
                    and self.cities[city.id]["controller"] == es[0]["owner"] \
                    and any(self.units[u]["hex"] in self.m.neighbours[h] for u in sorted(self.units)
                            if self.units[u]["type"] == "army")
            else:  # upkeep_roll
                worth = armies
                ok = card.target == "stack" or (card.target == "city" and city is not None)
            if ok and worth >= 2 and (best is None or worth > best[0]):
                best = (worth, h)
        if best is None:
            return None
        city = self.m.city_at.get(best[1])
        return city.id if card.target in ("city", "besieged_city") and city is not None else best[1]

    def enemy_leader(self) -> str | None:
        """The name of an enemy leader in sight with the largest stack, for Assassination or Exiled."""
        best = None
        for e in self.v["others"]:
            if e.get("owner") in (None, self.pid) or not e.get("leaders"):
                continue
            key = (e["counts"].get("army", 0), e["leaders"][0])
            if best is None or key > best[0]:
                best = (key, e["leaders"][0])
        return None if best is None else best[1]

    def card_worth(self, c: str) -> int:
        """How much the bot would miss card ``c`` (0: it has no use for it), for the ``discard`` lists."""
        card = self.t.cards[c]
        kinds = {e["kind"] for e in card.effects}
        tm = card.timing
        if kinds & {"control_city", "revolt", "gold", "draw_cards", "diplomacy_rolls", "razed_counters",
                    "income_block"}:
            return 3
        if tm.get("phase") in ("battle", "land_battle", "sea_battle") and kinds <= {"battle_total", "roll_modifier"}:
            sea = all(e.get("battle") == "sea" or e.get("units") in ("fleet", "ships") or e.get("vs") == "ships"
                      for e in card.effects)
            if sea and not any(self.manned(f) for f in self.mine("fleet")):
                return 0
            return 2
        if kinds & {"cannot_move_or_attack", "upkeep_roll", "remove_baggage", "starvation_counter",
                    "navigation_roll", "cannot_attack"} or (kinds == {"leader_removed"} and card.target == "leader"
                                                             and tm.get("trigger", "none") == "none"):
            return 1
        return 0

    # -- diplomacy -----------------------------------------------------------------------------------
    def near_key(self, cid: str) -> int:
        """Hex distance from the nearest of our units or cities."""
        h = self.m.cities[cid].hex
        spots = {u["hex"] for u in self.units.values()} | {self.m.cities[c].hex for c in self.mine_cities}
        return min((self.m.distance(h, s) for s in sorted(spots)), default=99)

    def diplomacy_targets(self) -> tuple[list[str], list[str], list[str]]:
        """(neutral minor cities, own hostile cities, enemy minor cities), best first; never home cities."""
        neutral, hostile, enemy = [], [], []
        for cid, c in sorted(self.cities.items()):
            if c["home_of"]:
                continue
            if c["controller"] is None:
                neutral.append((self.near_key(cid), cid))
            elif c["controller"] == self.pid:
                if c["hostile"]:
                    hostile.append((0, cid))
            else:
                h = self.m.cities[cid].hex
                held = self.land_foes(h) if h in self.seen else 1.5
                # a revolt far from our units only hands the city to whoever is near it: those rank lower
                near = self.near_key(cid)
                enemy.append((held * 4 + near + FAR_REVOLT * max(0, near - REVOLT_NEAR) - c["income"], cid))
        return tuple([cid for _, cid in sorted(x)] for x in (neutral, hostile, enemy))  # type: ignore[return-value]

    # -- the plan ------------------------------------------------------------------------------------
    def income(self) -> int:
        """This turn's Revenue (R-PH-REV): nothing from a razed or besieged city, nor from one an income block in
        force at our Revenue phase names (Raids, Economic Blockade: it counted them, and recruited beyond its gold)."""
        total = 0
        blocked = {e.target for e in self.in_force("income_block")}
        for cid in self.mine_cities:
            c = self.cities[cid]
            h = self.m.cities[cid].hex
            if c["razed"] or self.besieged(h) or cid in blocked:
                continue
            inc = c["income"] + (self.effect_total("income") if cid == self.home else 0)
            total += revenue_pays(inc, c["hostile"], c["home_of"] is not None)
        return total

    def garrison(self, h: str) -> int:
        """Armies kept in our city at ``h``.  A minor city keeps two (three while hostile): any rival's
        successful diplomacy roll makes it revolt, and 1D3 rebels, each rolling as an Army, take a city one
        Army holds about half the time; it then goes neutral (R-PH-DIP-REVOLT).  A city taken from another
        player's home is never a diplomacy target but its owner comes back for it: two as well."""
        threat = self.threat_near(h)
        if h == self.home_hex:
            return 1 + (threat >= 2) + (threat >= 4)
        city = self.m.city_at[h]
        c = self.cities[city.id]
        if self.cities[self.home]["controller"] != self.pid:
            return 1  # our home is held by an enemy: every Army that can be spared goes to retake it
        base = MINOR_GARRISON if self.rival_near(h) else 1
        return base + bool(c["hostile"] and not c["home_of"]) + (self.threat_near(h, 1) >= 3)

    def rival_near(self, h: str) -> bool:
        """Another player's city or units in sight within REVOLT_NEAR hexes of ``h``: the rivals' diplomacy goes
        for the enemy cities near their own units first (as ours does), and only they profit from a revolt."""
        found = self._rival_near.get(h)
        if found is None:
            found = any(self.m.distance(h, x) <= REVOLT_NEAR for x in self.rival_spots)
            self._rival_near[h] = found
        return found

    def short(self, h: str) -> int:
        """Armies our city at ``h`` lacks for its garrison, counting those already ordered in."""
        return max(0, self.garrison(h) - len(self.armies_at(h)) - self.planned.get(h, 0))

    def war_targets(self) -> list[str]:
        out = []
        for cid, c in sorted(self.cities.items()):
            if c["controller"] == self.pid:
                continue
            h = self.m.cities[cid].hex
            if c["home_of"] and c["home_of"] != self.pid and self.turn < HOME_WAR_TURN:
                continue
            foe = self.foe.get(h, {})
            if foe.get("fleet") or foe.get("transport"):
                continue  # a ship docked there keeps the city: a land battle cannot take it (R-BAT-4)
            out.append(cid)
        return out

    def orders(self) -> dict[str, Any]:
        o: dict[str, Any] = {}
        upkeep = len(self.mine("army")) + len(self.mine("rowers"))
        income = self.income()
        gold_now = self.gold_now = self.gold + income - upkeep  # what is left when the Recruit phase comes
        neutral, hostile, enemy_minor = self.diplomacy_targets()
        # cards first: they may take neutral cities off the diplomacy list
        cards = self.play_cards(neutral, enemy_minor)
        taken = {c["target"] for c in cards if isinstance(c, dict)}
        against = sum(e.get("value", 0) for e in self.v.get("effects", ())
                      if e["kind"] == "diplomacy_rolls" and e.get("target") == self.pid and e.get("value", 0) < 0)
        rolls = 1 + against + self.effect_total("diplomacy_rolls") + sum(
            1 for c in cards if isinstance(c, str)
            and any(e["kind"] == "diplomacy_rolls" for e in self.t.cards[c].effects))
        # war: which Armies march where, who attacks; lasting effects may forbid moves or battles
        frozen = self.frozen = any(e.target == self.pid for e in self.in_force("cannot_move_or_attack"))
        self.truce = bool(self.in_force("truce"))
        if frozen:  # Political Rivalry, Social Division: no move, no attack
            marches, attacks, second = [], [], []
        else:
            hand = list(self.hand)
            marches, attacks, second = self.plan_war()
            if self.truce:  # no one may attack: march (no Fleet sorties), but keep the attack cards
                attacks, self.hand = [], hand
        # diplomacy: not on a city it attacks this turn (the Diplomacy phase comes first: a roll that won it would
        # make the attack fail, the checker warns; a moderator saw the computer players do it)
        attacked = {self.m.city_at[a["target"]].id for a in attacks if a.get("target") in self.m.city_at}
        dip = [cid for cid in neutral + hostile + enemy_minor if cid not in taken and cid not in attacked][:max(rolls, 0)]
        if dip:
            o["diplomacy"] = dip
        # recruit: proportionate to income, within the budget, one unit per city that may
        o_recruit = self.plan_recruit(gold_now, income, upkeep, marches)
        if o_recruit:
            o["recruit"] = o_recruit
        if cards:
            o["cards"] = cards
        if marches:
            o["first_move"] = marches
        if self.sea_battles:
            o["sea_battle"] = self.sea_battles
        if attacks:
            o["land_battle"] = attacks
        if second:
            o["second_move"] = second
        # standing orders: defence cards, Executions, ransom
        defence = [c for c in self.hand if self.t.cards[c].timing.get("phase") == "battle"
                   and self.t.cards[c].timing.get("role") in ("defense", "any")
                   and self.t.cards[c].timing.get("turn") in ("other", "any")
                   and self.t.cards[c].timing.get("trigger", "none") == "none" and self.card_worth(c) > 0]
        o["standing"] = {"defence_cards": [{"card": c, "if_needed": True} for c in defence[:3]],
                         "executions": True, "captured_leaders": "ransom"}
        if not o["standing"]["defence_cards"]:
            del o["standing"]["defence_cards"]
        # reactions when an attack on us is declared (Hesitation: the attacking stack may not attack)
        reactions = [c for c in self.hand if self.t.cards[c].timing.get("trigger") == "attack"
                     and self.t.cards[c].timing.get("turn") in ("other", "any")]
        if reactions:
            o["standing"]["reactions"] = reactions[:1]
        # over the hand limit the newest cards would go (R-PH-DRAW): name the ones we have least use for
        kept = set(defence[:3]) | set(reactions[:1])
        spare = sorted((c for c in self.hand if c not in kept), key=lambda c: (self.card_worth(c), c))
        if spare:
            o["discard"] = spare
            dead = [c for c in spare if self.card_worth(c) == 0]
            if dead:
                o["standing"]["discard"] = dead
        return o

    def in_force(self, kind: str) -> list[Effect]:
        """The lasting effects of ``kind`` the view shows that will still be in force in our own player-turn
        of this game turn, by the adjudicator's own clock (``movement.effect_in_force``)."""
        clock = _Clock(self.turn, list(self.v.get("turn_order", ())))
        found = (Effect.from_dict(e) for e in self.v.get("effects", ()) if e["kind"] == kind)
        return [e for e in found if effect_in_force(clock, e, self.pid)]

    # -- war -----------------------------------------------------------------------------------------
    def spare_stacks(self) -> list[tuple[str, list[str]]]:
        out = []
        for h in sorted({u["hex"] for u in self.mine("army") if not u.get("carried_by")}):
            armies = self.armies_at(h)
            city = self.m.city_at.get(h)
            keep = self.garrison(h) if city is not None and self.cities[city.id]["controller"] == self.pid else 0
            spare = armies[keep:]
            if spare:
                out.append((h, spare))
        return out

    def reach(self, start: str, target_hex: str) -> tuple[int, str] | None:
        """Cheapest (movement points, hex) next to ``target_hex`` that a stack at ``start`` can get to."""
        dist, _ = self.paths_from(start)
        best = None
        for n in self.m.neighbours[target_hex]:
            if n in dist and self.limit(n) > 0:
                cand = (dist[n], n)
                if best is None or cand < best:
                    best = cand
        return best

    def plan_war(self) -> tuple[list[dict], list[dict], list[dict]]:
        mp = LAND_MP + sum(e.get("value", 0) for e in self.trait_effects("movement")
                           if e.get("units", "all") in ("all", "army"))
        stacks = self.spare_stacks()
        targets = self.war_targets()
        # the seeded dice make each bot a little bolder or more careful from turn to turn
        odds = ODDS - (0.08 if self.left <= 3 else 0) - 0.02 * (self.dice.d6("bot boldness") - 3.5)
        # 0. the sea: Fleets attack ships in reach, Transports carry Armies overseas and come back
        first, self.sea_battles, second = self.plan_sea_battles() if not self.truce else ([], [], [])
        sea_first, sea_second, shipped = self.plan_sea(stacks, targets, odds, mp)
        first += sea_first
        second += sea_second
        stacks = [(h, [a for a in armies if a not in self.shipped]) for h, armies in stacks]
        stacks = [(h, armies) for h, armies in stacks if armies]
        after_first: dict[str, str] = dict(shipped)  # army id -> hex after the first move
        # 0b. our cities short of their garrison draw the nearest spare Armies in first
        stacks = self.reinforce(stacks, mp, first, second, after_first)
        # 1. assign stacks to targets, greedily: the target ready soonest for its value
        assigned: dict[str, str] = {}  # stack hex -> target city
        free = [h for h, _ in stacks]
        size = {h: len(a) for h, a in stacks}
        reaches = {(h, cid): self.reach(h, self.m.cities[cid].hex) for h in free for cid in targets}
        chosen: list[str] = []
        enough: dict[str, bool] = {}  # chosen target -> enough Armies assigned to take it
        while free:
            best = None
            for cid in targets:
                if cid in chosen:
                    continue
                th = self.m.cities[cid].hex
                cands = sorted((reaches[(h, cid)][0], h) for h in free if reaches[(h, cid)] is not None)
                if not cands:
                    continue
                need = self.force_needed(th, cands[0][1], odds)
                if need is None:
                    continue
                got, used, ready = 0, [], 0
                for cost, h in cands:
                    if got >= need:
                        break
                    got += size[h]
                    used.append(h)
                    ready = cost
                c = self.cities[cid]
                value = self.value(cid)
                turns = ready / (2 * mp) + (0 if got >= need else 3 + (need - got))
                score = turns + need * 0.3 - value * 1.5
                if best is None or score < best[0]:
                    best = (score, cid, used, got >= need)
            if best is None:
                break
            _, cid, used, enough[cid] = best
            chosen.append(cid)
            for h in used:
                assigned[h] = cid
                free.remove(h)
        for h in free:  # the rest reinforce the nearest chosen target, or go to the nearest target
            opts = sorted((reaches[(h, cid)][0], i, cid) for i, cid in enumerate(chosen or targets)
                          if reaches.get((h, cid)) is not None)
            if opts:
                assigned[h] = opts[0][2]
        # 2. moves: each stack to a free hex next to its target, in as many pieces as the hexes hold
        for h, armies in stacks:
            if self.food(h, armies) >= len(armies):
                self.fed.update(armies)
        for h, armies in stacks:
            for a in armies:
                after_first[a] = h
            cid = assigned.get(h)
            if cid is None:
                continue
            th = self.m.cities[cid].hex
            fed = self.food(h, armies) >= len(armies)
            dist, _ = self.paths_from(h)
            goals = sorted((dist[n], n) for n in self.m.neighbours[th] if n in dist and self.limit(n) > 0)
            own_home = self.cities[cid]["home_of"] == self.pid
            if goals and (not fed or (own_home and not enough.get(cid, True))):
                # without Baggage a stack waits in supply (R-PH-UPK): it gathers near a target it is not yet
                # strong enough for, and stops short of a target it cannot reach in the first move, at a
                # hex in supply from which the next first move reaches it (then it attacks at once).  Short of
                # the force to retake our own home, every stack gathers there, fed or not, rather than trickling
                # in to be beaten one by one
                if not enough.get(cid, True):
                    spot = self.supply_near(h, len(armies), toward=th)
                elif goals[0][0] > mp:
                    spot = self.staging(h, th, len(armies), mp)
                    if spot is None and self.stocks_baggage(h, len(armies)):
                        spot = h  # a long march: it leaves next turn with the Baggage bought here now
                else:
                    spot = None
                if spot is not None:
                    if spot != h:
                        self.march(h, spot, armies, extras=self.companions(h), mp=mp, first=first, second=second,
                                   after_first=after_first)
                    for a in armies:
                        self.aim[a] = None
                    continue
            for a in armies:
                self.aim[a] = th
            if self.m.distance(h, th) == 1:
                continue  # already there
            rest = list(armies)
            extras = self.companions(h)
            for _, goal in goals:
                if not rest:
                    break
                free_room = self.limit(goal) - self.stack(goal) - self.planned.get(goal, 0)
                if free_room <= 0:
                    continue
                chunk, rest = rest[:free_room], rest[free_room:]
                if not self.march(h, goal, chunk, extras, mp, first, second, after_first):
                    rest = chunk + rest
        # 3. attacks after the first move: cities first (by value), then enemy stacks in the open
        attacks = []
        busy: set[str] = set()
        moving_on = {a for m in second for a in m["units"]} | self.fetched
        cands = []
        for cid in targets:
            c = self.cities[cid]
            cands.append((-self.value(cid), self.m.cities[cid].hex, odds))
        for h in sorted(self.foe):
            if self.m.city_at.get(h) is None and self.land_foes(h) > 0 and self.m.terrain[h].land:
                cands.append((0.0, h, ODDS_FIELD))
        hand = list(self.hand)
        for _, th, need_odds in sorted(cands):
            groups: dict[str, list[str]] = {}
            for a, ah in sorted(after_first.items(), key=lambda kv: id_order(kv[0])):
                if a not in busy and a not in moving_on and self.m.distance(ah, th) == 1:
                    groups.setdefault(ah, []).append(a)
            if not groups:
                continue
            if any(self.hungry(a) and a not in self.fed and not self.supplied(ah)
                   for ah, g in groups.items() for a in g):
                need_odds -= STARVING_BOLDNESS  # staying costs them: an upkeep roll each turn (R-PH-UPK)
            counts = {gh: len(v) for gh, v in groups.items()}
            usable = [c for c in self.attack_cards_for(th, hand)][:2]
            chance = win_chance(self.attack_stats(counts, th, usable), self.defence_stats(th))
            if chance < need_odds:
                continue
            units = [a for gh in sorted(groups) for a in groups[gh]]
            attack: dict[str, Any] = {"units": units, "target": th}
            if usable:
                attack["cards"] = [{"card": c, "if_needed": True} for c in usable]
                for c in usable:
                    hand.remove(c)
            if self.foreign_city(th):  # Treasure: gold when we capture a city, played only if we do (R-BAT-5)
                for c in [c for c in hand if self.t.cards[c].timing.get("trigger") == "city_captured"][:1]:
                    attack.setdefault("cards", []).append(c)
                    hand.remove(c)
            attacks.append(attack)
            busy.update(units)
        self.hand = hand
        self.back_to_supply(after_first, busy, second, mp)
        # 4. Armies landed in the first move walk on towards their target
        for arm, L, th in self._walks:  # (with the Baggage landed with them: Armies pick it up, R-PH-MOVE)
            food = [a for a in arm if self.units[a]["type"] == "baggage"]
            arm = [a for a in arm if a not in busy and self.units[a]["type"] == "army"]
            dist, _ = self.paths_from(L)
            goals = sorted((dist[n], n) for n in self.m.neighbours[th] if n in dist and self.room(n) >= len(arm))
            if not arm or not goals:
                continue
            leg1, _ = self.legs(L, self.path_to(L, goals[0][1]), len(arm), mp)
            if leg1:
                second.append({"units": arm + food[:BAGGAGE_PER_ARMY * len(arm)], "path": leg1, "partial": True})
                self.planned[leg1[-1]] = self.planned.get(leg1[-1], 0) + len(arm)
        # 5. leaders that would end the turn with no Army or Rowers of ours walk to safety
        self.lone_leaders(first, second, busy)
        return first, attacks, second

    def reinforce(self, stacks: list[tuple[str, list[str]]], mp: int, first: list[dict], second: list[dict],
                  after_first: dict[str, str]) -> list[tuple[str, list[str]]]:
        """Spare Armies march into our cities short of their garrison (``garrison``), the nearest first: the
        home city first, then the cities no Army holds (one just gained by diplomacy, or taken by an attack
        that moved one Army in, R-BAT-4: the others of the attack stand next to it), then the rest.  A
        minor city draws from two moves away (in this turn), the home city from twice as far.  Returns the
        stacks left for the targets."""
        pool = {h: list(armies) for h, armies in stacks}
        needs = sorted((self.m.cities[cid].hex != self.home_hex, bool(self.armies_at(self.m.cities[cid].hex)),
                        cid) for cid in self.mine_cities if self.short(self.m.cities[cid].hex) > 0)
        for _, _, cid in needs:
            ch = self.m.cities[cid].hex
            n = self.short(ch)
            reach = REINFORCE_REACH * mp * (2 if ch == self.home_hex else 1)
            cands = []
            for h in sorted(pool):
                if not pool[h] or h == ch:
                    continue
                d = self.paths_from(h)[0].get(ch)
                if d is not None and d <= reach:
                    cands.append((d, h))
            for _, h in sorted(cands):
                if n <= 0:
                    break
                take = pool[h][:n]
                extras = self.companions(h) if len(take) == len(pool[h]) else []
                if self.room(ch) < len(take):
                    take = take[:max(0, self.room(ch))]
                    extras = []
                if not take or not self.march(h, ch, take, extras=extras, mp=mp, first=first, second=second,
                                              after_first=after_first):
                    continue
                for a in take:
                    self.aim[a] = None
                pool[h] = [a for a in pool[h] if a not in take]
                n -= len(take)
        return [(h, pool[h]) for h, _ in stacks if pool[h]]

    def staging(self, h: str, th: str, n: int, mp: int) -> str | None:
        """A hex in supply that ``n`` Armies at ``h`` reach and from which one move takes them next to ``th``
        (the nearest to ``h``), or None."""
        dist, _ = self.paths_from(h)
        best = None
        for x in sorted(dist):
            if self.m.distance(x, th) > mp + 1 or not self.may_camp(x, h, n):
                continue
            near, _ = self.paths_from(x)
            if any(near.get(g, mp + 1) <= mp for g in self.m.neighbours[th] if self.limit(g) > 0):
                if best is None or (dist[x], x) < best:
                    best = (dist[x], x)
        return None if best is None else best[1]

    def march(self, h: str, goal: str, armies: list[str], extras: list[str], mp: int, first: list[dict],
              second: list[dict], after_first: dict[str, str]) -> bool:
        """``armies`` of the stack at ``h`` march on ``goal`` (both moves, as far as they get), with leaders and
        Baggage of ``extras``; False if they cannot move at all."""
        leg1, leg2 = self.legs(h, self.path_to(h, goal), len(armies), mp)
        if not leg1:
            return False
        going = self.take_companions(extras, armies)
        first.append({"units": armies + going, "path": leg1, "partial": True})
        for a in armies:
            after_first[a] = leg1[-1]
        # stacking, conservatively: a hex counts the units that stop in it after either move
        self.planned[leg1[-1]] = self.planned.get(leg1[-1], 0) + len(armies)
        if leg2:
            leaders = [u for u in going if self.units[u]["type"] == "leader"]
            second.append({"units": armies + leaders, "path": leg2, "partial": True})
            self.planned[leg2[-1]] = self.planned.get(leg2[-1], 0) + len(armies)
        return True

    def back_to_supply(self, after_first: dict[str, str], busy: set[str], second: list[dict], mp: int) -> None:
        """Armies that fight no battle this turn and would end it out of supply with no Baggage go back into
        supply in the second move when they can (R-PH-UPK: else an upkeep roll, 1 in 6 and worse with each
        starvation counter, disbands them).  A fresh stack on its way to a target far from any supply goes on."""
        end = dict(after_first)
        for m in second:
            for u in m["units"]:
                if u in end:
                    end[u] = m["path"][-1]
        groups: dict[str, list[str]] = {}
        for a in sorted(after_first, key=id_order):
            if a in busy or a in self.fed or a not in self.units or self.units[a]["type"] != "army" \
                    or self.supplied(end[a]) or a in self.shipped:
                continue
            aim = self.aim.get(a)
            if not self.hungry(a) and aim is not None and self.staging(after_first[a], aim, 1, mp) is None:
                continue
            groups.setdefault(after_first[a], []).append(a)
        for h in sorted(groups):
            armies = groups[h]
            spot = self.supply_near(h, len(armies), within=mp)
            if spot is None or spot == h:
                continue
            path = self.path_to(h, spot)
            moving = set(armies)
            for m in list(second):
                if moving & set(m["units"]):
                    m["units"] = [u for u in m["units"] if u not in moving]
                    if not any(self.units[u]["type"] == "army" for u in m["units"]):
                        second.remove(m)
            second.append({"units": armies, "path": path, "partial": True})
            self.planned[spot] = self.planned.get(spot, 0) + len(armies)

    # -- leaders left alone ----------------------------------------------------------------------------
    def guarded_ends(self, first: list[dict], second: list[dict],
                     busy: set[str]) -> tuple[dict[str, str], set[str], set[str]]:
        """Where each unit of ours that moves in the first move stands after it, by the plan; the hexes where
        an Army or Rowers of ours ends the turn on land (not aboard); and those of them where it fights no
        battle this turn (after a battle the stack may be gone: a leader does not walk there to join it)."""
        pos = {uid: u["hex"] for uid, u in self.units.items() if not u.get("carried_by")}
        aboard = {uid for uid, u in self.units.items() if u.get("carried_by")}
        after1: dict[str, str] = {}
        for phase in (first, second):
            for m in phase:
                units = list(m["units"]) + list(m.get("load", ()))
                ships = any(self.units.get(u, {}).get("type") in ("fleet", "transport") for u in m["units"])
                ashore = set(m.get("unload", ()))
                for u in units:
                    pos[u] = m["path"][-1]
                    if ships and self.units.get(u, {}).get("type") not in ("fleet", "transport"):
                        if u in ashore:
                            aboard.discard(u)
                        else:
                            aboard.add(u)
                for u in ashore:
                    pos[u] = m["path"][-1]
                    aboard.discard(u)
                if phase is first:
                    after1.update((u, m["path"][-1]) for u in units)
        # an Army may disband in the Upkeep phase, which comes before our moves (R-PH-UPK): unpaid and unfed it
        # rolls 1D6 + its starvation counters, 6+ disbands.  A hex is guarded when its Armies and Rowers
        # likely keep at least one of them
        lost: dict[str, float] = {}
        fights: dict[str, bool] = {}
        carriers = {x.get("carried_by") for x in self.units.values() if x["type"] == "baggage"}
        for u, x in self.units.items():
            if x["type"] not in ("army", "rowers") or u not in pos or u in aboard:
                continue
            h = pos[u]
            risk = 0.0 if u in self.fed or self.supplied(x["hex"]) or u in carriers \
                else min(1.0, (x.get("starvation", 0) + 1) / 6)
            lost[h] = lost.get(h, 1.0) * risk
            fights[h] = fights.get(h, False) or u in busy
        guarded = {h for h, p in lost.items() if p <= 1 / 3}
        return after1, guarded, {h for h in guarded if not fights[h]}

    def leader_safe(self, h: str) -> bool:
        """No enemy unit that captures a lone leader (Army, Rowers, manned Fleet, or a Transport that may carry
        one) is in sight in or next to ``h`` (R-UNIT-3)."""
        return not any(x in self.foe and any(self.foe[x].get(t) for t in (
            "army", "rowers", "fleet", "transport", "pirate", "barbarian")) for x in (h, *self.m.neighbours[h]))

    def leader_room(self, h: str, far: int = 5) -> int:
        """How far (up to ``far``) ``h`` is from the nearest enemy unit in sight that captures a lone leader."""
        return min([far] + [self.m.distance(h, x) for x in self.blocked if self.m.distance(h, x) < far])

    def leader_paths(self, start: str, cap: int | None = None) -> tuple[dict[str, int], dict[str, str]]:
        """A leader walking alone: land hexes, never into a foreign city or a hex holding any enemy unit in
        sight (R-PH-MOVE: a stack of Leaders alone may not enter one)."""
        def steps(h: str) -> Iterable[tuple[str, int]]:
            for n in self.m.neighbours[h]:
                t = self.m.terrain[n]
                if t.land and t.move_cost is not None and n not in self.foe and not self.foreign_city(n):
                    yield n, t.move_cost
        return cheapest(start, steps, cap)

    def lone_leaders(self, first: list[dict], second: list[dict], busy: set[str]) -> None:
        """A Leader with no Army or Rowers of ours in its hex at the end of the turn (as planned: after both
        moves) is captured by the first enemy stack that enters it (R-UNIT-4: ransom or death).  It walks, with
        both moves, to the nearest of our cities in supply and not besieged, or to the nearest hex where a
        stack of ours ends the turn within its reach; neither move ends alone next to an enemy unit in sight
        when it can help it."""
        lmp = BASE_MP[UnitType.LEADER]
        after1, guarded, joinable = self.guarded_ends(first, second, busy)
        in_second = {u for m in second for u in (*m["units"], *m.get("load", ()))}  # taken aboard: not alone
        in_ships = {u for m in first for u in (*m["units"], *m.get("load", ()))
                    if any(self.units.get(x, {}).get("type") in ("fleet", "transport") for x in m["units"])}
        havens = {h for h in self.own_city_hexes if self.supplied(h) and not self.besieged(h)
                  and not self.cities[self.m.city_at[h].id]["razed"]}
        for leader in sorted(self.mine("leader"), key=lambda u: id_order(u["id"])):
            uid = leader["id"]
            if leader.get("carried_by") or uid in in_ships or uid in in_second:
                continue
            start = after1.get(uid, leader["hex"])
            if not self.m.terrain[start].land or start in guarded or start in havens:
                continue
            moves = 1 if uid in after1 else 2  # a leader that went with a stack in the first move has one left
            dist, _ = self.leader_paths(start)
            goals = [(d, h not in havens, h) for h, d in dist.items()
                     if h in havens or (h in joinable and d <= moves * lmp)]
            if goals:
                goal = min(goals)[2]
                togo = self.leader_togo(goal)
            elif self.leader_safe(start):
                continue
            else:  # nowhere to go (no city, no stack in reach): at least away from the enemy in sight
                goal, togo = None, {h: 0 for h in dist}
            # the ends of the moves: the end of the turn nearest the goal, each stop safe when it can be
            best = None
            d1, p1 = self.leader_paths(start, lmp) if moves == 2 else ({start: 0}, {})
            for y in sorted(d1):
                if y != start and not (self.leader_safe(y) or y == goal):
                    continue
                d2, p2 = self.leader_paths(y, lmp)
                for z, c in d2.items():
                    if z not in togo:
                        continue
                    ok = z == goal or z in guarded or z in havens or self.leader_safe(z)
                    key = (not ok, togo[z], -self.leader_room(z), d1[y] + c, y, z)
                    if best is None or key < best[0]:
                        best = (key, y, walk_back(d1, p1, start, y), walk_back(d2, p2, y, z))
            if best is None:
                continue
            _, y, leg1, leg2 = best
            if moves == 2:
                if leg1:
                    first.append({"units": [uid], "path": leg1, "partial": True})
                if leg2:
                    second.append({"units": [uid], "path": leg2, "partial": True})
            elif leg2:
                second.append({"units": [uid], "path": leg2, "partial": True})

    def leader_togo(self, goal: str) -> dict[str, int]:
        """Movement points a leader alone needs from each hex to ``goal`` (the search run backwards)."""
        def steps(h: str) -> Iterable[tuple[str, int]]:
            cost = self.m.terrain[h].move_cost
            for n in self.m.neighbours[h]:
                t = self.m.terrain[n]
                if t.land and t.move_cost is not None and n not in self.foe and not self.foreign_city(n):
                    yield n, cost
        return cheapest(goal, steps)[0]

    def attack_cards_for(self, th: str, hand: list[str]) -> list[str]:
        saved, self.hand = self.hand, hand
        try:
            return self.attack_cards(th)
        finally:
            self.hand = saved

    def siege_stock(self, h: str) -> int:
        """Loose Baggage kept in our city at ``h`` for its garrison: a city under siege feeds no upkeep, and a
        besieged city recruits nothing (R-PH-UPK, R-PH-REC), so it is laid in before."""
        if h not in self.own_city_hexes:
            return 0
        return SIEGE_STOCK * min(self.garrison(h), len(self.armies_at(h)) or 1)

    def companions(self, h: str) -> list[str]:
        """Leaders with battle skills and loose Baggage in ``h`` that go with the first stack leaving it (the
        garrison's siege stock stays)."""
        out = []
        bags = [u for u in self.at(h) if u["type"] == "baggage"]
        keep = {u["id"] for u in sorted(bags, key=lambda u: id_order(u["id"]))[:self.siege_stock(h)]}
        for u in sorted(self.at(h), key=lambda u: id_order(u["id"])):
            if u["type"] == "baggage":
                if u["id"] not in keep and u["id"] not in self.bag_shipped:
                    out.append(u["id"])
            elif u["type"] == "leader" and self.fighter(u):
                out.append(u["id"])
        return out

    def carried_baggage(self, armies: list[str]) -> list[str]:
        """The Baggage ``armies`` carry (by id)."""
        mine = set(armies)
        return sorted((u["id"] for u in self.units.values() if u["type"] == "baggage" and u.get("carried_by") in mine),
                      key=id_order)

    def loose_baggage(self, h: str) -> list[str]:
        """The loose Baggage in ``h`` that may go with a stack leaving it (``companions``)."""
        return [u for u in self.companions(h) if self.units[u]["type"] == "baggage"]

    def fighter(self, leader: dict) -> bool:
        """The leader has a skill for battles."""
        return any(e["kind"] in ("roll_modifier", "battle_total") for s in leader.get("skills", [])
                   for e in self.t.skills[s].effects)

    def take_companions(self, extras: list[str], armies: list[str]) -> list[str]:
        """Of ``extras``, what goes with ``armies``: the leaders, and loose Baggage up to what the Armies have
        room for (4 each, less what they carry already, R-UNIT-1)."""
        taken, bag = [], sum(1 for u in self.units.values() if u["type"] == "baggage" and u.get("carried_by") in armies)
        for uid in list(extras):
            if self.units[uid]["type"] == "baggage":
                if bag >= BAGGAGE_PER_ARMY * len(armies):
                    continue
                bag += 1
            taken.append(uid)
            extras.remove(uid)
        return taken

    def legs(self, start: str, path: list[str], n: int, mp: int) -> tuple[list[str], list[str]]:
        """The first and second move along ``path`` for ``n`` units: within movement points, each ending in
        a hex with room for them."""
        def leg(frm: int) -> int:
            cost, end = 0, frm
            for i in range(frm, len(path)):
                cost += self.m.terrain[path[i]].move_cost
                if cost > mp:
                    break
                if self.room(path[i]) >= n:
                    end = i + 1
            return end
        e1 = leg(0)
        if e1 == 0:
            return [], []
        e2 = leg(e1)
        return path[:e1], path[e1:e2]

    # -- the sea -------------------------------------------------------------------------------------
    def ship_mp(self, utype: str) -> int:
        return SHIP_MP[utype] + sum(e.get("value", 0) for e in self.trait_effects("movement")
                                    if e.get("units", "all") in ("all", "ships", utype))

    def cargo(self, uid: str) -> list[dict]:
        return [u for u in self.units.values() if u.get("carried_by") == uid]

    def manned(self, fleet: dict) -> bool:
        return any(u["type"] == "rowers" for u in self.cargo(fleet["id"]))

    def sea_paths_from(self, start: str, cap: int = SEA_REACH) -> tuple[dict[str, int], dict[str, str]]:
        """Cheapest sea paths from ``start`` (movement points, up to ``cap``), around every hex where other
        factions' units are in sight and around foreign cities (R-PH-MOVE)."""
        found = self._sea.get((start, cap))
        if found is not None:
            return found
        adj = sea_graph(self.m)
        dist, prev = cheapest(start, lambda h: ((n, step) for n, step in adj[h]
                                                 if n not in self.foe and n not in self.foreign), cap)
        self._sea[(start, cap)] = (dist, prev)
        return dist, prev

    def sea_path(self, start: str, goal: str, cap: int = SEA_REACH) -> list[str]:
        return walk_back(*self.sea_paths_from(start, cap), start, goal)

    def voyage(self, start: str, goal: str, n: int, smp: int, hungry: bool = False
               ) -> tuple[list[str], list[str]] | None:
        """The first and second move of ships weighing ``n`` for stacking (with what they carry) from ``start``
        to ``goal``: in one move, or in two through a hex where they are safe should the second move fail
        (never a plan that may leave them at sea).  With ``hungry`` (they carry Armies without Baggage for them
        all) the hex halfway is in supply (``supplied``: our city in or next to it), so that Armies whose
        second move fails (others reached its end first) are paid their upkeep where they wait (R-PH-UPK);
        with none such, there is no voyage in two moves.  Of the hexes that will do, the nearest with no other
        faction's land forces in sight in or next to it (``quiet``: less likely to be filled before we come)."""
        d, _ = self.sea_paths_from(start, smp)
        if goal in d:
            return self.sea_path(start, goal, smp), []
        ways = self._hops.get((start, smp))
        if ways is None:  # the safe waypoints one move away: quiet ones first, nearest first
            ways = [w for _, _, w in sorted((not self.quiet(w), c, w) for w, c in d.items()
                                            if w != start and self.safe(w))]
            self._hops[(start, smp)] = ways
        for w in ways:
            if hungry and not self.supplied(w):
                continue
            if self.m.distance(w, goal) <= smp and self.room(w) >= n and goal in self.sea_paths_from(w, smp)[0]:
                return self.sea_path(start, w, smp), self.sea_path(w, goal, smp)
        return None

    def quiet(self, h: str) -> bool:
        """No land forces of other factions in sight in or next to ``h``."""
        return not any(self.land_foes(x) > 0 for x in (h, *self.m.neighbours[h]) if x in self.foe)

    def safe(self, h: str) -> bool:
        """Ships end a second move here without a navigation roll, and may stop here."""
        return self.m.ship_may_stop(h) and not self.foreign_city(h)

    def landings(self, th: str) -> dict[str, int]:
        """Beaches and ports (ours) from which landed Armies walk next to ``th``: hex -> movement points."""
        found = self._landings.get(th)
        if found is not None:
            return found
        dist: dict[str, int] = {}
        heap = []
        for n in self.m.neighbours[th]:
            t = self.m.terrain[n]
            if t.land and t.move_cost is not None and n not in self.blocked and not self.foreign_city(n) \
                    and self.limit(n) > 0:
                dist[n] = 0
                heap.append((0, n))
        heapq.heapify(heap)
        while heap:
            cost, h = heapq.heappop(heap)
            if cost > dist[h]:
                continue
            for n in self.m.neighbours[h]:
                t = self.m.terrain[n]
                if not t.land or t.move_cost is None or n in self.blocked or self.foreign_city(n) or n == th:
                    continue
                c = cost + self.m.terrain[h].move_cost
                if c <= LAND_WALK and c < dist.get(n, 1 << 30):
                    dist[n] = c
                    heapq.heappush(heap, (c, n))
        out = {h: c for h, c in dist.items() if self.m.ship_may_stop(h)}
        self._landings[th] = out
        return out

    def land_score(self, h: str, targets: list[str], odds: float, mp: int) -> float:
        best = 99.0
        for cid in targets:
            th = self.m.cities[cid].hex
            r = self.reach(h, th)
            if r is None:
                continue
            need = self.force_needed(th, h, odds)
            if need is None:
                continue
            best = min(best, r[0] / (2 * mp) + need * 0.3 - self.value(cid) * 1.5)
        return best

    def value(self, cid: str) -> float:
        c = self.cities[cid]
        own_home = OWN_HOME_VALUE if c["home_of"] == self.pid else 0  # ours, held by an enemy: first of all
        return 1 + c["income"] / 4 + (1.5 if c["home_of"] else 0) + own_home

    def sea_option(self, start: str, targets: list[str], odds: float, mp: int, pairs: int = 0,
                   armies: int = 0) -> tuple | None:
        """The best target to carry Armies to from ``start`` by Transport: (score, city, [(landing, walk)],
        strike).  ``pairs`` Armies can sail now (a Transport each), ``armies`` could with Transports enough.

        An island city (``island``) is a strike: its beach is the only ground next to it, Armies put ashore there
        can only attack, and they are fed only once the city is ours (R-PH-UPK).  It is a target only when the
        Armies that can land next to it (the beach's stacking limit counts the Transports, R-UNIT-2) with ours
        already there win at the odds, with our attack cards (``strike_chance``); a port that could strike with
        more Transports wants one (``strike_wants``).  A strike takes the city this turn or the next, so it is
        not handicapped against a march as a landing that still has to walk is (SEA_PENALTY)."""
        smp = self.ship_mp("transport")
        sd, _ = self.sea_paths_from(start)
        best = None
        for cid in targets:
            th = self.m.cities[cid].hex
            if self.m.distance(start, th) > 2 * smp + LAND_WALK:
                continue
            strike = self.island(th)  # (no Baggage goes along: the Armies sail hungry)
            spots = sorted((lc, sd[L], L) for L, lc in self.landings(th).items()
                           if L in sd and L != start and sd[L] <= 2 * smp and self.quiet(L)
                           and self.voyage(start, L, 2, smp, hungry=strike) is not None)
            if not spots:
                continue
            lc, d, L = spots[0]
            wait = 0  # a strike: turns until the attack beyond this one's
            if strike:
                most = max(pairs, armies)
                if self.strike_chance(start, th, spots, most, most, sail=False) < odds:
                    continue
                if self.strike_chance(start, th, spots, pairs) >= odds:
                    pass
                elif pairs and armies > pairs and self.strike_chance(start, th, spots, pairs, armies) >= odds:
                    wait = 1  # land now, the rest next turn, then attack
                elif armies > pairs and max(self.strike_chance(start, th, spots, armies),
                                            self.strike_chance(start, th, spots, armies, armies)) >= odds:
                    wait = 2  # only with more Transports
                else:
                    continue
            need = self.force_needed(th, L, odds)
            if need is None:
                continue
            eta = (0.5 if d <= smp and lc == 0 else 1) + lc / (2 * mp)
            score = eta + wait + (0 if strike else 1) + need * 0.3 - self.value(cid) * 1.5
            if wait == 2:
                self.strike_wants[start] = min(score, self.strike_wants.get(start, score))
                continue
            if best is None or score < best[0]:
                best = (score, cid, [(L2, lc2) for lc2, _, L2 in spots], strike)
        return best

    def island(self, th: str) -> bool:
        """Every landing place for ``th`` is next to it (Aegina, Melos, Samos, ...): landed Armies cannot walk
        anywhere but into the attack."""
        spots = self.landings(th)
        return bool(spots) and all(lc == 0 for lc in spots.values())

    def strike_chance(self, start: str, th: str, spots: list[tuple[int, int, str]], n: int,
                      avail: int | None = None, sail: bool = True) -> float:
        """The chance that Armies from ``start``, landed on the ``spots`` (as ``plan_sea`` lands them: a
        Transport with each Army, ``n`` at a time) with ours already next to ``th``, attack it and win, with our
        attack cards.  With ``avail`` (the Armies that may sail in all), a build-up: they land in two voyages,
        this turn's and the next turn's (the Transports are back in port in between), and attack then.  Without
        ``sail``, every landing place is taken as in reach (an upper bound, quick)."""
        smp = self.ship_mp("transport")
        groups: dict[str, int] = {}
        for x in self.m.neighbours[th]:
            k = len(self.armies_at(x)) if self.m.terrain[x].land else 0
            if k:
                groups[x] = k
        left = n if avail is None else avail
        landed: dict[str, int] = {}
        for voyage in range(1 if avail is None else 2):
            boats = min(n, left)
            for _, d, L in spots:
                if avail is not None and d > smp:
                    continue  # a build-up sails one move there and back
                # this turn the Transports stand with their Armies; the next, the first voyage's have sailed home
                room = self.room(L) if voyage == 0 else self.limit(L) - self.stack(L) - landed.get(L, 0)
                k = min(boats, max(0, room) // 2, 4)
                if k and (not sail or self.voyage(start, L, 2 * k, smp, hungry=True)):
                    groups[L] = groups.get(L, 0) + k
                    landed[L] = landed.get(L, 0) + k
                    boats -= k
                    left -= k
        if not groups:
            return 0.0
        cards = self.attack_cards(th)[:2]
        return win_chance(self.attack_stats(groups, th, cards), self.defence_stats(th))

    def sea_ports(self) -> list[str]:
        """Our coastal cities that may recruit ships and load Armies."""
        return [self.m.cities[cid].hex for cid in self.mine_cities if self.safe(self.m.cities[cid].hex)
                and self.m.cities[cid].hex in self.m.coastal]

    def empty_transports(self, h: str) -> list[str]:
        return sorted((u["id"] for u in self.at(h) if u["type"] == "transport" and not self.cargo(u["id"])),
                      key=id_order)

    def plan_sea(self, stacks: list[tuple[str, list[str]]], targets: list[str], odds: float, mp: int):
        """Armies carried by Transport to the cities they cannot reach by land, empty Transports back to
        port, and sea battles.  Returns (first moves, second moves, army -> hex after the first move,
        sea battles, second-move marches of the landed Armies)."""
        first: list[dict] = []
        second: list[dict] = []
        after: dict[str, str] = {}
        smp = self.ship_mp("transport")
        spare = dict(stacks)
        self.transport_wants = {}
        # 1. loaded Transports (a voyage cut short) and spare Armies in port with empty Transports
        sources: dict[str, tuple[list[tuple[str, str]], list[str]]] = {}  # hex -> (loaded (T, A)), armies
        for u in sorted(self.mine("transport"), key=lambda u: id_order(u["id"])):
            if u.get("carried_by"):
                continue
            load = [c for c in self.cargo(u["id"]) if c["type"] == "army"]
            if load:
                sources.setdefault(u["hex"], ([], []))[0].append((u["id"], load[0]["id"]))
        for h in self.sea_ports():
            if spare.get(h):
                sources.setdefault(h, ([], []))[1].extend(spare[h])
        stages = {self.staging_beach(p): p for p in self.sea_ports()}
        stages.pop(None, None)
        used_t: set[str] = set()
        sailing: dict[str, int] = {}  # target hex -> Armies sailing for it this turn
        for h, armies in sorted(spare.items()):  # a strike force gathering on a beach next to its port
            if h not in stages:
                continue
            port = stages[h]
            ships = self.empty_transports(h)
            for t in self.empty_transports(port)[:max(0, len(armies) - len(ships))]:
                if self.room(h) < 1:
                    break
                first.append({"units": [t], "path": [h]})  # the port's new Transport joins them
                self.planned[h] = self.planned.get(h, 0) + 1
                used_t.add(t)
            sources.setdefault(h, ([], []))[1].extend(armies)
        for h in sorted(sources):
            loaded, armies = sources[h]
            empties = [t for t in self.empty_transports(h) if t not in used_t] if self.safe(h) else []
            opt = self.sea_option(h, targets, odds, mp, len(loaded) + min(len(empties), len(armies)),
                                  len(loaded) + len(armies))
            land = self.land_score(h, targets, odds, mp) if armies and not loaded else None
            if land is not None and opt is not None and opt[0] + (0 if opt[3] else SEA_PENALTY) >= land:
                opt = None
            boats = len(loaded) + min(len(empties), len(armies))
            if h in self.strike_wants and (land is None or self.strike_wants[h] < land) \
                    and (opt is None or self.strike_wants[h] < opt[0]) \
                    or opt is not None and not boats and len(armies) >= 2:
                self.gather(h, stages.get(h), [a for a in armies if a not in self.shipped], empties, first, after,
                            used_t)
                if not boats:
                    opt = None
            if opt is None:
                self.bring_ashore(h, loaded, smp, first, second, used_t)
                continue
            _, cid, spots, strike = opt
            pairs = list(loaded) + list(zip(empties, armies))
            th = self.m.cities[cid].hex
            # Armies going aboard set their Baggage down (R-PH-MOVE), and ashore away from our cities each makes an
            # upkeep roll a turn (R-PH-UPK): a landing out of supply takes a Transport of the port's loose Baggage
            # along, or else sails only with the force to take the city soon (with ours already near it)
            spare_ships = [t for t in empties[len(armies):] if t not in used_t]
            bags = [] if strike else self.loose_baggage(h)
            need = None if strike else self.force_needed(th, spots[0][0], odds)
            near = sailing.get(th, 0) + sum(1 for u in self.mine("army") if not u.get("carried_by")
                                            and u["id"] not in self.shipped and self.m.distance(u["hex"], th) <= 2)
            for L, lc in spots:
                if not pairs:
                    break
                k = min(len(pairs), max(0, self.room(L)) // 2, 4)
                fed = strike or self.supplied(L) or (need is not None and near + k >= need)
                if not fed and not spare_ships and k >= 2 and (bags or self.carried_baggage([pairs[0][1]])) \
                        and pairs[-1][0] not in dict(loaded):
                    ship, _ = pairs.pop()  # its Transport carries the Baggage instead: its Army waits in port
                    spare_ships.append(ship)
                    k = min(k, len(pairs))
                carried = [b for b in self.carried_baggage([a for _, a in pairs[:k]])]
                carry = bool(not fed and spare_ships and (bags or carried))
                if carry and 2 * k + 1 > self.room(L):
                    k -= 1
                    carried = [b for b in self.carried_baggage([a for _, a in pairs[:k]])]
                    carry = bool(bags or carried)
                if not k:
                    continue
                if not (fed or carry) and (need is None or near + k < need - LANDING_SHORT):
                    if self.m.city_at.get(h) and self.room(h) > 0:
                        self.transport_wants[h] = 1  # a Transport for the Baggage
                    continue
                legs = self.voyage(h, L, 2 * k + carry, smp, hungry=not carry)  # each Transport with its Army
                if not legs:
                    continue
                chunk, pairs = pairs[:k], pairs[k:]
                ts = [t for t, _ in chunk]
                arm = [a for _, a in chunk]
                food: list[str] = []
                if carry:  # what the Armies carried (set down as they go aboard) and loose Baggage, 8 at most
                    ts.append(spare_ships.pop(0))
                    room = min(8, BAGGAGE_PER_ARMY * k)
                    food = carried[:room]
                    food, bags = food + bags[:room - len(food)], bags[room - len(food):]
                    self.bag_shipped.update(food)
                self.shipped.update(arm)
                sailing[th] = sailing.get(th, 0) + k
                near += k
                new = [a for a in arm if self.units[a].get("carried_by") is None] + food
                order: dict[str, Any] = {"units": ts, "path": legs[0]}
                if new:
                    order["load"] = new
                used_t.update(ts)
                self.planned[L] = self.planned.get(L, 0) + 2 * k + carry
                if not legs[1]:
                    order["unload"] = arm + food
                    first.append(order)
                    for a in arm:
                        after[a] = L
                    back = self.sea_path(L, h, smp) if self.safe(h) else []
                    if back:
                        second.append({"units": ts, "path": back})
                    if lc > 0:
                        self._walks.append((arm + food, L, th))
                else:
                    first.append(order)
                    self.planned[legs[0][-1]] = self.planned.get(legs[0][-1], 0) + 2 * k + carry
                    second.append({"units": ts, "path": legs[1], "unload": arm + food})
            self.bring_ashore(h, [(t, a) for t, a in loaded if t not in used_t], smp, first, second, used_t)
        # 1b. Armies cut off out of supply that cannot attack are fetched by the Transports left
        self.fetch(stacks, targets, odds, first, second, after, used_t, sailing)
        # 2. empty Transports away from our ports go home (but those gathering a strike force on a beach)
        for u in sorted(self.mine("transport"), key=lambda u: id_order(u["id"])):
            if u["id"] in used_t or u.get("carried_by") or self.cargo(u["id"]):
                continue
            if u["hex"] in stages and self.armies_at(u["hex"]):
                continue
            c = self.m.city_at.get(u["hex"])
            if c is not None and self.cities[c.id]["controller"] == self.pid:
                continue
            self.send_home([u["id"]], first, second)
        return first, second, after

    def attack_now(self, th: str, spare: dict[str, list[str]], odds: float) -> bool:
        """Our spare Armies next to the city at ``th`` (``spare``: hex -> Armies) win an attack on it this turn at
        the odds starving Armies ask (STARVING_BOLDNESS), with our attack cards; never under a Truce."""
        groups = {x: len(spare[x]) for x in self.m.neighbours[th] if spare.get(x) and self.m.terrain[x].land}
        if self.truce or not groups:
            return False
        chance = win_chance(self.attack_stats(groups, th, self.attack_cards(th)[:2]), self.defence_stats(th))
        return chance >= odds - STARVING_BOLDNESS

    def stranded(self, h: str, armies: list[str]) -> bool:
        """Our ``armies`` in ``h`` stand out of supply with no Baggage for them all: each makes an upkeep roll
        every turn they stay (R-PH-UPK)."""
        return not self.supplied(h) and self.food(h, armies) < len(armies)

    def fetch(self, stacks: list[tuple[str, list[str]]], targets: list[str], odds: float, first: list[dict],
              second: list[dict], after: dict[str, str], used_t: set[str], sailing: dict[str, int]) -> None:
        """Armies of ours cut off out of supply (``stranded``, and no hex in supply that they reach by land: an
        island's beach after a strike that failed or was called off) go home by sea, unless they win an attack on
        a city next to them this turn (``attack_now``) or a landing of ours joins them there this turn.  Empty
        Transports not sailing for a landing fetch them, the nearest first: one at their beach takes its Army
        aboard and sails to the nearest hex in supply where ships may stop (our port, or a beach next to a city
        of ours) and puts it ashore; one within a move sails there in the First Move, takes the Army aboard and
        sails on in the Second; one farther sails there this turn and takes it aboard next turn.  The leaders on
        the beach go aboard with the last Armies.  With no Transport to come, the nearest port of ours recruits
        one (R-PH-REC)."""
        smp = self.ship_mp("transport")
        spare = {h: [a for a in armies if a not in self.shipped] for h, armies in stacks}
        for h in sorted(spare):
            armies = spare[h]
            if not armies or not self.m.ship_may_stop(h) or not self.stranded(h, armies) \
                    or self.supply_near(h, len(armies)) is not None:
                continue
            near = [self.m.cities[cid].hex for cid in targets if self.m.distance(self.m.cities[cid].hex, h) == 1]
            if any(sailing.get(th) or self.attack_now(th, spare, odds) for th in near):
                continue
            ships: dict[str, list[str]] = {}  # source hex -> empty Transports there
            for u in self.mine("transport"):
                if not u.get("carried_by") and u["id"] not in used_t and not self.cargo(u["id"]) \
                        and h in self.sea_paths_from(u["hex"])[0]:
                    ships.setdefault(u["hex"], []).append(u["id"])
            if not ships:
                self.want_transport(h)
                continue
            leaders = sorted((u["id"] for u in self.at(h) if u["type"] == "leader"), key=id_order)
            left = list(armies)
            for _, src in sorted((self.sea_paths_from(x)[0][h], x) for x in ships):
                if not left:
                    break
                ts = sorted(ships[src], key=id_order)[:len(left)]
                if src != h:
                    ts = ts[:max(0, self.room(h))]
                    legs = self.voyage(src, h, len(ts), smp) if ts else None
                    if not legs:
                        continue
                    first.append({"units": ts, "path": legs[0]})
                    if legs[1]:  # two moves away: aboard next turn
                        second.append({"units": ts, "path": legs[1]})
                    self.planned[h] = self.planned.get(h, 0) + len(ts)
                    used_t.update(ts)
                    self.shipped.update(left[:len(ts)])  # they wait for it
                    after.update((a, h) for a in left[:len(ts)])
                    self.fetched.update(left[:len(ts)])
                    if legs[1]:
                        left = left[len(ts):]
                        continue
                arm, rest = left[:len(ts)], left[len(ts):]
                cargo = arm + (leaders if not rest else [])
                home = self.fetch_home(h, len(ts) + len(arm), smp, one_move=src != h)
                if home is None:
                    used_t.update(ts)  # (a Transport that came waits with them)
                    left = rest
                    continue
                dest, legs = home
                if src != h:  # it came in the First Move: aboard and home in the Second
                    second.append({"units": ts, "path": legs[0], "load": cargo, "unload": cargo})
                    self.planned[dest] = self.planned.get(dest, 0) + len(ts) + len(arm)
                    after.update((a, h) for a in arm)
                else:
                    self.sail(ts, legs, dest, len(ts) + len(arm), first, second, load=cargo, unload=cargo)
                    after.update((a, legs[0][-1] if legs[1] else dest) for a in arm)
                used_t.update(ts)
                self.shipped.update(arm)
                self.fetched.update(arm)
                left = rest
            if left:  # Transports too few: the nearest port recruits one more
                self.want_transport(h)

    def want_transport(self, h: str) -> None:
        """Our port nearest to ``h`` by sea, with room, recruits a Transport (``plan_recruit``)."""
        dist, _ = self.sea_paths_from(h)
        ports = sorted((dist[p], p) for p in self.sea_ports() if p in dist and self.room(p) > 0)
        if ports:
            self.transport_wants[ports[0][1]] = 1

    def fetch_home(self, h: str, n: int, smp: int, one_move: bool) -> tuple[str, tuple[list[str], list[str]]] | None:
        """Where Transports at ``h`` (weighing ``n`` with their Armies) put fetched Armies ashore: the nearest hex
        by sea in supply where ships may stop (our port, a beach next to our city), with room and no other
        faction's land forces in sight in or next to it, and the voyage there; in one move when ``one_move``."""
        dist, _ = self.sea_paths_from(h)
        for d, x in sorted((d, x) for x, d in dist.items() if x != h and self.m.terrain[x].land
                           and self.m.ship_may_stop(x) and self.supplied(x) and not self.foreign_city(x)
                           and self.room(x) >= n and self.quiet(x)):
            if one_move and d > smp:
                break
            legs = self.voyage(h, x, n, smp, hungry=True)
            if legs and not (one_move and legs[1]):
                return x, legs
        return None

    def staging_beach(self, port: str) -> str | None:
        """The beach or fishing village next to our port ``port`` where a strike force gathers (``gather``): in
        supply, where ships may stop, out of the enemy's reach as far as we see; the roomiest (by id)."""
        best = None
        for n in sorted(self.m.neighbours[port]):
            t = self.m.terrain[n]
            if t.land and t.move_cost is not None and self.m.ship_may_stop(n) and n not in self.m.city_at \
                    and n not in self.blocked and self.supplied(n) and self.quiet(n) \
                    and (best is None or self.limit(n) > self.limit(best)):
                best = n
        return best

    def gather(self, h: str, port: str | None, armies: list[str], empties: list[str], first: list[dict],
               after: dict[str, str], used_t: set[str]) -> None:
        """A strike on an island from ``h`` wants more Transports (``sea_option``): our port recruits one
        (R-PH-REC: one unit a turn, in a city with room) and the spare Armies wait for it.  A port's spare
        Armies and empty Transports gather on its beach (``staging_beach``, in supply): a city keeps most of its
        four stacking places for its garrison, and a full city recruits nothing (R-UNIT-2)."""
        if port is not None:  # ``h`` is the beach: its port recruits the Transports
            if self.room(port) > 0:
                self.transport_wants[port] = 1
            self.shipped.update(armies)
            return
        if not self.m.city_at.get(h):
            return
        beach = self.staging_beach(h)
        if beach is None:
            if self.room(h) > 0:
                self.transport_wants[h] = 1
                if h in self.strike_wants:  # (Armies for a landing elsewhere march meanwhile)
                    self.shipped.update(armies)
            return
        for t in empties:  # each Transport carries a spare Army to the beach
            if not armies or self.room(beach) < 2:
                break
            a = armies.pop(0)
            first.append({"units": [t], "path": [beach], "load": [a], "unload": [a]})
            self.planned[beach] = self.planned.get(beach, 0) + 2
            used_t.add(t)
            self.shipped.add(a)
            after[a] = beach
        gathered = len(self.armies_at(beach)) + sum(1 for a, x in after.items() if x == beach)
        walk = armies[:max(0, min(self.room(beach), self.limit(beach) // 2 - gathered))]  # each to sail with a ship
        if walk:
            first.append({"units": walk, "path": [beach]})
            self.planned[beach] = self.planned.get(beach, 0) + len(walk)
            self.shipped.update(walk)
            after.update((a, beach) for a in walk)
        if self.room(h) > 0:  # the Recruit phase comes before the moves
            self.transport_wants[h] = 1
        self.shipped.update(armies)

    def bring_ashore(self, h: str, loaded: list[tuple[str, str]], smp: int, first: list[dict], second: list[dict],
                     used_t: set[str]) -> None:
        """Loaded Transports at ``h`` (a voyage cut short: (Transport, Army) pairs) that sail for no landing put
        their Armies ashore in the nearest port of ours (``send_home``) or, with no room there, in the nearest
        hex in supply where ships may stop (``put_ashore``): aboard away from our cities each Army makes an upkeep
        roll a turn (R-PH-UPK).  In one of our cities they stay."""
        if not loaded or self.m.city_at.get(h):
            return
        ts, arm = [t for t, _ in loaded], [a for _, a in loaded]
        if not self.send_home(ts, first, second, unload=arm):
            self.put_ashore(h, ts, arm, smp, first, second)
        used_t.update(ts)

    def put_ashore(self, h: str, ships: list[str], armies: list[str], smp: int, first: list[dict],
                   second: list[dict]) -> None:
        """Loaded Transports at ``h`` with no room in our ports put their Armies ashore where they are paid their
        upkeep (``fetch_home``: the nearest hex in supply where ships may stop), or stay where they are when that
        is in supply already (R-PH-UPK)."""
        if self.supplied(h):
            return
        home = self.fetch_home(h, len(ships) + len(armies), smp, one_move=False)
        if home is None:
            return
        dest, legs = home
        self.sail(ships, legs, dest, len(ships) + len(armies), first, second, unload=armies)

    def sail(self, ships: list[str], legs: tuple[list[str], list[str]], dest: str, weight: int, first: list[dict],
             second: list[dict], load: list[str] = (), unload: list[str] = ()) -> None:
        """The orders of ``ships`` (one stack) sailing ``legs`` to ``dest``: the First Move's path, then the Second's
        when there is one; ``load`` goes aboard at the start and ``unload`` ashore at the end (R-PH-MOVE).  The
        stacking places they and their cargo (``weight``) take at ``dest`` are booked."""
        order: dict[str, Any] = {"units": ships, "path": legs[0]}
        if load:
            order["load"] = list(load)
        landing = {"unload": list(unload)} if unload else {}
        if legs[1]:
            first.append(order)
            second.append({"units": ships, "path": legs[1], **landing})
        else:
            first.append({**order, **landing})
        self.planned[dest] = self.planned.get(dest, 0) + weight

    def send_home(self, ships: list[str], first: list[dict], second: list[dict], unload: list[str] = ()) -> bool:
        """Ships (one stack) to the nearest of our ports within two moves, else to a safe hex within one.  False
        when they are given no move (no port of ours has room for them with what they carry)."""
        h = self.units[ships[0]]["hex"]
        smp = min(self.ship_mp(self.units[s]["type"]) for s in ships)
        dist, _ = self.sea_paths_from(h)
        weight = len(ships) + len(unload)  # what they carry counts too (R-UNIT-2)
        ports = sorted((dist[p], p) for p in self.sea_ports() if p in dist and p != h
                       and self.room(p) >= weight)
        hungry = any(self.units[u]["type"] == "army" for u in unload)
        for _, p in ports:
            legs = self.voyage(h, p, weight, smp, hungry=hungry)
            if legs:
                self.sail(ships, legs, p, weight, first, second, unload=unload)
                return True
        if not self.safe(h):
            spots = sorted((d, x) for x, d in dist.items() if d <= smp and self.safe(x) and x != h
                           and self.room(x) >= weight)
            if spots:
                second.append({"units": ships, "path": self.sea_path(h, spots[0][1])})
                self.planned[spots[0][1]] = self.planned.get(spots[0][1], 0) + weight
                return True
        return False

    def fleet_mod(self) -> int:
        n = 0
        for e in self.trait_effects("roll_modifier"):
            if e.get("side", "own") == "own" and e["roll"] in ("battle", "attack") \
                    and e.get("units", "all") in ("all", "fleet") and e.get("vs", "any") == "any" \
                    and e.get("where", "any") == "any":
                n += e["value"]
        return n

    def plan_sea_battles(self) -> tuple[list[dict], list[dict], list[dict]]:
        """Manned Fleets attack enemy ships in reach when the odds are clearly good, and sail back to a
        safe hex in the second move."""
        owners: dict[str, dict[str, dict[str, int]]] = {}
        crews: dict[tuple[str, str], dict[str, int]] = {}  # (hex, owner) -> units aboard ships, by type
        for e in self.v["others"]:
            if e.get("owner") is not None:
                owners.setdefault(e["hex"], {})[e["owner"]] = e["counts"]
                crews[e["hex"], e["owner"]] = e.get("aboard") or {}
        fleets = [u for u in sorted(self.mine("fleet"), key=lambda u: id_order(u["id"]))
                  if not u.get("carried_by") and self.manned(u)]
        if not fleets:
            return [], [], []
        fmp = self.ship_mp("fleet")
        mod = self.fleet_mod()
        first, battles, second = [], [], []
        busy: set[str] = set()
        cands = []
        for x in sorted(owners):
            with_ships = {p: c for p, c in owners[x].items() if c.get("fleet") or c.get("transport")}
            if len(with_ships) != 1 or not self.m.ship_may_enter(x):
                continue
            (owner, c), = with_ships.items()
            aboard = crews[x, owner]  # Rowers ashore man no Fleet, an Army ashore rides in no Transport
            manned = min(c.get("fleet", 0), aboard.get("rowers", 0))
            armed = min(c.get("transport", 0), aboard.get("army", 0))
            if not manned and not armed:  # ships that neither fight nor block: no sea attack takes them (R-PH-SEA)
                continue
            dfn = (manned * (D10[0] + GUESS_MOD) + armed * (D6[0] + GUESS_MOD), manned * D10[1] + armed * D6[1])
            near = min(self.m.distance(x, self.m.cities[cid].hex) for cid in self.mine_cities) \
                if self.mine_cities else 99
            cands.append((near, x, dfn))
        for _, x, dfn in sorted(cands):
            plan = []
            for f in fleets:
                if f["id"] in busy:
                    continue
                dist, _ = self.sea_paths_from(f["hex"])
                spots = sorted((dist[a], a) for a in self.m.neighbours[x] if a in dist and dist[a] <= fmp
                               and self.room(a) - sum(1 for _, s in plan if s == a) >= 1)
                for _, a in spots:
                    back = self.sea_path(a, f["hex"], fmp) if self.safe(f["hex"]) else []
                    if a == f["hex"] or back:
                        plan.append((f, a))
                        break
                n = len(plan)
                if win_chance((n * (D10[0] + mod), n * D10[1]), dfn) >= SEA_ODDS:
                    break
            n = len(plan)
            if not plan or win_chance((n * (D10[0] + mod), n * D10[1]), dfn) < SEA_ODDS:
                continue
            for f, a in plan:
                busy.add(f["id"])
                if a != f["hex"]:
                    first.append({"units": [f["id"]], "path": self.sea_path(f["hex"], a)})
                    second.append({"units": [f["id"]], "path": self.sea_path(a, f["hex"], fmp)})
                    self.planned[a] = self.planned.get(a, 0) + 1
            battles.append({"units": [f["id"] for f, _ in plan], "target": x})
        return first, battles, second

    # -- recruit -------------------------------------------------------------------------------------
    def plan_recruit(self, gold: int, income: int, upkeep: int, marches: list[dict]) -> list[dict]:
        if self.left <= 1:
            return []
        cap = income + max(0, gold - 6) / max(3, self.left - 2)
        front = {}
        for m in marches:
            front[m["path"][-1]] = 1
        order = []
        for cid in self.mine_cities:
            c = self.cities[cid]
            h = self.m.cities[cid].hex
            if c["razed"] or c["hostile"] or self.besieged(h):
                continue
            if self.room(h) <= 0:
                continue
            bare = not self.armies_at(h) and not self.planned.get(h)
            near = min((self.m.distance(h, f) for f in front), default=20)
            order.append((not bare, near, cid != self.home, cid))
        out = []
        armies = upkeep
        ships_from: set[str] = set()
        for *_, cid in sorted(order):  # Transports where Armies wait for a voyage (no upkeep)
            h = self.m.cities[cid].hex
            if self.transport_wants.get(h, 0) > 0 and gold >= 6 and self.room(h) > 0:
                out.append({"city": cid, "unit": "transport"})
                self.planned[h] = self.planned.get(h, 0) + 1
                ships_from.add(cid)
                gold -= 2
        for *_, cid in sorted(order):
            if cid in ships_from:
                continue
            if gold < 4 or armies + 1 > cap:
                break
            out.append({"city": cid, "unit": "army"})
            self.planned[self.m.cities[cid].hex] = self.planned.get(self.m.cities[cid].hex, 0) + 1
            gold -= 2
            armies += 1
        # spare gold: Baggage in the cities Armies will leave from next, four for each (all an Army carries):
        # away from our cities it feeds them instead of an upkeep roll (R-PH-UPK).  Baggage recruited now
        # cannot go with this turn's marches (their orders name the units of the view), so it is stocked for
        # the Armies that stay: spare ones and the one recruited here.
        leaving: dict[str, int] = {}
        taken: dict[str, int] = {}
        for m in marches:
            for u in m["units"]:
                unit = self.units.get(u)
                if unit is not None and unit["type"] == "army":
                    leaving[unit["hex"]] = leaving.get(unit["hex"], 0) + 1
                elif unit is not None and unit["type"] == "baggage" and not unit.get("carried_by"):
                    taken[unit["hex"]] = taken.get(unit["hex"], 0) + 1
        new_army = {e["city"] for e in out if e.get("unit") == "army"}
        reserve = max(0, armies - income) + 4  # next turn's upkeep beyond the income, and a little
        for cid in self.mine_cities if not self.frozen else ():  # frozen: Baggage is bought when they march
            h = self.m.cities[cid].hex
            c = self.cities[cid]
            if c["razed"] or c["hostile"] or self.besieged(h):
                continue
            staying = max(0, len(self.armies_at(h)) - self.garrison(h) - leaving.get(h, 0)) + (cid in new_army)
            loose = sum(1 for u in self.at(h) if u["type"] == "baggage") - taken.get(h, 0)
            n = min(6, BAGGAGE_PER_ARMY * staying + self.siege_stock(h) - loose, gold - reserve)
            if n <= 0:
                continue
            for e in out:
                if e["city"] == cid:
                    e["baggage"] = n
                    break
            else:
                out.append({"city": cid, "baggage": n})
            gold -= n
        return out


_SEA_GRAPH: dict[int, tuple[GameMap, dict[str, list[tuple[str, int]]]]] = {}


class _Clock:
    """What ``movement.effect_in_force`` reads of a state (the game turn and the turn order), from a view."""

    def __init__(self, turn: int, turn_order: list[str]):
        self.turn, self.turn_order = turn, turn_order


def sea_graph(game_map: GameMap) -> dict[str, list[tuple[str, int]]]:
    """For each hex, the neighbours ships may enter and what entering them costs (R-PH-MOVE)."""
    found = _SEA_GRAPH.get(id(game_map))
    if found is not None and found[0] is game_map:
        return found[1]
    adj = {h: [(n, game_map.terrain[n].move_cost) for n in ns if game_map.ship_may_enter(n)]
           for h, ns in game_map.neighbours.items()}
    _SEA_GRAPH[id(game_map)] = (game_map, adj)
    return adj


def write_orders(view: dict[str, Any], game_map: GameMap, tables: Tables, campaign: str, turn: int,
                 secret: str, seed_salt: str = "") -> dict[str, Any]:
    """A whole order file (header included) for the viewer of ``view``."""
    player = view["viewer"]
    body = Bot(view, game_map, tables, bot_dice(campaign, turn, player, seed_salt)).orders()
    return {"campaign": campaign, "turn": turn, "player": player, "secret": secret, **body}
