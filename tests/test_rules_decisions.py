"""Decisions where RULINGS.md is silent or reads two ways (docs/rules.md says each), one scenario each."""
from __future__ import annotations

from pbem.effects import held_traits

from scenario import add, events, make_state, run_phase


def test_R_PH_UPK_surrounded_counts_the_sea_hexes_around_a_coastal_stack():
    """"Every passable neighbour hex holds enemy units": Water is passable, so a coastal stack with enemies on
    every land side but open sea beside it is not surrounded; with enemy ships on that sea too, it is."""
    s = make_state()
    a = add(s, "athens", "army", "0202", starvation=1)
    bag = add(s, "athens", "baggage", "0202")
    for h in ("0302", "0303", "0203"):  # the land sides (Spartan leaders: no siege of Athens)
        add(s, "sparta", "leader", h)
    ctx = run_phase("upkeep", s, "athens")
    assert not events(ctx, "baggage_used") and s.players["athens"].gold == 9 and a.starvation == 0

    s = make_state()
    a = add(s, "athens", "army", "0202", starvation=1)
    bag = add(s, "athens", "baggage", "0202")
    for h in ("0302", "0303", "0203"):
        add(s, "sparta", "leader", h)
    for h in ("0201", "0103", "0102"):  # and the sea sides
        add(s, "sparta", "fleet", h)
    ctx = run_phase("upkeep", s, "athens")
    [ev] = events(ctx, "baggage_used")
    assert ev["reason"] == "completely surrounded" and bag.id not in s.units and s.players["athens"].gold == 10


def test_R_SET_4_home_city_traits_stay_with_their_people_when_the_city_falls():
    """Decision: a player keeps their home city's own traits while another player holds the city; the captor
    does not gain them (a minor city's trait goes with its control, R-SET-4)."""
    s = make_state()
    s.players["athens"].traits = ["courage", "slavery"]
    s.cities["megara"].trait = "stoicism"
    s.cities["athens"].controller = "sparta"
    s.cities["megara"].controller = "sparta"
    assert held_traits(s, "athens") == ["courage", "slavery"]
    assert held_traits(s, "sparta") == ["stoicism"]


def test_R_WIN_1_a_player_wiped_out_during_the_turn_still_plays_that_player_turn():
    """Decision: elimination is checked at the end of the game turn, so a player left with nothing still
    has (and draws in) their player-turn of that turn; from the next game turn their player-turns are skipped."""
    from pbem.dice import Dice
    from scenario import run_turn
    s = make_state(("athens", "sparta", "troy"))
    s.cities["sparta"].controller = "athens"  # Sparta holds no city and no unit
    log = run_turn(s, {p: None for p in s.turn_order}, Dice(b"any"))
    draws = [r for r in log.records if r.get("event") == "draw" and r["player"] == "sparta"]
    assert len(draws) == 1 and s.players["sparta"].eliminated_turn == 1
    held = 2  # the two cards Sparta drew: to the discard pile when Sparta is out, so the deck keeps all 88
    assert s.players["sparta"].hand == [] and len(s.discard) >= held
    [out] = [r for r in log.records if r.get("event") == "eliminated"]
    assert out["who"] == "sparta" and out["cards_discarded"] == held
    assert len(s.deck) + len(s.discard) + sum(len(p.hand) for p in s.players.values()) == 88
    log = run_turn(s, {p: None for p in s.turn_order}, Dice(b"any"))
    assert not [r for r in log.records if r.get("player") == "sparta"]


def test_R_TURN_5_an_nmr_players_ships_at_sea_still_make_the_navigation_roll():
    """Decision (R-TURN-5 with R-PH-SECOND): the sea does not wait for orders."""
    from pbem.dice import Dice
    from scenario import run_turn
    s = make_state()
    f = add(s, "athens", "fleet", "0401")  # Water: not docked, not beached
    add(s, "athens", "rowers", "0401", carried_by=f.id)
    log = run_turn(s, {"athens": None, "sparta": None}, Dice(b"any"))
    rolls = [r for r in log.records if r.get("event") == "navigation" and r["player"] == "athens"]
    assert [r["unit"] for r in rolls] == [f.id]
    assert any(r.get("event") == "nmr" and r["player"] == "athens" for r in log.records)
