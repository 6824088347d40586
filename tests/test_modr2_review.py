"""A moderator's review of a campaign's long life (upgrades, moving folders, archives, the end of the game): an
archive made through a link to the campaign folder, the pbem version that ran each turn, the status and
deadline of a finished game, a campaign unpacked from an archive (no secrets), undoing an adjustment, a date
that does not exist, and a campaign made by a newer pbem."""
import re
import shutil
import tarfile
from datetime import datetime, timezone
from pathlib import Path

import pytest
from typer.testing import CliRunner

import pbem
import pbem.cli
import pbem.turn
from pbem import __version__, yamlio
from pbem.auditlog import ADJUDICATED
from pbem.campaign import create
from pbem.cli import app
from pbem.intake import submit_bytes
from pbem.storage import Campaign
from pbem.verify import verify

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
DOCS = Path(__file__).resolve().parent.parent / "docs" / "moderator.md"


def pbem_cli(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture
def camp(tmp_path):
    return create(tmp_path / "camp", ["athens", "sparta", "troy"], seed="5", name="test").campaign


def tree(root):
    """Every file of a campaign folder with its bytes (the lock file apart): what a refused command leaves."""
    return sorted((p.relative_to(root).as_posix(), p.read_bytes()) for p in Path(root).rglob("*")
                  if p.is_file() and p.name != ".lock")


def audit(camp):
    return (camp.root / "audit.log").read_text()


def run(camp):
    r = pbem_cli("run-turn", camp.root, "--force", "--no-reports")
    assert r.exit_code == 0, r.output
    return r


def as_version(monkeypatch, version):
    """This pbem, as if it were ``version`` (each module that reads the version)."""
    for module in (pbem, pbem.turn, pbem.cli):
        monkeypatch.setattr(module, "__version__", version)


# 1. an archive made through a link to the campaign folder holds the folder, not the link

def members(path):
    with tarfile.open(path) as tar:
        return {m.name: (tar.extractfile(m).read() if m.isfile() else m.type) for m in tar.getmembers()
                if not m.name.endswith("/audit.log")}  # the first archive's own audit line is in the second's


def test_archive_through_a_link_to_the_campaign_folder_packs_the_folder(camp, tmp_path):
    run(camp)
    link = tmp_path / "link"
    link.symlink_to(camp.root)
    r = pbem_cli("archive", link, "-o", tmp_path / "through-link.tar.gz")
    assert r.exit_code == 0 and "Archived to" in r.output, r.output
    r = pbem_cli("archive", camp.root, "-o", tmp_path / "real.tar.gz")
    assert r.exit_code == 0, r.output
    through_link, real = members(tmp_path / "through-link.tar.gz"), members(tmp_path / "real.tar.gz")
    assert "camp/state/turn-002.json" in through_link and "camp/secret/seed" not in through_link, sorted(through_link)
    assert through_link == real


# 2. the pbem version that ran each turn: recorded, named by verify, a note when it changes

def test_each_adjudicated_turns_audit_line_names_the_pbem_that_ran_it(camp):
    run(camp)
    line = next(x for x in audit(camp).splitlines() if " adjudicated turn 1;" in x)
    assert line.endswith(f"; pbem {__version__}"), line
    m = ADJUDICATED.match(line)
    assert m and m.group(5) == __version__ and len(m.group(4)) == 64, line
    old = line.rsplit("; pbem ", 1)[0]  # as an older pbem wrote it: still read, with no version
    m = ADJUDICATED.match(old)
    assert m and m.group(5) is None and m.group(4) == line.split("start sha256 ")[1][:64]
    (v,) = verify(camp, 1)
    assert v.ok and v.detail.endswith(f"; run with pbem {__version__}"), v.detail


def test_an_upgrade_mid_campaign_is_noted_once_and_verify_names_each_turns_version(camp, monkeypatch):
    run(camp)  # turn 1, with this pbem
    r = pbem_cli("status", camp.root)
    assert r.exit_code == 0 and "note:" not in r.output, r.output
    as_version(monkeypatch, "9.1.0")  # upgraded
    r = pbem_cli("status", camp.root)
    note = (f'note: this campaign\'s last turn was run with pbem {__version__}, this is 9.1.0: turns run with '
            f'different versions verify only with their own (docs/moderator.md, "Upgrading")')
    assert r.exit_code == 0 and r.output.splitlines()[-1] == note, r.output
    r = run(camp)  # turn 2, with the new pbem: said once, in its output
    assert r.output.count("note:") == 1 and note in r.output, r.output
    assert audit(camp).count("; pbem 9.1.0") == 1
    r = pbem_cli("status", camp.root)
    assert "note:" not in r.output, r.output  # the last turn is this version's now
    r = pbem_cli("verify", camp.root)
    assert r.exit_code == 0, r.output
    assert (f'note: audit.log records turn 1 run with pbem {__version__}, this is pbem 9.1.0: verify it with the '
            f'version that ran it (docs/moderator.md, "Upgrading")') in r.output.splitlines(), r.output
    assert "turn 1: OK: replayed exactly" in r.output and f"run with pbem {__version__}" in r.output
    assert "turn 2: OK: " in r.output and "run with pbem 9.1.0" in r.output
    # a turn that does not replay under the new pbem (here: its log changed) says which pbem to verify it with
    log = camp.log_path(1)
    log.write_text(log.read_text().replace('"', ' "', 1))
    (v,) = verify(camp, 1)
    assert v.word == "MISMATCH" and v.detail.endswith(
        f'; turn 1 was run with pbem {__version__} (audit.log), this is pbem 9.1.0: verify it with pbem '
        f'{__version__} (docs/moderator.md, "Upgrading")'), v.detail


def test_adjudicate_notes_the_upgrade_too(camp, monkeypatch):
    run(camp)
    as_version(monkeypatch, "9.1.0")
    for args in (("adjudicate", camp.root, "--dry-run"), ("adjudicate", camp.root, "--force")):
        r = pbem_cli(*args)
        assert r.exit_code == 0 and r.output.count(f"note: this campaign's last turn was run with pbem "
                                                    f"{__version__}, this is 9.1.0") == 1, r.output


def test_an_old_campaign_without_versions_in_audit_log_is_noted_by_its_creation_version(camp):
    config = yamlio.load(camp.config_path).data
    config["pbem_version"] = "0.5.0"
    camp.write_config(config)
    r = pbem_cli("status", camp.root)  # no turn run: the version that created it
    assert r.output.splitlines()[-1] == (f'note: this campaign was created with pbem 0.5.0, this is {__version__}: '
                                         f'turns run with different versions verify only with their own '
                                         f'(docs/moderator.md, "Upgrading")'), r.output
    run(camp)
    r = pbem_cli("status", camp.root)
    assert "note:" not in r.output, r.output  # this pbem ran the last turn
    path = camp.root / "audit.log"  # as an older pbem wrote it: no version on the line
    path.write_text(re.sub(r"; pbem \S+$", "", path.read_text(), flags=re.M))
    r = pbem_cli("status", camp.root)
    assert r.exit_code == 0 and "note: this campaign was created with pbem 0.5.0 (audit.log does not name the " \
        "version that ran its last turn)" in r.output, r.output
    (v,) = verify(Campaign.open(camp.root), 1)
    assert v.ok and "run with pbem" not in v.detail, v.detail


# 3. a finished game: status says so, a deadline is refused

def finished(tmp_path):
    root = tmp_path / "over"
    r = pbem_cli("new", root, "--players", "athens,sparta,troy", "--seed", "3", "--option", "last_turn=2")
    assert r.exit_code == 0, r.output
    for _ in range(2):
        r = pbem_cli("run-turn", root, "--force", "--no-reports")
        assert r.exit_code == 0, r.output
    return Campaign.open(root)


def test_status_of_a_finished_game_gives_the_result_and_awaits_nothing(tmp_path):
    camp = finished(tmp_path)
    state = camp.load_state()
    r = pbem_cli("status", camp.root)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "Game turn 3 (the game is over)"
    winner = state.players[state.winner].name
    assert lines[1].startswith(f"Result: {winner} won after game turn 2 (its last turn played; "), r.output
    for gone in ("Waiting for", "Deadline", "Due:", "pbem deadline", "not in"):
        assert gone not in r.output, (gone, r.output)
    assert f"pbem archive {camp.root} --reveal-seed" in r.output


def test_deadline_is_refused_once_the_game_is_over(tmp_path):
    camp = finished(tmp_path)
    before = tree(camp.root)
    r = pbem_cli("deadline", camp.root, "+7d")
    assert r.exit_code == 2, r.output
    assert r.output.strip() == ("pbem: the game is over (after turn 2): no more orders are taken, so no deadline "
                                "is set; nothing was changed"), r.output
    assert tree(camp.root) == before


# 4. a campaign unpacked from `pbem archive` (its secrets left out)

HINT = "(this looks like a campaign unpacked from `pbem archive`, which leaves secrets out: copy the campaign's " \
    "secret/ folder back in"


def unpacked(camp, tmp_path):
    r = pbem_cli("archive", camp.root, "-o", tmp_path / "a.tar.gz")
    assert r.exit_code == 0, r.output
    (tmp_path / "restore").mkdir()
    with tarfile.open(tmp_path / "a.tar.gz") as tar:
        tar.extractall(tmp_path / "restore", filter="tar")
    return Campaign.open(tmp_path / "restore" / "camp")


def test_an_unpacked_archive_says_why_it_cannot_run_and_how_to_restore_it(camp, tmp_path):
    assert submit_bytes(camp, yamlio.dump({"campaign": "test", "turn": 1, "player": "athens",
                                           "secret": camp.player_secrets()["athens"]}).encode(), "a.yaml",
                        NOW).accepted
    copy = unpacked(camp, tmp_path)
    before = tree(copy.root)
    for args in (("run-turn", copy.root, "--force"), ("adjudicate", copy.root, "--force"),
                 ("seat", copy.root, "athens", "bot", "--reason", "x"), ("verify", copy.root),
                 ("deadline", copy.root, "+7d")):
        r = pbem_cli(*args)
        assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, (args, r.output)
        assert HINT in r.output and "--key" in r.output, (args, r.output)
    assert tree(copy.root) == before  # `deadline` too: nothing written
    r = pbem_cli("status", copy.root)
    assert r.exit_code == 0 and HINT in r.output, r.output
    # restored as docs/moderator.md says: the secret/ folder copied back in
    shutil.copytree(camp.secret_dir, copy.secret_dir)
    r = pbem_cli("run-turn", copy.root, "--force", "--no-reports")
    assert r.exit_code == 0 and Campaign.open(copy.root).current_turn == 2, r.output
    r = pbem_cli("verify", copy.root)
    assert r.exit_code == 0, r.output
    (camp.secret_dir / "seed").unlink()  # a campaign with its secret/ folder: no word of an archive
    r = pbem_cli("run-turn", camp.root, "--force")
    assert r.exit_code == 2 and "secret/seed" in r.output and "pbem archive" not in r.output, r.output


# 5. undoing an adjustment: roll back to the turn before and run the turn again (docs/moderator.md)

def test_an_adjustment_is_undone_by_rolling_back_and_running_the_turn_again(camp):
    run(camp)
    adjusted_from = camp.snapshot_path(2).read_bytes()
    r = pbem_cli("adjust", camp.root, "--reason", "typo", "--gold", "athens=+5")
    assert r.exit_code == 0, r.output
    r = pbem_cli("rollback", camp.root, "1", "--reason", "undo the adjustment")
    assert r.exit_code == 0 and "adjustment(s) made with `pbem adjust` after turn 1 are lost" in r.output, r.output
    run(camp)
    assert camp.snapshot_path(2).read_bytes() == adjusted_from  # as before the adjustment
    r = pbem_cli("verify", camp.root)
    assert r.exit_code == 0 and "MISMATCH" not in r.output, r.output
    text = DOCS.read_text()
    undo = text[text.index("**Undoing an adjustment**"):][:1200]
    assert "pbem rollback" in undo and "run-turn CAMPAIGN --force" in undo and "fix-1.json" in undo, undo


# 6. a date that does not exist; a campaign made by a newer pbem

@pytest.mark.parametrize("when, said", [
    ("2026-02-29", "2026-02-29 is not a date: 2026 has no 29 February"),
    ("2026-11-31", "2026-11-31 is not a date: November has no day 31"),
    ("2026-13-01", "2026-13-01 is not a date: there is no month 13"),
])
def test_a_deadline_on_a_day_that_does_not_exist_says_so(camp, when, said):
    before = tree(camp.root)
    r = pbem_cli("deadline", camp.root, when)
    assert r.exit_code == 2 and said in r.output and "write a date like" not in r.output, r.output
    assert len(r.output.strip().splitlines()) == 1
    assert tree(camp.root) == before
    r = pbem_cli("deadline", camp.root, "2028-02-29")  # a leap year: taken
    assert r.exit_code == 0, r.output


def test_a_setting_of_a_newer_pbem_says_to_upgrade(camp):
    text = camp.config_path.read_text()
    camp.config_path.write_text(text.replace(f"pbem_version: {__version__}", "pbem_version: 99.0.0")
                                + "a_future_setting: true\n")
    r = pbem_cli("status", camp.root)
    assert r.exit_code == 2, r.output
    assert (f"a_future_setting: not a campaign setting of this pbem: this campaign was made with pbem 99.0.0, "
            f"newer than this pbem {__version__}: upgrade pbem") in r.output, r.output
    camp.config_path.write_text(text + "a_future_setting: true\n")  # made by this pbem: a typo, the known ones listed
    r = pbem_cli("status", camp.root)
    assert r.exit_code == 2 and "not a campaign setting (known: " in r.output and "upgrade" not in r.output, r.output
