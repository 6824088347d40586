"""The computer player invades islands by sea (pbem/bot.py, ``Bot.sea_option``): an island city's beach is the
only ground next to it, so landed Armies can do nothing but attack, and they are fed only once the city is
theirs (R-PH-UPK).  The bot lands them when they can take it, and not otherwise."""
from pbem.bot import write_orders
from pbem.gamedata import load_map, tables
from pbem.model import Unit, UnitType
from pbem.selfplay import new_game
from pbem.visibility import view

AEGEAN = load_map()
T = tables()
PLAYERS = ["athens", "sparta", "thebes", "corinth"]
AEGINA, BEACH = "1215", "1216"  # Aegina and its Sandy Coast, the island's only other hex


def athens_facing_aegina(hand, at_home=1, on_beach=0, land_target="delphi"):
    """Athens (seed 3, turn 2) holds every minor city but neutral Aegina and ``land_target`` (a march of two
    turns or more), without their traits (no roll modifiers).  At home: ``at_home`` more Armies, each with an
    empty Transport; ``on_beach`` of its Armies stand on Aegina's beach."""
    state = new_game(PLAYERS, seed=3)
    me = "athens"
    home = AEGEAN.cities[me].hex
    for cid, c in state.cities.items():
        if c.home_of is None and cid not in ("aegina", land_target):
            c.controller, c.trait = me, None
    state.players[me].traits = []
    state.players[me].hand = list(hand)
    for _ in range(at_home):
        for t in (UnitType.ARMY, UnitType.TRANSPORT):
            state.add_unit(Unit(state.new_unit_id("ATH", t), t, me, home))
    for _ in range(on_beach):
        state.add_unit(Unit(state.new_unit_id("ATH", UnitType.ARMY), UnitType.ARMY, me, BEACH))
    return state, write_orders(view(state, AEGEAN, me), AEGEAN, T, "x", 2, "s")


def voyages(state, data):
    return [m for m in data.get("first_move", []) + data.get("second_move", [])
            if any(state.units[u].type is UnitType.TRANSPORT for u in m["units"])]


def test_a_bot_with_a_transport_and_an_army_lands_next_to_a_neutral_island_city_and_attacks_it():
    """Two Armies of ours already on Aegina's beach, a Transport and an Army in port and two battle cards: the
    Army sails, lands and the three attack at once (a city this turn), rather than all marching on Delphi."""
    state, data = athens_facing_aegina(["break_formation", "night_raid"], at_home=1, on_beach=2)
    sea = voyages(state, data)
    landed = {u for m in data["first_move"] if m in sea for u in m.get("unload", ())}
    assert len(landed) == 1 and all(m["path"][-1] == BEACH for m in sea if m.get("unload")), data
    attack = [a for a in data.get("land_battle", []) if a["target"] == AEGINA]
    assert attack and landed <= set(attack[0]["units"]) and len(attack[0]["units"]) == 3, data


def test_a_bot_throws_no_lone_army_at_an_island_city_it_cannot_take():
    """One spare Army and a Transport, no battle card: two Armies could not take Aegina (a neutral city
    defends with its garrison and its own Army, both with the city's +5), so none sails to starve on the
    beach."""
    state, data = athens_facing_aegina([], at_home=1, land_target="aegina")
    assert not [m for m in voyages(state, data) if m.get("unload") or m.get("load")], data
