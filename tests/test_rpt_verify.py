"""`pbem verify` names a file taken after the deadline as late, and itemizes the moderator's adjustments
(who, what, why) instead of "the moderator adjusted the result afterwards (see audit.log)" (a moderator's
review)."""
from datetime import datetime, timezone

import pytest

from pbem import yamlio
from pbem.campaign import create
from pbem.cycle import run_turn, set_deadline, set_seat
from pbem.intake import submit_bytes
from pbem.moderation import adjust
from pbem.verify import verify

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def camp(tmp_path):
    c = create(tmp_path / "c", ["athens", "sparta", "troy"], seed="5", name="fl").campaign
    set_seat(c, "troy", "bot")
    return c


def orders(camp, player):
    return yamlio.dump({"campaign": "fl", "turn": camp.current_turn, "player": player,
                        "secret": camp.player_secrets()[player]}).encode()


def turn_of(camp, t):
    return next(v for v in verify(camp) if v.turn == t)


def test_a_file_taken_after_the_deadline_is_named_late(camp):
    assert submit_bytes(camp, orders(camp, "sparta"), "s.yaml", NOW).accepted  # no deadline yet: on time
    set_deadline(camp, "2001-01-01T00:00", NOW)  # audited; every audit stamp is after it
    assert not submit_bytes(camp, orders(camp, "athens"), "a.yaml", NOW).accepted
    assert submit_bytes(camp, orders(camp, "athens"), "a.yaml", NOW, late_ok=True).accepted
    run_turn(camp, NOW, force=True, reports=False)
    v = turn_of(camp, 1)
    assert v.ok, v.detail
    late = [n for n in v.notes if "taken late" in n]
    assert len(late) == 1 and late[0].startswith("audit.log: athens's file sha256 ") and \
        "(the deadline of turn 1 was 2001-01-01 00:00 UTC)" in late[0], v.notes
    assert not any("sparta" in n for n in v.notes), v.notes


def test_a_late_moderators_fix_says_late_too(camp):
    set_deadline(camp, "2001-01-01T00:00", NOW)
    assert submit_bytes(camp, orders(camp, "athens"), "a.yaml", NOW, late_ok=True, moderator_fix=True).accepted
    run_turn(camp, NOW, force=True, reports=False)
    notes = turn_of(camp, 1).notes
    assert any("athens's file" in n and "taken as the moderator's fix, late, at " in n for n in notes), notes


def test_the_moderators_adjustments_are_itemized(camp):
    run_turn(camp, NOW, force=True, reports=False)
    state = camp.load_state()
    army = next(u for u in state.units.values() if u.owner == "sparta" and u.type.value == "army")
    adjust(camp, "refund: a typo", gold={"athens": 2})
    adjust(camp, "recruited by a misread order", remove=[army.id])  # gone: its owner read from the kept file
    v = turn_of(camp, 1)
    assert v.ok and "the moderator adjusted the result afterwards (2 adjustments, in the notes)" in v.detail, v.detail
    said = [n for n in v.notes if "the moderator adjusted turn 2's start (the result of turn 1) at " in n]
    assert len(said) == 2, v.notes
    assert "athens's gold +2 (to " in said[0] and said[0].endswith("reason: refund: a typo")
    assert f"sparta's {army.id} removed" in said[1] and said[1].endswith("reason: recruited by a misread order")
    assert "turn-002.fix-1.json" in said[0] and "turn-002.fix-2.json" in said[1]
