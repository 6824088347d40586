"""The computer player holds what it takes: two Armies in a minor city (a revolt's 1D3 rebels take a city one
Army holds about half the time, R-PH-DIP-REVOLT), the attackers of a capture move in after it, a city gained
without a garrison draws the nearest spare Army, and its own home city held by an enemy comes first."""
from pbem.bot import Bot, bot_dice, write_orders
from pbem.gamedata import load_map, tables
from pbem.model import Unit, UnitType
from pbem.selfplay import new_game
from pbem.visibility import view

from scenario import move_end

AEGEAN = load_map()
T = tables()
ALL = ["athens", "sparta", "thebes", "corinth"]
MEGARA = "1112"


def _army(state, owner, h):
    u = Unit(state.new_unit_id(owner[:3].upper(), UnitType.ARMY), UnitType.ARMY, owner, h)
    state.add_unit(u)
    return u


def test_the_attackers_next_to_a_city_just_taken_move_in():
    """Athens took Megara last turn: ATH-A3 moved in (R-BAT-4), ATH-A4 attacked with it from 1212 and stands
    next to the city.  A4 moves into Megara, so that one lucky diplomacy roll of a rival does not hand the city
    back to the rebels (the old bot kept one Army there and sent A4 on to the next target)."""
    state = new_game(ALL, seed=3)
    me = "athens"
    state.cities["megara"].controller = me
    _army(state, me, MEGARA)
    a4 = _army(state, me, "1212")
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "x", 3, "s")
    assert move_end(data, a4.id) == MEGARA, data.get("first_move")


def test_a_city_gained_without_a_garrison_draws_the_nearest_spare_army():
    """Megara came to Athens by a card or a diplomacy roll: no Army holds it.  Athens keeps one of its two Armies
    at home (no enemy near) and sends the other into Megara."""
    state = new_game(ALL, seed=3)
    me = "athens"
    state.cities["megara"].controller = me
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "x", 3, "s")
    ends = [move_end(data, a) for a in ("ATH-A1", "ATH-A2")]
    assert MEGARA in ends and None in ends, data.get("first_move")


def test_a_rivals_minor_city_far_from_our_units_ranks_below_a_near_one_for_diplomacy():
    """Sparta holds Melos (4 hexes from Athens, income 1) and Chios (9 hexes away, income 6), neither in sight.
    A revolt in Chios only hands it to whoever is near it: Melos comes first (the old ranking put Chios first,
    for its income)."""
    state = new_game(ALL, seed=3)
    me = "athens"
    for cid, inc in (("melos", 1), ("chios", 6)):
        state.cities[cid].controller = "sparta"
        state.cities[cid].income = inc
    _, _, enemy = Bot(view(state, AEGEAN, me), AEGEAN, T, bot_dice("x", 3, me)).diplomacy_targets()
    assert enemy.index("melos") < enemy.index("chios"), enemy


def test_our_home_held_by_an_enemy_is_the_first_target_even_early():
    """Turn 3: Sparta holds Athens with one Army; Athens has four Armies in Megara.  Megara keeps one and the
    other three march on Athens (or gather in supply next to it): none goes off to a neutral city.  The old bot
    made no home city a target before turn 6, its own included, and kept its Armies on the neutral cities."""
    state = new_game(ALL, seed=3)
    me = "athens"
    home = AEGEAN.cities[me].hex
    for u in list(state.units.values()):
        if u.owner == me and u.type == UnitType.ARMY:
            state.remove_unit(u.id)
    state.cities[me].controller = "sparta"
    state.cities[me].hostile = True
    _army(state, "sparta", home)
    state.cities["megara"].controller = me
    ours = [_army(state, me, MEGARA).id for _ in range(4)]
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "x", 3, "s")
    ends = {a: move_end(data, a) or MEGARA for a in ours}
    assert sorted(AEGEAN.distance(e, home) for e in ends.values()) == [1, 1, 1, 2], ends
