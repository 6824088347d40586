"""A leader a Second Move takes aboard (a Transport fetching a stack, ``load``) is not a lone leader: the computer
player walked it away in the First Move, so the fetch failed to load it (seen once in 14 seeded 12-player games:
ION-L1).  ``Bot.lone_leaders`` counts the units a move loads as moving with it."""
from pbem.bot import Bot, bot_dice
from pbem.gamedata import load_map, tables
from pbem.model import Unit, UnitType
from pbem.selfplay import new_game
from pbem.visibility import view

AEGEAN = load_map()
T = tables()


def lone_leader_bot():
    """Athens (seed 3) with a leader alone in open land at 1113, two hexes from Athens (1313): a lone leader."""
    state = new_game(["athens", "sparta", "thebes", "corinth"], seed=3)
    leader = Unit(state.new_unit_id("ATH", UnitType.LEADER), UnitType.LEADER, "athens", "1113")
    state.add_unit(leader)
    ship = Unit(state.new_unit_id("ATH", UnitType.TRANSPORT), UnitType.TRANSPORT, "athens", "1313")
    state.add_unit(ship)
    return Bot(view(state, AEGEAN, "athens"), AEGEAN, T, bot_dice("x", 1, "athens")), leader.id, ship.id


def moved(uid, first, second):
    return [m for m in first + second if uid in m["units"]]


def test_a_lone_leader_walks_to_safety():  # the guard: the rule the fix leaves in force
    bot, leader, _ = lone_leader_bot()
    first, second = [], []
    bot.lone_leaders(first, second, set())
    assert moved(leader, first, second), (first, second)


def test_a_leader_a_second_move_takes_aboard_is_left_where_the_ship_fetches_it():
    bot, leader, ship = lone_leader_bot()
    fetch = {"units": [ship], "path": ["1113"], "load": [leader], "unload": [leader]}
    first, second = [], [fetch]
    bot.lone_leaders(first, second, set())
    assert not moved(leader, first, second), (first, second)
