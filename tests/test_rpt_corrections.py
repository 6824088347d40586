"""The moderator's corrections (`pbem adjust`) in the players' reports: a moderator's review found them
invisible (the next report started with more gold than the last one ended with, nothing said why; a report
written again listed a unit where its EVENTS said it had moved elsewhere).  Each player is told the
corrections of their own gold, units and cities, with the moderator's reason; no one else's."""
from datetime import datetime, timezone

import pytest

from pbem import report
from pbem.campaign import create
from pbem.cycle import run_turn, set_seat
from pbem.moderation import adjust, read_corrections, rollback

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)


@pytest.fixture
def camp(tmp_path):
    c = create(tmp_path / "c", ["athens", "sparta"], seed="4", name="mod", options=["last_turn=4"]).campaign
    for p in ("athens", "sparta"):
        set_seat(c, p, "bot")
    return c


def text(camp, turn, who):
    return " ".join((camp.reports_dir(turn, who) / "report.txt").read_text(encoding="utf-8").split())


def html(camp, turn, who):
    return " ".join((camp.reports_dir(turn, who) / "report.html").read_text(encoding="utf-8").split())


def some_army(camp, owner):
    state = camp.load_state()
    return next(u for u in state.units.values() if u.owner == owner and u.type.value == "army")


def test_a_gold_correction_before_a_turn_is_told_in_that_turns_report_and_its_treasury_adds_up(camp):
    run_turn(camp, NOW, force=True, reports=False)  # turn 1
    ended = camp.load_state().players["athens"].gold
    adjust(camp, "refund: a recruit lost to the moderator's typo", gold={"athens": 2})
    run_turn(camp, NOW, force=True, reports=False)  # turn 2
    report.write_reports(camp, 2, formats=("txt", "html"), workers=1)
    mine = text(camp, 2, "athens")
    assert ("MODERATOR'S CORRECTIONS (by hand, with `pbem adjust`) Before this turn was run: your gold +2 "
            f"(to {ended + 2}). Why: refund: a recruit lost to the moderator's typo") in mine
    assert f"At the end of last turn (before the correction) {ended} gold Moderator's correction (see above) +2 " \
           f"At the start of the turn {ended + 2} gold" in mine
    assert "Other changes" not in mine
    assert "Moderator's corrections" in html(camp, 2, "athens") and "refund: a recruit" in html(camp, 2, "athens")
    # the other player is told nothing of it; the moderator all
    assert "refund" not in text(camp, 2, "sparta") and "CORRECTIONS" not in text(camp, 2, "sparta")
    assert "Athenians' gold +2" in text(camp, 2, "moderator")
    # the report of turn 1 written again: the correction came after it, and its treasury says so
    report.write_reports(camp, 1, ["athens"], formats=("txt",), workers=1)
    again = text(camp, 1, "athens")
    assert "After this turn was run (this report was written again since): your gold +2" in again
    assert "Moderator's correction after the turn (see above) +2" in again and "Other changes" not in again


def test_a_unit_placed_by_the_moderator_is_told_to_its_owner_alone(camp):
    run_turn(camp, NOW, force=True, reports=False)
    army = some_army(camp, "sparta")
    state = camp.load_state()
    home = next(c for c in camp.game_map.cities.values() if state.cities[c.id].controller == "sparta")
    to = home.hex if home.hex != army.hex else next(
        c.hex for c in camp.game_map.cities.values() if state.cities[c.id].controller == "sparta" and c.hex != army.hex)
    adjust(camp, f"{army.id} should have ended turn 1 at home: a misplaced retreat", move={army.id: to})
    report.write_reports(camp, 1, formats=("txt",), workers=1)  # turn 1's reports written again
    theirs = text(camp, 1, "sparta")
    assert f"your {army.id} placed at {to} " in theirs and "a misplaced retreat" in theirs
    assert "misplaced" not in text(camp, 1, "athens")
    assert f"Spartans' {army.id} placed at {to}" in text(camp, 1, "moderator")


def test_one_correction_of_several_players_keeps_its_reason_from_them(camp):
    """A red-teamer: one `adjust` for both players ("SECRETREASON athens bribe") showed the reason in both reports;
    each sees their own part, the reason only when the correction touched them alone; the command says so."""
    from typer.testing import CliRunner
    from pbem.cli import app
    run_turn(camp, NOW, force=True, reports=False)
    army = some_army(camp, "sparta")
    r = CliRunner().invoke(app, ["adjust", str(camp.root), "--reason", "SECRETREASON athens bribe",
                                 "--gold", "athens=+5", "--remove", army.id])
    assert r.exit_code == 0 and "note: this correction touches athens, sparta: each sees their own part" in r.output
    adjust(camp, "a refund for Sparta alone", gold={"sparta": 1})
    report.write_reports(camp, 1, formats=("txt", "html"), workers=1)
    for who in ("athens", "sparta"):
        for page in (text(camp, 1, who), html(camp, 1, who)):
            assert "SECRETREASON" not in page and "not shown to you: this correction touched other players" in page
    assert f"your {army.id} removed from play" in text(camp, 1, "sparta") and "gold +5" not in text(camp, 1, "sparta")
    assert "a refund for Sparta alone" in text(camp, 1, "sparta") and "refund" not in text(camp, 1, "athens")
    assert "SECRETREASON athens bribe" in text(camp, 1, "moderator")


def test_corrections_undone_by_a_rollback_are_not_told(camp):
    run_turn(camp, NOW, force=True, reports=False)  # turn 1
    run_turn(camp, NOW, force=True, reports=False)  # turn 2
    adjust(camp, "a gift that was undone", gold={"athens": 3})  # to snapshot 3
    rollback(camp, 2, "replay turn 2")
    run_turn(camp, NOW, force=True, reports=False)
    report.write_reports(camp, 2, ["athens"], formats=("txt",), workers=1)
    assert "a gift that was undone" not in text(camp, 2, "athens")


def test_the_audit_lines_are_read_item_by_item():
    lines = ("2026-11-23T00:41:54Z adjust turn 5 (corinth gold +2 -> 32; COR-A1 moved to 0716; COR-F2 removed; "
             "megara controlled by nobody), previous kept as turn-005.fix-1.json: refund: a typo; sorry\n"
             "2026-11-23T00:43:00Z rollback to turn 6 (undone: the run of turn 6; later turns moved to "
             "archive/rollback-1): x\n")
    [c] = read_corrections(lines)
    assert (c.turn, c.reason, c.kept) == (5, "refund: a typo; sorry", "turn-005.fix-1.json")
    assert c.items == [("gold", "corinth", 2, 32), ("moved", "COR-A1", "0716"), ("removed", "COR-F2"),
                       ("control", "megara", None)]
    assert read_corrections(lines + "2026-11-23T00:44:00Z rollback to turn 4 (undone: the run of turns "
                                           "4..5; later turns moved to archive/rollback-2): y\n") == []
