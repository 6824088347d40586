"""The computer player does not leave its leaders alone where the enemy takes them (R-UNIT-3, R-UNIT-4)."""
from pbem.bot import write_orders
from pbem.gamedata import load_map, tables
from pbem.model import Unit, UnitType
from pbem.selfplay import new_game
from pbem.visibility import view

from scenario import move_end

from agree_boards import findings

AEGEAN = load_map()
T = tables()
ALL = ["athens", "sparta", "thebes", "corinth"]


def _lone_leader_next_to_spartans():
    """ATH-L1 stands alone at 1113 (its Army gone), next to three Spartan Armies at 1114, two hexes from
    Athens, which is neither besieged nor out of supply."""
    state = new_game(ALL, seed=3)
    me = "athens"
    state.units["ATH-L1"].hex = "1113"
    for _ in range(3):
        state.add_unit(Unit(state.new_unit_id("SPA", UnitType.ARMY), UnitType.ARMY, "sparta", "1114"))
    return state, me


def test_a_lone_leader_next_to_an_enemy_stack_walks_to_our_city():
    """The old bot moved leaders only with Armies, so ATH-L1 stayed where the Spartans take it next move."""
    state, me = _lone_leader_next_to_spartans()
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "selfplay", 1, "s")
    end = move_end(data, "ATH-L1")
    assert end == AEGEAN.cities["athens"].hex, data
    # no move of it ends next to the Spartans, and the orders pass the checker
    for section in ("first_move", "second_move"):
        for m in data.get(section, []):
            if "ATH-L1" in m["units"]:
                assert AEGEAN.distance(m["path"][-1], "1114") > 1
    assert not [f for f in findings(state, data) if f.severity == "error"]


def test_a_leader_in_a_city_of_ours_stays_there():
    """A leader alone in our city in supply, not besieged, is already where it should be: no order moves it."""
    state = new_game(ALL, seed=3)
    me = "athens"
    state.cities["megara"].controller = me
    state.units["ATH-L2"].hex = AEGEAN.cities["megara"].hex
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "selfplay", 1, "s")
    assert move_end(data, "ATH-L2") is None, data
