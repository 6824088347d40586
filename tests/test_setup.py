"""Set-up (R-SET-1..6, R-TURN-2) as scenarios on the tiny map and the default Aegean."""
import pytest

from pbem.dice import Dice, ScriptedDice
from pbem.errors import UsageError
from pbem.gamedata import load_map, tables
from pbem.invariants import violations
from pbem.model import UnitType
from pbem.setup import check_players, new_campaign, roll_skills, roll_trait, roll_turn_order
from scenario import TINY

T = tables()


def fresh(players=("athens", "sparta", "troy"), seed=b"setup", game_map=TINY):
    return new_campaign("t", game_map, T, list(players), Dice(seed), {"last_turn": 36})


def test_R_SET_1_players_must_be_city_states_not_adjacent_and_2_to_12():
    with pytest.raises(UsageError, match="1 given"):
        check_players(TINY, ["athens"])
    with pytest.raises(UsageError, match="named twice"):
        check_players(TINY, ["athens", "Athens"])
    with pytest.raises(UsageError, match="not a city state"):
        check_players(TINY, ["athens", "atlantis"])
    with pytest.raises(UsageError, match="minor city"):
        check_players(TINY, ["athens", "megara"])
    aegean = load_map()
    states = [c.id for c in aegean.city_states()]
    with pytest.raises(UsageError, match="13 given"):
        check_players(aegean, states + ["athens"])
    assert check_players(aegean, states) == states


def test_R_SET_1_adjacent_home_cities_are_refused(tmp_path):
    # Sparta and Megara are adjacent on the tiny map; make Megara a city state to test the refusal.
    text = (TINY.source and open(TINY.source).read()).replace(
        "{id: megara, name: Megara, hex: \"0506\", kind: minor, income: 3}",
        "{id: megara, name: Megara, hex: \"0506\", kind: city_state, abbr: MEG}")
    path = tmp_path / "adj.yaml"
    path.write_text(text)
    m = load_map(path)
    with pytest.raises(UsageError, match="adjacent"):
        check_players(m, ["sparta", "megara"])


def test_R_SET_2_starting_forces_gold_leaders_traits_and_hands():
    s = fresh()
    for pid in ("athens", "troy"):  # coastal: 2 Armies, 2 Rowers aboard 2 Fleets
        units = s.units_of(pid)
        kinds = sorted(u.type.value for u in units if u.type is not UnitType.LEADER)
        assert kinds == ["army", "army", "fleet", "fleet", "rowers", "rowers"]
        for r in (u for u in units if u.type is UnitType.ROWERS):
            assert s.units[r.carried_by].type is UnitType.FLEET
    sparta = [u.type for u in s.units_of("sparta") if u.type is not UnitType.LEADER]
    assert sparta == [UnitType.ARMY] * 4  # landlocked: 4 Armies
    for p in s.players.values():
        assert p.gold == 10 and len(p.hand) == 5 and len(p.traits) == 6
        leaders = [u for u in s.units_of(p.id) if u.type is UnitType.LEADER]
        assert len(leaders) == 3 and all(1 <= len(l.skills) <= 3 and l.name for l in leaders)
        assert all(u.hex == TINY.cities[p.id].hex for u in s.units_of(p.id))
    assert s.cities["megara"].controller is None and s.cities["athens"].controller == "athens"
    assert s.cities["athens"].income == 7
    assert not violations(s, TINY, T)


def test_R_SET_3_leader_skill_count_and_duplicates_rerolled():
    # 1D6 = 4 -> two skills; 1D100 = 2 (Heroism), 3 (Heroism again: re-roll), 50 (Honorable)
    d = ScriptedDice([4, 2, 3, 50])
    assert roll_skills(T, d, "L") == ["heroism", "honorable"]
    assert d.remaining == 0
    assert roll_skills(T, ScriptedDice([3, 100]), "L") == ["historian"]  # 1-3: one skill; 00 is 100
    assert len(roll_skills(T, ScriptedDice([6, 1, 5, 9]), "L")) == 3  # 6: three skills


def test_R_SET_4_trait_64_and_duplicates_are_rerolled():
    d = ScriptedDice([6, 4, 1, 1, 1, 2])  # 64: no entry; 11 Stoicism already held; 12 Greek Fire
    assert roll_trait(T, d, ["stoicism"], "t") == "greek_fire"
    assert d.remaining == 0


def test_R_SET_4_every_minor_city_has_one_trait():
    s = fresh()
    for cid, city in s.cities.items():
        if city.home_of is None:
            assert city.trait in T.traits
        else:
            assert city.trait is None


def test_R_SET_5_minor_income_rolled_unless_the_map_fixes_it():
    s = fresh()
    assert s.cities["megara"].income == 3 and s.cities["delos"].income == 2  # fixed by the tiny map
    a = new_campaign("t", load_map(), T, ["athens", "sparta"], Dice(b"inc"), {})
    minors = [c for c in a.cities.values() if c.home_of is None]
    assert all(1 <= c.income <= 6 for c in minors)
    assert len({c.income for c in minors}) > 1


def test_R_SET_5_unchosen_city_states_become_minor_cities():
    s = fresh(("athens", "sparta"))
    assert s.cities["troy"].controller is None and s.cities["troy"].home_of is None
    assert s.cities["troy"].trait in T.traits


def test_R_SET_6_deck_holds_each_card_once_shuffled():
    s = fresh()
    all_cards = sorted(s.deck + [c for p in s.players.values() for c in p.hand])
    assert all_cards == sorted(T.cards) and len(all_cards) == 88
    assert s.deck != sorted(s.deck)


def test_R_TURN_2_turn_order_highest_first_ties_rerolled_among_the_tied():
    # a=7, b=9, c=7 -> b first; a and c re-roll: a=2, c=5 -> c, a
    order, first = roll_turn_order(["a", "b", "c"], ScriptedDice([7, 9, 7, 2, 5]))
    assert order == ["b", "c", "a"]
    assert first == {"a": 7, "b": 9, "c": 7}


def test_same_seed_same_state_different_seed_different_state():
    assert fresh(seed=b"one").to_json() == fresh(seed=b"one").to_json()
    assert fresh(seed=b"one").to_json() != fresh(seed=b"two").to_json()


@pytest.mark.parametrize("n", [2, 7, 12])
def test_the_aegean_takes_2_7_and_12_players(n):
    aegean = load_map()
    players = [c.id for c in aegean.city_states()][:n]
    s = new_campaign("t", aegean, T, players, Dice(b"n"), {})
    assert len(s.turn_order) == n and sorted(s.turn_order) == sorted(players)
    assert not violations(s, aegean, T)
    landlocked = [p for p in players if aegean.landlocked(p)]
    for p in landlocked:
        assert sum(u.type is UnitType.ARMY for u in s.units_of(p)) == 4


def test_state_round_trips_through_json():
    from pbem.model import GameState
    s = fresh()
    again = GameState.from_json(s.to_json())
    assert again.to_json() == s.to_json()
    assert again.to_dict() == s.to_dict()


# -- pbem new: a name that is one line of text, quoted in the order template when YAML needs it; a map file
# that is not a map is named, not dumped ----------------------------------------------------------------------

def _invoke(*args):
    from typer.testing import CliRunner
    from pbem.cli import app
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.mark.parametrize("name", ["true", "yes", "no", "on", "off", "null", "~", "12", "1.5", "a: b", "#x", " x"])
def test_a_campaign_named_like_another_yaml_value_gets_a_template_that_submits(tmp_path, name):
    from pbem import yamlio
    from pbem.playerkit import filled_template
    text = filled_template(name, 1, "athens")
    assert yamlio.parse(text, "t").data["campaign"] == name


def test_a_campaign_named_true_takes_its_players_files(tmp_path):
    from pbem.campaign import create
    made = create(tmp_path / "true", ["athens", "sparta"], seed="3")
    kit = made.campaign.reports_dir(0, "athens") / "kit"
    from pbem.playerkit import TEMPLATE_NAME, write_kit
    write_kit(made.campaign, "athens")
    text = (kit / TEMPLATE_NAME).read_text()
    text = text.replace("# secret: WRITE-YOUR-SECRET-HERE", f"secret: {made.secrets['athens']}  #", 1)
    (tmp_path / "o.yaml").write_text(text)
    r = _invoke("submit", made.campaign.root, tmp_path / "o.yaml")
    assert r.exit_code == 0 and "ACCEPTED" in r.output, r.output


@pytest.mark.parametrize("name", ["a\nb", "a\tb", "\x1b[31m", " "])
def test_a_name_that_is_not_one_line_of_text_is_refused_at_new(tmp_path, name):
    r = _invoke("new", tmp_path / "c", "--players", "athens,sparta", "--name", name)
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "--name" in r.output, r.output
    assert not (tmp_path / "c").exists()


def test_a_folder_name_that_is_not_one_line_is_refused_when_it_names_the_campaign(tmp_path):
    import os
    r = _invoke("new", tmp_path / "a\nb", "--players", "athens,sparta")
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "the folder's name" in r.output, r.output
    assert os.listdir(tmp_path) == []


def test_a_map_that_is_not_a_map_is_named_without_its_content(tmp_path):
    wrong = tmp_path / "passwd"
    wrong.write_text("".join(f"user{i}:x:{i}:{i}::/home/user{i}:/bin/sh\n" for i in range(200)))
    r = _invoke("new", tmp_path / "c", "--players", "athens,sparta", "--map", wrong)
    assert r.exit_code == 2 and r.output.count("\n") == 1 and str(wrong) in r.output, r.output
    assert len(r.output) < 300 and "user199" not in r.output, r.output
