"""The computer player's cards: it names the cards it has no use for in `discard` (R-PH-DRAW), plays the
situational ones when their target is in sight, Treasure with attacks on cities, Hesitation as a reaction."""
from pbem.bot import write_orders
from pbem.gamedata import load_map, tables
from pbem.model import Unit, UnitType
from pbem.selfplay import new_game
from pbem.visibility import view

from agree_boards import findings

AEGEAN = load_map()
T = tables()
ALL = ["athens", "sparta", "thebes", "corinth"]


def _state(hand):
    state = new_game(ALL, seed=3)
    me = "athens"
    for c in hand:  # take the cards from wherever they are
        for p in state.players.values():
            if c in p.hand:
                p.hand.remove(c)
        if c in state.deck:
            state.deck.remove(c)
    state.players[me].hand = list(hand)
    return state, me


def _errors(state, data):
    return [f for f in findings(state, data) if f.severity == "error"]


def test_the_bot_names_its_useless_cards_first_in_discard():
    """A hand of 7 with Spy, Truce and Election (no use to the bot) and Coercion (an extra roll, played now):
    the order's discard list starts with the useless cards and never names a card the orders play; the standing
    list names only the useless ones.  The old bot wrote no discard list: its newest cards went instead."""
    hand = ["spy", "truce", "election", "coercion", "contributions", "night_raid", "strong_garrison"]
    state, me = _state(hand)
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "selfplay", 1, "s")
    played = {c if isinstance(c, str) else c["card"] for c in data.get("cards", [])}
    assert "coercion" in played
    assert set(data["discard"][:3]) == {"spy", "truce", "election"}, data["discard"]
    assert not played & set(data["discard"])
    assert set(data["standing"]["discard"]) == {"spy", "truce", "election"}
    assert not _errors(state, data)


def test_hesitation_stands_as_a_reaction():
    state, me = _state(["hesitation"])
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "selfplay", 1, "s")
    assert data["standing"]["reactions"] == ["hesitation"]
    assert "hesitation" not in data.get("discard", [])
    assert not _errors(state, data)


def test_treasure_goes_with_the_attack_on_a_city():
    state, me = _state(["treasure"])
    state.cities["megara"].controller = "sparta"
    for _ in range(4):
        state.add_unit(Unit(state.new_unit_id("ATH", UnitType.ARMY), UnitType.ARMY, me, "1113"))
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "selfplay", 1, "s")
    attack = next(a for a in data["land_battle"] if a["target"] == "1112")
    assert "treasure" in attack["cards"], attack
    assert not _errors(state, data)


def test_short_supplies_hits_an_enemy_stack_in_sight():
    """Three Spartan Armies with two Baggage stand in the open at 1211, in sight of an Athenian Army: Short
    Supplies is aimed at them."""
    state, me = _state(["short_supplies"])
    for _ in range(3):
        state.add_unit(Unit(state.new_unit_id("SPA", UnitType.ARMY), UnitType.ARMY, "sparta", "1211"))
    for _ in range(2):
        state.add_unit(Unit(state.new_unit_id("SPA", UnitType.BAGGAGE), UnitType.BAGGAGE, "sparta", "1211"))
    state.add_unit(Unit(state.new_unit_id("ATH", UnitType.ARMY), UnitType.ARMY, me, "1212"))
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "selfplay", 1, "s")
    assert {"card": "short_supplies", "target": "1211"} in data["cards"], data.get("cards")
    assert not _errors(state, data)


def _played(data, card):
    return [c for c in data.get("cards", []) if isinstance(c, dict) and c["card"] == card]


def test_economic_blockade_goes_to_a_city_that_pays():
    """Every rival's home city is razed (it pays nothing, R-PH-REV): Economic Blockade goes to Chalcis, the
    Thebans' minor city (income 6), not to a razed home (the old bot blocked the rival's home: 17 of 31 cards
    in a 12-player game gave nothing)."""
    state, me = _state(["economic_blockade"])
    for p in ("sparta", "thebes", "corinth"):
        state.cities[p].razed = 2
    state.cities["chalcis"].controller = "thebes"
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "selfplay", 1, "s")
    assert [c["target"] for c in _played(data, "economic_blockade")] == ["chalcis"], data.get("cards")
    assert not _errors(state, data)


def test_no_coup_on_a_home_city_already_razed_four_times():
    """A Coup adds 1D6 razed counters, 6 at most: on rivals' homes with 4 or more already it is kept (the old
    bot played it on the leading rival all the same)."""
    state, me = _state(["coup"])
    for p in ("sparta", "thebes", "corinth"):
        state.cities[p].razed = 4
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "selfplay", 1, "s")
    assert not _played(data, "coup"), data.get("cards")
    state.cities["corinth"].razed = 1
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "selfplay", 1, "s")
    assert [c["target"] for c in _played(data, "coup")] == ["corinth"], data.get("cards")


def test_harassment_goes_to_the_rival_that_holds_our_home_not_to_the_one_with_most_cities():
    """Sparta holds Athens; Thebes holds five cities.  The Athenians' 'one less roll' card goes to Sparta (the
    old bot sent every such card to the player with the most cities)."""
    state, me = _state(["threatened"])
    state.cities[me].controller = "sparta"
    state.cities["megara"].controller = me
    state.units["ATH-A1"].hex = "1112"
    for cid in ("chalcis", "delphi", "argos", "potidaea"):
        state.cities[cid].controller = "thebes"
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "selfplay", 1, "s")
    assert [c["target"] for c in _played(data, "threatened")] == ["sparta"], data.get("cards")


def test_no_coup_on_a_home_city_its_people_do_not_hold():
    """A Coup fails on a home city its people do not hold (docs/rules.md, R-PH-DIP table; a rules referee): the
    bot aimed it at Corinth, which Athens held."""
    state, me = _state(["coup"])
    for p in ("sparta", "thebes"):
        state.cities[p].razed = 4
    state.cities["corinth"].controller = me
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "selfplay", 1, "s")
    assert not _played(data, "coup"), data.get("cards")
    state.cities["corinth"].controller = "corinth"
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "selfplay", 1, "s")
    assert [c["target"] for c in _played(data, "coup")] == ["corinth"], data.get("cards")


def test_economic_blockade_counts_a_captured_home_city_in_full():
    """A captured home city pays its full 7 (only hostile minor cities give half, R-PH-REV): Sparta holds Thebes
    (hostile) and Chalcis (6): the blockade goes to Thebes (the bot counted it 4 and picked Chalcis)."""
    state, me = _state(["economic_blockade"])
    for p in ("sparta", "thebes", "corinth"):
        state.cities[p].razed = 2
    state.cities["thebes"].razed = 0
    state.cities["thebes"].controller, state.cities["thebes"].hostile = "sparta", True
    state.cities["chalcis"].controller = "sparta"
    state.cities["chalcis"].income = 6
    for u in [u for u in state.units.values() if u.hex == AEGEAN.cities["thebes"].hex]:
        u.owner = "sparta"
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "selfplay", 1, "s")
    assert [c["target"] for c in _played(data, "economic_blockade")] == ["thebes"], data.get("cards")
