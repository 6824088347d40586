"""A soak test: `pbem report --turn T` of an older turn printed the current turn's deadline as the one for turn
T+1's orders, so the README's loop that writes every turn's reports again stamped them all with the last one.
A report written again gives the deadline audit.log records for turn T+1 (docs/moderator.md: the same words)."""
from datetime import datetime, timezone

from typer.testing import CliRunner

from pbem.campaign import create
from pbem.cli import app
from pbem.cycle import set_deadline


def pbem(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def due_line(camp, turn):
    text = (camp.root / "reports" / f"turn-{turn:03d}" / "athens" / "report.txt").read_text()
    return [x.strip() for x in text.splitlines() if "Orders due" in x]


def test_a_report_written_again_gives_its_own_next_deadline_not_the_current_one(tmp_path):
    camp = create(tmp_path / "c", ["athens", "sparta"], seed="1", name="test").campaign
    now = datetime.now(timezone.utc)
    set_deadline(camp, "+7d", now)
    assert pbem("run-turn", camp.root, "--force").exit_code == 0
    first = due_line(camp, 1)
    assert first and "2999" not in first[0], first
    assert pbem("run-turn", camp.root, "--force").exit_code == 0
    assert pbem("deadline", camp.root, "2999-01-01").exit_code == 0  # turn 3's
    r = pbem("report", camp.root, "--turn", "1")
    assert r.exit_code == 0, r.output
    assert due_line(camp, 1) == first
    r = pbem("report", camp.root, "--turn", "2")  # the current turn's: the deadline in force
    assert r.exit_code == 0, r.output
    assert any("2999-01-01" in x for x in due_line(camp, 2)), due_line(camp, 2)
