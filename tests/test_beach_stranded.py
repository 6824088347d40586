"""The computer player looks after its Armies cut off out of supply (pbem/bot.py, ``Bot.fetch``): Armies left on an
island's beach after a strike that failed or was called off (no hex in supply they can walk to, R-PH-UPK: an upkeep
roll each turn they stay) are fetched by a Transport and put ashore in supply, unless they can take the city next
to them this turn."""
import hashlib

from pbem.adjudicator import adjudicate
from pbem.bot import write_orders
from pbem.dice import Dice, turn_seed
from pbem.gamedata import load_map, tables
from pbem.model import Unit, UnitType
from pbem.phases.upkeep import supply_problem
from pbem.selfplay import bot_turn_orders, new_game
from pbem.visibility import view

AEGEAN = load_map()
T = tables()
PLAYERS = ["athens", "sparta", "thebes", "corinth"]
AEGINA, BEACH = "1215", "1216"  # Aegina and its Sandy Coast, the island's only other hex
ME = "athens"


def stranded_on_aegina(on_beach=2, transport_at=None, hand=()):
    """Athens (seed 3) holds every minor city but neutral Aegina, without their traits; ``on_beach`` of its Armies
    stand on Aegina's beach, out of supply, and too few to take the city; an empty Transport of ours waits at
    ``transport_at`` (Athens' port if None)."""
    state = new_game(PLAYERS, seed=3)
    for cid, c in state.cities.items():
        if c.home_of is None and cid != "aegina":
            c.controller, c.trait = ME, None
    state.players[ME].traits = []
    state.players[ME].hand = list(hand)
    armies = []
    for _ in range(on_beach):
        a = Unit(state.new_unit_id("ATH", UnitType.ARMY), UnitType.ARMY, ME, BEACH)
        state.add_unit(a)
        armies.append(a.id)
    ship = Unit(state.new_unit_id("ATH", UnitType.TRANSPORT), UnitType.TRANSPORT, ME,
                transport_at or AEGEAN.cities[ME].hex)
    state.add_unit(ship)
    return state, armies, ship.id


class _Ctx:  # what ``supply_problem`` reads
    def __init__(self, state, player):
        self.state, self.game_map, self.player = state, AEGEAN, player


def in_supply(state, uid):
    u = state.units[uid]
    return u.carried_by is None and supply_problem(_Ctx(state, u.owner), u.hex,
                                                   state.controlled_cities(u.owner), {}) is None


def test_a_transport_fetches_an_army_stranded_on_an_islands_beach_and_puts_it_ashore_in_supply():
    """Two Armies on Aegina's beach cannot take it and cannot walk anywhere: the Transport in Athens sails to the
    beach in the First Move, takes one aboard and puts it ashore in supply in the Second (the old bot left both
    to starve there)."""
    state, armies, ship = stranded_on_aegina()
    data = write_orders(view(state, AEGEAN, ME), AEGEAN, T, "x", 2, "s")
    assert not data.get("land_battle"), data
    there = [m for m in data.get("first_move", []) if ship in m["units"]]
    assert there and there[0]["path"][-1] == BEACH, data
    home = [m for m in data.get("second_move", []) if ship in m["units"]]
    assert home and home[0]["load"] == home[0]["unload"] and home[0]["load"][0] in armies, data
    # the turn played out: the fetched Army ends it ashore, in supply
    fetched = home[0]["load"][0]
    orders, hashes = bot_turn_orders(state, AEGEAN, T)
    secret = hashlib.sha256(b"pbem/seed/3").digest()
    adjudicate(state, AEGEAN, T, orders, Dice(turn_seed(secret, state.turn, hashes)))
    assert fetched in state.units and in_supply(state, fetched), state.units.get(fetched)
    assert state.units[ship].carried_by is None


def test_a_transport_on_the_beach_takes_the_stranded_army_home_in_the_first_move():
    """The Transport is already on the beach: the Army goes aboard there and is put ashore in supply at once."""
    state, armies, ship = stranded_on_aegina(on_beach=1, transport_at=BEACH)
    data = write_orders(view(state, AEGEAN, ME), AEGEAN, T, "x", 2, "s")
    home = [m for m in data.get("first_move", []) if ship in m["units"]]
    assert home and home[0]["load"] == armies and home[0].get("unload") == armies, data
    assert not any(ship in m["units"] for m in data.get("second_move", []))


def test_stranded_armies_that_can_take_the_city_next_to_them_attack_it_rather_than_leave():
    """Three Armies on the beach and two battle cards win at the odds: they attack Aegina, no Transport comes."""
    state, armies, ship = stranded_on_aegina(on_beach=3, hand=["break_formation", "night_raid"])
    data = write_orders(view(state, AEGEAN, ME), AEGEAN, T, "x", 2, "s")
    attack = [a for a in data.get("land_battle", []) if a["target"] == AEGINA]
    assert attack and set(attack[0]["units"]) == set(armies), data
    assert not any(ship in m["units"] for m in data.get("first_move", []) + data.get("second_move", [])), data
