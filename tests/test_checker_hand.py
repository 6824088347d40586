"""The checker and the Draw phase (R-PH-DRAW): a warning when the hand will be over the limit after the 2
cards drawn and the discard lists do not name enough cards, saying which way the discard will go (the most
recently drawn first, as pbem/phases/draw.py does) and suggesting a discard: list; and a warning for a
standing defence card that can act on none of the player's units (a card for Fleets, or for sea battles,
and no ship)."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.campaign import create
from pbem.checker import check_text
from pbem.dice import ScriptedDice
from pbem.storage import Campaign

from scenario import events, make_state, orders, run_phase, give

TINY_MAP = Path(__file__).parent / "fixtures" / "tiny.yaml"
HAND = ["storms", "spy", "coup", "raids", "truce", "intrigue"]  # 6 cards: 8 after the draw, limit 7


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    made = create(tmp_path_factory.mktemp("hand") / "c", ["athens", "sparta"], seed="7", map_file=TINY_MAP)
    camp = made.campaign
    st = camp.load_state()
    st.turn_order = ["athens", "sparta"]
    st.players["athens"].hand = list(HAND)
    st.players["sparta"].hand = ["diekplus_circle", "narrow_channel", "tactical_ruse"]
    camp.save_state(st)
    heads = {p: f"campaign: {st.campaign}\nturn: 1\nplayer: {p}\nsecret: {made.secrets[p]}\n" for p in st.players}
    return Campaign.open(camp.root), heads


def findings(game, body: str, player: str = "athens") -> list[tuple[str, str, str, str]]:
    camp, heads = game
    return [(f.severity, f.path, f.message, f.hint or "") for f in
            check_text(heads[player] + body, "o.yaml", camp).findings]


def hand_warnings(game, body: str):
    return [f for f in findings(game, body) if "over your hand limit" in f[2]]


def test_R_PH_DRAW_over_the_limit_without_a_discard_list_warns_and_suggests_one(game):
    [(sev, path, msg, hint)] = hand_warnings(game, "")
    assert sev == "warning" and path == ""
    assert msg == ("you hold 6 cards and draw 2: 8 is over your hand limit of 7, so 1 card will be discarded, "
                   "the most recently drawn first: the second card you draw")
    assert hint == "to choose, write discard: [intrigue]", "the latest card of the hand the orders do not use"


def test_R_PH_DRAW_the_suggestion_skips_cards_the_orders_play(game):
    [(_, _, _, hint)] = hand_warnings(game, "cards: [intrigue]\n")
    assert hint == "to choose, write discard: [truce]"
    [(_, _, _, hint)] = hand_warnings(game, "standing: {reactions: [truce]}\ncards: [intrigue]\n")
    assert hint == "to choose, write discard: [raids]"


def test_R_PH_DRAW_a_discard_list_naming_enough_cards_is_quiet(game):
    assert hand_warnings(game, "discard: [storms]\n") == []
    assert hand_warnings(game, "standing: {discard: [spy]}\n") == []


def test_R_PH_DRAW_a_discard_list_of_cards_not_in_hand_does_not_count(game):
    [(_, path, msg, hint)] = hand_warnings(game, "discard: [plague]\n")
    assert path == "discard" and "1 card will be discarded" in msg
    assert hint == "to choose, write discard: [intrigue]"


def test_R_PH_DRAW_the_warning_says_what_the_draw_phase_does():
    """The adjudicator, with the orders of the warned file: the second card drawn goes; with the suggested
    discard list, the card suggested goes instead."""
    for discard, gone in (([], "night_raid"), (["intrigue"], "intrigue")):
        s = make_state()
        give(s, "athens", *HAND)
        s.deck.remove("elite_units")
        s.deck.remove("night_raid")
        s.deck[:0] = ["elite_units", "night_raid"]  # drawn from the top: elite_units, then night_raid
        ctx = run_phase("draw", s, "athens", orders=orders("athens", discard=discard))
        [d] = events(ctx, "discard")
        drawn = events(ctx, "draw")[0]["cards"]
        assert d["cards"] == [gone], (drawn, d)
        if not discard:
            assert drawn[-1] == gone, "the second card drawn"


@pytest.mark.parametrize("card,says", [
    ("diekplus_circle", "it acts on your Fleets, and you have none"),
    ("narrow_channel", "it counts in sea battles only, and you have no ships to defend"),
])
def test_R_BAT_5_a_defence_card_for_ships_of_a_player_without_ships(game, card, says):
    """Sparta (landlocked, 4 Armies) holds sea defence cards: they can never count for it now."""
    got = [f for f in findings(game, f"standing: {{defence_cards: [{card}]}}\n", "sparta")
           if f[1] == "standing.defence_cards[0]"]
    assert [(f[0], f[2]) for f in got] == [("warning", f"{got[0][2].split(':')[0]}: {says} (nor recruit any in "
                                                        f"these orders)")], got
    assert "can never count for you now" in got[0][2]


def test_R_BAT_5_a_defence_card_for_any_battle_is_quiet(game):
    got = findings(game, "standing: {defence_cards: [tactical_ruse]}\n", "sparta")
    assert not [f for f in got if f[1].startswith("standing.defence_cards")], got


def test_R_BAT_5_a_fleet_card_is_quiet_for_a_player_with_fleets(game):
    got = findings(game, "standing: {defence_cards: [diekplus_circle]}\n", "athens")
    assert not [f for f in got if "can never count" in f[2]], got
