"""A small campaign to damage, shared by the tests of damaged campaign folders (tests/test_damaged_*.py)."""
import json
import shutil
from datetime import datetime, timezone

import pytest
from typer.testing import CliRunner

from pbem.campaign import create
from pbem.cli import app
from pbem.cycle import run_turn, set_seat
from pbem.storage import Campaign

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def turn2(tmp_path_factory):
    """A 4-player campaign at turn 2 (as the fuzzer's), computer players in every seat."""
    camp = create(tmp_path_factory.mktemp("d") / "c", ["athens", "sparta", "thebes", "troy"], seed="5",
                  name="dmg").campaign
    for p in ("athens", "sparta", "thebes", "troy"):
        set_seat(camp, p, "bot")
    run_turn(camp, NOW, force=True, reports=False)
    return camp


@pytest.fixture
def camp(turn2, tmp_path):
    """A fresh copy of ``turn2`` to damage."""
    shutil.copytree(turn2.root, tmp_path / "c")
    return Campaign.open(tmp_path / "c")


def edit_snapshot(camp, change, turn=2):
    path = camp.snapshot_path(turn)
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=1, sort_keys=True))
    return path


def put(*args):
    """put("players", "athens", "gold", None): that field set to that value."""
    keys, value = args[:-1], args[-1]

    def change(d):
        for k in keys[:-1]:
            d = d[k]
        d[keys[-1]] = value
    return change


def drop(*keys):
    def change(d):
        for k in keys[:-1]:
            d = d[k]
        del d[keys[-1]]
    return change


def files(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
            and p.name != ".lock"}


def invoke(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


