"""A moderator's review, through the CLI: `pbem status` of a turn held after a rollback showed the deadline and the
days left as if the players still had time to send files; it now says the turn waits for the moderator's fixes and
`run-turn --force`, and what the deadline still means.  A turn not held shows as it did."""
from datetime import datetime, timedelta, timezone

import pytest

from cyc_common import (NOW, held_turn_1, order_text, pbem, three_players, tree,
                        two_turns_run_and_rolled_back_to_turn_1)
from pbem.cycle import Status, set_deadline, status
from pbem.intake import submit_bytes
from pbem.storage import Campaign


@pytest.fixture
def camp(tmp_path):
    return three_players(tmp_path)


# -- status of a held turn --------------------------------------------------------------------------------


def test_status_of_a_held_turn_says_it_waits_for_the_moderator_not_the_players(camp):
    camp = held_turn_1(camp)
    r = pbem("status", camp.root)
    assert r.exit_code == 0, r.output
    out = r.output
    # no countdown: the players have no time left to use, whatever the deadline says
    assert "left)" not in out and "(passed)" not in out, out
    assert "Held after a rollback: players cannot send files for it (theirs are refused; ingest keeps them in " \
           "DROP/refused/turn-001/)" in out, out
    assert (f"Awaited: only your fixes, `pbem submit {camp.root} FILE --fix` (with --force for a file other than the "
            f"one the rolled-back run played); then `pbem run-turn {camp.root} --force` runs it") in out, out
    deadline_line = next(x for x in out.splitlines() if x.startswith("Deadline: "))
    assert deadline_line.endswith(", the turn's own, no longer a deadline for the players (the turn is held); a fix "
                                  "you take after it needs --late-ok and `pbem verify` names it late"), deadline_line
    assert "Waiting for: no player (the turn is held); without a file you take as a fix, troy has no orders (NMR)" \
        in out, out
    assert "Due: no, held after rollback: run with --force when the fixes are in" in out, out
    # what it says is so: troy's file is refused, run-turn without --force runs nothing
    assert not submit_bytes(camp, order_text(camp, "troy"), "troy.yaml", NOW).accepted
    r = pbem("run-turn", camp.root)
    assert r.exit_code == 0 and "nothing was run" in r.output and Campaign.open(camp.root).current_turn == 1


def test_a_held_turn_without_a_deadline_needs_none(camp):
    st = status(camp)
    held = Status(**{**st.__dict__, "held": True, "deadline": None})
    assert "Deadline: none set (a held turn needs none: it runs only with --force)" in held.render(NOW)
    assert "pbem deadline" not in held.render(NOW)


def test_status_of_a_turn_not_held_is_as_it_was(camp):
    """The normal turn's status, line by line (the held turn's is the only change)."""
    set_deadline(camp, "2026-12-01T18:00", NOW)
    assert submit_bytes(camp, order_text(camp, "sparta"), "sparta.yaml", NOW).accepted
    st = status(camp)
    when = st.received["sparta"].strftime("%Y-%m-%d %H:%M UTC")
    order = st.seats and list(st.seats)
    rows = {"sparta": f"in, {when}", "athens": "not in", "troy": "not in"}
    width = max(len(p) for p in order)
    missing = [p for p in order if p != "sparta"]
    assert st.render(NOW) == "\n".join(
        ["Game turn 1", "Deadline: 2026-12-01 18:00 UTC (9 days 6 hours left)", "Orders in: 1 of 3 human player(s):"]
        + [f"  {p:<{width}}  human  {rows[p]}" for p in order]
        + [f"Waiting for: {', '.join(missing)}", "Due: not yet"]) + "\n"
    assert "Deadline: 2026-12-01 18:00 UTC (passed)" in st.render(NOW + timedelta(days=10))


def test_forced_run_of_a_held_turn_warns_it_is_held_and_names_the_nmr_player(camp):
    """run-turn --force on a held turn before its deadline said "not due (deadline ...)", as if the players might
    still send files: it says the turn is held and who has no file taken as a fix."""
    camp = held_turn_1(camp)  # athens' and sparta's files stay in play; troy sent none
    r = pbem("run-turn", camp.root, "--force")
    assert r.exit_code == 0, r.output
    warning = [x for x in r.output.splitlines() if x.startswith("warning:")]
    assert warning == ["warning: game turn 1 is held after rollback: running it now (--force), so 1 player(s) "
                       "with no file taken as a fix are NMR: troy"], r.output
    assert "not due" not in r.output


def test_deadline_on_a_damaged_snapshot_is_refused_and_writes_nothing(camp):
    """A moderator's soak test: `pbem deadline` wrote campaign.yaml and an audit line beside a damaged snapshot
    (status, seat, report and adjust stop with one line): now it stops too, exit 2, nothing written."""
    snap = camp.root / "state" / "turn-001.json"
    snap.write_bytes(snap.read_bytes()[:-20])
    before = {p: p.read_bytes() for p in (camp.root / "campaign.yaml", camp.root / "audit.log")}
    r = pbem("deadline", camp.root, "+7d")
    assert r.exit_code == 2, r.output
    assert "turn-001.json" in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1, r.output
    assert {p: p.read_bytes() for p in before} == before


def test_a_late_players_file_taken_into_a_held_turn_needs_late_ok_and_says_so_to_the_moderator(camp, tmp_path):
    """A moderator's soak test: moderator.md's recipe for a turn run too early (`submit FILE --fix --force`) was
    refused as late, the turn's own deadline having passed, with the players' words "ask the moderator"."""
    set_deadline(camp, "2026-11-01", datetime.now(timezone.utc))
    a = tmp_path / "athens.yaml"
    a.write_bytes(order_text(camp, "athens"))
    assert pbem("submit", camp.root, a, "--late-ok").exit_code == 0
    assert pbem("run-turn", camp.root, "--no-reports").exit_code == 0
    assert pbem("rollback", camp.root, "1", "--reason", "run before sparta's file was in").exit_code == 0
    s = tmp_path / "sparta.yaml"
    s.write_bytes(order_text(camp, "sparta"))
    r = pbem("submit", camp.root, s, "--fix", "--force")
    assert r.exit_code == 1, r.output
    assert "late: the deadline was 2026-11-01 23:59 UTC and the file was taken at " in r.output, r.output
    assert "; give --late-ok to take it late" in r.output, r.output
    assert "ask the moderator" not in r.output
    assert not (camp.root / "orders" / "turn-001" / "sparta.yaml").exists()
    r = pbem("submit", camp.root, s, "--fix", "--force", "--late-ok")
    assert r.exit_code == 0, r.output
    assert (camp.root / "orders" / "turn-001" / "sparta.yaml").exists()


def test_a_held_turn_reached_again_does_not_run_without_the_files_its_seen_run_played(camp, tmp_path):
    """A moderator's soak test: after a rollback two turns deep, the re-reached turn is held and its seen run's
    files wait in the archive; a second `run-turn --force` ran it without them (everyone NMR, other dice) and
    `pbem verify` flagged it afterwards.  Now it stops first, names the files, and changes nothing."""
    from pbem.verify import verify
    seen = two_turns_run_and_rolled_back_to_turn_1(camp, tmp_path)
    before = tree(camp.root)
    for command in (("run-turn", "--force", "--no-reports"), ("adjudicate", "--force"), ("adjudicate", "--dry-run")):
        r = pbem(command[0], camp.root, *command[1:])  # a dry run neither: it would show the dice without them
        assert r.exit_code == 2, (command, r.output)
        assert "game turn 2 is held, and its rolled-back run played the files of athens, sparta, troy " \
               "(archive/rollback-1/orders/turn-002/), which are not in" in r.output, r.output
        # (a moderator's review: "the same files need no --force" was untrue after two runs with different files)
        assert "a file every rolled-back run of the turn played needs no --force; where the runs played different " \
               "files, taking one needs --force" in r.output.replace("\n", " "), r.output
        assert len(r.output.strip().splitlines()) == 1
    assert tree(camp.root) == before
    r = pbem("status", camp.root)  # status says the same before the moderator tries
    assert "Waiting for: your fixes: the files of athens, sparta, troy that its rolled-back run played wait in " \
           "archive/rollback-1/orders/turn-002/" in r.output, r.output
    for f in sorted(seen.glob("*.yaml")):
        assert pbem("submit", camp.root, f, "--fix").exit_code == 0
    r = pbem("run-turn", camp.root, "--force", "--no-reports")
    assert r.exit_code == 0, r.output
    verdicts = verify(Campaign.open(camp.root))
    assert all(v.ok for v in verdicts), [(v.turn, v.flags) for v in verdicts]


def test_a_replaced_files_older_version_in_the_archive_is_not_a_players_file(camp, tmp_path):
    """A code review: the seen run's archive folder also keeps older versions (athens.v1.yaml); taken for a
    player, they made `run-turn --force` refuse the held turn after every real file was given back."""
    from pbem.verify import verify
    seen = two_turns_run_and_rolled_back_to_turn_1(camp, tmp_path, replaced=["athens"])
    assert (seen / "athens.v1.yaml").is_file()
    r = pbem("status", camp.root)
    assert "the files of athens, sparta, troy that" in r.output and "athens.v1" not in r.output, r.output
    for p in ("athens", "sparta", "troy"):
        assert pbem("submit", camp.root, seen / f"{p}.yaml", "--fix").exit_code == 0
    r = pbem("run-turn", camp.root, "--force", "--no-reports")
    assert r.exit_code == 0, r.output
    assert all(v.ok for v in verify(Campaign.open(camp.root)))


def test_a_hand_made_folder_beside_the_rollbacks_is_no_traceback(camp, tmp_path):
    """A code review: a moderator's own `archive/rollback-1.bak` copy made the run of a held turn crash."""
    camp = held_turn_1(camp)
    (camp.root / "archive" / "rollback-1.bak" / "orders" / "turn-001").mkdir(parents=True)
    r = pbem("status", camp.root)
    assert r.exit_code == 0 and "Traceback" not in r.output, r.output
    r = pbem("run-turn", camp.root, "--force", "--no-reports")
    assert r.exit_code == 0, r.output


def test_a_rollback_over_a_published_turn_key_warns_the_moderator_to_tell_the_players(camp):
    """A moderator's review: docs/moderator.md asks the moderator to tell the players when a turn whose key is out
    is rolled back; pbem said nothing though audit.log records the key's publication."""
    set_deadline(camp, "+30d", datetime.now(timezone.utc))
    assert pbem("run-turn", camp.root, "--force", "--no-reports").exit_code == 0
    assert pbem("run-turn", camp.root, "--force", "--no-reports").exit_code == 0
    assert pbem("turn-key", camp.root, "1").exit_code == 0
    r = pbem("rollback", camp.root, "2", "--reason", "a second look")  # turn 1's key concerns no turn run again
    assert r.exit_code == 0 and "was published" not in r.output and "is not what it was" not in r.output, r.output
    r = pbem("run-turn", camp.root, "--force", "--no-reports")
    assert r.exit_code == 0, r.output
    r = pbem("rollback", camp.root, "1", "--reason", "a misread file")
    assert r.exit_code == 0, r.output
    assert "warning: the key of game turn 1 was published (audit.log): whoever holds it (and the turn's start " \
           "snapshot, as a referee does) can work out that turn's dice for any order files, so tell the players it " \
           "is being played again" in r.output, r.output


def test_a_seat_handed_to_the_computer_player_shows_no_nmr_streak(camp):
    """A moderator's review: after `seat troy bot`, `pbem status` still read "NMR 2 turn(s) in a row" for troy,
    whose orders the computer player now writes every turn."""
    set_deadline(camp, "+30d", datetime.now(timezone.utc))
    for _ in range(2):
        assert pbem("run-turn", camp.root, "--force", "--no-reports").exit_code == 0  # nobody sent a file
    line = next(x for x in pbem("status", camp.root).output.splitlines() if x.strip().startswith("troy"))
    assert "NMR 2 turn(s) in a row" in line, line
    assert pbem("seat", camp.root, "troy", "bot", "--reason", "gone").exit_code == 0
    line = next(x for x in pbem("status", camp.root).output.splitlines() if x.strip().startswith("troy"))
    assert "bot" in line and "NMR" not in line, line


def test_a_rollback_to_a_turn_run_before_a_seat_changed_says_so(camp):
    """A chaos soak: troy's seat went to the computer player after turn 1 ran; a rollback to turn 1 then said
    nothing, and its re-run drew other dice (the computer player's file where the seen run had none), which only
    `verify` flagged."""
    set_deadline(camp, "+30d", datetime.now(timezone.utc))
    assert pbem("run-turn", camp.root, "--force", "--no-reports").exit_code == 0
    assert pbem("seat", camp.root, "troy", "bot", "--reason", "gone").exit_code == 0
    r = pbem("rollback", camp.root, "1", "--reason", "a misread file")
    assert r.exit_code == 0, r.output
    assert "warning: the seat of troy is not what it was when game turn 1 ran: run again so, the turn draws other " \
           "dice than the ones its players saw, and `pbem verify` flags it" in r.output, r.output
