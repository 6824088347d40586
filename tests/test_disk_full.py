"""A disk that fills up while a command writes (a moderator's review: a campaign on a 3 MB tmpfs): a turn is
committed whole, with its next deadline, or not at all; a player's file is stored whole, the one accepted before
kept, or nothing changes; an answer that is given is shown even when its reply cannot be kept; and every such
error names the file it failed on, relative to the campaign folder (R-TURN-5: the turn runs at its deadline, so a
committed turn must never carry the deadline of the turn before it).

The disk is simulated, in one of these ways (``Disk.how``): from the n-th file pbem writes, every write fails
with ENOSPC and the error names no file, as a full tmpfs's does, either where the file is flushed to the disk
(``fsync``) or in ``os.write`` itself, after a short write (``write``: the n-th write puts only half its bytes on
the disk, the next one fails); or the n-th second name of a file (``link``, a hard link) finds the disk full, and
so does every file after it; or the n-th rename (``rename``) needs a folder block the disk no longer has."""
import errno
import os
import re
import stat

import pytest

from cyc_common import audit, order_text, pbem, three_players, tree
from pbem.cycle import changed_by_hand
from pbem.storage import Campaign

FULL = "No space left on device"


class Disk:
    """``fill_at(n)``: the n-th file written from now on (as ``how`` counts them), and every one after it, finds
    the disk full; ``free()`` makes room again."""

    def __init__(self, how: str = "fsync", root=None):
        self.how, self.root = how, root
        self.full_at: int | None = None
        self.written = 0
        self.filled = False  # (``link``: full from the link that failed on)

    def fill_at(self, n: int) -> None:
        self.full_at, self.written, self.filled = n, 0, False

    def free(self) -> None:
        self.full_at, self.filled = None, False

    def count(self, how: str) -> int | None:
        """One more of ``how`` (when it is what this disk counts): its number, None if it is not counted."""
        if how != self.how or self.full_at is None:
            return None
        self.written += 1
        return self.written

    def install(self, monkeypatch) -> "Disk":
        real_fsync, real_write, real_link, real_rename, real_replace = (os.fsync, os.write, os.link, os.rename,
                                                                         os.replace)
        disk = self

        def full():
            return OSError(errno.ENOSPC, FULL)

        def regular(fd):  # a file's bytes (a folder's entries need no room)
            return stat.S_ISREG(os.fstat(fd).st_mode)

        def fsync(fd):
            if regular(fd):
                n = disk.count("fsync")
                if n is not None and n >= disk.full_at or disk.filled:
                    raise full()
            return real_fsync(fd)

        def write(fd, data):
            if regular(fd):
                n = disk.count("write")
                if n is not None and n > disk.full_at:
                    raise full()
                if n is not None and n == disk.full_at:
                    return real_write(fd, bytes(data)[:len(data) // 2])  # a short write: the disk fills up
            return real_write(fd, data)

        def link(src, dst, *args, **kwargs):
            n = disk.count("link")
            if n is not None and n >= disk.full_at:
                disk.filled = True  # no room for a link: none for a copy either
                raise full()
            return real_link(src, dst, *args, **kwargs)

        def renamer(real):
            def rename(src, dst, *args, **kwargs):
                inside = disk.root is not None and os.path.abspath(dst).startswith(str(disk.root))
                n = disk.count("rename") if inside else None
                if n is not None and n == disk.full_at:  # this one only: the renames after it need no room
                    raise full()
                return real(src, dst, *args, **kwargs)
            return rename
        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(os, "write", write)
        monkeypatch.setattr(os, "link", link)
        monkeypatch.setattr(os, "rename", renamer(real_rename))
        monkeypatch.setattr(os, "replace", renamer(real_replace))
        monkeypatch.setenv("PBEM_WORKERS", "1")  # the reports are written in this process, on this disk
        return self


@pytest.fixture(params=["fsync", "write"])
def disk(request, monkeypatch, tmp_path):
    return Disk(request.param, tmp_path).install(monkeypatch)


@pytest.fixture
def camp(tmp_path):
    return three_players(tmp_path)


def said(r) -> str:
    """The error line a failed command ends with; it names the file it failed on relative to the campaign
    folder, never `a file` (a moderator's review: `pbem: a file: No space left on device`)."""
    line = r.output.strip().splitlines()[-1]
    assert re.match(rf"pbem: (state|log|orders|replies|reports|campaign\.yaml|audit\.log|revealed-seed\.txt)[^:]*: "
                    rf"{FULL}", line), \
        r.output
    return line


def deadline_in(camp) -> str | None:
    return Campaign.open(camp.root).config.get("deadline")


def test_a_turn_is_committed_with_its_next_deadline_or_not_at_all(camp, disk):
    """The review: turn 2 was committed, campaign.yaml could not take the next deadline, and the next cron
    `run-turn` ran turn 3 at once with every player NMR (R-TURN-5)."""
    assert pbem("deadline", camp.root, "2026-01-01").exit_code == 0  # passed: the turn is due
    before = tree(camp.root)
    failures = []
    n = 0
    while True:
        n += 1
        disk.fill_at(n)
        r = pbem("run-turn", camp.root, "--no-reports")  # as cron runs it
        disk.free()
        if r.exit_code == 0:
            break
        assert r.exit_code == 2, r.output
        assert tree(camp.root) == before, f"disk full at write {n}: the campaign changed\n{r.output}"
        assert "Due: yes" in pbem("status", camp.root).output
        failures.append(r)
    assert n > 3  # the log, the snapshot, campaign.yaml and audit.log were each refused in turn
    for r in failures:
        assert said(r).endswith("game turn 1 was not run and nothing was changed: fix that (free some space), then "
                                "run it again"), r.output
    assert Campaign.open(camp.root).current_turn == 2
    assert deadline_in(camp) > "2026-01-02", "turn 2 carries turn 1's deadline"
    assert "Due: not yet" in pbem("status", camp.root).output
    log = audit(camp)
    assert log.count("adjudicated turn 1") == 1 and "deadline of turn 2 set to" in log and "run-turn 1\n" in log
    r = pbem("verify", camp.root)
    assert r.exit_code == 0, r.output


def test_adjudicate_clears_the_deadline_with_the_turn_or_not_at_all(camp, disk):
    assert pbem("deadline", camp.root, "2026-01-01").exit_code == 0
    before = tree(camp.root)
    disk.fill_at(3)  # the log and the snapshot are written; campaign.yaml without the deadline is not
    r = pbem("adjudicate", camp.root)
    disk.free()
    assert r.exit_code == 2 and tree(camp.root) == before, r.output
    assert said(r).startswith(f"pbem: campaign.yaml: {FULL}; game turn 1 was not run"), r.output
    disk.fill_at(4)  # audit.log cannot take the turn's lines: campaign.yaml is put back as it was
    r = pbem("adjudicate", camp.root)
    disk.free()
    assert r.exit_code == 2 and tree(camp.root) == before, r.output
    assert said(r).startswith(f"pbem: audit.log: {FULL}; game turn 1 was not run"), r.output
    r = pbem("adjudicate", camp.root)
    assert r.exit_code == 0 and deadline_in(camp) is None, r.output


def test_reports_that_find_the_disk_full_say_the_turn_is_committed_and_name_the_file(camp, disk):
    disk.fill_at(5)  # the turn's four files are written; its first report is not
    r = pbem("run-turn", camp.root, "--force")
    disk.free()
    assert r.exit_code == 2, r.output
    line = r.output.strip().splitlines()[-1]
    assert re.match(rf"pbem: turn 1 is committed, but its reports could not be written \(reports/turn-001/\S+: "
                    rf"{FULL}\); fix that, then run `pbem report ", line), r.output
    assert Campaign.open(camp.root).current_turn == 2 and deadline_in(camp) is not None


def submit(camp, tmp_path, player, name, comment=b"", secret=True):
    f = tmp_path / name
    text = order_text(camp, player, 1, comment)
    if not secret:
        text = text.replace(camp.player_secrets()[player].encode(), b"not-the-secret")
    f.write_bytes(text)
    return pbem("submit", camp.root, f)


def test_a_replacement_file_on_a_full_disk_keeps_the_file_accepted_before(camp, disk, tmp_path):
    """The review: orders/turn-002/ held athens.v1.yaml and no athens.yaml; status said athens `not in`, and
    `run-turn --force` accused the moderator of removing it by hand."""
    assert submit(camp, tmp_path, "athens", "first.yaml").exit_code == 0
    first = (camp.orders_dir(1) / "athens.yaml").read_bytes()
    before = tree(camp.root)
    for n in (1, 2):  # the new file, then its audit line: either refused, nothing changes
        disk.fill_at(n)
        r = submit(camp, tmp_path, "athens", "second.yaml", b"# second thoughts\n")
        disk.free()
        assert r.exit_code == 2, r.output
        assert (camp.orders_dir(1) / "athens.yaml").read_bytes() == first, r.output
        assert tree(camp.root) == before, f"disk full at write {n}"
        assert "athens  human  in" in pbem("status", camp.root).output
        assert changed_by_hand(Campaign.open(camp.root)) is None
        where = "orders/turn-001/athens.yaml" if n == 1 else "audit.log"
        assert said(r) == (f"pbem: {where}: {FULL}; second.yaml was not stored and nothing was changed (the file "
                           f"accepted before, if any, is still the one that counts): fix that, then give it again")
    disk.fill_at(3)  # stored and audited; its reply is not kept
    r = submit(camp, tmp_path, "athens", "second.yaml", b"# second thoughts\n")
    disk.free()
    assert r.exit_code == 2, r.output
    assert "ACCEPTED: second.yaml for athens, game turn 1\nstored as version 2" in r.output, r.output
    assert said(r) == (f"pbem: replies/turn-001/athens-002.txt: {FULL}: the answer to second.yaml (printed above) "
                       f"could not be kept for the player; the file was accepted and stored all the same: send that "
                       f"answer yourself")
    assert (camp.orders_dir(1) / "athens.v1.yaml").read_bytes() == first
    assert (camp.orders_dir(1) / "athens.yaml").read_bytes().endswith(b"# second thoughts\n")
    assert "intake accepted second.yaml for athens turn 1" in audit(camp)
    r = pbem("run-turn", camp.root, "--force", "--no-reports")
    assert r.exit_code == 0, r.output


def test_a_refused_file_on_a_full_disk_is_still_answered(camp, disk, tmp_path):
    """The review: with 0 KB free a refused file was audited `intake refused` and no reply kept, and the
    moderator saw no answer."""
    before = tree(camp.root)
    disk.fill_at(1)  # audit.log cannot take the refusal: nothing changes
    r = submit(camp, tmp_path, "sparta", "sparta.yaml", secret=False)
    disk.free()
    assert r.exit_code == 2 and said(r).startswith(f"pbem: audit.log: {FULL}"), r.output
    assert tree(camp.root) == before
    disk.fill_at(2)  # audited; the reply is not kept
    r = submit(camp, tmp_path, "sparta", "sparta.yaml", secret=False)
    disk.free()
    assert r.exit_code == 2, r.output
    assert "REFUSED: sparta.yaml\na wrong secret for sparta" in r.output, r.output
    assert said(r) == (f"pbem: replies/turn-001/unknown-001.txt: {FULL}: the answer to sparta.yaml (printed above) "
                       f"could not be kept for the player; the file was refused (nothing changed) all the same: send "
                       f"that answer yourself")
    assert "intake refused sparta.yaml: a wrong secret for sparta" in audit(camp)


def test_ingest_on_a_full_disk_shows_the_answers_given_and_leaves_the_file_to_answer_again(camp, disk, tmp_path):
    drop = tmp_path / "drop"
    drop.mkdir()
    (drop / "athens.yaml").write_bytes(order_text(camp, "athens"))
    disk.fill_at(3)  # the file and its audit line are written; its reply is not
    r = pbem("ingest", camp.root, "--from", drop)
    disk.free()
    assert r.exit_code == 2, r.output
    assert "ACCEPTED: athens.yaml for athens, game turn 1" in r.output, r.output
    assert said(r).endswith("send that answer yourself; athens.yaml stays in the drop folder, and the next ingest "
                            "answers it again"), r.output
    assert (drop / "athens.yaml").is_file() and (camp.orders_dir(1) / "athens.yaml").is_file()
    disk.fill_at(2)  # the next ingest: answered (nothing new stored) and replied; the copy it keeps is not written
    r = pbem("ingest", camp.root, "--from", drop)
    disk.free()
    assert r.exit_code == 2, r.output
    assert "ACCEPTED (already accepted before: nothing changed): athens.yaml" in r.output, r.output
    assert re.search(rf"pbem: \S+/drop/accepted/turn-001/athens-001_athens.yaml: {FULL}: athens.yaml was answered "
                     rf"\(the answer is printed above and kept as replies/turn-001/athens-001.txt\), but could not be "
                     rf"moved out of the drop folder", r.output), r.output
    r = pbem("ingest", camp.root, "--from", drop)
    assert r.exit_code == 0 and not (drop / "athens.yaml").exists(), r.output
    assert audit(camp).count("intake accepted") == 1


def test_an_audit_line_the_disk_cannot_take_leaves_no_part_of_it(camp, disk):
    """A line cut short where the disk filled up could read as a whole one (`adjudicated turn 1` without a
    turn behind it): none of it stays."""
    size = (camp.root / "audit.log").stat().st_size
    disk.fill_at(1)
    with pytest.raises(OSError) as err:
        camp.audit("deadline of turn 1 set to 2026-12-01 00:00 UTC")
    disk.free()
    assert err.value.errno == errno.ENOSPC and err.value.filename == str(camp.root / "audit.log")
    assert (camp.root / "audit.log").stat().st_size == size


def test_a_first_file_the_disk_cannot_take_leaves_nothing(camp, disk, tmp_path):
    before = tree(camp.root)
    disk.fill_at(1)
    r = submit(camp, tmp_path, "troy", "troy.yaml")
    disk.free()
    assert r.exit_code == 2 and tree(camp.root) == before and not camp.orders_dir(1).exists(), r.output
    assert said(r).startswith(f"pbem: orders/turn-001/troy.yaml: {FULL}; troy.yaml was not stored"), r.output
    assert "troy    human  not in" in pbem("status", camp.root).output


def run_turn_1(camp):
    r = pbem("run-turn", camp.root, "--force", "--no-reports")
    assert r.exit_code == 0, r.output


# a command that changes the campaign, what it needs done first, and the audit line it is recorded with
CHANGES = {
    "deadline": (None, ("deadline", "2026-12-24"), "deadline of turn 1 set to 2026-12-24 23:59 UTC"),
    "seat": (None, ("seat", "athens", "bot", "--reason", "gone"), "seat of athens set to bot"),
    "adjust": (None, ("adjust", "--reason", "lost gold", "--gold", "athens=+1"), "adjust turn 1 (athens gold +1"),
    "rollback": (run_turn_1, ("rollback", "1", "--reason", "misfiled"), "rollback to turn 1 (undone: the run of"),
    "run-turn": (None, ("run-turn", "--force", "--no-reports"), "run-turn 1 (forced)"),
}


def changes_whole_or_not_at_all(camp, disk, name):
    """``CHANGES[name]`` run with the disk full from each write in turn: refused with one line that says nothing
    was changed, and the campaign as it was; then, with room for it, the change made whole, with its audit line,
    and `pbem verify` finds nothing wrong."""
    first, args, line = CHANGES[name]
    if first:
        first(camp)
    before = tree(camp.root)
    n = 0
    while True:
        n += 1
        disk.fill_at(n)
        r = pbem(args[0], camp.root, *args[1:])
        disk.free()
        if r.exit_code == 0:
            break
        assert r.exit_code == 2, r.output
        assert tree(camp.root) == before, f"{name}: disk full at write {n}: the campaign changed\n{r.output}"
        last = r.output.strip().splitlines()[-1]
        assert FULL in last and re.search(r"nothing was (changed|rolled back|run)|was not run and nothing", last), \
            r.output
        assert line not in audit(camp)
    assert n > 1, f"{name}: no write failed"
    assert tree(camp.root) != before and line in audit(camp), r.output
    r = pbem("verify", camp.root)
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("name", ["deadline", "seat", "adjust", "rollback"])
def test_a_change_and_its_audit_line_are_made_together_on_a_full_disk(camp, disk, name):
    """A code review: on a full disk `pbem deadline` left the new deadline in campaign.yaml and no line in
    audit.log (whose deadline lines a rollback gives a turn back, R-TURN-5), and said only `audit.log: No space
    left on device`; `seat` a new secret with no record; `adjust` a changed snapshot."""
    changes_whole_or_not_at_all(camp, disk, name)


@pytest.mark.parametrize("name", sorted(CHANGES))
@pytest.mark.parametrize("how", ["link", "rename"])
def test_a_link_or_a_rename_that_finds_the_disk_full_changes_nothing(camp, monkeypatch, tmp_path, name, how):
    """A hard link (the old file kept under a second name) needs a folder entry, and a rename into a new name may
    need a folder block: either can find the disk full, before the change is in place."""
    changes_whole_or_not_at_all(camp, Disk(how, tmp_path).install(monkeypatch), name)


def odd_name(camp, stem="FAKE"):
    """A file name a player chose: his secret in it, then a newline and a terminal's escape code."""
    return f"orders {camp.player_secrets()['athens']}\n\x1b[31m{stem}.yaml"


def shown_safely(camp, r, line_ends: str) -> None:
    """No secret and no control character reaches the moderator's terminal; the error is one line ending so."""
    assert camp.player_secrets()["athens"] not in r.output and "\x1b" not in r.output, r.output
    assert r.output.strip().splitlines()[-1].endswith(line_ends), r.output


def test_a_drop_file_named_after_a_secret_is_named_withheld_and_on_one_line(camp, disk, tmp_path):
    """A code review: the drop file's raw name stood in the error of a reply that could not be kept (`... stays in
    the drop folder`): a secret in it shown, a newline breaking the one line, an ESC sent to the terminal."""
    drop = tmp_path / "drop"
    drop.mkdir()
    (drop / odd_name(camp)).write_bytes(order_text(camp, "athens"))
    disk.fill_at(2)  # refused (its name) and audited; its reply is not kept
    r = pbem("ingest", camp.root, "--from", drop)
    disk.free()
    assert r.exit_code == 2, r.output
    shown_safely(camp, r, r"orders withheld\n\x1b[31mFAKE.yaml stays in the drop folder, and the next ingest "
                          r"answers it again")


def test_a_drop_file_that_cannot_be_moved_out_is_named_withheld_and_on_one_line(camp, monkeypatch, tmp_path):
    """The same review: a file ingest moves as it is (too big to be read) and cannot move (a full disk) was named
    by its raw path in the drop folder."""
    from pbem.intake import MAX_ORDER_BYTES
    drop = tmp_path / "drop"
    drop.mkdir()
    (drop / odd_name(camp, "BIG")).write_bytes(b"#" * (MAX_ORDER_BYTES + 1))
    disk = Disk("rename", tmp_path).install(monkeypatch)
    disk.fill_at(2)  # the reply is kept (a rename); the file cannot be moved to refused/
    r = pbem("ingest", camp.root, "--from", drop)
    disk.free()
    assert r.exit_code == 2, r.output
    shown_safely(camp, r, r"stays in the drop folder, and the next ingest answers it again")
    assert re.search(rf"^pbem: \S+/drop/orders withheld\\n\\x1b\[31mBIG\.yaml: {FULL}: orders withheld\\n\\x1b\[31m"
                     rf"BIG\.yaml was answered", r.output, re.M), r.output


def test_files_a_full_disk_kept_submit_from_are_named_as_not_taken(camp, disk, tmp_path):
    """A code review: `submit f1 f2 f3` whose reply to f1 could not be kept stopped there, and said nothing of
    f2 and f3, which were never answered."""
    files = []
    for player in ("athens", "sparta", "troy"):
        files.append(tmp_path / (odd_name(camp, player) if player == "troy" else f"{player}.yaml"))
        files[-1].write_bytes(order_text(camp, player))
    disk.fill_at(3)  # athens.yaml stored and audited; its reply is not kept
    r = pbem("submit", camp.root, *files)
    disk.free()
    assert r.exit_code == 2, r.output
    assert "ACCEPTED: athens.yaml for athens" in r.output and "accepted sparta" not in audit(camp), r.output
    shown_safely(camp, r, rf"send that answer yourself; {tmp_path}/sparta.yaml, {tmp_path}/orders withheld\n"
                          rf"\x1b[31mtroy.yaml were not taken (not answered, nothing changed): give them to `pbem "
                          rf"submit` again")
    disk.fill_at(1)  # sparta.yaml cannot be stored: troy's file is not taken either
    r = pbem("submit", camp.root, *files[1:])
    disk.free()
    assert r.exit_code == 2 and "accepted sparta" not in audit(camp), r.output
    shown_safely(camp, r, rf"sparta.yaml was not stored and nothing was changed (the file accepted before, if any, is "
                          rf"still the one that counts): fix that, then give it again; {tmp_path}/orders withheld\n"
                          rf"\x1b[31mtroy.yaml was not taken (not answered, nothing changed): give it to `pbem "
                          rf"submit` again")


def test_files_a_full_disk_kept_ingest_from_are_named_as_not_taken(camp, disk, tmp_path):
    drop = tmp_path / "drop"
    drop.mkdir()
    for i, player in enumerate(("athens", "sparta")):
        (drop / f"{player}.yaml").write_bytes(order_text(camp, player))
        os.utime(drop / f"{player}.yaml", (1000 + i, 1000 + i))  # athens first
    disk.fill_at(1)  # athens.yaml cannot be stored
    r = pbem("ingest", camp.root, "--from", drop)
    disk.free()
    assert r.exit_code == 2, r.output
    assert said(r).endswith("fix that, then give it again; sparta.yaml was not taken (not answered, nothing "
                            "changed): it stays in the drop folder, and the next ingest takes it"), r.output
    disk.fill_at(3)  # athens.yaml stored and audited; its reply is not kept
    r = pbem("ingest", camp.root, "--from", drop)
    disk.free()
    assert r.exit_code == 2, r.output
    assert said(r).endswith("athens.yaml stays in the drop folder, and the next ingest answers it again; "
                            "sparta.yaml was not taken (not answered, nothing changed): it stays in the drop folder, "
                            "and the next ingest takes it"), r.output
    r = pbem("ingest", camp.root, "--from", drop)
    assert r.exit_code == 0 and audit(camp).count("intake accepted") == 2, r.output


def test_a_committed_turn_whose_summary_stdout_cannot_take_says_it_is_committed(camp, monkeypatch):
    """A code review: cron's `run-turn >> log` on the full disk: the turn was committed, and the moderator was told
    only `pbem: a file: No space left on device`, as if it had not run."""
    import typer
    echo = typer.echo

    def full_stdout(message=None, *args, err=False, **kwargs):
        if not err:
            raise OSError(errno.ENOSPC, FULL)
        return echo(message, *args, err=err, **kwargs)
    monkeypatch.setattr(typer, "echo", full_stdout)
    r = pbem("run-turn", camp.root, "--force", "--no-reports")
    monkeypatch.setattr(typer, "echo", echo)
    assert r.exit_code == 2, r.output
    assert r.output.strip().splitlines()[-1].startswith(
        f"pbem: turn 1 is committed, but what follows it failed (standard output: {FULL}; the summary was not "
        f"written whole); the turn stands"), r.output
    assert Campaign.open(camp.root).current_turn == 2


def test_a_seed_revealed_on_a_full_disk_is_revealed_with_its_audit_line_or_not_at_all(camp, disk, tmp_path):
    """The same review's pattern: revealed-seed.txt (which closes the campaign) was written, then its audit line
    refused."""
    before = tree(camp.root)
    for n in (1, 2):  # revealed-seed.txt, then its audit line
        disk.fill_at(n)
        r = pbem("archive", camp.root, "--reveal-seed", "--abandon", "-o", tmp_path / "out.tar.gz")
        disk.free()
        assert r.exit_code == 2 and tree(camp.root) == before, r.output
        assert said(r).endswith(f"{FULL}; the seed was not revealed, no archive was made and nothing was changed: "
                                f"fix that, then run it again"), r.output
    r = pbem("archive", camp.root, "--reveal-seed", "--abandon", "-o", tmp_path / "out.tar.gz")
    assert r.exit_code == 0 and "secret seed revealed" in audit(camp), r.output


def test_a_command_whose_standard_output_is_full_says_so_and_what_it_did_stands(tmp_path):
    """A moderator's review: with standard output on a full disk (cron's `>> log`), `pbem deadline` set the deadline
    and wrote its audit line, then failed printing it: `pbem: a file: No space left on device`.  It now names
    standard output and says the command's changes stand, recorded in audit.log (exit 2)."""
    import subprocess
    import sys
    from pbem.campaign import create
    camp = create(tmp_path / "camp", ["athens", "sparta"], seed="5", name="test").campaign
    full = ("import errno, io, sys\n"
            "class Full(io.TextIOBase):\n"
            "    def write(self, s): raise OSError(errno.ENOSPC, 'No space left on device')\n"
            "    def flush(self): pass\n"
            "sys.stdout = Full()\n"
            "sys.argv = ['pbem', 'deadline', sys.argv[1], '2026-12-24']\n"
            "from pbem.launch import main\n"
            "main()\n")
    r = subprocess.run([sys.executable, "-c", full, str(camp.root)], capture_output=True, text=True)
    assert r.returncode == 2, r
    assert r.stderr.startswith("pbem: standard output: No space left on device; the command stopped where it could "
                               "not write what it had to say, after what it had done by then (audit.log records "
                               "every change)"), r.stderr
    assert "deadline: 2026-12-24" in (camp.root / "campaign.yaml").read_text()  # done, and audited
    assert "deadline of turn 1" in (camp.root / "audit.log").read_text()


def test_a_change_not_made_leaves_the_settings_in_memory_as_the_file_has_them(camp, monkeypatch):
    """Campaign.change undoes campaign.yaml when its audit line cannot be written, and the settings in memory with
    it (its staged config forgets them): a caller that went on must not read a deadline that was not set."""
    import errno
    before = dict(camp.config)
    new = {**before, "deadline": "2026-12-24T23:59Z"}

    def no_room(*lines):
        raise OSError(errno.ENOSPC, "No space left on device", str(camp.root / "audit.log"))
    monkeypatch.setattr(camp, "audit", no_room)
    with pytest.raises(OSError):
        camp.change("deadline of turn 1 set", config=new)
    assert camp.config == before and camp.config.get("deadline") != "2026-12-24T23:59Z"
    assert deadline_in(camp) == before.get("deadline")
