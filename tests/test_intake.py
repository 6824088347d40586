"""Order intake end to end (issue: file-drop turn cycle): authentication, checks, storage, answers.

After every file the campaign's state and stored orders are asserted: a refused file changes nothing.
"""
from datetime import datetime, timezone

import pytest
from typer.testing import CliRunner

from pbem import yamlio
from pbem.campaign import create
from pbem.cli import app
from pbem.cycle import set_deadline
from pbem.intake import ingest, submit_bytes

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def camp(tmp_path):
    return create(tmp_path / "camp", ["athens", "sparta", "troy"], seed="5", name="test").campaign


def order_text(camp, player, secret=None, turn=1, campaign="test", **body):
    secrets = camp.player_secrets()
    data = {"campaign": campaign, "turn": turn, "player": player,
            "secret": secrets[player] if secret is None else secret, **body}
    return yamlio.dump(data).encode()


def stored_form(camp, player, raw):
    """What pbem keeps of a file: the player's secret withheld."""
    return raw.replace(camp.player_secrets()[player].encode(), b"withheld")


def snapshot(camp):
    """Everything intake may not change when it refuses a file."""
    orders = sorted(p.relative_to(camp.root).as_posix() for p in (camp.root / "orders").rglob("*") if p.is_file())
    return camp.snapshot_path(camp.current_turn).read_bytes(), orders


def test_a_good_file_is_accepted_and_stored(camp):
    a = submit_bytes(camp, order_text(camp, "athens", diplomacy=["megara"]), "athens.yaml", NOW)
    assert a.accepted and a.player == "athens" and a.turn == 1, a.text()
    assert (camp.orders_dir(1) / "athens.yaml").read_bytes() == stored_form(
        camp, "athens", order_text(camp, "athens", diplomacy=["megara"]))
    assert "ACCEPTED" in a.text()


def test_a_resubmission_keeps_the_previous_version(camp):
    first = order_text(camp, "athens", diplomacy=["megara"])
    second = order_text(camp, "athens", diplomacy=["argos"])
    assert submit_bytes(camp, first, "a.yaml", NOW).accepted
    assert submit_bytes(camp, second, "b.yaml", NOW).accepted
    assert (camp.orders_dir(1) / "athens.yaml").read_bytes() == stored_form(camp, "athens", second)
    assert (camp.orders_dir(1) / "athens.v1.yaml").read_bytes() == stored_form(camp, "athens", first)


def test_a_duplicate_changes_nothing(camp):
    text = order_text(camp, "athens")
    submit_bytes(camp, text, "a.yaml", NOW)
    before = snapshot(camp)
    a = submit_bytes(camp, text, "a-again.yaml", NOW)
    assert a.accepted and a.duplicate and snapshot(camp) == before
    assert not (camp.orders_dir(1) / "athens.v1.yaml").exists()


@pytest.mark.parametrize("make, name, message", [
    (lambda c: order_text(c, "athens", secret="0000-0000-0000-0000"), "a.yaml", "wrong secret"),
    (lambda c: order_text(c, "athens", secret=""), "a.yaml", "no secret"),
    # sparta's secret in a file that claims to be athens: a spoof
    (lambda c: order_text(c, "athens", secret=c.player_secrets()["sparta"]), "a.yaml", "wrong secret for athens"),
    (lambda c: order_text(c, "macedonia", secret="x"), "a.yaml", "not in this campaign"),
    (lambda c: order_text(c, "athens").replace(b"player: athens", b"player: Athens"), "a.yaml",
     "player 'Athens': write it in lower case, player: athens"),  # a mail review: "not in this campaign"
    (lambda c: order_text(c, "athens", campaign="other"), "a.yaml", "for campaign 'other'"),
    (lambda c: order_text(c, "athens", turn=2), "a.yaml", "the campaign is at turn 1"),
    (lambda c: order_text(c, "athens") + b"diplomacy: [megara\n", "a.yaml", "YAML syntax error"),
    (lambda c: b"campaign: test\nturn: [1\n", "a.yaml", "header cannot be read"),  # no header: not even parsed
    (lambda c: b"\xff\xfe\x00junk", "a.yaml", "not UTF-8"),
    (lambda c: b"- just\n- a list\n", "a.yaml", "not an order file"),
    (lambda c: b"", "a.yaml", "the file is empty: an order file needs at least campaign, turn and player"),
    (lambda c: b"# my orders\n\n", "a.yaml", "the file is empty"),  # as `pbem check` says it
    (lambda c: order_text(c, "athens"), "../../etc/passwd.yaml", "contains a path"),
    (lambda c: order_text(c, "athens"), "orders.exe", "must end in .yaml"),
    (lambda c: order_text(c, "athens"), ".hidden.yaml", "starts with a dot"),
    # no path in it: "contains a path" misled a mail review's player
    (lambda c: order_text(c, "athens"), "turn 3..yaml", "contains '..' (two dots in a row)"),
    (lambda c: order_text(c, "athens"), "...yaml", "contains '..' (two dots in a row)"),
    (lambda c: order_text(c, "athens", first_move=[{"units": ["SPA-A1"], "path": ["0817"]}]), "a.yaml",
     "order checker found"),
])
def test_refused_files_change_nothing_and_are_reported(camp, make, name, message):
    before = snapshot(camp)
    a = submit_bytes(camp, make(camp), name, NOW)
    assert not a.accepted and message in a.text(), a.text()
    assert snapshot(camp) == before
    assert "intake refused" in (camp.root / "audit.log").read_text()  # the moderator is told


def test_late_files_are_refused_unless_the_moderator_allows(camp):
    set_deadline(camp, "2026-11-20T18:00", NOW)
    before = snapshot(camp)
    a = submit_bytes(camp, order_text(camp, "athens"), "a.yaml", NOW)
    assert not a.accepted and "late" in a.text() and snapshot(camp) == before
    assert submit_bytes(camp, order_text(camp, "athens"), "a.yaml", NOW, late_ok=True).accepted
    set_deadline(camp, "+2d", NOW)
    assert submit_bytes(camp, order_text(camp, "sparta"), "s.yaml", NOW).accepted


def test_ingest_takes_the_drop_folder_and_sorts_files_out(camp, tmp_path):
    drop = tmp_path / "drop"
    drop.mkdir()
    (drop / "athens.yaml").write_bytes(order_text(camp, "athens"))
    (drop / "spoof.yaml").write_bytes(order_text(camp, "sparta", secret="1234"))
    (drop / "broken.yaml").write_bytes(b"turn: [")
    (drop / "link.yaml").symlink_to(drop / "athens.yaml")
    answers = ingest(camp, drop, NOW)
    assert sorted((a.source, a.accepted) for a in answers) == [
        ("athens.yaml", True), ("broken.yaml", False), ("link.yaml", False), ("spoof.yaml", False)]
    # kept by turn, named after the reply (a moderator's review: flat names showed neither turn nor player)
    assert sorted(p.name for p in (drop / "accepted" / "turn-001").iterdir()) == ["athens-001_athens.yaml"]
    kept = sorted(p.name for p in (drop / "refused" / "turn-001").iterdir())  # numbered in the order taken
    assert [n[:12] for n in kept] == ["unknown-001_", "unknown-002_"] and len(answers) == 4
    # the link is answered, then removed, never kept (a red-teamer: moved deeper, a relative link came to name
    # the campaign's secret/players.yaml)
    assert sorted(n[12:] for n in kept) == ["broken.yaml", "spoof.yaml"]
    assert sorted(p.name for p in camp.orders_dir(1).iterdir()) == ["athens.yaml"]
    assert len(list((camp.root / "replies" / "turn-001").iterdir())) == 4
    assert ingest(camp, drop, NOW) == []  # nothing left to take


def test_submit_and_ingest_commands(camp, tmp_path):
    runner = CliRunner()
    f = tmp_path / "athens.yaml"
    f.write_bytes(order_text(camp, "athens"))
    r = runner.invoke(app, ["submit", str(camp.root), str(f)])
    assert r.exit_code == 0 and "ACCEPTED" in r.output
    g = tmp_path / "bad.yaml"
    g.write_bytes(order_text(camp, "sparta", secret="nope"))
    r = runner.invoke(app, ["submit", str(camp.root), str(g)])
    assert r.exit_code == 1 and "REFUSED" in r.output and "wrong secret" in r.output
    r = runner.invoke(app, ["ingest", str(camp.root), "--from", str(tmp_path / "missing")])
    assert r.exit_code == 2 and "no such folder" in r.output
    audit = (camp.root / "audit.log").read_text()
    r = runner.invoke(app, ["submit", str(camp.root), str(tmp_path / "nothere.yaml")])  # a moderator's typo
    assert r.exit_code == 2 and r.output.strip() == f"pbem: {tmp_path / 'nothere.yaml'}: no such file; nothing was " \
                                                    f"submitted", r.output
    assert (camp.root / "audit.log").read_text() == audit
    import os
    os.utime(camp.orders_dir(1) / "athens.yaml", (1795000000, 1795000000))  # stored at 2026-11-18 11:06:40 UTC
    r = runner.invoke(app, ["status", str(camp.root)])
    assert r.exit_code == 0 and "\n  athens  human  in, 2026-11-18 11:06 UTC\n" in r.output  # when it came in
    waiting = next(line for line in r.output.splitlines() if line.startswith("Waiting for:"))
    assert "sparta" in waiting and "troy" in waiting and "athens" not in waiting


def test_run_turn_waits_for_orders_or_the_deadline(camp):
    from pbem.cycle import run_turn, set_seat
    result, msg = run_turn(camp, NOW, reports=False)
    assert result is None and "Not due: game turn 1 is waiting for" in msg and camp.current_turn == 1
    set_seat(camp, "troy", "bot")
    for p in ("athens", "sparta"):
        assert submit_bytes(camp, order_text(camp, p), f"{p}.yaml", NOW).accepted
    result, msg = run_turn(camp, NOW, reports=False)
    assert result is not None and camp.current_turn == 2, msg
    assert (camp.orders_dir(1) / "troy.yaml").is_file()  # the computer player's file is kept with the rest
    set_deadline(camp, "2026-11-21", NOW)  # passed: the turn runs without the missing players (NMR)
    result, msg = run_turn(camp, NOW, reports=False)
    assert result is not None and camp.current_turn == 3
    assert camp.load_state().players["athens"].nmr_streak == 1


def test_a_new_seat_gets_a_new_secret_and_the_old_one_stops_working(camp):
    from pbem.cycle import set_seat
    old = camp.player_secrets()["athens"]
    new = set_seat(camp, "athens", "human")
    assert new != old and camp.player_secrets()["athens"] == new
    a = submit_bytes(camp, order_text(camp, "athens", secret=old), "a.yaml", NOW)
    assert not a.accepted and "wrong secret" in a.text()
    assert submit_bytes(camp, order_text(camp, "athens", secret=new), "a.yaml", NOW).accepted


def test_a_computer_players_seat_takes_no_human_files(camp):
    from pbem.cycle import set_seat
    set_seat(camp, "troy", "bot")
    a = submit_bytes(camp, order_text(camp, "troy"), "t.yaml", NOW)
    assert not a.accepted and "computer player" in a.text()
    assert submit_bytes(camp, order_text(camp, "troy"), "t.yaml", NOW, moderator_fix=True).accepted


def test_after_a_rollback_players_cannot_resend_to_reroll_the_dice(camp):
    from pbem.cycle import run_turn
    from pbem.moderation import rollback
    for p in ("athens", "sparta", "troy"):
        assert submit_bytes(camp, order_text(camp, p), f"{p}.yaml", NOW).accepted
    run_turn(camp, NOW, reports=False)
    rollback(camp, 1, "a misfiled order")
    before = snapshot(camp)
    again = order_text(camp, "athens") + b"# please roll again\n"
    a = submit_bytes(camp, again, "a.yaml", NOW)
    assert not a.accepted and "only the moderator" in a.text() and snapshot(camp) == before
    a = submit_bytes(camp, again, "a.yaml", NOW, moderator_fix=True)  # its dice were seen: --force too
    assert not a.accepted and "was run and rolled back" in a.text() and "--force" in a.text(), a.text()
    assert snapshot(camp) == before
    assert submit_bytes(camp, again, "a.yaml", NOW, moderator_fix=True, force=True).accepted  # audited
    assert "as a moderator's fix, forced after a run of the turn that was rolled back" in \
        (camp.root / "audit.log").read_text()


def test_status_counts_computer_players_as_in(camp):
    from pbem.cycle import set_seat, status
    set_seat(camp, "troy", "bot")
    st = status(camp)
    assert "troy" not in st.missing and st.seats["troy"] == "bot"
    assert "Computer players: troy" in st.render(NOW)


@pytest.mark.parametrize("blocked", ["accepted", "refused"])
@pytest.mark.parametrize("link", [False, True])
def test_a_file_where_a_sorting_folder_goes_is_refused_and_moved_aside_and_intake_goes_on(camp, tmp_path, blocked,
                                                                                          link):
    """A plain file (or a link) named accepted or refused in the drop folder used to stop ingest (exit 2) and
    with it all intake: now it is answered like any other unusable file and moved into refused/."""
    drop = tmp_path / "drop"
    drop.mkdir()
    if link:
        (drop / blocked).symlink_to(tmp_path)
    else:
        (drop / blocked).write_text("not a folder")
    (drop / "athens.yaml").write_bytes(order_text(camp, "athens"))
    (drop / "broken.yaml").write_bytes(b"turn: [")
    r = CliRunner().invoke(app, ["ingest", str(camp.root), "--from", str(drop)])
    assert r.exit_code == 1 and f"REFUSED: {blocked}\n" in r.output, r.output
    assert "ACCEPTED: athens.yaml" in r.output
    assert (drop / "accepted").is_dir() and not (drop / "accepted").is_symlink()
    assert (drop / "refused").is_dir() and not (drop / "refused").is_symlink()
    assert sorted(p.name for p in (drop / "refused" / "turn-001").iterdir()) == sorted(
        ([] if link else [f"unknown-001_{blocked}"]) + ["unknown-002_broken.yaml"])  # a link is removed, not kept
    assert sorted(p.name for p in drop.iterdir()) == ["accepted", "refused"]
    assert (camp.orders_dir(1) / "athens.yaml").is_file()
    assert len(list((camp.root / "replies" / "turn-001").iterdir())) == 3  # each has its answer
    assert tmp_path.is_dir() and (tmp_path / "drop").is_dir()  # a link is removed, not what it points to


@pytest.mark.parametrize("name", ["Athens orders (turn 5).yaml", "orders.txt", "Ἀθῆναι, τάξεις.yml",
                                  "athens' orders [v2].YAML", "Sparta-orders_1.yaml",
                                  "Sparta orders – turn 3 (Λακεδαίμων).yaml", "Athens’ orders “final”.yaml",
                                  "orders\u00a0turn 2.yaml",
                                  "orders%20turn%201.yaml"])  # a web mail's name for "orders turn 1.yaml"
def test_attachment_names_as_mail_programs_give_them_are_accepted(camp, name):
    a = submit_bytes(camp, order_text(camp, "athens"), name, NOW)
    assert a.accepted, a.text()
    assert (camp.orders_dir(1) / "athens.yaml").is_file()  # stored under the player's name whatever it was


@pytest.mark.parametrize("name, why", [("../athens.yaml", "path"), ("a/b.yaml", "path"), ("a\\b.yaml", "path"),
                                       (".hidden.yaml", "dot"), ("a..yaml", "'..'"), ("a\x00.yaml", "control"),
                                       ("a\nb.yaml", "control"), ("a\x1b[31m.yaml", "control"),
                                       ("a:b.yaml", "characters"), ("orders.doc", ".txt"),
                                       ("a\u2028b.yaml", "(\\u2028)"),
                                       ("x" * 300 + ".yaml", "limit")])
def test_path_tricks_and_odd_names_are_still_refused(camp, name, why):
    before = snapshot(camp)
    a = submit_bytes(camp, order_text(camp, "athens"), name, NOW)
    assert not a.accepted and why in a.text(), a.text()
    assert snapshot(camp) == before


def test_ingest_answers_hidden_files_and_folders_instead_of_skipping_them(camp, tmp_path):
    drop = tmp_path / "drop"
    (drop / "athens stuff").mkdir(parents=True)
    (drop / "athens stuff" / "orders.yaml").write_bytes(order_text(camp, "athens"))
    (drop / ".athens.yaml").write_bytes(order_text(camp, "athens"))
    (drop / "Sparta orders (turn 1).yaml").write_bytes(order_text(camp, "sparta"))
    answers = ingest(camp, drop, NOW)
    by = {a.source: a for a in answers}
    assert set(by) == {"athens stuff", ".athens.yaml", "Sparta orders (turn 1).yaml"}
    assert not by["athens stuff"].accepted and "folder" in by["athens stuff"].text()
    assert not by[".athens.yaml"].accepted and "dot" in by[".athens.yaml"].text()
    assert by["Sparta orders (turn 1).yaml"].accepted
    kept = sorted((drop / "refused" / "turn-001").iterdir())
    assert [p.name[:len("unknown-00N_")] for p in kept] == ["unknown-001_", "unknown-002_"]
    assert sorted(p.name[len("unknown-00N_"):] for p in kept) == [".athens.yaml", "athens stuff"]
    assert sorted(p.name for p in drop.iterdir()) == ["accepted", "refused"]
    assert len(list((camp.root / "replies" / "turn-001").iterdir())) == 3  # each has its answer
    assert ingest(camp, drop, NOW) == []  # nothing is taken twice


def test_a_file_seconds_late_is_told_the_second_it_was_taken(camp):
    """R-TURN-5: a deadline is kept to the minute; a file 9 seconds after it was told only "the deadline was
    12:00" and read as on time to its player (a moderator's review).  The reply names the second it was taken."""
    set_deadline(camp, "2026-11-22T12:00", NOW)
    before = snapshot(camp)
    a = submit_bytes(camp, order_text(camp, "athens"), "a.yaml", NOW.replace(second=9))
    assert not a.accepted and snapshot(camp) == before
    assert ("late: the deadline was 2026-11-22 12:00 UTC and the file was taken at 2026-11-22 12:00:09 UTC"
            in a.text()), a.text()
    assert submit_bytes(camp, order_text(camp, "athens"), "a.yaml", NOW).accepted  # at 12:00:00 it is in time
    # and within that second too: the answer to a file at 12:00:00.02 said "taken at 12:00:00" and "late"
    assert submit_bytes(camp, order_text(camp, "sparta"), "s.yaml", NOW.replace(microsecond=20000)).accepted


def test_replies_to_late_and_fixed_files_do_not_invite_another_file(camp):
    set_deadline(camp, "2026-11-01", NOW)
    late = submit_bytes(camp, order_text(camp, "athens"), "a.yaml", NOW, late_ok=True)
    assert late.accepted and "until the deadline" not in late.text(), late.text()
    fix = submit_bytes(camp, order_text(camp, "sparta"), "s.yaml", NOW, late_ok=True, moderator_fix=True)
    assert fix.accepted and "until the deadline" not in fix.text() and "moderator's fix" in fix.text()
    set_deadline(camp, "2026-12-01", NOW)
    on_time = submit_bytes(camp, order_text(camp, "troy"), "t.yaml", NOW)
    # the turn runs as soon as every player's file is in, not only at the deadline (a moderator's review)
    assert "You may send a new file until the turn runs: at the deadline (2026-12-01" in on_time.text()
    assert "or earlier once every player's file is in" in on_time.text()


def test_a_stored_copy_submitted_without_fix_says_to_use_fix(camp):
    """A stored file's secret reads `withheld`: a moderator resubmitting it without --fix is told what to do,
    not that the secret is wrong."""
    raw = order_text(camp, "athens").replace(camp.player_secrets()["athens"].encode(), b"withheld")
    a = submit_bytes(camp, raw, "athens.yaml", NOW)
    assert not a.accepted and "a stored copy (its secret is withheld)" in a.text() and "submit --fix" in a.text()


def test_a_file_for_a_future_turn_says_which_turn_to_write(camp):
    """A moderator's review: a file for a past turn was told to send turn 1 orders, one for a future turn only that
    the campaign was at turn 1 "(not the current turn)"."""
    a = submit_bytes(camp, order_text(camp, "athens", turn=3), "a.yaml", NOW)
    assert not a.accepted
    assert "the file is for game turn 3, the campaign is at turn 1 (not the current turn): write turn: 1 to send " \
           "your orders for game turn 1 now" in a.text().replace("\n", " "), a.text()


def test_the_command_printed_for_a_late_file_named_with_a_dash_works_as_printed(camp, tmp_path, monkeypatch):
    """A moderator's review: `submit CAMPAIGN -- -athens.yaml` refused as late printed `pbem submit CAMPAIGN
    -athens.yaml --late-ok`, which reads -athens.yaml as an option; the flags now come first, then `--`."""
    import re
    import shlex
    set_deadline(camp, "2026-11-01T12:00", NOW)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-athens.yaml").write_bytes(order_text(camp, "athens"))
    runner = CliRunner()
    r = runner.invoke(app, ["submit", str(camp.root), "--", "-athens.yaml"])
    assert r.exit_code == 1 and "late: the deadline was" in r.output, r.output
    [command] = re.findall(r"`(pbem submit [^`]*)`", r.output)
    assert command.endswith("--late-ok -- -athens.yaml"), command
    r = runner.invoke(app, shlex.split(command)[1:])
    assert r.exit_code == 0 and "ACCEPTED" in r.output, r.output
