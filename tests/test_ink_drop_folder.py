"""A moderator's 12-player campaign through the drop folder (a fresh-eyes review): late files, the answers'
wording, where ingest keeps what it took, and the moderator's own failed fixes.  Each test is one finding."""
import shlex
from datetime import datetime, timezone

import pytest
from typer.testing import CliRunner

from pbem import yamlio
from pbem.campaign import create
from pbem.cli import app
from pbem.cycle import run_turn, set_deadline
from pbem.intake import ingest, submit_bytes

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def camp(tmp_path):
    return create(tmp_path / "camp", ["athens", "sparta", "troy"], seed="5", name="test").campaign


def order_text(camp, player, turn=1, **body):
    data = {"campaign": "test", "turn": turn, "player": player, "secret": camp.player_secrets()[player], **body}
    return yamlio.dump(data).encode()


def pbem(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def command_in(output: str, lead: str) -> list[str]:
    """The `pbem submit ...` command a moderator's line after ``lead`` names, as arguments for the CLI."""
    line = next(ln for ln in output.splitlines() if ln.strip().startswith("moderator: " + lead))
    words = shlex.split(line.split("`")[1])
    assert words[:2] == ["pbem", "submit"], line
    return words[1:]


# 1. a late file: every refusal a flag overcomes names the whole command that works

def test_a_late_file_in_the_drop_folder_is_taken_with_the_command_its_refusal_names(camp, tmp_path):
    set_deadline(camp, "2026-01-01", NOW)  # past, for the clock the command reads too
    drop = tmp_path / "drop"
    drop.mkdir()
    (drop / "troy orders.yaml").write_bytes(order_text(camp, "troy"))
    r = pbem("ingest", camp.root, "--from", drop)
    assert r.exit_code == 1 and "late: the deadline was" in r.output, r.output
    kept = drop / "refused" / "turn-001" / "troy-001_troy orders.yaml"
    assert b"secret: withheld" in kept.read_bytes()  # the copy kept holds no secret: it goes in as a fix
    args = command_in(r.output, "if it reached you in time")
    assert args[1:] == [str(camp.root), str(kept), "--fix", "--late-ok"], args
    # the reply the player gets has none of the moderator's lines
    reply = (camp.root / "replies" / "turn-001" / "troy-001.txt").read_text()
    assert "late: the deadline was" in reply and "moderator:" not in reply and "pbem submit" not in reply
    r = pbem(*args)
    # the player's own late file, taken by the moderator: named as sent and answered as taken late, not as the
    # moderator's fix under its kept name (a moderator's review)
    assert r.exit_code == 0 and "ACCEPTED: troy orders.yaml for troy" in r.output, r.output
    assert "Taken late by the moderator" in r.output and "moderator's fix" not in r.output, r.output
    assert (camp.orders_dir(1) / "troy.yaml").is_file()


@pytest.mark.parametrize("given, wanted", [(["--late-ok"], ["--fix", "--late-ok"]),
                                           (["--fix"], ["--fix", "--late-ok"]),
                                           ([], ["--fix", "--late-ok"])])
def test_each_wrong_try_at_a_late_copy_names_the_command_that_works(camp, tmp_path, given, wanted):
    """The review's guesswork: `--late-ok` said "use submit --fix", `--fix` said "late", only both worked."""
    set_deadline(camp, "2026-01-01", NOW)
    copy = tmp_path / "troy copy.yaml"
    copy.write_bytes(order_text(camp, "troy").replace(camp.player_secrets()["troy"].encode(), b"withheld"))
    r = pbem("submit", camp.root, copy, *given)
    assert r.exit_code == 1 and "REFUSED" in r.output, r.output
    args = next(command_in(r.output, lead) for lead in ("if it", "to take"))
    assert args[1:] == [str(camp.root), str(copy), *wanted], r.output
    r = pbem(*args)
    assert r.exit_code == 0 and "ACCEPTED" in r.output, r.output


def test_a_late_file_with_its_secret_needs_only_late_ok(camp, tmp_path):
    set_deadline(camp, "2026-01-01", NOW)
    f = tmp_path / "sparta.yaml"
    f.write_bytes(order_text(camp, "sparta"))
    r = pbem("submit", camp.root, f)
    args = command_in(r.output, "if it reached you in time")
    assert args[1:] == [str(camp.root), str(f), "--late-ok"], r.output
    assert pbem(*args).exit_code == 0


# 2. the turn runs once every player's file is in: the answer says so

def test_the_answer_says_the_turn_may_run_before_the_deadline(camp):
    set_deadline(camp, "2026-12-01T18:00", NOW)
    a = submit_bytes(camp, order_text(camp, "athens"), "a.yaml", NOW)
    assert a.accepted
    assert ("You may send a new file until the turn runs: at the deadline (2026-12-01 18:00 UTC), or earlier once "
            "every player's file is in.") in a.text(), a.text()
    assert "until the deadline: the last one counts" not in a.text()


# 3. the drop folder's paperwork

def test_ingest_keeps_each_file_under_its_turn_and_player_and_says_where(camp, tmp_path):
    drop = tmp_path / "drop"
    drop.mkdir()
    (drop / "orders.yaml").write_bytes(order_text(camp, "athens"))
    r = pbem("ingest", camp.root, "--from", drop)
    kept = drop / "accepted" / "turn-001" / "athens-001_orders.yaml"
    assert kept.is_file() and f"moderator: kept as {kept}; the answer is " \
        f"{camp.root / 'replies' / 'turn-001' / 'athens-001.txt'}" in r.output, r.output
    (drop / "orders.yaml").write_bytes(order_text(camp, "athens", diplomacy=["megara"]))  # the same name again
    r = pbem("ingest", camp.root, "--from", drop)
    assert (drop / "accepted" / "turn-001" / "athens-002_orders.yaml").is_file(), r.output
    assert "stored as version 2 of athens's orders for game turn 1 (it replaces version 1)" in r.output, r.output
    assert "version 2" in (camp.root / "replies" / "turn-001" / "athens-002.txt").read_text()


def test_a_file_for_a_turn_that_has_run_names_the_player_and_says_what_happens_now(camp, tmp_path):
    for p in ("athens", "sparta", "troy"):
        if p != "troy":
            assert submit_bytes(camp, order_text(camp, p), f"{p}.yaml", NOW).accepted
    run_turn(camp, NOW, force=True, reports=False)
    drop = tmp_path / "drop"
    drop.mkdir()
    (drop / "troy turn 1.yaml").write_bytes(order_text(camp, "troy", turn=1))
    ingest(camp, drop, NOW)
    reply = (camp.root / "replies" / "turn-002" / "troy-001.txt").read_text()
    first, rest = reply.split("\n", 1)
    assert first == "REFUSED: troy turn 1.yaml for troy", reply
    assert "This file is not used: game turn 1 ran without orders from you" in rest, reply
    assert "send your orders for game turn 2 (turn: 2) now" in rest, reply
    assert (drop / "refused" / "turn-002" / "troy-001_troy turn 1.yaml").is_file()


def test_the_moderator_s_refused_fix_is_printed_not_kept_for_the_player(camp, tmp_path):
    from pbem.turn import run
    for p in ("athens", "sparta", "troy"):
        assert submit_bytes(camp, order_text(camp, p), f"{p}.yaml", NOW).accepted
    with camp.lock():
        run(camp, dry_run=True)  # the dice were seen: a changed fix needs --force
    replies = camp.root / "replies" / "turn-001"
    before = sorted(p.name for p in replies.iterdir()) if replies.is_dir() else []
    f = tmp_path / "athens fix.yaml"
    f.write_bytes(order_text(camp, "athens", diplomacy=["megara"]))
    r = pbem("submit", camp.root, f, "--fix")
    assert r.exit_code == 1 and "the moderator's fix is refused" in r.output, r.output
    assert "no answer was kept for the player" in r.output
    assert command_in(r.output, "to take it anyway")[1:] == [str(camp.root), str(f), "--fix", "--force"]
    assert (sorted(p.name for p in replies.iterdir()) if replies.is_dir() else []) == before
    r = pbem("submit", camp.root, f, "--fix", "--force")  # taken: its answer is the player's to get
    assert r.exit_code == 0 and len(list(replies.iterdir())) == len(before) + 1


# 5. "send your file to the moderator", to a player who just had

def test_a_file_for_a_turn_held_after_a_rollback_tells_the_player_the_moderator_has_it(camp, tmp_path):
    from pbem.moderation import rollback
    assert submit_bytes(camp, order_text(camp, "athens"), "a.yaml", NOW).accepted
    run_turn(camp, NOW, force=True, reports=False)
    rollback(camp, 1, "run too early")
    drop = tmp_path / "drop"
    drop.mkdir()
    (drop / "sparta.yaml").write_bytes(order_text(camp, "sparta"))
    r = pbem("ingest", camp.root, "--from", drop)
    reply = (camp.root / "replies" / "turn-001" / "sparta-001.txt").read_text()
    assert "the moderator has it" in reply and "you need not send it again" in reply, reply
    assert "send your file to the moderator" not in reply
    args = command_in(r.output, "to take it in place of")
    assert args[-2:] == ["--fix", "--force"], r.output
    assert pbem(*args).exit_code == 0


def test_links_are_removed_from_the_drop_folder_never_kept_and_a_folder_keeps_no_link_nor_secret(tmp_path):
    """A red-teamer: a relative link that names nothing in the drop folder came to name the campaign's
    secret/players.yaml once moved two folders deeper into refused/turn-001/; a folder kept as it came held a
    file with a live secret.  Links (at the top or in a folder) are answered and removed; a folder is kept with
    its links removed and every player's secret in its files withheld."""
    camp = create(tmp_path / "c", ["athens", "sparta"], seed="7").campaign
    secrets = camp.player_secrets()
    drop = tmp_path / "d"
    (drop / "sub").mkdir(parents=True)
    (drop / "rel.yaml").symlink_to("../../../c/secret/players.yaml")  # dangling here, live two levels down
    (drop / "abs.yaml").symlink_to(camp.root / "secret" / "players.yaml")
    (drop / "sub" / "inner.yaml").symlink_to(camp.root / "secret" / "players.yaml")
    (drop / "sub" / "orders.yaml").write_text(f"campaign: c\nturn: 1\nplayer: athens\nsecret: {secrets['athens']}\n")
    answers = ingest(camp, drop, datetime(2026, 11, 23, tzinfo=timezone.utc))
    assert len(answers) == 3 and not any(a.accepted for a in answers)
    kept = [p for p in (drop / "refused").rglob("*")]
    assert not [p for p in kept if p.is_symlink()], kept
    assert [p.name for p in kept if p.is_dir() and p.parent.name == "turn-001"] == ["unknown-003_sub"]
    for p in kept:
        if p.is_file():
            text = p.read_text()
            assert not any(s in text for s in secrets.values()), p
    assert sorted(p.name for p in drop.iterdir()) == ["accepted", "refused"] or sorted(
        p.name for p in drop.iterdir()) == ["refused"]
    assert (camp.root / "secret" / "players.yaml").is_file()


@pytest.mark.parametrize("name", ["t" * 195 + ".yaml", "é" * 120 + ".yaml", "troy\u00a0nbsp.yaml"])
def test_the_command_printed_for_a_late_file_takes_it_as_printed(tmp_path, name):
    """A red-teamer: for names intake accepts, the kept copy's name broke the printed command (over the 200-character
    limit, cut at 240 bytes without its .yaml, a no-break space printed as \\xa0)."""
    camp = create(tmp_path / "c", ["athens", "troy"], seed="7").campaign
    set_deadline(camp, "2026-01-01", datetime(2025, 12, 1, tzinfo=timezone.utc))
    drop = tmp_path / "d"
    drop.mkdir()
    secret = camp.player_secrets()["troy"]
    (drop / name).write_text(f"campaign: {camp.config['name']}\nturn: 1\nplayer: troy\nsecret: {secret}\n")
    [a] = ingest(camp, drop, datetime(2026, 1, 2, tzinfo=timezone.utc))
    assert not a.accepted and "late" in a.text()
    [line] = [x for x in a.text().splitlines() if "--late-ok" in x and "`pbem submit" in x]
    command = shlex.split(line.split("`")[1])
    assert command[:2] == ["pbem", "submit"] and command[-2:] == ["--fix", "--late-ok"], line
    r = CliRunner().invoke(app, command[1:])
    assert r.exit_code == 0 and "ACCEPTED" in r.output, r.output


def test_a_secret_in_a_file_name_is_withheld_everywhere_the_name_is_shown(tmp_path):
    """A red-teamer named a file after Sparta's secret: it stood in audit.log (which the archive carries), in the
    kept copy's name and in the answer."""
    camp = create(tmp_path / "c", ["athens", "sparta"], seed="7").campaign
    secret = camp.player_secrets()["sparta"]
    drop = tmp_path / "d"
    drop.mkdir()
    (drop / f"{secret}.yaml").write_text(f"campaign: {camp.config['name']}\nturn: 1\nplayer: sparta\n"
                                         f"secret: {secret}\n")
    [a] = ingest(camp, drop, datetime(2026, 1, 2, tzinfo=timezone.utc))
    assert a.accepted and secret not in a.text() and "withheld.yaml" in a.text()
    assert secret not in (camp.root / "audit.log").read_text()
    assert not [p for p in drop.rglob("*") if secret in p.name]
    assert not [p for p in (camp.root / "replies").rglob("*") if p.is_file() and secret in p.read_text()]
