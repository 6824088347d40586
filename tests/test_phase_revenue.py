"""Revenue phase (R-PH-REV) and the one-time gold of Silver Mines (R-SET-4)."""
from pbem.model import Effect
from scenario import add, events, make_state, orders, run_phase, give


def test_R_PH_REV_home_city_gives_7():
    s = make_state(gold=0)
    ctx = run_phase("revenue", s, "athens")
    assert s.players["athens"].gold == 7
    [ev] = events(ctx, "income")
    assert ev["city"] == "athens" and ev["amount"] == 7 and ev["bonus"] == 0


def test_R_PH_REV_income_traits_of_home_and_minor_cities_and_economics_add_to_the_home_city_only():
    s = make_state(gold=0)
    s.players["athens"].traits = ["slavery", "stoicism"]
    s.cities["megara"].controller = "athens"
    s.cities["megara"].trait = "wine"  # held while Megara is controlled (R-SET-4)
    add(s, "athens", "leader", "0404", skills=["economics"])
    ctx = run_phase("revenue", s, "athens")
    by_city = {e["city"]: e for e in events(ctx, "income")}
    assert by_city["athens"]["amount"] == 10 and by_city["athens"]["bonus"] == 3
    assert by_city["megara"]["amount"] == 3 and by_city["megara"]["bonus"] == 0
    assert s.players["athens"].gold == 13


def test_R_PH_REV_a_trait_held_twice_counts_once():
    s = make_state(gold=0)
    s.players["athens"].traits = ["wine"]
    s.cities["megara"].controller = "athens"
    s.cities["megara"].trait = "wine"
    run_phase("revenue", s, "athens")
    assert s.players["athens"].gold == 8 + 3


def test_R_PH_REV_controlled_minor_city_gives_its_fixed_income():
    s = make_state(gold=0)
    s.cities["delos"].controller = "athens"
    run_phase("revenue", s, "athens")
    assert s.players["athens"].gold == 7 + 2


def test_R_PH_REV_hostile_income_is_halved_rounding_up():
    s = make_state(gold=0)
    s.cities["delos"].controller = "athens"
    s.cities["delos"].hostile = True
    s.cities["delos"].income = 5
    run_phase("revenue", s, "athens")
    assert s.players["athens"].gold == 7 + 3


def test_R_PH_REV_no_income_from_a_city_under_siege():
    s = make_state(gold=0)
    add(s, "sparta", "army", "0402")  # next to Athens
    ctx = run_phase("revenue", s, "athens")
    assert s.players["athens"].gold == 0
    assert events(ctx, "no_income")[0]["reason"] == "it is under siege"


def test_R_PH_REV_an_unmanned_enemy_fleet_does_not_besiege():
    s = make_state(gold=0)
    add(s, "sparta", "fleet", "0301")
    run_phase("revenue", s, "athens")
    assert s.players["athens"].gold == 7


def test_R_PH_REV_razed_city_gives_nothing_and_every_razed_controlled_city_removes_one_counter():
    s = make_state(gold=0)
    s.cities["athens"].razed = 1
    s.cities["megara"].controller = "athens"
    s.cities["megara"].razed = 6
    s.cities["delos"].razed = 2  # neutral: removes its counters at the end of the game turn instead
    ctx = run_phase("revenue", s, "athens")
    assert s.players["athens"].gold == 0
    assert (s.cities["athens"].razed, s.cities["megara"].razed, s.cities["delos"].razed) == (0, 5, 2)
    assert [e["city"] for e in events(ctx, "razed_removed")] == ["athens", "megara"]


def test_R_PH_REV_a_captured_enemy_home_city_gives_its_base_income_without_the_captors_bonuses():
    s = make_state(gold=0)
    s.players["athens"].traits = ["slavery"]
    s.cities["sparta"].controller = "athens"
    s.cities["sparta"].hostile = True
    ctx = run_phase("revenue", s, "athens")
    # Athens 7+1; Sparta its full 7: "Hostile *minor* cities give half" (R-PH-REV; a rules referee found the
    # captured home city halved)
    assert s.players["athens"].gold == 8 + 7
    assert [(e["city"], e["amount"], e["hostile"]) for e in events(ctx, "income")] == [("athens", 8, False),
                                                                                       ("sparta", 7, False)]
    s.cities["megara"].controller, s.cities["megara"].hostile, s.cities["megara"].income = "athens", True, 5
    run_phase("revenue", s, "athens")
    assert s.players["athens"].gold == 15 + 8 + 7 + 3  # a hostile minor city still gives half, rounded up
    ctx = run_phase("revenue", s, "sparta")  # its owner collects nothing from it
    assert s.players["sparta"].gold == 0 and not events(ctx, "income")


def test_R_PH_REV_economic_blockade_blocks_the_city_until_its_controllers_next_revenue():
    s = make_state(gold=0)  # order: athens, sparta
    give(s, "athens", "economic_blockade")
    run_phase("diplomacy", s, "athens", orders=orders("athens", cards=[{"card": "economic_blockade",
                                                                         "target": "sparta"}]))
    [e] = s.effects
    assert (e.kind, e.target, e.player, e.until_turn, e.until_player) == ("income_block", "sparta", "athens",
                                                                           1, "sparta")
    ctx = run_phase("revenue", s, "sparta")
    assert s.players["sparta"].gold == 0
    assert "Economic Blockade" in events(ctx, "no_income")[0]["reason"]
    assert s.effects == [] and events(ctx, "effect_ends")
    s.turn = 2
    run_phase("revenue", s, "sparta")
    assert s.players["sparta"].gold == 7


def test_R_PH_REV_raids_on_a_city_of_a_player_earlier_in_the_turn_order_blocks_their_next_turn():
    s = make_state(gold=0)
    s.cities["megara"].controller = "athens"
    give(s, "sparta", "raids")
    run_phase("diplomacy", s, "sparta", orders=orders("sparta", cards=[{"card": "raids", "target": "megara"}]))
    [e] = s.effects
    assert (e.until_turn, e.until_player) == (2, "athens")
    s.turn = 2
    run_phase("draw", s, "athens")  # the block is still in force as Athens' turn starts
    assert len(s.effects) == 1
    run_phase("revenue", s, "athens")
    assert s.players["athens"].gold == 7 and s.effects == []


def test_R_PH_REV_an_expired_income_block_blocks_nothing():
    s = make_state(gold=0)
    s.turn = 3
    s.effects = [Effect("income_block", "raids", "sparta", "athens", 0, 2, "athens")]
    run_phase("revenue", s, "athens")
    assert s.players["athens"].gold == 7


def test_R_PH_REV_silver_mines_pays_3d10_once():
    s = make_state(gold=0)
    s.players["athens"].traits = ["silver_mines"]
    ctx = run_phase("revenue", s, "athens", dice=[4, 5, 6])
    assert s.players["athens"].gold == 7 + 15
    assert s.players["athens"].used_once == ["silver_mines"]
    assert events(ctx, "gold")[0]["source"] == "silver_mines"
    run_phase("revenue", s, "athens")  # no die: it never pays again
    assert s.players["athens"].gold == 7 + 15 + 7


def test_R_PH_REV_silver_mines_of_a_controlled_minor_city_pays_its_controller_once():
    s = make_state(gold=0)
    s.cities["megara"].controller = "athens"
    s.cities["megara"].trait = "silver_mines"
    run_phase("revenue", s, "athens", dice=[1, 1, 1])
    assert s.players["athens"].gold == 7 + 3 + 3
