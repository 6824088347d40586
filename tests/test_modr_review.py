"""A moderator's and a red-teamer's review of the turn cycle and intake: stored files changed by hand, civil
disorder said by run-turn, refusals a player can act on, secrets kept out of the drop folder, hard links,
reply names that tell a player only of their own files, plain number errors, the rerun's audit line, the
file-name message, and the deadline's reminder about reports already written."""
import os
import stat
from datetime import datetime, timezone

import pytest
from typer.testing import CliRunner

from pbem import yamlio
from pbem.campaign import create
from pbem.cli import app
from pbem.cycle import adjudicate, run_turn, set_deadline, set_seat
from pbem.intake import check_name, ingest, submit_bytes
from pbem.moderation import rollback

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
runner = CliRunner()


@pytest.fixture
def camp(tmp_path):
    return create(tmp_path / "camp", ["athens", "sparta", "thebes"], seed="5", name="test").campaign


def order_text(camp, player, secret=None, turn=1, **body):
    data = {"campaign": "test", "turn": turn, "player": player,
            "secret": camp.player_secrets()[player] if secret is None else secret, **body}
    return yamlio.dump(data).encode()


def everything(camp):
    """Every file of the campaign folder but audit.log, with its bytes."""
    return {p.relative_to(camp.root).as_posix(): p.read_bytes() for p in camp.root.rglob("*")
            if p.is_file() and p.name not in ("audit.log", ".lock")}


# 1. a stored order file changed by hand is not played

def test_run_turn_refuses_a_stored_file_changed_by_hand_and_says_how_to_mend_it(camp, tmp_path):
    for p in ("athens", "sparta", "thebes"):
        assert submit_bytes(camp, order_text(camp, p), f"{p}.yaml", NOW).accepted
    stored = camp.orders_dir(1) / "athens.yaml"
    accepted = stored.read_bytes()
    # a unit that does not exist: intake's checker would have refused it
    stored.write_bytes(accepted + b"first_move:\n  - {units: [ATH-A99], path: ['1314']}\n")
    before = everything(camp)
    for args in (["run-turn", str(camp.root), "--force"], ["adjudicate", str(camp.root), "--force"],
                 ["adjudicate", str(camp.root), "--dry-run"]):
        r = runner.invoke(app, args)
        assert r.exit_code == 2, r.output
        lines = r.output.strip().splitlines()
        assert len(lines) == 1 and "orders/turn-001/athens.yaml" in lines[0], r.output
        assert "changed by hand" in lines[0] and "--fix" in lines[0] and "put back" in lines[0]
        assert everything(camp) == before and camp.current_turn == 1
    # mended with the moderator's fix: checked (the unit that does not exist is refused), then a good one
    fix = tmp_path / "athens-fix.yaml"
    fix.write_bytes(stored.read_bytes())
    r = runner.invoke(app, ["submit", str(camp.root), str(fix), "--fix"])
    assert r.exit_code == 1 and "ATH-A99" in r.output, r.output
    fix.write_bytes(accepted + b"# the moderator's fix\n")
    r = runner.invoke(app, ["submit", str(camp.root), str(fix), "--fix"])
    assert r.exit_code == 0, r.output
    result, _ = run_turn(camp, NOW, force=True, reports=False)
    assert result is not None and camp.current_turn == 2


def test_putting_back_the_accepted_file_lets_the_turn_run(camp):
    assert submit_bytes(camp, order_text(camp, "athens"), "a.yaml", NOW).accepted
    stored = camp.orders_dir(1) / "athens.yaml"
    accepted = stored.read_bytes()
    stored.write_bytes(accepted + b"# edited\n")
    with pytest.raises(Exception, match="changed by hand"):
        adjudicate(camp, NOW, force=True)
    stored.write_bytes(accepted)
    result, _ = adjudicate(camp, NOW, force=True)
    assert result is not None and camp.current_turn == 2


def test_computer_players_stored_files_and_fixes_keep_working_after_a_rollback(camp, tmp_path):
    set_seat(camp, "thebes", "bot")
    for p in ("athens", "sparta"):
        assert submit_bytes(camp, order_text(camp, p), f"{p}.yaml", NOW).accepted
    run_turn(camp, NOW, reports=False)
    rollback(camp, 1, "a check")
    result, msg = run_turn(camp, NOW, force=True, reports=False)  # the computer player's stored file: kept
    assert result is not None and camp.current_turn == 2, msg
    rollback(camp, 1, "again")
    bot = camp.orders_dir(1) / "thebes.yaml"
    bot.write_bytes(bot.read_bytes() + b"# edited by hand\n")
    r = runner.invoke(app, ["run-turn", str(camp.root), "--force", "--no-reports"])
    assert r.exit_code == 2 and "orders/turn-001/thebes.yaml" in r.output and "computer player" in r.output, \
        r.output
    fix = tmp_path / "thebes.yaml"
    fix.write_bytes(bot.read_bytes())
    r = runner.invoke(app, ["submit", str(camp.root), str(fix), "--fix", "--force"])
    assert r.exit_code == 0, r.output
    result, msg = run_turn(camp, NOW, force=True, reports=False)
    assert result is not None and camp.current_turn == 2, msg


# 2. civil disorder is said by run-turn, with the command

def test_run_turn_says_which_factions_are_in_civil_disorder_and_how_to_seat_the_computer_player(camp):
    lines = []
    for _ in range(3):
        assert submit_bytes(camp, order_text(camp, "athens", turn=camp.current_turn), "a.yaml", NOW).accepted
        set_deadline(camp, "2026-11-21", NOW)  # passed: sparta and thebes are NMR
        result, msg = run_turn(camp, NOW, reports=False)
        assert result is not None, msg
        lines.append([line for line in msg.splitlines() if "civil disorder" in line.lower()])
    assert lines[0] == [] and lines[1] == []
    assert len(lines[2]) == 2, lines[2]
    for pid, line in zip(("sparta", "thebes"), sorted(lines[2], key=lambda s: "thebes" in s)):
        assert pid in line and f"pbem seat {camp.root} {pid} bot" in line, line
    set_seat(camp, "thebes", "bot")
    assert submit_bytes(camp, order_text(camp, "athens", turn=4), "a.yaml", NOW).accepted
    set_deadline(camp, "2026-11-21", NOW)
    _, msg = run_turn(camp, NOW, reports=False)
    said = [line for line in msg.splitlines() if "civil disorder" in line.lower()]
    assert len(said) == 1 and "sparta" in said[0], msg  # a seat the computer player plays is not listed


# 3. a file without a secret line gets the hint

def test_a_file_without_a_secret_line_is_told_what_to_add(camp):
    from pbem.playerkit import TEMPLATE_NAME, write_kit
    template = (write_kit(camp, "sparta") / TEMPLATE_NAME).read_bytes()
    assert b"# secret:" in template
    a = submit_bytes(camp, template, "sparta.yaml", NOW)
    assert not a.accepted
    assert "add a line  secret:" in a.text() and "audit.log" not in a.text(), a.text()
    assert "intake refused sparta.yaml: no secret for sparta" in (camp.root / "audit.log").read_text()
    wrong = submit_bytes(camp, order_text(camp, "sparta", secret="0000-0000-0000-0000"), "s.yaml", NOW)
    assert "wrong secret for sparta" in wrong.text() and "audit.log" not in wrong.text()


# 4. the seat's former player is told the seat is the computer player's

def test_the_former_player_of_a_computer_seat_is_told_so_and_nobody_else(camp):
    old = camp.player_secrets()["thebes"]
    set_seat(camp, "thebes", "bot")
    a = submit_bytes(camp, order_text(camp, "thebes", secret=old), "t.yaml", NOW)
    assert not a.accepted and "played by the computer player now" in a.text() and "ask the moderator" in a.text()
    other = submit_bytes(camp, order_text(camp, "thebes", secret="0000-0000-0000-0000"), "t.yaml", NOW)
    assert "wrong secret for thebes" in other.text() and "computer" not in other.text(), other.text()
    spoof = submit_bytes(camp, order_text(camp, "thebes", secret=camp.player_secrets()["athens"]), "t.yaml", NOW)
    assert "computer" not in spoof.text()
    # the secret of a seat handed to a new human player is not the computer player's seat: nothing more said
    old_sparta = camp.player_secrets()["sparta"]
    set_seat(camp, "sparta", "human")
    b = submit_bytes(camp, order_text(camp, "sparta", secret=old_sparta), "s.yaml", NOW)
    assert "wrong secret for sparta" in b.text() and "computer" not in b.text()
    assert stat.S_IMODE(os.stat(camp.secret_dir / "former-secrets.yaml").st_mode) == 0o600
    assert old.encode() not in (camp.secret_dir / "former-secrets.yaml").read_bytes()  # only its hash


# 5. no secret in DROP/accepted and DROP/refused, folders 0700

def test_ingest_keeps_no_secret_in_the_drop_folder(camp, tmp_path):
    drop = tmp_path / "drop"
    drop.mkdir()
    secrets = camp.player_secrets()
    (drop / "athens.yaml").write_bytes(order_text(camp, "athens"))
    (drop / "spoof.yaml").write_bytes(order_text(camp, "sparta", secret=secrets["thebes"]))  # thebes's secret
    (drop / ".hidden.yaml").write_bytes(order_text(camp, "sparta"))
    answers = ingest(camp, drop, NOW)
    assert sorted((a.source, a.accepted) for a in answers) == [
        (".hidden.yaml", False), ("athens.yaml", True), ("spoof.yaml", False)]
    for sub in ("accepted", "refused"):
        assert stat.S_IMODE((drop / sub).stat().st_mode) == 0o700
    kept = [p for sub in ("accepted", "refused") for p in (drop / sub / "turn-001").iterdir()]
    assert len(kept) == 3
    for p in kept:
        raw = p.read_bytes()
        assert not any(s.encode() in raw for s in secrets.values()), p
        assert b"secret: withheld" in raw
        assert stat.S_IMODE(p.stat().st_mode) == 0o600
    assert (drop / "accepted" / "turn-001" / "athens-001_athens.yaml").read_bytes() == \
        (camp.orders_dir(1) / "athens.yaml").read_bytes()


def test_existing_sorting_folders_are_made_private(camp, tmp_path):
    drop = tmp_path / "drop"
    (drop / "accepted").mkdir(parents=True, mode=0o755)
    os.chmod(drop / "accepted", 0o755)
    (drop / "athens.yaml").write_bytes(order_text(camp, "athens"))
    ingest(camp, drop, NOW)
    assert stat.S_IMODE((drop / "accepted").stat().st_mode) == 0o700


# 6. hard links are refused unread

def test_a_hard_link_in_the_drop_folder_is_refused_unread(camp, tmp_path, monkeypatch):
    drop = tmp_path / "drop"
    drop.mkdir()
    os.link(camp.secret_dir / "players.yaml", drop / "players.yaml")
    outside = tmp_path / "athens-original.yaml"
    outside.write_bytes(order_text(camp, "athens"))
    os.link(outside, drop / "athens.yaml")
    import pbem.intake as intake
    parsed = []
    real = intake.submit_bytes
    monkeypatch.setattr(intake, "submit_bytes", lambda *a, **k: parsed.append(a[2]) or real(*a, **k))
    answers = ingest(camp, drop, NOW)
    assert parsed == []  # neither was read
    assert all(not a.accepted and "hard link" in a.text() for a in answers) and len(answers) == 2
    assert not (camp.orders_dir(1) / "athens.yaml").exists()
    assert (camp.secret_dir / "players.yaml").is_file() and outside.is_file()  # the files live on
    refused = drop / "refused"
    assert not refused.exists() or not any(p.stat().st_ino == (camp.secret_dir / "players.yaml").stat().st_ino
                                           for p in refused.iterdir())
    assert sorted(p.name for p in drop.iterdir() if p.name not in ("accepted", "refused")) == []


def test_submit_refuses_a_hard_link_too(camp, tmp_path):
    outside = tmp_path / "a.yaml"
    outside.write_bytes(order_text(camp, "athens"))
    os.link(outside, tmp_path / "b.yaml")
    r = runner.invoke(app, ["submit", str(camp.root), str(tmp_path / "b.yaml")])
    assert r.exit_code == 1 and "hard link" in r.output, r.output


# 7. reply names tell a player only about their own files

def test_reply_names_count_only_the_players_own_files(camp, tmp_path):
    submit_bytes_and_reply = []
    from pbem.intake import reply
    for player, secret in (("sparta", None), ("sparta", "0000-0000-0000-0000"), ("thebes", None),
                           ("athens", None), ("athens", None)):
        a = submit_bytes(camp, order_text(camp, player, secret=secret), f"{player}.yaml", NOW)
        submit_bytes_and_reply.append(reply(camp, a).name)
    assert submit_bytes_and_reply == ["sparta-001.txt", "unknown-001.txt", "thebes-001.txt", "athens-001.txt",
                                      "athens-002.txt"]


# 8. exit 1 when a file is refused: in the commands' help

@pytest.mark.parametrize("command", ["submit", "ingest"])
def test_submit_and_ingest_help_say_exit_1_when_a_file_is_refused(command):
    r = runner.invoke(app, [command, "--help"])
    assert r.exit_code == 0 and "1: some refused" in " ".join(r.output.split()), r.output


# 10. numbers: plain words

@pytest.mark.parametrize("args, said", [
    (["rollback", "{}", "abc", "--reason", "x"], "TURN 'abc': write a game turn number, e.g. 3"),
    (["show", "{}", "--turn", "x"], "--turn 'x': write a game turn number, e.g. 3"),
    (["report", "{}", "--turn", "1.5"], "--turn '1.5': write a game turn number, e.g. 3"),
    (["demo", "{}", "--players", "six"], "--players 'six': write a whole number, e.g. 3"),
])
def test_a_number_argument_that_is_no_number_is_answered_plainly(camp, args, said):
    before = everything(camp)
    r = runner.invoke(app, [a.format(camp.root) for a in args])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
    assert said in r.output and "Input should" not in r.output, r.output
    assert everything(camp) == before


# 11. the rerun's audit line names the computer players like the first run's

def test_a_rerun_after_rollback_names_the_computer_players_in_its_audit_lines(camp):
    set_seat(camp, "thebes", "bot")
    for p in ("athens", "sparta"):
        assert submit_bytes(camp, order_text(camp, p), f"{p}.yaml", NOW).accepted
    run_turn(camp, NOW, reports=False)
    rollback(camp, 1, "a check")
    run_turn(camp, NOW, force=True, reports=False)
    lines = (camp.root / "audit.log").read_text().splitlines()
    runs = [line for line in lines if " adjudicated turn 1;" in line]
    assert len(runs) == 2 and all("(computer players thebes)" in line for line in runs), runs
    assert runs[0].split(" orders ")[1].split(";")[0] == runs[1].split(" orders ")[1].split(";")[0]
    cmd = [line for line in lines if " run-turn 1" in line]
    assert cmd[-1].endswith("run-turn 1 (forced); computer players: thebes"), cmd


# 12. the file-name refusal lists what the code takes

def test_the_file_name_refusal_lists_the_characters_pbem_takes():
    said = check_name("a*b.yaml")
    assert "'" in said and "[" in said and "+" in said
    allowed = said.split("spaces and ")[1].split()
    assert check_name("x" + "".join(allowed) + ".yaml") is None


# 13. the deadline reminds of reports already written

@pytest.fixture
def made(tmp_path):
    """A campaign made by `pbem new`, with its set-up reports."""
    r = runner.invoke(app, ["new", str(tmp_path / "made"), "--players", "athens,sparta", "--seed", "2", "--name", "test"])
    assert r.exit_code == 0, r.output
    from pbem.storage import Campaign
    return Campaign.open(tmp_path / "made")


def test_deadline_reminds_that_the_set_up_reports_show_the_old_deadline(made):
    camp = made
    assert "no deadline set yet" in (camp.reports_dir(0) / "athens" / "report.txt").read_text()
    r = runner.invoke(app, ["deadline", str(camp.root), "+7d"])
    assert r.exit_code == 0, r.output
    note = [line for line in r.output.splitlines() if line.startswith("note:")]
    assert len(note) == 1 and f"pbem report {camp.root} --turn 0" in note[0], r.output
    r = runner.invoke(app, ["report", str(camp.root), "--turn", "0", "--player", "athens"])
    assert r.exit_code == 0, r.output
    assert "no deadline set yet" not in (camp.reports_dir(0) / "athens" / "report.txt").read_text()


def test_deadline_says_nothing_of_reports_when_there_are_none(made):
    camp = made
    import shutil
    shutil.rmtree(camp.reports_dir(0))
    r = runner.invoke(app, ["deadline", str(camp.root), "+7d"])
    assert r.exit_code == 0 and "note:" not in r.output, r.output


def test_a_stored_file_edited_after_dry_runs_and_given_back_as_a_fix_needs_force(camp):
    """A code review: after dry runs, the moderator edits the stored file and gives it back with submit --fix
    (the documented mend): it was compared with the file now in the folder, so it passed as "unchanged" and took
    no --force, though the dice of the dry runs had been seen with the file as it was."""
    from pbem.intake import submit_path
    from pbem.turn import run
    for p in ("athens", "sparta", "thebes"):
        assert submit_bytes(camp, order_text(camp, p), f"{p}.yaml", NOW).accepted
    with camp.lock():
        run(camp, dry_run=True)
    stored = camp.orders_dir(1) / "sparta.yaml"
    as_accepted = stored.read_bytes()
    stored.write_bytes(as_accepted + b"diplomacy: [megara]\n")
    with camp.lock():
        a = submit_path(camp, stored, NOW, moderator_fix=True)
    assert not a.accepted and "give --force" in a.message, a.text()
    stored.write_bytes(as_accepted)  # given back as it was recorded: no --force needed
    with camp.lock():
        a = submit_path(camp, stored, NOW, moderator_fix=True)
    assert a.accepted, a.text()
    stored.write_bytes(as_accepted + b"diplomacy: [megara]\n")
    with camp.lock():
        a = submit_path(camp, stored, NOW, moderator_fix=True, force=True)
    assert a.accepted and "forced" in (camp.root / "audit.log").read_text().splitlines()[-1], a.text()


def test_the_recorded_file_given_back_after_a_dry_run_is_not_audited_as_forced(camp):
    """A final review: giving back the very file audit.log recorded (say one deleted from the orders folder) needs
    no --force after a dry run, but audit.log called it "forced", which `verify` then lists to the referee."""
    from pbem.intake import submit_path
    from pbem.turn import run
    for p in ("athens", "sparta", "thebes"):
        assert submit_bytes(camp, order_text(camp, p), f"{p}.yaml", NOW).accepted
    with camp.lock():
        run(camp, dry_run=True)
    stored = camp.orders_dir(1) / "sparta.yaml"
    kept = camp.root.parent / "sparta-kept.yaml"
    kept.write_bytes(stored.read_bytes())
    stored.unlink()
    with camp.lock():
        a = submit_path(camp, kept, NOW, moderator_fix=True)
    last = (camp.root / "audit.log").read_text().splitlines()[-1]
    assert a.accepted and "as a moderator's fix" in last and "forced" not in last, (a.text(), last)


def test_a_computer_players_file_removed_after_a_rollback_does_not_stop_the_turn(camp):
    """A final review: run-turn refused with "the player would be taken as sending no orders ... (the player's
    answer names its sha256)", both untrue for a computer seat: the computer player writes the same file again."""
    for p in ("athens", "sparta"):
        assert submit_bytes(camp, order_text(camp, p), f"{p}.yaml", NOW).accepted
    set_seat(camp, "thebes", "bot")
    run_turn(camp, NOW, force=True, reports=False)
    first = (camp.orders_dir(1) / "thebes.yaml").read_bytes()
    rollback(camp, 1, "a lost file")
    (camp.orders_dir(1) / "thebes.yaml").unlink()
    run_turn(camp, NOW, force=True, reports=False)
    assert camp.current_turn == 2 and (camp.orders_dir(1) / "thebes.yaml").read_bytes() == first
