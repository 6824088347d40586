"""What a new moderator found running a campaign from the guide alone (docs/moderator.md), each as a scenario:
`adjudicate` keeps the same rule as `run-turn`, a turn whose dice were seen needs --force to be changed and
`verify` lists its undone runs, Ctrl-C says what fits the command, and the command line's small surprises."""
import os
import re
import stat
from datetime import datetime, timedelta, timezone

import pytest
from typer.testing import CliRunner

from pbem import yamlio
from pbem.campaign import create
from pbem.cli import app
from pbem.cycle import run_turn, set_seat, status
from pbem.intake import submit_bytes
from pbem.moderation import rollback
from pbem.storage import Campaign
from pbem.verify import verify

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


def pbem(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def tree(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != ".lock"}


@pytest.fixture
def camp(tmp_path):
    return create(tmp_path / "c", ["athens", "sparta"], seed="7", name="rev").campaign


def orders(camp, player, turn=None, **body):
    data = {"campaign": "rev", "turn": turn or camp.current_turn, "player": player,
            "secret": camp.player_secrets()[player], **body}
    return yamlio.dump(data).encode()


# -- 1. adjudicate: the same rule as run-turn -------------------------------------------------------------

def test_adjudicate_of_a_turn_not_due_is_refused_naming_force_and_changes_nothing(camp):
    assert pbem("deadline", camp.root, "+7d").exit_code == 0
    before = tree(camp.root)
    r = pbem("adjudicate", camp.root)
    assert r.exit_code == 2, r.output
    assert len(r.output.strip().splitlines()) == 1 and "not due" in r.output and "--force" in r.output, r.output
    assert "athens" in r.output and "Traceback" not in r.output
    assert tree(camp.root) == before and camp.current_turn == 1


def test_adjudicate_force_is_audited_as_run_turn_s_and_says_the_new_turn_has_no_deadline(camp):
    assert pbem("deadline", camp.root, "+7d").exit_code == 0
    r = pbem("adjudicate", camp.root, "--force")
    assert r.exit_code == 0, r.output
    assert "warning: no human player's orders are in for game turn 1" in r.output
    assert "No deadline is set for game turn 2" in r.output, r.output
    assert camp.current_turn == 2
    assert (camp.root / "audit.log").read_text().splitlines()[-1].endswith("adjudicate 1 (forced)")
    st = pbem("status", camp.root)
    assert "Deadline: none set" in st.output, st.output  # not turn 1's deadline shown as turn 2's


def test_adjudicate_of_a_due_turn_runs_without_force(camp):
    for p in ("athens", "sparta"):
        assert submit_bytes(camp, orders(camp, p), f"{p}.yaml", NOW).accepted
    r = pbem("adjudicate", camp.root)
    assert r.exit_code == 0, r.output
    assert camp.current_turn == 2 and "(forced)" not in (camp.root / "audit.log").read_text()


def test_adjudicate_of_a_held_turn_needs_force(camp):
    for p in ("athens", "sparta"):
        assert submit_bytes(camp, orders(camp, p), f"{p}.yaml", NOW).accepted
    run_turn(camp, NOW, reports=False)
    rollback(camp, 1, "too early")
    before = tree(camp.root)
    r = pbem("adjudicate", camp.root)
    assert r.exit_code == 2 and "held after rollback" in r.output and "--force" in r.output, r.output
    assert tree(camp.root) == before
    assert pbem("adjudicate", camp.root, "--force").exit_code == 0 and camp.current_turn == 2


def test_a_dry_run_says_it_wrote_its_audit_line(camp):
    r = pbem("adjudicate", camp.root, "--dry-run")
    assert r.exit_code == 0 and "audit.log" in r.output and "Nothing was written (--dry-run)" not in r.output
    assert "adjudicate --dry-run of turn 1" in (camp.root / "audit.log").read_text()


# -- 2 and 3. a turn whose dice were seen ---------------------------------------------------------------

def test_a_player_s_first_file_for_a_rolled_back_turn_goes_through_the_moderator(camp):
    assert submit_bytes(camp, orders(camp, "athens"), "a.yaml", NOW).accepted
    run_turn(camp, NOW, force=True, reports=False)  # too early: sparta had sent nothing
    rollback(camp, 1, "run before the deadline")
    a = submit_bytes(camp, orders(camp, "sparta", 1), "s.yaml", NOW)
    # the player had just sent the file to the moderator: "send your file to the moderator" confused them (a
    # moderator's review); the answer says the moderator has it
    assert not a.accepted and "the moderator has it" in a.text(), a.text()
    assert "send your file to the moderator" not in a.text()
    a = submit_bytes(camp, orders(camp, "sparta", 1), "s.yaml", NOW, moderator_fix=True)
    assert not a.accepted and "was run and rolled back" in a.text() and "--force" in a.text()
    a = submit_bytes(camp, orders(camp, "sparta", 1), "s.yaml", NOW, moderator_fix=True, force=True)
    assert a.accepted, a.text()


def test_verify_lists_a_rolled_back_run_and_the_forced_fix_after_it(camp):
    for p in ("athens", "sparta"):
        assert submit_bytes(camp, orders(camp, p), f"{p}.yaml", NOW).accepted
    run_turn(camp, NOW, reports=False)
    rollback(camp, 1, "athens's file was misread")
    fixed = (camp.orders_dir(1) / "athens.yaml").read_bytes() + b"# checked again\n"
    assert submit_bytes(camp, fixed, "athens.yaml", NOW, moderator_fix=True, force=True).accepted
    run_turn(camp, NOW, force=True, reports=False)
    v = next(v for v in verify(camp) if v.turn == 1)
    assert v.ok, v.detail
    assert any(n.startswith("audit.log: a run of turn 1 was rolled back at") and "archive/rollback-1" in n
               and "athens's file was misread" in n for n in v.notes), v.notes
    assert any("forced after a run of the turn that was rolled back" in n for n in v.notes), v.notes
    r = pbem("verify", camp.root)
    assert "a run of turn 1 was rolled back" in r.output, r.output


def test_resending_the_stored_file_unchanged_needs_no_force(camp):
    for p in ("athens", "sparta"):
        assert submit_bytes(camp, orders(camp, p), f"{p}.yaml", NOW).accepted
    run_turn(camp, NOW, reports=False)
    rollback(camp, 1, "check")
    same = (camp.orders_dir(1) / "athens.yaml").read_bytes()
    a = submit_bytes(camp, same, "athens.yaml", NOW, moderator_fix=True)
    assert a.accepted and a.duplicate, a.text()


# -- 4. Ctrl-C -----------------------------------------------------------------------------------------

def _interrupt(*args, **kwargs):
    raise KeyboardInterrupt


def test_ctrl_c_in_a_command_that_commits_no_turn_just_says_interrupted(camp, monkeypatch):
    from pbem import textview
    monkeypatch.setattr(textview, "show", _interrupt)
    r = pbem("show", camp.root)
    assert r.exit_code == 130 and r.output.strip().endswith("pbem: interrupted"), r.output
    assert "committed" not in r.output


def test_ctrl_c_in_run_turn_says_how_to_check_the_turn(camp, monkeypatch):
    from pbem import cycle
    monkeypatch.setattr(cycle, "run_turn", _interrupt)
    r = pbem("run-turn", camp.root, "--force")
    assert r.exit_code == 130 and "a turn is committed whole or not at all" in r.output, r.output


# -- 5. submit given a folder; one hash length ----------------------------------------------------------

def test_submit_of_a_folder_is_a_command_line_mistake(camp, tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    before = tree(camp.root)
    r = pbem("submit", camp.root, inbox)
    assert r.exit_code == 2, r.output
    assert "is a folder" in r.output and f"pbem ingest {camp.root} --from {inbox}" in r.output, r.output
    assert tree(camp.root) == before  # no reply, no audit line


def test_replies_and_the_adjudicated_line_show_the_same_hash(camp):
    a = submit_bytes(camp, orders(camp, "athens"), "a.yaml", NOW)
    shown = re.search(r"sha256 ([0-9a-f]+)", a.text()).group(1)
    run_turn(camp, NOW, force=True, reports=False)
    line = next(l for l in (camp.root / "audit.log").read_text().splitlines() if " adjudicated turn 1;" in l)
    assert len(shown) == 16 and shown in re.search(r"orders ([^\s;]+)", line).group(1).split(","), (shown, line)


# -- 6. smaller ones -------------------------------------------------------------------------------------

def test_run_turn_prints_the_next_deadline_as_status_does(camp):
    r = pbem("run-turn", camp.root, "--force", "--no-reports")
    assert r.exit_code == 0, r.output
    m = re.search(r"Deadline of game turn 2: (\d{4}-\d\d-\d\d \d\d:\d\d UTC)", r.output)
    assert m, r.output
    assert f"Deadline: {m.group(1)}" in pbem("status", camp.root).output


def test_a_spoof_answer_does_not_say_the_moderator_was_told(camp):
    bad = orders(camp, "athens").replace(camp.player_secrets()["athens"].encode(), b"0000-0000-0000-0000")
    a = submit_bytes(camp, bad, "a.yaml", NOW)
    # nor "recorded in audit.log", which means nothing to a player (the moderator's review); audit.log has its line
    assert not a.accepted and "moderator told" not in a.text() and "audit.log" not in a.text(), a.text()
    assert "intake refused a.yaml: a wrong secret for athens" in (camp.root / "audit.log").read_text()


def test_seat_says_when_the_faction_was_already_so_seated(camp):
    old = camp.player_secrets()["athens"]
    r = pbem("seat", camp.root, "athens", "human", "--reason", "r")
    assert r.exit_code == 0 and "already played by: human" in r.output and "secret was replaced" in r.output
    assert Campaign.open(camp.root).player_secrets()["athens"] != old
    r = pbem("seat", camp.root, "sparta", "bot", "--reason", "r")
    assert "sparta is now played by: bot" in r.output
    assert "already played by: bot" in pbem("seat", camp.root, "sparta", "bot", "--reason", "r").output


def test_status_of_an_abandoned_campaign_says_it_is_closed(camp, tmp_path):
    assert pbem("deadline", camp.root, "+7d").exit_code == 0
    r = pbem("archive", camp.root, "--reveal-seed", "--abandon", "-o", tmp_path / "a.tar.gz")
    assert r.exit_code == 0, r.output
    out = pbem("status", camp.root).output
    assert "Closed:" in out and "Waiting for" not in out and "Deadline" not in out, out
    assert not status(camp).due(NOW + timedelta(days=30))


def test_ingest_from_a_file_says_it_is_a_file(camp, tmp_path):
    f = tmp_path / "athens.yaml"
    f.write_bytes(orders(camp, "athens"))
    r = pbem("ingest", camp.root, "--from", f)
    assert r.exit_code == 2 and "is a file, not a folder" in r.output and "pbem submit" in r.output, r.output


def test_new_on_an_existing_file_says_it_is_a_file(tmp_path):
    f = tmp_path / "n"
    f.write_text("")
    r = pbem("new", f, "--players", "athens,sparta")
    assert r.exit_code == 2 and "is a file, not a folder" in r.output, r.output


def test_no_command_makes_missing_parent_folders(camp, tmp_path):
    r = pbem("new", tmp_path / "nowhere" / "n4", "--players", "athens,sparta")
    assert r.exit_code == 2 and "does not exist" in r.output, r.output
    assert not (tmp_path / "nowhere").exists()
    r = pbem("bot", camp.root, "athens", "-o", tmp_path / "nowhere" / "x.yaml")
    assert r.exit_code == 2 and "does not exist" in r.output, r.output
    assert not (tmp_path / "nowhere").exists()


def test_a_missing_campaign_folder_argument_is_named_dir():
    r = pbem("status")
    assert r.exit_code == 2 and "Missing argument 'DIR'" in r.output, r.output


def test_adjust_says_an_army(camp):
    state = camp.load_state()
    army = next(u for u in state.units.values() if u.type.value == "army")
    water = next(h for h in sorted(camp.game_map.terrain) if camp.game_map.is_water(h))
    r = pbem("adjust", camp.root, "--reason", "r", "--move", f"{army.id}={water}")
    assert r.exit_code == 2 and "an army must be on land" in r.output, r.output


def test_campaign_yaml_is_public_and_secrets_are_not(tmp_path):
    old = os.umask(0o022)
    try:
        c = create(tmp_path / "m", ["athens", "sparta"], seed="1").campaign
        set_seat(c, "sparta", "bot")  # campaign.yaml written again
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(c.config_path).st_mode) == 0o644
    assert stat.S_IMODE(os.stat(c.secret_dir / "players.yaml").st_mode) == 0o600
    assert stat.S_IMODE(os.stat(c.secret_dir / "seed").st_mode) == 0o600


def test_an_archive_made_mid_game_is_private_and_one_made_at_the_end_is_not(tmp_path):
    """Found by a code review: mid-game the archive holds every hidden fact (docs/moderator.md: for a neutral
    referee only); it is 0600 then, and written as any other file once the game is over or closed."""
    from pbem.moderation import archive
    old = os.umask(0o022)
    try:
        c = create(tmp_path / "m", ["athens", "sparta"], seed="1").campaign
        mid = archive(c, tmp_path / "mid.tar.gz")
        end = archive(c, tmp_path / "end.tar.gz", reveal_seed=True, abandon=True)
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(mid).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(end).st_mode) == 0o644
    old = os.umask(0o022)
    try:
        again = archive(c, tmp_path / "again.tar.gz")  # the closed campaign archived again (code review)
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(again).st_mode) == 0o644


def test_seat_warns_when_handing_a_held_turns_faction_to_the_computer_player(camp):
    """A seat handed to the computer player after a rollback re-rolls a seen turn (code review): said at once."""
    from pbem.moderation import rollback
    from pbem.cycle import run_turn
    run_turn(camp, NOW, force=True, reports=False)
    rollback(camp, 1, "ran too early")
    r = CliRunner().invoke(app, ["seat", str(camp.root), "athens", "bot", "--reason", "r"])
    assert r.exit_code == 0 and "warning: game turn 1 was run and rolled back" in r.output, r.output
    # a faction with a file in the held turn: the seat changes hands, so the file is set aside (the 12-player
    # moderator's review: the computer player's seat was played with the departed player's file) and the
    # computer player writes one where the seen run had another: said too
    assert submit_bytes(camp, orders(camp, "sparta"), "s.yaml", NOW, moderator_fix=True, force=True).accepted
    r = CliRunner().invoke(app, ["seat", str(camp.root), "sparta", "bot", "--reason", "r"])
    assert r.exit_code == 0 and "is set aside" in r.output, r.output
    assert "warning: game turn 1 was run and rolled back" in r.output and "had another" in r.output, r.output


def test_archive_warns_only_while_the_game_is_on(tmp_path):
    """A red-team review: mid-game the archive holds every hidden fact; the command now says so (and who may get
    it), and says nothing once the campaign is closed with its seed revealed."""
    c = create(tmp_path / "m", ["athens", "sparta"], seed="1").campaign
    mid = CliRunner().invoke(app, ["archive", str(c.root), "-o", str(tmp_path / "mid.tar.gz")])
    assert mid.exit_code == 0 and "warning: the game is not over" in mid.output and "never to a player" in mid.output
    end = CliRunner().invoke(app, ["archive", str(c.root), "-o", str(tmp_path / "end.tar.gz"), "--reveal-seed",
                                   "--abandon"])
    assert end.exit_code == 0 and "warning" not in end.output, end.output
