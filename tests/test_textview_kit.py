"""`pbem show` on a player's kit: headed as the player's, the others' treasuries and hands hidden."""
from pbem.gamedata import tables
from pbem.playerkit import write_kit
from pbem.storage import Campaign
from pbem.textview import render, show
from pbem.visibility import view

from test_playerkit import played

import pytest


def test_a_kit_is_shown_as_its_player_sees_it(tmp_path):
    camp = played(tmp_path, 2)
    state = camp.load_state()
    kit = Campaign.open(write_kit(camp, "athens"))
    kit_state = kit.load_state()
    # render itself, given the kit, even from a whole view of the kit's state (what `pbem show KIT` passes now)
    whole = render(view(kit_state, kit.game_map, None), kit.game_map, tables(), kit=("athens", state.turn))
    text = show(kit)
    for out in (whole, text):
        assert f"Seen by: Athenians (kit of turn {state.turn})" in out
        assert "moderator" not in out
        assert "Other players' treasuries, hands and traits: hidden (not in your kit)" in out
        assert f"Treasury: {state.players['athens'].gold} gold" in out
        assert " 0 gold" not in out  # the others' zeros in the kit are not shown as treasuries
    assert "Your units:" in text
    with pytest.raises(Exception, match="kit of athens"):
        show(kit, "sparta")
    # a campaign folder is shown as before
    assert "Seen by: the moderator (everything)" in show(camp)
    assert "Seen by: Spartans" in show(camp, "sparta")


def test_a_kit_keeps_the_deck_and_discard_sizes_without_their_cards(tmp_path):
    """`pbem show KIT` gave "Deck: 0 cards; discard pile: 0 cards" where the report said 22/36: the sizes are
    public, the cards are not."""
    from pbem.visibility import HIDDEN_CARD, redact
    camp = played(tmp_path, 3)
    state = camp.load_state()
    state.discard, state.deck = state.deck[:5], state.deck[5:]  # a discard pile to count
    camp.save_state(state)
    kit = Campaign.open(write_kit(camp, "athens"))
    kit_state = kit.load_state()
    assert set(kit_state.deck) == set(kit_state.discard) == {HIDDEN_CARD}
    assert (len(kit_state.deck), len(kit_state.discard)) == (len(state.deck), 5)
    text = show(kit)
    assert f"Deck: {len(state.deck)} cards; discard pile: 5 cards" in text
    assert not any(tables().cards[c].name in text for c in state.deck + state.discard
                   if c not in state.players["athens"].hand)
    # the kit's view is the player's view of the real state, piles included
    real, red = view(state, camp.game_map, "athens"), view(redact(state, camp.game_map, "athens"), camp.game_map,
                                                         "athens")
    assert (real["deck_size"], real["discard_size"]) == (red["deck_size"], red["discard_size"])
    # the bot plays from a kit as from the real state
    from pbem.bot import write_orders
    args = (kit.game_map, tables(), "kit", kit_state.turn, "s")
    assert write_orders(red, *args) == write_orders(view(kit_state, kit.game_map, "athens"), *args)
    assert write_orders(red, *args) == write_orders(real, *args)


def test_pbem_show_lists_an_exiled_leader_away_not_under_the_hex_he_left():
    """As the reports (tests/test_newplayer_report.py): a new player read "0403 ... ATH-L1 leader
    Astyochus away until turn 10" as "my leader is still at 0403"; `pbem show` lists him in a group of his own."""
    from pbem.gamedata import load_map
    from pbem.textview import render_units
    units = [{"id": "ATH-A1", "type": "army", "hex": "0403"},
             {"id": "ATH-L1", "type": "leader", "hex": "0403", "name": "Astyochus", "skills": [], "away_until": 10}]
    assert render_units(units, load_map(), tables()) == [
        "  0403 Rocky Coast:", "    ATH-A1 army",
        "  Away (out of play):", "    ATH-L1 leader Astyochus out of play until turn 10"]
