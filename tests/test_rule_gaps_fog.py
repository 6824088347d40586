"""Fog of war gaps a mutation-testing review found (pbem.visibility): the player kit (``redact``) and the
map view (``view``) must not carry other players' leader skills or standing orders, nor exiled leaders; an
exiled leader of one's own gives no sight.  Each test names the mutant it kills.

What a player may know is docs/rules.md's fog of war (and pbem/visibility.py's docstring): of other factions'
units, counts by type and leaders' names in sight; never their skills or standing orders.  An exiled leader
(Exiled card, ``away_until`` set) has left play until it returns (docs/rules.md, Decision (Exiled)).

On the tiny map: Athens (0302) in the north-west, Sparta (0505) in the middle; 0404 and 0405 are next to
each other, 0606 and 0607 far from Athens.
"""
from __future__ import annotations

from pbem.visibility import redact, sight, view

from scenario import TINY, add, make_state


def test_kit_withholds_enemy_leader_skills_and_other_players_standing_orders():
    """A Spartan leader in Athens' sight shows in Athens' kit by type and name only: no skills; Sparta's
    standing orders (retreat preference, defence cards, captured leaders) are not in the kit, nor anywhere in
    its JSON.  Athens' own leader keeps its skills and Athens its standing orders.  Kills VIS3 (kit keeps
    enemy leader skills) and VIS8 (kit keeps other players' standing orders)."""
    s = make_state()
    mine = add(s, "athens", "leader", "0404", name="Pericles", skills=["logistics"])
    add(s, "athens", "army", "0404")
    theirs = add(s, "sparta", "leader", "0405", name="Brasidas", skills=["heroism", "siegecraft"])
    s.players["athens"].standing = {"retreat": {"0404": ["0402"]}}
    s.players["sparta"].standing = {"retreat": {"0405": ["0406"]}, "captured_leaders": "execute",
                                    "defence_cards": [{"card": "outflank", "hex": "0405"}]}
    assert "0405" in sight(s, TINY, "athens")
    kit = redact(s, TINY, "athens")
    [seen] = [u for u in kit.units.values() if u.owner == "sparta"]
    assert seen.name == "Brasidas" and seen.skills == [] and seen.id != theirs.id
    assert kit.players["sparta"].standing == {}
    assert kit.units[mine.id].skills == ["logistics"]
    assert kit.players["athens"].standing == {"retreat": {"0404": ["0402"]}}
    text = kit.to_json()
    for secret in ("heroism", "siegecraft", "0406", "execute", "outflank"):
        assert secret not in text, f"{secret} leaked into Athens' kit"
    assert s.units[theirs.id].skills == ["heroism", "siegecraft"], "redact never changes the state"
    assert s.players["sparta"].standing["captured_leaders"] == "execute"


def test_an_exiled_leader_gives_its_owner_no_sight():
    """Decision (Exiled): an exiled leader is out of play; it is no one's eyes.  Athens, whose home city
    Sparta holds, has only an exiled leader at 0606: it sees nothing around 0606 (the Spartan Army next to it at
    0607 is not in its view).  Kills VIS1 (an exiled leader's hex still gives sight)."""
    s = make_state()
    s.cities["athens"].controller = "sparta"
    add(s, "athens", "leader", "0606", name="Pericles", away_until=3)
    add(s, "sparta", "army", "0607")
    assert sight(s, TINY, "athens") == set()
    v = view(s, TINY, "athens")
    assert v["visible_hexes"] == [] and v["others"] == []
    kit = redact(s, TINY, "athens")
    assert [u.owner for u in kit.units.values()] == ["athens"], "the kit holds no Spartan unit out of sight"
    # back in play, the same leader sees the Spartans beside it
    s.units["ATH-L1"].away_until = None
    assert "0607" in sight(s, TINY, "athens")
    assert any(o["hex"] == "0607" for o in view(s, TINY, "athens")["others"])


def test_an_exiled_enemy_leader_is_not_shown_in_the_view_nor_the_kit():
    """An exiled Spartan leader whose hex is in Athens' sight is not there for Athens: not among the
    ``others`` of ``view`` (not even as a count) nor in the kit; the Spartan Army beside it is.  Kills VIS7
    (view lists exiled enemy leaders) and VIS9 (kit keeps them)."""
    s = make_state()
    add(s, "athens", "army", "0404")
    add(s, "sparta", "leader", "0405", name="Brasidas", skills=["heroism"], away_until=3)
    add(s, "sparta", "army", "0405")
    v = view(s, TINY, "athens")
    [o] = [o for o in v["others"] if o["hex"] == "0405"]
    assert o["counts"] == {"army": 1} and o["leaders"] == []
    assert "Brasidas" not in str(v)
    kit = redact(s, TINY, "athens")
    assert [u.type.value for u in kit.units.values() if u.owner == "sparta"] == ["army"]
    assert "Brasidas" not in kit.to_json()
