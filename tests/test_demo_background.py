"""`pbem demo` writes each turn's reports in a forked process while the next turn is played (report.
ReportsInBackground): the 12-player demo went from 61 s to 57 s of wall time on two cores (the issue's target
is 60 s).  The files must be the same bytes as when the reports are written in the foreground, a failure must
name the turn whose reports are missing, and the turn must stand."""
from __future__ import annotations

import datetime as datetime_module
import os

import pytest
from typer.testing import CliRunner

from pbem import report
from pbem.cli import app
from pbem.storage import Campaign

FIXED = datetime_module.datetime(2026, 11, 22, 12, 0, tzinfo=datetime_module.timezone.utc)


class FixedClock(datetime_module.datetime):
    @classmethod
    def now(cls, tz=None):
        return FIXED


@pytest.fixture
def fixed_clock(monkeypatch):
    """The demo's deadlines come from the clock: fixed, so two demos write the same reports."""
    monkeypatch.setattr(datetime_module, "datetime", FixedClock)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790000000")  # the PDFs' creation date


def demo(root, workers: str, *more):
    os.environ["PBEM_WORKERS"] = workers
    try:
        return CliRunner().invoke(app, ["demo", str(root), "--players", "3", "--turns", "3", *more])
    finally:
        del os.environ["PBEM_WORKERS"]


def files(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted((root / "reports").rglob("*"))
            if p.is_file()}


def test_the_reports_written_in_the_background_are_those_written_in_the_foreground(tmp_path, fixed_clock,
                                                                                    monkeypatch):
    started = []
    real_start = report.ReportsInBackground.start
    monkeypatch.setattr(report.ReportsInBackground, "start", lambda self, turn: (started.append(turn),
                                                                                real_start(self, turn))[1])
    back = demo(tmp_path / "back", "2")
    assert back.exit_code == 0, back.output
    assert started == [1, 2, 3]  # each turn's reports written while the next turn was played
    fore = demo(tmp_path / "fore", "1")  # one worker: written in the foreground, turn by turn
    assert fore.exit_code == 0, fore.output
    assert started == [1, 2, 3]
    written, expected = files(tmp_path / "back"), files(tmp_path / "fore")
    assert len(expected) > 3 * 4 * 5  # every turn, three players and the moderator, every format
    assert written.keys() == expected.keys()
    assert [name for name in expected if written[name] != expected[name]] == []
    state = Campaign.open(tmp_path / "back").load_state()
    assert state.turn == 4


def test_reports_that_fail_in_the_background_name_their_turn_and_the_turn_stands(tmp_path, fixed_clock,
                                                                                   monkeypatch):
    real = report.render_all

    def failing(env, ctx, *a, **k):
        if ctx["turn"] == 2:
            raise OSError(28, "No space left on device")
        return real(env, ctx, *a, **k)
    monkeypatch.setattr(report, "render_all", failing)
    r = demo(tmp_path / "d", "2")
    assert r.exit_code == 2, r.output
    last = r.output.strip().splitlines()[-1]
    # turn 3 was played while turn 2's reports were being written: both are named, each with its command
    assert last == (f"pbem: the reports of turn 2 could not be written (No space left on device); turns 2 and 3 are committed without reports: fix that, then run `pbem report "
                    f"{tmp_path / 'd'} --turn 2` and `pbem report {tmp_path / 'd'} --turn 3`"), r.output
    assert "Traceback" not in r.output
    camp = Campaign.open(tmp_path / "d")
    assert camp.current_turn == 4  # both turns stand
    assert (camp.reports_dir(1, "moderator") / "report.pdf").is_file()
    assert not (camp.reports_dir(3, "moderator") / "report.pdf").exists()
    monkeypatch.setattr(report, "render_all", real)
    fixed = CliRunner().invoke(app, ["report", str(tmp_path / "d"), "--turn", "2"])
    assert fixed.exit_code == 0, fixed.output


def test_a_background_writer_that_dies_is_an_error_not_a_hang(tmp_path, fixed_clock, monkeypatch):
    monkeypatch.setattr(report, "write_reports", lambda *a, **k: os._exit(3))
    r = demo(tmp_path / "d", "2")
    assert r.exit_code == 2, r.output
    assert ("the reports of turn 1 could not be written (the process writing them stopped); turns 1 and 2 are "
            "committed without reports") in r.output, r.output


def test_one_worker_writes_in_the_foreground(monkeypatch):
    monkeypatch.setenv("PBEM_WORKERS", "1")
    assert not report.in_background()
    monkeypatch.setenv("PBEM_WORKERS", "2")
    assert report.in_background()
