"""The campaign folder: atomic writes, snapshots, the lock, and a turn committed as a whole (R-TURN-6)."""
import os

import pytest

from pbem.campaign import create
from pbem.errors import CampaignError
from pbem.storage import Campaign, atomic_write
from pbem import turn as turn_mod


def test_atomic_write_replaces_whole_and_leaves_no_temporary_file(tmp_path):
    p = tmp_path / "f.json"
    atomic_write(p, "one")
    atomic_write(p, "two")
    assert p.read_text() == "two"
    assert os.listdir(tmp_path) == ["f.json"]


def test_atomic_write_failure_leaves_the_old_file(tmp_path, monkeypatch):
    p = tmp_path / "f.json"
    atomic_write(p, "old")

    def boom(*a, **k):
        raise OSError("disk full")
    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        atomic_write(p, "new")
    assert p.read_text() == "old"
    assert os.listdir(tmp_path) == ["f.json"]


def test_state_saved_and_loaded_back_equal(tmp_path):
    camp = create(tmp_path / "c", ["athens", "sparta"], seed="1").campaign
    state = camp.load_state()
    assert camp.current_turn == 1 and state.turn == 1
    again = camp.load_state(1)
    assert again.to_json() == state.to_json() == camp.snapshot_path(1).read_text()


def test_the_lock_refuses_a_second_writer(tmp_path):
    camp = create(tmp_path / "c", ["athens", "sparta"], seed="1").campaign
    with camp.lock():
        with pytest.raises(CampaignError, match="another pbem command"):
            with Campaign(camp.root).lock():
                pass
    with camp.lock():  # free again
        pass


def test_R_TURN_6_a_turn_replays_bit_for_bit_and_commits_last(tmp_path, monkeypatch):
    camp = create(tmp_path / "c", ["athens", "sparta", "troy"], seed="8").campaign
    dry = turn_mod.run(camp, dry_run=True)
    assert camp.snapshots() == [1] and not camp.log_path(1).exists()  # dry run wrote nothing
    # a crash while writing the snapshot leaves turn 1 current; re-running gives the same result
    real_save = Campaign.save_state

    def crash(self, state):
        raise KeyboardInterrupt
    monkeypatch.setattr(Campaign, "save_state", crash)
    with pytest.raises(KeyboardInterrupt):
        turn_mod.run(camp)
    assert camp.snapshots() == [1]
    monkeypatch.setattr(Campaign, "save_state", real_save)
    done = turn_mod.run(camp)
    assert camp.snapshots() == [1, 2]
    assert done.after.to_json() == dry.after.to_json()
    assert camp.snapshot_path(2).read_text() == dry.after.to_json()
    log_text = camp.log_path(1).read_text()
    # replay from the stored snapshot and orders: the same log, byte for byte
    os.unlink(camp.snapshot_path(2))
    turn_mod.run(camp)
    assert camp.log_path(1).read_text() == log_text


def test_open_refuses_what_is_not_a_campaign(tmp_path):
    with pytest.raises(CampaignError, match="no such campaign"):
        Campaign.open(tmp_path / "none")
    (tmp_path / "empty").mkdir()
    with pytest.raises(CampaignError, match="not a campaign folder"):
        Campaign.open(tmp_path / "empty")
