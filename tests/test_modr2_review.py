"""A moderator's review of a campaign's long life (upgrades, moving folders, archives, the end of the game): an
archive made through a link to the campaign folder."""
import tarfile

import pytest
from typer.testing import CliRunner

from pbem.campaign import create
from pbem.cli import app


def pbem_cli(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture
def camp(tmp_path):
    return create(tmp_path / "camp", ["athens", "sparta", "troy"], seed="5", name="test").campaign


def run(camp):
    r = pbem_cli("run-turn", camp.root, "--force", "--no-reports")
    assert r.exit_code == 0, r.output
    return r


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
