"""What a moderator running a 12-player campaign from the guide found in the turn cycle, each as a scenario: a
seat that changes hands sets the former holder's file aside, `+N` deadlines count from the deadline in force,
a forced early run names its NMR players, a rollback gives the turn back its own deadline, `status` gives one
line per player, `new` gives its next steps in order, `seat --reason`, `adjust` reminds of the reports, and
`archive --without-reports` leaves out the reports a rollback moved aside."""
import re
import tarfile
from datetime import datetime, timedelta, timezone

import pytest
from typer.testing import CliRunner

from pbem import yamlio
from pbem.campaign import create
from pbem.cli import app
from pbem.cycle import bot_file, deadline, run_turn, set_deadline, set_seat, status
from pbem.intake import submit_bytes
from pbem.moderation import rollback
from pbem.storage import Campaign

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


def pbem(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def fresh(camp):
    """The campaign read again from its folder (a command run through the CLI wrote it)."""
    return Campaign.open(camp.root)


@pytest.fixture
def camp(tmp_path):
    return create(tmp_path / "c", ["athens", "sparta", "troy"], seed="11", name="cyc").campaign


def orders(camp, player, **body):
    data = {"campaign": "cyc", "turn": camp.current_turn, "player": player,
            "secret": camp.player_secrets()[player], **body}
    return yamlio.dump(data).encode()


def audit(camp):
    return (camp.root / "audit.log").read_text()


# -- 1. a seat that changes hands: the former holder's file is set aside -----------------------------------

def test_a_seat_handed_to_the_computer_player_sets_the_departed_players_file_aside(camp):
    assert submit_bytes(camp, orders(camp, "troy"), "troy.yaml", NOW).accepted
    stored = (camp.orders_dir(1) / "troy.yaml").read_bytes()
    r = pbem("seat", camp.root, "troy", "bot", "--reason", "the player left")
    assert r.exit_code == 0, r.output
    line = next(x for x in r.output.splitlines() if "set aside" in x)
    assert line.startswith("troy's file for turn 1, sent by the former player, is set aside: kept as "
                           "orders/turn-001/troy.set-aside-1.yaml"), r.output
    assert "the computer player writes troy's orders when the turn runs" in line
    # kept, not deleted; audited with the seat change and its reason
    assert (camp.orders_dir(1) / "troy.set-aside-1.yaml").read_bytes() == stored
    assert not (camp.orders_dir(1) / "troy.yaml").exists()
    last = audit(camp).splitlines()[-1]
    assert "seat of troy set to bot" in last and "set aside as orders/turn-001/troy.set-aside-1.yaml" in last
    assert last.endswith(": the player left")
    # status agrees: troy is the computer player's, nobody waits for it
    camp = fresh(camp)
    st = status(camp)
    assert "troy" not in st.submitted and "troy" not in st.missing
    # run-turn agrees: the computer player writes troy's orders, and says so
    state = camp.load_state()
    for p in ("athens", "sparta"):
        assert submit_bytes(camp, orders(camp, p), f"{p}.yaml", NOW).accepted
    result, msg = run_turn(camp, NOW, reports=False)
    assert result is not None, msg
    assert (camp.orders_dir(1) / "troy.yaml").read_bytes() == bot_file(camp, state, "troy")
    assert audit(camp).splitlines()[-1].endswith("computer players: troy")


def test_a_seat_handed_back_to_a_human_sets_the_computer_players_file_aside_and_the_turn_runs(camp):
    set_seat(camp, "troy", "bot")
    fix = bot_file(camp, camp.load_state(), "troy")
    assert submit_bytes(camp, fix, "troy-fix.yaml", NOW, moderator_fix=True).accepted
    r = pbem("seat", camp.root, "troy", "human", "--reason", "a new player joins")
    assert r.exit_code == 0, r.output
    assert "troy's file for turn 1, stored for the computer player's seat, is set aside: kept as " \
           "orders/turn-001/troy.set-aside-1.yaml; the new player must send a file for turn 1" in r.output, r.output
    camp = fresh(camp)
    assert "troy" in status(camp).missing  # the new player's file is awaited
    # run-turn does not take the set-aside file for one removed by hand: troy is simply NMR
    set_deadline(camp, "2026-11-21", NOW)
    result, msg = run_turn(camp, NOW, reports=False)
    assert result is not None and camp.current_turn == 2, msg
    assert camp.load_state().players["troy"].nmr_streak == 1


def test_a_human_seat_given_a_new_secret_sets_aside_the_file_sent_with_the_old_one(camp):
    """The same seat again gives a new secret, say one that leaked: a file stored with the old secret may be the
    thief's, so it is set aside too (a red-teamer: re-keying left the forged file in force, unsaid); the player
    sends theirs again with the new secret."""
    assert submit_bytes(camp, orders(camp, "troy"), "troy.yaml", NOW).accepted
    r = pbem("seat", camp.root, "troy", "human", "--reason", "secret leaked")
    assert r.exit_code == 0 and ("troy's file for turn 1, sent with the former secret, is set aside: kept as "
                                 "orders/turn-001/troy.set-aside-1.yaml; the player sends it again") in r.output
    assert not (camp.orders_dir(1) / "troy.yaml").exists()
    assert (camp.orders_dir(1) / "troy.set-aside-1.yaml").is_file()
    assert "troy" not in status(camp).submitted


def test_seat_takes_a_reason_like_adjust(camp):
    r = pbem("seat", camp.root, "troy", "bot")
    assert r.exit_code == 2 and "--reason" in r.output and "troy" not in yamlio.dump(camp.config.get("seats"))
    r = pbem("seat", camp.root, "troy", "bot", "--reason", "  ")
    assert r.exit_code == 2 and "--reason: say why" in r.output, r.output
    r = pbem("seat", camp.root, "troy", "bot", "--reason", "civil disorder for 3 turns")
    assert r.exit_code == 0
    assert audit(camp).splitlines()[-1].endswith("seat of troy set to bot; the faction's secret was replaced: "
                                                 "civil disorder for 3 turns")


# -- 2. +N counts from the deadline in force ---------------------------------------------------------------

def test_plus_days_counts_from_the_deadline_in_force_and_says_so(camp):
    later = datetime.now(timezone.utc) + timedelta(days=7)
    set_deadline(camp, later.strftime("%Y-%m-%dT%H:%M"), NOW)
    r = pbem("deadline", camp.root, "+2d")
    assert r.exit_code == 0, r.output
    want = later.replace(second=0, microsecond=0) + timedelta(days=2)
    assert deadline(fresh(camp)) == want
    assert f"(2 days after the deadline in force, {later.strftime('%Y-%m-%d %H:%M')} UTC)" in r.output, r.output
    assert "warning" not in r.output


def test_plus_days_without_a_deadline_counts_from_now(camp):
    r = pbem("deadline", camp.root, "+2d")
    assert r.exit_code == 0 and "(2 days from now (no deadline was set))" in r.output, r.output


def test_a_deadline_earlier_than_the_one_it_replaces_is_warned(camp):
    later = datetime.now(timezone.utc) + timedelta(days=7)
    set_deadline(camp, later.strftime("%Y-%m-%dT%H:%M"), NOW)
    soon = (later - timedelta(days=5)).strftime("%Y-%m-%dT%H:%M")
    r = pbem("deadline", camp.root, soon)
    assert r.exit_code == 0, r.output
    warning = [x for x in r.output.splitlines() if x.startswith("warning:")]
    assert len(warning) == 1 and "is earlier than the one it replaces" in warning[0], r.output


# -- 3. a forced early run names its NMR players; a rollback gives the turn back its own deadline ---------

def test_run_turn_force_before_the_deadline_names_the_players_who_will_be_nmr(camp):
    set_deadline(camp, "2026-12-01", NOW)
    assert submit_bytes(camp, orders(camp, "athens"), "a.yaml", NOW).accepted
    result, msg = run_turn(camp, NOW, force=True, reports=False)
    assert result is not None
    line = next(x for x in msg.splitlines() if x.startswith("warning:"))
    assert "game turn 1 is not due (deadline 2026-12-01 23:59 UTC)" in line
    assert line.endswith("2 player(s) with no orders in are NMR: sparta, troy"), line


def test_a_rolled_back_turn_gets_its_own_deadline_back(camp):
    set_deadline(camp, "2026-12-01", NOW)
    run_turn(camp, NOW, force=True, reports=False)
    assert deadline(camp) == NOW + timedelta(days=7)  # turn 2's deadline, turn_days after the run
    r = pbem("rollback", camp.root, "1", "--reason", "run too early")
    assert r.exit_code == 0, r.output
    camp = fresh(camp)
    assert deadline(camp) == datetime(2026, 12, 1, 23, 59, tzinfo=timezone.utc)
    assert "Deadline of game turn 1: 2026-12-01 23:59 UTC (its own" in r.output, r.output
    assert "Deadline: 2026-12-01 23:59 UTC" in status(camp).render(NOW)
    # and the next turn's, when a deeper rollback is undone and the turn reached again, is its own again
    run_turn(camp, NOW, force=True, reports=False)
    set_deadline(camp, "2026-12-09", NOW)
    run_turn(camp, NOW, force=True, reports=False)
    rollback(camp, 2, "again")
    assert deadline(camp) == datetime(2026, 12, 9, 23, 59, tzinfo=timezone.utc)


# -- 4. status: one line per player ------------------------------------------------------------------------

def test_status_gives_one_line_per_player_at_twelve_players(tmp_path):
    players = ["athens", "sparta", "thebes", "corinth", "troy", "crete", "macedonia", "ionia", "doria", "thrace",
               "archea", "amazonia"]
    c = create(tmp_path / "big", players, seed="3", name="big").campaign
    set_seat(c, "doria", "bot")
    data = {"campaign": "big", "turn": 1, "player": "athens", "secret": c.player_secrets()["athens"]}
    assert submit_bytes(c, yamlio.dump(data).encode(), "a.yaml", NOW).accepted
    out = status(c).render(NOW)
    lines = out.splitlines()
    assert max(len(x) for x in lines) < 100, out
    assert "Orders in: 1 of 11 human player(s):" in lines
    rows = [x for x in lines if x.startswith("  ")]
    assert len(rows) == 12
    assert re.fullmatch(r"  athens +human +in, \d{4}-\d\d-\d\d \d\d:\d\d UTC", next(x for x in rows if "athens" in x))
    assert re.fullmatch(r"  sparta +human +not in", next(x for x in rows if "sparta" in x))
    assert "bot" in next(x for x in rows if "doria" in x)


def test_status_shows_nmr_streaks_on_the_players_line(camp):
    set_deadline(camp, "2026-11-21", NOW)
    run_turn(camp, NOW, reports=False)
    row = next(x for x in status(camp).render(NOW).splitlines() if x.startswith("  troy"))
    assert row.endswith("not in; NMR 1 turn(s) in a row"), row


# -- 5. `pbem new` gives the next steps in order -----------------------------------------------------------

def test_new_ends_with_the_steps_in_order(tmp_path):
    r = pbem("new", tmp_path / "n", "--players", "athens,sparta", "--seed", "2")
    assert r.exit_code == 0, r.output
    text = r.output
    first, second, third = (text.index("pbem deadline"), text.index("pbem report"),
                            text.index("send each player their folder"))
    assert first < second < third, text


# -- 6. adjust reminds of the reports ----------------------------------------------------------------------

def test_adjust_reminds_to_write_the_reports_again(camp):
    camp.reports_dir(0).mkdir(parents=True)  # as `pbem new` writes them
    r = pbem("adjust", camp.root, "--reason", "refund", "--gold", "athens=+2")
    assert r.exit_code == 0, r.output
    assert f"write them again with `pbem report {camp.root} --turn 0` before you send them" in r.output, r.output


# -- 7. archive --without-reports leaves out the rolled-back reports too -----------------------------------

def test_archive_without_reports_leaves_out_reports_a_rollback_moved_aside(camp, tmp_path):
    run_turn(camp, NOW, force=True)  # writes reports/turn-001
    rollback(camp, 1, "again")
    assert (camp.root / "archive" / "rollback-1" / "reports").is_dir()
    out = tmp_path / "a.tar.gz"
    r = pbem("archive", camp.root, "-o", out, "--without-reports")
    assert r.exit_code == 0, r.output
    with tarfile.open(out) as tar:
        names = tar.getnames()
    assert not [n for n in names if "/reports" in n], [n for n in names if "/reports" in n][:3]
    assert any(n.endswith("archive/rollback-1/state") or "/archive/rollback-1/" in n for n in names)


# -- a code review of the day's change -----------------------------------------------------------------------

def test_a_new_secret_on_a_held_turn_keeps_the_file_the_seen_run_played(tmp_path):
    """Set aside on a held turn, the file could not be sent again (intake refuses players' files there), the
    re-run had athens NMR and verify flagged it: on a held turn the file stays, and `seat` says how to replace it."""
    from demo_campaign import athens_human_sparta_bot
    from pbem.verify import verify
    c, _ = athens_human_sparta_bot(tmp_path, NOW, current_file=False)
    rollback(c, 2, "run too early")
    r = pbem("seat", c.root, "athens", "human", "--reason", "secret leaked")
    assert r.exit_code == 0 and "athens's file for turn 2 stays: the turn is held after a rollback" in r.output
    assert (c.orders_dir(2) / "athens.yaml").is_file() and not list(c.orders_dir(2).glob("*.set-aside-*"))
    run_turn(c, NOW, force=True, reports=False)
    assert [v.word for v in verify(c)] == ["OK"] * len(verify(c))


def test_pbem_deadline_mends_a_damaged_deadline(camp):
    """`status` says "fix it with `pbem deadline`" of a deadline campaign.yaml cannot read; the command then read
    the old deadline first and failed the same way."""
    config = yamlio.load(camp.config_path).data
    config["deadline"] = "next friday"
    camp.write_config(config)
    r = pbem("deadline", camp.root, "2031-01-01")
    assert r.exit_code == 0 and "2031-01-01" in r.output, r.output
    assert deadline(fresh(camp)).year == 2031


def test_a_reason_quoting_an_adjust_line_cannot_change_how_the_adjustment_reads():
    from pbem.moderation import read_corrections
    line = ("2026-11-22T12:00:00Z adjust turn 3 (athens gold +2 -> 32; sparta gold -1 -> 9), previous kept as "
            "turn-003.fix-1.json: undo 'adjust turn 3 (x), previous kept as turn-003.fix-9.json: old)'")
    [c] = read_corrections(line)
    assert c.items == [("gold", "athens", 2, 32), ("gold", "sparta", -1, 9)] and c.kept == "turn-003.fix-1.json"
    assert c.reason.startswith("undo 'adjust turn 3 (x)")


def test_a_run_that_reaches_a_held_turn_says_so_and_where_its_files_are(tmp_path):
    """A moderator's review: after `rollback 1` from turn 3, `run-turn --force` reached turn 2 from its seen
    position (held, its files archived) and said only the new deadline; run again, every human was NMR."""
    from demo_campaign import athens_human_sparta_bot
    c, _ = athens_human_sparta_bot(tmp_path, NOW, current_file=False)
    dest = rollback(c, 1, "a mistake in turn 1").dest
    _, message = run_turn(c, NOW, force=True, reports=False)
    kept = (dest / "orders" / "turn-002").relative_to(c.root).as_posix()
    assert (f"Game turn 2 is held: it was run and rolled back from this very position, so its players saw it and "
            f"may not send files for it; the files its seen run played are in {kept}/: give them back with "
            f"`pbem submit {c.root} FILE --fix`") in message, message


def test_a_new_secret_after_the_deadline_warns_that_the_turn_is_due(camp):
    """A moderator's re-run: a new secret for a leaked one after the deadline set the file aside and said "the
    player sends it again", but the resend was refused as late and a scheduled run-turn would run the turn first."""
    set_deadline(camp, "2026-01-01", datetime(2025, 12, 1, tzinfo=timezone.utc))
    assert submit_bytes(camp, orders(camp, "troy"), "troy.yaml", datetime(2025, 12, 2, tzinfo=timezone.utc)).accepted
    r = pbem("seat", camp.root, "troy", "human", "--reason", "secret leaked")
    assert r.exit_code == 0 and "warning: the deadline of turn 1 has passed" in r.output, r.output
    assert f"pbem submit {camp.root} FILE --late-ok" in r.output
