"""The end of the game turn: victory and elimination (R-WIN-1).  The tiny map has 5 cities."""
from __future__ import annotations

from pbem.phases import endturn

from scenario import add, context, events, make_state


def end_turn(s, player="athens"):
    ctx = context(s, player, [])
    ctx.player, ctx.phase, ctx.log.phase = "", "end", "end"
    endturn.resolve(ctx)
    return ctx


def test_R_WIN_1_no_victory_before_the_last_turn():
    s = make_state()
    s.cities["megara"].controller = "athens"
    ctx = end_turn(s)
    assert not s.finished and s.winner is None and s.turn == 2
    assert not events(ctx, "victory")


def test_R_WIN_1_most_cities_after_the_last_turn():
    s = make_state()
    s.last_turn = s.turn = 36
    s.cities["megara"].controller = "athens"
    s.players["athens"].gold = 0
    ctx = end_turn(s)
    assert s.finished and s.winner == "athens" and s.turn == 37
    assert [r["player"] for r in s.standings] == ["athens", "sparta"]
    assert s.standings[0]["cities"] == 2 and s.standings[0]["rank"] == 1
    [v] = events(ctx, "victory")
    assert v["winner"] == "athens" and v["reason"] == "last turn"


def test_R_WIN_1_historian_counts_as_a_city_and_ties_go_to_gold():
    s = make_state()
    s.last_turn = s.turn = 36
    s.cities["megara"].controller = "athens"
    add(s, "sparta", "leader", "0505", skills=["historian"])
    s.players["sparta"].gold = 11
    end_turn(s)
    rows = {r["player"]: r for r in s.standings}
    assert rows["sparta"]["score"] == 2 and rows["sparta"]["victory_cities"] == 1
    assert s.winner == "sparta", "2 against 2: Sparta has more gold"


def test_R_WIN_1_away_historian_does_not_count():
    s = make_state()
    s.last_turn = s.turn = 36
    s.cities["megara"].controller = "athens"
    add(s, "sparta", "leader", "0505", skills=["historian"], away_until=40)
    s.players["sparta"].gold = 11
    end_turn(s)
    assert s.winner == "athens"


def test_R_WIN_1_tie_on_cities_and_gold_goes_to_units():
    s = make_state()
    s.last_turn = s.turn = 36
    add(s, "sparta", "army", "0505")
    end_turn(s)
    assert s.winner == "sparta"
    assert [r["units"] for r in s.standings] == [1, 0]


def test_R_WIN_1_early_victory_on_a_majority():
    s = make_state()
    s.options["early_victory"] = True
    s.cities["megara"].controller = "athens"
    end_turn(s)
    assert not s.finished, "2 of 5 cities is no majority"
    s.cities["delos"].controller = "athens"
    ctx = end_turn(s)
    assert s.finished and s.winner == "athens" and events(ctx, "victory")[0]["reason"] == "majority of cities"


def test_R_WIN_1_early_victory_is_off_by_default():
    s = make_state()
    for c in ("megara", "delos", "troy"):
        s.cities[c].controller = "athens"
    end_turn(s)
    assert not s.finished


def test_R_WIN_1_player_without_city_or_unit_is_out_and_last_one_wins():
    s = make_state(("athens", "sparta", "troy"))
    s.cities["sparta"].controller = "athens"
    ctx = end_turn(s)
    assert s.players["sparta"].eliminated_turn == 1
    assert [e["who"] for e in events(ctx, "eliminated")] == ["sparta"]
    assert not s.finished
    s.cities["troy"].controller = "athens"
    end_turn(s)
    assert s.players["troy"].eliminated_turn == 2
    assert s.finished and s.winner == "athens"
    assert s.standings[-1]["eliminated"] is not None


def test_R_WIN_1_a_unit_keeps_a_player_in_the_game():
    s = make_state()
    s.cities["sparta"].controller = "athens"
    add(s, "sparta", "baggage", "0404")
    end_turn(s)
    assert s.players["sparta"].eliminated_turn is None


def test_R_PH_REV_neutral_cities_still_clear_a_razed_counter():
    s = make_state()
    s.cities["megara"].razed = 3
    s.cities["delos"].razed = 2
    s.cities["delos"].controller = "athens"
    end_turn(s)
    assert s.cities["megara"].razed == 2 and s.cities["delos"].razed == 2
