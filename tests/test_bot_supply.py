"""The computer player keeps its Armies fed (R-PH-UPK): in supply when not fighting, Baggage for marches."""
from pbem.bot import Bot, bot_dice, write_orders
from pbem.gamedata import load_map, tables
from pbem.model import Unit, UnitType
from pbem.selfplay import new_game
from pbem.visibility import view

from scenario import move_end

AEGEAN = load_map()
T = tables()
ALL = ["athens", "sparta", "thebes", "corinth"]


def _supplied(state, me, h):
    return any(x in AEGEAN.city_at and state.cities[AEGEAN.city_at[x].id].controller == me
               for x in (h, *AEGEAN.neighbours[h]))


def test_a_starving_army_that_does_not_attack_ends_its_turn_in_supply():
    """ATH-A9 stands at 1211, next to neutral Megara, which it alone cannot take, two hexes from Athens, with a
    starvation counter and no Baggage: it ends the turn next to Athens (the old bot left it camped there)."""
    state = new_game(ALL, seed=3)
    me = "athens"
    a = Unit(state.new_unit_id("ATH", UnitType.ARMY), UnitType.ARMY, me, "1211")
    a.starvation = 1
    state.add_unit(a)
    assert not _supplied(state, me, "1211")
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "x", 2, "s")
    assert not any(a.id in b["units"] for b in data.get("land_battle", []))
    end = move_end(data, a.id)
    assert end is not None and _supplied(state, me, end), data


def test_a_city_that_recruits_an_army_stocks_baggage_for_it():
    """Megara recruits an Army with gold to spare: it also lays in four Baggage for it to march with (what an
    Army carries) and two for its garrison under siege.  The old bot bought Baggage only where stacks were
    leaving this turn, which cannot take it along (their orders name the units they see)."""
    state = new_game(ALL, seed=3)
    me = "athens"
    state.cities["megara"].controller = me
    state.players[me].gold = 60
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "x", 2, "s")
    entry = next(r for r in data["recruit"] if r["city"] == "megara")
    assert entry.get("unit") == "army" and entry.get("baggage", 0) >= 4, data["recruit"]


def test_a_long_march_leaves_with_baggage():
    """Armies that set off for a target two moves away or more out of supply take Baggage, four each at most."""
    state = new_game(ALL, seed=3)
    me = "athens"
    home = AEGEAN.cities[me].hex
    for _ in range(8):
        state.add_unit(Unit(state.new_unit_id("ATH", UnitType.BAGGAGE), UnitType.BAGGAGE, me, home))
    state.players[me].gold = 60
    b = Bot(view(state, AEGEAN, me), AEGEAN, T, bot_dice("x", 2, me))
    data = b.orders()
    for m in data.get("first_move", []):
        armies = [u for u in m["units"] if state.units[u].type is UnitType.ARMY]
        bags = [u for u in m["units"] if state.units[u].type is UnitType.BAGGAGE]
        if armies:
            assert len(bags) <= 4 * len(armies)
    # the garrison keeps its siege stock
    left = 8 - sum(1 for m in data.get("first_move", []) for u in m["units"]
                   if state.units[u].type is UnitType.BAGGAGE)
    assert left >= b.siege_stock(home)


def test_an_army_carrying_baggage_takes_only_what_it_has_room_for():
    """An Army that already carries 3 Baggage leaves a city with 6 loose ones: it takes one more (R-UNIT-1, 4 at
    most).  Found by `pbem check` on a demo game: 'no room for SPA-B91: an Army carries at most 4 Baggage'."""
    state = new_game(ALL, seed=3)
    me = "athens"
    state.cities["megara"].controller = me
    mh = AEGEAN.cities["megara"].hex
    a = Unit(state.new_unit_id("ATH", UnitType.ARMY), UnitType.ARMY, me, mh)
    g = Unit(state.new_unit_id("ATH", UnitType.ARMY), UnitType.ARMY, me, mh)
    state.add_unit(g)
    state.add_unit(a)
    for _ in range(3):
        b = Unit(state.new_unit_id("ATH", UnitType.BAGGAGE), UnitType.BAGGAGE, me, mh)
        b.carried_by = a.id
        state.add_unit(b)
    for _ in range(8):
        state.add_unit(Unit(state.new_unit_id("ATH", UnitType.BAGGAGE), UnitType.BAGGAGE, me, mh))
    b = Bot(view(state, AEGEAN, me), AEGEAN, T, bot_dice("x", 2, me))
    extras = b.companions(mh)
    taken = b.take_companions(extras, [a.id])
    assert sum(1 for u in taken if state.units[u].type is UnitType.BAGGAGE) == 1


def test_a_blocked_city_is_no_income_in_the_recruit_budget():
    """R-PH-REV: a city an income block in force names (Raids, Economic Blockade) gives nothing at Revenue.  The
    bot counted it, so with Raids on its home city it recruited seven Armies on 4 gold and an income it did not
    get (a checker run over the bots' files: 'this costs 2 gold ... you have 4, about 36 income and 34 upkeep').
    Its recruits now fit what Revenue pays: the gold, plus the income without the blocked city, less upkeep."""
    from pbem.model import Effect
    from pbem.phases.revenue import pays
    state = new_game(ALL, seed=3)
    me = "athens"
    for cid in ("megara", "aegina", "corcyra", "chalcis"):
        state.cities[cid].controller = me
    state.players[me].gold = 4
    state.effects.append(Effect("income_block", "raids", "sparta", target="athens", until_turn=2, until_player=me))
    upkeep = sum(1 for u in state.units_of(me) if u.type.needs_upkeep)
    income = sum(pays(state.cities[c].income, state.cities[c].hostile, state.cities[c].home_of is not None)
                 for c in state.controlled_cities(me) if c != "athens")
    budget = state.players[me].gold + income - upkeep
    cost = {"army": 2, "rowers": 2, "transport": 2, "fleet": 4}
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "x", 2, "s")
    spent = sum(cost.get(r.get("unit"), 0) + r.get("baggage", 0) for r in data.get("recruit", []))
    assert spent <= max(budget, 0), (spent, budget, data.get("recruit"))
