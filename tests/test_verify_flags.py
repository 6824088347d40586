"""`pbem verify` flags what a moderator editing campaign files by hand does to get other dice, though the turn
replays exactly (adversarial review): a turn run twice with no rollback, a player's accepted file deleted, a file
put in the orders folder by hand, a seat given to the computer player in campaign.yaml; and notes what a referee
should know (files changed after a dry run, seats changed while the turn was current)."""
from datetime import datetime, timezone

import pytest
from typer.testing import CliRunner

from pbem import yamlio
from pbem.campaign import create
from pbem.cli import app
from pbem.cycle import config_with, run_turn, set_seat
from pbem.intake import submit_bytes
from pbem.moderation import rollback
from pbem.storage import Campaign
from pbem.turn import run
from pbem.verify import verify

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def camp(tmp_path):
    """Athens and Sparta are human, Troy the computer player's."""
    c = create(tmp_path / "c", ["athens", "sparta", "troy"], seed="5", name="fl").campaign
    set_seat(c, "troy", "bot")
    return c


def orders(camp, player, turn=None, **body):
    data = {"campaign": "fl", "turn": turn or camp.current_turn, "player": player,
            "secret": camp.player_secrets()[player], **body}
    return yamlio.dump(data).encode()


def past_the_guard(camp, monkeypatch, words):
    """run-turn refuses a turn whose stored files were removed or put in by hand (a code review), naming the
    file; a moderator who gets past it anyway (a patched or older pbem) is still caught by `verify`."""
    from pbem import cycle
    from pbem.errors import CampaignError
    with pytest.raises(CampaignError, match=words):
        run_turn(camp, NOW, force=True, reports=False)
    monkeypatch.setattr(cycle, "changed_by_hand", lambda camp: None)
    run_turn(camp, NOW, force=True, reports=False)
    monkeypatch.undo()


def send(camp, player, **body):
    a = submit_bytes(camp, orders(camp, player, **body), f"{player}.yaml", NOW)
    assert a.accepted, a.text()


def turn_of(camp, t):
    return next(v for v in verify(camp) if v.turn == t)


def flagged(v, *words):
    assert v.word == "FLAGGED" and "replayed exactly" in v.detail, (v.detail, v.flags)
    assert any(all(w in f for w in words) for f in v.flags), v.flags


# -- 1. a turn adjudicated twice, no rollback between -----------------------------------------------------------

def test_a_turn_run_again_after_its_results_were_deleted_by_hand_is_flagged(camp):
    send(camp, "athens")
    run_turn(camp, NOW, force=True, reports=False)
    camp.snapshot_path(2).unlink()  # the moderator does not like the dice: the run removed by hand
    camp.log_path(1).unlink()
    fixed = (camp.orders_dir(1) / "athens.yaml").read_bytes() + b"# again\n"  # no dry run: no --force asked
    assert submit_bytes(camp, fixed, "athens.yaml", NOW, moderator_fix=True).accepted
    run_turn(camp, NOW, force=True, reports=False)
    v = turn_of(camp, 1)
    flagged(v, "turn 1 was adjudicated 2 times", "no rollback", "state/turn-002.json", "audit.log")
    assert len([f for f in v.flags if "adjudicated 2 times" in f]) == 1


def test_a_turn_run_again_after_a_rollback_is_not_flagged(camp):
    send(camp, "athens")
    run_turn(camp, NOW, force=True, reports=False)
    rollback(camp, 1, "too early")
    run_turn(camp, NOW, force=True, reports=False)
    v = turn_of(camp, 1)
    assert v.ok, (v.detail, v.flags)


# -- 2. a file intake accepted, gone when the turn ran ----------------------------------------------------------

def test_an_accepted_file_deleted_by_hand_before_the_turn_ran_is_flagged(camp, monkeypatch):
    send(camp, "athens")
    send(camp, "sparta")
    (camp.orders_dir(1) / "sparta.yaml").unlink()
    past_the_guard(camp, monkeypatch, "orders/turn-001/sparta.yaml: removed by hand since intake accepted it")
    v = turn_of(camp, 1)
    flagged(v, "orders/turn-001/sparta.yaml", "sparta", "turn 1", "intake accepted", "adjudicated", "no orders")


def test_the_files_of_a_discarded_timeline_do_not_count_but_the_rolled_back_turn_keeps_its_own(camp, monkeypatch):
    send(camp, "athens")
    send(camp, "sparta")
    run_turn(camp, NOW, reports=False)
    send(camp, "athens")  # turn 2: moved to the archive by the rollback to turn 1
    run_turn(camp, NOW, force=True, reports=False)
    rollback(camp, 1, "sparta's file was misread")
    # (a Baggage bought: the position after turn 1 is another whatever the dice, which seed turn 1 by its start)
    fix = submit_bytes(camp, orders(camp, "sparta", diplomacy=["megara"], recruit=[{"city": "sparta", "baggage": 1}]),
                       "sparta.yaml", NOW, moderator_fix=True, force=True)
    assert fix.accepted, fix.text()
    run_turn(camp, NOW, force=True, reports=False)  # turn 1 again, fixed: turn 2 starts from a new position
    run_turn(camp, NOW, force=True, reports=False)  # turn 2: athens's file of the old timeline is archived
    verdicts = {v.turn: v for v in verify(camp)}
    assert verdicts[1].ok and verdicts[2].ok, [(v.detail, v.flags) for v in verdicts.values()]
    # the rolled-back turn keeps its files: one deleted by hand before it runs again is flagged
    rollback(camp, 1, "once more")
    (camp.orders_dir(1) / "athens.yaml").unlink()
    past_the_guard(camp, monkeypatch, "orders/turn-001/athens.yaml: removed by hand")
    flagged(turn_of(camp, 1), "orders/turn-001/athens.yaml", "intake accepted")


# -- 3. a human seat's file put in the orders folder by hand --------------------------------------------------

def test_a_file_put_in_the_orders_folder_by_hand_is_flagged(camp, monkeypatch):
    send(camp, "athens")
    data = {"campaign": "fl", "turn": 1, "player": "sparta", "secret": "withheld", "diplomacy": ["megara"]}
    camp.orders_dir(1).mkdir(parents=True, exist_ok=True)
    (camp.orders_dir(1) / "sparta.yaml").write_bytes(yamlio.dump(data).encode())
    past_the_guard(camp, monkeypatch, "orders/turn-001/sparta.yaml: put in by hand")
    v = turn_of(camp, 1)
    flagged(v, "orders/turn-001/sparta.yaml", "sparta", "no `intake accepted` line", "turn 1")
    assert not any("athens" in f or "troy" in f for f in v.flags), v.flags
    r = CliRunner().invoke(app, ["verify", str(camp.root)])
    assert r.exit_code == 1 and "turn 1: FLAGGED" in r.output, r.output
    assert "\n  flagged: orders/turn-001/sparta.yaml: turn 1 was adjudicated at " in r.output, r.output


def test_a_campaign_without_audit_log_tells_nothing_of_intake(camp):
    data = {"campaign": "fl", "turn": 1, "player": "sparta", "secret": "withheld"}
    camp.orders_dir(1).mkdir(parents=True, exist_ok=True)
    (camp.orders_dir(1) / "sparta.yaml").write_bytes(yamlio.dump(data).encode())
    run(camp)  # the Python API: files written directly, as tests/test_bot.py does
    assert turn_of(camp, 1).word == "FLAGGED"  # audit.log says no intake took it
    (camp.root / "audit.log").unlink()
    v = turn_of(camp, 1)
    assert v.ok and not v.flags, (v.detail, v.flags)


# -- 4. a seat given to the computer player in campaign.yaml -------------------------------------------------

def test_a_seat_given_to_the_computer_player_by_hand_is_flagged(camp):
    send(camp, "athens")
    config = config_with(camp, seats={**camp.config["seats"], "sparta": "bot"})  # no `pbem seat`, no audit line
    camp.write_config(config)
    run_turn(camp, NOW, force=True, reports=False)
    v = turn_of(camp, 1)
    flagged(v, "sparta", "computer player", "campaign.yaml", "no `seat` line", "turn 1")
    assert not any("troy" in f for f in v.flags), v.flags


def test_seats_given_by_pbem_seat_and_a_demo_s_are_not_flagged(camp, tmp_path):
    from pbem.campaign import create_demo
    set_seat(camp, "sparta", "bot")
    run_turn(camp, NOW, force=True, reports=False)
    assert turn_of(camp, 1).ok
    demo = create_demo(tmp_path / "d", 2, "2026")
    run_turn(demo, NOW, force=True, reports=False)
    assert all(v.ok for v in verify(demo)), [(v.detail, v.flags) for v in verify(demo)]


# -- 5. notes: files changed after a dry run, seats changed while the turn was current -------------------------

def test_a_file_changed_after_a_dry_run_and_a_seat_change_are_noted_and_counted(camp):
    send(camp, "athens")
    run(camp, dry_run=True)
    send(camp, "athens", diplomacy=["megara"])  # the player may send a new file: a note, not a flag
    set_seat(camp, "sparta", "bot")
    run_turn(camp, NOW, force=True, reports=False)
    v = turn_of(camp, 1)
    assert v.ok, (v.detail, v.flags)
    assert any("athens" in n and "changed between the dry run" in n and "orders/turn-001/athens.yaml" in n
               for n in v.notes), v.notes
    assert not any("changed between" in n and "troy" in n for n in v.notes), v.notes
    assert any("seat of sparta set to bot" in n and "while turn 1 was current" in n for n in v.notes), v.notes
    assert not any("seat of troy" in n for n in v.notes), v.notes  # set before turn 1 had a file: set-up
    r = CliRunner().invoke(app, ["verify", str(camp.root)])
    assert r.exit_code == 0 and f"turn 1: OK ({len(v.notes)} notes): replayed exactly" in r.output, r.output
    assert "set-up: OK: " in r.output  # no notes, no count


# -- a turn whose dice were seen, run again from the same position with other files -------------------------------

def test_a_seen_turn_rerun_with_a_computer_players_file_instead_of_no_orders_is_flagged(camp):
    """Found by a code review: sparta sent nothing, the turn ran and was rolled back; `pbem seat sparta bot` made
    run-turn write a file for sparta: other dice for a turn whose dice were seen, with no forced fix."""
    send(camp, "athens")
    run_turn(camp, NOW, force=True, reports=False)
    rollback(camp, 1, "ran too early")
    set_seat(camp, "sparta", "bot")
    run_turn(camp, NOW, force=True, reports=False)
    flagged(turn_of(camp, 1), "orders/turn-001/sparta.yaml", "ran again", "where that run had none", "no forced")


def test_a_later_seen_turn_rerun_without_its_files_is_flagged_and_with_them_given_back_is_not(camp, tmp_path):
    """Rolling back further: turn 2 reached again from the same position; run without athens's file (moved to the
    archive) it gets other dice than the run the players saw; given back with --fix --force it is clean.
    `run-turn` refuses that run while the archive holds the file (a moderator's soak test): the archived copy
    taken away by hand, it runs, and verify flags it."""
    import shutil
    from pbem.errors import CampaignError
    send(camp, "athens")
    send(camp, "sparta")
    run_turn(camp, NOW, reports=False)
    send(camp, "athens", turn=2)
    run_turn(camp, NOW, force=True, reports=False)
    saved = tmp_path / "saved"
    shutil.copytree(camp.root, saved)
    dest = rollback(camp, 1, "turn 2 ran too early").dest
    run_turn(camp, NOW, force=True, reports=False)  # turn 1 as it was: turn 2 from the same position
    with pytest.raises(CampaignError, match="its rolled-back run played the files of athens"):
        run_turn(camp, NOW, force=True, reports=False)  # without athens's file
    (dest / "orders" / "turn-002" / "athens.yaml").rename(tmp_path / "athens-taken-away.yaml")  # by hand
    run_turn(camp, NOW, force=True, reports=False)  # without athens's file
    flagged(turn_of(camp, 2), "orders/turn-002/athens.yaml", "ran again", "no forced")
    other = Campaign(saved)
    dest = rollback(other, 1, "turn 2 ran too early").dest
    run_turn(other, NOW, force=True, reports=False)
    back = (dest / "orders" / "turn-002" / "athens.yaml").read_bytes()
    assert submit_bytes(other, back, "athens.yaml", NOW, moderator_fix=True, force=True).accepted
    run_turn(other, NOW, force=True, reports=False)
    v = turn_of(other, 2)
    assert v.ok, (v.detail, v.flags)


def test_a_rolled_back_turn_reached_from_a_new_position_after_a_deeper_rollback_is_not_flagged(camp):
    """Found by a code review: turn 2 rolled back to itself and run again, then a rollback to turn 1 with a forced
    fix: turn 2 starts from a new position (intake reopened it) and its new files are no re-roll."""
    send(camp, "athens")
    send(camp, "sparta")
    run_turn(camp, NOW, reports=False)
    send(camp, "athens")
    send(camp, "sparta")
    run_turn(camp, NOW, reports=False)
    rollback(camp, 2, "a second look")
    run_turn(camp, NOW, force=True, reports=False)  # turn 2 as it was
    rollback(camp, 1, "sparta's file was misread")
    # (a Baggage bought: the position after turn 1 is another whatever the dice, which seed turn 1 by its start)
    fix = submit_bytes(camp, orders(camp, "sparta", diplomacy=["megara"], recruit=[{"city": "sparta", "baggage": 1}]),
                       "sparta.yaml", NOW, moderator_fix=True, force=True)
    assert fix.accepted, fix.text()
    run_turn(camp, NOW, force=True, reports=False)  # turn 1 fixed: turn 2 from a new position, open
    send(camp, "athens", diplomacy=["argos"])
    send(camp, "sparta")
    run_turn(camp, NOW, reports=False)
    v = turn_of(camp, 2)
    assert v.ok, (v.detail, v.flags)


def test_a_seen_turn_rerun_from_its_adjusted_start_with_another_file_is_flagged(camp):
    """Found by a review: an adjustment made before a turn's first run switched the re-roll check off. The run's
    start is in its audit line now: the same adjusted start, another file (the computer player's) -> flagged."""
    from pbem.moderation import adjust
    adjust(camp, "missed income", gold={"athens": 1})
    send(camp, "sparta")
    run_turn(camp, NOW, force=True, reports=False)  # athens sends nothing
    rollback(camp, 1, "wrong rules call")
    set_seat(camp, "athens", "bot")
    run_turn(camp, NOW, force=True, reports=False)
    flagged(turn_of(camp, 1), "orders/turn-001/athens.yaml", "ran again", "where that run had none")


def test_a_seen_turn_adjusted_after_its_run_and_rerun_with_another_file_is_flagged(camp):
    """A code review: an adjustment of a held turn keeps the dice its players saw (they are seeded by the start as
    first written, R-TURN-6), but verify compared only the adjusted start with the seen run's, so another file
    there went unflagged."""
    from pbem.moderation import adjust
    send(camp, "sparta")
    run_turn(camp, NOW, force=True, reports=False)  # athens sends nothing
    rollback(camp, 1, "wrong rules call")
    adjust(camp, "missed income", gold={"athens": 1})
    set_seat(camp, "athens", "bot")
    run_turn(camp, NOW, force=True, reports=False)
    flagged(turn_of(camp, 1), "orders/turn-001/athens.yaml", "ran again", "where that run had none")


def test_a_file_sent_early_in_a_discarded_timeline_is_no_mismatch(camp):
    """Found by a review (honest flow): athens sent turn 2's file early; a rollback to turn 1 moved it to the
    archive; turn 2 then ran with the computer player's file for athens: OK, not a MISMATCH against the old file."""
    send(camp, "athens")
    send(camp, "sparta")
    run_turn(camp, NOW, reports=False)
    send(camp, "athens")  # turn 2, early
    rollback(camp, 1, "wrong rules call in turn 1")
    run_turn(camp, NOW, force=True, reports=False)
    set_seat(camp, "athens", "bot")
    send(camp, "sparta")
    run_turn(camp, NOW, reports=False)
    v = turn_of(camp, 2)
    assert v.ok, (v.detail, v.flags)


def test_a_forced_fix_covers_its_own_file_not_every_later_one(camp):
    """Found by a review: a forced fix was remembered per player, so a later, never-forced file of that player
    (the computer player's, after a seat change) passed as fixed."""
    send(camp, "athens")
    send(camp, "sparta")
    run_turn(camp, NOW, reports=False)
    send(camp, "sparta")
    run_turn(camp, NOW, force=True, reports=False)  # turn 2, run A: athens sends nothing
    rollback(camp, 2, "r1")
    assert submit_bytes(camp, orders(camp, "athens", diplomacy=["megara"]), "a.yaml", NOW, moderator_fix=True,
                        force=True).accepted
    run_turn(camp, NOW, force=True, reports=False)  # run B: athens's file, a forced fix
    dest = rollback(camp, 1, "r2 deeper").dest
    run_turn(camp, NOW, force=True, reports=False)  # turn 1 as it was: turn 2 from the same position, locked
    set_seat(camp, "athens", "bot")
    back = (dest / "orders" / "turn-002" / "sparta.yaml").read_bytes()
    assert submit_bytes(camp, back, "sparta.yaml", NOW, moderator_fix=True, force=True).accepted
    run_turn(camp, NOW, force=True, reports=False)  # run C: the computer player's file for athens, never forced
    flagged(turn_of(camp, 2), "orders/turn-002/athens.yaml", "ran again", "no forced")


def test_a_human_s_file_written_with_pbem_bot_is_not_called_the_computer_player_s(camp):
    """A moderator's review: a human player wrote his file with `pbem bot` on his kit and added a line; it kept
    the computer player's first line, and verify flagged the turn: "athens's seat was the computer player's, but
    this is not the file the computer player writes for it" (exit 1), though no seat line ever gave it away."""
    from pbem.cycle import bot_file
    raw = bot_file(camp, camp.load_state(), "athens").replace(b"secret: withheld",
                                                               f"secret: {camp.player_secrets()['athens']}".encode())
    assert submit_bytes(camp, raw + b"# my edit\n", "athens.yaml", NOW).accepted
    send(camp, "sparta")
    run_turn(camp, NOW, reports=False)
    assert turn_of(camp, 1).word == "OK", turn_of(camp, 1).flags
