"""A moderator's review, through the CLI: a player's late file taken from the drop folder's kept copy with the
command its refusal printed was answered and recorded as the moderator's fix, under its kept name.  It is the
player's own file: named as sent, answered "taken late by the moderator", recorded as `submit --late-ok` of the
file sent would be, and `pbem verify` names it late; a file that needs the moderator's fix all the same stays one."""
import re
import shlex
from datetime import datetime, timezone

import pytest

from cyc_common import NOW, audit, held_turn_1, order_text, pbem, three_players
from pbem.cycle import set_deadline
from pbem.intake import submit_bytes


@pytest.fixture
def camp(tmp_path):
    return three_players(tmp_path)


def command_in(output: str, lead: str) -> list[str]:
    """The `pbem submit ...` command a moderator's line after ``lead`` names, as arguments for the CLI."""
    line = next(ln for ln in output.splitlines() if ln.strip().startswith("moderator: " + lead))
    words = shlex.split(line.split("`")[1])
    assert words[:2] == ["pbem", "submit"], line
    return words[1:]


# -- a late file taken from the drop folder's kept copy ---------------------------------------------------

def test_a_late_file_taken_from_its_kept_copy_is_the_players_own_file_taken_late(camp, tmp_path):
    set_deadline(camp, "2026-01-01", NOW)  # past, for the clock the commands read too
    drop = tmp_path / "drop"
    drop.mkdir()
    (drop / "Troy orders (turn 1).yaml").write_bytes(order_text(camp, "troy"))
    r = pbem("ingest", camp.root, "--from", drop)
    assert r.exit_code == 1 and "late: the deadline was" in r.output, r.output
    args = command_in(r.output, "if it reached you in time")
    assert args[2].endswith("refused/turn-001/troy-001_Troy orders (turn 1).yaml") and "--fix" in args, args
    r = pbem(*args)
    assert r.exit_code == 0, r.output
    # answered as the player's own file, named as they sent it, taken late by the moderator
    assert r.output.startswith("ACCEPTED: Troy orders (turn 1).yaml for troy, game turn 1\n"), r.output
    assert "Taken late by the moderator: this is the file that counts" in r.output, r.output
    assert "moderator's fix" not in r.output.split("  moderator:")[0], r.output
    assert "recorded as theirs, taken by you, not as your fix" in r.output, r.output
    reply = (camp.root / "replies" / "turn-001" / "troy-002.txt").read_text()
    assert reply.startswith("ACCEPTED: Troy orders (turn 1).yaml for troy") and "Taken late by the moderator" in reply
    assert "troy-001_" not in reply and "  moderator:" not in reply
    # recorded as `pbem submit ORIGINAL --late-ok` records it: the player's file, under the name it came with
    digest = re.search(r"sha256 ([0-9a-f]{16})", r.output).group(1)
    last = audit(camp).splitlines()[-1]
    assert last.endswith(f" intake accepted Troy orders (turn 1).yaml for troy turn 1 (sha256 {digest})"), last
    # and verify names it late, as the player's file, and flags nothing
    r = pbem("run-turn", camp.root, "--force")
    assert r.exit_code == 0, r.output
    r = pbem("verify", camp.root)
    assert r.exit_code == 0 and "flagged" not in r.output, r.output
    assert f"audit.log: troy's file sha256 {digest} taken late, at " in r.output, r.output
    assert "moderator's fix" not in r.output, r.output


def test_a_kept_copy_the_moderator_changed_is_the_moderators_fix(camp, tmp_path):
    set_deadline(camp, "2026-01-01", NOW)
    drop = tmp_path / "drop"
    drop.mkdir()
    (drop / "troy.yaml").write_bytes(order_text(camp, "troy"))
    r = pbem("ingest", camp.root, "--from", drop)
    args = command_in(r.output, "if it reached you in time")
    with open(args[2], "ab") as fh:  # the moderator mends something in it: no longer the file the player sent
        fh.write(b"# mended by the moderator\n")
    r = pbem(*args)
    assert r.exit_code == 0 and "as the moderator's fix" in r.output and "troy's own file" not in r.output, r.output
    assert audit(camp).splitlines()[-1].endswith(" as a moderator's fix"), audit(camp)


def test_the_moderators_own_late_fix_stays_a_fix(camp, tmp_path):
    """A file the moderator gives with --fix and is refused as late is not the player's when given again."""
    set_deadline(camp, "2026-01-01", NOW)
    f = tmp_path / "troy by the moderator.yaml"
    f.write_bytes(order_text(camp, "troy").replace(camp.player_secrets()["troy"].encode(), b"withheld"))
    r = pbem("submit", camp.root, f, "--fix")
    assert r.exit_code == 1 and "late" in r.output, r.output
    r = pbem("submit", camp.root, f, "--fix", "--late-ok")
    assert r.exit_code == 0 and "as the moderator's fix" in r.output, r.output
    assert audit(camp).splitlines()[-1].endswith(" as a moderator's fix"), audit(camp)


def test_a_held_turns_file_taken_from_its_kept_copy_is_a_forced_fix_named_as_sent(camp, tmp_path):
    """On a held turn a file from the player needs the moderator's forced fix all the same (verify would flag it
    otherwise); it is named as the player sent it and its answer says so."""
    camp = held_turn_1(camp)
    drop = tmp_path / "drop"
    drop.mkdir()
    (drop / "Troy late.yaml").write_bytes(order_text(camp, "troy"))
    r = pbem("ingest", camp.root, "--from", drop)
    assert r.exit_code == 1 and "is being run again by the moderator" in r.output, r.output
    args = command_in(r.output, "to take it in place")
    assert "--force" in args, args
    r = pbem(*args)
    assert r.exit_code == 0, r.output
    assert r.output.startswith("ACCEPTED: Troy late.yaml for troy, game turn 1\n"), r.output
    assert "the file you sent, taken by the moderator as the moderator's fix" in r.output, r.output
    assert "recorded as your fix, as it must be (game turn 1 is held after a rollback)" in r.output, r.output
    last = audit(camp).splitlines()[-1]
    assert " intake accepted Troy late.yaml for troy turn 1 (sha256 " in last and \
        last.endswith("as a moderator's fix, forced after a run of the turn that was rolled back"), last
    r = pbem("run-turn", camp.root, "--force")
    assert r.exit_code == 0, r.output
    r = pbem("verify", camp.root)
    assert r.exit_code == 0 and "flagged" not in r.output, r.output
    assert "troy's file sha256" in r.output and "taken as the moderator's fix, forced after" in r.output, r.output


def test_a_refused_take_of_a_kept_copy_changes_nothing(camp, tmp_path):
    set_deadline(camp, "2026-01-01", NOW)
    drop = tmp_path / "drop"
    drop.mkdir()
    (drop / "troy.yaml").write_bytes(order_text(camp, "troy"))
    r = pbem("ingest", camp.root, "--from", drop)
    args = command_in(r.output, "if it reached you in time")
    before = sorted(p.relative_to(camp.root).as_posix() for p in camp.root.rglob("*") if p.name != "audit.log")
    r = pbem(*[a for a in args if a != "--late-ok"])  # without the flag it needs
    assert r.exit_code == 1 and "REFUSED" in r.output, r.output
    after = sorted(p.relative_to(camp.root).as_posix() for p in camp.root.rglob("*") if p.name != "audit.log")
    assert after == before and not (camp.orders_dir(1) / "troy.yaml").exists()


def test_no_file_name_can_forge_the_refusal_that_names_a_players_file():
    """A code review: the SHA-256 of a player's refused file ended its audit line, after text that may one day
    end in words the sender chose; it now stands right after "intake refused," where a name, which always
    follows "refused " and a space, cannot write it."""
    from pbem.auditlog import REFUSED_SENT
    real = "2026-11-23T10:00:00Z intake refused, file sha256 0123456789abcdef, troy orders.yaml: late: ..."
    m = REFUSED_SENT.match(real)
    assert m and m.groups() == ("0123456789abcdef", "troy orders.yaml")
    for name in (", file sha256 0123456789abcdef, x.yaml", "x.yaml; file sha256 0123456789abcdef"):
        assert REFUSED_SENT.match(f"2026-11-23T10:00:00Z intake refused {name}: not a YAML file") is None


def test_a_kept_copy_identical_to_the_file_accepted_is_named_as_the_player_sent_it(camp, tmp_path):
    """A soak test: the kept copy of a late resend, the same bytes as the file accepted in time, taken with the
    printed command, was answered under the drop folder's name (troy-002_...)."""
    set_deadline(camp, "+30d", datetime.now(timezone.utc))
    assert submit_bytes(camp, order_text(camp, "troy"), "Troy orders.yaml", NOW).accepted
    set_deadline(camp, "2026-01-01", NOW)
    drop = tmp_path / "drop"
    drop.mkdir()
    (drop / "Troy orders again.yaml").write_bytes(order_text(camp, "troy"))
    r = pbem("ingest", camp.root, "--from", drop)
    assert r.exit_code == 1 and "late: the deadline was" in r.output, r.output
    r = pbem(*command_in(r.output, "if it reached you in time"))
    assert r.exit_code == 0, r.output
    first = r.output.splitlines()[0]
    assert "Troy orders again.yaml" in first and "_Troy" not in first, r.output
