"""A moderator's mistakes and accidents: every bad input is one line naming the file or field, exit 2, no
traceback, and nothing in the campaign folder changes.  Interrupts stop cleanly; the lock guards every writer."""
import os
import shutil
from datetime import datetime, timezone
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.campaign import create_demo
from pbem.cli import app
from pbem.cycle import run_turn
from pbem.storage import Campaign

runner = CliRunner()
NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)


def pbem(*args):
    return runner.invoke(app, [str(a) for a in args])


def files(root: Path) -> dict[str, bytes]:
    """Every file of a campaign folder and its bytes (the lock file aside), to show nothing changed."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != ".lock"}


def one_line_refusal(r, *words: str, code: int = 2) -> None:
    assert r.exit_code == code, r.output
    assert "Traceback" not in r.output, r.output
    assert len(r.output.strip().splitlines()) == 1, r.output
    for w in words:
        assert w in r.output, r.output


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A 2-player demo campaign after two game turns (no reports), made once; tests take copies."""
    root = tmp_path_factory.mktemp("played") / "demo"
    camp = create_demo(root, 2, "2026")
    for _ in range(2):
        run_turn(camp, NOW, force=True, reports=False)
    return root


@pytest.fixture
def camp_dir(played, tmp_path) -> Path:
    root = tmp_path / "demo"
    shutil.copytree(played, root)
    return root


# -- a damaged campaign.yaml ----------------------------------------------------------------------------

COMMANDS = [
    ["show", "{d}"],
    ["status", "{d}"],
    ["deadline", "{d}", "+3d"],
    ["run-turn", "{d}", "--force", "--no-reports"],
    ["adjudicate", "{d}", "--dry-run"],
    ["report", "{d}", "--turn", "1", "--player", "athens"],
    ["seat", "{d}", "athens", "human", "--reason", "r"],
    ["bot", "{d}", "athens"],
    ["rollback", "{d}", "2", "--reason", "r"],
    ["adjust", "{d}", "--reason", "r", "--gold", "athens=+1"],
    ["verify", "{d}", "--turn", "1"],
    ["turn-key", "{d}", "1"],
    ["archive", "{d}", "-o", "{t}/a.tar.gz"],
]

DAMAGES = [
    (lambda t: t.replace("civil_disorder_after: 3", "civil_disorder_after: three"),
     "civil_disorder_after", ":18:"),
    (lambda t: t.replace("  sparta: bot", "  sparta: robot"), "seats.sparta", ":22:"),
    (lambda t: t.replace("  sparta: bot", "  thebes: bot"), "seats.thebes", ":22:"),
    (lambda t: "- just\n- a list\n", "not a pbem campaign file", "campaign.yaml"),
    (lambda t: "", "not a pbem campaign file", "campaign.yaml"),
    (lambda t: t.replace("players:", "players: [\n"), "YAML syntax error", "campaign.yaml:"),
    (lambda t: t.replace("turn_days: 7", "turn_dayz: 7"), "turn_dayz: not a campaign setting", ":17:"),
    (lambda t: t.replace("name: demo", "name: 5"), "name", ":2:"),
    (lambda t: t.replace("seats:\n  athens: bot\n  sparta: bot", "seats: [athens]"), "seats", ":20:"),
]


@pytest.mark.parametrize("damage, field, where", DAMAGES)
def test_a_damaged_campaign_yaml_stops_every_command_with_one_line(camp_dir, tmp_path, damage, field, where):
    config = camp_dir / "campaign.yaml"
    config.write_text(damage(config.read_text()))
    before = files(camp_dir)
    for cmd in COMMANDS:
        r = pbem(*[a.format(d=camp_dir, t=tmp_path) for a in cmd])
        one_line_refusal(r, "campaign.yaml", field, where)
        assert files(camp_dir) == before, cmd
    assert not (tmp_path / "a.tar.gz").exists()


def test_a_kit_with_a_damaged_campaign_yaml_is_not_used_by_check(camp_dir, tmp_path):
    config = camp_dir / "campaign.yaml"
    config.write_text(config.read_text().replace("turn_days: 7", "turn_days: weekly"))
    r = pbem("check", camp_dir / "orders" / "turn-001" / "athens.yaml", "--campaign", camp_dir)
    assert r.exit_code == 2 and "campaign.yaml:17: turn_days" in r.output and "Traceback" not in r.output


def test_campaign_yaml_as_pbem_writes_it_is_valid(camp_dir):
    camp = Campaign.open(camp_dir)
    assert camp.config["seats"] == {"athens": "bot", "sparta": "bot"}
    r = pbem("seat", camp_dir, "athens", "human", "--reason", "r")
    assert r.exit_code == 0, r.output
    assert pbem("deadline", camp_dir, "2026-12-01 18:00 UTC").exit_code == 0  # as `pbem status` prints it
    assert Campaign.open(camp_dir).config["deadline"] == "2026-12-01T18:00Z"


# -- the lock ---------------------------------------------------------------------------------------------

def test_demo_holds_the_lock_for_the_whole_run(tmp_path, monkeypatch):
    from pbem import cycle
    real = cycle.run_turn
    tried = []

    def between_turns(camp, *a, **k):  # another command arriving between two turns of the demo
        with pytest.raises(Exception, match="another pbem command"):
            with Campaign(camp.root).lock():
                pass
        tried.append(camp.root)
        return real(camp, *a, **k)
    monkeypatch.setattr(cycle, "run_turn", between_turns)
    r = pbem("demo", tmp_path / "d", "--players", "2", "--turns", "2", "--no-reports")
    assert r.exit_code == 0, r.output
    assert len(tried) == 2 and Campaign.open(tmp_path / "d").current_turn == 3
    with Campaign(tmp_path / "d").lock():  # free once the demo is done
        pass


def test_demo_does_not_replace_a_demo_another_command_works_on(camp_dir):
    before = files(camp_dir)
    with Campaign(camp_dir).lock():
        r = pbem("demo", camp_dir, "--players", "2", "--turns", "0")
    one_line_refusal(r, "another pbem command")
    assert files(camp_dir) == before


def test_demo_replaces_a_previous_demo_whole(camp_dir):
    r = pbem("demo", camp_dir, "--players", "3", "--turns", "1", "--no-reports")
    assert r.exit_code == 0, r.output
    camp = Campaign.open(camp_dir)
    assert camp.current_turn == 2 and len(camp.config["players"]) == 3
    assert [p.name for p in camp_dir.parent.iterdir()] == ["demo"]  # no staging folder left over


@pytest.mark.parametrize("cmd", [["report", "--turn", "1", "--player", "athens"], ["turn-key", "1"]])
def test_report_and_turn_key_wait_for_the_lock(camp_dir, cmd):
    before = files(camp_dir)
    with Campaign(camp_dir).lock():
        r = pbem(cmd[0], camp_dir, *cmd[1:])
    one_line_refusal(r, "another pbem command")
    assert files(camp_dir) == before


# -- nothing is written before a command fails ------------------------------------------------------------

def test_run_turn_without_the_secret_seed_writes_no_bot_orders(camp_dir):
    (camp_dir / "secret" / "seed").unlink()
    before = files(camp_dir)
    r = pbem("run-turn", camp_dir, "--force", "--no-reports")
    one_line_refusal(r, "secret/seed")
    assert files(camp_dir) == before
    assert not (camp_dir / "orders" / "turn-003").exists()


def test_run_turn_with_a_damaged_stored_order_file_writes_nothing(camp_dir):
    (camp_dir / "orders" / "turn-003").mkdir()
    (camp_dir / "orders" / "turn-003" / "athens.yaml").write_text("moves: [\n")
    before = files(camp_dir)
    r = pbem("run-turn", camp_dir, "--force", "--no-reports")
    one_line_refusal(r, "athens.yaml")
    assert files(camp_dir) == before  # sparta's computer-player orders were not written either


@pytest.mark.parametrize("damage", ["missing", "a list", "no seed"])
def test_seat_with_damaged_secrets_changes_nothing(camp_dir, damage):
    secrets = camp_dir / "secret" / "players.yaml"
    if damage == "missing":
        secrets.unlink()
    elif damage == "a list":
        secrets.write_text("- athens\n- sparta\n")
    else:
        (camp_dir / "secret" / "seed").unlink()
    before = files(camp_dir)
    r = pbem("seat", camp_dir, "athens", "human", "--reason", "r")
    one_line_refusal(r, "secret/")
    assert files(camp_dir) == before
    assert "seats:\n  athens: bot" in (camp_dir / "campaign.yaml").read_text()


@pytest.mark.parametrize("cmd", [
    ["run-turn", "--force", "--no-reports"],
    ["adjudicate"],
    ["deadline", "+3d"],
    ["seat", "athens", "human", "--reason", "r"],
    ["rollback", "2", "--reason", "r"],
    ["adjust", "--reason", "r", "--gold", "athens=+1"],
    ["turn-key", "1"],
])
def test_an_audit_log_that_cannot_be_written_stops_a_command_before_it_writes(camp_dir, cmd):
    audit = camp_dir / "audit.log"
    audit.unlink()
    audit.mkdir()  # cannot be appended to, even by root
    before = files(camp_dir)
    r = pbem(cmd[0], camp_dir, *cmd[1:])
    one_line_refusal(r, "audit.log", "nothing was done")
    assert files(camp_dir) == before
    assert Campaign.open(camp_dir).current_turn == 3


def test_archive_into_a_missing_folder_records_nothing(camp_dir, tmp_path):
    before = files(camp_dir)
    r = pbem("archive", camp_dir, "-o", tmp_path / "nowhere" / "a.tar.gz")
    one_line_refusal(r, "nowhere", "does not exist")
    assert files(camp_dir) == before
    r = pbem("archive", camp_dir, "-o", tmp_path / "a.tar.gz")
    assert r.exit_code == 0, r.output
    assert "archived to" in (camp_dir / "audit.log").read_text().splitlines()[-1]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_adjust_onto_water_is_one_line_and_changes_nothing(camp_dir):
    camp = Campaign.open(camp_dir)
    army = next(u for u in camp.load_state().units.values() if u.type.value == "army" and u.owner == "athens")
    water = next(h for h in sorted(camp.game_map.terrain) if camp.game_map.is_water(h))
    before = files(camp_dir)
    r = pbem("adjust", camp_dir, "--reason", "typo", "--move", f"{army.id}={water}")
    one_line_refusal(r, f"--move {army.id}={water}", "must be on land")
    assert files(camp_dir) == before


# -- Ctrl-C while the reports are written ---------------------------------------------------------------

def _interrupted(r, camp_dir, turn):
    one_line_refusal(r, code=130)
    assert r.output.strip() == (f"pbem: interrupted: reports of turn {turn} are incomplete; run "
                                f"`pbem report {camp_dir} --turn {turn}` to rebuild them")


def test_ctrl_c_while_run_turn_writes_reports_leaves_the_turn_committed(camp_dir, monkeypatch):
    from pbem import report

    def ctrl_c(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setenv("PBEM_WORKERS", "1")
    monkeypatch.setattr(report, "write_one", ctrl_c)
    r = pbem("run-turn", camp_dir, "--force")
    _interrupted(r, camp_dir, 3)
    camp = Campaign.open(camp_dir)
    assert camp.current_turn == 4  # the turn was committed before the reports
    assert "run-turn 3 (forced)" in (camp_dir / "audit.log").read_text()
    with camp.lock():  # and the lock was let go
        pass


def ctrl_c() -> None:
    """Ctrl-C as Python delivers it to the main thread: the SIGINT handler in force is called, now (os.kill
    may reach the handler a moment later, after the code under test has moved on, on a loaded machine)."""
    import signal
    signal.getsignal(signal.SIGINT)(signal.SIGINT, None)


def test_ctrl_c_while_run_turn_commits_waits_for_the_audit_line(camp_dir, monkeypatch):
    """Ctrl-C just as the snapshot is written: the turn, the next deadline and both audit lines still land, then
    the command stops with the line that says which reports to write."""
    import signal
    real = Campaign.save_state

    def save_then_ctrl_c(self, state):
        out = real(self, state)
        ctrl_c()
        return out
    monkeypatch.setattr(Campaign, "save_state", save_then_ctrl_c)
    r = pbem("run-turn", camp_dir, "--force")
    _interrupted(r, camp_dir, 3)
    camp = Campaign.open(camp_dir)
    assert camp.current_turn == 4
    audit = (camp_dir / "audit.log").read_text()
    assert "adjudicated turn 3" in audit and "run-turn 3 (forced)" in audit
    assert not camp.reports_dir(3).exists()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ctrl_c_while_a_file_is_stored_keeps_its_audit_line(camp_dir, tmp_path, monkeypatch):
    import signal
    from pbem import intake
    camp = Campaign.open(camp_dir)
    real = intake.atomic_write

    def write_then_ctrl_c(path, data, *a, **k):
        real(path, data, *a, **k)
        ctrl_c()
    assert pbem("seat", camp_dir, "athens", "human", "--reason", "r").exit_code == 0
    src = tmp_path / "athens.yaml"
    assert pbem("bot", camp_dir, "athens", "-o", src).exit_code == 0  # a good file ...
    secret = Campaign.open(camp_dir).player_secrets()["athens"]
    src.write_text(src.read_text().replace("secret: withheld", f"secret: {secret}"))  # ... with athens's new secret
    monkeypatch.setattr(intake, "atomic_write", write_then_ctrl_c)
    r = pbem("submit", camp_dir, src, "--late-ok")  # the fixture's deadline is long past
    assert r.exit_code == 130, r.output
    secret = camp.player_secrets()["athens"].encode()
    assert (camp.orders_dir(3) / "athens.yaml").read_bytes() == src.read_bytes().replace(secret, b"withheld")
    assert "intake accepted" in (camp_dir / "audit.log").read_text().splitlines()[-1]


def test_held_interrupts_delivers_ctrl_c_once_after_the_block():
    import signal
    from pbem.storage import held_interrupts
    seen = []
    with pytest.raises(KeyboardInterrupt):
        with held_interrupts():
            with held_interrupts():  # nested: the inner block hands it to the outer one
                ctrl_c()
                seen.append("inner done")
            seen.append("outer done")
    assert seen == ["inner done", "outer done"]
    with pytest.raises(ValueError):  # an error in the block goes up as it is, and Ctrl-C works again after
        with held_interrupts():
            raise ValueError("broken")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.parametrize("turn", [None, 1])
def test_ctrl_c_in_pbem_report_names_the_turn_to_rebuild(camp_dir, monkeypatch, turn):
    from pbem import report

    def ctrl_c(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setenv("PBEM_WORKERS", "1")
    monkeypatch.setattr(report, "write_one", ctrl_c)
    r = pbem("report", camp_dir, *(["--turn", turn] if turn else []))
    _interrupted(r, camp_dir, turn or 2)


def test_ctrl_c_stops_the_report_pool_cleanly(camp_dir, tmp_path, monkeypatch):
    """The terminal sends Ctrl-C to the whole process group: a worker ignores it and finishes its report,
    the parent cancels the rest, waits for the workers and says which reports to rebuild."""
    import multiprocessing
    import signal
    from pbem import report
    marker = tmp_path / "worker-survived"

    def render(job, pid):
        if pid == "athens":
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C reaches the worker ...
            marker.write_text("the worker went on")
            os.kill(os.getppid(), signal.SIGINT)  # ... and the parent
        return report.Written(pid or "moderator", [], 0.0)
    monkeypatch.setenv("PBEM_WORKERS", "2")
    monkeypatch.setattr(report, "_write_player", render)
    r = pbem("report", camp_dir, "--turn", "2")
    _interrupted(r, camp_dir, 2)
    assert marker.read_text() == "the worker went on"
    assert multiprocessing.active_children() == []  # the pool was shut down, no worker left behind


# -- other damaged files of the campaign folder ------------------------------------------------------------

def _write(rel, text):
    def damage(root):
        (root / rel).write_text(text)
    return damage


def _folder(rel):
    def damage(root):
        (root / rel).unlink()
        (root / rel).mkdir()
    return damage


@pytest.mark.parametrize("damage, cmd, words", [
    (_write("log/turn-002.jsonl", "garbage{\n"), ["report", "--turn", "2"], ["log/turn-002.jsonl:1", "damaged"]),
    (_write("log/turn-002.jsonl", "[1, 2]\n"), ["report", "--turn", "2"], ["log/turn-002.jsonl:1", "damaged"]),
    (_write("revealed-seed.txt", "zz\n"), ["verify"], ["revealed-seed.txt", "64 hex digits"]),
    (_write("secret/seed", "zz\n"), ["verify"], ["secret/seed", "damaged"]),
    (_write("secret/seed", "abcd\n"), ["run-turn", "--force"], ["secret/seed", "damaged"]),
    (_write("secret/players.yaml", "- athens\n"), ["seat", "athens", "human", "--reason", "r"], ["secret/players.yaml", "damaged"]),
    (lambda root: (root / "state" / "turn-002.json").unlink(), ["verify"], ["turn-002.json", "missing"]),
    (_folder("state/turn-003.json"), ["show"], ["turn-003.json", "not a state file"]),
])
def test_a_damaged_file_of_the_campaign_is_named_in_one_line(camp_dir, damage, cmd, words):
    damage(camp_dir)
    before = files(camp_dir)
    r = pbem(cmd[0], camp_dir, *cmd[1:])
    one_line_refusal(r, *words)
    assert files(camp_dir) == before


def test_reports_that_cannot_be_written_say_the_turn_is_committed_and_how_to_write_them(camp_dir, monkeypatch):
    """`reports/` not writable: one line saying turn 3 stands and `pbem report --turn 3` writes its reports (a
    retried run-turn would run turn 4 with no orders)."""
    from pbem import report

    def read_only(camp, turn, *a, **k):
        raise PermissionError(13, "Permission denied", str(camp.reports_dir(turn)))
    monkeypatch.setattr(report, "write_reports", read_only)
    r = pbem("run-turn", camp_dir, "--force")
    one_line_refusal(r, "turn 3 is committed", "reports could not be written", "reports/turn-003: Permission denied",
                     f"pbem report {camp_dir} --turn 3")
    assert Campaign.open(camp_dir).current_turn == 4


def test_run_turn_force_warns_when_no_human_players_orders_are_in(camp_dir):
    assert pbem("seat", camp_dir, "athens", "human", "--reason", "r").exit_code == 0
    r = pbem("run-turn", camp_dir, "--force", "--no-reports")
    assert r.exit_code == 0, r.output
    warning = [line for line in r.output.splitlines() if line.startswith("warning:")]
    assert len(warning) == 1 and "no human player's orders" in warning[0] and "athens" in warning[0], r.output
    assert Campaign.open(camp_dir).current_turn == 4  # it still ran


def test_run_turn_force_with_only_computer_players_does_not_warn(camp_dir):
    r = pbem("run-turn", camp_dir, "--force", "--no-reports")
    assert r.exit_code == 0 and "warning" not in r.output, r.output
