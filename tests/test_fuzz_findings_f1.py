"""Findings of the QA fuzzer (unusable input must get one line, exit code 2, and change or lose nothing): each
test here failed before its fix."""
import os
import shutil
from datetime import datetime, timezone

import pytest
from typer.testing import CliRunner

from pbem import yamlio
from pbem.campaign import create
from pbem.cli import app

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
runner = CliRunner()


def pbem(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def camp(tmp_path):
    return create(tmp_path / "camp", ["athens", "sparta", "troy"], seed="5", name="test").campaign


def order_text(camp, player, **body):
    data = {"campaign": "test", "turn": 1, "player": player, "secret": camp.player_secrets()[player], **body}
    return yamlio.dump(data).encode()


def files_of(root):
    """Every file under ``root`` with its bytes (the lock file aside)."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != ".lock"}


def one_line_exit_2(r, *words):
    assert r.exit_code == 2, r.output
    assert len(r.output.strip().splitlines()) == 1 and r.output.startswith("pbem: "), r.output
    for w in words:
        assert w in r.output, r.output


# -- 1. ingest moved the whole campaign folder into DROP/refused/ when the campaign sat inside the drop folder

def test_a_drop_folder_holding_the_campaign_is_refused_and_nothing_moves(camp, tmp_path):
    par = tmp_path / "par"
    par.mkdir()
    shutil.copytree(camp.root, par / "camp")
    (par / "athens.yaml").write_bytes(order_text(camp, "athens"))
    before = files_of(par)
    r = pbem("ingest", par / "camp", "--from", par)
    one_line_exit_2(r, "is inside the drop folder", "nothing was taken")
    assert files_of(par) == before


def test_a_drop_folder_holding_a_link_to_the_campaign_is_refused(camp, tmp_path):
    par = tmp_path / "par"
    par.mkdir()
    (par / "camp").symlink_to(camp.root)
    (par / "athens.yaml").write_bytes(order_text(camp, "athens"))
    r = pbem("ingest", par / "camp", "--from", par)
    one_line_exit_2(r, "is inside the drop folder")
    assert (par / "camp").is_symlink() and (par / "athens.yaml").is_file()


def test_another_campaign_folder_in_the_drop_folder_is_never_moved(camp, tmp_path):
    """Never moved nor answered, and said to the moderator; the players' files are taken all the same (a
    cheater's review: a folder holding a campaign.yaml, from a mail tool that unpacks archives say, stopped
    intake for everyone; it was refused whole, exit 2)."""
    drop = tmp_path / "drop"
    (drop / "stuff").mkdir(parents=True)
    shutil.copytree(camp.root, drop / "stuff" / "other")
    (drop / "athens.yaml").write_bytes(order_text(camp, "athens"))
    before = {k: v for k, v in files_of(drop).items() if k.startswith("stuff")}
    r = pbem("ingest", camp.root, "--from", drop)
    assert r.exit_code == 1, r.output
    assert f"warning: {drop / 'stuff' / 'other'} is a campaign folder: left in the drop folder" in r.output
    assert "ACCEPTED" in r.output and not (drop / "athens.yaml").exists()
    assert {k: v for k, v in files_of(drop).items() if k.startswith("stuff")} == before


# -- 2. a value its tag cannot make (`!!bool abc`) crashed every reader: PyYAML raised KeyError, IndexError...

@pytest.mark.parametrize("value, words", [
    ("!!bool abc", "!!bool 'abc' is not true or false"),
    ("!!bool 1", "!!bool '1' is not true or false"),
    ("!!int abc", "!!int 'abc' is not a whole number"),
    ("!!int +", "!!int '+' is not a whole number"),
    ("!!int 0x", "!!int '0x' is not a whole number"),
    ("!!float abc", "!!float 'abc' is not a number"),
    ("!!null abc", "!!null 'abc' is not empty"),
])
def test_a_value_its_tag_cannot_make_is_a_yaml_error_with_its_place(value, words):
    with pytest.raises(yamlio.YamlError) as exc:
        yamlio.parse(f"campaign: test\nturn: {value}\n", "o.yaml")
    assert str(exc.value).startswith("o.yaml:2:7: bad value: ") and words in str(exc.value)
    with pytest.raises(yamlio.YamlError, match=r"^o.yaml:1:1: bad value"):
        yamlio.parse(f"{value}: 1\n", "o.yaml")  # a key too


def test_good_tagged_values_still_read():
    assert yamlio.parse("a: !!bool yes\nb: !!int 1_0\nc: !!null ~\nd: !!float 1.5\ne: !!null\n", "o").data == \
        {"a": True, "b": 10, "c": None, "d": 1.5, "e": None}


def test_a_bad_tagged_value_is_answered_in_check_submit_and_ingest(camp, tmp_path):
    f = tmp_path / "athens.yaml"
    f.write_bytes(order_text(camp, "athens").replace(b"turn: 1", b"turn: !!bool abc"))
    r = pbem("check", f)
    assert r.exit_code == 2 and f"{f}:2:7: error: bad value: !!bool 'abc'" in r.output, r.output
    r = pbem("submit", camp.root, f)
    assert r.exit_code == 1 and "REFUSED" in r.output and "bad value" in r.output and isinstance(r.exception, SystemExit), r.output
    drop = tmp_path / "drop"
    drop.mkdir()
    shutil.copy(f, drop / "athens.yaml")
    r = pbem("ingest", camp.root, "--from", drop)
    assert r.exit_code == 1 and "bad value" in r.output and isinstance(r.exception, SystemExit), r.output
    # kept under the turn and its reply's name (a moderator's review: flat names showed neither turn nor player)
    assert (drop / "refused" / "turn-001" / "athens-002_athens.yaml").is_file() and not (drop / "athens.yaml").exists()


@pytest.mark.parametrize("name, command", [("campaign.yaml", "show"), ("map.yaml", "show"),
                                           ("secret/players.yaml", "seat")])
def test_a_bad_tagged_value_in_a_campaign_file_stops_the_command_with_its_place(camp, name, command):
    path = camp.root / name
    text = path.read_text()
    key = next(line.split(":")[0] for line in text.splitlines()
               if line.strip()[:1].isalpha() and ": " in line)  # the first key with a value: "name", "  athens"
    path.write_text(text.replace(f"{key}: ", f"{key}: !!bool abc\n{key.replace(key.strip(), '_was')}: ", 1))
    before = files_of(camp.root)
    r = pbem(command, camp.root, *(["athens", "bot", "--reason", "r"] if command == "seat" else []))
    one_line_exit_2(r, f"{path}:", "bad value: !!bool 'abc'")
    assert files_of(camp.root) == before


# -- 3. `pbem check` crashed (UnicodeEncodeError, exit 1) printing a lone surrogate from a value

@pytest.mark.parametrize("value, shown", [("\\ud800x", "\\ud800x"), ("\\x1b[31mx\\u202e", "\\x1b[31mx\\u202e")])
def test_check_prints_unprintable_characters_of_a_value_escaped(tmp_path, value, shown):
    import json
    import subprocess
    import sys
    f = tmp_path / "o.yaml"
    f.write_text(f'campaign: test\nturn: 1\nplayer: athens\nsecret: x\ndiplomacy: ["{value}"]\n')
    for fmt in ("text", "json"):  # a process of its own: stdout as a terminal or pipe encodes it, strict UTF-8
        r = subprocess.run([sys.executable, "-m", "pbem", "check", str(f), "--format", fmt], capture_output=True)
        assert r.returncode == 1 and b"Traceback" not in r.stderr and r.stderr == b"", r.stderr
        out = r.stdout.decode("utf-8")
        assert out.isascii(), out
        if fmt == "text":
            assert f"'{shown}' is not a city id" in out, out
        else:
            found = json.loads(out)["findings"]
            assert any(value.encode().decode("unicode_escape") in x["message"] for x in found), found


# -- 4. deadlines and gold changes: digits of other scripts, years out of range, dates pbem cannot store

@pytest.mark.parametrize("when, words", [
    ("+²d", "write a date like"), ("+٣d", "write a date like"), ("+٣h", "write a date like"),
    ("0001-01-01T00:00+01:00", "the year must be between 2000 and 2999"),
    ("9999-12-31T23:59-01:00", "the year must be between 2000 and 2999"),
    ("0999-06-01", "the year must be between 2000 and 2999"),
    ("3000-01-01", "the year must be between 2000 and 2999"),
    ("20261201", "write a date like 2026-12-01"),  # compact: refused, not taken as 00:00
    ("２０２６-12-01", "write a date like"),
    ("+99999999d", "too far in the future"),
    ("+" + "9" * 5000 + "d", "too far in the future"),
])
def test_a_deadline_pbem_cannot_take_is_one_line_and_changes_nothing(camp, when, words):
    before = files_of(camp.root)
    r = pbem("deadline", camp.root, when)
    one_line_exit_2(r, words)
    assert files_of(camp.root) == before


@pytest.mark.parametrize("when, stored", [
    ("2026-12-01", "2026-12-01T23:59Z"), ("2026-12-01T18:00", "2026-12-01T18:00Z"),
    ("2026-12-01 18:00 UTC", "2026-12-01T18:00Z"), ("2026-12-01T18:00+01:00", "2026-12-01T17:00Z"),
    ("2026-12-01T18:00:30Z", "2026-12-01T18:00Z"), ("2999-12-31", "2999-12-31T23:59Z"),
])
def test_every_deadline_taken_is_stored_so_that_pbem_reads_it_back(camp, when, stored):
    r = pbem("deadline", camp.root, when)
    assert r.exit_code == 0, r.output
    assert yamlio.load(camp.root / "campaign.yaml").data["deadline"] == stored
    assert pbem("status", camp.root).exit_code == 0


def test_a_far_deadline_an_older_pbem_stored_is_still_read(camp):
    """Found by a code review: `pbem deadline DIR 9999-12-31` (a moderator pausing a game) was stored by the pbem
    of yesterday; today's year range refused it on reading, and status, submit and run-turn all stopped.  The
    range is for what a moderator types; what pbem stored is read back."""
    path = camp.root / "campaign.yaml"
    path.write_text(path.read_text().replace("deadline: null", "deadline: '9999-12-31T23:59Z'"))
    r = pbem("status", camp.root)
    assert r.exit_code == 0 and "9999-12-31 23:59 UTC" in r.output, r.output


@pytest.mark.parametrize("when, stored", [
    ("2026-12-01T18", "2026-12-01T18:00Z"), ("2026-12-01t18:00", "2026-12-01T18:00Z"),
    ("2026-12-01T18:00:00,5", "2026-12-01T18:00Z"), ("2026-12-01T18:00z", "2026-12-01T18:00Z"),
])
def test_iso_forms_an_older_pbem_took_are_still_taken(camp, when, stored):
    """A code review found forms Python's ISO reader took before today refused (an hour alone, a lower-case t,
    a decimal comma); each is an ISO 8601 time a moderator may paste."""
    r = pbem("deadline", camp.root, when)
    assert r.exit_code == 0, r.output
    assert yamlio.load(camp.root / "campaign.yaml").data["deadline"] == stored


@pytest.mark.parametrize("written", ["0001-01-01T00:00+01:00", "9999-12-31T23:59-01:00", "0999-06-01T23:59Z"])
def test_an_unusable_deadline_typed_into_campaign_yaml_stops_status_and_submit_with_one_line(camp, tmp_path, written):
    path = camp.root / "campaign.yaml"
    path.write_text(path.read_text().replace("deadline: null", f"deadline: '{written}'"))
    f = tmp_path / "athens.yaml"
    f.write_bytes(order_text(camp, "athens"))
    before = files_of(camp.root)
    for args in (["status", camp.root], ["submit", camp.root, f]):
        one_line_exit_2(pbem(*args), f"{path}: deadline '{written}'", "fix it with `pbem deadline`")
    assert files_of(camp.root) == before


@pytest.mark.parametrize("gold, words", [("athens=+²", "with its sign"), ("athens=-٣", "with its sign"),
                                         ("athens=+" + "9" * 5000, "too large")])
def test_a_gold_change_in_other_digits_or_too_long_is_one_line(camp, gold, words):
    before = files_of(camp.root)
    one_line_exit_2(pbem("adjust", camp.root, "--reason", "r", "--gold", gold), "--gold", words)
    assert files_of(camp.root) == before


# -- 5. bot -o and archive -o replaced FIFOs, devices and links with a plain file, and said "written"

def specials(tmp_path):
    fifo, target, link = tmp_path / "fifo1", tmp_path / "target1", tmp_path / "link1"
    os.mkfifo(fifo)
    target.write_text("mine")
    link.symlink_to(target)
    return {fifo: "is not a regular file", link: "is a link"}


@pytest.mark.parametrize("command", [["bot", "{c}", "athens"], ["archive", "{c}", "--force"]])
def test_an_output_that_is_not_a_plain_file_is_refused_and_left_alone(camp, tmp_path, command):
    import stat
    for path, words in specials(tmp_path).items():
        before = files_of(camp.root)
        r = pbem(*[a.format(c=camp.root) for a in command], "-o", path)
        one_line_exit_2(r, str(path), words)
        assert files_of(camp.root) == before
    assert stat.S_ISFIFO(os.lstat(tmp_path / "fifo1").st_mode) and (tmp_path / "link1").is_symlink()
    assert (tmp_path / "target1").read_text() == "mine"


def test_bot_prints_with_dash_and_replaces_a_file_only_with_force(camp, tmp_path):
    r = pbem("bot", camp.root, "athens", "-o", "-")
    assert r.exit_code == 0 and r.output.startswith("# written by the computer player\ncampaign: test"), r.output
    out = tmp_path / "athens.yaml"
    out.write_text("edited by the moderator")
    one_line_exit_2(pbem("bot", camp.root, "athens", "-o", out), "exists already", "--force")
    assert out.read_text() == "edited by the moderator"
    r = pbem("bot", camp.root, "athens", "-o", out, "--force")
    assert r.exit_code == 0 and out.read_text().startswith("# written by the computer player"), r.output
    one_line_exit_2(pbem("archive", camp.root, "-o", "-"), "-o -", "name the file")
    assert not (camp.root.parent / "-").exists()


@pytest.mark.parametrize("dash", [[], ["-o", "-"]])
def test_bot_force_without_a_file_to_replace_is_refused(camp, dash):
    # --force replaces the -o file; with the orders printed it would be taken and do nothing (was accepted silently)
    one_line_exit_2(pbem("bot", camp.root, "athens", *dash, "--force"), "--force goes with -o FILE")


def test_bot_says_when_its_printed_orders_could_not_be_written(camp, monkeypatch, capsys):
    import errno
    import sys

    import typer
    from pbem import cli

    class Full:
        def write(self, text):
            raise OSError(errno.ENOSPC, "No space left on device")

        def flush(self):
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(sys, "stdout", Full())
    with pytest.raises(typer.Exit) as exc:
        cli.bot(camp.root, "athens", None, False)
    assert exc.value.exit_code == 2
    err = capsys.readouterr().err
    assert err == "pbem: standard output: No space left on device; the orders were not written whole\n", err


# -- 6. a damaged campaign file was blamed on the player: "REFUSED ... the order checker found 1 error(s)"

@pytest.mark.parametrize("damage, words", [
    (lambda c: (c.root / "map.yaml").unlink(), "map.yaml: no such file"),
    (lambda c: (c.root / "map.yaml").write_text("- 1\n"), "map.yaml:1"),
    (lambda c: (c.root / "secret" / "players.yaml").write_text("- 1\n"), "players.yaml"),
])
def test_a_damaged_campaign_file_stops_submit_and_ingest_and_nothing_is_written_or_moved(camp, tmp_path, damage,
                                                                                         words):
    f = tmp_path / "athens.yaml"
    f.write_bytes(order_text(camp, "athens"))
    damage(camp)
    drop = tmp_path / "drop"
    drop.mkdir()
    (drop / "athens.yaml").write_bytes(f.read_bytes())
    (drop / ".hidden.yaml").write_bytes(b"x")  # refused whatever the campaign: not even this one is answered
    before, dropped = files_of(camp.root), files_of(drop)
    one_line_exit_2(pbem("submit", camp.root, f), words)
    one_line_exit_2(pbem("ingest", camp.root, "--from", drop), words)
    assert files_of(camp.root) == before and files_of(drop) == dropped
    assert sorted(p.name for p in drop.iterdir()) == [".hidden.yaml", "athens.yaml"]


# -- 7. an option repeated for the same thing: the last one won silently

@pytest.mark.parametrize("args, words", [
    (["--gold", "athens=+1", "--gold", "athens=+2"], "--gold athens is given twice"),
    (["--move", "ATH-A1=1313", "--move", "ATH-A1=1212"], "--move ATH-A1 is given twice"),
    (["--remove", "ATH-A1", "--remove", "ATH-A1"], "--remove ATH-A1 is given twice"),
    (["--control", "megara=athens", "--control", "megara=neutral"], "--control megara is given twice"),
])
def test_adjust_refuses_the_same_thing_given_twice(camp, args, words):
    before = files_of(camp.root)
    one_line_exit_2(pbem("adjust", camp.root, "--reason", "r", *args), words)
    assert files_of(camp.root) == before


def test_new_refuses_an_option_given_twice(tmp_path):
    r = pbem("new", tmp_path / "c", "--players", "athens,sparta", "--option", "last_turn=1", "--option", "last-turn=2")
    one_line_exit_2(r, "--option last_turn is given twice")
    assert not (tmp_path / "c").exists()


# -- 8. smaller: headers the checker reads and intake did not, file names, a file for a campaign folder, --format

@pytest.mark.parametrize("header", ['"secret": {s}', "'secret' : {s}", '"secret": "{s}"'])
def test_a_header_key_in_quotes_is_read_as_the_checker_reads_it(camp, header):
    from pbem.intake import submit_bytes
    raw = order_text(camp, "athens")
    secret = camp.player_secrets()["athens"]
    raw = raw.replace(f"secret: {secret}".encode(), header.format(s=secret).encode())
    a = submit_bytes(camp, raw, "athens.yaml", NOW)
    assert a.accepted, a.text()
    assert secret.encode() not in (camp.orders_dir(1) / "athens.yaml").read_bytes()


def test_an_explicit_header_key_is_refused_saying_what_to_write(camp):
    from pbem.intake import submit_bytes
    secret = camp.player_secrets()["athens"]
    raw = order_text(camp, "athens").replace(f"secret: {secret}".encode(), f"? secret\n: {secret}".encode())
    a = submit_bytes(camp, raw, "athens.yaml", NOW)
    assert not a.accepted and "`? secret`, an explicit key, on line 4: write the key plainly" in a.text(), a.text()
    assert "no secret" not in a.text()


@pytest.mark.parametrize("end", ["\r", "\x85", "\u2028", "\u2029", "\r\n"])
def test_files_with_other_line_ends_are_taken_as_the_checker_takes_them(camp, tmp_path, end):
    from pbem.intake import submit_bytes
    raw = order_text(camp, "athens", diplomacy=["megara"]).decode().replace("\n", end).encode()
    f = tmp_path / "athens.yaml"
    f.write_bytes(raw)
    assert pbem("check", f, "--campaign", camp.root).exit_code == 0
    a = submit_bytes(camp, raw, "athens.yaml", NOW)
    assert a.accepted, a.text()
    stored = (camp.orders_dir(1) / "athens.yaml").read_bytes()
    assert camp.player_secrets()["athens"].encode() not in stored and b"secret: withheld" in stored


def test_a_file_name_that_is_not_utf8_is_called_so(camp):
    from pbem.intake import submit_bytes
    a = submit_bytes(camp, order_text(camp, "athens"), b"sp\xffarta.yaml".decode("utf-8", "surrogateescape"), NOW)
    assert not a.accepted and "the file name is not UTF-8 text (it holds the byte 0xff)" in a.text(), a.text()
    assert "control character" not in a.text()


@pytest.mark.parametrize("command", [["show"], ["status"], ["adjust", "--reason", "r", "--gold", "athens=+1"]])
def test_a_file_given_for_a_campaign_folder_is_called_a_file(tmp_path, command):
    f = tmp_path / "passwd"
    f.write_text("root:x:0:0\n")
    one_line_exit_2(pbem(command[0], f, *command[1:]), f"{f}: is a file, not a campaign folder")
    assert f.read_text() == "root:x:0:0\n"


def test_check_against_a_file_for_a_campaign_and_an_unknown_format(tmp_path):
    import json
    f = tmp_path / "passwd"
    f.write_text("root:x:0:0\n")
    orders = tmp_path / "o.yaml"
    orders.write_text("campaign: test\nturn: 1\nplayer: athens\nsecret: x\n")
    r = pbem("check", orders, "--campaign", f)
    assert r.exit_code == 2 and f"{f}: is a file, not a campaign folder" in r.output, r.output
    r = pbem("check", orders, "--campaign", f, "--format", "json")
    assert r.exit_code == 2 and "is a file, not a campaign folder" in json.loads(r.output)["findings"][0]["message"]
    one_line_exit_2(pbem("check", orders, "--format", "xml"), "--format 'xml': write text or json")


def test_a_closed_pipe_is_quiet_and_not_called_a_file_that_cannot_be_used(capsys):
    """`pbem new ... | head -1` said `pbem: a file: Broken pipe`, exit 2: BrokenPipeError is an OSError, and
    the OSError branch came first."""
    import typer
    from pbem.cli import guarded

    def body():
        raise BrokenPipeError(32, "Broken pipe")
    with pytest.raises(typer.Exit) as exc:
        guarded(body)
    assert exc.value.exit_code == 0 and capsys.readouterr().err == ""


@pytest.mark.parametrize("command", ["bot", "archive"])
def test_a_full_disk_is_named_and_never_reported_as_written(camp, tmp_path, monkeypatch, command):
    import errno
    real_fsync = os.fsync

    def full(fd):
        if os.path.realpath(f"/proc/self/fd/{fd}").startswith(str(tmp_path / "out")):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_fsync(fd)
    monkeypatch.setattr(os, "fsync", full)
    (tmp_path / "out").mkdir()
    out = tmp_path / "out" / "f"
    args = ["bot", camp.root, "athens", "-o", out] if command == "bot" else ["archive", camp.root, "-o", out]
    r = pbem(*args)
    one_line_exit_2(r, f"{out}: cannot be written (No space left on device)")
    assert "written to" not in r.output and "Archived" not in r.output
    assert list((tmp_path / "out").iterdir()) == []  # no temporary file left either


def test_a_campaign_folder_deep_in_a_drop_folders_tree_is_not_looked_for(tmp_path):
    """A code review: a folder holding a campaign.yaml is never moved, so it stays, and its whole tree was walked
    at every ingest.  Only the first three levels are looked at."""
    from pbem.intake import holds_campaign
    entry = tmp_path / "x"
    (entry / "a" / "b").mkdir(parents=True)
    (entry / "a" / "b" / "campaign.yaml").write_text("name: x\\n")
    assert holds_campaign(entry) == entry / "a" / "b"
    deep = tmp_path / "y" / "a" / "b" / "c" / "d"
    deep.mkdir(parents=True)
    (deep / "campaign.yaml").write_text("name: y\\n")
    assert holds_campaign(tmp_path / "y") is None
