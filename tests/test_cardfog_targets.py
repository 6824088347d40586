"""A card's target must be in its player's sight when it is played (docs/rules.md, Decision (fog, card
targets); red-team review: cards were an oracle past the fog).

Desertions, Short Supplies, Storms, Starvation, Exiled and Assassination aimed out of sight used to resolve and
report what they did there (the dice, the units disbanded, "Army of the Spartans starves", "Leader Antiphon of
the Thebans leaves play"), Storms on an empty hex said nothing (so: no ships there), and a unit id never raised
failed with "does not name a stack" while a real one was played -- an oracle of what stands past the fog.  Now
such a card fails with one reason that reads the same whether anything is there or not, and stays in hand
(R-TURN-4).  Plague names a city (a public fact) and is played, but its player reads only what it did in sight.
The target's owner still reads what a card did to their units, and who played it."""
import pytest

from pbem.report import Namer, describe
from pbem.visibility import events_for, sight
from scenario import TABLES, TINY, add, give, make_state, orders, run_phase

FOG = "its target is not in your sight (a card's target must be in your sight when it is played)"
BY_ID = ("a card names another player's stack by its hex and their leader by name, never by a unit id (their ids "
         "are not yours to know)")


def _namer(state):
    return Namer(TINY, TABLES, {p: {"name": state.players[p].name} for p in state.players})


def _play(s, player, uses, dice=()):
    before = s.copy()
    ctx = run_phase("diplomacy", s, player, dice=list(dice), orders=orders(player, cards=uses))
    return before, ctx


def _lines(s, before, ctx, who):
    """The player's report lines for the turn's events (the dice as their own lines)."""
    out = []
    for r in events_for(ctx.log.records, who, game_map=TINY, states=[before, s]):
        out.append(describe(r, _namer(s), who) if "event" in r else f"die {r['roll']['die']}: {r['roll']['result']}")
    return out


def _state():
    """Athens (0302) sees 0201-0402; Sparta's units stand at 0707, far out of it; Troy's at home (0903)."""
    s = make_state(players=("athens", "sparta", "troy"), gold=10)
    add(s, "athens", "army", "0302")
    return s


def test_desertions_on_a_stack_out_of_sight_fails_alike_with_or_without_units_there():
    lines = {}
    for target in ("0707", "0607"):  # Sparta's Army stands at 0707; 0607 is empty; both out of sight
        s = _state()
        army = add(s, "sparta", "army", "0707")
        assert "0707" not in sight(s, TINY, "athens") and "0607" not in sight(s, TINY, "athens")
        give(s, "athens", "desertions")
        before, ctx = _play(s, "athens", [{"card": "desertions", "target": target}])  # no die is rolled
        [failed] = [r for r in ctx.log.records if r.get("event") == "order_failed"]
        assert failed["reason"] == f"Desertions cannot be played: {FOG}"
        assert "desertions" in s.players["athens"].hand and army.starvation == 0 and army.id in s.units
        lines[target] = _lines(s, before, ctx, "athens")
        assert not _lines(s, before, ctx, "sparta")  # nothing was played on them
    assert lines["0707"] == lines["0607"] == [
        "Your order Cards #1: FAILED: Desertions cannot be played: its target is not in your sight (a card's "
        "target must be in your sight when it is played)"]


def test_another_players_unit_id_is_never_a_target_whatever_it_names():
    """A final review: naming their units by id (SPA-A1 fails, SPA-A2 plays) told which unit in sight bears which
    id; now an id of another player's unit is refused with one reason, in sight or not, raised or not."""
    lines = {}
    for target in ("SPA-A1", "SPA-A2", "SPA-A9", "spa-l1"):  # out of sight, in sight, never raised, a leader
        s = _state()
        add(s, "sparta", "army", "0707")
        add(s, "sparta", "army", "0303")  # SPA-A2, next to Athens' Army: in sight
        give(s, "athens", "desertions", "exiled")
        card = "exiled" if target.endswith("l1") else "desertions"
        before, ctx = _play(s, "athens", [{"card": card, "target": target}])
        assert card in s.players["athens"].hand and len(s.units) == 3
        lines[target] = [x.replace("Exiled", "Desertions") for x in _lines(s, before, ctx, "athens")]
    assert lines["SPA-A1"] == lines["SPA-A2"] == lines["SPA-A9"] == lines["spa-l1"] == [
        f"Your order Cards #1: FAILED: Desertions cannot be played: {BY_ID}"]


def test_desertions_on_a_stack_in_sight_is_played_and_its_owner_reads_it_whole():
    s = _state()
    army = add(s, "sparta", "army", "0303")  # next to Athens
    give(s, "athens", "desertions")
    before, ctx = _play(s, "athens", [{"card": "desertions", "target": "0303"}], dice=[6])
    assert army.id not in s.units and "desertions" in s.discard
    mine = _lines(s, before, ctx, "athens")
    assert "You played Desertions on 0303 Hills" in mine, mine  # their stack, named by its hex
    assert "Army of the Spartans disbanded (Desertions); upkeep roll 6, and any modifiers of theirs, which you do " \
           "not see" in mine
    assert army.id not in repr(mine)
    theirs = _lines(s, before, ctx, "sparta")
    assert any(x.startswith("Athenians played Desertions on") for x in theirs)
    assert any(x.startswith(f"Your {army.id} disbanded (Desertions); upkeep roll 6") for x in theirs)


@pytest.mark.parametrize("ships", [0, 2])
def test_storms_out_of_sight_fails_the_same_with_or_without_ships(ships):
    s = _state()
    for _ in range(ships):
        add(s, "troy", "fleet", "1002")  # at sea next to Troy, out of Athens' sight
    give(s, "athens", "storms")
    before, ctx = _play(s, "athens", [{"card": "storms", "target": "1002"}])  # no navigation roll
    assert _lines(s, before, ctx, "athens") == [
        f"Your order Cards #1: FAILED: Storms cannot be played: {FOG}"]
    assert "storms" in s.players["athens"].hand and len(s.units) == 1 + ships
    assert not _lines(s, before, ctx, "troy")


def test_short_supplies_and_starvation_out_of_sight_fail_with_the_one_reason():
    s = _state()
    add(s, "sparta", "army", "0707")
    bags = [add(s, "sparta", "baggage", "0707") for _ in range(3)]
    add(s, "troy", "army", "0804")  # next to Troy: Troy is besieged, out of Athens' sight
    add(s, "sparta", "army", "0904")
    give(s, "athens", "short_supplies", "starvation")
    before, ctx = _play(s, "athens", [{"card": "short_supplies", "target": "0708"},
                                      {"card": "short_supplies", "target": "0707"},
                                      {"card": "starvation", "target": "troy"},
                                      {"card": "starvation", "target": "delos"}])  # Delos: not besieged
    assert all(b.id in s.units for b in bags)
    assert _lines(s, before, ctx, "athens") == [
        f"Your order Cards #1: FAILED: Short supplies cannot be played: {FOG}",
        f"Your order Cards #2: FAILED: Short supplies cannot be played: {FOG}",
        f"Your order Cards #3: FAILED: Starvation cannot be played: {FOG}",
        f"Your order Cards #4: FAILED: Starvation cannot be played: {FOG}"]


def test_exiled_and_assassination_out_of_sight_name_no_one():
    s = _state()
    add(s, "troy", "leader", "0903", name="Antiphon")
    add(s, "troy", "leader", "0903", name="Lycophron")
    give(s, "athens", "exiled", "assassination")
    uses = [{"card": "exiled", "target": "Antiphon"}, {"card": "exiled", "target": "Kleon"},
            {"card": "assassination", "target": "Lycophron"}, {"card": "assassination", "target": "Brasidas"}]
    before, ctx = _play(s, "athens", uses)
    assert all(u.away_until is None for u in s.units.values()) and len(s.units) == 3
    mine = _lines(s, before, ctx, "athens")
    assert mine == [
        f"Your order Cards #1: FAILED: Exiled cannot be played: {FOG}",
        f"Your order Cards #2: FAILED: Exiled cannot be played: {FOG}",
        f"Your order Cards #3: FAILED: Assassination cannot be played: {FOG}",
        f"Your order Cards #4: FAILED: Assassination cannot be played: {FOG}"]
    assert "Antiphon" not in repr(events_for(ctx.log.records, "athens", game_map=TINY, states=[before, s]))


def test_a_leader_in_sight_is_exiled_and_its_owner_is_told_who_did_it():
    s = _state()
    add(s, "troy", "leader", "0303", name="Antiphon")  # next to Athens
    give(s, "athens", "exiled")
    before, ctx = _play(s, "athens", [{"card": "exiled", "target": "Antiphon"}], dice=[1, 2])
    assert s.units["TRO-L1"].away_until is not None
    theirs = _lines(s, before, ctx, "troy")
    assert theirs[0].startswith("Athenians played Exiled on") and any("Your leader Antiphon" in x for x in theirs)


def test_own_leaders_are_always_in_sight():
    s = _state()
    add(s, "athens", "leader", "0302", name="Pericles")
    give(s, "athens", "exiled")
    _, ctx = _play(s, "athens", [{"card": "exiled", "target": "Pericles"}], dice=[1, 1])
    assert s.units["ATH-L1"].away_until is not None


def _plague_on_troy(troy_units: int, watcher: str | None = None):
    s = _state()
    for _ in range(troy_units):
        add(s, "troy", "army", "0903")
    if watcher:
        add(s, "athens", "leader", watcher)
    give(s, "athens", "plague")
    before, ctx = _play(s, "athens", [{"card": "plague", "target": "troy"}], dice=[6, 3][:troy_units])
    return s, before, ctx


def test_plague_on_a_city_out_of_sight_is_played_and_tells_nothing_of_what_stood_there():
    seen = {}
    for n in (0, 2):
        s, before, ctx = _plague_on_troy(n)
        assert "plague" in s.discard
        seen[n] = _lines(s, before, ctx, "athens")
    assert seen[0] == seen[2] == ["You played Plague on Troy", "Your order Cards #1: done: played Plague"]
    # Troy reads what happened to its units, with the dice, and who played the card
    s, before, ctx = _plague_on_troy(2)
    theirs = _lines(s, before, ctx, "troy")
    assert theirs[0] == "Athenians played Plague on Troy"
    assert "die 1D6: 6" in theirs and any(x.startswith("Your TRO-A1 disbanded (Plague)") for x in theirs)
    assert any(x.startswith("Your TRO-A2 starves (Plague)") for x in theirs)


def test_plague_on_a_city_in_sight_shows_the_die_and_the_cards_modifier_not_the_units_ids():
    s, before, ctx = _plague_on_troy(2, watcher="0803")  # next to Troy
    mine = _lines(s, before, ctx, "athens")
    assert any(x.startswith("Army of the Trojans disbanded (Plague); upkeep roll 6 +2 Plague (card)") for x in mine)
    assert "TRO-A" not in repr(mine)


@pytest.mark.parametrize("besieger", [True, False])
def test_starvation_on_a_city_in_sight_with_its_surroundings_out_of_sight_says_nothing_of_a_siege(besieger):
    """A final review: with only the city's hex in sight, Starvation played where an unseen enemy stood next to it
    and failed "is not under siege now" where none did.  The city and every hex around it must be in sight."""
    s = _state()
    add(s, "troy", "army", "0903")
    around = TINY.around_city["troy"]
    watcher = next(h for h in TINY.neighbours["0903"] if TINY.is_land(h) and h not in TINY.city_at)
    add(s, "athens", "leader", watcher)
    seen = sight(s, TINY, "athens")
    unseen = [h for h in around if h not in seen and h not in TINY.city_at]
    assert "0903" in seen and unseen, (watcher, seen)
    if besieger and TINY.is_land(unseen[0]):
        add(s, "sparta", "army", unseen[0])
    elif besieger:  # at sea next to Troy: a manned Fleet besieges it (R-PH-REV)
        fleet = add(s, "sparta", "fleet", unseen[0])
        add(s, "sparta", "rowers", unseen[0], carried_by=fleet.id)
    give(s, "athens", "starvation")
    before, ctx = _play(s, "athens", [{"card": "starvation", "target": "troy"}])
    assert _lines(s, before, ctx, "athens") == [f"Your order Cards #1: FAILED: Starvation cannot be played: {FOG}"]
    assert "starvation" in s.players["athens"].hand
