"""The moderator's calendar and small safeguards: the next deadline, deadlines in the past, signed gold
changes, archives that already exist."""
from datetime import datetime, timedelta, timezone

import pytest
from typer.testing import CliRunner

from pbem.campaign import create
from pbem.cli import app
from pbem.cycle import deadline, parse_when, run_turn, set_deadline, set_seat

runner = CliRunner()


@pytest.fixture
def camp(tmp_path):
    c = create(tmp_path / "c", ["athens", "sparta"], seed="4", name="cal").campaign
    for p in ("athens", "sparta"):
        set_seat(c, p, "bot")
    return c


def test_the_next_deadline_is_turn_days_after_the_turn_ran_even_when_it_ran_early(camp):
    """Turns that run early (all orders in) do not push each next deadline a week further out."""
    start = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
    set_deadline(camp, "2026-03-08T18:00", start)
    now = start
    for _ in range(3):  # three quick turns, a day apart
        now += timedelta(days=1)
        run_turn(camp, now, force=True, reports=False)
        assert deadline(camp) == now.replace(second=0, microsecond=0) + timedelta(days=7)
    assert deadline(camp) < datetime(2026, 3, 12, tzinfo=timezone.utc)


def test_a_turn_run_late_gives_the_players_their_full_time(camp):
    start = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
    set_deadline(camp, "2026-03-01T18:00", start)
    late = datetime(2026, 3, 4, 9, 30, tzinfo=timezone.utc)  # the moderator ran it three days late
    run_turn(camp, late, reports=False)
    assert deadline(camp) == late + timedelta(days=7)


def test_a_date_without_a_time_means_the_end_of_that_day_utc():
    now = datetime(2026, 1, 1, tzinfo=timezone.utc)
    assert parse_when("2026-12-01", now) == datetime(2026, 12, 1, 23, 59, tzinfo=timezone.utc)


def test_a_deadline_in_the_past_is_set_with_a_warning(camp):
    r = runner.invoke(app, ["deadline", str(camp.root), "2020-01-01"])
    assert r.exit_code == 0, r.output
    warning = [line for line in r.output.splitlines() if line.startswith("warning:")]
    assert len(warning) == 1 and "in the past" in warning[0], r.output
    r = runner.invoke(app, ["deadline", str(camp.root), "+3d"])
    assert r.exit_code == 0 and "warning" not in r.output


@pytest.mark.parametrize("gold", ["athens=5", "athens=five", "athens=+", "athens=5+"])
def test_adjust_gold_needs_its_sign(camp, gold):
    before = camp.snapshot_path(1).read_bytes()
    r = runner.invoke(app, ["adjust", str(camp.root), "--reason", "r", "--gold", gold])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
    assert "--gold" in r.output and "+5" in r.output and "-3" in r.output
    assert camp.snapshot_path(1).read_bytes() == before


def test_adjust_gold_with_its_sign_is_taken(camp):
    r = runner.invoke(app, ["adjust", str(camp.root), "--reason", "r", "--gold", "athens=+5", "--gold", "sparta=-2"])
    assert r.exit_code == 0, r.output
    assert camp.load_state().players["athens"].gold == 15 and camp.load_state().players["sparta"].gold == 8


def test_archive_does_not_replace_an_existing_file_without_force(camp, tmp_path):
    out = tmp_path / "c-archive.tar.gz"  # the default path: beside the campaign folder
    r = runner.invoke(app, ["archive", str(camp.root)])
    assert r.exit_code == 0 and str(out) in r.output, r.output
    first = out.read_bytes()
    audit = (camp.root / "audit.log").read_text()
    r = runner.invoke(app, ["archive", str(camp.root)])
    assert r.exit_code == 2 and "exists already" in r.output and "--force" in r.output, r.output
    assert out.read_bytes() == first and (camp.root / "audit.log").read_text() == audit
    r = runner.invoke(app, ["archive", str(camp.root), "--force"])
    assert r.exit_code == 0, r.output


def test_the_last_turn_sets_no_next_deadline(tmp_path):
    """Found in a played game: after the end, status still counted days to a deadline."""
    c = create(tmp_path / "e", ["athens", "sparta"], seed="4", name="end", options=["last_turn=2"]).campaign
    for p in ("athens", "sparta"):
        set_seat(c, p, "bot")
    now = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
    set_deadline(c, "2026-03-08T18:00", now)
    run_turn(c, now, force=True, reports=False)
    assert deadline(c) is not None
    run_turn(c, now, force=True, reports=False)
    assert c.load_state().finished and deadline(c) is None
