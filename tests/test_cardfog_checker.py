"""The order checker agrees with the adjudicator on card targets out of sight (docs/rules.md, Decision (fog, card
targets)): such a card is played only if its target is in sight when it is played, so the checker warns so, in
words that are the same for a unit or leader out of sight and for one that does not exist, from the kit as
from the whole state (intake answers as the kit does)."""
from __future__ import annotations

import pytest

from pbem.checker import check_text
from pbem.gamedata import tables
from pbem.playerkit import write_kit
from pbem.storage import Campaign
from pbem.visibility import sight
from demo_campaign import create_demo

ATHENS = "campaign: demo\nturn: 1\nplayer: athens\nsecret: b6bf-5bc2-a03d-344d\n"
WHEN = "is in your sight when it is played"


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Campaign:
    return create_demo(tmp_path_factory.mktemp("campaigns") / "demo")


@pytest.fixture(scope="module")
def kit(demo) -> Campaign:
    return Campaign.open(write_kit(demo, "athens"))


def findings(camp, body, **kw):
    return [(f.severity, f.path, f.message, f.hint)
            for f in check_text(ATHENS + body, "o.yaml", camp, **kw).findings if f.path.endswith("target")]


def answers(demo, kit, body):
    """The kit's findings, checked to be intake's too (the whole state read as Athens sees it)."""
    mine = findings(kit, body)
    assert findings(demo, body, as_player="athens") == mine
    return mine


def test_another_players_unit_id_gets_the_same_error_raised_or_not(demo, kit):
    """A final review: a card on their units by id told which unit in sight bears which id; the checker refuses
    such an id alike whether it is in play (SPA-A1) or was never raised (SPA-A9)."""
    state = demo.load_state()
    assert "SPA-A1" in state.units and "SPA-A9" not in state.units
    got = {uid: answers(demo, kit, f"cards: [{{card: desertions, target: {uid}}}]\n") for uid in ("SPA-A1", "SPA-A9")}
    assert got["SPA-A1"] == [("error", "cards[0].target", "SPA-A1 is another player's unit id: a card names another player's stack by its hex and their leader by name, never by a unit id (their ids are not yours to know)", "name their stack by its hex")]
    assert [(s, p, m.replace("SPA-A9", "SPA-A1"), h) for s, p, m, h in got["SPA-A9"]] == got["SPA-A1"]


def test_a_hex_and_a_besieged_city_out_of_sight_are_warned_of_without_a_word_of_what_is_there(demo, kit):
    assert answers(demo, kit, 'cards: [{card: storms, target: "1014"}, {card: short_supplies, target: "1014"}]\n') \
        == [("warning", f"cards[{i}].target", f"1014 is out of your sight now: {c} is played only if 1014 {WHEN}",
             None) for i, c in enumerate(("Storms", "Short supplies"))]
    assert answers(demo, kit, "cards: [{card: starvation, target: sparta}]\n") == [
        ("warning", "cards[0].target", f"Sparta is out of your sight now: Starvation is played only if Sparta {WHEN}",
         None)]
    assert findings(kit, 'cards: [{card: storms, target: "1314"}]\n') == []  # next to Athens


def test_a_leader_out_of_sight_and_a_name_no_leader_bears_get_the_same_warning(demo, kit):
    state = demo.load_state()
    theirs = sorted(u.name for u in state.units.values() if u.owner == "sparta" and u.name)
    used = {u.name for u in state.units.values() if u.name}
    free = next(n for n in sorted(tables().leader_names) if n not in used)
    got = {name: answers(demo, kit, f"cards: [{{card: assassination, target: {name}}}]\n")
           for name in (theirs[0], free)}
    for name, said in got.items():
        [(sev, path, msg, hint)] = said
        assert (sev, msg) == ("warning", f"{name} is out of your sight now: Assassination is played only if {name} "
                                         f"{WHEN}")
    assert got[theirs[0]][0][3] == got[free][0][3]  # the same hint: the leaders in sight


def test_a_besieger_may_name_the_city_it_besieges_though_its_far_side_is_out_of_sight(demo, tmp_path):
    """A referee: Starvation could never be played by a lone besieger, three hexes around the city being out of its
    sight; the adjudicator now plays it when the player's own combat unit besieges the city (the siege is known
    from their own units; docs/rules.md, Decision (fog, card targets)), and the checker says the same: no
    out-of-sight warning, from the kit as from the whole state."""
    from demo_campaign import edited
    from pbem.model import Unit, UnitType

    def besiege(s) -> None:
        s.cities["argos"].controller = "sparta"  # 0916; Athens' Army at 0815, next to it
        s.add_unit(Unit(s.new_unit_id("ATH", UnitType.ARMY), UnitType.ARMY, "athens", "0815"))
    camp = edited(demo, tmp_path / "besieged", besiege)
    state = camp.load_state()
    assert not all(h in sight(state, camp.game_map, "athens") for h in camp.game_map.around_city["argos"])
    body = "cards: [{card: starvation, target: argos}]\n"
    assert findings(Campaign.open(write_kit(camp, "athens")), body) == []
    assert findings(camp, body, as_player="athens") == []
