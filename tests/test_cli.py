"""The `pbem` command as a user meets it: set-up, show, help, version, and every refusal as one line, exit 2."""
import filecmp
import os
import stat
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from pbem import __version__
from pbem.cli import app
from pbem.gamedata import load_map
from scenario import FIXTURES

runner = CliRunner()
STATES = [c.id for c in load_map().city_states()]


def pbem(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_version_and_help_on_every_command():
    r = pbem("--version")
    assert r.exit_code == 0 and __version__ in r.output
    r = pbem("--help")
    assert r.exit_code == 0
    commands = [c.name or c.callback.__name__ for c in app.registered_commands]
    assert {"new", "show", "adjudicate"} <= set(commands)
    for name in commands:
        r = pbem(name, "--help")
        assert r.exit_code == 0 and "Usage" in r.output, name


@pytest.mark.parametrize("n", [2, 7, 12])
def test_new_for_2_7_and_12_players(tmp_path, n):
    r = pbem("new", tmp_path / "c", "--players", ",".join(STATES[:n]), "--seed", "11")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "c" / "state" / "turn-001.json").is_file()
    assert (tmp_path / "c" / "map.yaml").is_file()
    assert "anyone can work out this campaign's dice" in r.output  # the --seed warning


def test_new_writes_each_player_a_set_up_report_with_map_and_kit(tmp_path):
    """Before turn 1 a player needs their forces, a map with hex ids and a kit with the order template."""
    r = pbem("new", tmp_path / "c", "--players", "athens,sparta", "--seed", "11")
    assert r.exit_code == 0 and "Set-up reports in" in r.output, r.output
    for p in ("athens", "sparta"):
        folder = tmp_path / "c" / "reports" / "turn-000" / p
        assert {"report.txt", "report.html", "map.png", "kit"} <= {f.name for f in folder.iterdir()}
        assert (folder / "report.txt").read_text().startswith("c: the set-up, before game turn 1")
        template = (folder / "kit" / "orders-template.yaml").read_text()
        assert f"player: {p}" in template and "turn: 1" in template
    assert "SPA-" not in (tmp_path / "c" / "reports" / "turn-000" / "athens" / "report.txt").read_text()
    assert pbem("report", tmp_path / "c", "--turn", "0", "--player", "athens").exit_code == 0


def test_same_seed_gives_identical_campaign_files(tmp_path):
    for d in ("a", "b"):
        assert pbem("new", tmp_path / d, "--players", "athens,sparta,troy", "--seed", "99",
                    "--name", "same").exit_code == 0
    for rel in ("state/turn-001.json", "log/setup.jsonl", "secret/seed", "map.yaml"):
        assert filecmp.cmp(tmp_path / "a" / rel, tmp_path / "b" / rel, shallow=False), rel
    # but not the player secrets: random even with --seed, whose number anyone can find (a cheater's review)
    assert not filecmp.cmp(tmp_path / "a/secret/players.yaml", tmp_path / "b/secret/players.yaml", shallow=False)
    assert pbem("new", tmp_path / "c", "--players", "athens,sparta,troy", "--seed", "100",
                "--name", "same").exit_code == 0
    assert not filecmp.cmp(tmp_path / "a/state/turn-001.json", tmp_path / "c/state/turn-001.json", shallow=False)


def test_without_seed_the_secret_is_random_and_private(tmp_path):
    assert pbem("new", tmp_path / "a", "--players", "athens,sparta").exit_code == 0
    assert pbem("new", tmp_path / "b", "--players", "athens,sparta").exit_code == 0
    assert (tmp_path / "a/secret/seed").read_text() != (tmp_path / "b/secret/seed").read_text()
    mode = stat.S_IMODE(os.stat(tmp_path / "a/secret").st_mode)
    assert mode == 0o700
    assert stat.S_IMODE(os.stat(tmp_path / "a/secret/seed").st_mode) == 0o600
    import hashlib, yaml
    cfg = yaml.safe_load((tmp_path / "a/campaign.yaml").read_text())
    seed = bytes.fromhex((tmp_path / "a/secret/seed").read_text().strip())
    assert cfg["seed_sha256"] == hashlib.sha256(seed).hexdigest()  # published fingerprint
    assert seed.hex() not in (tmp_path / "a/campaign.yaml").read_text()
    secrets = yaml.safe_load((tmp_path / "a/secret/players.yaml").read_text())["secrets"]
    assert set(secrets) == {"athens", "sparta"} and secrets["athens"] != secrets["sparta"]


@pytest.mark.parametrize("args, message", [
    (["--players", "athens"], "1 given; a game has 2 to 12 players"),
    (["--players", ",".join(STATES + ["athens"])], "13 given"),
    (["--players", "athens,atlantis"], "'atlantis' is not a city state"),
    (["--players", "athens,athen"], "did you mean athens"),
    (["--players", "athens,Athens"], "Athens is named twice"),
    (["--players", "athens,megara"], "minor city"),
    (["--players", "athens,sparta", "--seed", "-4"], "the seed must be a whole number"),
    (["--players", "athens,sparta", "--seed", "abc"], "the seed must be a whole number"),
    (["--players", "athens,sparta", "--option", "nonsense"], "unknown option 'nonsense'"),
    (["--players", "athens,sparta", "--option", "last_turn=x"], "needs a whole number"),
    (["--players", "athens,sparta", "--option", "last_turn=\u0663"], "needs a whole number"),  # Arabic-Indic 3
    (["--players", "athens,sparta", "--option", "blocks"], "not playable yet"),
    (["--players", "athens,sparta", "--map", "nowhere.yaml"], "no such file"),
])
def test_bad_set_up_is_refused_with_one_line_and_exit_2(tmp_path, args, message):
    r = pbem("new", tmp_path / "c", *args)
    assert r.exit_code == 2, r.output
    assert message in r.output
    assert "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1
    assert not (tmp_path / "c").exists()  # nothing half-made


def test_adjacent_home_cities_are_refused_on_a_map_that_has_them(tmp_path):
    text = (FIXTURES / "tiny.yaml").read_text().replace(
        'kind: minor, income: 3}', 'kind: city_state, abbr: MEG}')
    (tmp_path / "adj.yaml").write_text(text)
    r = pbem("new", tmp_path / "c", "--players", "sparta,megara", "--map", tmp_path / "adj.yaml")
    assert r.exit_code == 2 and "adjacent" in r.output and not (tmp_path / "c").exists()
    r = pbem("new", tmp_path / "d", "--players", "athens,megara", "--map", tmp_path / "adj.yaml", "--seed", "1")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("width: 12", "width: 13"), "terrain row 1 has 12 hexes; width says 13"),
    (lambda t: t.replace("~SC.f~~~~~~~", "~SC.Q~~~~~~~"), "unknown code 'Q'"),
    (lambda t: t.replace('hex: "1007"', 'hex: "1006"'), "not a City hex"),
    (lambda t: t.replace('{id: delos, name: Delos, hex: "1007", kind: minor, income: 2}',
                         '{id: delos, name: Delos, hex: "1007", kind: minor, income: 9}'), "cities[4].income"),
    (lambda t: t.replace("name: Delos", "name: Megara"), "the name 'Megara' is used twice"),
    (lambda t: t.replace("kind: minor, income: 2", "kind: town"), "cities[4].kind"),
    (lambda t: t + "  - {id: x, name: X, hex: \"9999\", kind: minor}\n", "off the map"),
    (lambda t: t.replace("cities:", "citties:"), "'cities' is a required property"),
    (lambda t: "name: [\n", "YAML syntax error"),
])
def test_a_broken_map_file_names_the_file_and_the_bad_entry(tmp_path, edit, message):
    path = tmp_path / "broken-map.yaml"
    path.write_text(edit((FIXTURES / "tiny.yaml").read_text()))
    r = pbem("new", tmp_path / "c", "--players", "athens,sparta", "--map", path)
    assert r.exit_code == 2, r.output
    assert "broken-map.yaml" in r.output and message in r.output, r.output
    assert len(r.output.strip().splitlines()) == 1


def test_new_refuses_a_folder_that_is_not_empty(tmp_path):
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "keep.txt").write_text("mine")
    r = pbem("new", tmp_path / "c", "--players", "athens,sparta")
    assert r.exit_code == 2 and "not empty" in r.output
    assert (tmp_path / "c" / "keep.txt").read_text() == "mine"


def test_show_everything_and_one_players_fog(tmp_path):
    assert pbem("new", tmp_path / "c", "--players", "athens,sparta,troy", "--seed", "3").exit_code == 0
    full = pbem("show", tmp_path / "c")
    assert full.exit_code == 0 and "Treasuries and hands (moderator only)" in full.output
    assert "SPA-A1" in full.output and "ATH-A1" in full.output
    mine = pbem("show", tmp_path / "c", "--player", "Athens")
    assert mine.exit_code == 0
    assert "ATH-A1" in mine.output and "SPA-A1" not in mine.output and "Treasury: 10 gold" in mine.output
    assert "moderator only" not in mine.output
    bad = pbem("show", tmp_path / "c", "--player", "atlantis")
    assert bad.exit_code == 2 and "not a player" in bad.output
    assert pbem("show", tmp_path / "nowhere").exit_code == 2
    r = pbem("show", tmp_path / "c", "--turn", "5")
    assert r.exit_code == 2 and "no snapshot for turn 5" in r.output


def test_the_installed_command_runs_as_a_process(tmp_path):
    r = subprocess.run([sys.executable, "-m", "pbem.cli", "new", str(tmp_path / "c"), "--players", "athens,x"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.startswith("pbem: ") and "Traceback" not in r.stderr


def test_outputs_and_drop_folders_inside_the_campaign_are_refused(tmp_path):
    assert pbem("new", tmp_path / "c", "--players", "athens,sparta", "--seed", "2").exit_code == 0
    c = tmp_path / "c"
    for args, message in (
        (["ingest", c, "--from", c / "state"], "may not be the campaign folder"),
        (["ingest", c, "--from", c], "may not be the campaign folder"),
        (["archive", c, "-o", c / "campaign.yaml"], "outside the campaign folder"),
        (["bot", c, "athens", "-o", c / "map.yaml"], "outside the campaign folder"),
        (["bot", c, "athens", "-o", tmp_path], "is a folder"),
        (["deadline", c, "+99999999d"], "too far in the future"),
    ):
        r = pbem(*args)
        assert r.exit_code == 2 and message in r.output, (args, r.output)
    assert pbem("show", c).exit_code == 0  # nothing was moved or overwritten


def test_check_refuses_devices_and_pipes_without_reading_them(tmp_path):
    import os
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    for path in ("/dev/zero", fifo):
        r = pbem("check", path)
        assert r.exit_code == 2 and "not a regular file" in r.output


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    root = tmp_path_factory.mktemp("small") / "c"
    assert pbem("new", root, "--players", "athens,sparta", "--seed", "5").exit_code == 0
    assert pbem("adjudicate", root, "--force").exit_code == 0
    return root


@pytest.mark.parametrize("args, message", [
    (["show", "{c}", "--turn", "-1"], "--turn -1: game turns start at 1"),
    (["show", "{c}", "--turn", "0"], "--turn 0: game turns start at 1"),
    (["turn-key", "{c}", "-3"], "turn -3: game turns start at 1"),
    (["turn-key", "{c}", "0"], "turn 0: game turns start at 1"),
    (["rollback", "{c}", "-1", "--reason", "r"], "turn -1: game turns start at 1"),
    (["report", "{c}", "--turn", "-2"], "--turn -2: game turns start at 1"),
    (["verify", "{c}", "--turn", "-2"], "--turn -2: game turns start at 1"),
    (["demo", "{t}/d", "--players", "-1"], "--players -1: a demo has 2 to 12 players"),
    (["demo", "{t}/d", "--players", "2", "--turns", "-1"], "--turns -1"),
    (["show", "{c}", "--turn", "abc"], "show: --turn 'abc': write a game turn number, e.g. 3"),
    (["show", "{c}", "--bogus"], "show: No such option: --bogus"),
    (["show"], "show: Missing argument"),
    (["bogus"], "No such command 'bogus'"),
])
def test_bad_numbers_and_arguments_are_one_line_exit_2(small, tmp_path, args, message):
    before = {p: p.read_bytes() for p in small.rglob("*") if p.is_file() and p.name != ".lock"}
    r = pbem(*[a.format(c=small, t=tmp_path) for a in args])
    assert r.exit_code == 2, r.output
    assert message in r.output and "Traceback" not in r.output and "Usage:" not in r.output, r.output
    assert len(r.output.strip().splitlines()) == 1, r.output
    assert "turn--" not in r.output
    assert {p: p.read_bytes() for p in small.rglob("*") if p.is_file() and p.name != ".lock"} == before
    assert not (tmp_path / "d").exists()


@pytest.mark.parametrize("cmd", [["new", "--players", "athens,sparta"], ["demo", "--players", "2", "--turns", "0"]])
def test_a_campaign_under_a_file_is_refused_naming_the_file(tmp_path, cmd):
    (tmp_path / "f").write_text("mine")
    r = pbem(cmd[0], tmp_path / "f" / "sub" / "c", *cmd[1:])
    assert r.exit_code == 2 and "is a file, not a folder" in r.output and str(tmp_path / "f") in r.output
    assert len(r.output.strip().splitlines()) == 1
    assert (tmp_path / "f").read_text() == "mine"


def test_new_and_demo_in_the_current_folder(tmp_path, monkeypatch):
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    r = pbem("new", ".", "--players", "athens,sparta", "--seed", "2")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "here" / "state" / "turn-001.json").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["here"]  # no staging folder left
    (tmp_path / "demo").mkdir()
    monkeypatch.chdir(tmp_path / "demo")
    for n in (2, 3):  # a new demo, then one replacing it
        r = pbem("demo", ".", "--players", n, "--turns", "1", "--no-reports")
        assert r.exit_code == 0, r.output
        assert len(yamlio_load(tmp_path / "demo" / "campaign.yaml")["players"]) == n
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo", "here"]


def yamlio_load(path):
    from pbem import yamlio
    return yamlio.load(path).data


def test_bot_writes_no_live_secret(tmp_path):
    """The computer player's file for a human seat was printed with that player's real secret."""
    assert pbem("new", tmp_path / "c", "--players", "athens,sparta", "--seed", "11").exit_code == 0
    from pbem.storage import Campaign
    secret = Campaign.open(tmp_path / "c").player_secrets()["athens"]
    r = pbem("bot", tmp_path / "c", "athens")
    assert r.exit_code == 0 and "secret: withheld" in r.output and secret not in r.output
    from pbem.cycle import bot_file
    camp = Campaign.open(tmp_path / "c")  # the very file run-turn stores, so verify takes it as the computer's
    assert r.output == bot_file(camp, camp.load_state(), "athens").decode("utf-8")


def test_a_file_name_starting_with_a_dash_is_told_to_go_after_double_dash(tmp_path):
    """A moderator's review: `pbem submit CAMPAIGN -athens.yaml` answered `No such option: -a`, with no word of
    `--`; an unknown option that is no file name keeps click's words."""
    r = CliRunner().invoke(app, ["submit", str(tmp_path), "-athens.yaml"])
    assert r.exit_code == 2
    assert r.output.strip() == ("pbem: submit: -athens.yaml reads as an option: give a file whose name starts with a "
                                "dash after --, as in `pbem submit ... -- -athens.yaml`"), r.output
    r = CliRunner().invoke(app, ["submit", str(tmp_path), "--bogus"])
    assert r.exit_code == 2 and "No such option: --bogus" in r.output, r.output
