"""A Ctrl-C sweep found two changes not held whole against an interrupt: `ingest` answered a file (audit line,
reply) and left it in the drop folder, so the next ingest answered it twice; `rollback` could leave a snapshot
moved to the archive with no record of it (the turn's result gone) or the audit line of a rollback it put back.
Each is now done inside ``storage.held_interrupts``: the Ctrl-C comes once the file, or the rollback, is done."""
import os
import signal
from datetime import datetime, timezone

import pytest

from cyc_common import order_text, pbem, three_players
from pbem import intake, moderation
from pbem.storage import Campaign


def ctrl_c_after(fn):
    """``fn`` as it is, then a Ctrl-C (SIGINT to this process), as if the moderator pressed it right then."""
    def wrapped(*args, **kwargs):
        out = fn(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGINT)
        return out
    return wrapped


def test_a_ctrl_c_after_a_files_answer_still_moves_it_out_of_the_drop_folder(tmp_path, monkeypatch):
    camp = three_players(tmp_path)
    drop = tmp_path / "drop"
    drop.mkdir()
    (drop / "athens.yaml").write_bytes(order_text(camp, "athens"))
    (drop / "sparta.yaml").write_bytes(order_text(camp, "sparta"))
    monkeypatch.setattr(intake, "reply", ctrl_c_after(intake.reply))
    with pytest.raises(KeyboardInterrupt):
        intake.ingest(camp, drop, datetime.now(timezone.utc))
    monkeypatch.undo()
    left = sorted(p.name for p in drop.iterdir() if p.name not in ("accepted", "refused"))
    answered = (camp.root / "audit.log").read_text().count("intake accepted")
    # the file answered is out of the drop folder, kept beside its reply; the next one waits, unanswered
    assert answered == 1 and len(left) == 1, (answered, left)
    kept = list((drop / "accepted" / "turn-001").iterdir())
    assert len(kept) == 1 and kept[0].name.split("_", 1)[1] not in left
    intake.ingest(camp, drop, datetime.now(timezone.utc))  # the next ingest answers the other, once
    assert (camp.root / "audit.log").read_text().count("intake accepted") == 2


def test_a_ctrl_c_during_a_rollback_comes_once_it_is_done_whole(tmp_path, monkeypatch):
    camp = three_players(tmp_path)
    for _ in range(2):
        assert pbem("run-turn", camp.root, "--force", "--no-reports").exit_code == 0
    monkeypatch.setattr(moderation.os, "rename", ctrl_c_after(os.rename))  # after the first file it moves
    with pytest.raises(KeyboardInterrupt):
        moderation.rollback(camp, 1, "a Ctrl-C in the middle")
    monkeypatch.undo()
    camp = Campaign.open(camp.root)
    assert camp.current_turn == 1 and camp.snapshots() == [1]
    assert "rollback to turn 1 (undone: the run of turns 1..2" in (camp.root / "audit.log").read_text()
    r = pbem("status", camp.root)
    assert "Held after a rollback" in r.output, r.output
    r = pbem("verify", camp.root)
    assert r.exit_code == 0, r.output


def test_a_ctrl_c_held_until_a_change_is_made_says_the_change_was_made(tmp_path, monkeypatch):
    """The sweep: `adjust` made its change and its audit line whole, then said only "interrupted"."""
    from pbem.storage import Campaign as C
    camp = three_players(tmp_path)
    monkeypatch.setattr(C, "audit", ctrl_c_after(C.audit))
    r = pbem("adjust", camp.root, "--reason", "a refund", "--gold", "athens=+2")
    monkeypatch.undo()
    assert r.exit_code == 130, r.output
    lines = r.output.strip().splitlines()  # what it did, then that it was interrupted (a review: said first)
    assert lines[-1] == ("pbem: interrupted, once the change under way was made whole (audit.log has its line); "
                         "nothing after it"), r.output
    assert len(lines) > 1 and "athens" in r.output.split("pbem: interrupted")[0], r.output
    assert "adjust turn 1 (athens gold +2" in (camp.root / "audit.log").read_text()


def test_an_interrupted_seat_still_shows_the_new_secret(tmp_path, monkeypatch):
    """A review: `seat` replaced the secret, was interrupted, and never showed the new one."""
    from pbem.storage import Campaign as C
    camp = three_players(tmp_path)
    monkeypatch.setattr(C, "audit", ctrl_c_after(C.audit))
    r = pbem("seat", camp.root, "troy", "human", "--reason", "leaked")
    monkeypatch.undo()
    assert r.exit_code == 130, r.output
    new = C.open(camp.root).player_secrets()["troy"]
    assert f"New secret for troy (hand it to the player; the old one no longer works): {new}" in r.output, r.output
    assert r.output.strip().splitlines()[-1].startswith("pbem: interrupted, once the change under way was made")


def test_an_interrupted_ingest_shows_the_answers_it_gave(tmp_path, monkeypatch):
    """A review: Ctrl-C during the 2nd of three files: two were answered and moved out, and none shown."""
    camp = three_players(tmp_path)
    drop = tmp_path / "drop"
    drop.mkdir()
    for i, p in enumerate(("athens", "sparta", "troy")):
        f = drop / f"{p}.yaml"
        f.write_bytes(order_text(camp, p))
        os.utime(f, (1_000_000 + i, 1_000_000 + i))  # oldest first: athens, sparta, troy
    calls = []

    def second_then_ctrl_c(*args, **kwargs):
        out = real(*args, **kwargs)
        calls.append(1)
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGINT)
        return out
    real = intake.reply
    monkeypatch.setattr(intake, "reply", second_then_ctrl_c)
    r = pbem("ingest", camp.root, "--from", drop)
    monkeypatch.undo()
    assert r.exit_code == 130, r.output
    assert r.output.count("ACCEPTED: ") == 2 and "athens" in r.output and "sparta" in r.output, r.output
    assert sorted(p.name for p in drop.iterdir() if p.is_file()) == ["troy.yaml"]


@pytest.mark.parametrize("command, said", [
    (("adjudicate", "--force"), "pbem: interrupted once game turn 1 was committed whole (audit.log has its line)"),
    (("run-turn", "--force", "--no-reports"), "pbem: interrupted once game turn 1 was committed whole"),
    (("run-turn", "--force"), "pbem: interrupted: reports of turn 1 are incomplete; run `pbem report"),
])
def test_a_ctrl_c_while_a_turn_is_committed_says_what_stands(tmp_path, monkeypatch, command, said):
    """A code review: a Ctrl-C during the commit of a turn with no reports to write was told as "reports of turn
    1 are incomplete"."""
    from pbem.storage import Campaign as C
    camp = three_players(tmp_path)
    monkeypatch.setattr(C, "audit", ctrl_c_after(C.audit))
    r = pbem(command[0], camp.root, *command[1:])
    monkeypatch.undo()
    assert r.exit_code == 130, r.output
    assert r.output.strip().splitlines()[-1].startswith(said), r.output
    assert C.open(camp.root).current_turn == 2  # the turn stands
