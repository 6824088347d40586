"""Findings of the QA fuzzer (unusable input must get one line, exit code 2, and change or lose nothing): each
test here failed before its fix."""
import os
import shutil
from datetime import datetime, timezone

import pytest
from typer.testing import CliRunner

from pbem import yamlio
from pbem.campaign import create
from pbem.cli import app

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
runner = CliRunner()


def pbem(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def camp(tmp_path):
    return create(tmp_path / "camp", ["athens", "sparta", "troy"], seed="5", name="test").campaign


def order_text(camp, player, **body):
    data = {"campaign": "test", "turn": 1, "player": player, "secret": camp.player_secrets()[player], **body}
    return yamlio.dump(data).encode()


def files_of(root):
    """Every file under ``root`` with its bytes (the lock file aside)."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != ".lock"}


def one_line_exit_2(r, *words):
    assert r.exit_code == 2, r.output
    assert len(r.output.strip().splitlines()) == 1 and r.output.startswith("pbem: "), r.output
    for w in words:
        assert w in r.output, r.output


# -- 1. ingest moved the whole campaign folder into DROP/refused/ when the campaign sat inside the drop folder

def test_a_drop_folder_holding_the_campaign_is_refused_and_nothing_moves(camp, tmp_path):
    par = tmp_path / "par"
    par.mkdir()
    shutil.copytree(camp.root, par / "camp")
    (par / "athens.yaml").write_bytes(order_text(camp, "athens"))
    before = files_of(par)
    r = pbem("ingest", par / "camp", "--from", par)
    one_line_exit_2(r, "is inside the drop folder", "nothing was taken")
    assert files_of(par) == before


def test_a_drop_folder_holding_a_link_to_the_campaign_is_refused(camp, tmp_path):
    par = tmp_path / "par"
    par.mkdir()
    (par / "camp").symlink_to(camp.root)
    (par / "athens.yaml").write_bytes(order_text(camp, "athens"))
    r = pbem("ingest", par / "camp", "--from", par)
    one_line_exit_2(r, "is inside the drop folder")
    assert (par / "camp").is_symlink() and (par / "athens.yaml").is_file()


def test_another_campaign_folder_in_the_drop_folder_is_never_moved(camp, tmp_path):
    drop = tmp_path / "drop"
    (drop / "stuff").mkdir(parents=True)
    shutil.copytree(camp.root, drop / "stuff" / "other")
    (drop / "athens.yaml").write_bytes(order_text(camp, "athens"))
    before = files_of(drop)
    r = pbem("ingest", camp.root, "--from", drop)
    one_line_exit_2(r, "is a campaign folder", str(drop / "stuff" / "other"))
    assert files_of(drop) == before
    assert not (camp.root / "replies").exists()
