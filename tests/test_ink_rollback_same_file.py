"""After a rollback, the file the rolled-back run played, given back byte for byte, cannot change the dice
(R-TURN-6): a moderator's review re-submitted 16 such files with `submit --fix --force`, told "a changed file
would choose new ones".  It is taken with --fix alone, audited as that file, and `verify` finds nothing to flag."""
from datetime import datetime, timezone

from pbem.cycle import run_turn
from pbem.intake import PLAYED_BY_UNDONE_RUN, submit_bytes, submit_path
from pbem.moderation import rollback
from pbem.verify import verify
from demo_campaign import athens_human_sparta_bot

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)


def two_turns_run(tmp_path):
    """A campaign at turn 3: athens human (a file each turn), sparta the computer player."""
    return athens_human_sparta_bot(tmp_path, NOW, current_file=False, diplomacy=["megara"])


def last_audit(c):
    return (c.root / "audit.log").read_text().splitlines()[-1]


def test_a_deeper_rollback_s_files_given_back_unchanged_need_no_force(tmp_path):
    c, athens = two_turns_run(tmp_path)
    dest = rollback(c, 1, "turn 2 ran too early").dest
    run_turn(c, NOW, force=True, reports=False)  # turn 1 as it was: turn 2 is reached from the same position
    archived = dest / "orders" / "turn-002" / "athens.yaml"
    with c.lock():
        a = submit_path(c, archived, NOW, moderator_fix=True)  # its secret reads withheld: a stored copy
    assert a.accepted, a.text()
    line = last_audit(c)
    assert f"({PLAYED_BY_UNDONE_RUN}) for athens turn 2" in line and "forced" not in line, line
    assert "as a moderator's fix" in line
    run_turn(c, NOW, force=True, reports=False)
    verdicts = {v.turn: v for v in verify(c)}
    assert verdicts[2].ok and not verdicts[2].flags, (verdicts[2].flags, verdicts[2].detail)
    # and verify says it is the seen run's own file (a moderator's review: five "moderator's fix" notes after a
    # rollback alarmed a referee, who could not tell they were the same bytes)
    assert any("taken as the moderator's fix (the file the rolled-back run played: the same dice)" in n
               for n in verdicts[2].notes), verdicts[2].notes


def test_a_changed_file_still_needs_force_and_the_refusal_names_the_command(tmp_path):
    c, athens = two_turns_run(tmp_path)
    rollback(c, 1, "turn 2 ran too early")
    run_turn(c, NOW, force=True, reports=False)
    a = submit_bytes(c, athens(2, diplomacy=["argos"]), "a2.yaml", NOW, moderator_fix=True)
    assert not a.accepted and "is not the one they were seen with" in a.text() and "--force" in a.text()
    assert a.retry == ("--fix", "--force")


def test_the_run_s_file_given_back_after_a_forced_fix_of_the_same_turn_needs_no_force(tmp_path):
    """Rolled back to turn 2 itself: the moderator forced another file in, then thought better of it and gave
    back the one the run played."""
    c, athens = two_turns_run(tmp_path)
    played = (c.orders_dir(2) / "athens.yaml").read_bytes()
    run_turn(c, NOW, force=True, reports=False)  # turn 3 too, then both undone
    rollback(c, 2, "wrong file")
    assert submit_bytes(c, athens(2, diplomacy=["argos"]), "a.yaml", NOW, moderator_fix=True, force=True).accepted
    a = submit_bytes(c, played, "athens.yaml", NOW, moderator_fix=True)
    assert a.accepted, a.text()
    assert "forced" not in last_audit(c) and PLAYED_BY_UNDONE_RUN in last_audit(c)
    run_turn(c, NOW, force=True, reports=False)
    verdicts = {v.turn: v for v in verify(c)}
    assert verdicts[2].ok and not verdicts[2].flags, verdicts[2].flags


def test_a_kept_copy_given_without_fix_on_a_held_turn_prints_the_flags_that_take_it_and_keeps_no_reply(tmp_path):
    """A code review: a stored copy (secret withheld) given without --fix was told `--fix` only, which a held
    turn refused again; and a reply was kept for a player, though only the moderator holds such copies."""
    import shlex
    c, _ = two_turns_run(tmp_path)
    rollback(c, 2, "run too early")  # turn 2 held: its files stay, fixed
    same = tmp_path / "same.yaml"
    same.write_bytes((c.orders_dir(2) / "athens.yaml").read_bytes())
    changed = tmp_path / "changed.yaml"
    changed.write_bytes(same.read_bytes() + b"# changed\n")
    replies = sorted((c.root / "replies").rglob("*.txt"))
    for path, flags in ((same, ["--fix"]), (changed, ["--fix", "--force"])):
        with c.lock():
            a = submit_path(c, path, NOW)
        assert not a.accepted, a.text()
        [line] = [x for x in a.text().splitlines() if "`pbem submit" in x]
        command = shlex.split(line.split("`")[1])
        assert command[-len(flags):] == flags, line
    assert sorted((c.root / "replies").rglob("*.txt")) == replies
    with c.lock():  # the flags printed take it (at the test's clock: the CLI's would find the deadline past)
        assert submit_path(c, changed, NOW, moderator_fix="--fix" in command, force="--force" in command).accepted
