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
