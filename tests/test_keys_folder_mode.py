"""`pbem new` makes the campaign folder private (mode 0700) whatever the umask: it holds every hidden fact (a
red-team review found it 0755 under umask 022, readable by any account on the machine); files inside get the
umask's permissions, secret/ stays 0700 and its files 0600."""
import os

from typer.testing import CliRunner

from pbem.cli import app


def test_pbem_new_makes_the_campaign_folder_private_whatever_the_umask(tmp_path):
    before = os.umask(0o022)
    try:
        r = CliRunner().invoke(app, ["new", str(tmp_path / "t5"), "--players", "athens,sparta"])
        assert r.exit_code == 0, r.output
        (tmp_path / "t7").mkdir(mode=0o755)  # a folder the moderator made first: filled, and made private too
        r = CliRunner().invoke(app, ["new", str(tmp_path / "t7"), "--players", "athens,sparta"])
        assert r.exit_code == 0, r.output
        os.umask(0o002)
        r = CliRunner().invoke(app, ["new", str(tmp_path / "t6"), "--players", "athens,sparta"])
        assert r.exit_code == 0, r.output
    finally:
        os.umask(before)
    for name in ("t5", "t6", "t7"):
        assert oct((tmp_path / name).stat().st_mode & 0o777) == oct(0o700), name
        assert (tmp_path / name / "secret").stat().st_mode & 0o777 == 0o700
        assert (tmp_path / name / "secret" / "seed").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "t5" / "turn-keys.txt").stat().st_mode & 0o777 == 0o644  # inside: as the umask gives
    assert (tmp_path / "t6" / "turn-keys.txt").stat().st_mode & 0o777 == 0o664


def test_pbem_demo_makes_its_folder_private_too(tmp_path):
    before = os.umask(0o022)
    try:
        r = CliRunner().invoke(app, ["demo", str(tmp_path / "d"), "--players", "2", "--turns", "1", "--seed", "1"])
    finally:
        os.umask(before)
    assert r.exit_code == 0, r.output
    assert oct((tmp_path / "d").stat().st_mode & 0o777) == oct(0o700)
