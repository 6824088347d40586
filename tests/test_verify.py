"""Archived turns replay exactly (R-TURN-6), with the secret seed or with one turn's published key."""
import json
from datetime import datetime, timezone

import pytest

from pbem.campaign import create
from pbem.cycle import run_turn, set_seat
from pbem.dice import seed_from_key, turn_key, turn_seed
from pbem.errors import UsageError
from pbem.verify import published_key, verify


@pytest.fixture
def played(tmp_path):
    camp = create(tmp_path / "c", ["athens", "sparta", "troy"], seed="17", name="v").campaign
    for p in ("athens", "sparta", "troy"):
        set_seat(camp, p, "bot")
    for _ in range(3):
        run_turn(camp, datetime(2026, 1, 1, tzinfo=timezone.utc), force=True, reports=False)
    return camp


def test_R_TURN_6_every_turn_replays_exactly(played):
    verdicts = verify(played)
    assert [v.turn for v in verdicts] == [1, 2, 3] and all(v.ok for v in verdicts)


def test_R_TURN_6_one_turns_key_verifies_that_turn_only(played):
    key = published_key(played, 2)
    assert verify(played, 2, key)[0].ok
    assert not verify(played, 3, key)[0].ok  # another turn's key does not fit
    with pytest.raises(UsageError, match="would tell its dice in advance"):
        published_key(played, 4)


def test_R_TURN_6_a_tampered_snapshot_is_caught(played):
    path = played.snapshot_path(3)
    data = json.loads(path.read_text())
    data["players"]["athens"]["gold"] += 1
    path.write_text(json.dumps(data, sort_keys=True, indent=1) + "\n")
    verdicts = {v.turn: v for v in verify(played)}
    assert verdicts[1].ok and not verdicts[2].ok and "differs" in verdicts[2].detail


def test_R_TURN_6_the_turn_seed_is_keyed_per_turn():
    secret = b"k" * 32
    assert turn_seed(secret, 5, ["a", "-"]) == seed_from_key(turn_key(secret, 5), 5, ["a", "-"])
    assert turn_key(secret, 5) != turn_key(secret, 6)
    assert turn_key(secret, 5) not in (secret,) and len(turn_key(secret, 5)) == 32


def test_a_moderators_adjustment_is_not_taken_for_a_mismatch(played):
    from pbem.moderation import adjust
    adjust(played, "lost in the post", gold={"athens": 1})
    verdicts = {v.turn: v for v in verify(played)}
    assert all(v.ok for v in verdicts.values())
    assert "adjusted" in verdicts[3].detail


def test_turn_keys_of_no_turn_and_malformed_keys_are_refused(played):
    with pytest.raises(UsageError, match="has not been adjudicated"):
        published_key(played, 0)
    for bad in ("", "zz", "00" * 31):
        with pytest.raises(UsageError, match="write the turn key"):
            verify(played, 1, bad)
