"""The computer player ends no turn with Armies aboard out of supply when it can help it (pbem/bot.py,
``Bot.voyage``, ``Bot.bring_ashore``).  R-PH-UPK: an Army aboard a ship is paid its upkeep only in or next to a
friendly city; elsewhere it makes an upkeep roll.  A landing two moves away waits halfway after its First Move,
and when its Second Move fails (others filled the landing hex first: a soak test saw it again and again) the
Armies stay aboard there: so the hex halfway must be in supply, or the Armies sail only with Baggage.  Loaded
Transports with no landing to make put their Armies ashore in supply, on a beach when our ports are full."""
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
ME = "athens"
HOME = AEGEAN.cities[ME].hex


class _Ctx:  # what ``supply_problem`` reads
    def __init__(self, state, player):
        self.state, self.game_map, self.player = state, AEGEAN, player


def in_supply(state, h):
    """The rules' own answer (the Upkeep phase's): is an Army of ours in ``h`` paid its upkeep?"""
    return supply_problem(_Ctx(state, ME), h, state.controlled_cities(ME), {}) is None


def athens_overseas(target, pairs=4):
    """Athens (seed 3, turn 2) holds every minor city but ``target`` (a march of many turns away, two moves by
    sea), without their traits; at home ``pairs`` Armies, each with an empty Transport."""
    state = new_game(PLAYERS, seed=3)
    for cid, c in state.cities.items():
        if c.home_of is None and cid != target:
            c.controller, c.trait = ME, None
    state.players[ME].traits = []
    for _ in range(pairs):
        for t in (UnitType.ARMY, UnitType.TRANSPORT):
            state.add_unit(Unit(state.new_unit_id("ATH", t), t, ME, HOME))
    return state, write_orders(view(state, AEGEAN, ME), AEGEAN, T, "x", 2, "s")


def loaded_first_moves(data):
    """First Moves of Transports with Armies aboard that do not put them ashore: they wait where it ends."""
    return [m for m in data.get("first_move", []) if any(u.startswith("ATH-T") for u in m["units"])
            and any(a.startswith("ATH-A") for a in m.get("load", ())) and not m.get("unload")]


def test_a_landing_two_moves_away_does_not_wait_halfway_out_of_supply():
    """Troy is two moves away by sea, and every safe hex halfway (the Fishing Village at 2013 ...) is out of
    supply: a failed Second Move would leave the Armies aboard there, rolling for upkeep, so none sails (the old
    bot loaded two Armies and waited at 2013 for the Second Move's landing at 2408)."""
    state, data = athens_overseas("troy")
    waits = loaded_first_moves(data)
    assert all(in_supply(state, m["path"][-1]) for m in waits), waits
    assert not any(m.get("unload") and m["path"][-1] == "2408" for m in data.get("second_move", [])), data


def test_a_landing_two_moves_away_waits_halfway_only_in_supply():
    """Halicarnassus: the voyage through Naxos' beach (1815, next to our Naxos: in supply) sails; the one through
    the Fishing Village at 2013 (out of supply) does not (the old bot sent both)."""
    state, data = athens_overseas("halicarnassus")
    waits = loaded_first_moves(data)
    assert waits and all(in_supply(state, m["path"][-1]) for m in waits), waits
    assert [m["path"][-1] for m in waits] == ["1815"], waits
    landings = [m for m in data.get("second_move", []) if m.get("unload")]
    assert landings and all(m["units"] == w["units"] for m, w in zip(landings, waits)), data


def test_a_loaded_transport_with_our_ports_full_puts_its_army_ashore_in_supply():
    """A Transport with an Army aboard waits on the Fishing Village at 1611 (a voyage cut short), out of supply;
    every port of ours in reach is full.  It sails to Melos' beach (in supply) and puts the Army ashore, and the
    turn played out ends with the Army there, paid (the old bot gave it no order: it starved aboard)."""
    state = new_game(PLAYERS, seed=3)
    held = ("megara", "chalcis", "melos", "aegina", "naxos")
    for cid, c in state.cities.items():
        if c.home_of is None:
            c.controller, c.trait = (ME, None) if cid in held else (None, c.trait)
    state.players[ME].traits = []
    for cid in held:  # our ports full (four units each, R-UNIT-2)
        h = AEGEAN.cities[cid].hex
        while sum(1 for u in state.units.values() if u.hex == h and u.type in (UnitType.ARMY, UnitType.TRANSPORT)) < 4:
            state.add_unit(Unit(state.new_unit_id("ATH", UnitType.ARMY), UnitType.ARMY, ME, h))
    ship = Unit(state.new_unit_id("ATH", UnitType.TRANSPORT), UnitType.TRANSPORT, ME, "1611")
    state.add_unit(ship)
    army = Unit(state.new_unit_id("ATH", UnitType.ARMY), UnitType.ARMY, ME, "1611", carried_by=ship.id)
    state.add_unit(army)
    assert not in_supply(state, "1611")
    data = write_orders(view(state, AEGEAN, ME), AEGEAN, T, "x", 2, "s")
    moves = [m for m in data.get("first_move", []) + data.get("second_move", []) if ship.id in m["units"]]
    assert moves and moves[-1].get("unload") == [army.id], data
    assert in_supply(state, moves[-1]["path"][-1]), moves
    orders, hashes = bot_turn_orders(state, AEGEAN, T)
    secret = hashlib.sha256(b"pbem/seed/3").digest()
    adjudicate(state, AEGEAN, T, orders, Dice(turn_seed(secret, state.turn, hashes)))
    a = state.units[army.id]
    assert a.carried_by is None and in_supply(state, a.hex), a
