"""The order checker and the cities the file's own cards win (a player-eyes review): a card in hand that wins a
neutral city for sure lets the moves enter it and counts the city's trait among the diplomacy rolls, with no
warning; a win that is not sure is a warning that says on what it depends; an attack on a city the file wins
first is warned."""
from __future__ import annotations


import pytest

from pbem.checker import check_text
from pbem.model import GameState
from demo_campaign import create_demo, edited, ATHENS, SPARTA, said, first
from pbem.storage import Campaign



@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Campaign:
    return create_demo(tmp_path_factory.mktemp("campaigns") / "demo")


# -- 2. cities a card of the file wins for sure -------------------------------------------------------------

def aegina_democracy(first_player: bool):
    def change(s: GameState):
        s.cities["aegina"].trait = "democracy"
        if first_player:
            first(s, "athens")
    return change


CARD = "cards:\n  - {card: formal_agreement, target: aegina}\n"
INTO_AEGINA = 'first_move:\n  - units: [ATH-F1]\n    path: ["1314", "1315", "1215"]\n'


def test_a_city_a_card_in_hand_wins_for_sure_may_be_entered_without_a_warning(demo, tmp_path):
    camp = edited(demo, tmp_path, aegina_democracy(True))
    r = check_text(ATHENS + CARD + INTO_AEGINA, "o.yaml", camp)
    assert not [f for f in r.findings if "Aegina" in f.message], said(r)


def test_a_city_a_card_may_win_is_a_warning_that_says_on_what_it_depends(demo, tmp_path):
    camp = edited(demo, tmp_path, aegina_democracy(False))  # Athens plays third
    r = check_text(ATHENS + CARD + INTO_AEGINA, "o.yaml", camp)
    [f] = [f for f in r.findings if "Aegina" in f.message and "Upkeep" not in f.message]
    assert f.severity == "warning" and f.path == "first_move[0].path[2]"
    assert f.message == ("1215 is Aegina, a neutral city now: Formal Agreement at cards[0] wins it for you before "
                         "the moves, unless a player before you in turn order takes it first"), f.message
    assert "may enter it only if you win it first" not in f.message
    # a diplomacy roll is never sure
    r = check_text(ATHENS + "diplomacy: [aegina]\n" + INTO_AEGINA, "o.yaml", camp)
    [f] = [f for f in r.findings if "Aegina" in f.message and "Upkeep" not in f.message]
    assert f.message == "1215 is Aegina, a neutral city now: your units may enter it only if your diplomacy roll " \
                        "at diplomacy[0] wins it", f.message
    # a card not in hand: played only if drawn
    r = check_text(ATHENS + "cards:\n  - {card: alliance, target: aegina}\n" + INTO_AEGINA, "o.yaml", camp)
    [f] = [f for f in r.findings if f.path == "first_move[0].path[2]" and "Upkeep" not in f.message]
    assert f.severity == "warning" and "only if Alliance at cards[0] wins it" in f.message, f.message
    # and no supply heads-up for the Rowers it takes into Aegina (tests/test_chk3_review.py): the move is made only
    # if the card wins Aegina, which then feeds them (tests/test_newplayer_checker.py); with partial: true it may stop
    # short at sea, and then they are fed only if the card wins it
    assert not [f for f in r.findings if f.path == "first_move[0].path[2]" and "Upkeep" in f.message], said(r)
    r = check_text(ATHENS + "cards:\n  - {card: alliance, target: aegina}\n" + INTO_AEGINA + "    partial: true\n",
                   "o.yaml", camp)
    [f] = [f for f in r.findings if f.path == "first_move[0].path[2]" and "Upkeep" in f.message]
    assert ", unless Alliance at cards[0] wins Aegina for you: at your next Upkeep" in f.message, f.message


def test_the_trait_of_a_city_won_for_sure_adds_its_diplomacy_roll(demo, tmp_path):
    """Athens has 2 rolls (1 free, its Benevolent leader); Aegina's Democracy, won by the card, makes 3."""
    camp = edited(demo, tmp_path, aegina_democracy(True))
    r = check_text(ATHENS + CARD + "diplomacy: [megara, chalcis, melos]\n", "o.yaml", camp)
    assert not [f for f in r.findings if f.path.startswith("diplomacy")], said(r)
    r = check_text(ATHENS + CARD + "diplomacy: [megara, chalcis, melos, delphi]\n", "o.yaml", camp)
    [f] = [f for f in r.findings if f.path.startswith("diplomacy")]
    # a warning: Athens' experience roll may still add a roll (the count the checker is sure of is 3)
    assert f.severity == "warning" and f.path == "diplomacy[3]"
    assert f.message.startswith("you have 3 diplomacy rolls this turn as far as the checker knows (1 free +1 "
                                "Benevolent (Astyochus' skill) +1 Democracy of Aegina (Formal Agreement) = 3), used "
                                "by the targets before this one"), f.message


def test_the_trait_of_a_city_a_card_may_win_is_a_conditional_roll(demo, tmp_path):
    camp = edited(demo, tmp_path, aegina_democracy(False))
    r = check_text(ATHENS + CARD + "diplomacy: [megara, chalcis, melos]\n", "o.yaml", camp)
    [f] = [f for f in r.findings if f.path.startswith("diplomacy")]
    assert f.severity == "warning" and f.path == "diplomacy[2]"
    assert f.message == ("you have 2 diplomacy rolls this turn (1 free +1 Benevolent (Astyochus' skill) = 2); this "
                         "target is rolled for "
                         "only if Formal Agreement at cards[0] wins Aegina first (its Democracy gives one more "
                         "roll)"), f.message
    assert "it is not rolled for" not in f.message
    r = check_text(ATHENS + CARD + "diplomacy: [megara, chalcis, melos, delphi]\n", "o.yaml", camp)
    [f] = [f for f in r.findings if f.path.startswith("diplomacy[3]")]
    assert f.message.startswith("you have 2 diplomacy rolls this turn as far as the checker knows (1 free +1 "
                                "Benevolent (Astyochus' skill) = 2; 3 if Formal Agreement at cards[0] wins Aegina "
                                "first (its Democracy gives one more roll)), which may be used by the targets before "
                                "this one: this target is rolled for only if a target before it fails"), f.message


# -- 3. an attack on a city the file wins before the battles ------------------------------------------------

def sparta_ambassador(first_player: bool):
    def change(s: GameState):
        s.players["thebes"].hand.remove("ambassador")
        s.players["sparta"].hand.append("ambassador")
        s.place(s.units["SPA-A1"], "0816")  # next to Argos (0916)
        if first_player:
            first(s, "sparta")
    return change


ATTACK_ARGOS = 'land_battle:\n  - units: [SPA-A1]\n    target: "0916"\n'


def test_an_attack_on_a_city_a_card_wins_first_is_warned(demo, tmp_path):
    for sure in (True, False):
        camp = edited(demo, tmp_path / str(sure), sparta_ambassador(sure))
        r = check_text(SPARTA + "cards:\n  - {card: ambassador, target: argos}\n" + ATTACK_ARGOS, "o.yaml", camp)
        [f] = [f for f in r.findings if f.path == "land_battle[0].target"]
        assert f.severity == "warning"
        if sure:
            assert f.message == ("Ambassador at cards[0] wins Argos for you before the battles: this attack on it "
                                 "will fail (a city of yours is no target)"), f.message
        else:
            assert f.message == ("if Ambassador at cards[0] wins Argos for you before the battles (unless a "
                                 "player before you takes it first), this attack on it fails (a city of yours is "
                                 "no target)"), f.message
    # a diplomacy roll may fail: attacking the city in case it does is a plan, but one a player should know
    # the cost of (an Ionia player's roll on Miletus came up 6 and his attack failed with no word: a warning
    # whose hint says it may be meant, tests/test_chk4_review.py)
    r = check_text(SPARTA + "diplomacy: [argos]\n" + ATTACK_ARGOS, "o.yaml", camp)
    [f] = [f for f in r.findings if f.path == "land_battle[0].target"]
    assert f.severity == "warning" and "Argos is yours and this attack on it fails" in f.message, said(r)
    assert f.hint == "keep both only if you mean to attack Argos in case the roll fails"


def test_a_card_that_needs_a_neutral_city_names_its_holder_as_players_read_it(demo, tmp_path):
    """A new player's review: "Melos is controlled by corinth, not neutral" gave the raw id."""
    def corinthian(s: GameState):
        s.cities["aegina"].controller = "corinth"
    r = check_text(ATHENS + CARD, "o.yaml", edited(demo, tmp_path, corinthian))
    [f] = [f for f in r.findings if "not neutral" in f.message]
    assert f.message == "Aegina is controlled by the Corinthians, not neutral", f.message
