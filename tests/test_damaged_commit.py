"""A turn is committed whole or not at all: a turn whose snapshot or audit line cannot be written leaves no log,
no computer player's file and no audit line behind."""
import pytest

from damaged_campaign import camp, files, invoke, turn2  # noqa: F401 (fixtures)
from pbem.storage import Campaign


def test_a_turn_whose_snapshot_cannot_be_written_leaves_no_log_no_orders_and_no_audit_line(camp, monkeypatch):
    before = files(camp.root)

    def refused(self, state):
        raise PermissionError(13, "Permission denied", str(self.snapshot_path(state.turn)))
    monkeypatch.setattr(Campaign, "save_state", refused)
    r = invoke("run-turn", camp.root, "--force", "--no-reports")
    assert r.exit_code == 2 and "Permission denied" in r.output, r.output
    assert not camp.log_path(2).exists() and not camp.orders_dir(2).exists()
    assert files(camp.root) == before  # audit.log too: no line for a turn that did not commit
    monkeypatch.undo()
    r = invoke("run-turn", camp.root, "--force", "--no-reports")
    assert r.exit_code == 0, r.output
    assert "turn 2: OK" in invoke("verify", camp.root).output


def test_a_turn_whose_audit_line_cannot_be_written_is_not_committed(camp, monkeypatch):
    before = files(camp.root)

    def full(self, line):
        raise OSError(28, "No space left on device", str(self.root / "audit.log"))
    monkeypatch.setattr(Campaign, "audit", full)
    with pytest.raises(OSError):
        from pbem.turn import run
        run(camp)
    assert files(camp.root) == before
