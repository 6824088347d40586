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


def test_adjudicate_plays_the_computer_players_seats_as_run_turn_does(tmp_path):
    """`pbem adjudicate` (and --dry-run) give a bot seat its orders, like run-turn: not an NMR."""
    import shutil
    from datetime import datetime, timezone
    from typer.testing import CliRunner
    from pbem.cli import app
    from pbem.cycle import run_turn, set_seat
    camp = create(tmp_path / "c", ["athens", "sparta", "troy"], seed="8").campaign
    set_seat(camp, "sparta", "bot")
    twin = Campaign.open(shutil.copytree(camp.root, tmp_path / "twin"))
    before = sorted(p.relative_to(camp.root) for p in camp.root.rglob("*") if p.name != ".lock")
    r = CliRunner().invoke(app, ["adjudicate", str(camp.root), "--dry-run"])
    assert r.exit_code == 0 and "Computer players' orders used (not stored): sparta" in r.output, r.output
    nmr = next(line for line in r.output.splitlines() if line.startswith("No orders (NMR):"))
    assert "sparta" not in nmr and "athens" in nmr, r.output
    assert sorted(p.relative_to(camp.root) for p in camp.root.rglob("*") if p.name != ".lock") == before
    r = CliRunner().invoke(app, ["adjudicate", str(camp.root)])  # not due: no human orders, no deadline
    assert r.exit_code == 2 and "not due" in r.output and "--force" in r.output, r.output
    assert sorted(p.relative_to(camp.root) for p in camp.root.rglob("*") if p.name != ".lock") == before
    r = CliRunner().invoke(app, ["adjudicate", str(camp.root), "--force"])
    assert r.exit_code == 0, r.output
    assert (camp.orders_dir(1) / "sparta.yaml").is_file()
    run_turn(twin, datetime(2026, 1, 1, tzinfo=timezone.utc), force=True, reports=False)
    assert camp.snapshot_path(2).read_bytes() == twin.snapshot_path(2).read_bytes()
    assert (camp.orders_dir(1) / "sparta.yaml").read_bytes() == (twin.orders_dir(1) / "sparta.yaml").read_bytes()


def test_a_second_command_waits_for_the_lock_before_it_reads_anything(tmp_path, monkeypatch):
    """A cheater's review: a deadline's `run-turn` from cron was refused at once while intake checked a player's big
    file under the lock.  A command now waits for the lock to be free, up to ``LOCK_WAIT`` seconds, before it reads
    anything of the campaign (a moderator's review of a wait inside the lock: the second of two `run-turn`s ran
    the next turn on the deadline it had read before the first ran it; one that waited behind `pbem deadline`
    ran the turn on the deadline just replaced)."""
    import threading
    import time
    from datetime import datetime, timedelta, timezone

    from typer.testing import CliRunner

    from pbem import storage
    from pbem.cli import app
    from pbem.cycle import set_deadline
    monkeypatch.setattr(storage, "LOCK_WAIT", 5.0)
    camp = create(tmp_path / "c", ["athens", "sparta"], seed="1").campaign
    past = datetime.now(timezone.utc) - timedelta(hours=1)
    set_deadline(camp, past.strftime("%Y-%m-%d %H:%M UTC"), past - timedelta(days=1))  # turn 1 is due
    held = threading.Event()

    def deadline_moved_meanwhile():  # as `pbem deadline DIR +3d` holding the lock
        c = Campaign.open(camp.root)
        with c.lock():
            held.set()
            time.sleep(0.5)
            set_deadline(c, "+3d", datetime.now(timezone.utc))

    t = threading.Thread(target=deadline_moved_meanwhile)
    t.start()
    held.wait()
    r = CliRunner().invoke(app, ["run-turn", str(camp.root), "--no-reports"])
    t.join()
    assert r.exit_code == 0, r.output
    assert "Not due" in r.output and camp.snapshots() == [1], r.output  # the new deadline, read after the wait
    monkeypatch.setattr(storage, "LOCK_WAIT", 0.2)
    with camp.lock():
        with pytest.raises(CampaignError, match=r"another pbem command is working on this campaign \(waited 0.2 s\)"):
            storage.wait_until_free(camp.root)
        with pytest.raises(CampaignError, match=r"another pbem command is working on this campaign \(waited 0.2 s\)"):
            with Campaign(camp.root).lock():
                pass
        for command in ("status", "show"):  # a command that only reads goes ahead at once, as it always did
            r = CliRunner().invoke(app, [command, str(camp.root)])
            assert r.exit_code == 0, (command, r.output)


def test_a_command_reads_the_settings_again_once_it_holds_the_lock(tmp_path, monkeypatch):
    """A code review: between the CLI's wait (``wait_until_free``) and ``Campaign.lock``, another command set a seat;
    the first went on with the settings it had read and its commit wrote them back whole, the seat lost though
    audit.log recorded it."""
    import threading
    import time

    from pbem import storage
    from pbem.cycle import change_seat
    monkeypatch.setattr(storage, "LOCK_WAIT", 5.0)
    root = create(tmp_path / "c", ["athens", "sparta"], seed="1").campaign.root
    first = Campaign.open(root)
    assert first.config.get("seats") in (None, {})  # read before the other command
    held = threading.Event()

    def seat_meanwhile():
        other = Campaign.open(root)
        with other.lock():
            held.set()
            time.sleep(0.3)
            change_seat(other, "sparta", "bot", "gone")

    t = threading.Thread(target=seat_meanwhile)
    t.start()
    held.wait()
    with first.lock():  # waits for the other, then reads the settings again
        assert first.config["seats"] == {"sparta": "bot"}
    t.join()
