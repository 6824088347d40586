"""The moderator holds the seed, so a dry run shows them the turn's dice; a fix to a file then picks new dice.
pbem cannot prevent a moderator from grinding, but it makes it hard to do quietly: every dry run is audited,
a fix after a dry run needs --force (audited), and `pbem verify` lists a turn's dry runs and fixes and flags a
computer player's file that is not what the computer player writes."""
from datetime import datetime, timezone

import pytest
from typer.testing import CliRunner

from pbem import yamlio
from pbem.campaign import create
from pbem.cli import app
from pbem.cycle import bot_file, run_turn, set_seat
from pbem.intake import submit_bytes
from pbem.turn import run
from pbem.verify import verify

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def camp(tmp_path):
    c = create(tmp_path / "camp", ["athens", "sparta", "troy"], seed="5", name="test").campaign
    set_seat(c, "troy", "bot")
    return c


def human(camp, player="athens"):
    data = {"campaign": "test", "turn": camp.current_turn, "player": player,
            "secret": camp.player_secrets()[player]}
    return yamlio.dump(data).encode()


def ground(camp):
    """troy's file as the computer player writes it, with a comment added: other bytes, other dice."""
    return bot_file(camp, camp.load_state(), "troy") + b"# nonce 1\n"


def audit(camp):
    return (camp.root / "audit.log").read_text()


def test_a_dry_run_is_audited_with_its_order_hashes(camp):
    assert submit_bytes(camp, human(camp), "a.yaml", NOW).accepted
    result = run(camp, dry_run=True)
    line = audit(camp).splitlines()[-1]
    assert "adjudicate --dry-run of turn 1; order hashes " in line
    assert ",".join(h[:16] for h in result.order_hashes) in line and "computer players troy" in line
    assert camp.current_turn == 1  # nothing else was written


def test_a_fix_after_a_dry_run_needs_force_and_is_audited_as_forced(camp):
    assert submit_bytes(camp, ground(camp), "troy.yaml", NOW, moderator_fix=True).accepted  # before: allowed
    run(camp, dry_run=True)
    again = ground(camp) + b"# nonce 2\n"
    a = submit_bytes(camp, again, "troy.yaml", NOW, moderator_fix=True)
    assert not a.accepted and "dry-run 1 time(s)" in a.text() and "--force" in a.text(), a.text()
    a = submit_bytes(camp, again, "troy.yaml", NOW, moderator_fix=True, force=True)
    assert a.accepted, a.text()
    assert "as a moderator's fix, forced after 1 dry run(s) of the turn" in audit(camp)
    # players' own files are not held up by the moderator's dry run
    assert submit_bytes(camp, human(camp, "sparta"), "s.yaml", NOW).accepted


def test_submit_force_goes_with_fix(camp, tmp_path):
    f = tmp_path / "a.yaml"
    f.write_bytes(human(camp))
    r = CliRunner().invoke(app, ["submit", str(camp.root), str(f), "--force"])
    assert r.exit_code == 2 and "--force goes with --fix" in r.output


def test_verify_lists_dry_runs_and_fixes_and_flags_a_ground_computer_players_file(camp):
    assert submit_bytes(camp, human(camp), "a.yaml", NOW).accepted
    run(camp, dry_run=True)
    assert submit_bytes(camp, ground(camp), "troy.yaml", NOW, moderator_fix=True, force=True).accepted
    run_turn(camp, NOW, force=True, reports=False)
    (v,) = verify(camp, 1)
    assert not v.ok and v.word == "FLAGGED" and "replayed exactly" in v.detail  # the dice fit the files...
    assert len(v.flags) == 1 and "troy.yaml" in v.flags[0] and "not the file the computer player writes" in v.flags[0]
    assert any("dry run of turn 1" in n for n in v.notes)
    assert "created with pbem" not in v.flags[0]  # the campaign's own version wrote it: no other explanation
    assert any("troy's file" in n and "forced after 1 dry run(s)" in n for n in v.notes)
    r = CliRunner().invoke(app, ["verify", str(camp.root)])
    assert r.exit_code == 1 and "turn 1: FLAGGED" in r.output and "flagged: " in r.output


def test_computer_players_files_as_written_verify_ok(camp):
    assert submit_bytes(camp, human(camp), "a.yaml", NOW).accepted
    run_turn(camp, NOW, force=True, reports=False)
    set_seat(camp, "athens", "bot")  # a seat that changes hands: turn 2 is the computer player's
    run_turn(camp, NOW, force=True, reports=False)
    verdicts = verify(camp)
    assert [v.word for v in verdicts] == ["OK", "OK", "OK"], [(v.detail, v.flags) for v in verdicts]  # set-up, 1, 2
    assert (camp.orders_dir(2) / "athens.yaml").read_bytes() == bot_file(camp, camp.load_state(2), "athens")


def test_a_human_file_sent_before_the_seat_went_to_the_computer_is_not_flagged(camp):
    assert submit_bytes(camp, human(camp), "a.yaml", NOW).accepted
    set_seat(camp, "athens", "bot")
    run_turn(camp, NOW, force=True, reports=False)
    assert [v.word for v in verify(camp)] == ["OK", "OK"]  # set-up, turn 1


def test_a_file_name_cannot_forge_an_audit_record(camp, tmp_path):
    """verify reads audit.log records from the start of a line: a name holding the words is not one."""
    name = "adjudicate --dry-run of turn 1; order hashes x.yaml"
    a = submit_bytes(camp, b"not orders", name, NOW)
    assert not a.accepted
    f = tmp_path / "t.yaml"
    f.write_bytes(ground(camp))
    assert submit_bytes(camp, ground(camp), "troy.yaml", NOW, moderator_fix=True).accepted  # no --force needed


def test_a_campaign_made_with_another_pbem_says_its_computer_player_may_write_other_orders(camp, monkeypatch):
    """A version change (0.5.0: the computer player fetches Armies stranded on a beach) gives the same position
    other computer player's orders: verify with a newer pbem names the old file and says why it may differ."""
    import pbem.bot
    assert submit_bytes(camp, human(camp), "a.yaml", NOW).accepted
    run_turn(camp, NOW, force=True, reports=False)
    cfg = camp.root / "campaign.yaml"
    import yaml
    data = yaml.safe_load(cfg.read_text())
    data["pbem_version"] = "0.0.1"
    cfg.write_text(yaml.safe_dump(data, sort_keys=False))
    real = pbem.bot.write_orders

    def newer(*a, **k):  # this pbem's computer player plays the position otherwise
        out = real(*a, **k)
        out["diplomacy"] = list(out.get("diplomacy") or []) + ["Delphi"]
        return out
    monkeypatch.setattr(pbem.bot, "write_orders", newer)
    (v,) = verify(type(camp).open(camp.root), 1)
    assert len(v.flags) == 1 and "troy.yaml" in v.flags[0], v.flags
    assert "the campaign was created with pbem 0.0.1, whose computer player may write other orders: verify with " \
           "the version that ran the turn" in v.flags[0]
