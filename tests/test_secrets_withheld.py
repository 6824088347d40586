"""No stored order file holds a player's secret: the campaign folder and its archive cannot be used to send
orders as another player (intake.withhold), and the turn still replays from the archive alone (R-TURN-6)."""
import hashlib
import shutil
import tarfile
from datetime import datetime, timezone

import pytest
from typer.testing import CliRunner

from pbem import yamlio
from pbem.campaign import create
from pbem.cli import app
from pbem.cycle import run_turn, set_seat
from pbem.intake import WITHHELD, submit_bytes
from pbem.moderation import rollback
from pbem.storage import Campaign
from pbem.verify import published_key, verify

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def camp(tmp_path):
    return create(tmp_path / "camp", ["athens", "sparta", "troy"], seed="5", name="test").campaign


def order_text(camp, player, secret=None, **body):
    data = {"campaign": "test", "turn": camp.current_turn, "player": player,
            "secret": camp.player_secrets()[player] if secret is None else secret, **body}
    return yamlio.dump(data).encode()


def stored_files(camp):
    return [p for p in camp.root.rglob("*.yaml") if "orders" in p.parts]


def holds_a_secret(camp, path):
    raw = path.read_bytes()
    return any(s.encode() in raw for s in camp.player_secrets().values())


def test_an_accepted_file_is_stored_without_the_secret_and_hashed_as_stored(camp):
    secret = camp.player_secrets()["athens"]
    raw = order_text(camp, "athens", diplomacy=["megara"]) + f"# my secret is {secret}\n".encode()
    a = submit_bytes(camp, raw, "athens.yaml", NOW)
    assert a.accepted, a.text()
    stored = (camp.orders_dir(1) / "athens.yaml").read_bytes()
    assert secret.encode() not in stored
    assert stored == raw.replace(secret.encode(), b"withheld")  # every occurrence, the rest byte for byte
    assert yamlio.parse(stored.decode(), "x").data["secret"] == WITHHELD
    digest = hashlib.sha256(stored).hexdigest()[:16]
    assert digest in a.text() and f"(sha256 {digest})" in (camp.root / "audit.log").read_text()
    assert submit_bytes(camp, raw, "again.yaml", NOW).duplicate  # the same file again changes nothing


def test_earlier_versions_and_computer_players_files_hold_no_secret_either(camp):
    for body in ({"diplomacy": ["megara"]}, {"diplomacy": ["argos"]}):
        assert submit_bytes(camp, order_text(camp, "athens", **body), "a.yaml", NOW).accepted
    set_seat(camp, "troy", "bot")
    run_turn(camp, NOW, force=True, reports=False)
    files = stored_files(camp)
    assert {p.name for p in files} >= {"athens.yaml", "athens.v1.yaml", "troy.yaml"}
    assert not [p for p in files if holds_a_secret(camp, p)]
    assert yamlio.load(camp.orders_dir(1) / "troy.yaml").data["secret"] == WITHHELD


def test_the_withheld_word_authenticates_nobody(camp):
    a = submit_bytes(camp, order_text(camp, "athens", secret=WITHHELD), "a.yaml", NOW)
    assert not a.accepted and "a stored copy (its secret is withheld)" in a.text() and "--fix" in a.text()
    assert not (camp.orders_dir(1) / "athens.yaml").exists()


def test_a_secret_written_with_escapes_is_refused_rather_than_stored(camp):
    secret = camp.player_secrets()["athens"]
    escaped = "".join(f"\\x{ord(c):02x}" for c in secret)
    raw = f'campaign: test\nturn: 1\nplayer: athens\nsecret: "{escaped}"\n'.encode()
    a = submit_bytes(camp, raw, "a.yaml", NOW)
    assert not a.accepted and "as plain lines" in a.text()  # the header must be readable without parsing
    assert not camp.orders_dir(1).exists()


def test_the_archive_holds_no_secret_and_verifies_from_the_archive_alone(camp, tmp_path):
    for p in ("athens", "sparta"):
        assert submit_bytes(camp, order_text(camp, p, diplomacy=["megara"]), f"{p}.yaml", NOW).accepted
    set_seat(camp, "troy", "bot")
    run_turn(camp, NOW, force=True, reports=False)
    key = published_key(camp, 1)
    r = CliRunner().invoke(app, ["archive", str(camp.root), "-o", str(tmp_path / "a.tar.gz")])
    # mid-game: one warning, that the archive holds every hidden fact (none about secrets: there are none in it)
    warnings = [line for line in r.output.splitlines() if line.startswith("warning:")]
    assert r.exit_code == 0 and len(warnings) == 1 and "the game is not over" in warnings[0], r.output
    out = tmp_path / "unpacked"
    with tarfile.open(tmp_path / "a.tar.gz") as tar:
        tar.extractall(out, filter="data")
        for member in tar.getmembers():
            if member.isfile():
                data = tar.extractfile(member).read()
                assert not any(s.encode() in data for s in camp.player_secrets().values()), member.name
    unpacked = Campaign.open(out / "camp")
    assert all(v.ok for v in verify(unpacked, 1, key))


def test_a_stored_file_can_be_fixed_by_the_moderator_with_the_withheld_word(camp):
    for p in ("athens", "sparta", "troy"):
        assert submit_bytes(camp, order_text(camp, p), f"{p}.yaml", NOW).accepted
    run_turn(camp, NOW, reports=False)
    rollback(camp, 1, "athens's orders were misfiled")
    fixed = (camp.orders_dir(1) / "athens.yaml").read_bytes() + b"diplomacy: [megara]\n"
    assert not submit_bytes(camp, fixed, "athens.yaml", NOW).accepted  # only the moderator
    # turn 1 was run (its dice seen) and rolled back: a changed file needs --force
    assert not submit_bytes(camp, fixed, "athens.yaml", NOW, moderator_fix=True).accepted
    a = submit_bytes(camp, fixed, "athens.yaml", NOW, moderator_fix=True, force=True)
    assert a.accepted, a.text()
    assert (camp.orders_dir(1) / "athens.yaml").read_bytes() == fixed
    run_turn(camp, NOW, force=True, reports=False)
    assert camp.current_turn == 2


def test_archive_warns_about_files_stored_before_secrets_were_withheld(camp, tmp_path):
    secret = camp.player_secrets()["athens"]
    old = camp.orders_dir(1) / "athens.yaml"  # as pbem stored it before: the secret in it
    old.parent.mkdir(parents=True)
    old.write_bytes(order_text(camp, "athens"))
    assert secret.encode() in old.read_bytes()
    r = CliRunner().invoke(app, ["archive", str(camp.root), "-o", str(tmp_path / "a.tar.gz")])
    assert r.exit_code == 0, r.output
    warning = [line for line in r.output.splitlines() if line.startswith("warning:") and "not over" not in line]
    assert len(warning) == 1 and "orders/turn-001/athens.yaml" in warning[0] and "live secret" in warning[0]
    assert (tmp_path / "a.tar.gz").is_file()  # refused nothing
    shutil.rmtree(camp.orders_dir(1))


def test_an_archive_without_reports_leaves_them_out_and_they_can_be_written_again(camp, tmp_path):
    # a moderator's wish: a 12-player campaign's reports are most of its archive (about 1 MB a player a turn)
    set_seat(camp, "athens", "bot")
    set_seat(camp, "sparta", "bot")
    set_seat(camp, "troy", "bot")
    run_turn(camp, NOW, force=True, reports=True)
    assert (camp.reports_dir(1, "athens") / "report.txt").is_file()
    r = CliRunner().invoke(app, ["archive", str(camp.root), "-o", str(tmp_path / "a.tar.gz"), "--without-reports"])
    assert r.exit_code == 0, r.output
    with tarfile.open(tmp_path / "a.tar.gz") as tar:
        names = tar.getnames()
        tar.extractall(tmp_path / "unpacked", filter="data")
    assert not any("/reports" in n for n in names) and any("/state/" in n for n in names)
    assert "archived to" in (camp.root / "audit.log").read_text().splitlines()[-1]
    assert (camp.root / "audit.log").read_text().splitlines()[-1].endswith("(without reports)")
    unpacked = tmp_path / "unpacked" / "camp"
    assert all(v.ok for v in verify(Campaign.open(unpacked), 1, published_key(camp, 1)))
    r = CliRunner().invoke(app, ["report", str(unpacked), "--turn", "1"])
    assert r.exit_code == 0, r.output
    again = (unpacked / "reports" / "turn-001" / "athens" / "report.txt").read_text()
    assert again == (camp.reports_dir(1, "athens") / "report.txt").read_text()
