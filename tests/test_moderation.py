"""The moderator's corrections: rollback, adjust, archive; each audited, nothing lost."""
import os
import shutil
import tarfile
from pathlib import Path
from datetime import datetime, timezone

import pytest

from pbem.campaign import create
from pbem.cycle import run_turn, set_seat
from pbem.errors import PbemError, UsageError
from pbem.moderation import adjust, archive, rollback
from demo_campaign import athens_human_sparta_bot

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)


@pytest.fixture
def camp(tmp_path):
    c = create(tmp_path / "c", ["athens", "sparta"], seed="4", name="mod", options=["last_turn=3"]).campaign
    for p in ("athens", "sparta"):
        set_seat(c, p, "bot")
    return c


def test_rollback_then_replay_gives_the_same_turn(camp):
    run_turn(camp, NOW, force=True, reports=False)
    run_turn(camp, NOW, force=True, reports=False)
    turn3 = camp.snapshot_path(3).read_text()
    dest = rollback(camp, 2, "misfiled order").dest
    assert camp.snapshots() == [1, 2]
    assert (dest / "state" / "turn-003.json").read_text() == turn3  # moved aside, not lost
    assert not camp.log_path(2).exists() and (dest / "log" / "turn-002.jsonl").exists()
    run_turn(camp, NOW, force=True, reports=False)
    assert camp.snapshot_path(3).read_text() == turn3  # same orders, same dice
    assert "rollback to turn 2" in (camp.root / "audit.log").read_text()
    with pytest.raises(UsageError, match="already the current turn"):
        rollback(camp, 3, "x")
    with pytest.raises(UsageError, match="say why"):
        rollback(camp, 1, " ")


def test_adjust_keeps_the_previous_file_and_refuses_a_broken_state(camp):
    before = camp.snapshot_path(1).read_text()
    done = adjust(camp, "lost in the post", gold={"athens": 5}, control={"megara": "athens"})
    assert camp.load_state().players["athens"].gold == 15 and camp.load_state().cities["megara"].controller == "athens"
    assert (camp.root / "state" / "turn-001.fix-1.json").read_text() == before
    assert "athens gold +5" in done[0]
    with pytest.raises(UsageError, match="athens has -985 gold"):
        adjust(camp, "typo", gold={"athens": -1000})
    assert camp.load_state().players["athens"].gold == 15
    with pytest.raises(UsageError, match="a treasury holds at most 100000"):
        adjust(camp, "typo", gold={"athens": 10 ** 30})
    assert camp.load_state().players["athens"].gold == 15
    with pytest.raises(UsageError, match="no such unit"):
        adjust(camp, "x", remove=["ATH-A99"])
    assert "adjust turn 1" in (camp.root / "audit.log").read_text()
    assert camp.snapshots() == [1]  # the fix file is not a snapshot


def test_archive_leaves_out_secrets_and_reveals_the_seed_only_at_the_end(camp, tmp_path):
    with pytest.raises(UsageError, match="not over"):
        archive(camp, tmp_path / "a.tar.gz", reveal_seed=True)
    for _ in range(3):
        run_turn(camp, NOW, force=True, reports=False)
    assert camp.load_state().finished
    out = archive(camp, tmp_path / "a.tar.gz", reveal_seed=True)
    names = tarfile.open(out).getnames()
    assert "c/campaign.yaml" in names and "c/revealed-seed.txt" in names
    assert not any("/secret" in n for n in names)
    assert (camp.root / "revealed-seed.txt").read_text().strip() == camp.secret_seed().hex()


def test_an_abandoned_campaign_reveals_its_seed_and_runs_no_more_turns(camp, tmp_path):
    """A campaign stopped before its end: --abandon lets the seed be revealed so players can verify the turns
    played, and closes the campaign (every die is known from then on)."""
    from pbem.errors import CampaignError
    from pbem.intake import submit_bytes
    from pbem.turn import run
    run_turn(camp, NOW, force=True, reports=False)
    with pytest.raises(UsageError, match="goes with --reveal-seed"):
        archive(camp, tmp_path / "x.tar.gz", abandon=True)
    out = archive(camp, tmp_path / "a.tar.gz", reveal_seed=True, abandon=True)
    assert "c/revealed-seed.txt" in tarfile.open(out).getnames()
    assert "campaign abandoned at turn 2: no more turns" in (camp.root / "audit.log").read_text()
    with pytest.raises(CampaignError, match="no more turns are run"):
        run(camp)
    text = f"campaign: {camp.config['name']}\nturn: 2\nplayer: athens\nsecret: {camp.player_secrets()['athens']}\n"
    a = submit_bytes(camp, text.encode(), "a.yaml", NOW, late_ok=True)
    assert not a.accepted and "closed" in a.text()


def test_a_closed_campaign_takes_no_more_changes(camp, tmp_path):
    """A moderator's review: after `archive --reveal-seed --abandon`, adjust, seat (a new secret), rollback and
    deadline still changed the folder, which then no longer matched the archive just published."""
    from typer.testing import CliRunner

    from pbem.cli import app
    run_turn(camp, NOW, force=True, reports=False)
    archive(camp, tmp_path / "a.tar.gz", reveal_seed=True, abandon=True)
    before = sorted((p.relative_to(camp.root).as_posix(), p.read_bytes()) for p in camp.root.rglob("*")
                    if p.is_file() and p.name != ".lock")
    for args, what in ((["adjust", "--gold", "athens=+1", "--reason", "r"], "no correction is taken"),
                       (["seat", "athens", "bot", "--reason", "r"], "no seat is changed and no secret given"),
                       (["rollback", "1", "--reason", "r"], "no turn is rolled back"),
                       (["deadline", "+1d"], "no deadline is set")):
        r = CliRunner().invoke(app, [args[0], str(camp.root), *args[1:]])
        assert r.exit_code == 2, (args, r.output)
        assert f"the campaign was closed and its secret seed revealed (revealed-seed.txt): {what}; nothing was " \
               f"changed" in r.output, r.output
    assert sorted((p.relative_to(camp.root).as_posix(), p.read_bytes()) for p in camp.root.rglob("*")
                  if p.is_file() and p.name != ".lock") == before


def _hexes(game_map, test):
    return sorted(h for h in game_map.terrain if test(h))


@pytest.mark.parametrize("what", ["army on water", "leader on water", "fleet inland", "army on mountains",
                                  "fleet on mountains", "army onto enemy", "rowers off their ship"])
def test_adjust_refuses_a_unit_where_it_may_not_stand(camp, what):
    m, state = camp.game_map, camp.load_state()
    mine = {u.type.value: u for u in reversed(list(state.units.values())) if u.owner == "athens"}
    water = _hexes(m, m.is_water)[0]
    inland = _hexes(m, lambda h: m.is_land(h) and m.passable(h) and not m.ship_may_enter(h))[0]
    mountain = _hexes(m, lambda h: not m.passable(h))[0]
    enemy = next(u.hex for u in state.units.values() if u.owner == "sparta")
    unit, hex_id, words = {
        "army on water": (mine["army"], water, "must be on land"),
        "leader on water": (mine["leader"], water, "must be on land"),
        "fleet inland": (mine["fleet"], inland, "may only be on Water"),
        "army on mountains": (mine["army"], mountain, "impassable"),
        "fleet on mountains": (mine["fleet"], mountain, "impassable"),
        "army onto enemy": (mine["army"], enemy, "holds units of sparta"),
        "rowers off their ship": (mine["rowers"], water, "must be on land"),
    }[what]
    before = camp.snapshot_path(1).read_bytes()
    with pytest.raises(UsageError, match=f"--move {unit.id}={hex_id}: refused, .*{words}"):
        adjust(camp, "fix", move={unit.id: hex_id})
    assert camp.snapshot_path(1).read_bytes() == before
    assert not list(camp.root.glob("state/*.fix-*.json"))


def test_adjust_moves_a_fleet_with_its_rowers_to_sea_and_an_army_where_the_enemy_was_removed(camp):
    m, state = camp.game_map, camp.load_state()
    fleet = next(u for u in state.units.values() if u.owner == "athens" and u.type.value == "fleet")
    water = next(h for h in sorted(m.terrain) if m.is_water(h) and not state.units_at(h))
    enemy = next(u for u in state.units.values() if u.owner == "sparta" and u.type.value == "army")
    alone = [u.id for u in state.units_at(enemy.hex)]
    army = next(u for u in state.units.values() if u.owner == "athens" and u.type.value == "army")
    adjust(camp, "fix", move={fleet.id: water, army.id: enemy.hex}, remove=alone)
    after = camp.load_state()
    assert after.units[fleet.id].hex == water
    assert all(c.hex == water for c in after.units.values() if c.carried_by == fleet.id)
    assert after.units[army.id].hex == enemy.hex


def _tree(root):
    return sorted((str(p.relative_to(root)), p.read_bytes() if p.is_file() else b"")
                  for p in root.rglob("*") if p.name != ".lock")


@pytest.mark.parametrize("fail_at", [1, 2, 3])
def test_a_rollback_that_fails_half_way_leaves_the_campaign_as_it_was(camp, monkeypatch, fail_at):
    run_turn(camp, NOW, force=True, reports=False)
    run_turn(camp, NOW, force=True, reports=False)
    before = _tree(camp.root)
    import pbem.moderation as moderation
    real_rename = moderation.os.rename
    calls = {"n": 0}

    def flaky_rename(src, dst):
        calls["n"] += 1
        if calls["n"] == fail_at:
            raise OSError(28, "No space left on device")
        return real_rename(src, dst)

    monkeypatch.setattr(moderation.os, "rename", flaky_rename)
    with pytest.raises(PbemError, match="No space left on device"):
        rollback(camp, 1, "misfiled order")
    monkeypatch.setattr(moderation.os, "rename", real_rename)
    assert _tree(camp.root) == before
    assert camp.snapshots() == [1, 2, 3]


def test_a_rollback_whose_audit_line_cannot_be_written_is_undone(camp, monkeypatch):
    run_turn(camp, NOW, force=True, reports=False)
    before = _tree(camp.root)

    def no_audit(line):
        raise OSError(30, "Read-only file system", str(camp.root / "audit.log"))

    monkeypatch.setattr(camp, "audit", no_audit)
    with pytest.raises(PbemError, match=r"audit\.log: Read-only file system; nothing was rolled back"):
        rollback(camp, 1, "misfiled order")
    assert _tree(camp.root) == before


def _two_turns_run(tmp_path):
    """A campaign at turn 3: athens human (a file each turn), sparta the computer player."""
    return athens_human_sparta_bot(tmp_path, NOW)


def test_a_rollback_moves_later_order_folders_so_players_and_bots_write_them_anew(tmp_path):
    """Rollback to turn 1 from turn 3 with a fix of turn 1: turn 2's order files (and the current turn 3's)
    belong to a discarded timeline: moved aside.  Turn 2 is then reached from another position: a new turn, open
    to the players; the computer player writes a new file."""
    from pbem.intake import submit_bytes
    c, athens = _two_turns_run(tmp_path)
    old_bot_2 = (c.orders_dir(2) / "sparta.yaml").read_bytes()
    dest = rollback(c, 1, "misfiled order").dest
    assert (dest / "orders" / "turn-002" / "sparta.yaml").read_bytes() == old_bot_2
    assert (dest / "orders" / "turn-003" / "athens.yaml").is_file()
    assert not (c.orders_dir(2) / "sparta.yaml").exists() and not c.orders_dir(3).exists()
    assert (c.orders_dir(1) / "athens.yaml").is_file() and (c.orders_dir(1) / "sparta.yaml").is_file()
    # the rolled-back turn itself stays frozen: only the moderator's fix replaces a file (its dice were seen)
    fixed = (c.orders_dir(1) / "athens.yaml").read_bytes() + b"diplomacy: [megara]\n"
    assert not submit_bytes(c, fixed, "a.yaml", NOW).accepted
    assert not submit_bytes(c, fixed, "a.yaml", NOW, moderator_fix=True).accepted
    assert submit_bytes(c, fixed, "a.yaml", NOW, moderator_fix=True, force=True).accepted
    adjust(c, "a lost tribute", gold={"athens": 2})  # the fix changes how turn 1 ends
    old_start_2 = (dest / "state" / "turn-002.json").read_bytes()
    run_turn(c, NOW, force=True, reports=False)
    assert c.current_turn == 2 and c.snapshot_path(2).read_bytes() != old_start_2  # another position
    a = submit_bytes(c, athens(2, diplomacy=["argos"]), "a2.yaml", NOW)  # turn 2 is open again
    assert a.accepted, a.text()
    run_turn(c, NOW, reports=False)
    assert c.current_turn == 3
    assert (c.orders_dir(2) / "sparta.yaml").is_file()  # written anew for the new timeline
    assert "adjudicated turn 2" in (c.root / "audit.log").read_text().split("rollback to turn 1")[1]


def test_a_deeper_rollback_does_not_reopen_a_later_turn_whose_results_were_seen(tmp_path):
    """Turn 2 run too early, seen by the players: rolling back to turn 1 and running turn 1 again unchanged
    reaches turn 2 from the very same position: it stays locked (held, players' files refused) as after a
    rollback to turn 2 itself, and `verify` lists both undone runs."""
    from pbem.cycle import status
    from pbem.intake import submit_bytes
    from pbem.verify import verify
    c, athens = _two_turns_run(tmp_path)
    dest = rollback(c, 1, "turn 2 ran too early").dest
    assert "undone: the run of turns 1..2" in (c.root / "audit.log").read_text().splitlines()[-1]
    run_turn(c, NOW, force=True, reports=False)  # turn 1 as it was: the same position at the start of turn 2
    assert c.snapshot_path(2).read_bytes() == (dest / "state" / "turn-002.json").read_bytes()
    st = status(c)
    assert st.held and not st.due(NOW)
    result, message = run_turn(c, NOW)  # cron does not run it
    assert result is None and "held after rollback" in message
    a = submit_bytes(c, athens(2, diplomacy=["argos"]), "a2.yaml", NOW)  # a do-over knowing how it went: no
    assert not a.accepted and "only the moderator may replace one" in a.text(), a.text()
    a = submit_bytes(c, athens(2, diplomacy=["argos"]), "a2.yaml", NOW, moderator_fix=True)
    assert not a.accepted and "was run and rolled back" in a.text(), a.text()
    assert submit_bytes(c, athens(2, diplomacy=["argos"]), "a2.yaml", NOW, moderator_fix=True, force=True).accepted
    run_turn(c, NOW, force=True, reports=False)
    assert c.current_turn == 3
    verdicts = {v.turn: v for v in verify(c)}
    assert verdicts[1].ok and verdicts[2].ok, verdicts
    for t in (1, 2):
        assert any(f"a run of turn {t} was rolled back at" in n and "turn 2 ran too early" in n
                   for n in verdicts[t].notes), verdicts[t].notes
    assert any("forced after a run of the turn that was rolled back" in n for n in verdicts[2].notes)


def test_an_undone_later_turn_marker_is_carried_through_another_rollback(tmp_path):
    """Rollback to 1 (turn 2's run undone), run turn 1 again, then roll back to 1 once more before turn 2 runs:
    turn 2's lock is kept, not lost with its order folder."""
    from pbem.cycle import status
    c, _ = _two_turns_run(tmp_path)
    rollback(c, 1, "first")
    run_turn(c, NOW, force=True, reports=False)
    assert status(c).held and c.current_turn == 2
    rollback(c, 1, "second")
    run_turn(c, NOW, force=True, reports=False)
    assert status(c).held and c.current_turn == 2


def _fix_turn_1(c, athens):
    """The moderator's fix of athens's turn-1 file (a seen turn: --force), and turn 1 run again: a Baggage bought
    in Athens, so turn 1 surely ends elsewhere (a diplomacy roll did only on lucky dice, which any change of the
    computer player's orders re-deals)."""
    from pbem.intake import submit_bytes
    fix = athens(1, recruit=[{"city": "athens", "baggage": 1}])
    assert submit_bytes(c, fix, "a.yaml", NOW, moderator_fix=True, force=True).accepted
    run_turn(c, NOW, force=True, reports=False)
    assert c.current_turn == 2


def test_a_turn_seen_from_two_positions_stays_locked_at_either(tmp_path):
    """Found by a code review: turn 2 run from position A, rolled back; turn 1 fixed, turn 2 reached from B,
    played and seen, rolled back again; turn 1 run as fixed reaches B again: a do-over knowing how it went, so
    turn 2 is locked (it was open, the marker kept only A)."""
    from pbem.cycle import status
    from pbem.intake import submit_bytes
    c, athens = _two_turns_run(tmp_path)
    rollback(c, 1, "first")
    _fix_turn_1(c, athens)
    assert not status(c).held  # position B: a new turn, open to the players
    assert submit_bytes(c, athens(2), "a2.yaml", NOW).accepted
    start_b = c.snapshot_path(2).read_bytes()
    run_turn(c, NOW, reports=False)
    assert c.current_turn == 3
    rollback(c, 1, "second")
    run_turn(c, NOW, force=True, reports=False)  # turn 1 with the same (fixed) files: position B again
    assert c.snapshot_path(2).read_bytes() == start_b
    assert status(c).held
    a = submit_bytes(c, athens(2, diplomacy=["argos"]), "a2.yaml", NOW)
    assert not a.accepted and "only the moderator may replace one" in a.text(), a.text()


def test_a_rolled_back_turn_reached_from_another_position_after_a_deeper_rollback_is_open(tmp_path):
    """Found by a code review: turn 2 rolled back and run again, then a rollback to turn 1 whose fix changes
    how turn 1 ends: turn 2 starts from a position never run, a new turn (docs/moderator.md), not held."""
    from pbem.cycle import status
    from pbem.intake import submit_bytes
    c, athens = _two_turns_run(tmp_path)
    rollback(c, 2, "r2")
    run_turn(c, NOW, force=True, reports=False)
    assert c.current_turn == 3
    rollback(c, 1, "r1")
    _fix_turn_1(c, athens)
    assert not status(c).held
    assert submit_bytes(c, athens(2, diplomacy=["argos"]), "a2.yaml", NOW).accepted


def test_a_rollback_over_a_damaged_marker_keeps_the_lock_and_says_nothing_odd(tmp_path):
    """A .frozen that is not UTF-8 (damaged by hand) gave rollback a traceback (code review): it still locks."""
    from pbem.intake import FROZEN, frozen
    c, _ = _two_turns_run(tmp_path)
    (c.orders_dir(2) / FROZEN).write_bytes(b"rolled back: caf\xe9\n")
    rollback(c, 1, "again")  # no traceback
    run_turn(c, NOW, force=True, reports=False)
    assert frozen(c, 2)


def test_after_a_rollback_the_turn_is_held_until_the_moderator_forces_it(camp):
    from pbem.cycle import status
    run_turn(camp, NOW, force=True, reports=False)
    run_turn(camp, NOW, force=True, reports=False)
    rollback(camp, 2, "misfiled order")
    st = status(camp)
    assert not st.due(NOW) and st.held
    assert "held after rollback: run with --force when the fixes are in" in st.render(NOW)
    result, message = run_turn(camp, NOW)  # cron: all seats are bots, so it would be due
    assert result is None and "held after rollback" in message and camp.current_turn == 2
    result, _ = run_turn(camp, NOW, force=True, reports=False)
    assert result is not None and camp.current_turn == 3
    assert not status(camp).held


def test_cli_run_turn_on_a_held_turn_does_nothing_and_exits_0(camp):
    from typer.testing import CliRunner
    from pbem.cli import app
    run_turn(camp, NOW, force=True, reports=False)
    r = CliRunner().invoke(app, ["rollback", str(camp.root), "1", "--reason", "misfiled"])
    assert r.exit_code == 0 and "run-turn" in r.output and "--force" in r.output, r.output
    before = _tree(camp.root)
    r = CliRunner().invoke(app, ["run-turn", str(camp.root), "--no-reports"])
    assert r.exit_code == 0 and "held after rollback" in r.output, r.output
    assert _tree(camp.root) == before


def test_a_rollback_never_copies_and_deletes_a_report_it_cannot_move(camp, monkeypatch):
    """A read-only reports folder: os.rename fails; nothing may be copied and deleted (shutil.move's fallback)."""
    import pbem.moderation as moderation
    run_turn(camp, NOW, force=True, reports=False)
    report = camp.reports_dir(1) / "athens" / "report.txt"
    report.parent.mkdir(parents=True)
    report.write_text("Athens's report")
    before = _tree(camp.root)
    real_rename = moderation.os.rename

    def read_only(src, dst):
        if str(src) == str(camp.reports_dir(1)):
            raise PermissionError(13, "Permission denied", str(src))
        return real_rename(src, dst)
    monkeypatch.setattr(moderation.os, "rename", read_only)
    with pytest.raises(PbemError, match="reports/turn-001: cannot be moved .*Permission denied"):
        rollback(camp, 1, "misfiled order")
    monkeypatch.setattr(moderation.os, "rename", real_rename)
    assert _tree(camp.root) == before and report.read_text() == "Athens's report"


def test_a_rollback_past_an_adjustment_warns_and_keeps_the_fix_file(camp):
    from typer.testing import CliRunner
    from pbem.cli import app
    run_turn(camp, NOW, force=True, reports=False)
    adjust(camp, "lost in the post", gold={"athens": 5})  # turn 2's snapshot
    run_turn(camp, NOW, force=True, reports=False)
    r = CliRunner().invoke(app, ["rollback", str(camp.root), "1", "--reason", "misfiled"])
    assert r.exit_code == 0, r.output
    warning = [line for line in r.output.splitlines() if line.startswith("warning:")]
    assert len(warning) == 1 and "athens gold +5" in warning[0] and "turn 2" in warning[0], r.output
    assert not list((camp.root / "state").glob("*.fix-*"))
    assert (camp.root / "archive" / "rollback-1" / "state" / "turn-002.fix-1.json").is_file()
    assert "adjustments lost" in (camp.root / "audit.log").read_text()


def test_a_rollback_keeps_the_adjustments_of_the_turn_it_goes_back_to(camp):
    run_turn(camp, NOW, force=True, reports=False)
    adjust(camp, "lost in the post", gold={"athens": 5})
    run_turn(camp, NOW, force=True, reports=False)
    done = rollback(camp, 2, "misfiled")
    assert done.lost_adjustments == [] and (camp.root / "state" / "turn-002.fix-1.json").is_file()


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root to run as nobody")
def test_a_rollback_as_a_user_who_may_not_move_a_report_folder_changes_nothing():
    """The moderator's own account, a report folder it may not write (read-only): refused, nothing lost."""
    import subprocess
    import sys
    import tempfile
    base = Path(tempfile.mkdtemp(prefix="pbem-rollback-"))
    try:
        os.chmod(base, 0o755)
        c = create(base / "c", ["athens", "sparta"], seed="4", name="mod").campaign
        for p in ("athens", "sparta"):
            set_seat(c, p, "bot")
        run_turn(c, NOW, force=True, reports=False)
        run_turn(c, NOW, force=True, reports=False)
        report = c.reports_dir(2) / "athens" / "report.txt"
        report.parent.mkdir(parents=True)
        report.write_text("Athens's report")
        subprocess.run(["chown", "-R", "nobody:nogroup", str(c.root)], check=True)
        os.chmod(c.reports_dir(2), 0o555)
        before = _tree(c.root)
        pbem = Path(sys.executable).with_name("pbem")
        r = subprocess.run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", str(pbem), "rollback",
                            str(c.root), "2", "--reason", "x"], capture_output=True, text=True)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1 and "reports/turn-002: cannot be moved" in r.stderr
        assert _tree(c.root) == before and report.read_text() == "Athens's report"
    finally:
        shutil.rmtree(base, ignore_errors=True)
