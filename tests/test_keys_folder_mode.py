"""`pbem new` makes the campaign folder with the permissions the umask gives; only secret/ is private
(moderator review: the folder was 0700)."""
import os

from typer.testing import CliRunner

from pbem.cli import app


def test_pbem_new_makes_the_campaign_folder_as_the_umask_says(tmp_path):
    """`pbem new` staged the campaign in a 0700 temporary folder and renamed it into place: the campaign folder
    stayed 0700 where the docs say files get the umask's permissions and only secret/ is private."""
    before = os.umask(0o022)
    try:
        r = CliRunner().invoke(app, ["new", str(tmp_path / "t5"), "--players", "athens,sparta"])
        assert r.exit_code == 0, r.output
        os.umask(0o027)
        r = CliRunner().invoke(app, ["new", str(tmp_path / "t6"), "--players", "athens,sparta"])
        assert r.exit_code == 0, r.output
    finally:
        os.umask(before)
    assert oct((tmp_path / "t5").stat().st_mode & 0o777) == oct(0o755)
    assert oct((tmp_path / "t6").stat().st_mode & 0o777) == oct(0o750)
    for name in ("t5", "t6"):
        assert (tmp_path / name / "secret").stat().st_mode & 0o777 == 0o700
        assert (tmp_path / name / "secret" / "seed").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "t5" / "turn-keys.txt").stat().st_mode & 0o777 == 0o644  # public, like campaign.yaml
